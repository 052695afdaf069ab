"""Grade 1 problem generators: Operations and Algebraic Thinking, clusters C–D.

The standards 1.OA.C.5 to 1.OA.D.8; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._registry import Generator, Made, table
from tutorgraph.training.problems._words import NAMES, pick
from tutorgraph.training.problems.grade_k2._shared import _choose

__all__ = ["GENERATORS"]


def _g1_count_on(rng: random.Random) -> Made:
    a = rng.randint(4, 17)
    k = rng.randint(1, 3)
    return _choose(
        rng,
        (
            (f"Start at {a} and count on {k}. What number do you land on?", f"{a} + {k}", a + k),
            (f"Count back {k} from {a}. What number do you get?", f"{a} - {k}", a - k),
            (f"Add {a} + {k} by counting on.", f"{a} + {k}", a + k),
            (f"Subtract {a} - {k} by counting back.", f"{a} - {k}", a - k),
            (f"how do you count on to do {a} plus {k}", f"{a} + {k}", a + k),
            (
                f"Put {a} in your head and count on {k}: {a}, ... What is the last number?",
                f"{a} + {k}",
                a + k,
            ),
        ),
    )


def _g1_count_on_word(rng: random.Random) -> Made:
    a = rng.randint(4, 16)
    k = rng.randint(2, 3)
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"{name}'s game piece is on {a}. {name} rolls a {k} and counts on. What "
                "space does it land on?",
                f"{a} + {k}",
                a + k,
            ),
            (
                f"{name} is on step {a} and goes down {k} steps, counting back. What step "
                f"is {name} on?",
                f"{a} - {k}",
                a - k,
            ),
            (
                f"{name} has {a} crackers and counts on as {k} more are added. How many crackers?",
                f"{a} + {k}",
                a + k,
            ),
            (
                f"on the number path i start at {a} and count back {k} where do i end",
                f"{a} - {k}",
                a - k,
            ),
            (
                f"A frog is on {a} and hops forward {k} spaces. Where is the frog?",
                f"{a} + {k}",
                a + k,
            ),
            (
                f"{name} counts on from {a} to {a + k}. How many did {name} count on?",
                f"{a + k} - {a}",
                k,
            ),
        ),
    )


def _g1_facts(rng: random.Random) -> Made:
    total = rng.randint(5, 20)
    a = rng.randint(max(0, total - 10), min(10, total))
    b = total - a
    return _choose(
        rng,
        (
            (f"{a} + {b} = ?", f"{a} + {b}", total),
            (f"{total} - {a} = ?", f"{total} - {a}", b),
            (f"What is {b} + {a}?", f"{b} + {a}", total),
            (f"Subtract: {total} - {b}", f"{total} - {b}", a),
            (f"whats {total} minus {a}", f"{total} - {a}", b),
            (f"Add: {a} + {b}", f"{a} + {b}", total),
        ),
    )


def _g1_make_ten(rng: random.Random) -> Made:
    a = rng.randint(6, 9)
    b = rng.randint(11 - a, 9)
    total = a + b
    need = 10 - a
    teen = rng.randint(11, 18)
    k = rng.randint(teen - 9, 9)
    return _choose(
        rng,
        (
            (f"Make a ten: {a} + {b} = 10 + ?", f"{a} + {b} - 10", total - 10),
            (f"{a} + {b} = {a} + {need} + {b - need} = ?", f"{a} + {need} + {b - need}", total),
            (f"Use make-a-ten to add {a} + {b}.", f"{a} + {b}", total),
            (f"Subtract {teen} - {k} by going back to 10 first.", f"{teen} - {k}", teen - k),
            (
                f"{teen} - {k} = {teen} - {teen - 10} - {k - (teen - 10)} = ?",
                f"{teen} - {k}",
                teen - k,
            ),
            (f"how do you use doubles for {a} + {a + 1}", f"{a} + {a} + 1", 2 * a + 1),
        ),
    )


def _g1_true_false(rng: random.Random) -> Made:
    equations: list[tuple[str, str, str]] = []
    for _ in range(rng.randint(3, 4)):
        a, b = rng.randint(1, 9), rng.randint(1, 9)
        kind = rng.randrange(4)
        shift = rng.choice((0, 0, 1, -1))
        if kind == 0:
            equations.append((f"{a} + {b} = {b} + {a + shift}", f"{a} + {b}", f"{b} + {a + shift}"))
        elif kind == 1:
            equations.append((f"{a + b + shift} = {a} + {b}", f"{a + b + shift}", f"{a} + {b}"))
        elif kind == 2:
            equations.append((f"{a} = {a + b} - {b + shift}", f"{a}", f"{a + b} - {b + shift}"))
        else:
            equations.append((f"{a} + {b} = {a + b + shift}", f"{a} + {b}", f"{a + b + shift}"))
    listing = "; ".join(e[0] for e in equations)
    # An equation counts 1 when its sides are equal: 1 - min(1, |left - right|) for whole numbers.
    expression = " + ".join(f"(1 - min(1, abs(({lhs}) - ({rhs}))))" for _, lhs, rhs in equations)
    count = sum(
        1
        for _, lhs, rhs in equations
        if sum(int(t) for t in lhs.replace("- ", "+ -").split("+"))
        == sum(int(t) for t in rhs.replace("- ", "+ -").split("+"))
    )
    return _choose(
        rng,
        (
            (f"How many of these equations are true? {listing}", expression, count),
            (f"True or false? Count the true ones: {listing}", expression, count),
            (f"which of these are true {listing} how many", expression, count),
            (
                f"Look at each equation and decide if it is true. How many are true? {listing}",
                expression,
                count,
            ),
            (
                "The equal sign means both sides are the same. How many of these are "
                f"true? {listing}",
                expression,
                count,
            ),
        ),
    )


def _g1_missing(rng: random.Random) -> Made:
    total = rng.randint(5, 20)
    a = rng.randint(1, total - 1)
    b = total - a
    return _choose(
        rng,
        (
            (f"{a} + ? = {total}", f"{total} - {a}", b),
            (f"{b} = ? - {a}", f"{b} + {a}", total),
            (f"{a} + {b} = ?", f"{a} + {b}", total),
            (f"? - {a} = {b}", f"{b} + {a}", total),
            (f"{total} - ? = {b}", f"{total} - {b}", a),
            (f"what number goes in the box {a} + [] = {total}", f"{total} - {a}", b),
            (f"Find the unknown number: {total} = ? + {b}", f"{total} - {b}", a),
        ),
    )


def _g1_missing_word(rng: random.Random) -> Made:
    total = rng.randint(6, 20)
    a = rng.randint(2, total - 2)
    b = total - a
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"{name} thinks of a number and adds {a}. The answer is {total}. What is "
                "the number?",
                f"{total} - {a}",
                b,
            ),
            (
                f"{name} thinks of a number and takes away {a}. The answer is {b}. What "
                f"number did {name} start with?",
                f"{b} + {a}",
                total,
            ),
            (f"{name} writes {a} + [] = {total}. What goes in the box?", f"{total} - {a}", b),
            (f"what number makes this true {b} = [] - {a}", f"{b} + {a}", total),
            (f"{name} says {total} - ? = {a}. What is the missing number?", f"{total} - {a}", b),
            (
                f"A card covers a number: {total} = {a} + ?. What number is under the card?",
                f"{total} - {a}",
                b,
            ),
        ),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("1.OA.C.5/count-on-back", "bare", _g1_count_on),
    ("1.OA.C.5/number-path-story", "word", _g1_count_on_word),
    ("1.OA.C.6/facts-within-20", "bare", _g1_facts),
    ("1.OA.C.6/make-ten-strategy", "bare", _g1_make_ten),
    ("1.OA.D.7/true-equations", "bare", _g1_true_false),
    ("1.OA.D.8/missing-number", "bare", _g1_missing),
    ("1.OA.D.8/number-puzzle", "word", _g1_missing_word),
)
