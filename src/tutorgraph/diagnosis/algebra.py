"""Algebra read from words: a value substituted into an expression ("if x = 4 what is 3x")
and the gradient of a straight line ("the slope of y = 3x + 2"), with the bug rules of each.

>>> p = SubstitutionProblem.read("if x = 4 what is 3x?")
>>> p.solve(), [r.shown for r in ALGEBRA_RULES["substitution_digits_side_by_side"].apply(p)]
((Fraction(12, 1), '12'), ['34'])
>>> g = GradientProblem.read("slope of y = 3x + 2")
>>> g.solve(), [r.shown for r in GRADIENT_RULES["gradient_is_the_intercept"].apply(g)]
((Fraction(3, 1), '3'), ['2'])
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from tutorgraph.diagnosis.equation import _side
from tutorgraph.diagnosis.expression import evaluate, number, parse
from tutorgraph.diagnosis.rules import BugRule, Reproduction, reproduce, show

__all__ = ["ALGEBRA_RULES", "GRADIENT_RULES", "GradientProblem", "SubstitutionProblem"]

_NUMBER = r"\d{1,6}(?:\.\d{1,6})?"
# "if x = 4", "when a = -2", "substitute y = 3"
_ASSIGN = re.compile(
    r"\b(?:if|when|where|given|for|with|substitute|sub|let)\s+(?P<v>[a-z])\s*=\s*"
    rf"(?P<n>-?{_NUMBER})(?![\d.])",
    re.I,
)
# An expression in the letter with a coefficient: "3x", "2x + 5", "4x - 1", "3x^2"; not the
# side of an equation ("2x = 8").
_EXPRESSION = (
    r"(?<![\w.^])(?P<e>{n}\s*(?:[×*]\s*)?{v}(?:\s*\^\s*\d)?(?:\s*[-+]\s*{n}(?![\w.]))?)"
    r"(?![\w^])(?!\s*=)"
)


@dataclass(frozen=True)
class SubstitutionProblem:
    """`expression` (in the letter `letter`, with a coefficient) worked out at `value`."""

    text: str
    expression: str
    letter: str
    value: Fraction

    @classmethod
    def read(cls, text: str) -> SubstitutionProblem | None:
        if (a := _ASSIGN.search(text)) is None:
            return None
        letter, value = a["v"], number(a["n"])
        pattern = re.compile(_EXPRESSION.format(n=_NUMBER, v=re.escape(letter)))
        for m in pattern.finditer(text):
            if a.start() <= m.start() < a.end():
                continue
            if value is None:
                return None
            return cls(f"{m['e']} when {letter} = {a['n']}", m["e"], letter, value)
        return None

    def _at(self, written: str) -> Fraction | None:
        spaced = re.sub(rf"(\d)\s*(?:[×*]\s*)?{self.letter}", rf"\1 × {self.letter}", written)
        return evaluate(parse(spaced.replace(self.letter, f"({show(self.value)})")))

    def solve(self) -> tuple[Fraction, str] | None:
        answer = self._at(self.expression)
        return None if answer is None else (answer, show(answer))


def _digits_side_by_side(p: SubstitutionProblem) -> list[Reproduction]:
    """`3x` at x = 4 as 34: the coefficient and the value written next to each other."""
    if p.value < 0 or p.value.denominator != 1:
        return []
    v = str(p.value.numerator)
    m = re.match(rf"(\d+(?:\.\d+)?)\s*(?:[×*]\s*)?{p.letter}", p.expression)
    if m is None or "." in m[1]:
        return []
    joined = re.sub(rf"(\d)\s*(?:[×*]\s*)?{p.letter}", rf"\g<1>{v}", p.expression)
    return reproduce(
        evaluate(parse(joined)),
        f"writing {m[1]} and {v} side by side instead of multiplying ({m[1]} × {v})",
    )


ALGEBRA_RULES: dict[str, BugRule[SubstitutionProblem]] = {
    "substitution_digits_side_by_side": BugRule(
        "substitution_digits_side_by_side", "algebra", _digits_side_by_side
    )
}


# -- the gradient of a line ----------------------------------------------------------------

_GRADIENT = re.compile(
    r"\b(?:slope|gradient)\s+of\s+(?:the\s+(?:straight\s+)?(?:line|graph)\s+)?y\s*=\s*"
    r"(?P<rhs>[\dx.+\-−/ ]{1,40})",
    re.I,
)


@dataclass(frozen=True)
class GradientProblem:
    """The gradient of `y = m·x + c`."""

    text: str
    m: Fraction
    c: Fraction

    @classmethod
    def read(cls, text: str) -> GradientProblem | None:
        if (g := _GRADIENT.search(text)) is None:
            return None
        side = _side(g["rhs"].strip())
        if side is None or side[2] != "x" or side[0] == 0:
            return None
        return cls(g[0].strip(), side[0], side[1])

    def solve(self) -> tuple[Fraction, str]:
        return self.m, show(self.m)


def _gradient_is_intercept(p: GradientProblem) -> list[Reproduction]:
    return reproduce(p.c, f"taking the intercept ({show(p.c)}) for the gradient")


GRADIENT_RULES: dict[str, BugRule[GradientProblem]] = {
    "gradient_is_the_intercept": BugRule(
        "gradient_is_the_intercept", "graphs", _gradient_is_intercept
    )
}
