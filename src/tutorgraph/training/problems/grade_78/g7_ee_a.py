"""Grade 7 problem generators: Expressions and Equations, cluster A.

The standards 7.EE.A.1 to 7.EE.A.2; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import math
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
    _rat,
    _say,
    _show,
)

__all__ = ["GENERATORS"]


def _ee1_expand(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    if kind == 0:
        a = _nz(rng, -9, 9)
        b = Fraction(rng.randint(1, 4)) if rng.random() < 0.6 else Fraction(rng.randint(1, 9), 2)
        c = _nz(rng, -15, 15)
        sign = pick(rng, ("+", "-"))
        bb = b if sign == "+" else -b
        ask = pick(rng, ("coefficient of x", "constant term"))
        value = Fraction(a) * bb + c if ask == "constant term" else Fraction(a)
        expr = f"{_e(a)} * {_e(bb)} + {_e(c)}" if ask == "constant term" else _e(a)
        text = _say(
            rng,
            (
                "Expand and simplify {a}(x {s} {b}) + {c}. What is the {q}?",
                "Simplify {a}(x {s} {b}) + {c}. Give the {q}.",
                "Use the distributive property: {a}(x {s} {b}) + {c}. What is the {q} of the "
                "simplified expression?",
            ),
            a=a,
            s=sign,
            b=_num(b),
            c=_paren(str(c)),
            q=ask,
        )
        return text, expr, _ans(value)
    if kind == 1:
        cs = [_rat(rng, pick(rng, ("int", "frac"))) for _ in range(3)]
        terms = " + ".join(f"{_paren(_show(c, 'frac'))}x" for c in cs)
        text = _say(
            rng,
            (
                "Combine like terms: {t}. What is the coefficient of x?",
                "Simplify {t}. What number is in front of x?",
                "Collect like terms in {t}.",
                "simplify {t}",
            ),
            t=terms,
        )
        return text, " + ".join(_e(c) for c in cs), _ans(sum(cs, Fraction(0)))
    a1, b1 = _nz(rng, -8, 8), rng.randint(1, 12)
    a2, b2 = _nz(rng, -8, 8), rng.randint(1, 12)
    text = _say(
        rng,
        (
            "Subtract ({a}x + {b}) - ({c}x + {d}). What is the coefficient of x?",
            "Simplify ({a}x + {b}) - ({c}x + {d}) and give the coefficient of x.",
            "what is the x coefficient when you simplify ({a}x + {b}) - ({c}x + {d})",
        ),
        a=a1,
        b=b1,
        c=a2,
        d=b2,
    )
    return text, f"{_e(a1)} - {_e(a2)}", _ans(a1 - a2)


def _ee1_factor(rng: random.Random) -> Made:
    g = rng.randint(2, 12)
    a = rng.randint(1, 9)
    b = rng.randint(1, 12)
    if math.gcd(a, b) != 1:
        b += 1 if math.gcd(a, b + 1) == 1 else 0
    sign = pick(rng, ("+", "-"))
    ask = rng.randrange(3)
    if ask == 0:
        text = _say(
            rng,
            (
                "Factor {ga}x {s} {gb} as {g}(?x {s} {b}). What goes in the blank?",
                "Fill in the blank: {ga}x {s} {gb} = {g}(__x {s} {b})",
            ),
            ga=g * a,
            gb=g * b,
            g=g,
            b=b,
            s=sign,
        )
        return text, f"{g * a} / {g}", str(a)
    if ask == 1:
        text = _say(
            rng,
            (
                "Factor {ga}x {s} {gb} as {g}({a}x {s} ?). What is the missing number?",
                "{ga}x {s} {gb} = {g}({a}x {s} __). find the blank",
            ),
            ga=g * a,
            gb=g * b,
            g=g,
            a=a,
            s=sign,
        )
        return text, f"{g * b} / {g}", str(b)
    gg = math.gcd(g * a, g * b)
    text = _say(
        rng,
        (
            "What is the greatest common factor you can factor out of {ga}x {s} {gb}?",
            "Factor {ga}x {s} {gb} completely. What number is outside the parentheses?",
            "factor out the GCF from {ga}x {s} {gb}. what is the GCF",
        ),
        ga=g * a,
        gb=g * b,
        s=sign,
    )
    return text, f"gcd({g * a}, {g * b})", str(gg)


def _ee2_story(rng: random.Random) -> Made:
    pct = pick(rng, (3, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40))
    up = rng.random() < 0.5
    n = _name(rng)
    if up:
        text = _say(
            rng,
            (
                "A price p goes up by {r}%. The new price is p + {d}p. What single number "
                "times p gives the new price?",
                "{n}'s pay of p dollars gets a {r}% raise. Write the new pay as a number times "
                "p. What is the number?",
                "A restaurant bill b plus a {r}% tip is b + {d}b. Rewrite it as ?b.",
                "Sales tax is {r}%. The total for a price x is x + {d}x = kx. Find k.",
                "increase by {r}% is the same as multiplying by what",
            ),
            r=pct,
            d=_num(Fraction(pct, 100)),
            n=n,
        )
        return text, f"1 + {pct}/100", _ans(1 + Fraction(pct, 100))
    text = _say(
        rng,
        (
            "A coat costs c dollars and is {r}% off. The sale price is c - {d}c. What number "
            "times c gives the sale price?",
            "A population P decreases by {r}%. Write the new population as a single number "
            "times P. What is the number?",
            "{n} gets {r}% off. The price becomes x - {d}x = kx. What is k?",
            "taking {r}% off is the same as multiplying by what number",
        ),
        r=pct,
        d=_num(Fraction(pct, 100)),
        n=n,
    )
    return text, f"1 - {pct}/100", _ans(1 - Fraction(pct, 100))


def _ee2_bare(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    if kind == 0:
        pct = Fraction(rng.randint(1, 60), 100)
        sign = pick(rng, ("+", "-"))
        text = _say(
            rng,
            (
                "Rewrite a {s} {d}a as a single term. What is the coefficient?",
                "a {s} {d}a = ?a",
                "Write x {s} {d}x in the form kx. Find k.",
            ),
            s=sign,
            d=_num(pct),
        )
        return text, f"1 {sign} {_e(pct)}", _ans(1 + pct if sign == "+" else 1 - pct)
    k = rng.randint(2, 6)
    b = rng.randint(1, 9)
    if kind == 1:
        k = 4
        text = _say(
            rng,
            (
                "The perimeter of a square with side s + {b} can be written 4(s + {b}) or "
                "4s + ?. What is the missing number?",
                "A square has sides of length (x + {b}). Its perimeter is 4x + ?. Find the "
                "missing number.",
            ),
            b=b,
        )
    else:
        text = _say(
            rng,
            (
                "A group of {k} friends each pay x dollars plus a ${b} fee each. The total is "
                "{k}(x + {b}) = {k}x + ?. Find the missing number.",
                "Rewrite {k}(n + {b}) as {k}n + __. What number goes in the blank?",
                "{k}(a + {b}) = {k}a + ?",
            ),
            k=k,
            b=b,
        )
    return text, f"{k} * {b}", str(k * b)


GENERATORS: tuple[Generator, ...] = table(
    ("7.EE.A.1/expand-and-collect", "bare", _ee1_expand),
    ("7.EE.A.1/factor-linear", "bare", _ee1_factor),
    ("7.EE.A.2/rewrite-percent-story", "word", _ee2_story),
    ("7.EE.A.2/equivalent-form", "bare", _ee2_bare),
)
