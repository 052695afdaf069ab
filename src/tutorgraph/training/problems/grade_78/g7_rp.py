"""Grade 7 problem generators: Ratios and Proportional Relationships.

The standards 7.RP.A.1 to 7.RP.A.3; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_78._shared import (
    _ans,
    _e,
    _fr,
    _money,
    _name,
    _num,
    _say,
    _table,
)

__all__ = ["GENERATORS"]


def _rp1_story(rng: random.Random) -> Made:
    n = _name(rng)
    a = Fraction(rng.randint(1, 9), pick(rng, (2, 3, 4, 5, 8)))
    b = Fraction(rng.randint(1, 5), pick(rng, (2, 3, 4, 6)))
    if a == b:
        a += Fraction(1, 2)
    text = _say(
        rng,
        (
            "{n} walks {a} mile in {b} hour. How many miles per hour is that?",
            "A machine paints {a} of a wall in {b} hour. How much of the wall does it paint "
            "per hour?",
            "A recipe uses {a} cup of sugar for {b} of a batch. How many cups of sugar per batch?",
            "{n} mows {a} acre in {b} hour. What is the unit rate in acres per hour?",
            "A snail crawls {a} foot in {b} minute. How many feet per minute is that?",
            "i dont get unit rates with fractions. {n} reads {a} of a chapter in {b} hour. "
            "how much per hour",
            "A faucet drips {a} liter every {b} hour. Find the liters per hour.",
        ),
        n=n,
        a=_fr(a),
        b=_fr(b),
    )
    return text, f"{_e(a)} / {_e(b)}", _ans(a / b)


def _rp1_bare(rng: random.Random) -> Made:
    a = Fraction(rng.randint(1, 9), pick(rng, (2, 3, 4, 5)))
    b = Fraction(rng.randint(1, 7), pick(rng, (2, 4, 6, 8)))
    if a.denominator == 1:
        a += Fraction(1, 2)
    if b.denominator == 1:
        b /= 4
    text = _say(
        rng,
        (
            "Find the unit rate: {a} mile per {b} hour.",
            "Simplify the complex fraction ({a}) / ({b}).",
            "What is the unit rate for {a} gallon every {b} minute?",
            "Compute the rate {a} : {b} as a number per 1 unit.",
            "{a} ÷ {b} = ?",
            "Write the unit rate for {a} pound for {b} dollar.",
        ),
        a=_fr(a),
        b=_fr(b),
    )
    return text, f"{_e(a)} / {_e(b)}", _ans(a / b)


def _rp2a(rng: random.Random) -> Made:
    k = Fraction(rng.randint(2, 12), pick(rng, (1, 1, 2)))
    xs = sorted(rng.sample(range(1, 13), 4))
    ys = [k * x for x in xs]
    bad = rng.randrange(1, 4)
    ys[bad] += pick(rng, (1, 2, 3, -1, -2))
    names = pick(rng, (("x", "y"), ("hours", "dollars"), ("cups", "servings"), ("days", "pages")))
    text = _say(
        rng,
        (
            "The table is meant to show a proportional relationship, but one {y} value is "
            "wrong. {t}. What should the {y} value for {x} = {xb} be?",
            "Test the ratios in this table: {t}. One pair is not in the same ratio as "
            "{y0}/{x0}. What value of {y} at {x} = {xb} would make it proportional?",
            "Is the table proportional? {t}. If not, fix the entry for {x} = {xb} so that "
            "every ratio is equal. What is the fixed value?",
            "my teacher says this table is almost proportional: {t}. what should the "
            "{y} be when {x} is {xb}",
        ),
        t=_table(xs, ys, names[0], names[1]),
        x=names[0],
        y=names[1],
        xb=xs[bad],
        x0=xs[0],
        y0=_num(ys[0]),
    )
    return text, f"{_e(ys[0])} / {xs[0]} * {xs[bad]}", _ans(k * xs[bad])


def _rp2b_bare(rng: random.Random) -> Made:
    k = Fraction(rng.randint(1, 30), pick(rng, (1, 2, 4, 5)))
    xs = sorted(rng.sample(range(1, 15), 3))
    kind = rng.randrange(3)
    if kind == 0:
        text = _say(
            rng,
            (
                "Find the constant of proportionality in the table. {t}",
                "The table shows a proportional relationship: {t}. What is k in y = kx?",
                "what is the constant of proportionality for this table {t}",
            ),
            t=_table(xs, [k * x for x in xs], "x", "y"),
        )
        return text, f"{_e(k * xs[0])} / {xs[0]}", _ans(k)
    if kind == 1:
        x = xs[1]
        text = _say(
            rng,
            (
                "The graph of a proportional relationship passes through ({x}, {y}). What is "
                "the constant of proportionality?",
                "A line through the origin goes through the point ({x}, {y}). Find k.",
            ),
            x=x,
            y=_num(k * x),
        )
        return text, f"{_e(k * x)} / {x}", _ans(k)
    text = _say(
        rng,
        (
            "What is the constant of proportionality in the equation y = {k}x?",
            "Identify the unit rate in y = {k}x.",
            "In the equation c = {k}n, what is the constant of proportionality?",
        ),
        k=_num(k),
    )
    return text, _e(k), _ans(k)


def _rp2b_story(rng: random.Random) -> Made:
    n = _name(rng)
    qty = rng.randint(2, 16)
    unit = Fraction(rng.randint(50, 1500), 100)
    total = unit * qty
    text = _say(
        rng,
        (
            "{q} gallons of gas cost {t}. What is the constant of proportionality (cost per "
            "gallon)?",
            "{n} earns {t} for {q} hours of babysitting. What is the constant of "
            "proportionality between pay and hours?",
            "A store sells {q} pounds of apples for {t}. Find the unit price.",
            "{n} paid {t} for {q} tickets. What is the cost per ticket?",
            "if {q} bags of chips cost {t} what is the constant of proportionality",
        ),
        n=n,
        q=qty,
        t=_money(total),
    )
    return text, f"{_e(total)} / {qty}", _ans(unit)


def _rp2c_story(rng: random.Random) -> Made:
    n = _name(rng)
    price = (
        Fraction(rng.randint(50, 1200), 100) if rng.random() < 0.6 else Fraction(rng.randint(2, 25))
    )
    count = rng.randint(3, 40)
    text = _say(
        rng,
        (
            "Each ticket costs {p}. Write an equation t = pn for the total cost t of n tickets, "
            "then find the cost of {c} tickets.",
            "{n} earns {p} per hour. Write an equation for pay in terms of hours and use it "
            "to find the pay for {c} hours.",
            "Pens cost {p} each. The total cost is proportional to the number bought. Use an "
            "equation to find the cost of {c} pens.",
            "A car uses gas at a constant price of {p} per gallon. Write t = pn and find t "
            "when n = {c}.",
            "how do i write an equation for this: stickers are {p} each and {n} buys {c} of "
            "them. how much in all",
        ),
        n=n,
        p=_money(price),
        c=count,
    )
    return text, f"{_e(price)} * {count}", _ans(price * count)


def _rp2c_bare(rng: random.Random) -> Made:
    k = Fraction(rng.randint(2, 20), pick(rng, (1, 2, 4)))
    x1 = rng.randint(2, 12)
    x2 = rng.randint(2, 20)
    y1 = k * x1
    text = _say(
        rng,
        (
            "y is proportional to x, and y = {y1} when x = {x1}. Write an equation y = kx and "
            "find y when x = {x2}.",
            "If y varies directly with x and y = {y1} when x = {x1}, what is y when x = {x2}?",
            "A proportional relationship has y = {y1} at x = {x1}. Use y = kx to find y for "
            "x = {x2}.",
            "y = kx. y is {y1} when x is {x1}. what is y when x is {x2}",
        ),
        y1=_num(y1),
        x1=x1,
        x2=x2,
    )
    return text, f"{_e(y1)} / {x1} * {x2}", _ans(k * x2)


def _rp2d_bare(rng: random.Random) -> Made:
    k = Fraction(rng.randint(1, 24), pick(rng, (1, 2, 4)))
    x = rng.randint(2, 10)
    y = k * x
    text = _say(
        rng,
        (
            "The graph of a proportional relationship passes through ({x}, {y}). What is the "
            "y-coordinate of the point where x = 1?",
            "A proportional graph contains the point ({x}, {y}). Find r so that (1, r) is on "
            "the graph.",
            "The point ({x}, {y}) is on a line through the origin. What point (1, r) is on the "
            "line? Give r.",
            "line goes through (0,0) and ({x},{y}). what is y when x = 1",
        ),
        x=x,
        y=_num(y),
    )
    return text, f"{_e(y)} / {x}", _ans(k)


def _rp2d_story(rng: random.Random) -> Made:
    k = Fraction(rng.randint(2, 60), pick(rng, (1, 2)))
    x = rng.randint(2, 9)
    y = k * x
    text = _say(
        rng,
        (
            "A graph shows the miles a cyclist rides against hours. The point ({x}, {y}) is on "
            "the graph. How many miles does the cyclist ride in 1 hour?",
            "The graph of cost against pounds of cheese passes through (0, 0) and ({x}, {y}). "
            "What does the point (1, r) tell you? Find r in dollars.",
            "A graph of pages read against days goes through ({x}, {y}). What is the "
            "y-value at x = 1, and what does it mean?",
            "On a graph of liters against minutes, the point ({x}, {y}) appears. How many "
            "liters flow in 1 minute?",
        ),
        x=x,
        y=_num(y),
    )
    return text, f"{_e(y)} / {x}", _ans(k)


def _rp3_money(rng: random.Random) -> Made:
    n = _name(rng)
    price = Fraction(rng.randint(8, 240))
    pct = pick(rng, (5, 6, 8, 10, 12, 15, 18, 20, 25, 30, 35, 40, 50))
    kind = rng.randrange(5)
    item = pick(rng, ("jacket", "video game", "pair of shoes", "backpack", "bike helmet", "lamp"))
    if kind == 0:
        text = _say(
            rng,
            (
                "A {i} costs {p}. Sales tax is {r}%. What is the total cost?",
                "{n} buys a {i} for {p} plus {r}% tax. How much does {n} pay in all?",
            ),
            i=item,
            p=_money(price),
            r=pct,
            n=n,
        )
        return text, f"{price} * (1 + {pct}/100)", _ans(price * (1 + Fraction(pct, 100)))
    if kind == 1:
        text = _say(
            rng,
            (
                "A meal costs {p}. {n} leaves a {r}% tip. How much is the tip?",
                "The dinner bill is {p}. What is a {r}% gratuity?",
            ),
            p=_money(price),
            r=pct,
            n=n,
        )
        return text, f"{price} * {pct}/100", _ans(price * Fraction(pct, 100))
    if kind == 2:
        text = _say(
            rng,
            (
                "A {i} is on sale for {r}% off. The original price is {p}. What is the sale price?",
                "A store marks down a {i} by {r}%. It was {p}. What does it cost now?",
                "{i} was {p} and now its {r}% off. how much is it now",
            ),
            i=item,
            p=_money(price),
            r=pct,
        )
        return text, f"{price} * (1 - {pct}/100)", _ans(price * (1 - Fraction(pct, 100)))
    if kind == 3:
        text = _say(
            rng,
            (
                "A store buys a {i} for {p} and marks it up {r}%. What is the selling price?",
                "The wholesale cost of a {i} is {p}. The markup is {r}%. Find the retail price.",
            ),
            i=item,
            p=_money(price),
            r=pct,
        )
        return text, f"{price} * (1 + {pct}/100)", _ans(price * (1 + Fraction(pct, 100)))
    sales = Fraction(rng.randint(5, 80) * 100)
    text = _say(
        rng,
        (
            "{n} earns a {r}% commission on sales. Last week {n} sold {s} worth of goods. How "
            "much commission did {n} earn?",
            "A salesperson gets {r}% commission. How much is earned on {s} in sales?",
        ),
        n=n,
        r=pct,
        s=_money(sales),
    )
    return text, f"{sales} * {pct}/100", _ans(sales * Fraction(pct, 100))


def _rp3_change(rng: random.Random) -> Made:
    n = _name(rng)
    kind = rng.randrange(4)
    if kind == 0:
        principal = rng.randint(2, 50) * 100
        rate = pick(rng, tuple(Fraction(r, 2) for r in (4, 6, 8, 10, 12, 5, 7)))
        years = rng.randint(1, 8)
        text = _say(
            rng,
            (
                "{n} puts {p} in a savings account that pays {r}% simple interest per year. How "
                "much interest is earned in {y} years?",
                "Find the simple interest on {p} at {r}% per year for {y} years.",
                "A loan of {p} has {r}% simple interest each year. How much interest after {y} "
                "years?",
            ),
            n=n,
            p=_money(principal),
            r=_num(rate),
            y=years,
        )
        return text, f"{principal} * {_e(rate)}/100 * {years}", _ans(principal * rate / 100 * years)
    if kind == 1:
        old = rng.randint(2, 40) * 5
        pct = pick(rng, (10, 20, 25, 30, 40, 50, 60, 75))
        up = rng.random() < 0.5
        new = old * (100 + (pct if up else -pct)) // 100
        if (old * pct) % 100:
            old = 20 * rng.randint(1, 20)
            new = old * (100 + (pct if up else -pct)) // 100
        text = _say(
            rng,
            (
                "The number of students in a club went from {o} to {w}. What is the percent {ch}?",
                "A price changed from ${o} to ${w}. Find the percent {ch}.",
                "what is the percent {ch} from {o} to {w}",
                "A town's population was {o} thousand and is now {w} thousand. By what percent "
                "did it change?",
            ),
            o=old,
            w=new,
            ch="increase" if up else "decrease",
        )
        return text, f"abs({new} - {old}) / {old} * 100", _ans(Fraction(abs(new - old), old) * 100)
    if kind == 2:
        actual = rng.randint(2, 30) * 20
        err = actual * pick(rng, (5, 10, 15, 20, 25)) // 100
        guess = actual + pick(rng, (1, -1)) * err
        text = _say(
            rng,
            (
                "{n} estimated there were {g} jelly beans in a jar. There were actually {a}. "
                "What is the percent error?",
                "A scale reads {g} g for an object that really weighs {a} g. Find the percent "
                "error.",
                "guessed {g} but the real answer was {a}. whats the percent error",
            ),
            n=n,
            g=guess,
            a=actual,
        )
        return (
            text,
            f"abs({guess} - {actual}) / {actual} * 100",
            _ans(Fraction(abs(guess - actual), actual) * 100),
        )
    fee_pct = pick(rng, (3, 4, 5, 10))
    amount = rng.randint(2, 30) * 10
    text = _say(
        rng,
        (
            "A ticket website adds a {f}% fee. The tickets cost {a}. What is the total?",
            "{n} pays a {f}% service fee on a {a} order. How much does {n} pay in all?",
        ),
        f=fee_pct,
        a=_money(amount),
        n=n,
    )
    return text, f"{amount} * (1 + {fee_pct}/100)", _ans(amount * (1 + Fraction(fee_pct, 100)))


def _rp3_bare(rng: random.Random) -> Made:
    old = rng.randint(2, 50) * 4
    pct = pick(rng, (25, 50, 75, 100, 125, 150))
    if rng.random() < 0.5:
        new = old + old * pct // 100
        word = "increase"
    else:
        pct = min(pct, 75)
        new = old - old * pct // 100
        word = "decrease"
    text = _say(
        rng,
        (
            "Find the percent {w} from {o} to {n}.",
            "What is the percent of change from {o} to {n}?",
            "{o} to {n}: percent {w}?",
            "Calculate the percent {w}: original {o}, new {n}.",
        ),
        w=word,
        o=old,
        n=new,
    )
    return text, f"abs({new} - {old}) / {old} * 100", _ans(Fraction(abs(new - old), old) * 100)


GENERATORS: tuple[Generator, ...] = table(
    ("7.RP.A.1/unit-rate-fractions-story", "word", _rp1_story),
    ("7.RP.A.1/complex-fraction-rate", "bare", _rp1_bare),
    ("7.RP.A.2.a/fix-the-table", "bare", _rp2a),
    ("7.RP.A.2.b/constant-from-table", "bare", _rp2b_bare),
    ("7.RP.A.2.b/constant-from-story", "word", _rp2b_story),
    ("7.RP.A.2.c/write-and-use-equation", "word", _rp2c_story),
    ("7.RP.A.2.c/proportional-equation", "bare", _rp2c_bare),
    ("7.RP.A.2.d/point-one-r", "bare", _rp2d_bare),
    ("7.RP.A.2.d/point-meaning-story", "word", _rp2d_story),
    ("7.RP.A.3/tax-tip-discount-markup", "word", _rp3_money),
    ("7.RP.A.3/interest-and-percent-change", "word", _rp3_change),
    ("7.RP.A.3/percent-change", "bare", _rp3_bare),
)
