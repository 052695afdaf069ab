"""Numbers as text and the phrasing the grade 7 and grade 8 generators share."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction

from tutorgraph.training.problems._words import NAMES, fraction_text, number_text, pick

__all__ = [
    "_ans",
    "_decimal",
    "_e",
    "_fr",
    "_lin",
    "_money",
    "_name",
    "_num",
    "_nz",
    "_paren",
    "_rat",
    "_round_to",
    "_say",
    "_show",
    "_table",
    "_voice",
]


def _decimal(x: Fraction, places: int = 12) -> str | None:
    """The exact decimal text of `x`, or None when it does not terminate within `places`."""
    for k in range(places + 1):
        scaled = x * 10**k
        if scaled.denominator == 1:
            n = abs(scaled.numerator)
            sign = "-" if x < 0 else ""
            if k == 0:
                return f"{sign}{n}"
            digits = str(n).rjust(k + 1, "0")
            return f"{sign}{digits[:-k]}.{digits[-k:]}"
    return None


def _num(x: Fraction | int) -> str:
    """Text for a number: an integer, a short decimal, else a fraction."""
    x = Fraction(x)
    if x.denominator == 1:
        return number_text(x)
    dec = _decimal(x, 4)
    return dec if dec is not None else fraction_text(x)


def _fr(x: Fraction | int) -> str:
    """Text for a number in fraction form ("-3/4")."""
    return number_text(Fraction(x))


def _ans(x: Fraction | int) -> str:
    """An answer: an integer, an exact decimal, else a fraction."""
    x = Fraction(x)
    if x.denominator == 1:
        return number_text(x)
    dec = _decimal(x, 12)
    return dec if dec is not None else fraction_text(x)


def _e(x: Fraction | int) -> str:
    """A number inside an expression (negatives and fractions in parentheses)."""
    x = Fraction(x)
    if x.denominator == 1:
        text = str(x.numerator)
    else:
        dec = _decimal(x, 6)
        text = dec if dec is not None else f"{x.numerator}/{x.denominator}"
    return f"({text})" if x < 0 or "/" in text else text


def _money(x: Fraction | int) -> str:
    x = Fraction(x)
    cents = round(x * 100)
    return f"${cents // 100:,}.{cents % 100:02d}" if cents % 100 else f"${cents // 100:,}"


def _paren(text: str) -> str:
    return f"({text})" if text.startswith("-") else text


def _round_to(x: Fraction, unit: Fraction) -> Fraction:
    # Half rounds up, as the answer test and schools do.
    return Fraction(math.floor(x / unit + Fraction(1, 2))) * unit


def _nz(rng: random.Random, lo: int, hi: int) -> int:
    """A nonzero integer in [lo, hi]."""
    while True:
        n = rng.randint(lo, hi)
        if n:
            return n


def _rat(rng: random.Random, style: str) -> Fraction:
    """A signed rational number of one style: "int", "dec" or "frac"."""
    if style == "int":
        return Fraction(_nz(rng, -25, 25))
    if style == "dec":
        return Fraction(_nz(rng, -200, 200), pick(rng, (10, 100, 4)))
    return Fraction(_nz(rng, -11, 11), pick(rng, (2, 3, 4, 5, 6, 8, 10, 12)))


def _show(x: Fraction, style: str) -> str:
    return _fr(x) if style == "frac" else _num(x)


_LEADS = (
    "my homework says ",
    "i dont get this one: ",
    "how do you do this? ",
    "can someone help me with this ",
    "stuck on this: ",
    "pls help ",
    "our teacher gave us this: ",
    "wait how do i solve this one ",
    "im confused about this question: ",
    "help!! ",
)


def _voice(rng: random.Random, text: str) -> str:
    """Worksheet wording most of the time, otherwise a student retyping it."""
    if rng.random() < 0.62:
        return text
    if rng.random() < 0.6:
        text = text[0].lower() + text[1:] if rng.random() < 0.5 else text.lower()
    if rng.random() < 0.45:
        text = text.rstrip(".?!")
    return pick(rng, _LEADS) + text


def _say(rng: random.Random, templates: Sequence[str], **fields: object) -> str:
    return _voice(rng, pick(rng, templates).format(**fields))


def _name(rng: random.Random) -> str:
    return pick(rng, NAMES)


def _table(xs: Sequence[Fraction | int], ys: Sequence[Fraction | int], xn: str, yn: str) -> str:
    return f"{xn}: {', '.join(_num(x) for x in xs)}; {yn}: {', '.join(_num(y) for y in ys)}"


def _lin(m: int, b: int) -> str:
    """mx + b as written by hand: "x", "-x", "3x - 7"."""
    head = "x" if m == 1 else "-x" if m == -1 else f"{m}x"
    if b == 0:
        return head
    return f"{head} + {b}" if b > 0 else f"{head} - {-b}"
