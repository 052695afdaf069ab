"""Linear equations in one unknown ("3x + 5 = 20", "x/4 = 3", "□ - 7 = 12") and the bug
rules of solving them.

The unknown is a letter (an equation) or a box, "?" or blank (a missing-number problem);
each side is a sum of numbers and terms in the unknown ("3x", "x/4", "3/5 × ?").

>>> p = EquationProblem.read("Solve 3x + 5 = 20")
>>> p.solve(), [r.shown for r in EQUATION_RULES["equation_same_operation"].apply(p)]
((Fraction(5, 1), '5'), ['45', '25/3', '75'])
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from tutorgraph.diagnosis.expression import number
from tutorgraph.diagnosis.rules import BugRule, Reproduction, reproduce, show

__all__ = ["EQUATION_RULES", "EquationProblem"]

_NUMBER = r"\d+(?:\.\d+)?"
_BOX = r"□|■|\?|_+|\[\s*\]"
# `\s*(?:[×*]\s*)?`, not `\s*[×*]?\s*`: one way to split a run of spaces, not all of them.
_TERM = re.compile(
    rf"(?P<a>{_NUMBER}(?:/\d+)?)?\s*(?:[×*]\s*)?(?P<x>[a-z]|{_BOX})(?:\s*[/÷]\s*(?P<d>{_NUMBER}))?"
    rf"|(?P<n>{_NUMBER}(?:/\d+)?)"
)
# The stretch of text on each side of an "=" that may hold the equation.
_AROUND = re.compile(r"(?P<left>[\w□■?.+\-×*/÷ ]{1,40})=(?P<right>[\w□■?.+\-×*/÷ ]{1,40})")
_LIMIT = 200


def _side(text: str) -> tuple[Fraction, Fraction, str | None] | None:
    """`text` as `a·x + b`: (a, b, the unknown), or None when it is not one."""
    text = text.strip().replace("−", "-")
    if not text or len(text) > _LIMIT:
        return None
    a, b, unknown, pos, sign = Fraction(0), Fraction(0), None, 0, 1
    if text[0] in "+-":
        sign, pos = (-1 if text[0] == "-" else 1), 1
    while True:
        while pos < len(text) and text[pos] == " ":
            pos += 1
        m = _TERM.match(text, pos)
        if m is None:
            return None
        if m["x"]:
            if unknown not in (None, m["x"]):
                return None
            unknown = m["x"]
            coefficient = number(m["a"]) if m["a"] else Fraction(1)
            divisor = number(m["d"]) if m["d"] else Fraction(1)
            if coefficient is None or not divisor:
                return None
            a += sign * coefficient / divisor
        else:
            value = number(m["n"])
            if value is None:
                return None
            b += sign * value
        pos = m.end()
        while pos < len(text) and text[pos] == " ":
            pos += 1
        if pos == len(text):
            return a, b, unknown
        if text[pos] not in "+-":
            return None
        sign, pos = (-1 if text[pos] == "-" else 1), pos + 1


def _longest(
    text: str, *, suffix: bool
) -> tuple[str, tuple[Fraction, Fraction, str | None]] | None:
    """The longest suffix (or prefix) of `text`, cut at a space, that is a side."""
    cuts = [i for i, c in enumerate(text) if c == " "]
    spans = (
        [text, *(text[i + 1 :] for i in cuts)]
        if suffix
        else [text, *(text[:i] for i in reversed(cuts))]
    )
    for span in spans:
        span = span.strip().removesuffix(".")
        if span and (side := _side(span)) is not None:
            return span, side
    return None


@dataclass(frozen=True)
class EquationProblem:
    """`coefficient·x + constant = other·x + result`, `missing_number` when x is a box or
    blank."""

    text: str
    coefficient: Fraction
    constant: Fraction
    result: Fraction
    missing_number: bool
    other: Fraction = Fraction(0)

    @classmethod
    def read(cls, text: str) -> EquationProblem | None:
        for m in _AROUND.finditer(text[:2000]):
            left = _longest(m["left"], suffix=True)
            right = _longest(m["right"], suffix=False)
            if left is None or right is None:
                continue
            (lt, (a, b, x)), (rt, (c, d, y)) = left, right
            if (x is None and y is None) or (x and y and x != y):
                continue
            if a == 0:  # "-5 = p + 10": the unknown's side first
                (lt, a, b), (rt, c, d) = (rt, c, d), (lt, a, b)
            if a == c or (c == 0 and a == 1 and b == 0):
                continue  # no single solution, or "x = 3" (an answer)
            unknown = x or y or ""
            return cls(f"{lt} = {rt}", a, b, d, not unknown.isalpha(), c)
        return None

    @property
    def net(self) -> Fraction:
        """The unknown's coefficient once its terms are on one side."""
        return self.coefficient - self.other

    def solve(self) -> tuple[Fraction, str]:
        answer = (self.result - self.constant) / self.net
        return answer, show(answer)


