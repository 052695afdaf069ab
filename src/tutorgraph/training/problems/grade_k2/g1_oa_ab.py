"""Grade 1 problem generators: Operations and Algebraic Thinking, clusters A–B.

The standards 1.OA.A.1 to 1.OA.B.4; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._registry import Generator, Made, table
from tutorgraph.training.problems._words import NAMES, pick
from tutorgraph.training.problems.grade_k2._shared import (
    _add_take_story,
    _choose,
    _thing,
    _together_compare_story,
    _two_names,
)

__all__ = ["GENERATORS"]


def _g1_add_take(rng: random.Random) -> Made:
    return _add_take_story(rng, 6, 20)


def _g1_compare(rng: random.Random) -> Made:
    return _together_compare_story(rng, 6, 20)


def _g1_equation(rng: random.Random) -> Made:
    total = rng.randint(8, 20)
    a = rng.randint(2, total - 2)
    b = total - a
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"Write an equation with a box for the unknown and solve: {name} has {a} "
                f"{things} and gets some more. Now {name} has {total}.",
                f"{total} - {a}",
                b,
            ),
            (
                f"{name} had a box of {things}. After giving {b} away, {a} were left. Use "
                "? for the unknown and solve.",
                f"{a} + {b}",
                total,
            ),
            (
                f"Draw a picture and solve: {a} {things} and {b} {things}. How many in all?",
                f"{a} + {b}",
                total,
            ),
            (
                f"{total} {things} are on the shelf. Some fall off. {a} are still on the "
                "shelf. How many fell off?",
                f"{total} - {a}",
                b,
            ),
            (
                f"i need an equation for this: {name} read {a} pages and then some more. "
                f"{name} read {total} pages in all. how many more pages",
                f"{total} - {a}",
                b,
            ),
            (
                f"{name} scored {a} points. {name}'s friend scored {b} more than {name}. "
                "How many points did the friend score?",
                f"{a} + {b}",
                total,
            ),
        ),
    )


def _g1_three(rng: random.Random) -> Made:
    a, b = rng.randint(2, 8), rng.randint(2, 8)
    c = rng.randint(2, 20 - a - b)
    total = a + b + c
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} has {a} red {things}, {b} blue {things} and {c} green {things}. "
                f"How many {things} in all?",
                f"{a} + {b} + {c}",
                total,
            ),
            (
                f"{name} picked {a} apples on Monday, {b} on Tuesday and {c} on "
                f"Wednesday. How many apples did {name} pick?",
                f"{a} + {b} + {c}",
                total,
            ),
            (
                f"There are {a} cats, {b} dogs and {c} rabbits at the pet shop. How many "
                "animals are there?",
                f"{a} + {b} + {c}",
                total,
            ),
            (
                f"{name} read {a} books, then {b} books, then {c} more books. how many "
                "books altogether",
                f"{a} + {b} + {c}",
                total,
            ),
            (
                f"Three friends have {things}: {a}, {b} and {c}. Write an equation and "
                "find how many they have together.",
                f"{a} + {b} + {c}",
                total,
            ),
            (
                f"A vase has {a} roses, {b} daisies and {c} tulips. How many flowers are "
                "in the vase?",
                f"{a} + {b} + {c}",
                total,
            ),
        ),
    )


def _g1_three_unknown(rng: random.Random) -> Made:
    a, b = rng.randint(2, 7), rng.randint(2, 7)
    c = rng.randint(2, 20 - a - b)
    total = a + b + c
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} has {total} {things} in three bags. One bag has {a} and another "
                f"has {b}. How many are in the third bag?",
                f"{total} - {a} - {b}",
                c,
            ),
            (
                f"{a} + {b} + ? = {total}. {name} picked {things} on three days; how many "
                "on the third day?",
                f"{total} - {a} - {b}",
                c,
            ),
            (
                f"Three friends have {total} {things} together. Two of them have {a} and "
                f"{b}. how many does the third friend have",
                f"{total} - {a} - {b}",
                c,
            ),
            (
                f"{name} scored {a}, {b} and {c} points in three games. What is the "
                "total? Write an equation with a symbol for the unknown.",
                f"{a} + {b} + {c}",
                total,
            ),
            (
                f"A bus has {a} kids in front, {b} in the middle and {c} in the back. How "
                "many kids are on the bus?",
                f"{a} + {b} + {c}",
                total,
            ),
            (
                f"{name} needs {total} {things}. {name} has {a} and gets {b} from a "
                f"friend. How many more does {name} need?",
                f"{total} - {a} - {b}",
                c,
            ),
        ),
    )


def _g1_properties(rng: random.Random) -> Made:
    a, b = rng.randint(2, 9), rng.randint(2, 9)
    c = 10 - b
    return _choose(
        rng,
        (
            (f"If {a} + {b} = {a + b}, what is {b} + {a}?", f"{b} + {a}", a + b),
            (f"Fill in: {a} + {b} = {b} + ?", f"{a}", a),
            (f"Make a ten to add: {b} + {a} + {c} = ?", f"{b} + {a} + {c}", a + 10),
            (f"Add {a} + {b} + {c}. Hint: add {b} + {c} first.", f"{a} + {b} + {c}", a + 10),
            (f"if i know {a} + {b} = {a + b} what is {b} + {a}", f"{b} + {a}", a + b),
            (f"Find the missing number: ? + {a} = {a} + {b}", f"{b}", b),
        ),
    )


def _g1_properties_word(rng: random.Random) -> Made:
    a, b = rng.randint(2, 8), rng.randint(2, 9)
    c = 10 - a
    a_name, b_name = _two_names(rng)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{a_name} has {a} red and {b} blue {things}. {b_name} has {b} red and "
                f"{a} blue. {a_name} has {a + b}. How many does {b_name} have?",
                f"{b} + {a}",
                a + b,
            ),
            (
                f"{a_name} adds {a} + {b} + {c} by adding {a} + {c} first. What total "
                f"does {a_name} get?",
                f"{a} + {c} + {b}",
                10 + b,
            ),
            (
                f"{a_name} knows {a} + {b} = {a + b}. {b_name} is asked {b} + {a}. what "
                f"should {b_name} say",
                f"{b} + {a}",
                a + b,
            ),
            (
                f"{a_name} buys {a} apples, {b} pears and {c} plums. Add the two that "
                "make 10 first. How many fruits?",
                f"{a} + {c} + {b}",
                10 + b,
            ),
            (
                f"{a_name} puts {b} {things} in a cup and then {a} more. {b_name} puts "
                f"{a} in first and then {b}. How many does {b_name} have?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"A train has {a} red cars, {b} blue cars and {c} green cars. How many "
                f"cars? (Hint: {a} + {c} = 10.)",
                f"{a} + {b} + {c}",
                10 + b,
            ),
        ),
    )


def _g1_unknown_addend(rng: random.Random) -> Made:
    total = rng.randint(8, 18)
    a = rng.randint(2, total - 2)
    return _choose(
        rng,
        (
            (
                f"To find {total} - {a}, think: {a} + ? = {total}. What is the answer?",
                f"{total} - {a}",
                total - a,
            ),
            (f"Solve {total} - {a} by adding up from {a}.", f"{total} - {a}", total - a),
            (
                f"What number added to {a} makes {total}? Use it to find {total} - {a}.",
                f"{total} - {a}",
                total - a,
            ),
            (f"how does {a} + ? = {total} help with {total} - {a}", f"{total} - {a}", total - a),
            (f"{a} + ___ = {total}, so {total} - {a} = ___", f"{total} - {a}", total - a),
            (f"Count up from {a} to {total}. How many did you count?", f"{total} - {a}", total - a),
        ),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("1.OA.A.1/add-take-story", "word", _g1_add_take),
    ("1.OA.A.1/compare-story", "word", _g1_compare),
    ("1.OA.A.1/equation-for-story", "word", _g1_equation),
    ("1.OA.A.2/three-addends-story", "word", _g1_three),
    ("1.OA.A.2/unknown-third-addend", "word", _g1_three_unknown),
    ("1.OA.B.3/properties", "bare", _g1_properties),
    ("1.OA.B.3/turnaround-story", "word", _g1_properties_word),
    ("1.OA.B.4/think-addition", "bare", _g1_unknown_addend),
)
