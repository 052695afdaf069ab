"""Grade 5 problem generators: Number and Operations in Base Ten, cluster B.

The standards 5.NBT.B.5 to 5.NBT.B.7; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import CONTAINERS, THINGS, pick
from tutorgraph.training.problems.grade_56._shared import F, _ask, _d, _dec, _div, _money, _name, _x

__all__ = ["GENERATORS"]


def _nbt_multiply_bare(rng: random.Random) -> Made:
    a = rng.randint(100, 9999)
    b = rng.randint(12, 999)
    q = pick(
        rng,
        (
            f"{a}{_x(rng)}{b} = ?",
            f"Multiply: {a}{_x(rng)}{b}",
            f"Find the product of {a} and {b}.",
            f"What is {a} times {b}?",
            f"use the standard algorithm {a}{_x(rng)}{b}",
            f"Solve. {b}{_x(rng)}{a}",
        ),
    )
    return _ask(rng, q), f"{a} * {b}", _d(a * b)


def _nbt_multiply_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(5)
    a, b = rng.randint(12, 99), rng.randint(100, 999)
    _, boxes = pick(rng, CONTAINERS)
    thing = pick(rng, THINGS)
    if kind == 0:
        q = f"A store gets {a} {boxes} with {b} {thing[1]} in each. How many {thing[1]} in all?"
    elif kind == 1:
        a, b = b, a
        q = f"{who}'s school prints {a} copies of a {b}-page booklet. How many pages are printed?"
    elif kind == 2:
        q = f"A theater has {a} rows with {b} seats in each row. How many seats are there?"
    elif kind == 3:
        q = f"Each ticket costs ${a}. The school sells {b} tickets. How many dollars is that?"
    else:
        q = f"A farm packs {b} eggs a day. How many eggs are packed in {a} days?"
    return _ask(rng, q), f"{a} * {b}", _d(a * b)


def _nbt_divide_bare(rng: random.Random) -> Made:
    d = rng.randint(11, 99)
    qt = rng.randint(12, 9999 // d)
    n = d * qt
    if rng.random() < 0.25:
        r = rng.randint(1, d - 1)
        n2 = n + r if n + r < 10000 else n - d + r
        q = pick(
            rng,
            (
                f"What is the remainder when {n2} is divided by {d}?",
                f"{n2} ÷ {d}: find the remainder.",
            ),
        )
        return _ask(rng, q), f"{n2} % {d}", str(n2 % d)
    q = pick(
        rng,
        (
            f"{n}{_div(rng)}{d} = ?",
            f"Divide: {n}{_div(rng)}{d}",
            f"Find the quotient of {n} and {d}.",
            f"What is {n} divided by {d}?",
            f"{d} × ? = {n}",
            f"how do you do long division {n}{_div(rng)}{d}",
        ),
    )
    return _ask(rng, q), f"{n} / {d}", str(qt)


def _nbt_divide_story(rng: random.Random) -> Made:
    d = rng.randint(12, 60)
    qt = rng.randint(11, 9999 // d)
    n = d * qt
    thing = pick(rng, THINGS)
    box, boxes = pick(rng, CONTAINERS)
    kind = rng.randrange(4)
    if kind == 0:
        q = (
            f"There are {n} {thing[1]} packed equally into {d} {boxes}. How many {thing[1]} are in "
            f"each {box}?"
        )
        return _ask(rng, q), f"{n} / {d}", str(qt)
    if kind == 1:
        q = (
            f"A factory puts {d} {thing[1]} in each {box}. How many {boxes} does it fill with {n} "
            f"{thing[1]}?"
        )
        return _ask(rng, q), f"{n} / {d}", str(qt)
    n2 = n + rng.randint(1, d - 1)
    if n2 > 9999:
        n2 = n - rng.randint(1, d - 1)
    if kind == 2:
        q = (
            f"{n2} students are going on a trip. Each bus holds {d} students. How many buses are "
            "needed?"
        )
        return _ask(rng, q), f"ceil({n2} / {d})", str(-(-n2 // d))
    q = (
        f"{_name(rng)} has {n2} {thing[1]} and fills {boxes} of {d}. How many {boxes} can be "
        "filled completely?"
    )
    return _ask(rng, q), f"{n2} // {d}", str(n2 // d)


def _nbt_decimal_bare(rng: random.Random) -> Made:
    op = rng.randrange(4)
    a, b = _dec(rng, 0, 99, rng.randint(1, 2)), _dec(rng, 0, 40, rng.randint(1, 2))
    if op == 0:
        text, expr, ans = f"{_d(a)} + {_d(b)}", f"{_d(a)} + {_d(b)}", a + b
    elif op == 1:
        a, b = max(a, b), min(a, b)
        text, expr, ans = f"{_d(a)} - {_d(b)}", f"{_d(a)} - {_d(b)}", a - b
    elif op == 2:
        a, b = (
            _dec(rng, 0, 9, 1),
            F(rng.randint(2, 9)) if rng.random() < 0.5 else _dec(rng, 0, 9, 1),
        )
        text, expr, ans = f"{_d(a)}{_x(rng)}{_d(b)}", f"{_d(a)} * {_d(b)}", a * b
    else:
        b = pick(rng, (F(rng.randint(2, 9)), F(1, 10), F(rng.randint(2, 9), 10)))
        ans = _dec(rng, 0, 20, 1)
        a = ans * b
        text, expr = f"{_d(a)}{_div(rng)}{_d(b)}", f"{_d(a)} / {_d(b)}"
    q = pick(
        rng,
        (
            f"{text} = ?",
            f"Find {text}.",
            f"Compute {text}.",
            f"what is {text}",
            f"Solve using place value: {text}",
            f"Work out {text} and check with an estimate.",
        ),
    )
    return _ask(rng, q), expr, _d(ans)


def _nbt_decimal_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(5)
    if kind == 0:
        p, n = _dec(rng, 1, 9, 2), rng.randint(2, 6)
        item = pick(rng, ("notebooks", "juice boxes", "markers", "sandwiches"))
        q = f"{who} buys {n} {item} at {_money(p)} each. How much does {who} spend, in dollars?"
        return _ask(rng, q), f"{n} * {_d(p)}", _d(n * p)
    if kind == 1:
        have, cost = _dec(rng, 10, 20, 2), _dec(rng, 1, 9, 2)
        q = f"{who} has {_money(have)} and buys a book for {_money(cost)}. How much money is left?"
        return _ask(rng, q), f"{_d(have)} - {_d(cost)}", _d(have - cost)
    if kind == 2:
        a, b = _dec(rng, 1, 5, 2), _dec(rng, 1, 5, 2)
        q = (
            f"{who} ran {_d(a)} km on Monday and {_d(b)} km on Tuesday. How far did {who} run in "
            "all?"
        )
        return _ask(rng, q), f"{_d(a)} + {_d(b)}", _d(a + b)
    if kind == 3:
        n = rng.randint(2, 8)
        each = _dec(rng, 0, 3, 2)
        total = each * n
        q = f"A {_d(total)} m ribbon is cut into {n} equal pieces. How long is each piece?"
        return _ask(rng, q), f"{_d(total)} / {n}", _d(each)
    w, ln = _dec(rng, 1, 9, 1), _dec(rng, 1, 9, 1)
    q = f"A rug is {_d(ln)} m long and {_d(w)} m wide. What is its area in square meters?"
    return _ask(rng, q), f"{_d(ln)} * {_d(w)}", _d(ln * w)


GENERATORS: tuple[Generator, ...] = table(
    ("5.NBT.B.5/multiply", "bare", _nbt_multiply_bare),
    ("5.NBT.B.5/multiply-story", "word", _nbt_multiply_story),
    ("5.NBT.B.6/divide", "bare", _nbt_divide_bare),
    ("5.NBT.B.6/divide-story", "word", _nbt_divide_story),
    ("5.NBT.B.7/decimal-operations", "bare", _nbt_decimal_bare),
    ("5.NBT.B.7/decimal-story", "word", _nbt_decimal_story),
)
