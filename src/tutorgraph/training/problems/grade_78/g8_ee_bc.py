"""Grade 8 problem generators: Expressions and Equations, clusters B–C.

The standards 8.EE.B.5 to 8.EE.C.8; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_78._shared import (
    _ans,
    _decimal,
    _e,
    _lin,
    _name,
    _num,
    _nz,
    _paren,
    _say,
)

__all__ = ["GENERATORS"]


def _e8b5_story(rng: random.Random) -> Made:
    r1, r2 = rng.randint(20, 70), rng.randint(20, 70)
    if r1 == r2:
        r2 += 3
    t = rng.randint(2, 6)
    pair = pick(
        rng,
        (
            ("Car A", "Car B", "miles", "hours", "d", "t"),
            ("Pump A", "Pump B", "gallons", "minutes", "g", "m"),
            ("Printer A", "Printer B", "pages", "minutes", "p", "m"),
            ("Runner A", "Runner B", "meters", "seconds", "d", "s"),
        ),
    )
    text = _say(
        rng,
        (
            "{a}'s graph of {u} against {v} is a line through (0, 0) and ({t}, {y}). {b} "
            "follows the equation {ys} = {r2}{xs}. How many more {u} per {v1} does the faster "
            "one do?",
            "Compare: {a} goes through the point ({t}, {y}) on a proportional graph; {b} is "
            "{ys} = {r2}{xs}. What is the difference in their unit rates?",
            "{a}: graph through ({t}, {y}). {b}: {ys} = {r2}{xs}. which has the greater slope, "
            "and by how much? give the difference",
        ),
        a=pair[0],
        b=pair[1],
        u=pair[2],
        v=pair[3],
        v1=pair[3].rstrip("s"),
        t=t,
        y=r1 * t,
        r2=r2,
        ys=pair[4],
        xs=pair[5],
    )
    return text, f"abs({r1 * t} / {t} - {r2})", str(abs(r1 - r2))


def _e8b5_bare(rng: random.Random) -> Made:
    k = Fraction(rng.randint(1, 40), pick(rng, (1, 2, 4)))
    x = rng.randint(2, 12)
    text = _say(
        rng,
        (
            "The graph of a proportional relationship passes through (0, 0) and ({x}, {y}). "
            "What is the slope?",
            "A line through the origin passes through ({x}, {y}). What unit rate does the "
            "slope show?",
            "Find the slope of the graph of a proportional relationship that contains ({x}, {y}).",
            "slope of the line from (0,0) to ({x},{y})?",
        ),
        x=x,
        y=_num(k * x),
    )
    return text, f"{_e(k * x)} / {x}", _ans(k)


def _e8b6_slope(rng: random.Random) -> Made:
    x1, y1 = rng.randint(-10, 10), rng.randint(-10, 10)
    x2 = x1 + _nz(rng, -8, 8)
    y2 = rng.randint(-12, 12)
    text = _say(
        rng,
        (
            "Find the slope of the line through ({a}, {b}) and ({c}, {d}).",
            "What is the slope between the points ({a}, {b}) and ({c}, {d})?",
            "A line passes through ({a}, {b}) and ({c}, {d}). Use rise over run to find m.",
            "slope of ({a},{b}) and ({c},{d})",
            "Use similar slope triangles: the line through ({a}, {b}) and ({c}, {d}) has what "
            "slope?",
        ),
        a=x1,
        b=y1,
        c=x2,
        d=y2,
    )
    return text, f"({y2} - {_e(y1)}) / ({x2} - {_e(x1)})", _ans(Fraction(y2 - y1, x2 - x1))


def _e8b6_b(rng: random.Random) -> Made:
    m = _nz(rng, -6, 6)
    x, y = rng.randint(-6, 8), rng.randint(-15, 20)
    text = _say(
        rng,
        (
            "A line has slope {m} and passes through ({x}, {y}). Write it as y = mx + b. What "
            "is b?",
            "Find the y-intercept of the line with slope {m} through the point ({x}, {y}).",
            "y = {m}x + b goes through ({x}, {y}). Find b.",
            "what is b if the slope is {m} and the line goes through ({x},{y})",
        ),
        m=m,
        x=x,
        y=y,
    )
    return text, f"{_e(y)} - {_e(m)} * {_e(x)}", str(y - m * x)


def _e8c7a(rng: random.Random) -> Made:
    a = _nz(rng, -9, 9)
    b, c = rng.randint(-12, 12), rng.randint(-12, 12)
    if b == c:
        c += 1
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "For what value of k does {a}x + {b} = kx + {c} have no solution?",
                "Find k so that the equation {a}x + {b} = kx + {c} has no solutions.",
                "what number k makes {a}x + {b} = kx + {c} have no solution",
            ),
            a=a,
            b=_paren(str(b)),
            c=_paren(str(c)),
        )
        return text, _e(a), str(a)
    m = rng.randint(2, 6)
    d = rng.randint(-9, 9)
    text = _say(
        rng,
        (
            "What value of c makes {m}(x + {d}) = {m}x + c true for every x (infinitely many "
            "solutions)?",
            "Find c so that {m}(x + {d}) = {m}x + c has infinitely many solutions.",
            "{m}(x + {d}) = {m}x + c. For which c is every x a solution?",
        ),
        m=m,
        d=_paren(str(d)),
    )
    return text, f"{m} * {_e(d)}", str(m * d)


def _e8c7b_bare(rng: random.Random) -> Made:
    x = Fraction(rng.randint(-12, 12)) if rng.random() < 0.7 else Fraction(_nz(rng, -9, 9), 2)
    a, c = _nz(rng, -6, 6), _nz(rng, -6, 6)
    while c == a:
        c = _nz(rng, -6, 6)
    b = rng.randint(-9, 9)
    d = rng.randint(-15, 15)
    kind = rng.randrange(2)
    if kind == 0:
        # a(x + b) + d = c x + e
        e = a * (x + b) + d - c * x
        inside = f"x + {b}" if b >= 0 else f"x - {-b}"
        left = f"{a}({inside}) + {d}" if d >= 0 else f"{a}({inside}) - {-d}"
        shown = f"{left} = {_lin(c, 0)} + {_paren(_num(e))}"
        expr = f"({_e(e)} - {_e(a)} * {_e(b)} - {_e(d)}) / ({_e(a)} - {_e(c)})"
    else:
        e = a * x + b - c * x
        shown = f"{_lin(a, b)} = {_lin(c, 0)} + {_paren(_num(e))}"
        expr = f"({_e(e)} - {_e(b)}) / ({_e(a)} - {_e(c)})"
    text = _say(
        rng,
        (
            "Solve {s}.",
            "Solve for x: {s}",
            "Find x. {s}",
            "{s}, solve for x",
            "What value of x makes {s} true?",
            "Use the distributive property and collect like terms to solve {s}.",
        ),
        s=shown,
    )
    return text, expr, _ans(x)


def _e8c7b_story(rng: random.Random) -> Made:
    n = _name(rng)
    fee_a, rate_a = rng.randint(10, 40), rng.randint(6, 15)
    rate_b = rate_a - rng.randint(1, 5)
    months = rng.randint(2, 15)
    fee_b = fee_a + (rate_a - rate_b) * months
    text = _say(
        rng,
        (
            "Gym A charges ${fa} to join plus ${ra} a month. Gym B charges ${fb} to join plus "
            "${rb} a month. After how many months do they cost the same?",
            "{n} compares two plans: ${fa} + ${ra} per month, or ${fb} + ${rb} per month. "
            "When are the totals equal?",
            "Plan A: {fa} + {ra}x. Plan B: {fb} + {rb}x. Solve {fa} + {ra}x = {fb} + {rb}x.",
            "two phone plans one is {fa} dollars plus {ra} a month and the other is {fb} "
            "dollars plus {rb} a month. when do they cost the same",
        ),
        fa=fee_a,
        ra=rate_a,
        fb=fee_b,
        rb=rate_b,
        n=n,
    )
    return text, f"({fee_b} - {fee_a}) / ({rate_a} - {rate_b})", str(months)


def _line(m: int, b: int) -> str:
    return f"y = {_lin(m, b)}"


def _e8c8a(rng: random.Random) -> Made:
    x, y = rng.randint(-6, 6), rng.randint(-8, 8)
    m1 = _nz(rng, -5, 5)
    m2 = _nz(rng, -5, 5)
    while m2 == m1:
        m2 = _nz(rng, -5, 5)
    b1, b2 = y - m1 * x, y - m2 * x
    ask = pick(rng, ("x", "y"))
    text = _say(
        rng,
        (
            "The graphs of {l1} and {l2} intersect at one point. What is its {a}-coordinate?",
            "Where do the lines {l1} and {l2} cross? Give the {a}-coordinate.",
            "Graph {l1} and {l2}. What is the {a}-value of the point of intersection?",
            "at what {a} value do {l1} and {l2} meet",
        ),
        l1=_line(m1, b1),
        l2=_line(m2, b2),
        a=ask,
    )
    xe = f"({_e(b2)} - {_e(b1)}) / ({_e(m1)} - {_e(m2)})"
    if ask == "x":
        return text, xe, str(x)
    return text, f"{_e(m1)} * {xe} + {_e(b1)}", str(y)


def _e8c8b(rng: random.Random) -> Made:
    x, y = rng.randint(-8, 8), rng.randint(-8, 8)
    a, b = _nz(rng, -5, 5), _nz(rng, -5, 5)
    c, d = _nz(rng, -5, 5), _nz(rng, -5, 5)
    while a * d - b * c == 0:
        d = _nz(rng, -5, 5)
    e, f = a * x + b * y, c * x + d * y

    def eq(p: int, q: int, r: int) -> str:
        return f"{_lin(p, 0)} {'+' if q > 0 else '-'} {'' if abs(q) == 1 else abs(q)}y = {r}"

    ask = pick(rng, ("x", "y", "x + y"))
    text = _say(
        rng,
        (
            "Solve the system: {e1} and {e2}. What is {a}?",
            "Solve by elimination or substitution. {e1}; {e2}. Find {a}.",
            "{e1}, {e2}. solve for {a}",
            "Find the solution of the system {e1}, {e2}, and give {a}.",
        ),
        e1=eq(a, b, e),
        e2=eq(c, d, f),
        a=ask,
    )
    det = f"({_e(a)} * {_e(d)} - {_e(b)} * {_e(c)})"
    xe = f"({_e(e)} * {_e(d)} - {_e(b)} * {_e(f)}) / {det}"
    ye = f"({_e(a)} * {_e(f)} - {_e(e)} * {_e(c)}) / {det}"
    if ask == "x":
        return text, xe, str(x)
    if ask == "y":
        return text, ye, str(y)
    return text, f"{xe} + {ye}", str(x + y)


def _e8c8c(rng: random.Random) -> Made:
    n = _name(rng)
    kind = rng.randrange(3)
    if kind == 0:
        pa, pc = rng.randint(8, 20), rng.randint(3, 7)
        adults, kids = rng.randint(5, 80), rng.randint(5, 80)
        total, money = adults + kids, adults * pa + kids * pc
        text = _say(
            rng,
            (
                "Adult tickets cost ${a} and student tickets cost ${c}. {t} tickets were sold "
                "for ${m}. How many adult tickets were sold?",
                "A play sold {t} tickets for ${m} in all. Adults paid ${a} and kids paid ${c}. "
                "How many adults went?",
                "{t} tickets, ${m} total, adults ${a}, kids ${c}. how many adult tickets",
            ),
            a=pa,
            c=pc,
            t=total,
            m=money,
        )
        return text, f"({money} - {pc} * {total}) / ({pa} - {pc})", str(adults)
    if kind == 1:
        big, small = rng.randint(10, 60), rng.randint(1, 40)
        if big <= small:
            big, small = small + 10, big
        text = _say(
            rng,
            (
                "The sum of two numbers is {s} and their difference is {d}. What is the "
                "larger number?",
                "Two numbers add to {s}. One is {d} more than the other. Find the larger one.",
            ),
            s=big + small,
            d=big - small,
        )
        return text, f"({big + small} + {big - small}) / 2", str(big)
    q, d_ = rng.randint(2, 30), rng.randint(2, 30)
    text = _say(
        rng,
        (
            "{n} has {c} coins, all quarters and dimes, worth ${v}. How many quarters does "
            "{n} have?",
            "A jar holds {c} dimes and quarters worth ${v} in all. How many are quarters?",
        ),
        n=n,
        c=q + d_,
        v=_decimal(Fraction(25 * q + 10 * d_, 100)),
    )
    return text, f"({_e(Fraction(25 * q + 10 * d_, 100))} - 0.1 * {q + d_}) / (0.25 - 0.1)", str(q)


GENERATORS: tuple[Generator, ...] = table(
    ("8.EE.B.5/compare-unit-rates", "word", _e8b5_story),
    ("8.EE.B.5/slope-as-unit-rate", "bare", _e8b5_bare),
    ("8.EE.B.6/slope-two-points", "bare", _e8b6_slope),
    ("8.EE.B.6/y-intercept-from-point", "bare", _e8b6_b),
    ("8.EE.C.7.a/no-or-infinite-solutions", "bare", _e8c7a),
    ("8.EE.C.7.b/multi-step-equation", "bare", _e8c7b_bare),
    ("8.EE.C.7.b/variables-both-sides-story", "word", _e8c7b_story),
    ("8.EE.C.8.a/intersection-of-lines", "bare", _e8c8a),
    ("8.EE.C.8.b/solve-system", "bare", _e8c8b),
    ("8.EE.C.8.c/two-unknowns-story", "word", _e8c8c),
)
