"""Rounding problems ("round 3.47 to 1 decimal place") and the bug rules of rounding.

A degree of accuracy is a place: decimal places (`dp`), significant figures (`sf`) or the
nearest power of ten (`nearest`). Each rule returns the answers a student who holds one
rounding misconception gives, with its sentence.

>>> p = RoundingProblem.read("Round 3.47 to 1 decimal place")
>>> p.solve(), [r.shown for r in ROUNDING_RULES["rounding_down_instead_of_up"].apply(p)]
((Fraction(7, 2), '3.5'), ['3.4'])
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_DOWN, ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Literal

from tutorgraph.diagnosis.rules import BugRule, Reproduction

__all__ = ["ROUNDING_RULES", "RoundingProblem"]

Unit = Literal["dp", "sf", "nearest"]
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "a": 1}
_NEAREST = {
    "whole number": 0,
    "integer": 0,
    "unit": 0,
    "ten": 1,
    "10": 1,
    "hundred": 2,
    "100": 2,
    "thousand": 3,
    "1000": 3,
    "1,000": 3,
    "10000": 4,
    "10,000": 4,
    "ten thousand": 4,
    "100000": 5,
    "100,000": 5,
    "hundred thousand": 5,
    "million": 6,
    "tenth": -1,
    "hundredth": -2,
}
# A number starts at the first digit of its run of digits and commas (after at most two
# commas); tried from each digit of a long run, the pattern would rescan it (quadratic).
_NUMBER = r"(?P<x>-?(?<!\d)(?<!\d,)(?<!\d,,)(?<!,,,)\d[\d,]*(?:\.\d+)?)"
_COUNT = r"(?P<n>\d|one|two|three|four|a)"
_READ = [
    re.compile(
        rf"{_NUMBER}\b[^.?!\d]{{0,40}}?\bto\s+{_COUNT}\s+(?P<u>decimal\s+places?|d\.?\s?p\.?"
        r"|significant\s+figures?|s\.?\s?f\.?)",
        re.I,
    ),
    re.compile(
        rf"{_NUMBER}\b[^.?!\d]{{0,40}}?\bto\s+the\s+nearest\s+"
        r"(?P<near>whole\s+number|integer|unit|hundred\s+thousand|ten\s+thousand|ten|hundred"
        r"|thousand|million|tenth|hundredth|100,?000|10,?000|1,?000|100|10)\b",
        re.I,
    ),
]
_MAX_DIGITS = 30


@dataclass(frozen=True)
class RoundingProblem:
    """`value` to `places` decimal places, `places` significant figures, or the nearest
    10**`places` (`places` < 0: a tenth, a hundredth)."""

    text: str
    value: Decimal
    unit: Unit
    places: int

    @classmethod
    def read(cls, text: str) -> RoundingProblem | None:
        """The first rounding instruction in `text`, or None."""
        for pattern in _READ:
            m = pattern.search(text)
            if m is None:
                continue
            raw = m["x"].replace(",", "")
            if len(raw) > _MAX_DIGITS:
                return None
            value = Decimal(raw)
            if m.groupdict().get("near"):
                places = _NEAREST[" ".join(m["near"].casefold().split())]
                return cls(m[0], value, "nearest", places)
            count = m["n"].casefold()
            n = _WORDS.get(count) or int(count)
            unit: Unit = "sf" if m["u"].casefold().startswith(("s", "sig")) else "dp"
            if unit == "sf" and n < 1:
                return None
            return cls(m[0], value, unit, n)
        return None

    def quantum(self, unit: Unit | None = None, places: int | None = None) -> Decimal:
        """The size of the last kept place."""
        unit, places = unit or self.unit, self.places if places is None else places
        if unit == "dp":
            return Decimal(1).scaleb(-places)
        if unit == "nearest":
            return Decimal(1).scaleb(places)
        if self.value == 0:
            return Decimal(1)
        return Decimal(1).scaleb(self.value.copy_abs().adjusted() - places + 1)

    def rounded(
        self, rounding: str = ROUND_HALF_UP, unit: Unit | None = None, places: int | None = None
    ) -> Decimal:
        q = self.quantum(unit, places)
        return (self.value / q).quantize(Decimal(1), rounding=rounding) * q

    def correct(self) -> Decimal:
        return self.rounded()

    def show(self, value: Decimal) -> str:
        return format(value.normalize(), "f") if value == value.to_integral() else str(value)

    def solve(self) -> tuple[Fraction, str]:
        """The right answer and how it is written."""
        correct = self.correct()
        return Fraction(correct), self.show(correct)


def _says(p: RoundingProblem, wrong: Decimal, how: str) -> list[Reproduction]:
    shown = p.show(wrong)
    return [Reproduction(Fraction(wrong), shown, f"{shown} is what you get by {how}")]


def _is_up(p: RoundingProblem) -> bool:
    return p.correct().copy_abs() > p.value.copy_abs()


def _down_instead_of_up(p: RoundingProblem) -> list[Reproduction]:
    if not _is_up(p):
        return []
    wrong = p.rounded(ROUND_FLOOR if p.value > 0 else ROUND_CEILING)
    return _says(p, wrong, "rounding down instead of up")


def _up_instead_of_down(p: RoundingProblem) -> list[Reproduction]:
    if _is_up(p) or p.correct() == p.value:
        return []
    wrong = p.rounded(ROUND_CEILING if p.value > 0 else ROUND_FLOOR)
    return _says(p, wrong, "rounding up instead of down")


def _degree(step: int, word: str) -> Callable[[RoundingProblem], list[Reproduction]]:
    def rule(p: RoundingProblem) -> list[Reproduction]:
        # a coarser degree is one place fewer (dp, sf) or one power of ten more (nearest)
        places = p.places - step if p.unit != "nearest" else p.places + step
        if p.unit == "sf" and places < 1:
            return []
        wrong = p.rounded(places=places)
        return _says(p, wrong, f"rounding {word}")

    return rule


def _sf_as_dp(p: RoundingProblem) -> list[Reproduction]:
    if p.unit != "sf":
        return []
    plural = "s" if p.places > 1 else ""
    return _says(
        p,
        p.rounded(unit="dp"),
        f"rounding to {p.places} decimal place{plural} instead of {p.places} "
        f"significant figure{plural}",
    )


def _five_rounds_down(p: RoundingProblem) -> list[Reproduction]:
    q = p.quantum()
    if (p.value / q) % 1 != Decimal("0.5") and (p.value / q) % 1 != Decimal("-0.5"):
        return []
    wrong = p.rounded(ROUND_HALF_DOWN)
    return _says(p, wrong, "rounding a 5 down")


def _in_steps(p: RoundingProblem) -> list[Reproduction]:
    """1449 to the nearest thousand as 2000: rounded to 1450, then 1500, then 2000."""
    if p.unit == "sf":
        return []
    target, value, steps = p.quantum(), p.value, 0
    q = Decimal(1).scaleb(int(p.value.as_tuple().exponent) + 1)
    while q <= target and steps <= _MAX_DIGITS:
        value = (value / q).quantize(Decimal(1), rounding=ROUND_HALF_UP) * q
        q, steps = q.scaleb(1), steps + 1
    if steps < 2:
        return []
    return _says(p, value, "rounding one place at a time, starting from the last digit")


ROUNDING_RULES: dict[str, BugRule[RoundingProblem]] = {
    r.name: r
    for r in (
        BugRule("rounding_down_instead_of_up", "rounding", _down_instead_of_up),
        BugRule("rounding_up_instead_of_down", "rounding", _up_instead_of_down),
        BugRule("rounding_too_much", "rounding", _degree(1, "to one place too few")),
        BugRule("rounding_too_little", "rounding", _degree(-1, "to one place too many")),
        BugRule("rounding_sf_as_dp", "rounding", _sf_as_dp),
        BugRule("rounding_five_down", "rounding", _five_rounds_down),
        BugRule("rounding_in_steps", "rounding", _in_steps),
    )
}
