"""Grade 6 problem generators: The Number System, clusters A–B.

The standards 6.NS.A.1 to 6.NS.B.4; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from math import gcd

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import CONTAINERS, THINGS, pick, plural
from tutorgraph.training.problems.grade_56._shared import (
    _ask,
    _d,
    _dec,
    _f,
    _fa,
    _fe,
    _frac,
    _m,
    _money,
    _name,
)

__all__ = ["GENERATORS"]


_DENS6 = (2, 3, 4, 5, 6, 8, 9, 10, 12)


def _ns_fraction_div_bare(rng: random.Random) -> Made:
    a = _frac(rng, _DENS6, proper=rng.random() < 0.7)
    b = _frac(rng, _DENS6)
    q = pick(
        rng,
        (
            f"{_f(a)} ÷ {_f(b)} = ?",
            f"Divide: {_m(a)} ÷ {_f(b)}",
            f"Find the quotient of {_f(a)} and {_f(b)}.",
            f"how do you do {_f(a)} divided by {_f(b)}",
            f"Compute ({_f(a)}) ÷ ({_f(b)}). Check with multiplication.",
        ),
    )
    return _ask(rng, q), f"{_fe(a)} / {_fe(b)}", _fa(rng, a / b)


def _ns_fraction_div_story(rng: random.Random) -> Made:
    who = _name(rng)
    a, b = _frac(rng, _DENS6, proper=rng.random() < 0.5), _frac(rng, (2, 3, 4, 6, 8))
    kind = rng.randrange(4)
    if kind == 0:
        q = f"How many {_f(b)}-cup servings are in {_m(a)} cup of yogurt?"
    elif kind == 1:
        sq = plural(("square mile", "square miles"), a)
        q = (
            f"A rectangular strip of land has an area of {_m(a)} {sq} and a length of {_f(b)} "
            "mile. How wide is it?"
        )
    elif kind == 2:
        q = (
            f"{who} has {_m(a)} yards of ribbon and cuts pieces {_f(b)} yard long. How many pieces "
            f"can {who} make?"
        )
    else:
        q = f"{who} walks {_m(a)} mile in {_f(b)} hour. How many miles is that per hour?"
    return _ask(rng, q), f"{_fe(a)} / {_fe(b)}", _fa(rng, a / b)


def _ns_long_div_bare(rng: random.Random) -> Made:
    d = rng.randint(12, 499)
    qt = rng.randint(21, 999)
    n = d * qt
    q = pick(
        rng,
        (
            f"{_d(n)} ÷ {d} = ?",
            f"Divide using the standard algorithm: {_d(n)} ÷ {d}",
            f"What is {_d(n)} divided by {d}?",
            f"long division {n} / {d}",
            f"Find the quotient: {_d(n)} ÷ {d}.",
        ),
    )
    return _ask(rng, q), f"{n} / {d}", str(qt)


def _ns_long_div_story(rng: random.Random) -> Made:
    d = rng.randint(12, 144)
    qt = rng.randint(21, 600)
    n = d * qt
    thing = pick(rng, THINGS)
    box, boxes = pick(rng, CONTAINERS)
    q = pick(
        rng,
        (
            f"A factory packs {_d(n)} {thing[1]} into {boxes} of {d}. How many {boxes} does it "
            "fill?",
            f"{_d(n)} {thing[1]} are shared equally among {d} {boxes}. How many go in each {box}?",
            f"A school raised ${_d(n)} for {d} classes, split equally. How many dollars does each "
            "class get?",
            f"{_d(n)} people are seated at {d} equal sections in a stadium. how many people per "
            "section",
        ),
    )
    return _ask(rng, q), f"{n} / {d}", str(qt)


def _ns_decimal_bare(rng: random.Random) -> Made:
    op = rng.randrange(4)
    if op == 0:
        a, b = _dec(rng, 10, 999, rng.randint(1, 3)), _dec(rng, 1, 999, rng.randint(1, 3))
        text, expr, ans = f"{_d(a)} + {_d(b)}", f"{_d(a)} + {_d(b)}", a + b
    elif op == 1:
        a, b = _dec(rng, 100, 999, rng.randint(1, 3)), _dec(rng, 1, 99, rng.randint(1, 3))
        text, expr, ans = f"{_d(a)} - {_d(b)}", f"{_d(a)} - {_d(b)}", a - b
    elif op == 2:
        a, b = _dec(rng, 1, 99, rng.randint(1, 2)), _dec(rng, 1, 20, rng.randint(1, 2))
        text, expr, ans = f"{_d(a)} × {_d(b)}", f"{_d(a)} * {_d(b)}", a * b
    else:
        b = _dec(rng, 1, 20, 1)
        ans = _dec(rng, 1, 99, rng.randint(0, 2))
        a = ans * b
        text, expr = f"{_d(a)} ÷ {_d(b)}", f"{_d(a)} / {_d(b)}"
    q = pick(
        rng,
        (
            f"{text} = ?",
            f"Compute {text}.",
            f"Find {text} using the standard algorithm.",
            f"whats {text}",
            f"Solve: {text}",
        ),
    )
    return _ask(rng, q), expr, _d(ans)


def _ns_decimal_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(4)
    if kind == 0:
        price, lbs = _dec(rng, 1, 9, 2), _dec(rng, 1, 5, 1)
        q = (
            f"Cheese costs {_money(price)} per pound. {who} buys {_d(lbs)} pounds. How much does "
            "it cost, in dollars?"
        )
        return _ask(rng, q), f"{_d(price)} * {_d(lbs)}", _d(price * lbs)
    if kind == 1:
        each = _dec(rng, 1, 30, 2)
        n = rng.randint(3, 12)
        q = (
            f"{n} friends split a bill of {_money(each * n)} equally. How much does each pay, in "
            "dollars?"
        )
        return _ask(rng, q), f"{_d(each * n)} / {n}", _d(each)
    if kind == 2:
        a, b, c = _dec(rng, 10, 99, 2), _dec(rng, 10, 99, 2), _dec(rng, 1, 9, 2)
        q = (
            f"{who} buys groceries for {_money(a)}, a shirt for {_money(b)} and a card for "
            f"{_money(c)}. What is the total, in dollars?"
        )
        return _ask(rng, q), f"{_d(a)} + {_d(b)} + {_d(c)}", _d(a + b + c)
    g = _dec(rng, 5, 15, 1)
    per = _dec(rng, 20, 40, 1)
    q = f"A car goes {_d(per)} miles per gallon. How far can it go on {_d(g)} gallons?"
    return _ask(rng, q), f"{_d(per)} * {_d(g)}", _d(per * g)


def _ns_gcf_bare(rng: random.Random) -> Made:
    g = rng.randint(2, 15)
    a, b = g * rng.randint(1, 100 // g), g * rng.randint(1, 100 // g)
    if a == b:
        b = g if a != g else 2 * g
    q = pick(
        rng,
        (
            f"Find the greatest common factor of {a} and {b}.",
            f"What is the GCF of {a} and {b}?",
            f"gcf of {a} and {b}",
            f"What is the greatest number that divides both {a} and {b}?",
        ),
    )
    return _ask(rng, q), f"gcd({a}, {b})", str(gcd(a, b))


def _ns_lcm_bare(rng: random.Random) -> Made:
    a, b = rng.sample(range(2, 13), 2)
    q = pick(
        rng,
        (
            f"Find the least common multiple of {a} and {b}.",
            f"What is the LCM of {a} and {b}?",
            f"lcm of {a} and {b}",
            f"What is the smallest number that is a multiple of both {a} and {b}?",
        ),
    )
    return _ask(rng, q), f"lcm({a}, {b})", str(a * b // gcd(a, b))


def _ns_gcf_lcm_story(rng: random.Random) -> Made:
    who = _name(rng)
    if rng.random() < 0.5:
        g = rng.randint(2, 12)
        a, b = g * rng.randint(2, 8), g * rng.randint(2, 8)
        if a == b:
            b += g
        x, y = pick(
            rng,
            (
                ("red beads", "blue beads"),
                ("pencils", "erasers"),
                ("apples", "oranges"),
                ("boys", "girls"),
            ),
        )
        q = (
            f"{who} has {a} {x} and {b} {y} and makes identical groups with none left over. What "
            "is the greatest number of groups?"
        )
        return _ask(rng, q), f"gcd({a}, {b})", str(gcd(a, b))
    a, b = rng.sample(range(2, 13), 2)
    x, y = pick(rng, (("hot dogs", "buns"), ("plates", "cups"), ("juice boxes", "granola bars")))
    q = (
        f"{x.capitalize()} come in packs of {a} and {y} in packs of {b}. What is the least number "
        f"of each {who} can buy to have the same amount?"
    )
    return _ask(rng, q), f"lcm({a}, {b})", str(a * b // gcd(a, b))


def _ns_distributive(rng: random.Random) -> Made:
    g = rng.randint(2, 12)
    while True:
        m, n = rng.randint(1, 100 // g), rng.randint(1, 100 // g)
        if gcd(m, n) == 1 and m != n:
            break
    a, b = g * m, g * n
    if rng.random() < 0.5:
        q = pick(
            rng,
            (
                f"Use the GCF to write {a} + {b} as ?({m} + {n}). What goes in front?",
                f"{a} + {b} = ?({m} + {n})",
            ),
        )
        return _ask(rng, q), f"gcd({a}, {b})", str(g)
    q = pick(
        rng,
        (
            f"Write {a} + {b} as {g}(? + {n}). What is the missing number?",
            f"{a} + {b} = {g}(? + {n}), find the missing number",
        ),
    )
    return _ask(rng, q), f"{a} / {g}", str(m)


GENERATORS: tuple[Generator, ...] = table(
    ("6.NS.A.1/divide-fractions", "bare", _ns_fraction_div_bare),
    ("6.NS.A.1/divide-fractions-story", "word", _ns_fraction_div_story),
    ("6.NS.B.2/long-division", "bare", _ns_long_div_bare),
    ("6.NS.B.2/long-division-story", "word", _ns_long_div_story),
    ("6.NS.B.3/decimal-operations", "bare", _ns_decimal_bare),
    ("6.NS.B.3/decimal-story", "word", _ns_decimal_story),
    ("6.NS.B.4/gcf", "bare", _ns_gcf_bare),
    ("6.NS.B.4/lcm", "bare", _ns_lcm_bare),
    ("6.NS.B.4/gcf-lcm-story", "word", _ns_gcf_lcm_story),
    ("6.NS.B.4/factor-out-gcf", "bare", _ns_distributive),
)
