"""Averages and the range of a list of numbers, and the bug rules of finding them.

>>> p = DataProblem.read("What is the mean of 3, 5, 5, 11?")
>>> p.solve(), [r.shown for r in DATA_RULES["mean_gives_mode"].apply(p)]
((Fraction(6, 1), '6'), ['5'])
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from tutorgraph.diagnosis.expression import number
from tutorgraph.diagnosis.rules import BugRule, Reproduction, reproduce, show

__all__ = ["DATA_RULES", "DataProblem"]

Measure = Literal["mean", "median", "mode", "range"]
_MEASURE = re.compile(r"\b(mean|median|mode|range)\b", re.I)
# three or more numbers separated by commas, each maybe with the same unit ("4 cm, 22 cm");
# the list starts where a number's digits do (linear on long runs of digits)
_LIST = re.compile(
    r"-?(?<!\d)\d+(?:\.\d+)?(?P<unit>\s*[a-z£$%]{1,3})?"
    r"(?:\s*,\s*-?\d+(?:\.\d+)?(?P=unit)?){2,29}(?![\d.])",
    re.I,
)
_MAX_VALUES = 30


def _middle(values: list[Fraction]) -> Fraction:
    """The middle value (or the midpoint of the two middle values) as the list stands."""
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def _median(values: list[Fraction]) -> Fraction:
    return _middle(sorted(values))


def _modes(values: list[Fraction]) -> list[Fraction]:
    counts = Counter(values)
    top = max(counts.values())
    return [] if top == 1 else [v for v, n in counts.items() if n == top]


def measure(name: Measure, values: list[Fraction]) -> Fraction | None:
    """The right value of a measure; None for a mode that is not unique."""
    if name == "mean":
        return sum(values, Fraction(0)) / len(values)
    if name == "median":
        return _median(values)
    if name == "range":
        return max(values) - min(values)
    modes = _modes(values)
    return modes[0] if len(modes) == 1 else None


@dataclass(frozen=True)
class DataProblem:
    """The `measure` of `values`, in the order they are written."""

    text: str
    measure: Measure
    values: tuple[Fraction, ...]

    @classmethod
    def read(cls, text: str) -> DataProblem | None:
        asked, data = _MEASURE.search(text), _LIST.search(text)
        if asked is None or data is None:
            return None
        unit = data["unit"] or ""
        parsed = [number(v.strip().removesuffix(unit.strip())) for v in data[0].split(",")]
        values = [v for v in parsed if v is not None]
        if len(values) != len(parsed) or len(values) > _MAX_VALUES:
            return None
        name: Measure = asked[1].casefold()  # type: ignore[assignment]
        return cls(f"the {name} of {', '.join(show(v) for v in values)}", name, tuple(values))

    def solve(self) -> tuple[Fraction, str] | None:
        answer = measure(self.measure, list(self.values))
        return None if answer is None else (answer, show(answer))


def _instead(asked: Measure, given: Measure) -> Callable[[DataProblem], list[Reproduction]]:
    """Finding one measure when another is asked for."""

    def rule(p: DataProblem) -> list[Reproduction]:
        if p.measure != asked:
            return []
        return reproduce(
            measure(given, list(p.values)), f"finding the {given} instead of the {asked}"
        )

    return rule


def _mean_without_dividing(p: DataProblem) -> list[Reproduction]:
    if p.measure != "mean":
        return []
    return reproduce(sum(p.values, Fraction(0)), "adding up the numbers but not dividing")


def _mean_ignoring_zeros(p: DataProblem) -> list[Reproduction]:
    nonzero = [v for v in p.values if v != 0]
    if p.measure != "mean" or len(nonzero) in (0, len(p.values)):
        return []
    return reproduce(
        sum(nonzero, Fraction(0)) / len(nonzero), "not counting the zeros when dividing"
    )


def _median_unordered(p: DataProblem) -> list[Reproduction]:
    if p.measure != "median" or list(p.values) == sorted(p.values):
        return []
    return reproduce(_middle(list(p.values)), "taking the middle value without ordering first")


def _median_without_midpoint(p: DataProblem) -> list[Reproduction]:
    values = sorted(p.values)
    if p.measure != "median" or len(values) % 2:
        return []
    low, high = values[len(values) // 2 - 1], values[len(values) // 2]
    if low == high:
        return []
    return [
        *reproduce(low, "giving one of the two middle values instead of the midpoint of both"),
        *reproduce(high, "giving one of the two middle values instead of the midpoint of both"),
    ]


def _range_adds(p: DataProblem) -> list[Reproduction]:
    if p.measure != "range":
        return []
    return reproduce(max(p.values) + min(p.values), "adding the biggest and smallest numbers")


def _range_unordered(p: DataProblem) -> list[Reproduction]:
    if p.measure != "range" or list(p.values) == sorted(p.values):
        return []
    first, last = p.values[0], p.values[-1]
    return reproduce(last - first, "subtracting the first number from the last without ordering")


def _range_largest(p: DataProblem) -> list[Reproduction]:
    if p.measure != "range":
        return []
    return reproduce(max(p.values), "giving the biggest value")


DATA_RULES: dict[str, BugRule[DataProblem]] = {
    r.name: r
    for r in (
        BugRule("mean_gives_mode", "averages", _instead("mean", "mode")),
        BugRule("mean_gives_median", "averages", _instead("mean", "median")),
        BugRule("median_gives_mean", "averages", _instead("median", "mean")),
        BugRule("median_gives_mode", "averages", _instead("median", "mode")),
        BugRule("mode_gives_median", "averages", _instead("mode", "median")),
        BugRule("range_gives_mean", "averages", _instead("range", "mean")),
        BugRule("range_gives_median", "averages", _instead("range", "median")),
        BugRule("range_gives_mode", "averages", _instead("range", "mode")),
        BugRule("mean_without_dividing", "averages", _mean_without_dividing),
        BugRule("mean_ignoring_zeros", "averages", _mean_ignoring_zeros),
        BugRule("median_unordered", "averages", _median_unordered),
        BugRule("median_without_midpoint", "averages", _median_without_midpoint),
        BugRule("range_adds", "averages", _range_adds),
        BugRule("range_unordered", "averages", _range_unordered),
        BugRule("range_largest", "averages", _range_largest),
    )
}
