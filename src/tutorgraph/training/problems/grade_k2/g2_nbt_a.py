"""Grade 2 problem generators: Number and Operations in Base Ten, cluster A.

The standards 2.NBT.A.1 to 2.NBT.A.4; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._registry import Generator, Made, table
from tutorgraph.training.problems._words import NAMES, pick
from tutorgraph.training.problems.grade_k2._shared import (
    _ONES_WORDS,
    _choose,
    _cmp,
    _comparison,
    _name_of,
    _two_names,
)

__all__ = ["GENERATORS"]


def _g2_place(rng: random.Random) -> Made:
    h, t, o = rng.randint(1, 9), rng.randint(0, 9), rng.randint(0, 9)
    n = 100 * h + 10 * t + o
    return _choose(
        rng,
        (
            (f"What digit is in the tens place of {n}?", f"({n} // 10) % 10", t),
            (f"How many hundreds are in {n}?", f"{n} // 100", h),
            (
                f"{h} hundreds, {t} tens and {o} ones is what number?",
                f"{h} * 100 + {t} * 10 + {o}",
                n,
            ),
            (
                f"what number is {o} ones {t} tens and {h} hundreds",
                f"{h} * 100 + {t} * 10 + {o}",
                n,
            ),
            (f"{n} = {h} hundreds, ___ tens, {o} ones", f"({n} // 10) % 10", t),
            (f"What is the value of the digit {h} in {n}?", f"{h} * 100", 100 * h),
        ),
    )


def _g2_place_word(rng: random.Random) -> Made:
    h, t, o = rng.randint(1, 9), rng.randint(0, 9), rng.randint(0, 9)
    n = 100 * h + 10 * t + o
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"{name} has {h} boxes of 100 stickers, {t} packs of 10 and {o} loose "
                "stickers. How many stickers?",
                f"{h} * 100 + {t} * 10 + {o}",
                n,
            ),
            (
                f"A store packs {n} pencils into boxes of 100, packs of 10 and singles. "
                "How many full boxes of 100?",
                f"{n} // 100",
                h,
            ),
            (
                f"{name} shows {n} with base-ten blocks using as few blocks as possible. "
                "How many rods (tens)?",
                f"({n} // 10) % 10",
                t,
            ),
            (
                f"i have {h} flats {t} rods and {o} cubes what number is that",
                f"{h} * 100 + {t} * 10 + {o}",
                n,
            ),
            (
                f"{name} has ${n} in $100 bills, $10 bills and $1 bills, as few bills as "
                "possible. How many $1 bills?",
                f"{n} % 10",
                o,
            ),
            (
                f"A school orders {h} crates of 100 apples and {o} single apples. How many apples?",
                f"{h} * 100 + {o}",
                100 * h + o,
            ),
        ),
    )


def _g2_ten_tens(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    k = rng.randint(2, 9)
    return _choose(
        rng,
        (
            ("How many tens make one hundred?", "100 // 10", 10),
            (f"{name} has 10 bundles of ten straws. How many straws is that?", "10 * 10", 100),
            (f"{name} has {10 * k} tens. How many hundreds can {name} make?", f"{10 * k} // 10", k),
            ("how many tens are in 100", "100 // 10", 10),
            (
                f"A flat is 100 cubes. {name} has 7 rods of ten. How many more rods make a flat?",
                "10 - 7",
                3,
            ),
            (
                f"{name} bundles {10 * k} ten-rods into hundreds. How many hundreds?",
                f"{10 * k} / 10",
                k,
            ),
        ),
    )


def _g2_hundreds(rng: random.Random) -> Made:
    k = rng.randint(1, 9)
    n = 100 * k
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (f"How many hundreds are in {n}?", f"{n} // 100", k),
            (f"{k} hundreds = ?", f"{k} * 100", n),
            (f"{n} = ___ hundreds, 0 tens and 0 ones", f"{n} // 100", k),
            (f"{name} has {k} boxes of 100 cards. How many cards?", f"{k} * 100", n),
            (f"how many hundreds make {n}", f"{n} // 100", k),
            (f"What number is {_ONES_WORDS[k]} hundreds?", f"{k} * 100", n),
        ),
    )


def _g2_skip(rng: random.Random) -> Made:
    step = pick(rng, (5, 10, 100))
    start = (
        rng.randint(1, 80) * 5 if step != 100 else rng.randint(1, 5) * 100 + rng.choice((0, 20, 50))
    )
    seq = ", ".join(str(start + step * i) for i in range(3))
    nxt = start + 3 * step
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (f"Skip count by {step}s: {seq}, ___", f"{start} + 3 * {step}", nxt),
            (f"What comes next? {seq}, ?", f"{start} + 3 * {step}", nxt),
            (
                f"{name} counts by {step}s starting at {start}. What is the fourth number "
                f"{name} says?",
                f"{start} + 3 * {step}",
                nxt,
            ),
            (f"count by {step}s {seq} whats next", f"{start} + 3 * {step}", nxt),
            (
                f"Fill in the missing number: {start}, ___, {start + 2 * step}",
                f"{start} + {step}",
                start + step,
            ),
            (
                f"Counting by {step}s, what number comes before {start + step}?",
                f"{start + step} - {step}",
                start,
            ),
        ),
    )


def _g2_skip_word(rng: random.Random) -> Made:
    k = rng.randint(3, 9)
    name = pick(rng, NAMES)
    start = rng.randint(1, 10 - k) * 100
    return _choose(
        rng,
        (
            (
                f"{name} has {k} nickels. Count by 5s. How many cents is that?",
                " + ".join(["5"] * k),
                5 * k,
            ),
            (
                f"{name} has {k} dimes. Skip count by 10s to find how many cents.",
                " + ".join(["10"] * k),
                10 * k,
            ),
            (
                f"Each bag has 100 beans. {name} counts {k} bags by 100s. How many beans?",
                " + ".join(["100"] * k),
                100 * k,
            ),
            (
                f"there are {k} hands and each has 5 fingers count by 5s how many fingers",
                " + ".join(["5"] * k),
                5 * k,
            ),
            (
                f"{name} starts at {start} and counts by 10s {k} times. What number does "
                f"{name} reach?",
                f"{start} + {k} * 10",
                start + 10 * k,
            ),
            (
                f"A ticket roll counts up by 100s from {start}. What is the number after "
                f"{k} jumps?",
                f"{start} + {k} * 100",
                start + 100 * k,
            ),
        ),
    )


def _g2_names(rng: random.Random) -> Made:
    n = rng.randint(101, 999)
    h, t, o = n // 100, n // 10 % 10, n % 10
    name = _name_of(n)
    parts = " + ".join(str(p) for p in (100 * h, 10 * t, o) if p)
    return _choose(
        rng,
        (
            (f"Write {name} as a number.", f"{h} * 100 + {t} * 10 + {o}", n),
            (f"Write the number: {parts}", parts, n),
            (f"{n} = {100 * h} + ___ + {o}", f"{t} * 10", 10 * t),
            (f"how do you write {name} in numbers", f"{h} * 100 + {t} * 10 + {o}", n),
            (f"Expanded form of {n} is {100 * h} + {10 * t} + ___", f"{o}", o),
            (f"What number is {parts}?", parts, n),
        ),
    )


def _g2_names_word(rng: random.Random) -> Made:
    n = rng.randint(101, 999)
    h, t, o = n // 100, n // 10 % 10, n % 10
    words = _name_of(n)
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"{name}'s book has {words} pages. Write the number of pages with digits.",
                f"{h} * 100 + {t} * 10 + {o}",
                n,
            ),
            (
                f"A sign says the zoo is {words} steps away. What number is that?",
                f"{h} * 100 + {t} * 10 + {o}",
                n,
            ),
            (
                f"{name} wrote {n} as {100 * h} + {10 * t} + ?. What number is missing?",
                f"{n} - {100 * h} - {10 * t}",
                o,
            ),
            (f"my teacher said {words} what is that in numbers", f"{h} * 100 + {t} * 10 + {o}", n),
            (
                f"{name} has {100 * h} + {10 * t} + {o} points. What is the score as one number?",
                f"{100 * h} + {10 * t} + {o}",
                n,
            ),
            (
                f"A check is for {words} dollars. How many dollars, in digits?",
                f"{h} * 100 + {t} * 10 + {o}",
                n,
            ),
        ),
    )


def _g2_compare_numbers(rng: random.Random) -> Made:
    a = rng.randint(100, 999)
    b = rng.choice([a + 100, a - 100, a + 10, a - 10, a + 1, rng.randint(100, 999)])
    b = min(999, max(100, b))
    return _choose(rng, _comparison(a, b, "number"))


def _g2_compare_word(rng: random.Random) -> Made:
    a, b = rng.sample(range(100, 1000), 2)
    a_name, b_name = _two_names(rng)
    return _choose(
        rng,
        (
            (
                f"{a_name} has {a} points and {b_name} has {b} points. What is the higher score?",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"Book A has {a} pages and book B has {b} pages. How many pages does the "
                "shorter book have?",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"{a_name} counted {a} steps and {b_name} counted {b}. who counted fewer "
                "and how many",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"School A has {a} students and school B has {b}. Write >, < or = to "
                f"compare: {a} __ {b}",
                f"cmp({a}, {b})",
                _cmp(a, b),
            ),
            (
                f"Two towns are {a} and {b} miles away. How far is the farther town?",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"A jar has {a} beads and a box has {b} beads. How many beads are in the "
                "container with more?",
                f"max({a}, {b})",
                max(a, b),
            ),
        ),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("2.NBT.A.1/hundreds-tens-ones", "bare", _g2_place),
    ("2.NBT.A.1/place-value-story", "word", _g2_place_word),
    ("2.NBT.A.1.a/hundred-is-ten-tens", "bare", _g2_ten_tens),
    ("2.NBT.A.1.b/hundreds", "bare", _g2_hundreds),
    ("2.NBT.A.2/skip-count", "bare", _g2_skip),
    ("2.NBT.A.2/skip-count-story", "word", _g2_skip_word),
    ("2.NBT.A.3/names-and-expanded", "bare", _g2_names),
    ("2.NBT.A.3/number-words-story", "word", _g2_names_word),
    ("2.NBT.A.4/compare-three-digit", "bare", _g2_compare_numbers),
    ("2.NBT.A.4/compare-story", "word", _g2_compare_word),
)
