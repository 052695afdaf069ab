"""Grade 4 problem generators: Number and Operations in Base Ten.

The standards 4.NBT.A.1 to 4.NBT.B.6; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import NAMES, number_text, pick
from tutorgraph.training.problems.grade_34._shared import (
    _bare,
    _cmp_text,
    _d,
    _eq,
    _round,
    _say,
    _x,
)

__all__ = ["GENERATORS"]


_ONES_W = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
]
_ONES_W += ["fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS_W = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _words_below_1000(n: int) -> str:
    parts: list[str] = []
    if n >= 100:
        parts.append(f"{_ONES_W[n // 100]} hundred")
        n %= 100
    if n >= 20:
        parts.append(_TENS_W[n // 10] + (f"-{_ONES_W[n % 10]}" if n % 10 else ""))
    elif n:
        parts.append(_ONES_W[n])
    return " ".join(parts)


def _number_words(n: int) -> str:
    if n >= 1000:
        rest = _words_below_1000(n % 1000)
        head = f"{_words_below_1000(n // 1000)} thousand"
        return f"{head} {rest}" if rest else head
    return _words_below_1000(n)


_PLACES = (
    (10, "ten"),
    (100, "hundred"),
    (1000, "thousand"),
    (10_000, "ten thousand"),
    (100_000, "hundred thousand"),
)


def _g4nbt1(rng: random.Random) -> Made:
    d = rng.randint(1, 9)
    e = rng.randint(1, 4)
    big, small = d * 10**e, d * 10 ** (e - 1)
    mode = rng.randrange(4)
    if mode == 0:
        return _bare(rng, f"{number_text(big)} ÷ {number_text(small)}"), f"{big} / {small}", "10"
    if mode == 1:
        text = pick(rng, (
            f"How many times greater is the {d} in {number_text(big)} than the {d} in "
            f"{number_text(small)}?",
            f"the {d} in {number_text(big)} is how many times the {d} in {number_text(small)}",
        ))  # fmt: skip
        return text, f"{big} / {small}", "10"
    if mode == 2:
        n = rng.randint(12, 999)
        text = pick(
            rng,
            (
                f"What is 10 times {n}?",
                f"{n} x 10 = ?",
                f"What number is ten times as much as {n}?",
            ),
        )
        return text, f"10 * {n}", number_text(10 * n)
    n = rng.randint(1000, 99_999)
    place = rng.randint(0, len(str(n)) - 1)
    digit = int(str(n)[-1 - place])
    if digit == 0:
        n += 10**place
        digit = int(str(n)[-1 - place])
    text = pick(
        rng,
        (
            f"What is the value of the digit {digit} in {number_text(n)}?",
            f"what is the {digit} worth in {number_text(n)}",
        ),
    )
    return text, f"{digit} * {10**place}", number_text(digit * 10**place)


def _g4nbt2(rng: random.Random) -> Made:
    n = rng.randint(1000, 999_999)
    mode = rng.randrange(3)
    if mode == 0:
        parts = [int(c) * 10**i for i, c in enumerate(reversed(str(n))) if c != "0"][::-1]
        exp = " + ".join(number_text(p) for p in parts)
        text = pick(rng, (f"Write {exp} in standard form.", f"{exp} = ?", f"what number is {exp}"))
        return text, " + ".join(map(str, parts)), number_text(n)
    if mode == 1:
        text = pick(
            rng,
            (
                f"Write the number {_number_words(n)} in digits.",
                f"how do you write {_number_words(n)} as a number",
                f"Write in standard form: {_number_words(n)}.",
            ),
        )
        parts = [int(c) * 10**i for i, c in enumerate(reversed(str(n))) if c != "0"][::-1]
        return text, " + ".join(map(str, parts)), number_text(n)
    s = str(n)
    i = rng.randint(1, len(s) - 1)
    m = int(s[:i] + s[i + 1 :] + s[i]) if s[i] != s[-1] else n + 10 ** rng.randint(0, 2)
    if m == n:
        m = n + 1
    a, b = number_text(n), number_text(m)
    if rng.random() < 0.25:
        return _cmp_text(rng, a, b), f"cmp({n}, {m})", "<" if n < m else ">"
    text = pick(
        rng,
        (
            f"Which is greater, {a} or {b}?",
            f"which number is bigger {a} or {b}",
            f"Compare {a} and {b}. Which is less?",
        ),
    )
    if "less" in text:
        return text, f"min({n}, {m})", number_text(min(n, m))
    return text, f"max({n}, {m})", number_text(max(n, m))


def _g4nbt3(rng: random.Random) -> Made:
    n = rng.randint(1000, 999_999)
    unit, word = pick(rng, [p for p in _PLACES if p[0] < n])
    text = pick(rng, (
        f"Round {number_text(n)} to the nearest {word}.",
        f"What is {number_text(n)} rounded to the nearest {word}?",
        f"round {number_text(n)} to the nearest {word}",
        f"how do you round {number_text(n)} to the {word}s place",
    ))  # fmt: skip
    return text, f"round_to({n}, {unit})", number_text(_round(n, unit))


def _g4nbt3_story(rng: random.Random) -> Made:
    n = rng.randint(1200, 99_999)
    unit, word = pick(rng, [p for p in _PLACES[:4] if p[0] < n])
    name = pick(rng, NAMES)
    text = _say(rng, (
        "A stadium holds {n} people. What is that rounded to the nearest {w}?",
        "{name}'s town has {n} people. About how many people is that, to the nearest {w}?",
        "A car has been driven {n} miles. Round the distance to the nearest {w}.",
        "the school raised {n} dollars, round it to the nearest {w}",
    ), n=number_text(n), w=word, name=name)  # fmt: skip
    return text, f"round_to({n}, {unit})", number_text(_round(n, unit))


def _g4nbt4(rng: random.Random) -> Made:
    a = rng.randint(1000, 99_999)
    b = rng.randint(100, a - 1)
    mode = rng.randrange(3)
    if mode == 0:
        return _bare(rng, f"{number_text(a)} + {number_text(b)}"), f"{a} + {b}", number_text(a + b)
    if mode == 1:
        return _bare(rng, f"{number_text(a)} - {number_text(b)}"), f"{a} - {b}", number_text(a - b)
    return _eq(rng, f"{number_text(b)} + ? = {number_text(a)}"), f"{a} - {b}", number_text(a - b)


def _g4nbt4_story(rng: random.Random) -> Made:
    a, b = rng.randint(1000, 50_000), rng.randint(500, 9_999)
    name = pick(rng, NAMES)
    mode = rng.randrange(3)
    kw = {"a": number_text(a), "b": number_text(b), "s": number_text(a + b), "name": name}
    if mode == 0:
        text = _say(rng, (
            "A town had {a} people. Then {b} more moved in. How many people live there now?",
            "{name} drove {a} miles last year and {b} miles this year. How many miles in all?",
            "A library has {a} books and buys {b} more. How many books does it have?",
        ), **kw)  # fmt: skip
        return text, f"{a} + {b}", number_text(a + b)
    if mode == 1:
        text = _say(rng, (
            "A stadium had {s} fans. {b} left early. How many fans stayed?",
            "A mountain is {s} feet tall. {name} has climbed {b} feet. How many more feet to the "
            "top?",
            "The school had {s} dollars and spent {b}. How much is left?",
        ), **kw)  # fmt: skip
        return text, f"{a + b} - {b}", number_text(a)
    text = _say(rng, (
        "A farm had some chickens. After buying {b} more it has {s}. How many did it have before?",
        "{name} had some points. After winning {b} points, {name} has {s}. How many points did "
        "{name} have at first?",
    ), **kw)  # fmt: skip
    return text, f"{a + b} - {b}", number_text(a)


def _g4nbt5(rng: random.Random) -> Made:
    x = _x(rng)
    if rng.random() < 0.5:
        a, b = rng.randint(100, 9999), rng.randint(2, 9)
    else:
        a, b = rng.randint(11, 99), rng.randint(11, 99)
    return _bare(rng, f"{number_text(a)} {x} {b}"), f"{a} * {b}", number_text(a * b)


def _g4nbt5_story(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    if rng.random() < 0.5:
        a, b = rng.randint(100, 2500), rng.randint(3, 9)
    else:
        a, b = rng.randint(12, 99), rng.randint(12, 60)
    text = _say(rng, (
        "A theater has {b} rows with {a} seats in each row. How many seats in all?",
        "{name} earns {a} dollars a week. How much does {name} earn in {b} weeks?",
        "Each box holds {a} paper clips. How many paper clips are in {b} boxes?",
        "A plane flies {a} miles each trip. How far does it fly in {b} trips?",
        "there are {b} classes with {a} stickers each how many stickers",
    ), name=name, a=number_text(a), b=b)  # fmt: skip
    return text, f"{a} * {b}", number_text(a * b)


def _g4nbt6(rng: random.Random) -> Made:
    b = rng.randint(2, 9)
    n = rng.randint(100, 9999)
    d = _d(rng)
    mode = rng.randrange(3)
    if mode == 0:
        n -= n % b
        return _bare(rng, f"{number_text(n)} {d} {b}"), f"{n} / {b}", number_text(n // b)
    if mode == 1:
        text = pick(
            rng,
            (
                f"What is the quotient of {number_text(n)} {d} {b}? Ignore the remainder.",
                f"{number_text(n)} {d} {b} = ? R ?. What is the quotient?",
                f"find the whole number quotient of {n} divided by {b}",
            ),
        )
        return text, f"{n} // {b}", number_text(n // b)
    text = pick(
        rng,
        (
            f"What is the remainder when {number_text(n)} is divided by {b}?",
            f"{number_text(n)} {d} {b} has what remainder?",
            f"whats the remainder of {n} / {b}",
        ),
    )
    return text, f"{n} % {b}", str(n % b)


def _g4nbt6_story(rng: random.Random) -> Made:
    b = rng.randint(2, 9)
    q = rng.randint(20, 999)
    n = b * q
    name = pick(rng, NAMES)
    text = _say(rng, (
        "{name} has {n} stamps to put equally into {b} albums. How many stamps go in each album?",
        "A farm packs {n} eggs into {b} equal crates. How many eggs per crate?",
        "{n} dollars are split equally among {b} charities. How much does each get?",
        "A {n}-mile trip is driven in {b} equal days. How many miles each day?",
        "{n} books on {b} shelves with the same number on each, how many per shelf",
    ), name=name, n=number_text(n), b=b)  # fmt: skip
    return text, f"{n} / {b}", number_text(q)


GENERATORS: tuple[Generator, ...] = table(
    ("4.NBT.A.1/ten-times", "bare", _g4nbt1),
    ("4.NBT.A.2/read-write-compare", "bare", _g4nbt2),
    ("4.NBT.A.3/round", "bare", _g4nbt3),
    ("4.NBT.A.3/round-story", "word", _g4nbt3_story),
    ("4.NBT.B.4/add-subtract", "bare", _g4nbt4),
    ("4.NBT.B.4/add-subtract-story", "word", _g4nbt4_story),
    ("4.NBT.B.5/multiply", "bare", _g4nbt5),
    ("4.NBT.B.5/multiply-story", "word", _g4nbt5_story),
    ("4.NBT.B.6/divide", "bare", _g4nbt6),
    ("4.NBT.B.6/divide-story", "word", _g4nbt6_story),
)
