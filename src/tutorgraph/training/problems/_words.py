"""Words the generators share: names, things to count, containers, and number formatting."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import TypeVar

__all__ = [
    "CONTAINERS",
    "NAMES",
    "THINGS",
    "fraction_text",
    "number_text",
    "pick",
    "plural",
]

T = TypeVar("T")

NAMES = (
    "Ana", "Ben", "Chloe", "Dev", "Emma", "Farah", "Gabe", "Hana", "Isaac", "Jada", "Kofi",
    "Lena", "Mateo", "Nia", "Omar", "Priya", "Quinn", "Rosa", "Sam", "Tariq", "Uma", "Vik",
    "Wen", "Xavier", "Yara", "Zoe", "Liam", "Aisha", "Diego", "Mei", "Noah", "Sofia", "Jamal",
    "Elena", "Kai", "Lucy", "Ravi", "Maya", "Leo", "Ines",
)  # fmt: skip
# Countable things (singular, plural).
THINGS = (
    ("apple", "apples"), ("pencil", "pencils"), ("sticker", "stickers"), ("marble", "marbles"),
    ("book", "books"), ("cookie", "cookies"), ("shell", "shells"), ("card", "cards"),
    ("balloon", "balloons"), ("crayon", "crayons"), ("toy car", "toy cars"), ("bead", "beads"),
    ("orange", "oranges"), ("cupcake", "cupcakes"), ("rock", "rocks"), ("flower", "flowers"),
    ("fish", "fish"), ("bird", "birds"), ("egg", "eggs"), ("button", "buttons"),
    ("block", "blocks"), ("muffin", "muffins"), ("seashell", "seashells"), ("leaf", "leaves"),
)  # fmt: skip
CONTAINERS = (
    ("box", "boxes"), ("bag", "bags"), ("basket", "baskets"), ("jar", "jars"),
    ("tray", "trays"), ("pack", "packs"), ("row", "rows"), ("shelf", "shelves"),
)  # fmt: skip


def pick(rng: random.Random, options: Sequence[T]) -> T:
    """One of `options`."""
    return options[rng.randrange(len(options))]


def plural(forms: tuple[str, str], n: int | Fraction) -> str:
    """The singular for exactly 1, else the plural."""
    return forms[0] if n == 1 else forms[1]


def number_text(value: int | Fraction) -> str:
    """An integer as digits (with thousands commas from 10,000), a fraction as a/b."""
    value = Fraction(value)
    if value.denominator == 1:
        n = value.numerator
        return f"{n:,}" if abs(n) >= 10_000 else str(n)
    return f"{value.numerator}/{value.denominator}"


def fraction_text(value: Fraction, mixed: bool = False) -> str:
    """a/b, or a mixed number "1 1/2" when `mixed` and the value is over 1."""
    if mixed and value > 1 and value.denominator != 1:
        whole = value.numerator // value.denominator
        rest = value - whole
        return f"{whole} {rest.numerator}/{rest.denominator}"
    return number_text(value)
