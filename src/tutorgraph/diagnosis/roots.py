"""Square and cube roots ("the square root of 49", "√49", "sqrt(49)") and the bug rules
of finding them.

>>> p = RootProblem.read("What is the square root of nine?")
>>> p.solve(), [r.shown for r in ROOT_RULES["root_halves"].apply(p)]
((Fraction(3, 1), '3'), ['4.5'])
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from tutorgraph.diagnosis.expression import number
from tutorgraph.diagnosis.rules import BugRule, Reproduction, reproduce, show

__all__ = ["ROOT_RULES", "RootProblem"]

_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
)
_WORDS = {w: n for n, w in enumerate(_UNITS.split())} | {
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "hundred": 100,
}
_N = r"\d+(?:\.\d+)?|" + "|".join(sorted(_WORDS, key=len, reverse=True))
_ROOTS = [
    re.compile(rf"\b(?P<k>square|cube)\s+root\s+of\s+(?:a\s+)?(?P<n>{_N})\b", re.I),
    # `\s*(?:\(\s*)?`, not `\s*\(?\s*`: one way to split a run of spaces, not all of them
    # "sqrt(9 + 16)": the root of a sum or a difference, in brackets
    re.compile(r"(?P<k>√|sqrt|∛|cbrt)\s*\(\s*(?P<n>\d+)\s*(?P<op>[-+−])\s*(?P<m>\d+)\s*\)", re.I),
    re.compile(r"(?P<k>√|sqrt|∛|cbrt)\s*(?:\(\s*)?(?P<n>\d+(?:\.\d+)?)\s*\)?", re.I),
]
_MAX = 10**12


def _root(value: Fraction, degree: int) -> Fraction | None:
    """The exact rational root, or None."""
    if value < 0 or value > _MAX:
        return None
    out = []
    for part in (value.numerator, value.denominator):
        r = round(part ** (1 / degree))
        if r**degree != part:
            return None
        out.append(r)
    return Fraction(out[0], out[1])


@dataclass(frozen=True)
class RootProblem:
    """The square (`degree` 2) or cube (3) root of `value`."""

    text: str
    value: Fraction
    degree: int
    # the two terms of a root of a sum or a difference (`sqrt(9 + 16)`: 9 and 16)
    terms: tuple[Fraction, Fraction] | None = None

    @classmethod
    def read(cls, text: str) -> RootProblem | None:
        for pattern in _ROOTS:
            m = pattern.search(text)
            if m is None:
                continue
            word = m["n"].casefold()
            value = Fraction(_WORDS[word]) if word in _WORDS else number(m["n"])
            degree = 3 if m["k"].casefold() in ("cube", "∛", "cbrt") else 2
            if value is None:
                return None
            terms = None
            if m.groupdict().get("m"):
                second = Fraction(int(m["m"])) * (1 if m["op"] == "+" else -1)
                terms, value = (value, second), value + second
            return cls(m[0], value, degree, terms)
        return None

    def solve(self) -> tuple[Fraction, str] | None:
        answer = _root(self.value, self.degree)
        return None if answer is None else (answer, show(answer))


def _rule(
    degree: int | None, wrong: Callable[[RootProblem], Fraction | None], how: str
) -> Callable[[RootProblem], list[Reproduction]]:
    def rule(p: RootProblem) -> list[Reproduction]:
        if degree is not None and p.degree != degree:
            return []
        return reproduce(wrong(p), how)

    return rule


def _root_of_each_term(p: RootProblem) -> list[Reproduction]:
    """`sqrt(9 + 16)` as `sqrt(9) + sqrt(16)` = 7."""
    if p.terms is None:
        return []
    a, b = p.terms
    ra, rb = _root(a, p.degree), _root(abs(b), p.degree)
    if ra is None or rb is None:
        return []
    value = ra + rb if b >= 0 else ra - rb
    sign = "+" if b >= 0 else "-"
    return reproduce(
        value, f"taking the root of each term ({show(ra)} {sign} {show(rb)}) instead of the sum"
    )


ROOT_RULES: dict[str, BugRule[RootProblem]] = {
    r.name: r
    for r in (
        BugRule("root_halves", "powers", _rule(2, lambda p: p.value / 2, "halving the number")),
        BugRule("root_doubles", "powers", _rule(2, lambda p: p.value * 2, "doubling the number")),
        BugRule("root_squares", "powers", _rule(2, lambda p: p.value**2, "squaring the number")),
        BugRule("root_divides_by_four", "powers", _rule(2, lambda p: p.value / 4, "dividing by 4")),
        BugRule(
            "root_square_cube_confused",
            "powers",
            _rule(
                None,
                lambda p: _root(p.value, 5 - p.degree),
                "mixing up the square root and the cube root",
            ),
        ),
        BugRule("root_of_each_term", "powers", _root_of_each_term),
    )
}
