"""Exact evaluation of an answer expression, and the reading of an answer written as text.

The problem generators and the lesson records state each answer as an expression over numbers
(Python syntax: + - * / // % ** and unary minus, with the functions of `FUNCTIONS`; a quoted
string only for a categorical answer such as a shape's name). `evaluate` computes it with exact
fractions, so an answer is computed once, here, and `matches` checks a written answer against it.

>>> evaluate("52 - 38")
Fraction(14, 1)
>>> evaluate("round_to(347, 10)"), evaluate("cmp(3/4, 2/3)")
(Fraction(350, 1), '>')
>>> matches("3/4 + 1/2", "1 1/4"), matches("'triangle'", "triangle")
(True, True)
"""

from __future__ import annotations

import ast
import math
import re
import statistics
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import Any

__all__ = ["FUNCTIONS", "Value", "evaluate", "format_value", "matches", "parse_answer"]

# An expression's value: an exact number, or text for a categorical answer.
Value = Fraction | str


def _cmp(a: Fraction, b: Fraction) -> str:
    return "<" if a < b else ">" if a > b else "="


def _round_to(x: Fraction, unit: Fraction) -> Fraction:
    # Half rounds up (away from zero for positive values), as schools teach it.
    return Fraction(math.floor(x / unit + Fraction(1, 2))) * unit


def _cbrt(x: Fraction) -> Fraction:
    top, bottom = (round(abs(n) ** (1 / 3)) for n in (x.numerator, x.denominator))
    root = Fraction(top, bottom) * (-1 if x < 0 else 1)
    if root**3 != x:
        raise ValueError(f"cbrt({x}) is not exact")
    return root


def _quartile(upper: bool) -> Callable[..., Fraction]:
    # The median of the lower or upper half, the middle value left out (as grade 6 teaches).
    def quartile(*xs: Fraction) -> Fraction:
        s = sorted(xs)
        half = s[(len(s) + 1) // 2 :] if upper else s[: len(s) // 2]
        return Fraction(statistics.median(half))

    return quartile


def _sqrt(x: Fraction) -> Fraction:
    root = Fraction(math.isqrt(x.numerator), math.isqrt(x.denominator))
    if root * root != x:
        raise ValueError(f"sqrt({x}) is not exact")
    return root


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "cmp": _cmp,
    "round_to": _round_to,
    "gcd": lambda a, b: Fraction(math.gcd(int(a), int(b))),
    "lcm": lambda a, b: Fraction(math.lcm(int(a), int(b))),
    "abs": abs,
    "min": min,
    "max": max,
    "mean": lambda *xs: sum(xs, Fraction(0)) / len(xs),
    "median": lambda *xs: Fraction(statistics.median(xs)),
    "sqrt": _sqrt,
    "cbrt": _cbrt,
    "floor": lambda x: Fraction(math.floor(x)),
    "ceil": lambda x: Fraction(math.ceil(x)),
    # How many of the values equal x, and how many are greater (a line plot's counts).
    "count": lambda x, *xs: Fraction(sum(1 for v in xs if v == x)),
    "count_above": lambda x, *xs: Fraction(sum(1 for v in xs if v > x)),
    "quartile1": _quartile(upper=False),
    "quartile3": _quartile(upper=True),
}
_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: Fraction(a // b),
    ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a**b,
}


# A generated problem evaluates a few dozen small expressions, most of them again and again
# ("12", "99 - 47"): remembered, the packet's generated practice costs a third less.
@lru_cache(maxsize=8192)
def evaluate(expression: str) -> Value:
    """An expression's value: numbers are exact fractions, strings stay strings (both
    immutable, so a value is remembered for the next call).

    Raises ValueError for anything outside the language (names, attributes, other calls).
    """

    def walk(node: ast.AST) -> Any:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                return node.value
            if isinstance(node.value, bool) or not isinstance(node.value, int | float):
                raise ValueError(f"not a number: {node.value!r}")
            return Fraction(str(node.value))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -walk(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return _BINARY[type(node.op)](walk(node.left), walk(node.right))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id not in FUNCTIONS or node.keywords:
                raise ValueError(f"not an allowed function: {node.func.id}")
            return FUNCTIONS[node.func.id](*[walk(a) for a in node.args])
        raise ValueError(f"not allowed: {ast.dump(node)}")

    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"not an expression: {expression!r}") from exc
    value: Value = walk(tree)
    return value


def parse_answer(answer: str) -> Value:
    """ "15", "-3", "2.5", "3/4", "1 1/2", "1,200" as fractions; anything else as text.

    >>> parse_answer("1 1/2"), parse_answer("1,200"), parse_answer("square")
    (Fraction(3, 2), Fraction(1200, 1), 'square')
    """
    text = answer.replace(",", "").strip()
    mixed = re.fullmatch(r"(-?\d+) (\d+)/(\d+)", text)
    if mixed:
        whole = int(mixed[1])
        return whole + (1 if whole >= 0 else -1) * Fraction(int(mixed[2]), int(mixed[3]))
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return answer.strip()


def matches(expression: str, answer: str) -> bool:
    """Whether `answer`, read by `parse_answer`, equals the expression's value."""
    return evaluate(expression) == parse_answer(answer)


def format_value(value: Value) -> str:
    """A value as an answer is written: a whole number, else a fraction; text as it is.

    >>> format_value(Fraction(14)), format_value(Fraction(-3, 4)), format_value("cube")
    ('14', '-3/4', 'cube')
    """
    if isinstance(value, str):
        return value
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )
