"""The phrasing and number formatting the grade 5 and grade 6 generators share."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from tutorgraph.training.problems._words import NAMES, fraction_text, number_text, pick

__all__ = [
    "_CONV",
    "_DENS5",
    "F",
    "_ask",
    "_d",
    "_dec",
    "_div",
    "_f",
    "_fa",
    "_fe",
    "_frac",
    "_m",
    "_money",
    "_name",
    "_two_names",
    "_x",
]


F = Fraction


_WORKSHEET = (
    "{q}",
    "Solve. {q}",
    "{q} Show your work.",
    "Find the answer. {q}",
    "Problem: {q}",
    "{q} Explain your answer.",
)
_STUDENT = (
    "my homework says {q}",
    "i dont get this one: {q}",
    "how do you do this? {q}",
    "can someone help me with this {q}",
    "stuck on this one {q}",
    "{q} i keep getting the wrong answer",
    "ok so {q}",
)


def _ask(rng: random.Random, q: str) -> str:
    """Worksheet wording or a student's own words around the question."""
    if rng.random() < 0.6:
        return pick(rng, _WORKSHEET).replace("{q}", q)
    text = pick(rng, _STUDENT).replace("{q}", q)
    if rng.random() < 0.6:
        text = text.lower()
    if rng.random() < 0.4:
        text = text.rstrip("?.!")
    return text


def _d(x: Fraction | int) -> str:
    """A terminating decimal as digits: 3.45, 0.05, 12."""
    x = F(x)
    sign = "-" if x < 0 else ""
    x = abs(x)
    k = 0
    while (x * 10**k).denominator != 1:
        k += 1
        if k > 9:
            raise ValueError(f"{x} is not a short decimal")
    n = int(x * 10**k)
    if k == 0:
        return sign + (f"{n:,}" if n >= 10_000 else str(n))
    s = str(n).rjust(k + 1, "0")
    return f"{sign}{s[:-k]}.{s[-k:]}"


def _money(x: Fraction | int) -> str:
    x = F(x)
    cents = int(x * 100)
    return f"${cents // 100}.{cents % 100:02d}"


def _f(x: Fraction | int) -> str:
    return number_text(F(x))


def _m(x: Fraction | int) -> str:
    """A fraction over 1 as a mixed number."""
    return fraction_text(F(x), mixed=True)


def _fe(x: Fraction | int) -> str:
    """A fraction or mixed number in an expression, in parentheses."""
    x = F(x)
    if x.denominator == 1:
        return str(x.numerator) if x >= 0 else f"({x.numerator})"
    if x > 1:
        whole = x.numerator // x.denominator
        rest = x - whole
        return f"({whole} + {rest.numerator}/{rest.denominator})"
    return f"({x.numerator}/{x.denominator})"


def _fa(rng: random.Random, x: Fraction | int) -> str:
    """A fraction answer, mixed or improper."""
    return _m(x) if rng.random() < 0.6 else _f(x)


def _dec(rng: random.Random, lo: int, hi: int, places: int) -> Fraction:
    """A decimal between lo and hi with exactly `places` places (last digit not zero)."""
    scale = 10**places
    n = rng.randint(lo * scale, hi * scale)
    if places and n % 10 == 0:
        n += rng.randint(1, 9)
    return F(n, scale)


def _frac(rng: random.Random, dens: Sequence[int], proper: bool = True) -> Fraction:
    d = pick(rng, dens)
    n = rng.randint(1, d - 1) if proper else rng.randint(d + 1, 3 * d)
    return F(n, d)


def _x(rng: random.Random) -> str:
    return pick(rng, (" × ", " × ", " x ", " * "))


def _div(rng: random.Random) -> str:
    return pick(rng, (" ÷ ", " ÷ ", " / "))


def _name(rng: random.Random) -> str:
    return pick(rng, NAMES)


def _two_names(rng: random.Random) -> tuple[str, str]:
    a = pick(rng, NAMES)
    b = pick(rng, [n for n in NAMES if n != a])
    return a, b


_DENS5 = (2, 3, 4, 5, 6, 8, 10, 12)


# (big unit, small unit, small per big)
_CONV = (
    ("m", "cm", 100),
    ("m", "mm", 1000),
    ("cm", "mm", 10),
    ("km", "m", 1000),
    ("kg", "g", 1000),
    ("L", "mL", 1000),
    ("ft", "in", 12),
    ("yd", "ft", 3),
    ("yd", "in", 36),
    ("lb", "oz", 16),
    ("gal", "qt", 4),
    ("hr", "min", 60),
    ("min", "s", 60),
)
