"""Grade 8 problem generators: The Number System.

The standards 8.NS.A.1 to 8.NS.A.2; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import fraction_text, pick
from tutorgraph.training.problems.grade_78._shared import _ans, _name, _round_to, _say

__all__ = ["GENERATORS"]


def _ns8a1(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    if kind == 0:
        d = rng.randint(1, 8)
        shown, dots = f"0.{d}{d}{d}{d}...", f"0.{d} repeating"
        expr, value = f"{d}/9", Fraction(d, 9)
    elif kind == 1:
        ab = rng.randint(1, 98)
        if ab % 11 == 0:
            ab += 1
        s2 = f"{ab:02d}"
        shown, dots = f"0.{s2 * 3}...", f"0.{s2} repeating (the {s2} repeats)"
        expr, value = f"{ab}/99", Fraction(ab, 99)
    else:
        a, b = rng.randint(1, 9), rng.randint(1, 9)
        if a == b:
            b = (b % 9) + 1
        shown, dots = f"0.{a}{b}{b}{b}...", f"0.{a} with the {b} repeating"
        expr, value = f"({a}{b} - {a}) / 90", Fraction(10 * a + b - a, 90)
    whole = rng.randint(0, 3) if rng.random() < 0.3 else 0
    if whole:
        shown, dots = f"{whole}{shown[1:]}", f"{whole}{dots[1:]}"
        expr, value = f"{whole} + {expr}", whole + value
    text = _say(
        rng,
        (
            "Write {s} as a fraction in simplest form.",
            "Convert the repeating decimal {s} to a fraction.",
            "Express {r} as a fraction.",
            "how do you turn {s} into a fraction",
            "{r} = ? (fraction)",
        ),
        s=shown,
        r=dots,
    )
    return text, expr, fraction_text(value)


def _ns8a1_story(rng: random.Random) -> Made:
    d = pick(rng, (3, 9, 11, 33, 99))
    n = rng.randint(1, d - 1)
    while math.gcd(n, d) != 1 and d != 9:
        n = rng.randint(1, d - 1)
    value = Fraction(n, d)
    digits = str(n * 10**12 // d).rjust(12, "0")
    who = _name(rng)
    text = _say(
        rng,
        (
            "{w}'s calculator shows 0.{g}... and the digits keep repeating. What fraction in "
            "simplest form is it?",
            "A recipe scale reads 0.{g}... (repeating). Which fraction is that?",
            "i got 0.{g}... on my calculator and it keeps going. what fraction is this",
        ),
        w=who,
        g=digits[:8],
    )
    period = 1 if d in (3, 9) else 2
    rep = int(digits[:period])
    return text, f"{rep} / {10**period - 1}", fraction_text(value)


def _ns8a2(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    if kind == 0:
        k = rng.randint(2, 12)
        n = rng.randint(k * k + 1, (k + 1) ** 2 - 1)
        text = _say(
            rng,
            (
                "√{n} lies between which two consecutive whole numbers? Give the smaller one.",
                "Between what two integers is the square root of {n}? Give the lower one.",
                "sqrt({n}) is between what two whole numbers (the smaller)",
            ),
            n=n,
        )
        return text, f"sqrt({k * k})", str(k)
    if kind == 1:
        c = rng.randint(2, 6)
        root = pick(rng, ((2, "1.41"), (3, "1.73"), (5, "2.24")))
        text = _say(
            rng,
            (
                "Use √{r} ≈ {v} to estimate {c}√{r}.",
                "Estimate {c} × sqrt({r}) using sqrt({r}) ≈ {v}.",
                "If √{r} is about {v}, about what is {c}√{r}?",
            ),
            r=root[0],
            v=root[1],
            c=c,
        )
        return text, f"{c} * {root[1]}", _ans(c * Fraction(root[1]))
    which = pick(rng, ("π²", "2π", "π + √2"))
    text = _say(
        rng,
        (
            "Using π ≈ 3.14 and √2 ≈ 1.41, estimate {w} to the nearest tenth.",
            "Estimate the value of {w} to one decimal place (π ≈ 3.14, √2 ≈ 1.41).",
        ),
        w=which,
    )
    inner = {"π²": "3.14**2", "2π": "2 * 3.14", "π + √2": "3.14 + 1.41"}[which]
    value = {
        "π²": Fraction(314, 100) ** 2,
        "2π": 2 * Fraction(314, 100),
        "π + √2": Fraction(314, 100) + Fraction(141, 100),
    }[which]
    return text, f"round_to({inner}, 0.1)", _ans(_round_to(value, Fraction(1, 10)))


GENERATORS: tuple[Generator, ...] = table(
    ("8.NS.A.1/repeating-to-fraction", "bare", _ns8a1),
    ("8.NS.A.1/calculator-decimal-story", "word", _ns8a1_story),
    ("8.NS.A.2/estimate-irrationals", "bare", _ns8a2),
)
