"""Grade 3 problem generators: Number and Operations in Base Ten.

The standards 3.NBT.A.1 to 3.NBT.A.3; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import NAMES, THINGS, pick
from tutorgraph.training.problems.grade_34._shared import _bare, _eq, _round, _say, _two, _x

__all__ = ["GENERATORS"]


def _g3nbt1(rng: random.Random) -> Made:
    n, unit = rng.randint(11, 999), pick(rng, (10, 100))
    word = "ten" if unit == 10 else "hundred"
    text = pick(
        rng,
        (
            f"Round {n} to the nearest {word}.",
            f"What is {n} rounded to the nearest {unit}?",
            f"round {n} to the nearest {word}",
            f"{n} rounded to the nearest {word} is ___.",
            f"how do you round {n} to the nearest {unit}",
            f"Use place value to round {n} to the nearest {word}.",
        ),
    )
    return text, f"round_to({n}, {unit})", str(_round(n, unit))


def _g3nbt1_story(rng: random.Random) -> Made:
    n, unit = rng.randint(101, 999), pick(rng, (10, 100))
    word = "ten" if unit == 10 else "hundred"
    name = pick(rng, NAMES)
    text = _say(
        rng,
        (
            "A school has {n} students. About how many students is that, to the nearest {w}?",
            "{name} read {n} pages this summer. Round the number of pages to the nearest {w}.",
            "A farm has {n} chickens. What is that number rounded to the nearest {w}?",
            "The trip is {n} miles. About how many miles is it to the nearest {w}?",
            "{name} has {n} stickers and says it is about how many, to the nearest {w}?",
        ),
        n=n, w=word, name=name,
    )  # fmt: skip
    return text, f"round_to({n}, {unit})", str(_round(n, unit))


def _g3nbt2(rng: random.Random) -> Made:
    a, b = rng.randint(100, 899), rng.randint(10, 500)
    mode = rng.randrange(4)
    if mode == 0 and a + b <= 1000:
        return _bare(rng, f"{a} + {b}"), f"{a} + {b}", str(a + b)
    if mode == 1 and b < a:
        return _bare(rng, f"{a} - {b}"), f"{a} - {b}", str(a - b)
    s = a + b if a + b <= 1000 else a
    b = min(b, s - 1)
    if mode == 2:
        return _eq(rng, f"? + {b} = {s}"), f"{s} - {b}", str(s - b)
    return _eq(rng, f"{s} - ? = {b}"), f"{s} - {b}", str(s - b)


def _g3nbt2_story(rng: random.Random) -> Made:
    a, b = rng.randint(100, 600), rng.randint(20, 399)
    name, other = _two(rng)
    t = pick(rng, THINGS)[1]
    mode = rng.randrange(4)
    kw = {"a": a, "b": b, "s": a + b, "name": name, "o": other, "t": t}
    if mode == 0:
        text = _say(rng, (
            "{name} has {a} {t}. {o} gives {name} {b} more. How many {t} does {name} have now?",
            "A library has {a} books on one floor and {b} on another. How many books in all?",
            "{name} scored {a} points and then {b} points. What is the total score?",
            "There were {a} people at the fair on Friday and {b} on Saturday. How many people came "
            "in all?",
        ), **kw)  # fmt: skip
        return text, f"{a} + {b}", str(a + b)
    if mode == 1:
        text = _say(rng, (
            "{name} had {s} {t} and gave away {b}. How many {t} are left?",
            "A store had {s} {t}. It sold {b}. How many {t} does the store have now?",
            "The school needs {s} tickets sold. {a} are sold. How many more are needed?",
            "{name} has {s} points and {o} has {b} points. How many more points does {name} have?",
        ), **kw)  # fmt: skip
        if "tickets" in text:
            return text, f"{a + b} - {a}", str(b)
        return text, f"{a + b} - {b}", str(a)
    if mode == 2:
        text = _say(rng, (
            "{name} had some {t}. {o} gave {name} {b} more. Now {name} has {s}. How many did "
            "{name} have at first?",
            "Some people were on a train. {b} more got on. Now there are {s} people. How many were "
            "on the train before?",
        ), **kw)  # fmt: skip
        return text, f"{a + b} - {b}", str(a)
    text = _say(rng, (
        "{name} had {a} {t}. After getting some more, {name} has {s}. How many {t} did {name} get?",
        "A jar had {a} beads. {name} added some and now there are {s}. How many beads were added?",
    ), **kw)  # fmt: skip
    return text, f"{a + b} - {a}", str(b)


def _g3nbt3(rng: random.Random) -> Made:
    a, t = rng.randint(1, 9), rng.randint(1, 9) * 10
    x = _x(rng)
    mode = rng.randrange(3)
    if mode == 0:
        return _bare(rng, f"{a} {x} {t}"), f"{a} * {t}", str(a * t)
    if mode == 1:
        return _bare(rng, f"{t} {x} {a}"), f"{t} * {a}", str(a * t)
    return _eq(rng, f"{a} {x} ? = {a * t}"), f"{a * t} / {a}", str(t)


def _g3nbt3_story(rng: random.Random) -> Made:
    a, t = rng.randint(2, 9), rng.randint(1, 9) * 10
    name = pick(rng, NAMES)
    text = _say(rng, (
        "{name} buys {a} boxes of crayons with {t} crayons in each. How many crayons?",
        "Each bus holds {t} people. How many people can {a} buses hold?",
        "A baker makes {t} rolls a day for {a} days. How many rolls is that?",
        "{name} does {t} jumping jacks each day for {a} days. How many jumping jacks?",
        "There are {a} shelves with {t} books on each. How many books?",
    ), name=name, a=a, t=t)  # fmt: skip
    return text, f"{a} * {t}", str(a * t)


GENERATORS: tuple[Generator, ...] = table(
    ("3.NBT.A.1/round", "bare", _g3nbt1),
    ("3.NBT.A.1/round-story", "word", _g3nbt1_story),
    ("3.NBT.A.2/add-subtract", "bare", _g3nbt2),
    ("3.NBT.A.2/add-subtract-story", "word", _g3nbt2_story),
    ("3.NBT.A.3/times-tens", "bare", _g3nbt3),
    ("3.NBT.A.3/times-tens-story", "word", _g3nbt3_story),
)
