"""Kindergarten problem generators: Operations and Algebraic Thinking.

The standards K.OA.A.1 to K.OA.A.5; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._registry import Generator, Made, table
from tutorgraph.training.problems._words import NAMES, pick
from tutorgraph.training.problems.grade_k2._shared import _choose, _thing

__all__ = ["GENERATORS"]


def _k_act_out(rng: random.Random) -> Made:
    a = rng.randint(1, 5)
    b = rng.randint(1, 5)
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"Hold up {a} fingers on one hand and {b} on the other. How many fingers are up?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"{name} claps {a} times and then {b} more times. How many claps in all?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"{a + b} frogs sit on a log. {b} hop away. How many frogs are still on the log?",
                f"{a + b} - {b}",
                a,
            ),
            (
                f"Draw {a + b} circles and cross out {a}. How many circles are left?",
                f"{a + b} - {a}",
                b,
            ),
            (
                f"{name} hears {a} knocks and then {b} knocks. how many knocks is that",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"Write an expression for {a} cats and {b} more cats, then find how many cats.",
                f"{a} + {b}",
                a + b,
            ),
        ),
    )


def _k_story(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    things = _thing(rng)
    total = rng.randint(4, 10)
    a = rng.randint(2, total - 2)
    b = total - a
    return _choose(
        rng,
        (
            (
                f"{name} has {a} {things}. {name} gets {b} more. How many {things} does "
                f"{name} have now?",
                f"{a} + {b}",
                total,
            ),
            (
                f"There are {total} {things}. {a} roll away. How many {things} are left?",
                f"{total} - {a}",
                b,
            ),
            (
                f"{a} red {things} and {b} green {things} are in a box. How many {things} "
                "are in the box?",
                f"{a} + {b}",
                total,
            ),
            (f"{name} had {total} {things} and ate {b}. How many are left?", f"{total} - {b}", a),
            (
                f"{total} birds sat in a tree. {a} flew away. how many birds are in the tree now",
                f"{total} - {a}",
                b,
            ),
            (
                f"{name} picked {a} flowers and then {b} more flowers. How many flowers in all?",
                f"{a} + {b}",
                total,
            ),
        ),
    )


def _k_within_10(rng: random.Random) -> Made:
    total = rng.randint(2, 10)
    a = rng.randint(0, total)
    b = total - a
    return _choose(
        rng,
        (
            (f"{a} + {b} = ?", f"{a} + {b}", total),
            (f"{total} - {a} = ?", f"{total} - {a}", b),
            (f"What is {a} plus {b}?", f"{a} + {b}", total),
            (f"what is {total} take away {b}", f"{total} - {b}", a),
            (f"Add: {b} + {a}", f"{b} + {a}", total),
            (f"Subtract: {total} - {b}", f"{total} - {b}", a),
        ),
    )


def _k_decompose(rng: random.Random) -> Made:
    total = rng.randint(2, 10)
    a = rng.randint(1, total - 1)
    b = total - a
    return _choose(
        rng,
        (
            (f"{total} = {a} + ?", f"{total} - {a}", b),
            (f"{total} = ? + {b}", f"{total} - {b}", a),
            (
                f"Break {total} into two parts. One part is {a}. What is the other part?",
                f"{total} - {a}",
                b,
            ),
            (f"{a} and what make {total}?", f"{total} - {a}", b),
            (f"Find the missing part: {total} is {b} and ___.", f"{total} - {b}", a),
            (f"what goes with {b} to make {total}", f"{total} - {b}", a),
        ),
    )


def _k_decompose_word(rng: random.Random) -> Made:
    total = rng.randint(4, 10)
    a = rng.randint(2, total - 2)
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} has {total} {things}. Some are red and some are blue. {a} are "
                "red. How many are blue?",
                f"{total} - {a}",
                total - a,
            ),
            (
                f"{total} {things} are in two bags. One bag has {a}. How many are in the "
                "other bag?",
                f"{total} - {a}",
                total - a,
            ),
            (
                f"{name} has {total} {things} in two hands. {a} are in the left hand. How "
                "many are in the right hand?",
                f"{total} - {a}",
                total - a,
            ),
            (
                f"There are {total} kids. {a} are on the slide and the rest are on the "
                "swings. How many are on the swings?",
                f"{total} - {a}",
                total - a,
            ),
            (
                f"{total} fish swim in two tanks. {a} are in the big tank. how many are "
                "in the small tank",
                f"{total} - {a}",
                total - a,
            ),
            (
                f"{name} sorts {total} {things} into two piles. One pile has {total - a}. "
                "How many are in the other pile?",
                f"{total} - {total - a}",
                a,
            ),
        ),
    )


def _k_make_ten(rng: random.Random) -> Made:
    n = rng.randint(1, 9)
    return _choose(
        rng,
        (
            (f"{n} + ? = 10", f"10 - {n}", 10 - n),
            (f"What number makes 10 when added to {n}?", f"10 - {n}", 10 - n),
            (f"? + {n} = 10", f"10 - {n}", 10 - n),
            (f"how many more to make 10 if you have {n}", f"10 - {n}", 10 - n),
            (f"Find the partner of {n} that makes ten.", f"10 - {n}", 10 - n),
            (f"A ten frame has {n} dots. How many empty boxes are there?", f"10 - {n}", 10 - n),
        ),
    )


def _k_make_ten_word(rng: random.Random) -> Made:
    n = rng.randint(1, 9)
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} has {n} {things}. How many more does {name} need to have 10?",
                f"10 - {n}",
                10 - n,
            ),
            (f"A box holds 10 {things}. It has {n} in it. How many more fit?", f"10 - {n}", 10 - n),
            (f"{name} wants 10 {things} and has {n}. how many more", f"10 - {n}", 10 - n),
            (
                f"There are 10 seats on the bus and {n} kids are sitting. How many seats "
                "are empty?",
                f"10 - {n}",
                10 - n,
            ),
            (f"{name} holds up {n} fingers. How many more fingers make 10?", f"10 - {n}", 10 - n),
            (
                f"{name} needs 10 points to win and has {n}. How many points are still needed?",
                f"10 - {n}",
                10 - n,
            ),
        ),
    )


def _k_within_5(rng: random.Random) -> Made:
    total = rng.randint(1, 5)
    a = rng.randint(0, total)
    b = total - a
    return _choose(
        rng,
        (
            (f"{a} + {b} =", f"{a} + {b}", total),
            (f"{total} - {a} =", f"{total} - {a}", b),
            (f"Quick! What is {b} + {a}?", f"{b} + {a}", total),
            (f"what is {total} minus {b}", f"{total} - {b}", a),
            (f"Add: {a} + {b}", f"{a} + {b}", total),
            (f"Subtract: {total} - {b}", f"{total} - {b}", a),
        ),
    )


def _k_within_5_word(rng: random.Random) -> Made:
    total = rng.randint(2, 5)
    a = rng.randint(1, total - 1)
    b = total - a
    name = pick(rng, NAMES)
    animal = pick(rng, ("frogs", "ducks", "bees", "kittens", "ants"))
    return _choose(
        rng,
        (
            (
                f"{a} {animal} are on a rock. {b} more {animal} come. How many {animal} now?",
                f"{a} + {b}",
                total,
            ),
            (
                f"{total} {animal} are in the grass. {a} ran away. How many are left?",
                f"{total} - {a}",
                b,
            ),
            (
                f"{name} holds up {a} fingers and then {b} more. How many fingers?",
                f"{a} + {b}",
                total,
            ),
            (
                f"{name} had {total} balloons. {b} popped. how many balloons are left",
                f"{total} - {b}",
                a,
            ),
            (
                f"There are {a} big {animal} and {b} little {animal}. How many {animal} in all?",
                f"{a} + {b}",
                total,
            ),
            (
                f"{name} has {total} grapes and eats {a}. How many grapes are left?",
                f"{total} - {a}",
                b,
            ),
        ),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("K.OA.A.1/act-it-out", "word", _k_act_out),
    ("K.OA.A.2/story-within-10", "word", _k_story),
    ("K.OA.A.2/add-subtract-within-10", "bare", _k_within_10),
    ("K.OA.A.3/decompose", "bare", _k_decompose),
    ("K.OA.A.3/two-colors", "word", _k_decompose_word),
    ("K.OA.A.4/make-ten", "bare", _k_make_ten),
    ("K.OA.A.4/make-ten-story", "word", _k_make_ten_word),
    ("K.OA.A.5/within-5", "bare", _k_within_5),
    ("K.OA.A.5/within-5-story", "word", _k_within_5_word),
)
