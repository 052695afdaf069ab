"""Linear equations in one unknown ("3x + 5 = 20", "x/4 = 3", "□ - 7 = 12") and the bug
rules of solving them.

The unknown is a letter (an equation) or a box, "?" or blank (a missing-number problem);
the form is `a·x + b = c` with `a` a whole number or `1/a` (the unknown divided by `a`).

>>> p = EquationProblem.read("Solve 3x + 5 = 20")
>>> p.solve(), [r.shown for r in EQUATION_RULES["equation_same_operation"].apply(p)]
((Fraction(5, 1), '5'), ['75'])
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from tutorgraph.diagnosis.expression import number
from tutorgraph.diagnosis.rules import BugRule, Reproduction, show

__all__ = ["EQUATION_RULES", "EquationProblem"]

_N = r"\d+(?:\.\d+)?"
_BOX = r"□|■|\?|_+|\[\s*\]"
_EQUATION = re.compile(
    rf"(?<![\w.^/+\-×*÷])(?P<lhs>(?:(?P<a>{_N})\s*[×*]?\s*)?(?P<x>[a-z]|{_BOX})(?:\s*(?P<div>[/÷])\s*(?P<d>{_N}))?"
    rf"(?:\s*(?P<op>[-+])\s*(?P<b>{_N}))?)\s*=\s*(?P<c>-?{_N})(?![\w.^/]|\s*[-+×*÷/]\s*\d)",
)
_FLIPPED = re.compile(
    rf"(?<![\w.^/+\-×*÷])(?P<b>{_N})\s*\+\s*(?P<x>[a-z]|{_BOX})\s*=\s*(?P<c>-?{_N})(?![\w.^/]|\s*[-+×*÷/]\s*\d)"
)


@dataclass(frozen=True)
class EquationProblem:
    """`coefficient · x + constant = result`; `missing_number` when x is a box or blank."""

    text: str
    coefficient: Fraction
    constant: Fraction
    result: Fraction
    missing_number: bool

    @classmethod
    def read(cls, text: str) -> EquationProblem | None:
        if (m := _EQUATION.search(text)) is not None:
            if m["a"] and m["div"]:
                return None
            a = number(m["a"]) if m["a"] else Fraction(1)
            if m["div"]:
                d = number(m["d"])
                a = None if not d else 1 / d
            b = number(m["b"]) if m["b"] else Fraction(0)
            if m["op"] == "-" and b is not None:
                b = -b
            if not m["a"] and not m["div"] and not m["b"]:
                return None  # "x = 3" is an answer, not an equation
        elif (m := _FLIPPED.search(text)) is not None:
            a, b = Fraction(1), number(m["b"])
        else:
            return None
        c = number(m["c"])
        if a is None or b is None or c is None or a == 0:
            return None
        return cls(m[0], a, b, c, not m["x"].isalpha())

    def solve(self) -> tuple[Fraction, str]:
        answer = (self.result - self.constant) / self.coefficient
        return answer, show(answer)


def _says(answer: Fraction | None, how: str) -> list[Reproduction]:
    if answer is None:
        return []
    shown = show(answer)
    return [Reproduction(answer, shown, f"{shown} is what you get by {how}")]


def _same_operation(missing_number: bool) -> Callable[[EquationProblem], list[Reproduction]]:
    """Undoing a step (or both) with the operation itself instead of its inverse."""

    def rule(p: EquationProblem) -> list[Reproduction]:
        if p.missing_number != missing_number:
            return []
        a, b, c = p.coefficient, p.constant, p.result
        how = "doing the operation in the question again instead of its inverse"
        out = _says((c + b) * a, how)
        if a != 1 and b != 0:
            out += _says((c + b) / a, how) + _says((c - b) * a, how)
        return out

    return rule


def _subtracts_instead_of_dividing(p: EquationProblem) -> list[Reproduction]:
    a = p.coefficient
    if a.denominator != 1 or a == 1:
        return []
    return _says(p.result - p.constant - a, f"subtracting {a} instead of dividing by it")


def _forgets_coefficient(p: EquationProblem) -> list[Reproduction]:
    if p.coefficient == 1 or p.constant == 0:
        return []
    return _says(p.result - p.constant, "undoing the addition but not the multiplication")


def _wrong_order(p: EquationProblem) -> list[Reproduction]:
    if p.coefficient == 1 or p.constant == 0:
        return []
    return _says(
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
        BugRule("equation_forgets_coefficient", "linear equations", _forgets_coefficient),
        BugRule("equation_wrong_order", "linear equations", _wrong_order),
    )
}
