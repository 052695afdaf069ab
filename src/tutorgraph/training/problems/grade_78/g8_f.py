"""Grade 8 problem generators: Functions.

The standards 8.F.A.1 to 8.F.B.4; `GENERATORS` lists their generators in the registry's order.
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
    _name,
    _num,
    _nz,
    _paren,
    _say,
    _table,
    _voice,
)

__all__ = ["GENERATORS"]


def _f1_bare(rng: random.Random) -> Made:
    m, b = _nz(rng, -6, 6), rng.randint(-10, 10)
    x = rng.randint(-8, 10)
    if rng.random() < 0.7:
        text = _say(
            rng,
            (
                "A function's rule is: multiply the input by {m}, then add {b}. What is the "
                "output for an input of {x}?",
                "The rule y = {m}x + {b} assigns one output to each input. What output goes "
                "with x = {x}?",
                "Input {x} into the rule output = {m} × input + {b}. What comes out?",
                "function rule is {m}x + {b}, input is {x}, what is the output",
            ),
            m=m,
            b=_paren(str(b)),
            x=x,
        )
        return text, f"{_e(m)} * {_e(x)} + {_e(b)}", str(m * x + b)
    text = _say(
        rng,
        (
            "A function squares its input and then adds {b}. What is the output when the "
            "input is {x}?",
            "For the rule y = x² + {b}, find the output for x = {x}.",
        ),
        b=_paren(str(b)),
        x=x,
    )
    return text, f"{_e(x)}**2 + {_e(b)}", str(x * x + b)


def _f1_story(rng: random.Random) -> Made:
    n = _name(rng)
    rate = rng.randint(2, 15)
    base = rng.randint(0, 20)
    x = rng.randint(1, 20)
    text = _say(
        rng,
        (
            "A function machine takes a number of hours worked and outputs pay: ${r} per hour "
            "plus a ${b} bonus. What is the output for {x} hours?",
            "{n}'s rule: each number of songs bought is assigned a cost of ${r} per song plus "
            "${b}. What cost is assigned to {x} songs?",
            "The number of legs is a function of the number of spiders: 8 per spider plus {b} "
            "extra legs from a toy. How many legs for {x} spiders?",
            "For every input x, a machine gives out {r}x + {b}. What does it give for {x}?",
        ),
        r=rate,
        b=base,
        x=x,
        n=n,
    )
    if "spider" in text:
        return text, f"8 * {x} + {base}", str(8 * x + base)
    return text, f"{rate} * {x} + {base}", str(rate * x + base)


def _f2_bare(rng: random.Random) -> Made:
    m1, b1 = _nz(rng, -8, 8), rng.randint(-10, 10)
    m2, b2 = _nz(rng, -8, 8), rng.randint(-10, 10)
    xs = [0, 2, 4] if rng.random() < 0.5 else [1, 3, 5]
    ys = [m2 * x + b2 for x in xs]
    ask = pick(rng, ("rate", "initial"))
    table = _table(xs, ys, "x", "y")
    if ask == "rate":
        text = _say(
            rng,
            (
                "Function A is y = {m}x + {b}. Function B is given by the table {t}. What is "
                "the greater rate of change?",
                "Compare the rates of change: A: y = {m}x + {b}; B: {t}. Give the larger rate.",
                "which function has the bigger rate of change, y = {m}x + {b} or the table "
                "{t}? give the rate",
            ),
            m=m1,
            b=_paren(str(b1)),
            t=table,
        )
        rate_b = f"({ys[1]} - {_e(ys[0])}) / ({xs[1]} - {xs[0]})"
        return text, f"max({_e(m1)}, {rate_b})", str(max(m1, m2))
    text = _say(
        rng,
        (
            "Function A is y = {m}x + {b}. Function B is the table {t}. By how much is A's "
            "initial value (y at x = 0) greater than B's?",
            "Compare the y-intercepts: A: y = {m}x + {b}; B: {t}. Find A's intercept minus B's.",
        ),
        m=m1,
        b=_paren(str(b1)),
        t=table,
    )
    slope = f"({ys[1]} - {_e(ys[0])}) / ({xs[1]} - {xs[0]})"
    return text, f"{_e(b1)} - ({_e(ys[0])} - {slope} * {xs[0]})", str(b1 - b2)


def _f2_story(rng: random.Random) -> Made:
    r1 = rng.randint(5, 40)
    r2 = rng.randint(5, 40)
    if r1 == r2:
        r2 += 2
    f1, f2 = rng.randint(0, 50), rng.randint(0, 50)
    xs = [1, 2, 3]
    ctx = pick(
        rng,
        (
            (
                "Plan A costs ${f} plus ${r} per month. Plan B's costs are shown in a table: {t}. "
                "How much more per month does the plan with the greater rate of change cost?",
                "months",
                "cost ($)",
            ),
            (
                "{n} compares two savings plans. Plan A: starts with ${f} and adds ${r} a week. "
                "Plan B: {t}. What is the difference between their weekly rates?",
                "weeks",
                "savings ($)",
            ),
            (
                "job A pays {r} an hour plus a {f} bonus. job B table: {t}. how much more per "
                "hour does the better-paying job give",
                "hours",
                "pay ($)",
            ),
            (
                "Tank A starts with {f} liters and fills at {r} liters per minute. Tank B: {t}. "
                "What is the difference in their rates of change?",
                "minutes",
                "liters",
            ),
        ),
    )
    text = _voice(
        rng,
        ctx[0].format(
            f=f1, r=r1, t=_table(xs, [f2 + r2 * x for x in xs], ctx[1], ctx[2]), n=_name(rng)
        ),
    )
    return text, f"abs({r1} - ({f2 + 2 * r2} - {f2 + r2}) / (2 - 1))", str(abs(r1 - r2))


def _f3_bare(rng: random.Random) -> Made:
    m = Fraction(_nz(rng, -8, 8), pick(rng, (1, 1, 2)))
    b = rng.randint(-10, 10)
    x1 = rng.randint(-5, 5)
    x2 = x1 + rng.randint(1, 8)
    if rng.random() < 0.6:
        text = _say(
            rng,
            (
                "For the linear function y = {m}x + {b}, how much does y change when x goes "
                "from {a} to {c}?",
                "y = {m}x + {b} is linear. If x increases from {a} to {c}, by how much does y "
                "change?",
                "how much does y go up or down from x = {a} to x = {c} for y = {m}x + {b}",
            ),
            m=_num(m),
            b=_paren(str(b)),
            a=x1,
            c=x2,
        )
        return text, f"{_e(m)} * ({x2} - {_e(x1)})", _ans(m * (x2 - x1))
    s = rng.randint(1, 6)
    text = _say(
        rng,
        (
            "The area of a square A = s² is not linear. How much does A increase from s = {s} "
            "to s = {t}, compared with from s = {t} to s = {u}? Give the difference of the two "
            "increases.",
            "Show A = s^2 is not a linear function: find (increase from {t} to {u}) minus "
            "(increase from {s} to {t}).",
        ),
        s=s,
        t=s + 1,
        u=s + 2,
    )
    return text, f"({s + 2}**2 - {s + 1}**2) - ({s + 1}**2 - {s}**2)", "2"


def _f3_story(rng: random.Random) -> Made:
    m = Fraction(rng.randint(5, 40), 2)
    b = rng.randint(2, 15)
    x = rng.randint(1, 20)
    text = _say(
        rng,
        (
            "A taxi fare is y = {m}x + {b}, where x is miles. What is the fare for {x} miles?",
            "A plant's height in cm is y = {m}x + {b} after x weeks. How tall is it after {x} "
            "weeks?",
            "The linear function y = {m}x + {b} gives the cost of x pounds of fruit plus a bag. "
            "Find y when x = {x}.",
            "y = {m}x + {b} for the number of points after x games. how many points after {x} "
            "games",
        ),
        m=_num(m),
        b=b,
        x=x,
    )
    return text, f"{_e(m)} * {x} + {b}", _ans(m * x + b)


def _f4_story(rng: random.Random) -> Made:
    n = _name(rng)
    start = rng.randint(10, 90)
    rate = rng.randint(2, 40)
    x1 = rng.randint(1, 5)
    x2 = x1 + rng.randint(1, 6)
    y1, y2 = start + rate * x1, start + rate * x2
    kind = rng.randrange(3)
    if kind == 0:
        text = _say(
            rng,
            (
                "A plumber charged ${a} for {p} hours and ${b} for {q} hours. The cost is a "
                "linear function of time. What is the rate of change in dollars per hour?",
                "{n}'s savings were ${a} after {p} weeks and ${b} after {q} weeks, growing "
                "steadily. How much is saved each week?",
                "after {p} days the plant was {a} mm and after {q} days it was {b} mm. whats "
                "the rate of change",
            ),
            a=y1,
            b=y2,
            p=x1,
            q=x2,
            n=n,
        )
        return text, f"({y2} - {y1}) / ({x2} - {x1})", str(rate)
    if kind == 1:
        text = _say(
            rng,
            (
                "A phone plan cost ${a} after {p} months and ${b} after {q} months, with a "
                "one-time fee at the start. What was the initial fee?",
                "a linear function has value {a} at x = {p} and {b} at x = {q}. What is its "
                "initial value?",
            ),
            a=y1,
            b=y2,
            p=x1,
            q=x2,
            n=n,
        )
        return text, f"{y1} - ({y2} - {y1}) / ({x2} - {x1}) * {x1}", str(start)
    x3 = rng.randint(1, 30)
    text = _say(
        rng,
        (
            "A gym charges a ${s} fee plus ${r} per visit. Write a function for the cost of x "
            "visits and find the cost of {x} visits.",
            "{n} starts with {s} stickers and gets {r} more each day. Model this with a linear "
            "function. How many stickers after {x} days?",
            "A pool has {s} gallons and fills at {r} gallons per minute. How many gallons "
            "after {x} minutes?",
        ),
        s=start,
        r=rate,
        x=x3,
        n=n,
    )
    return text, f"{start} + {rate} * {x3}", str(start + rate * x3)


def _f4_bare(rng: random.Random) -> Made:
    m = _nz(rng, -7, 7)
    b = rng.randint(-12, 12)
    x1 = rng.randint(-3, 4)
    x2 = x1 + rng.randint(1, 5)
    y1, y2 = m * x1 + b, m * x2 + b
    ask = pick(rng, ("rate of change", "initial value"))
    text = _say(
        rng,
        (
            "A linear function passes through ({a}, {c}) and ({p}, {q}). What is its {k}?",
            "The table shows a linear function: x: {a}, {p}; y: {c}, {q}. Find the {k}.",
            "Find the {k} of the line through ({a}, {c}) and ({p}, {q}).",
            "line through ({a},{c}) and ({p},{q}), {k}?",
        ),
        a=x1,
        c=y1,
        p=x2,
        q=y2,
        k=ask,
    )
    slope = f"({_e(y2)} - {_e(y1)}) / ({x2} - {_e(x1)})"
    if ask == "rate of change":
        return text, slope, str(m)
    return text, f"{_e(y1)} - {slope} * {_e(x1)}", str(b)


GENERATORS: tuple[Generator, ...] = table(
    ("8.F.A.1/function-rule-output", "bare", _f1_bare),
    ("8.F.A.1/input-output-machine", "word", _f1_story),
    ("8.F.A.2/compare-two-functions", "bare", _f2_bare),
    ("8.F.A.2/compare-plans-story", "word", _f2_story),
    ("8.F.A.3/linear-function-change", "bare", _f3_bare),
    ("8.F.A.3/evaluate-linear-story", "word", _f3_story),
    ("8.F.B.4/model-from-description", "word", _f4_story),
    ("8.F.B.4/rate-and-initial-value", "bare", _f4_bare),
)
