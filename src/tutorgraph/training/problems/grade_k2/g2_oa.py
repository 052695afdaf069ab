"""Grade 2 problem generators: Operations and Algebraic Thinking.

The standards 2.OA.A.1 to 2.OA.C.4; `GENERATORS` lists their generators in the registry's order.
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
)

__all__ = ["GENERATORS"]


def _g2_one_step(rng: random.Random) -> Made:
    return _add_take_story(rng, 25, 100)


def _g2_compare(rng: random.Random) -> Made:
    return _together_compare_story(rng, 25, 100)


def _g2_two_step(rng: random.Random) -> Made:
    a = rng.randint(20, 60)
    b = rng.randint(5, 30)
    c = rng.randint(5, a + b - 5)
    d = rng.randint(5, 30)
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} had {a} {things}. {name} got {b} more and then gave away {c}. "
                f"How many {things} does {name} have now?",
                f"{a} + {b} - {c}",
                a + b - c,
            ),
            (
                f"A bus had {a} people. At the first stop {c if c < a else b} got off and "
                f"{d} got on. How many people are on the bus?",
                f"{a} - {c if c < a else b} + {d}",
                a - (c if c < a else b) + d,
            ),
            (
                f"{name} has {a} {things}. {name}'s friend has {b} more than {name}. How "
                f"many {things} do they have together?",
                f"{a} + {a} + {b}",
                2 * a + b,
            ),
            (
                f"There were {a} {things} in a box. {name} added {b} and then {d} more. "
                "how many are in the box now",
                f"{a} + {b} + {d}",
                a + b + d,
            ),
            (
                f"{name} had some {things}, got {b} more, then lost {d}. Now {name} has "
                f"{a}. How many did {name} start with?",
                f"{a} + {d} - {b}",
                a + d - b,
            ),
            (
                f"A shelf holds {a + b} {things}. {b} are sold in the morning and "
                f"{min(d, a)} in the afternoon. How many are left?",
                f"{a + b} - {b} - {min(d, a)}",
                a - min(d, a),
            ),
        ),
    )


def _g2_facts(rng: random.Random) -> Made:
    a, b = rng.randint(2, 9), rng.randint(2, 9)
    total = a + b
    return _choose(
        rng,
        (
            (f"{a} + {b} = ?", f"{a} + {b}", total),
            (f"{total} - {a} = ?", f"{total} - {a}", b),
            (f"Quick! {b} + {a}", f"{b} + {a}", total),
            (f"Solve in your head: {total} - {b}", f"{total} - {b}", a),
            (f"whats {a} plus {b}", f"{a} + {b}", total),
            (f"Fill in: {a} + ___ = {total}", f"{total} - {a}", b),
        ),
    )


def _g2_doubles(rng: random.Random) -> Made:
    a = rng.randint(2, 9)
    b = rng.randint(2, 9)
    return _choose(
        rng,
        (
            (f"Double {a}: {a} + {a} = ?", f"{a} + {a}", 2 * a),
            (f"Use a double to add {a} + {a + 1}.", f"{a} + {a} + 1", 2 * a + 1),
            (f"{2 * a} - {a} = ?", f"{2 * a} - {a}", a),
            (f"if {a} + {a} = {2 * a} then what is {a} + {a - 1}", f"{a} + {a} - 1", 2 * a - 1),
            (f"Solve mentally: {a + b} - {b}", f"{a + b} - {b}", a),
            (f"Near doubles: {b} + {b + 1} = ?", f"{b} + {b} + 1", 2 * b + 1),
        ),
    )


def _g2_odd_even(rng: random.Random) -> Made:
    half = rng.randint(2, 10)
    even = 2 * half
    n = rng.randint(5, 20)
    return _choose(
        rng,
        (
            (f"Write {even} as a sum of two equal addends: {even} = ? + ?", f"{even} / 2", half),
            (
                f"{even} is even. {even} = ___ + ___ with the same number twice. What number?",
                f"{even} / 2",
                half,
            ),
            (f"If you pair up {n} objects, how many are left over?", f"{n} % 2", n % 2),
            (f"Count by 2s to {even}. How many 2s did you count?", f"{even} / 2", half),
            (
                f"is {n} odd or even",
                f'"{"even" if n % 2 == 0 else "odd"}"',
                "even" if n % 2 == 0 else "odd",
            ),
            (f"What doubles fact makes {even}? ? + ? = {even}", f"{even} / 2", half),
        ),
    )


def _g2_pairs(rng: random.Random) -> Made:
    n = rng.randint(5, 20)
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (f"{n} kids line up in pairs. How many kids have no partner?", f"{n} % 2", n % 2),
            (
                f"{name} has {n} socks and matches them into pairs. How many pairs can "
                f"{name} make?",
                f"{n} // 2",
                n // 2,
            ),
            (
                f"{name} shares {2 * (n // 2)} {things} equally with a friend so both get "
                "the same. How many does each get?",
                f"{2 * (n // 2)} / 2",
                n // 2,
            ),
            (f"there are {n} shoes how many full pairs", f"{n} // 2", n // 2),
            (
                f"{name} puts {n} {things} in 2 equal rows with none left over if it can. "
                "How many are left over?",
                f"{n} % 2",
                n % 2,
            ),
            (
                f"{name} has {n} {things}. How many more does {name} need so the number "
                "is even? (0 if it is)",
                f"{n} % 2",
                n % 2,
            ),
        ),
    )


def _g2_array(rng: random.Random) -> Made:
    rows, cols = rng.randint(2, 5), rng.randint(2, 5)
    total = rows * cols
    sums = " + ".join([str(cols)] * rows)
    dots = " / ".join(" ".join("o" * cols) for _ in range(rows))
    return _choose(
        rng,
        (
            (
                f"An array has {rows} rows of {cols}. Write a repeated addition and find "
                "the total.",
                sums,
                total,
            ),
            (f"{sums} = ?", sums, total),
            (f"How many dots? {dots}", sums, total),
            (f"{rows} rows with {cols} in each row. How many in all?", sums, total),
            (f"what is the total for an array with {cols} columns and {rows} rows", sums, total),
            (
                f"An array has {total} dots in {rows} equal rows. How many dots are in each row?",
                f"{total} / {rows}",
                cols,
            ),
        ),
    )


def _g2_array_word(rng: random.Random) -> Made:
    rows, cols = rng.randint(2, 5), rng.randint(2, 5)
    total = rows * cols
    sums = " + ".join([str(cols)] * rows)
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} puts {things} in {rows} rows with {cols} in each row. How many "
                f"{things} in all?",
                sums,
                total,
            ),
            (
                f"A garden has {rows} rows of {cols} plants. How many plants are in the garden?",
                sums,
                total,
            ),
            (
                f"A muffin tray has {rows} rows and {cols} columns. How many muffins fit?",
                sums,
                total,
            ),
            (f"the desks are in {rows} rows of {cols} how many desks", sums, total),
            (
                f"{name} sets out {total} chairs in {rows} equal rows. How many chairs "
                "are in each row?",
                f"{total} / {rows}",
                cols,
            ),
            (
                f"Stickers come in a sheet of {rows} rows with {cols} stickers each. "
                "Write an equation with equal addends for the total.",
                sums,
                total,
            ),
        ),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("2.OA.A.1/one-step-story", "word", _g2_one_step),
    ("2.OA.A.1/compare-story", "word", _g2_compare),
    ("2.OA.A.1/two-step-story", "word", _g2_two_step),
    ("2.OA.B.2/mental-facts", "bare", _g2_facts),
    ("2.OA.B.2/doubles-near-doubles", "bare", _g2_doubles),
    ("2.OA.C.3/odd-even", "bare", _g2_odd_even),
    ("2.OA.C.3/pairs-story", "word", _g2_pairs),
    ("2.OA.C.4/array-addition", "bare", _g2_array),
    ("2.OA.C.4/array-story", "word", _g2_array_word),
)