def _same_operation(missing_number: bool) -> Callable[[EquationProblem], list[Reproduction]]:
    """Undoing a step (or several) with the operation itself instead of its inverse:
    moving the unknown's term, moving the constant, dividing by the coefficient."""

    def rule(p: EquationProblem) -> list[Reproduction]:
        if p.missing_number != missing_number:
            return []
        a, b, c, d = p.coefficient, p.constant, p.other, p.result
        how = "doing the operation in the question again instead of its inverse"
        out: list[Reproduction] = []
        seen = {p.solve()[0]}
        for x_wrong in (False, True) if c else (False,):
            for b_wrong in (False, True) if b else (False,):
                net = a + c if x_wrong else a - c
                rhs = d + b if b_wrong else d - b
                for divide_wrong in (False, True) if net != 1 else (False,):
                    if not (x_wrong or b_wrong or divide_wrong) or net == 0:
                        continue
                    value = rhs * net if divide_wrong else rhs / net
                    if value not in seen:
                        seen.add(value)
                        out += reproduce(value, how)
        return out

    return rule


def _subtracts_instead_of_dividing(p: EquationProblem) -> list[Reproduction]:
    a = p.net
    if a.denominator != 1 or a == 1:
        return []
    return reproduce(p.result - p.constant - a, f"subtracting {a} instead of dividing by it")


def _divides_the_wrong_way(p: EquationProblem) -> list[Reproduction]:
    a, rhs = p.net, p.result - p.constant
    if a == 1 or rhs == 0:
        return []
    return reproduce(a / rhs, f"dividing {a} by {show(rhs)} instead of {show(rhs)} by {a}")


def _forgets_coefficient(p: EquationProblem) -> list[Reproduction]:
    if p.net == 1 or p.constant == 0:
        return []
    return reproduce(p.result - p.constant, "undoing the addition but not the multiplication")


def _wrong_order(p: EquationProblem) -> list[Reproduction]:
    if p.net == 1 or p.constant == 0 or p.other:
        return []
    return reproduce(
        p.result / p.coefficient - p.constant,
        "undoing the multiplication before the addition (the order must be reversed)",
    )


EQUATION_RULES: dict[str, BugRule[EquationProblem]] = {
    r.name: r
    for r in (
        BugRule("equation_same_operation", "linear equations", _same_operation(False)),
        BugRule("missing_number_original_operation", "linear equations", _same_operation(True)),
        BugRule(
            "equation_subtracts_instead_of_dividing",
            "linear equations",
            _subtracts_instead_of_dividing,
        ),
        BugRule("equation_divides_the_wrong_way", "linear equations", _divides_the_wrong_way),
        BugRule("equation_forgets_coefficient", "linear equations", _forgets_coefficient),
        BugRule("equation_wrong_order", "linear equations", _wrong_order),
    )
}
