"""Grade 6 problem generators: Ratios and Proportional Relationships.

The standards 6.RP.A.1 to 6.RP.A.3; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from math import gcd

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_56._shared import (
    _CONV,
    F,
    _ask,
    _d,
    _dec,
    _fa,
    _money,
    _name,
)

__all__ = ["GENERATORS"]


def _rp_ratio_story(rng: random.Random) -> Made:
    a, b = rng.randint(1, 5), rng.randint(1, 5)
    if a == b:
        b += 1
    k = rng.randint(2, 9)
    x, y = pick(
        rng,
        (
            ("pencils", "erasers"),
            ("boys", "girls"),
            ("red beads", "blue beads"),
            ("cups of water", "cups of juice"),
            ("dogs", "cats"),
            ("votes for Ana", "votes for Ben"),
        ),
    )
    kind = rng.randrange(3)
    if kind == 0:
        q = f"The ratio of {x} to {y} is {a}:{b}. If there are {a * k} {x}, how many {y} are there?"
        return _ask(rng, q), f"{a * k} / {a} * {b}", str(b * k)
    if kind == 1:
        q = f"There are {a * k} {x} and {b * k} {y}. For every {a} {x}, how many {y} are there?"
        return _ask(rng, q), f"{b * k} / ({a * k} / {a})", str(b)
    q = f"For every {a} {x} there are {b} {y}. There are {(a + b) * k} in all. How many are {y}?"
    return _ask(rng, q), f"{(a + b) * k} / ({a} + {b}) * {b}", str(b * k)


def _rp_simplify(rng: random.Random) -> Made:
    a, b = rng.randint(1, 9), rng.randint(1, 9)
    g = gcd(a, b)
    a, b = a // g, b // g
    k = rng.randint(2, 12)
    q = pick(
        rng,
        (
            f"Write the ratio {a * k}:{b * k} in simplest form as {a}:?. What is the missing "
            "number?",
            f"{a * k} to {b * k} is the same ratio as {a} to what?",
            f"simplify the ratio {a * k}:{b * k}, what is the second number",
            f"Find the missing value: {a * k}:{b * k} = {a}:?",
        ),
    )
    return _ask(rng, q), f"{b * k} / gcd({a * k}, {b * k})", str(b)


def _rp_unit_rate_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(4)
    if kind == 0:
        a, b = rng.sample(range(1, 10), 2)
        q = (
            f"A recipe uses {a} cups of flour for every {b} cups of sugar. How many cups of flour "
            "is that per cup of sugar?"
        )
        return _ask(rng, q), f"{a} / {b}", _fa(rng, F(a, b))
    n, r = rng.randint(2, 12), rng.randint(2, 15)
    if kind == 1:
        q = (
            f"{who} pays ${n * r} for {n} pounds of apples. What is the price per pound, in "
            "dollars?"
        )
        return _ask(rng, q), f"{n * r} / {n}", str(r)
    if kind == 2:
        q = (
            f"A car goes {n * r * 5} miles on {n} gallons of gas. How many miles per gallon is "
            "that?"
        )
        return _ask(rng, q), f"{n * r * 5} / {n}", str(r * 5)
    q = f"{who} types {n * r * 3} words in {n} minutes. What is the rate in words per minute?"
    return _ask(rng, q), f"{n * r * 3} / {n}", str(r * 3)


def _rp_unit_rate_bare(rng: random.Random) -> Made:
    n, r = rng.randint(2, 12), rng.randint(2, 20)
    u1, u2 = pick(
        rng,
        (
            ("miles", "hours"),
            ("dollars", "pounds"),
            ("pages", "days"),
            ("beats", "minutes"),
            ("liters", "minutes"),
        ),
    )
    q = pick(
        rng,
        (
            f"Find the unit rate: {n * r} {u1} in {n} {u2}.",
            f"What is the unit rate for {n * r} {u1} per {n} {u2}?",
            f"{n * r} {u1} : {n} {u2}. How many {u1} for 1 {u2[:-1]}?",
            f"unit rate of {n * r} {u1} for every {n} {u2}",
        ),
    )
    return _ask(rng, q), f"{n * r} / {n}", str(r)


def _rp_table_bare(rng: random.Random) -> Made:
    a, b = rng.sample(range(2, 10), 2)
    ks = sorted(rng.sample(range(1, 10), 4))
    miss = rng.randrange(4)
    xs = [a * k for k in ks]
    ys = [b * k for k in ks]
    if rng.random() < 0.5:
        shown_y = ["?" if i == miss else str(v) for i, v in enumerate(ys)]
        table = f"x: {', '.join(map(str, xs))}; y: {', '.join(shown_y)}"
        expr, ans = f"{xs[miss]} / {a} * {b}", ys[miss]
    else:
        shown_x = ["?" if i == miss else str(v) for i, v in enumerate(xs)]
        table = f"x: {', '.join(shown_x)}; y: {', '.join(map(str, ys))}"
        expr, ans = f"{ys[miss]} / {b} * {a}", xs[miss]
    q = pick(
        rng,
        (
            f"The table shows equivalent ratios. {table}. Find the missing value.",
            f"Complete the ratio table: {table}",
            f"whats the missing number in this ratio table {table}",
            f"Find ? in the table of equivalent ratios ({table}).",
        ),
    )
    return _ask(rng, q), expr, str(ans)


def _rp_table_story(rng: random.Random) -> Made:
    a, b = rng.sample(range(2, 9), 2)
    k = rng.randint(3, 12)
    x, y = pick(
        rng,
        (
            ("lemons", "cups of water"),
            ("scoops of mix", "liters of water"),
            ("cups of rice", "cups of water"),
            ("tickets", "dollars"),
        ),
    )
    if rng.random() < 0.5:
        q = (
            f"A table shows {a} {x} for {b} {y}, {2 * a} {x} for {2 * b} {y}, and so on. "
            f"How many {y} go with {a * k} {x}?"
        )
        return _ask(rng, q), f"{a * k} / {a} * {b}", str(b * k)
    q = (
        f"{_name(rng)} makes a table of equivalent ratios: {a} {x} to {b} {y}. "
        f"How many {x} are needed for {b * k} {y}?"
    )
    return _ask(rng, q), f"{b * k} / {b} * {a}", str(a * k)


def _rp_unit_price_story(rng: random.Random) -> Made:
    who = _name(rng)
    n = rng.randint(2, 8)
    each = _dec(rng, 1, 6, 2) if rng.random() < 0.5 else F(rng.randint(2, 12))
    m = rng.randint(n + 1, 20)
    item = pick(
        rng,
        ("pounds of grapes", "notebooks", "bottles of water", "yards of fabric", "movie tickets"),
    )
    if rng.random() < 0.6:
        q = (
            f"{n} {item} cost {_money(each * n)}. At the same rate, how much does {who} pay "
            f"for {m} {item}, in dollars?"
        )
        return _ask(rng, q), f"{_d(each * n)} / {n} * {m}", _d(each * m)
    other = each + pick(rng, (F(1, 4), F(1, 2), F(-1, 4)))
    m2 = rng.randint(2, 8)
    q = (
        f"Store A sells {n} {item} for {_money(each * n)}. "
        f"Store B sells {m2} for {_money(other * m2)}. What is the lower price for one, in dollars?"
    )
    return _ask(rng, q), f"min({_d(each * n)} / {n}, {_d(other * m2)} / {m2})", _d(min(each, other))


def _rp_speed_story(rng: random.Random) -> Made:
    who = _name(rng)
    t, r = rng.randint(2, 8), rng.randint(3, 70)
    t2 = rng.randint(2, 12)
    kind = rng.randrange(3)
    if kind == 0:
        q = (
            f"{who} drives {r * t} miles in {t} hours. At that speed, how far does {who} drive in "
            f"{t2} hours?"
        )
        return _ask(rng, q), f"{r * t} / {t} * {t2}", str(r * t2)
    if kind == 1:
        lawns, m = rng.randint(2, 8), rng.randint(2, 6)
        q = (
            f"It took {who} {t} hours to mow {lawns} lawns. At that rate, how many lawns "
            f"can {who} mow in {t * m} hours?"
        )
        return _ask(rng, q), f"{lawns} / {t} * {t * m}", str(lawns * m)
    q = (
        f"A train goes {r * t} km in {t} hours. How long does it take to go {r * t2} km at the "
        "same speed, in hours?"
    )
    return _ask(rng, q), f"{r * t2} / ({r * t} / {t})", str(t2)


def _rp_percent_bare(rng: random.Random) -> Made:
    p = pick(rng, (5, 10, 20, 25, 30, 40, 50, 60, 75, 80, 15, 35))
    whole = 20 * rng.randint(1, 25)
    part = F(p * whole, 100)
    kind = rng.randrange(3)
    if kind == 0:
        q = pick(
            rng,
            (f"What is {p}% of {whole}?", f"Find {p}% of {whole}.", f"{p} percent of {whole} = ?"),
        )
        return _ask(rng, q), f"{p} / 100 * {whole}", _d(part)
    if kind == 1:
        q = pick(
            rng,
            (
                f"{_d(part)} is {p}% of what number?",
                f"{p}% of a number is {_d(part)}. Find the number.",
            ),
        )
        return _ask(rng, q), f"{_d(part)} / ({p} / 100)", str(whole)
    q = pick(
        rng,
        (f"What percent of {whole} is {_d(part)}?", f"{_d(part)} out of {whole} is what percent?"),
    )
    return _ask(rng, q), f"{_d(part)} / {whole} * 100", str(p)


def _rp_percent_story(rng: random.Random) -> Made:
    who = _name(rng)
    p = pick(rng, (10, 20, 25, 30, 40, 50, 60, 75, 80))
    whole = 20 * rng.randint(1, 20)
    part = p * whole // 100
    kind = rng.randrange(4)
    if kind == 0:
        q = (
            f"A jacket costs ${whole}. It is on sale for {p}% off. How many dollars is the "
            "discount?"
        )
        return _ask(rng, q), f"{p} / 100 * {whole}", str(part)
    if kind == 1:
        q = (
            f"{who} has read {part} pages, which is {p}% of the book. How many pages are in the "
            "book?"
        )
        return _ask(rng, q), f"{part} / ({p} / 100)", str(whole)
    if kind == 2:
        q = f"{who} got {part} out of {whole} questions right. What percent is that?"
        return _ask(rng, q), f"{part} / {whole} * 100", str(p)
    q = f"{p}% of the {whole} students in the school walk to school. How many students walk?"
    return _ask(rng, q), f"{p} / 100 * {whole}", str(part)


def _rp_convert(rng: random.Random) -> Made:
    kind = rng.randrange(5)
    if kind == 0:
        n = rng.randint(2, 30)
        q = pick(
            rng,
            (
                f"1 inch = 2.54 cm. How many cm are in {n} inches?",
                f"convert {n} inches to centimeters (1 in = 2.54 cm)",
            ),
        )
        return _ask(rng, q), f"{n} * 2.54", _d(n * F(254, 100))
    if kind == 1:
        m = 30 * rng.randint(2, 20)
        q = pick(rng, (f"How many hours are in {m} minutes?", f"Convert {m} minutes to hours."))
        return _ask(rng, q), f"{m} / 60", _d(F(m, 60))
    if kind == 2:
        r = rng.randint(1, 5) * 60
        q = f"A car travels {r} miles per hour. How many miles is that per minute?"
        return _ask(rng, q), f"{r} / 60", str(r // 60)
    if kind == 3:
        y = rng.randint(2, 40)
        q = f"A garden is {y} yards long. How many feet is that? (3 feet = 1 yard)"
        return _ask(rng, q), f"{y} * 3", str(3 * y)
    c = rng.randint(2, 12) * 4
    q = f"{_name(rng)} needs {c} cups of punch. How many quarts is that? (4 cups = 1 quart)"
    return _ask(rng, q), f"{c} / 4", str(c // 4)


def _rp_convert_bare(rng: random.Random) -> Made:
    big, small, k = pick(rng, _CONV)
    n = rng.randint(2, 12)
    if rng.random() < 0.5:
        q = pick(
            rng,
            (
                f"Use the rate 1 {big} = {k} {small}. How many {small} are in {n} {big}?",
                f"{n} {big} = ? {small} (use a ratio table)",
                f"convert {n} {big} to {small} using ratio reasoning",
            ),
        )
        return _ask(rng, q), f"{n} * {k}", str(n * k)
    q = pick(
        rng,
        (
            f"The ratio of {small} to {big} is {k} to 1. How many {big} is {n * k} {small}?",
            f"{n * k} {small} = ? {big}",
            f"Use a double number line to convert {n * k} {small} to {big}.",
        ),
    )
    return _ask(rng, q), f"{n * k} / {k}", str(n)


GENERATORS: tuple[Generator, ...] = table(
    ("6.RP.A.1/ratio-story", "word", _rp_ratio_story),
    ("6.RP.A.1/simplest-ratio", "bare", _rp_simplify),
    ("6.RP.A.2/unit-rate-story", "word", _rp_unit_rate_story),
    ("6.RP.A.2/unit-rate", "bare", _rp_unit_rate_bare),
    ("6.RP.A.3.a/ratio-table", "bare", _rp_table_bare),
    ("6.RP.A.3.a/ratio-table-story", "word", _rp_table_story),
    ("6.RP.A.3.b/unit-price-story", "word", _rp_unit_price_story),
    ("6.RP.A.3.b/constant-speed-story", "word", _rp_speed_story),
    ("6.RP.A.3.c/percent", "bare", _rp_percent_bare),
    ("6.RP.A.3.c/percent-story", "word", _rp_percent_story),
    ("6.RP.A.3.d/convert-units", "word", _rp_convert),
    ("6.RP.A.3.d/convert-units-ratio", "bare", _rp_convert_bare),
)
