"""Grade 2 problem generators: Number and Operations in Base Ten, cluster B.

The standards 2.NBT.B.5 to 2.NBT.B.9; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._registry import Generator, Made, table
from tutorgraph.training.problems._words import NAMES, pick
from tutorgraph.training.problems.grade_k2._shared import _choose, _thing

__all__ = ["GENERATORS"]


def _g2_within_100(rng: random.Random) -> Made:
    a = rng.randint(12, 88)
    b = rng.randint(5, 99 - a)
    total = a + b
    return _choose(
        rng,
        (
            (f"{a} + {b} = ?", f"{a} + {b}", total),
            (f"{total} - {b} = ?", f"{total} - {b}", a),
            (f"Add: {a} + {b}", f"{a} + {b}", total),
            (f"Subtract: {total} - {a}", f"{total} - {a}", b),
            (f"whats {total} minus {b}", f"{total} - {b}", a),
            (f"{a} + ? = {total}", f"{total} - {a}", b),
        ),
    )


def _g2_within_100_word(rng: random.Random) -> Made:
    a = rng.randint(15, 80)
    b = rng.randint(5, 99 - a)
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} has {a} {things} and buys {b} more. How many {things} does {name} have?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"A library had {a + b} books out and {b} came back. How many are still out?",
                f"{a + b} - {b}",
                a,
            ),
            (
                f"{name} made {a + b} cookies and sold {a}. how many cookies are left",
                f"{a + b} - {a}",
                b,
            ),
            (
                f"There are {a} girls and {b} boys at the park. How many children are there?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"{name} needs {a + b} stickers for the album and has {a}. How many more "
                "are needed?",
                f"{a + b} - {a}",
                b,
            ),
            (
                f"A game has {a + b} cards. {name} has dealt {b}. How many cards are left to deal?",
                f"{a + b} - {b}",
                a,
            ),
        ),
    )


def _g2_four(rng: random.Random) -> Made:
    nums = [rng.randint(10, 99) for _ in range(rng.randint(3, 4))]
    expr = " + ".join(str(n) for n in nums)
    total = sum(nums)
    column = " / ".join(str(n) for n in nums)
    return _choose(
        rng,
        (
            (f"{expr} = ?", expr, total),
            (f"Add: {expr}", expr, total),
            (f"Add the column: {column}", expr, total),
            (f"whats {expr}", expr, total),
            (f"Find the sum of {', '.join(str(n) for n in nums)}.", expr, total),
            (f"Add the tens first, then the ones: {expr}", expr, total),
        ),
    )


def _g2_four_word(rng: random.Random) -> Made:
    nums = [rng.randint(10, 99) for _ in range(rng.randint(3, 4))]
    expr = " + ".join(str(n) for n in nums)
    listing = ", ".join(str(n) for n in nums[:-1]) + f" and {nums[-1]}"
    name = pick(rng, NAMES)
    things = _thing(rng)
    days = ("Monday", "Tuesday", "Wednesday", "Thursday")
    by_day = ", ".join(f"{n} on {d}" for n, d in zip(nums, days, strict=False))
    return _choose(
        rng,
        (
            (f"{name} collected {things}: {by_day}. How many {things} in all?", expr, sum(nums)),
            (f"The teams scored {listing} points. What is the total?", expr, sum(nums)),
            (
                f"{name} read {listing} pages in four days. how many pages altogether",
                expr,
                sum(nums),
            ),
            (
                f"Four classes raised {listing} dollars. How much did they raise together?",
                expr,
                sum(nums),
            ),
            (f"A farmer picks {listing} apples from the trees. How many apples?", expr, sum(nums)),
            (f"Add to find the total number of {things}: {listing}.", expr, sum(nums)),
        ),
    )


def _g2_within_1000(rng: random.Random) -> Made:
    a = rng.randint(100, 899)
    b = rng.randint(10, 999 - a)
    total = a + b
    return _choose(
        rng,
        (
            (f"{a} + {b} = ?", f"{a} + {b}", total),
            (f"{total} - {b} = ?", f"{total} - {b}", a),
            (f"Add: {a} + {b}. Regroup if you need to.", f"{a} + {b}", total),
            (f"Subtract: {total} - {a}", f"{total} - {a}", b),
            (f"how do you do {total} - {b} with regrouping", f"{total} - {b}", a),
            (f"Find the difference of {total} and {b}.", f"{total} - {b}", a),
        ),
    )


def _g2_within_1000_word(rng: random.Random) -> Made:
    a = rng.randint(100, 800)
    b = rng.randint(20, 999 - a)
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"A school has {a} students. {b} more join. How many students are there?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"{name} had {a + b} points and lost {b}. How many points are left?",
                f"{a + b} - {b}",
                a,
            ),
            (
                f"A farm had {a + b} chickens and sold {a}. how many chickens now",
                f"{a + b} - {a}",
                b,
            ),
            (
                f"{name} walked {a} steps in the morning and {b} in the afternoon. How "
                "many steps in all?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"A book has {a + b} pages. {name} has read {a}. How many pages are left?",
                f"{a + b} - {a}",
                b,
            ),
            (
                f"The zoo had {a} visitors on Saturday and {b} more on Sunday than on "
                "Saturday. How many came on Sunday?",
                f"{a} + {b}",
                a + b,
            ),
        ),
    )


def _g2_mental(rng: random.Random) -> Made:
    n = rng.randint(100, 900)
    step = pick(rng, (10, 100))
    return _choose(
        rng,
        (
            (f"What is {step} more than {n}?", f"{n} + {step}", n + step),
            (f"What is {step} less than {n}?", f"{n} - {step}", n - step),
            (f"{n} + {step} = ?", f"{n} + {step}", n + step),
            (f"{n} - {step} = ?", f"{n} - {step}", n - step),
            (f"whats {step} more than {n} in your head", f"{n} + {step}", n + step),
            (f"Subtract {step} from {n} mentally.", f"{n} - {step}", n - step),
        ),
    )


def _g2_mental_word(rng: random.Random) -> Made:
    n = rng.randint(100, 900)
    step = pick(rng, (10, 100))
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"{name} has {n} points and earns {step} more. What is the score now?",
                f"{n} + {step}",
                n + step,
            ),
            (
                f"A jar holds {n} beans. {name} takes out {step}. How many beans are left?",
                f"{n} - {step}",
                n - step,
            ),
            (
                f"{name} had {n} cents and spent {step}. how many cents left",
                f"{n} - {step}",
                n - step,
            ),
            (
                f"A road sign says {n} meters. After {step} more meters, how far have you gone?",
                f"{n} + {step}",
                n + step,
            ),
            (
                f"{name} has {n} stamps and a friend gives {step} more. How many stamps?",
                f"{n} + {step}",
                n + step,
            ),
            (
                f"A video had {n} views. The next day it had {step} more. How many views?",
                f"{n} + {step}",
                n + step,
            ),
        ),
    )


def _g2_strategy(rng: random.Random) -> Made:
    a, b = rng.randint(21, 69), rng.randint(11, 29)
    at, ao, bt, bo = a // 10 * 10, a % 10, b // 10 * 10, b % 10
    shift = 10 - ao if ao else 1
    return _choose(
        rng,
        (
            (
                f"To add {a} + {b}, add the tens {at} + {bt} and the ones {ao} + {bo}. "
                "What is the sum?",
                f"{at} + {bt} + {ao} + {bo}",
                a + b,
            ),
            (
                f"{a} + {b} = ({at} + {bt}) + ({ao} + {bo}) = ?",
                f"({at} + {bt}) + ({ao} + {bo})",
                a + b,
            ),
            (
                f"Why does {a + b} - {b} = {a + b + shift} - {b + shift}? Find the answer.",
                f"{a + b + shift} - {b + shift}",
                a,
            ),
            (
                f"i added the tens and ones separately for {a} + {b} what do i get",
                f"{at} + {bt} + {ao} + {bo}",
                a + b,
            ),
            (f"Use {a} + {b} = {a + b} to find {a + b} - {a}.", f"{a + b} - {a}", b),
            (
                f"Make a friendly number: {a} + {b} = {a + shift} + {b - shift}. What is the sum?",
                f"{a + shift} + {b - shift}",
                a + b,
            ),
        ),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("2.NBT.B.5/add-subtract-within-100", "bare", _g2_within_100),
    ("2.NBT.B.5/within-100-story", "word", _g2_within_100_word),
    ("2.NBT.B.6/add-up-to-four", "bare", _g2_four),
    ("2.NBT.B.6/add-up-to-four-story", "word", _g2_four_word),
    ("2.NBT.B.7/within-1000", "bare", _g2_within_1000),
    ("2.NBT.B.7/within-1000-story", "word", _g2_within_1000_word),
    ("2.NBT.B.8/ten-or-hundred-more", "bare", _g2_mental),
    ("2.NBT.B.8/ten-or-hundred-story", "word", _g2_mental_word),
    ("2.NBT.B.9/place-value-strategy", "bare", _g2_strategy),
)
