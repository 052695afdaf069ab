"""The phrasing, number words and formatting the grade 3 and grade 4 generators share."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from fractions import Fraction

from tutorgraph.training.problems._words import NAMES, pick

__all__ = [
    "_FOODS",
    "_bare",
    "_cmp_text",
    "_d",
    "_dec",
    "_eq",
    "_f",
    "_ones",
    "_ordinal",
    "_round",
    "_say",
    "_two",
    "_voice",
    "_x",
]


_SOLVE = ("Solve. ", "Read and solve. ", "Answer the question. ", "Problem: ", "Word problem: ")
_ASK = (
    "my homework says {t}",
    "i dont get this one: {t}",
    "how do you do this one? {t}",
    "can someone help me with this? {t}",
    "we got this in class today: {t}",
    "{t} i dont know where to start",
    "pls help {t}",
    "stuck on this: {t}",
)
_BARE = (
    "{e} = ?",
    "What is {e}?",
    "Solve: {e}",
    "Find {e}.",
    "Compute {e}.",
    "{e} = ___",
    "Evaluate {e}.",
    "Work out {e}.",
)
_BARE_ASK = (
    "whats {e}",
    "how do you do {e}",
    "i dont get {e}",
    "my homework says {e} what is the answer",
    "what is {e} i keep getting it wrong",
    "help with {e} pls",
)
_EQ = (
    "Find the missing number: {q}",
    "{q} What number makes this true?",
    "Solve for ?: {q}",
    "What goes in the box? {q}",
    "Fill in the blank. {q}",
    "how do i solve {q}",
    "i dont get {q} what is the missing number",
    "my worksheet says {q} what goes in the blank",
)


def _casual(rng: random.Random, text: str) -> str:
    text = text.lower()
    if rng.random() < 0.5:
        text = re.sub(r"(?<=[a-z])\?(?=\s|$)", "", text).replace(". ", " ").rstrip(".")
    return text


def _voice(rng: random.Random, text: str) -> str:
    """A word problem as a worksheet or a student might put it."""
    r = rng.random()
    if r < 0.4:
        return text
    if r < 0.65:
        out = pick(rng, _SOLVE) + text
        return out + " Show your work." if rng.random() < 0.3 else out
    out = pick(rng, _ASK).format(t=text)
    return _casual(rng, out) if rng.random() < 0.6 else out


def _bare(rng: random.Random, e: str) -> str:
    if rng.random() < 0.7:
        return pick(rng, _BARE).format(e=e)
    return pick(rng, _BARE_ASK).format(e=e)


def _eq(rng: random.Random, q: str) -> str:
    return pick(rng, _EQ).format(q=q)


def _say(rng: random.Random, templates: Sequence[str], **kw: object) -> str:
    return _voice(rng, pick(rng, templates).format(**kw))


def _x(rng: random.Random) -> str:
    return pick(rng, ("×", "×", "x", "*"))


def _d(rng: random.Random) -> str:
    return pick(rng, ("÷", "÷", "/"))


def _two(rng: random.Random) -> tuple[str, str]:
    a = pick(rng, NAMES)
    b = pick(rng, [n for n in NAMES if n != a])
    return a, b


def _f(n: int, d: int) -> str:
    return f"{n}/{d}"


def _dec(x: Fraction) -> str:
    """A value in hundredths as a decimal: 0.7, 1.25, 3."""
    h = x * 100
    assert h.denominator == 1
    n = h.numerator
    return f"{n // 100}.{n % 100:02d}".rstrip("0").rstrip(".")


def _cmp_text(rng: random.Random, a: str, b: str) -> str:
    return pick(rng, (
        f"Compare: {a} ___ {b}. Write >, < or =.",
        f"Write >, <, or = to compare {a} and {b}.",
        f"which sign goes between {a} and {b}, > or <",
        f"{a} ? {b} (use >, < or =)",
        f"is {a} bigger or smaller than {b}? write > or <",
    ))  # fmt: skip


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _ones(count: int) -> str:
    """A count as an expression of ones, so that a tally stays computed."""
    return " + ".join(["1"] * count) if count else "0"


def _round(x: int, unit: int) -> int:
    return (x + unit // 2) // unit * unit


_FOODS = (
    "pizza",
    "pie",
    "cake",
    "chocolate bar",
    "sandwich",
    "pan of brownies",
)
