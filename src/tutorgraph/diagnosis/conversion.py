"""Conversions between decimals, fractions and percentages, and between units of measure,
with the bug rules of each.

>>> p = ConversionProblem.read("Convert 0.07 to a percentage")
>>> p.solve(), [r.shown for r in CONVERSION_RULES["decimal_to_percent_times_ten"].apply(p)]
((Fraction(7, 1), '7%'), ['0.7%'])
>>> u = UnitProblem.read("Convert 2.5 hours into minutes")
>>> u.solve(), [r.shown for r in UNIT_RULES["units_100_minutes_in_an_hour"].apply(u)]
((Fraction(150, 1), '150'), ['250'])
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from tutorgraph.diagnosis.expression import number
from tutorgraph.diagnosis.rules import BugRule, Reproduction, reproduce, show

__all__ = ["CONVERSION_RULES", "UNIT_RULES", "ConversionProblem", "UnitProblem"]

Form = Literal["decimal", "fraction", "percent"]
# A number starts where its digits do (`(?<!\d)`): tried inside a run of digits, a pattern
# that starts with one would rescan the rest of the run from each digit (quadratic).
_DIGITS = r"(?<!\d)\d+(?:\.\d+)?(?:/\d+)?"
_NUM = rf"(?P<x>{_DIGITS}\s*%?)"
# The same before a space: `\s*%?\s+` would try every split of a run of spaces (the number
# loses its spaces when read).
_NUM_SPACE = rf"(?P<x>{_DIGITS}(?:\s*%)?)\s+"
_TARGET = r"(?:a\s+|an\s+)?(?P<t>percentages?|per\s*cents?|decimals?|fractions?)"
_CONVERSIONS = [
    # "8 out of 40 as a percentage", "write 8 as a percentage of 40"
    re.compile(
        r"(?<!\d)(?P<a>\d+)\s+out\s+of\s+(?P<b>\d+)\s+(?:as|to|into|in)\s+(?:a\s+)?"
        r"(?P<t>percentages?|per\s*cents?|decimals?|fractions?)\b",
        re.I,
    ),
    re.compile(
        r"(?<!\d)(?P<a>\d+)\s+as\s+a\s+(?P<t>percentage|fraction|decimal)\s+of\s+(?P<b>\d+)\b",
        re.I,
    ),
    re.compile(
        rf"\b(?:convert|write|express|change|give)\s+{_NUM_SPACE}(?:as|to|into|in)\s+{_TARGET}",
        re.I,
    ),
    re.compile(rf"{_NUM_SPACE}(?:written\s+)?(?:as|to|into|in)\s+{_TARGET}\b", re.I),
    # "convert this decimal to a percentage: 0.6"
    re.compile(rf"\b(?:as|to|into)\s+{_TARGET}(?:\s*:)?\s+{_NUM}(?![\d/.])", re.I),
    # "0.2 = 1/5 = ?%"
    re.compile(r"(?<!\d)(?P<x>\d+(?:\.\d+)?(?:/\d+)?)\s*=\s*(?:[\d./]+\s*=\s*)?(?P<t>\?\s*%)"),
]


def _form(written: str) -> Form:
    if written.endswith("%"):
        return "percent"
    return "fraction" if "/" in written else "decimal"


@dataclass(frozen=True)
class ConversionProblem:
    """`written` (a decimal, fraction or percentage) to be written in the form `target`.
    Answers to a percentage are read without their % sign."""

    text: str
    written: str
    source: Form
    target: Form
    value: Fraction

    @classmethod
    def read(cls, text: str) -> ConversionProblem | None:
        for pattern in _CONVERSIONS:
            m = pattern.search(text)
            if m is None:
                continue
            groups = m.groupdict()
            written = f"{groups['a']}/{groups['b']}" if groups.get("a") else "".join(m["x"].split())
            source = _form(written)
            t = m["t"].casefold()
            target: Form = (
                "percent"
                if t.startswith("per") or t.endswith("%")
                else "fraction"
                if t[0] == "f"
                else "decimal"
            )
            value = number(written.rstrip("%"))
            if value is None or source == target:
                return None
            if source == "percent":
                value /= 100
            return cls(m[0], written, source, target, value)
        return None

    def in_target(self, value: Fraction) -> Fraction:
        """A value as the answer is written in the target form (a percentage without %)."""
        return value * 100 if self.target == "percent" else value

    def show(self, value: Fraction) -> str:
        shown = show(value, decimal=self.target != "fraction")
        return shown + "%" if self.target == "percent" else shown

    def solve(self) -> tuple[Fraction, str]:
        answer = self.in_target(self.value)
        return answer, self.show(answer)


def _from(source: Form, target: Form) -> Callable[[ConversionProblem], bool]:
    return lambda p: p.source == source and p.target == target


def _scaled(
    source: Form, target: Form, factor: Fraction, how: str
) -> Callable[[ConversionProblem], list[Reproduction]]:
    """A student who converts by multiplying by `factor` instead of the right power of ten."""
    applies = _from(source, target)

    def rule(p: ConversionProblem) -> list[Reproduction]:
        return reproduce(p.value * factor, how, p.show) if applies(p) else []

    return rule


def _digits(written: str) -> str:
    return written.rstrip("%").replace(".", "").lstrip("0") or "0"


def _point_removed(p: ConversionProblem) -> list[Reproduction]:
    if not _from("decimal", "percent")(p):
        return []
    return reproduce(Fraction(int(_digits(p.written))), "just removing the decimal point", p.show)


def _percent_digits_after_point(p: ConversionProblem) -> list[Reproduction]:
    if not _from("percent", "decimal")(p) or "." in p.written:
        return []
    return reproduce(
        Fraction(f"0.{_digits(p.written)}"),
        "writing the digits of the percentage after a decimal point",
        p.show,
    )


def _fraction_parts(p: ConversionProblem) -> tuple[int, int] | None:
    if p.source != "fraction":
        return None
    a, _, b = p.written.partition("/")
    return int(a), int(b)


def _numerator_after_point(p: ConversionProblem) -> list[Reproduction]:
    parts = _fraction_parts(p)
    if parts is None or p.target != "decimal":
        return []
    return reproduce(
        Fraction(f"0.{parts[0]}"), "writing the numerator after the decimal point", p.show
    )


def _point_between(p: ConversionProblem) -> list[Reproduction]:
    parts = _fraction_parts(p)
    if parts is None or p.target != "decimal":
        return []
    a, b = parts
    return reproduce(
        Fraction(f"{a}.{b}"),
        "putting a decimal point between the numerator and the denominator",
        p.show,
    )


def _denominator_over_numerator(p: ConversionProblem) -> list[Reproduction]:
    parts = _fraction_parts(p)
    if parts is None or p.target == "fraction" or parts[0] == 0:
        return []
    a, b = parts
    return reproduce(
        p.in_target(Fraction(b, a)),
        f"dividing the denominator by the numerator ({b} ÷ {a})",
        p.show,
    )


def _numerator_then_denominator(p: ConversionProblem) -> list[Reproduction]:
    parts = _fraction_parts(p)
    if parts is None or p.target != "percent":
        return []
    a, b = parts
    return reproduce(
        Fraction(int(f"{a}{b}")), "writing the numerator followed by the denominator", p.show
    )


def _to_percent(
    wrong: Callable[[int, int], Fraction | None], how: str
) -> Callable[[ConversionProblem], list[Reproduction]]:
    """A fraction a/b written as a percentage the wrong way: `wrong(a, b)` percent."""

    def rule(p: ConversionProblem) -> list[Reproduction]:
        parts = _fraction_parts(p)
        if parts is None or p.target != "percent":
            return []
        return reproduce(wrong(*parts), how, p.show)

    return rule


CONVERSION_RULES: dict[str, BugRule[ConversionProblem]] = {
    r.name: r
    for r in (
        BugRule(
            "decimal_to_percent_times_ten",
            "percentages",
            _scaled("decimal", "percent", Fraction(10), "multiplying by 10 instead of 100"),
        ),
        BugRule(
            "decimal_to_percent_times_thousand",
            "percentages",
            _scaled("decimal", "percent", Fraction(1000), "multiplying by 1000 instead of 100"),
        ),
        BugRule(
            "decimal_to_percent_adds_sign",
            "percentages",
            _scaled("decimal", "percent", Fraction(1), "just adding a % sign"),
        ),
        BugRule(
            "decimal_to_percent_divides",
            "percentages",
            _scaled(
                "decimal", "percent", Fraction(1, 100), "dividing by 100 instead of multiplying"
            ),
        ),
        BugRule("decimal_to_percent_removes_point", "percentages", _point_removed),
        BugRule(
            "percent_to_decimal_divides_by_ten",
            "percentages",
            _scaled("percent", "decimal", Fraction(10), "dividing by 10 instead of 100"),
        ),
        BugRule(
            "percent_to_decimal_divides_by_thousand",
            "percentages",
            _scaled("percent", "decimal", Fraction(1, 10), "dividing by 1000 instead of 100"),
        ),
        BugRule(
            "percent_to_decimal_removes_sign",
            "percentages",
            _scaled("percent", "decimal", Fraction(100), "just removing the % sign"),
        ),
        BugRule(
            "percent_to_decimal_digits_after_point", "percentages", _percent_digits_after_point
        ),
        BugRule("fraction_to_decimal_numerator_after_point", "fractions", _numerator_after_point),
        BugRule("fraction_to_decimal_point_between", "fractions", _point_between),
        BugRule("fraction_denominator_over_numerator", "fractions", _denominator_over_numerator),
        BugRule(
            "fraction_to_percent_numerator_then_denominator",
            "percentages",
            _numerator_then_denominator,
        ),
        BugRule(
            "fraction_to_percent_numerator_as_percent",
            "percentages",
            _to_percent(lambda a, _b: Fraction(a), "taking the numerator as the percentage"),
        ),
        BugRule(
            "fraction_to_percent_doubles_numerator",
            "percentages",
            _to_percent(lambda a, _b: Fraction(2 * a), "doubling the numerator"),
        ),
        BugRule(
            "fraction_to_percent_point_between",
            "percentages",
            _to_percent(
                lambda a, b: Fraction(f"{a}.{b}"),
                "putting a decimal point between the numerator and the denominator",
            ),
        ),
        BugRule(
            "fraction_to_percent_wrong_way_round",
            "percentages",
            _to_percent(
                lambda a, b: Fraction(100 * b, a) if a else None,
                "dividing the other way round (the whole by the part)",
            ),
        ),
    )
}


# -- units of measure ----------------------------------------------------------------------

# unit -> (dimension, size in the dimension's smallest unit here)
_UNITS: dict[str, tuple[str, Fraction]] = {
    "second": ("time", Fraction(1)),
    "minute": ("time", Fraction(60)),
    "hour": ("time", Fraction(3600)),
    "day": ("time", Fraction(86400)),
    "week": ("time", Fraction(604800)),
    "mm": ("length", Fraction(1)),
    "cm": ("length", Fraction(10)),
    "m": ("length", Fraction(1000)),
    "km": ("length", Fraction(1000000)),
    "mg": ("mass", Fraction(1)),
    "g": ("mass", Fraction(1000)),
    "kg": ("mass", Fraction(1000000)),
    "tonne": ("mass", Fraction(1000000000)),
    "ml": ("volume", Fraction(1)),
    "cl": ("volume", Fraction(10)),
    "l": ("volume", Fraction(1000)),
}
_SPELLED = {
    "seconds": "second",
    "secs": "second",
    "s": "second",
    "minutes": "minute",
    "mins": "minute",
    "min": "minute",
    "hours": "hour",
    "hrs": "hour",
    "hr": "hour",
    "h": "hour",
    "days": "day",
    "weeks": "week",
    "millimetres": "mm",
    "millimetre": "mm",
    "millimeters": "mm",
    "centimetres": "cm",
    "centimetre": "cm",
    "centimeters": "cm",
    "metres": "m",
    "metre": "m",
    "meters": "m",
    "kilometres": "km",
    "kilometre": "km",
    "kilometers": "km",
    "milligrams": "mg",
    "grams": "g",
    "gram": "g",
    "kilograms": "kg",
    "kilogram": "kg",
    "tonnes": "tonne",
    "tons": "tonne",
    "t": "tonne",
    "millilitres": "ml",
    "millilitre": "ml",
    "centilitres": "cl",
    "centilitre": "cl",
    "litres": "l",
    "litre": "l",
    "liters": "l",
}
_UNIT = r"(?:" + "|".join(sorted({*_UNITS, *_SPELLED}, key=len, reverse=True)) + r")"
_MEASURES = [
    # "2.5 hours into minutes", "convert 3 km to m", "3 km = ___ m"
    re.compile(
        rf"(?<!\d)(?P<x>\d+(?:\.\d+)?)\s*(?P<u1>{_UNIT})\b[^.?!\d]{{0,30}}?"
        rf"(?:\binto|\bto|\bin|=\s*\S{{0,40}})\s*(?P<u2>{_UNIT})\b",
        re.I,
    ),
    # "how many minutes are there in 2.5 hours"
    re.compile(
        rf"\bhow\s+many\s+(?P<u2>{_UNIT})\b[^.?!\d]{{0,30}}?\bin\s+(?P<x>\d+(?:\.\d+)?)\s*"
        rf"(?P<u1>{_UNIT})\b",
        re.I,
    ),
]


def _unit(word: str) -> str:
    w = word.casefold()
    return _SPELLED.get(w, w)


@dataclass(frozen=True)
class UnitProblem:
    """`value` in `source` units, to be written in `target` units of the same kind."""

    text: str
    value: Fraction
    source: str
    target: str

    @classmethod
    def read(cls, text: str) -> UnitProblem | None:
        for pattern in _MEASURES:
            m = pattern.search(text)
            if m is None:
                continue
            source, target = _unit(m["u1"]), _unit(m["u2"])
            if source == target or _UNITS[source][0] != _UNITS[target][0]:
                return None
            value = number(m["x"])
            return None if value is None else cls(m[0], value, source, target)
        return None

    def factor(self) -> Fraction:
        return _UNITS[self.source][1] / _UNITS[self.target][1]

    def solve(self) -> tuple[Fraction, str]:
        answer = self.value * self.factor()
        return answer, show(answer)


def _wrong_factor(
    small: str, large: str, count: int
) -> Callable[[UnitProblem], list[Reproduction]]:
    """A student who believes there are `count` `small` units in one `large` unit."""

    def rule(p: UnitProblem) -> list[Reproduction]:
        if {p.source, p.target} != {small, large}:
            return []
        answer = p.value * count if p.source == large else p.value / count
        return reproduce(answer, f"taking {count} {small}s to be one {large}")

    return rule


# (rule name, smaller unit, larger unit, the count the student believes)
_WRONG_FACTORS = [
    ("units_100_minutes_in_an_hour", "minute", "hour", 100),
    ("units_10_minutes_in_an_hour", "minute", "hour", 10),
    ("units_30_minutes_in_an_hour", "minute", "hour", 30),
    ("units_100_seconds_in_an_hour", "second", "hour", 100),
    ("units_12_hours_in_a_day", "hour", "day", 12),
    ("units_100_m_in_a_km", "m", "km", 100),
    ("units_10_m_in_a_km", "m", "km", 10),
    ("units_10_cm_in_a_m", "cm", "m", 10),
    ("units_100_mm_in_a_cm", "mm", "cm", 100),
    ("units_1000_mm_in_a_cm", "mm", "cm", 1000),
    ("units_100_g_in_a_kg", "g", "kg", 100),
    ("units_10_g_in_a_kg", "g", "kg", 10),
    ("units_100_kg_in_a_tonne", "kg", "tonne", 100),
    ("units_10_kg_in_a_tonne", "kg", "tonne", 10),
    ("units_100_ml_in_a_l", "ml", "l", 100),
    ("units_10_cl_in_a_l", "cl", "l", 10),
]

UNIT_RULES: dict[str, BugRule[UnitProblem]] = {
    name: BugRule(name, "units", _wrong_factor(small, large, count))
    for name, small, large, count in _WRONG_FACTORS
}
