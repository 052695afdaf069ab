"""Kindergarten problem generators: Counting and Cardinality, clusters A–B.

The standards K.CC.A.1 to K.CC.B.5; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._registry import Generator, Made, table
from tutorgraph.training.problems._words import NAMES, THINGS, pick, plural
from tutorgraph.training.problems.grade_k2._shared import _ONES_WORDS, _choose, _name_of, _thing

__all__ = ["GENERATORS"]


_ORDINALS = ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth")


def _k_count_tens(rng: random.Random) -> Made:
    start = rng.randint(1, 7) * 10
    seq = ", ".join(str(start + 10 * i) for i in range(3))
    name = pick(rng, NAMES)
    nxt = start + 30
    return _choose(
        rng,
        (
            (f"Count by tens: {seq}, ___. What number comes next?", f"{start} + 30", nxt),
            (f"Fill in the missing number: {seq}, __", f"{start} + 30", nxt),
            (f"what comes next when you count by 10s {seq}", f"{start} + 30", nxt),
            (f"{name} counts by tens: {seq}. What does {name} say next?", f"{start} + 30", nxt),
            (f"Count by tens. What number comes right before {start + 10}?", f"{start}", start),
            (f"Count by tens to 100. What comes after {start}?", f"{start} + 10", start + 10),
        ),
    )


def _k_count_ones(rng: random.Random) -> Made:
    n = rng.randint(11, 98)
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (f"What number comes after {n}?", f"{n} + 1", n + 1),
            (f"What number comes just before {n}?", f"{n} - 1", n - 1),
            (f"Count by ones: {n - 2}, {n - 1}, {n}, __", f"{n} + 1", n + 1),
            (
                f"{name} is counting to 100 and just said {n}. What number is next?",
                f"{n} + 1",
                n + 1,
            ),
            (f"fill in the blank {n - 1}, __, {n + 1}", f"{n + 1} - 1", n),
            (f"What is the missing number? {n}, {n + 1}, __, {n + 3}", f"{n} + 2", n + 2),
        ),
    )


def _k_count_on(rng: random.Random) -> Made:
    start = rng.randint(3, 90)
    steps = rng.randint(2, 5)
    end = start + steps
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"Start at {start}. Count forward {steps} numbers. Where do you stop?",
                f"{start} + {steps}",
                end,
            ),
            (f"Count on from {start}: {start}, {start + 1}, __", f"{start} + 2", start + 2),
            (
                f"{name} starts counting at {start} and says {steps} more numbers. What "
                f"is the last number {name} says?",
                f"{start} + {steps}",
                end,
            ),
            (
                f"Begin at {start} and count up to {end}. How many numbers do you say "
                f"after {start}?",
                f"{end} - {start}",
                steps,
            ),
            (
                f"count forward from {start}. what is the {_ORDINALS[steps]} number you say",
                f"{start} + {steps}",
                end,
            ),
            (f"Keep counting: {start}, {start + 1}, {start + 2}, ___", f"{start} + 3", start + 3),
        ),
    )


def _k_count_on_word(rng: random.Random) -> Made:
    start = rng.randint(4, 60)
    k = rng.randint(2, 5)
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} has {start} {things} in a box and counts on as {k} more are "
                f"added: {start}, ... What number does {name} stop on?",
                f"{start} + {k}",
                start + k,
            ),
            (
                f"Hide-and-seek! {name} starts counting at {start} and counts {k} more "
                f"numbers. What is the last number {name} says?",
                f"{start} + {k}",
                start + k,
            ),
            (
                f"The elevator is on floor {start} and goes up {k} floors, one at a time. "
                "What floor is it on?",
                f"{start} + {k}",
                start + k,
            ),
            (
                f"{name} is on page {start} and reads {k} more pages, one by one. what "
                f"page is {name} on",
                f"{start} + {k}",
                start + k,
            ),
            (
                f"{name} counts forward from {start} and stops at {start + k}. How many "
                f"numbers did {name} say after {start}?",
                f"{start + k} - {start}",
                k,
            ),
            (
                f"A jar has {start} {things}. {name} drops in {k} more and counts on. How "
                f"many {things} now?",
                f"{start} + {k}",
                start + k,
            ),
        ),
    )


def _k_write_numeral(rng: random.Random) -> Made:
    n = rng.randint(0, 20)
    word = _ONES_WORDS[n] if n < 20 else "twenty"
    forms = pick(rng, THINGS)
    name = pick(rng, NAMES)
    dots = " ".join("*" * n) if n else "(no stars)"
    return _choose(
        rng,
        (
            (f"Write the number {word} using digits.", f"{n}", n),
            (f"Write the numeral that shows how many stars: {dots}", f"{n}", n),
            (f"{name} has {word} {plural(forms, n)}. Write the number.", f"{n}", n),
            (f"how do you write {word} as a number", f"{n}", n),
            ("A nest has no eggs. What number tells how many eggs are in the nest?", "0", 0),
            (f"Write the number for {word}.", f"{n}", n),
        ),
    )


def _k_one_to_one(rng: random.Random) -> Made:
    n = rng.randint(3, 15)
    name = pick(rng, NAMES)
    forms = pick(rng, THINGS)
    things = forms[1]
    return _choose(
        rng,
        (
            (
                f"There are {n} children. Each child gets one chair. How many chairs are needed?",
                f"{n}",
                n,
            ),
            (
                f"{name} touches each of the {things} once while counting and says the "
                f"numbers one to {_name_of(n)}. How many {things} are there?",
                f"{n}",
                n,
            ),
            (
                f"{name} puts one {forms[0]} on each of {n} plates. How many plates have one?",
                f"{n}",
                n,
            ),
            (f"Each of {n} kids holds one balloon. How many balloons are there?", f"{n}", n),
            (
                f"{name} counts the cups, one number for each cup: 1, 2, ..., {n}. How many cups?",
                f"{n}",
                n,
            ),
            (
                f"There are {n} dogs and each dog gets exactly one bone. How many bones "
                "do you need?",
                f"{n}",
                n,
            ),
        ),
    )


def _k_last_number(rng: random.Random) -> Made:
    n = rng.randint(3, 12)
    name = pick(rng, NAMES)
    things = _thing(rng)
    said = ", ".join(str(i) for i in range(1, n + 1))
    return _choose(
        rng,
        (
            (f"{name} counts {things}: {said}. How many {things} does {name} have?", f"{n}", n),
            (
                f"{name} counted {n} {things} in a line. Then {name} moved them into a "
                f"circle. How many {things} are there now?",
                f"{n}",
                n,
            ),
            (
                f"{name} counts the {things} from left to right and gets {n}. How many "
                f"will {name} get counting from right to left?",
                f"{n}",
                n,
            ),
            (f"i counted my {things} {said} so how many do i have", f"{n}", n),
            (
                f"{name} mixes up {n} {things} in a pile. How many {things} are in the pile?",
                f"{n}",
                n,
            ),
            (
                f"The last number {name} said when counting the {things} was {n}. How "
                f"many {things} are there?",
                f"{n}",
                n,
            ),
        ),
    )


def _k_one_more(rng: random.Random) -> Made:
    n = rng.randint(1, 19)
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (f"What number is one more than {n}?", f"{n} + 1", n + 1),
            (
                f"There are {n} {things}. One more is added. How many {things} now?",
                f"{n} + 1",
                n + 1,
            ),
            (
                f"{name} has {n} {things} and gets 1 more. How many does {name} have?",
                f"{n} + 1",
                n + 1,
            ),
            (f"one more than {n} is what", f"{n} + 1", n + 1),
            (f"What number is one less than {n + 1}?", f"{n + 1} - 1", n),
            (
                f"{n} ducks are in a pond. One more duck swims over. How many ducks?",
                f"{n} + 1",
                n + 1,
            ),
        ),
    )


def _k_how_many(rng: random.Random) -> Made:
    n = rng.randint(4, 20)
    rows = rng.randint(2, 4)
    cols = rng.randint(2, 5)
    symbol = pick(rng, ("*", "o", "x", "@"))
    line = " ".join(symbol * n)
    grid = " / ".join(" ".join(symbol * cols) for _ in range(rows))
    things = _thing(rng)
    name = pick(rng, NAMES)
    k = rng.randint(3, 10)
    return _choose(
        rng,
        (
            (f"How many are there? {line}", f"{n}", n),
            (
                f"Count the dots in the rows: {grid}. How many dots?",
                f"{cols} * {rows}",
                rows * cols,
            ),
            (f"count these for me {line}", f"{n}", n),
            (
                f"{name} puts {things} in a circle: {line}. How many {things} are in the circle?",
                f"{n}",
                n,
            ),
            (
                f"{name} is asked to count out {k} {things} and puts them in a row. How "
                f"many {things} are in the row?",
                f"{k}",
                k,
            ),
            (f"How many {symbol}'s do you see? {line}", f"{n}", n),
        ),
    )


def _k_count_out(rng: random.Random) -> Made:
    n = rng.randint(3, 20)
    k = rng.randint(1, min(n - 1, 10))
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} lines up {things} in a row: {' '.join('o' * n)}. How many "
                f"{things} are in the row?",
                f"{n}",
                n,
            ),
            (
                f"There are {n} {things} in a circle. {name} counts them all. What number "
                f"does {name} say last?",
                f"{n}",
                n,
            ),
            (
                f"The teacher asks {name} to count out {n} {things} from a big pile. "
                f"{name} has counted {k} so far. How many more to count?",
                f"{n} - {k}",
                n - k,
            ),
            (
                f"{name} sets out {n} cups in a line and puts one {pick(rng, THINGS)[0]} "
                "in each. how many are in the cups",
                f"{n}",
                n,
            ),
            (
                f"{name} sees {things} scattered on the rug: "
                f"{' '.join('x' * min(n, 10))}. How many are there?",
                f"{min(n, 10)}",
                min(n, 10),
            ),
            (
                f"Count the {things} in the array: "
                f"{' / '.join(' '.join('o' * 4) for _ in range(max(1, n // 4)))}",
                f"4 * {max(1, n // 4)}",
                4 * max(1, n // 4),
            ),
        ),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("K.CC.A.1/count-by-tens", "bare", _k_count_tens),
    ("K.CC.A.1/count-by-ones", "bare", _k_count_ones),
    ("K.CC.A.2/count-on-from", "bare", _k_count_on),
    ("K.CC.A.2/count-on-story", "word", _k_count_on_word),
    ("K.CC.A.3/write-the-numeral", "bare", _k_write_numeral),
    ("K.CC.B.4.a/one-to-one", "word", _k_one_to_one),
    ("K.CC.B.4.b/last-number-counted", "word", _k_last_number),
    ("K.CC.B.4.c/one-more", "bare", _k_one_more),
    ("K.CC.B.5/how-many", "bare", _k_how_many),
    ("K.CC.B.5/count-out-story", "word", _k_count_out),
)
