"""Grade 8 problem generators: Expressions and Equations, cluster A.

The standards 8.EE.A.1 to 8.EE.A.4; `GENERATORS` lists their generators in the registry's order.
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
    _name,
    _num,
    _nz,
    _round_to,
    _say,
)

__all__ = ["GENERATORS"]


_SUP = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _pow(base: int, exp: int, caret: bool) -> str:
    b = f"({base})" if base < 0 else str(base)
    if caret:
        return f"{b}^{exp}" if exp >= 0 else f"{b}^({exp})"
    return b + str(exp).translate(_SUP)


def _e8a1_rules(rng: random.Random) -> Made:
    base = pick(rng, (2, 2, 3, 3, 4, 5, 10, -2, -3))
    caret = rng.random() < 0.6
    kind = rng.randrange(3)
    m, n = _nz(rng, -6, 7), _nz(rng, -7, 6)
    if kind == 0:
        while abs(m + n) > 5:
            n = _nz(rng, -5, 5)
        shown = f"{_pow(base, m, caret)} × {_pow(base, n, caret)}"
        expr = f"({base})**({m}) * ({base})**({n})"
        value = Fraction(base) ** (m + n)
    elif kind == 1:
        while abs(m - n) > 5:
            n = _nz(rng, -5, 5)
        shown = f"{_pow(base, m, caret)} ÷ {_pow(base, n, caret)}"
        expr = f"({base})**({m}) / ({base})**({n})"
        value = Fraction(base) ** (m - n)
    else:
        m, n = _nz(rng, -3, 3), _nz(rng, -2, 2)
        if abs(base) > 3:
            base = pick(rng, (2, 3))
        inner = _pow(base, m, caret)
        shown = f"({inner})^{n}" if caret or n < 0 else f"({inner}){str(n).translate(_SUP)}"
        if caret and n < 0:
            shown = f"({inner})^({n})"
        expr = f"(({base})**({m}))**({n})"
        value = Fraction(base) ** (m * n)
    text = _say(
        rng,
        (
            "Simplify {s}. Write the answer as a number.",
            "Evaluate {s}.",
            "Use the properties of exponents to find the value of {s}.",
            "What is {s}?",
            "{s} = ?",
            "write {s} as a fraction or whole number",
        ),
        s=shown,
    )
    return text, expr, _ans(value)


def _e8a1_zero(rng: random.Random) -> Made:
    a, b = rng.randint(2, 10), rng.randint(2, 6)
    k = rng.randint(1, 3)
    kind = rng.randrange(3)
    if kind == 0:
        text = _say(
            rng,
            (
                "Evaluate {a}^(-{k}).",
                "What is {a} to the power of -{k}?",
                "Write {a}^-{k} as a fraction.",
            ),
            a=a,
            k=k,
        )
        return text, f"{a}**(-{k})", _ans(Fraction(1, a**k))
    if kind == 1:
        text = _say(
            rng,
            ("Evaluate {a}^0 + {b}^(-1).", "What is {a}⁰ + {b}⁻¹?", "find {a}^0 + {b}^-1"),
            a=a,
            b=b,
        )
        return text, f"{a}**0 + {b}**(-1)", _ans(1 + Fraction(1, b))
    text = _say(
        rng,
        (
            "Evaluate (1/{b})^(-{k}).",
            "What is (1/{b}) to the power -{k}?",
            "Simplify (1/{b})^-{k}.",
        ),
        b=b,
        k=k,
    )
    return text, f"(1/{b})**(-{k})", _ans(b**k)


def _e8a2_bare(rng: random.Random) -> Made:
    kind = rng.randrange(4)
    if kind == 0:
        r = rng.randint(2, 15)
        text = _say(
            rng,
            (
                "Solve x² = {p} for the positive value of x.",
                "x^2 = {p}. What is the positive solution?",
                "Evaluate √{p}.",
                "What is the square root of {p}?",
                "sqrt({p}) = ?",
            ),
            p=r * r,
        )
        return text, f"sqrt({r * r})", str(r)
    if kind == 1:
        a, b = rng.randint(1, 9), rng.randint(2, 12)
        if a == b:
            b += 1
        text = _say(
            rng,
            (
                "Solve x^2 = {a}/{b} where x > 0.",
                "Find √({a}/{b}).",
                "x² = {a}/{b}, x positive. x = ?",
            ),
            a=a * a,
            b=b * b,
        )
        return text, f"sqrt({a * a}/{b * b})", _ans(Fraction(a, b))
    r = rng.randint(1, 10)
    # No cube root in the answer test: r is the root because c / r**2 == r.
    text = _say(
        rng,
        (
            "Solve x³ = {c}.",
            "x^3 = {c}. What is x?",
            "Evaluate the cube root of {c}.",
            "What is ∛{c}?",
            "what number cubed is {c}",
        ),
        c=r**3,
    )
    return text, f"{r**3} / {r}**2", str(r)


def _e8a2_story(rng: random.Random) -> Made:
    n = _name(rng)
    if rng.random() < 0.55:
        s = rng.randint(3, 25)
        text = _say(
            rng,
            (
                "A square garden has an area of {a} square feet. How long is each side?",
                "{n}'s square rug covers {a} square meters. What is the length of one side?",
                "A square tile has area {a} cm². Find its side length.",
                "if a square has area {a} how long is a side",
            ),
            a=s * s,
            n=n,
        )
        return text, f"sqrt({s * s})", str(s)
    r = rng.randint(2, 10)
    text = _say(
        rng,
        (
            "A cube-shaped box has a volume of {v} cubic inches. How long is each edge?",
            "{n} builds a cube from {v} unit cubes. How many cubes long is each edge?",
            "A cube has volume {v} cm³. What is its edge length?",
        ),
        v=r**3,
        n=n,
    )
    return text, f"{r**3} / {r}**2", str(r)


def _e8a3(rng: random.Random) -> Made:
    if rng.random() < 0.5:
        a, b = rng.randint(1, 9), rng.randint(1, 9)
        m = rng.randint(3, 9)
        n = m + rng.randint(1, 3)
        things = pick(
            rng,
            (
                ("the population of a country", "the population of the world"),
                ("the number of ants in a colony", "the number of ants in a forest"),
                ("the distance to the Moon in meters", "the distance to Mars in meters"),
                ("a town's yearly water use in liters", "a state's yearly water use in liters"),
            ),
        )
        text = _say(
            rng,
            (
                "Estimate {x} as {a} × 10^{m} and {y} as {b} × 10^{n}. About how many times "
                "as large is the second? Round to the nearest whole number.",
                "{a} × 10^{m} and {b} × 10^{n}: the second is about how many times the first "
                "(nearest whole number)?",
                "how many times bigger is {b} x 10^{n} than {a} x 10^{m} (round to a whole number)",
            ),
            x=things[0],
            y=things[1],
            a=a,
            b=b,
            m=m,
            n=n,
        )
        return (
            text,
            f"round_to({b} * 10**{n} / ({a} * 10**{m}), 1)",
            _ans(_round_to(Fraction(b * 10**n, a * 10**m), Fraction(1))),
        )
    digits = rng.randint(5, 9)
    value = rng.randint(10 ** (digits - 1), 10**digits - 1)
    unit = 10 ** (digits - 1)
    if _round_to(Fraction(value), Fraction(unit)) >= 10**digits:
        value = 10 ** (digits - 1) * rng.randint(1, 8) + rng.randint(0, unit // 2 - 1)
    text = _say(
        rng,
        (
            "Estimate {v} as a single digit times a power of 10. Write the estimate in "
            "standard form.",
            "Round {v} to one significant digit (a single digit times a power of ten). What "
            "number is that?",
            "A city has {v} people. Estimate the population as a single digit times 10 to a "
            "power. What is the estimate?",
        ),
        v=f"{value:,}",
    )
    return (
        text,
        f"round_to({value}, 10**{digits - 1})",
        _ans(_round_to(Fraction(value), Fraction(unit))),
    )


def _e8a4_bare(rng: random.Random) -> Made:
    a = Fraction(rng.randint(11, 95), 10)
    b = Fraction(rng.randint(1, 9))
    m, n = rng.randint(-6, 8), rng.randint(-5, 6)
    kind = rng.randrange(3)
    left, right = f"({_num(a)} × 10^{m})", f"({_num(b)} × 10^{n})"
    if kind == 0:
        shown, expr = f"{left} × {right}", f"{_e(a)} * 10**({m}) * {_e(b)} * 10**({n})"
        value = a * b * Fraction(10) ** (m + n)
    elif kind == 1:
        shown, expr = f"{left} ÷ {right}", f"{_e(a)} * 10**({m}) / ({_e(b)} * 10**({n}))"
        value = a / b * Fraction(10) ** (m - n)
        if _decimal(value) is None:
            b = Fraction(pick(rng, (2, 4, 5)))
            right = f"({_num(b)} × 10^{n})"
            shown, expr = f"{left} ÷ {right}", f"{_e(a)} * 10**({m}) / ({_e(b)} * 10**({n}))"
            value = a / b * Fraction(10) ** (m - n)
    else:
        n = m + pick(rng, (-1, 0, 1))
        right = f"({_num(b)} × 10^{n})"
        shown, expr = f"{left} + {right}", f"{_e(a)} * 10**({m}) + {_e(b)} * 10**({n})"
        value = a * Fraction(10) ** m + b * Fraction(10) ** n
    text = _say(
        rng,
        (
            "Compute {s}. Write the answer in standard form.",
            "Evaluate {s} and give the result as a decimal number.",
            "{s} = ? (standard form)",
            "Find {s}.",
            "what is {s} written out as a normal number",
        ),
        s=shown,
    )
    return text, expr, _ans(value)


def _e8a4_story(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    if kind == 0:
        d = pick(rng, (Fraction(15, 10), Fraction(3), Fraction(45, 10), Fraction(6), Fraction(9)))
        text = _say(
            rng,
            (
                "Light travels about 3 × 10^5 km per second. A star's light travels {d} × 10^8 "
                "km to reach a planet. How many seconds does it take?",
                "A signal moves at 3 × 10^5 km/s. How long, in seconds, to cover {d} × 10^8 km?",
            ),
            d=_num(d),
        )
        return text, f"{_e(d)} * 10**8 / (3 * 10**5)", _ans(d * 10**8 / (3 * 10**5))
    if kind == 1:
        a = Fraction(rng.randint(12, 90), 10)
        count = rng.randint(2, 9) * 1000
        text = _say(
            rng,
            (
                "One grain of sand has a mass of about {a} × 10^-3 grams. What is the mass of "
                "{c} grains, in grams?",
                "A bacterium is {a} × 10^-3 mm long. How long would {c} of them be end to end "
                "(mm)?",
            ),
            a=_num(a),
            c=f"{count:,}",
        )
        return text, f"{_e(a)} * 10**(-3) * {count}", _ans(a * count / 1000)
    a = Fraction(rng.randint(11, 99), 10)
    b = Fraction(rng.randint(11, 99), 10)
    p = rng.randint(5, 9)
    text = _say(
        rng,
        (
            "Country A has {a} × 10^{p} people and country B has {b} × 10^{p}. How many people "
            "do they have together? Write the number in standard form.",
            "Two stores sold {a} × 10^{p} and {b} × 10^{p} items last year. What is the total?",
        ),
        a=_num(a),
        b=_num(b),
        p=p,
    )
    return text, f"({_e(a)} + {_e(b)}) * 10**{p}", _ans((a + b) * 10**p)


GENERATORS: tuple[Generator, ...] = table(
    ("8.EE.A.1/exponent-rules", "bare", _e8a1_rules),
    ("8.EE.A.1/zero-and-negative-exponents", "bare", _e8a1_zero),
    ("8.EE.A.2/square-cube-roots", "bare", _e8a2_bare),
    ("8.EE.A.2/side-from-area-volume", "word", _e8a2_story),
    ("8.EE.A.3/power-of-ten-estimate", "word", _e8a3),
    ("8.EE.A.4/scientific-notation-operations", "bare", _e8a4_bare),
    ("8.EE.A.4/scientific-notation-story", "word", _e8a4_story),
)
