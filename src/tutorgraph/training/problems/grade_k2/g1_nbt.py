"""Grade 1 problem generators: Number and Operations in Base Ten.

The standards 1.NBT.A.1 to 1.NBT.C.6; `GENERATORS` lists their generators in the registry's order.
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
    _thing,
    _two_names,
)

__all__ = ["GENERATORS"]


def _g1_count_120(rng: random.Random) -> Made:
    n = rng.randint(60, 118)
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (f"What number comes after {n}?", f"{n} + 1", n + 1),
            (f"Count on: {n - 2}, {n - 1}, {n}, ___", f"{n} + 1", n + 1),
            (f"What number comes just before {n + 1}?", f"{n + 1} - 1", n),
            (
                f"{name} counts from {n - 3} to 120. What is the fourth number {name} says?",
                f"{n - 3} + 3",
                n,
            ),
            (
                f"write the number that comes after {_name_of(n) if n < 100 else n}",
                f"{n} + 1",
                n + 1,
            ),
            (f"Fill in the missing number: {n - 1}, ___, {n + 1}", f"{n - 1} + 1", n),
        ),
    )


def _g1_count_objects(rng: random.Random) -> Made:
    groups = rng.randint(4, 11)
    extra = rng.randint(0, 9)
    n = groups * 10 + extra
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} has {groups} bags of 10 {things} and {extra} more. Write the "
                f"number of {things}.",
                f"{groups} * 10 + {extra}",
                n,
            ),
            (
                f"{name} counted {n - 5} {things}, then counted 5 more. What number did "
                f"{name} end on?",
                f"{n - 5} + 5",
                n,
            ),
            (
                f"A jar has {n} beads. {name} adds 1 more. How many beads are in the jar?",
                f"{n} + 1",
                n + 1,
            ),
            (
                f"{name} counts {things} by ones up to {n}. What is the next number "
                f"{name} would say?",
                f"{n} + 1",
                n + 1,
            ),
            (
                f"there are {groups} cups with 10 {things} each and {extra} extra. how "
                f"many {things}",
                f"{groups} * 10 + {extra}",
                n,
            ),
            (
                f"{name} has {n} {things} and finds 2 more. How many does {name} have now?",
                f"{n} + 2",
                n + 2,
            ),
        ),
    )


def _g1_tens_ones(rng: random.Random) -> Made:
    tens, ones = rng.randint(2, 9), rng.randint(0, 9)
    n = 10 * tens + ones
    return _choose(
        rng,
        (
            (f"How many tens are in {n}?", f"{n} // 10", tens),
            (f"How many ones are in {n} (the ones digit)?", f"{n} % 10", ones),
            (f"{tens} tens and {ones} ones is what number?", f"{tens} * 10 + {ones}", n),
            (f"what number has {tens} tens and {ones} ones", f"{tens} * 10 + {ones}", n),
            (f"{n} = ___ tens and {ones} ones", f"{n} // 10", tens),
            (f"Write the number: {ones} ones and {tens} tens.", f"{tens} * 10 + {ones}", n),
        ),
    )


def _g1_tens_ones_word(rng: random.Random) -> Made:
    tens, ones = rng.randint(2, 9), rng.randint(1, 9)
    n = 10 * tens + ones
    name = pick(rng, NAMES)
    things = pick(rng, ("pencils", "crayons", "straws", "cubes", "markers"))
    return _choose(
        rng,
        (
            (
                f"{name} has {tens} boxes of 10 {things} and {ones} loose {things}. How "
                f"many {things}?",
                f"{tens} * 10 + {ones}",
                n,
            ),
            (
                f"{name} has {n} {things} and packs them in tens. How many full packs of ten?",
                f"{n} // 10",
                tens,
            ),
            (
                f"{name} has {n} {things} and packs them in tens. How many are left over?",
                f"{n} % 10",
                ones,
            ),
            (
                f"i have {tens} ten sticks and {ones} cubes how many cubes is that",
                f"{tens} * 10 + {ones}",
                n,
            ),
            (
                f"A store has {n} eggs in cartons of ten. How many cartons are full?",
                f"{n} // 10",
                tens,
            ),
            (
                f"{name} shows {n} with base-ten blocks. How many rods (tens) does {name} use?",
                f"{n} // 10",
                tens,
            ),
        ),
    )


def _g1_bundle(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    things = pick(rng, ("straws", "sticks", "cubes", "pencils", "crayons"))
    extra = rng.randint(0, 3)
    return _choose(
        rng,
        (
            (f"{name} puts 10 {things} in a bundle. How many tens is that?", "10 // 10", 1),
            ("How many ones are in one ten?", "10", 10),
            (
                f"{name} has 10 loose {things} and {extra} more. {name} bundles a ten. "
                f"How many loose {things} are left?",
                f"10 + {extra} - 10",
                extra,
            ),
            (f"how many {things} make a ten", "10", 10),
            (f"{name} makes a ten from loose {things}. How many {things} are in it?", "10", 10),
            (
                f"{name} has 1 ten and {extra} ones. How many {things} in all?",
                f"10 + {extra}",
                10 + extra,
            ),
        ),
    )


def _g1_teens(rng: random.Random) -> Made:
    ones = rng.randint(1, 9)
    n = 10 + ones
    return _choose(
        rng,
        (
            (f"{n} is 1 ten and how many ones?", f"{n} - 10", ones),
            (f"1 ten and {ones} ones make what number?", f"10 + {ones}", n),
            (f"How many ones are in {n} besides the ten?", f"{n} % 10", ones),
            (f"what number is a ten and {_ONES_WORDS[ones]} ones", f"10 + {ones}", n),
            (f"{_ONES_WORDS[n].capitalize()} = 1 ten and ___ ones", f"{n} - 10", ones),
            (f"Write the number for 1 ten {ones} ones.", f"10 + {ones}", n),
        ),
    )


def _g1_decades(rng: random.Random) -> Made:
    tens = rng.randint(1, 9)
    n = 10 * tens
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (f"How many tens are in {n}?", f"{n} // 10", tens),
            (f"{tens} tens = ?", f"{tens} * 10", n),
            (f"{n} = ___ tens and 0 ones", f"{n} // 10", tens),
            (f"{name} has {tens} bundles of ten sticks. How many sticks?", f"{tens} * 10", n),
            (f"how many tens make {n}", f"{n} // 10", tens),
            (f"What number is {_ONES_WORDS[tens]} tens?", f"{tens} * 10", n),
        ),
    )


def _g1_compare_numbers(rng: random.Random) -> Made:
    a = rng.randint(10, 99)
    b = rng.choice([a + 10, a - 10, a + 1, a - 1, rng.randint(10, 99)])
    b = min(99, max(10, b))
    return _choose(rng, _comparison(a, b, "number"))


def _g1_compare_word(rng: random.Random) -> Made:
    a, b = rng.sample(range(10, 100), 2)
    a_name, b_name = _two_names(rng)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{a_name} has {a} {things} and {b_name} has {b}. How many {things} does "
                "the one with more have?",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"Class A read {a} books and class B read {b}. What is the smaller number "
                "of books?",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"{a_name} scored {a} and {b_name} scored {b}. who won and what was the "
                "winning score",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"{a_name} has {a} {things}. {b_name} has {b}. Compare with >, < or =: {a} __ {b}",
                f"cmp({a}, {b})",
                _cmp(a, b),
            ),
            (
                f"A red jar has {a} beads and a blue jar has {b}. How many beads are in "
                "the jar with fewer?",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"Two teams collected {a} and {b} cans. How many cans did the winning "
                "team collect?",
                f"max({a}, {b})",
                max(a, b),
            ),
        ),
    )


def _g1_add_100(rng: random.Random) -> Made:
    a = rng.randint(11, 89)
    one = rng.randint(1, 9)
    tens = rng.randint(1, (99 - a) // 10 or 1) * 10
    b = rng.randint(10, 99 - a) if a < 89 else 10
    return _choose(
        rng,
        (
            (f"{a} + {one} = ?", f"{a} + {one}", a + one),
            (f"{a} + {tens} = ?", f"{a} + {tens}", a + tens),
            (f"Add: {a} + {b}", f"{a} + {b}", a + b),
            (f"Add the tens and the ones: {a} + {b}", f"{a} + {b}", a + b),
            (f"what is {a} plus {one}", f"{a} + {one}", a + one),
            (f"Find the sum of {tens} and {a}.", f"{tens} + {a}", a + tens),
        ),
    )


def _g1_add_story(rng: random.Random) -> Made:
    a = rng.randint(21, 79)
    one = rng.randint(2, 9)
    tens = rng.randint(1, (99 - a) // 10) * 10
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} has {a} {things} and gets {one} more. How many {things} does {name} have?",
                f"{a} + {one}",
                a + one,
            ),
            (
                f"A class has {a} {things}. Another class brings {tens}. How many "
                f"{things} are there in all?",
                f"{a} + {tens}",
                a + tens,
            ),
            (
                f"{name} scored {a} points and then {tens} more points. What is {name}'s score?",
                f"{a} + {tens}",
                a + tens,
            ),
            (
                f"there are {a} kids on the bus and {one} more get on how many kids",
                f"{a} + {one}",
                a + one,
            ),
            (
                f"{name} read {a} pages yesterday and {tens} pages today. How many pages in all?",
                f"{a} + {tens}",
                a + tens,
            ),
            (
                f"A farm has {a} hens and {one} ducks. How many birds are on the farm?",
                f"{a} + {one}",
                a + one,
            ),
        ),
    )


def _g1_ten_more(rng: random.Random) -> Made:
    n = rng.randint(11, 89)
    return _choose(
        rng,
        (
            (f"What is 10 more than {n}?", f"{n} + 10", n + 10),
            (f"What is 10 less than {n}?", f"{n} - 10", n - 10),
            (f"10 more than {n} is ___", f"{n} + 10", n + 10),
            (f"find 10 less than {n} without counting", f"{n} - 10", n - 10),
            (f"{n} + 10 = ?", f"{n} + 10", n + 10),
            (f"{n} - 10 = ?", f"{n} - 10", n - 10),
        ),
    )


def _g1_ten_more_word(rng: random.Random) -> Made:
    n = rng.randint(11, 89)
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} has {n} {things} and buys a pack of 10. How many {things} now?",
                f"{n} + 10",
                n + 10,
            ),
            (
                f"{name} had {n} {things} and gave away a bag of 10. How many are left?",
                f"{n} - 10",
                n - 10,
            ),
            (
                f"On the hundred chart {name} is on {n} and moves down one row. What "
                "number is that?",
                f"{n} + 10",
                n + 10,
            ),
            (
                f"On the hundred chart {name} is on {n} and moves up one row. What number is that?",
                f"{n} - 10",
                n - 10,
            ),
            (f"{name} has {n} cents and finds a dime. how many cents now", f"{n} + 10", n + 10),
            (
                f"A shelf had {n} {things}. 10 were sold. How many are on the shelf?",
                f"{n} - 10",
                n - 10,
            ),
        ),
    )


def _g1_sub_tens(rng: random.Random) -> Made:
    a = rng.randint(2, 9)
    b = rng.randint(1, a)
    return _choose(
        rng,
        (
            (f"{a * 10} - {b * 10} = ?", f"{a * 10} - {b * 10}", (a - b) * 10),
            (f"Subtract: {a * 10} - {b * 10}", f"{a * 10} - {b * 10}", (a - b) * 10),
            (f"{a} tens - {b} tens = ___ (write the number)", f"{a * 10} - {b * 10}", (a - b) * 10),
            (f"whats {a * 10} take away {b * 10}", f"{a * 10} - {b * 10}", (a - b) * 10),
            (f"{b * 10} + ? = {a * 10}", f"{a * 10} - {b * 10}", (a - b) * 10),
            (
                f"Find the difference between {a * 10} and {b * 10}.",
                f"{a * 10} - {b * 10}",
                (a - b) * 10,
            ),
        ),
    )


def _g1_sub_tens_word(rng: random.Random) -> Made:
    a = rng.randint(3, 9)
    b = rng.randint(1, a - 1)
    name = pick(rng, NAMES)
    things = _thing(rng)
    big, small = a * 10, b * 10
    return _choose(
        rng,
        (
            (
                f"{name} has {big} {things} in packs of ten and gives away {small}. How "
                "many are left?",
                f"{big} - {small}",
                big - small,
            ),
            (
                f"A store had {big} {things} and sold {small}. How many {things} are left?",
                f"{big} - {small}",
                big - small,
            ),
            (
                f"{name} has {big} cents. A toy costs {small} cents. How much money is "
                "left after buying it?",
                f"{big} - {small}",
                big - small,
            ),
            (
                f"{name} needs {big} points and has {small}. how many more points",
                f"{big} - {small}",
                big - small,
            ),
            (
                f"There are {big} seats and {small} are taken. How many seats are empty?",
                f"{big} - {small}",
                big - small,
            ),
            (
                f"{name} had {big} stamps. After giving some away, {name} has {small}. "
                "How many stamps were given away?",
                f"{big} - {small}",
                big - small,
            ),
        ),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("1.NBT.A.1/count-to-120", "bare", _g1_count_120),
    ("1.NBT.A.1/count-objects", "word", _g1_count_objects),
    ("1.NBT.B.2/tens-and-ones", "bare", _g1_tens_ones),
    ("1.NBT.B.2/tens-ones-story", "word", _g1_tens_ones_word),
    ("1.NBT.B.2.a/bundle-of-ten", "word", _g1_bundle),
    ("1.NBT.B.2.b/teen-numbers", "bare", _g1_teens),
    ("1.NBT.B.2.c/decade-tens", "bare", _g1_decades),
    ("1.NBT.B.3/compare-two-digit", "bare", _g1_compare_numbers),
    ("1.NBT.B.3/compare-story", "word", _g1_compare_word),
    ("1.NBT.C.4/add-within-100", "bare", _g1_add_100),
    ("1.NBT.C.4/add-story", "word", _g1_add_story),
    ("1.NBT.C.5/ten-more-ten-less", "bare", _g1_ten_more),
    ("1.NBT.C.5/ten-more-story", "word", _g1_ten_more_word),
    ("1.NBT.C.6/subtract-tens", "bare", _g1_sub_tens),
    ("1.NBT.C.6/subtract-tens-story", "word", _g1_sub_tens_word),
)
