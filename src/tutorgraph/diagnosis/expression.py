"""Arithmetic read safely from student text, and evaluated exactly under an order of operations.

A bug rule asks "what would a student who holds this misconception answer?", so evaluation
takes the order of operations as a parameter: `STANDARD`, strictly `LEFT_TO_RIGHT`, or the
misread `BIDMAS` in which division comes before multiplication and addition before
subtraction. Numbers are exact (`fractions.Fraction`); nothing is ever passed to `eval`.
The parser never raises: text it cannot read, or that is too long, too deep or too large
(huge powers), gives None.

>>> evaluate(parse("10 - 4 / 2"))
Fraction(8, 1)
>>> evaluate(parse("10 - 4 / 2", LEFT_TO_RIGHT))
Fraction(3, 1)
>>> parse("2^99999") is not None, evaluate(parse("2^99999"))
(True, None)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "BIDMAS",
    "LEFT_TO_RIGHT",
    "STANDARD",
    "BinOp",
    "Group",
    "Neg",
    "Node",
    "Num",
    "evaluate",
    "number",
    "parse",
]

# Binding power of each binary operator (higher binds tighter); `^` is right-associative.
# A slash written tight between numbers ("2/3") is a fraction bar and binds above × and ÷;
# "÷" and a spaced " / " are division, an operation to be ordered like ×.
Order = Mapping[str, int]
STANDARD: Order = {"+": 1, "-": 1, "*": 2, "÷": 2, "/": 3, "^": 4}
LEFT_TO_RIGHT: Order = {"+": 1, "-": 1, "*": 1, "÷": 1, "/": 3, "^": 4}
BIDMAS: Order = {"-": 1, "+": 2, "*": 3, "÷": 4, "/": 5, "^": 6}

MAX_CHARS = 80
MAX_DEPTH = 12
MAX_EXPONENT = 12
# Numerators and denominators beyond this many digits are not school arithmetic.
MAX_DIGITS = 30

_OPS = {"+": "+", "-": "-", "−": "-", "*": "*", "×": "*", "·": "*", "/": "/", "÷": "÷", "^": "^"}
_TOKEN = re.compile(r"(\s+/\s+)|\s*(?:(\d+(?:\.\d+)?|\.\d+)|([-+*/^()×÷·−]))")


@dataclass(frozen=True)
class Num:
    value: Fraction
    text: str  # as written: "0.6" keeps its decimal places


@dataclass(frozen=True)
class Neg:
    operand: Node


@dataclass(frozen=True)
class Group:
    """Brackets as the student saw them (`(-5)^2` is not `-5^2`)."""

    inner: Node


@dataclass(frozen=True)
class BinOp:
    op: str  # one of + - * ÷ / ^ (÷ division, / a fraction bar)
    left: Node
    right: Node


Node = Num | Neg | Group | BinOp


def number(text: str) -> Fraction | None:
    """A plain number, fraction or mixed number ("3/7", "-1.2", "2 1/2"); None otherwise."""
    text = text.strip().replace("−", "-")
    mixed = re.fullmatch(r"(-?)(\d+)\s+(\d+)\s*/\s*(\d+)", text)
    if mixed:
        sign, whole, num, den = mixed.groups()
        if int(den) == 0:
            return None
        value = int(whole) + Fraction(int(num), int(den))
        return -value if sign else value
    node = parse(text.replace(" ", ""))
    if node is None or not _literal(node):
        return None
    return evaluate(node)


def _literal(node: Node) -> bool:
    """A number, a negated number or one number over another: an answer, not a sum."""
    match node:
        case Num():
            return True
        case Neg(operand=Num()):
            return True
        case BinOp(op="/", left=left, right=Num()):
            return _literal(left) and not isinstance(left, BinOp)
        case _:
            return False


def _tokens(text: str) -> list[str] | None:
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            return None
        spaced_slash, num, op = m.groups()
        out.append("÷" if spaced_slash else num if num is not None else _OPS.get(op, op))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, tokens: list[str], order: Order) -> None:
        self.tokens, self.order, self.pos = tokens, order, 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def expression(self, floor: int, depth: int) -> Node:
        if depth > MAX_DEPTH:
            raise ValueError("too deep")
        left = self.unary(depth)
        while True:
            op = self.peek()
            if op is None or op not in self.order or self.order[op] < floor:
                return left
            self.take()
            power = self.order[op]
            right = self.expression(power if op == "^" else power + 1, depth + 1)
            left = BinOp(op, left, right)

    def unary(self, depth: int) -> Node:
        token = self.peek()
        if token == "-":
            self.take()
            # -5^2 is -(5^2): the minus binds looser than a power, tighter than the rest.
            return Neg(self.expression(self.order["^"], depth + 1))
        if token == "+":
            self.take()
            return self.unary(depth + 1)
        if token == "(":
            self.take()
            inner = self.expression(0, depth + 1)
            if self.peek() != ")":
                raise ValueError("unbalanced")
            self.take()
            return Group(inner)
        if token is None or not (token[0].isdigit() or token[0] == "."):
            raise ValueError("number expected")
        self.take()
        return Num(Fraction(token), token)


def parse(text: str, order: Order = STANDARD) -> Node | None:
    """The expression tree of `text` under `order`, or None when it is not plain arithmetic."""
    if not text or len(text) > MAX_CHARS:
        return None
    tokens = _tokens(text)
    if not tokens:
        return None
    parser = _Parser(tokens, order)
    try:
        node = parser.expression(0, 0)
    except (ValueError, IndexError, ZeroDivisionError):
        return None
    return node if parser.pos == len(tokens) else None


def _bounded(value: Fraction) -> Fraction:
    if len(str(value.numerator)) > MAX_DIGITS or len(str(value.denominator)) > MAX_DIGITS:
        raise OverflowError("too large")
    return value


def _value(node: Node) -> Fraction:
    match node:
        case Num(value=value):
            return value
        case Neg(operand=operand):
            return -_value(operand)
        case Group(inner=inner):
            return _value(inner)
        case BinOp(op=op, left=left, right=right):
            a, b = _value(left), _value(right)
            if op == "+":
                return _bounded(a + b)
            if op == "-":
                return _bounded(a - b)
            if op == "*":
                return _bounded(a * b)
            if op in "÷/":
                return _bounded(a / b)
            if b.denominator != 1 or abs(b) > MAX_EXPONENT:
                raise OverflowError("exponent out of range")
            return _bounded(a ** int(b))
    raise TypeError(node)


def evaluate(node: Node | None) -> Fraction | None:
    """The exact value, or None (no tree, division by zero, a power out of range)."""
    if node is None:
        return None
    try:
        return _value(node)
    except (ZeroDivisionError, OverflowError):
        return None
