"""Grade 3 problem generators: Operations and Algebraic Thinking, clusters B–D.

The standards 3.OA.B.5 to 3.OA.D.9; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import NAMES, THINGS, pick
from tutorgraph.training.problems.grade_34._shared import _bare, _d, _eq, _ordinal, _say, _two, _x

__all__ = ["GENERATORS"]


def _g3oa5(rng: random.Random) -> Made:
    a, b, c = rng.randint(2, 9), rng.randint(2, 9), rng.randint(2, 5)
    x = _x(rng)
    mode = rng.randrange(4)
    if mode == 0:
        q = f"{a} {x} {b} = {b} {x} ?"
        return _eq(rng, q), str(a), str(a)
    if mode == 1:
        q = pick(
            rng,
            (f"{a} {x} {b} {x} {c} = {a} {x} ?", f"({a} {x} {b}) {x} {c} = {a} {x} ({b} {x} ?)"),
        )
        if "(" in q:
            return _eq(rng, q), str(c), str(c)
        return _eq(rng, q), f"{b} * {c}", str(b * c)
    if mode == 2:
        b1 = rng.randint(1, b - 1) if b > 2 else 1
        q = f"{a} {x} {b} = {a} {x} {b1} + {a} {x} ?"
        return _eq(rng, q), f"{b} - {b1}", str(b - b1)
    text = pick(
        rng,
        (
            f"Use {a} {x} {b} = {a * b} to find {b} {x} {a}.",
            f"if {a} x {b} is {a * b} what is {b} x {a}",
            f"You know {a} {x} {b} = {a * b}. What is {b} {x} {a}? Which property did you use?",
        ),
    )
    return text, f"{b} * {a}", str(a * b)


def _g3oa6(rng: random.Random) -> Made:
    a, b = rng.randint(2, 10), rng.randint(2, 10)
    p, x, d = a * b, _x(rng), _d(rng)
    text = pick(
        rng,
        (
            f"Find {p} {d} {a} by finding the number that makes {p} when multiplied by {a}.",
            f"To solve {p} {d} {a}, think {a} {x} ? = {p}. What is the unknown factor?",
            f"{p} {d} {a} = ? because {a} {x} ? = {p}. What number is ?",
            f"how do i use multiplication to do {p} {d} {a}",
            f"What unknown factor solves {p} {d} {a}? Write the multiplication fact.",
            f"i know {a} x {b} = {p} so what is {p} {d} {a}",
        ),
    )
    return text, f"{p} / {a}", str(b)


def _g3oa7(rng: random.Random) -> Made:
    a, b = rng.randint(1, 10), rng.randint(1, 10)
    if rng.random() < 0.55:
        e = pick(rng, (f"{a} {_x(rng)} {b}", f"{a} times {b}"))
        return _bare(rng, e), f"{a} * {b}", str(a * b)
    p = a * b
    e = pick(rng, (f"{p} {_d(rng)} {a}", f"{p} divided by {a}"))
    return _bare(rng, e), f"{p} / {a}", str(b)


def _g3oa8_story(rng: random.Random) -> Made:
    name, other = _two(rng)
    t = pick(rng, THINGS)[1]
    mode = rng.randrange(6)
    if mode == 0:
        n, k = rng.randint(2, 9), rng.randint(3, 10)
        g = rng.randint(1, n * k - 1)
        text = _say(
            rng,
            (
                "{name} buys {n} packs of {t} with {k} in each pack. Then {name} gives {g} {t} to "
                "{o}. How many {t} are left?",
                "{name} has {n} bags of {k} {t}. {name} loses {g} of them. How many {t} does "
                "{name} have now?",
                "There were {n} rows of {k} {t}. {g} were taken away. How many {t} remain?",
            ),
            name=name, o=other, n=n, k=k, g=g, t=t,
        )  # fmt: skip
        return text, f"{n} * {k} - {g}", str(n * k - g)
    if mode == 1:
        m, each = rng.randint(2, 9), rng.randint(2, 10)
        a = rng.randint(1, m * each - 1)
        b = m * each - a
        text = _say(
            rng,
            (
                "{name} had {a} {t} and got {b} more. {name} shares them equally among {m} "
                "friends. How many does each friend get?",
                "{name} has {a} {t} and {o} has {b}. They put them all into {m} equal groups. How "
                "many {t} are in each group?",
                "There are {a} red {t} and {b} blue {t}. They go into {m} bags equally. How many "
                "per bag?",
            ),
            name=name, o=other, a=a, b=b, m=m, t=t,
        )  # fmt: skip
        return text, f"({a} + {b}) / {m}", str(each)
    if mode == 2:
        n, k, extra = rng.randint(2, 9), rng.randint(2, 10), rng.randint(1, 20)
        text = _say(
            rng,
            (
                "{name} has {n} boxes of {k} {t} and {e} loose {t}. How many {t} does {name} have?",
                "A store has {n} full trays of {k} {t} and {e} more on the counter. How many {t} "
                "in all?",
            ),
            name=name, n=n, k=k, e=extra, t=t,
        )  # fmt: skip
        return text, f"{n} * {k} + {extra}", str(n * k + extra)
    if mode == 3:
        g, k = rng.randint(2, 6), rng.randint(2, 6)
        s = g * k + rng.randint(1, 12)
        text = _say(
            rng,
            (
                "A class has {s} students. {g} groups of {k} students go to the library. How many "
                "students stay in class?",
                "There are {s} kids at the park. {g} teams of {k} leave. How many kids are still "
                "at the park?",
            ),
            s=s, g=g, k=k,
        )  # fmt: skip
        return text, f"{s} - {g} * {k}", str(s - g * k)
    if mode == 4:
        n, p = rng.randint(2, 9), rng.randint(2, 9)
        a = n * p + rng.randint(1, 30)
        text = _say(
            rng,
            (
                "{name} has {a} dollars and buys {n} books that cost {p} dollars each. How much "
                "money is left?",
                "{name} had ${a}. {name} bought {n} tickets at ${p} each. How many dollars does "
                "{name} have now?",
                "Write an equation with a letter for the unknown: {name} has {a} dollars, spends "
                "{p} dollars on each of {n} games. How much is left?",
            ),
            name=name, a=a, n=n, p=p,
        )  # fmt: skip
        return text, f"{a} - {n} * {p}", str(a - n * p)
    k, m = rng.randint(2, 9), rng.randint(2, 9)
    a = rng.randint(1, k * m - 1)
    b = k * m - a
    text = _say(
        rng,
        (
            "{name} picks {a} {t} and {o} picks {b} {t}. They pack them in boxes of {k}. How many "
            "boxes do they fill?",
            "One jar has {a} {t} and another has {b}. All the {t} go in bags of {k}. How many "
            "bags?",
        ),
        name=name, o=other, a=a, b=b, k=k, t=t,
    )  # fmt: skip
    return text, f"({a} + {b}) / {k}", str(m)


def _g3oa8_bare(rng: random.Random) -> Made:
    a, b, c = rng.randint(2, 9), rng.randint(2, 9), rng.randint(1, 30)
    x, d = _x(rng), _d(rng)
    mode = rng.randrange(5)
    if mode == 0:
        return (
            _eq(rng, f"n = {a} {x} {b} - {min(c, a * b)}. What is n?"),
            f"{a} * {b} - {min(c, a * b)}",
            str(a * b - min(c, a * b)),
        )
    if mode == 1:
        return _bare(rng, f"{c} + {a} {x} {b}"), f"{c} + {a} * {b}", str(c + a * b)
    if mode == 2:
        p = a * b
        return _bare(rng, f"{p} {d} {a} + {c}"), f"{p} / {a} + {c}", str(b + c)
    if mode == 3:
        p = a * b
        return (
            _eq(rng, f"{p} {d} {b} {x} {c % 9 + 1} = n. Find n."),
            f"{p} / {b} * {c % 9 + 1}",
            str(a * (c % 9 + 1)),
        )
    s = a * b + c
    return _eq(rng, f"n + {a} {x} {b} = {s}"), f"{s} - {a} * {b}", str(c)


def _g3oa9(rng: random.Random) -> Made:
    mode = rng.randrange(4)
    if mode == 0:
        start, step = rng.randint(1, 20), rng.randint(2, 9)
        terms = [start + i * step for i in range(6)]
        gap = rng.randint(1, 5)
        shown = ", ".join("?" if i == gap else str(v) for i, v in enumerate(terms))
        text = pick(
            rng,
            (
                f"What number is missing in the pattern {shown}?",
                f"find the missing number {shown}",
                f"Complete the pattern: {shown}",
            ),
        )
        return text, f"{start} + {gap} * {step}", str(terms[gap])
    if mode == 1:
        k, n = rng.randint(2, 9), rng.randint(6, 10)
        seq = ", ".join(str(k * i) for i in range(1, 5))
        text = pick(
            rng,
            (
                f"What is the {_ordinal(n)} number in the pattern {seq}, ...?",
                f"the pattern goes {seq} what is the {_ordinal(n)} number",
            ),
        )
        return text, f"{n} * {k}", str(n * k)
    if mode == 2:
        k, col = rng.randint(2, 9), rng.randint(5, 10)
        row = ", ".join(str(k * i) for i in range(1, 4))
        text = pick(
            rng,
            (
                f"In the multiplication table, the {k}s row starts {row}. What number is in the "
                f"{col} column of that row?",
                f"multiplication table row for {k}: {row}, ... what is in column {col}",
            ),
        )
        return text, f"{k} * {col}", str(k * col)
    r, c = rng.randint(2, 10), rng.randint(2, 10)
    text = pick(
        rng,
        (
            "In the addition table, each number is its row plus its column. What number is in row "
            f"{r}, column {c}?",
            f"addition table: row {r} column {c} what goes there",
            f"In the addition table, row {r} goes {r + 1}, {r + 2}, {r + 3}, ... What is in column "
            f"{c}?",
        ),
    )
    return text, f"{r} + {c}", str(r + c)


def _g3oa9_story(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    start, step, n = rng.randint(1, 15), rng.randint(2, 9), rng.randint(5, 9)
    text = _say(
        rng,
        (
            "{name} saves {s} dollars the first week and adds {k} dollars each week after. How "
            "much has {name} saved after {n} weeks?",
            "A plant is {s} cm tall and grows {k} cm each week. How tall is it after {m} weeks of "
            "growing?",
            "{name} reads {s} pages on day 1 and {k} more pages each day than the day before. How "
            "many pages on day {n}?",
            "Seats in a theater: row 1 has {s} seats and each row has {k} more. How many seats are "
            "in row {n}?",
            "{name} stacks cups: the first stack has {s} cups and each new stack has {k} more. How "
            "many cups in stack {n}?",
        ),
        name=name, s=start, k=step, n=n, m=n - 1,
    )  # fmt: skip
    return text, f"{start} + {n - 1} * {step}", str(start + (n - 1) * step)


GENERATORS: tuple[Generator, ...] = table(
    ("3.OA.B.5/properties", "bare", _g3oa5),
    ("3.OA.B.6/unknown-factor", "bare", _g3oa6),
    ("3.OA.C.7/facts", "bare", _g3oa7),
    ("3.OA.D.8/two-step-story", "word", _g3oa8_story),
    ("3.OA.D.8/two-step-equation", "bare", _g3oa8_bare),
    ("3.OA.D.9/number-pattern", "bare", _g3oa9),
    ("3.OA.D.9/pattern-story", "word", _g3oa9_story),
)
