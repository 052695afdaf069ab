"""The canonical problem grammar as trees: its parser, exact values and the labelled pair.

A canonical problem is plain ASCII: `7 - 2 * 3`, `2/3 + 1/4` (a fraction is `a/b` with no
spaces, division is ` / `), `2 1/2 * 3` (mixed number), `0.5`, `-4`, `(-5) + (-2)`, `3^2`,
`sqrt(16)`, `40% of 120`, `1/6 of 24`, `round 2.45 to 1 dp`, `round 0.0373 to 2 sf`,
`round 4296 to the nearest 10`, `325076 - 100`.

>>> value(parse("7 - 2 * 3"))
Fraction(1, 1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

__all__ = [
    "Bin",
    "Frac",
    "FracOf",
    "Item",
    "Mixed",
    "Neg",
    "Node",
    "Num",
    "Paren",
    "PctOf",
    "Pow",
    "Round",
    "Sqrt",
    "parse",
    "value",
]


@dataclass(frozen=True)
class Num:
    text: str  # a non-negative integer or decimal, as written ("0.5", "1.20", "15")


@dataclass(frozen=True)
class Frac:
    num: str
    den: str


@dataclass(frozen=True)
class Mixed:
    whole: str
    num: str
    den: str


@dataclass(frozen=True)
class Neg:
    arg: Node


@dataclass(frozen=True)
class Paren:
    arg: Node


@dataclass(frozen=True)
class Bin:
    op: str  # + - * /
    left: Node
    right: Node


@dataclass(frozen=True)
class Pow:
    base: Node
    exp: Node


@dataclass(frozen=True)
class Sqrt:
    arg: Node


@dataclass(frozen=True)
class PctOf:
    pct: Node
    of: Node


@dataclass(frozen=True)
class FracOf:
    frac: Node
    of: Node


@dataclass(frozen=True)
class Round:
    value: Node
    kind: str  # "dp" | "sf" | "nearest"
    k: str


Node = Num | Frac | Mixed | Neg | Paren | Bin | Pow | Sqrt | PctOf | FracOf | Round

_TOKEN_RE = re.compile(
    r"\s*(?:(?P<mixed>\d+ \d+/\d+)|(?P<frac>\d+/\d+)|(?P<num>\d+\.\d+|\d+|\.\d+)"
    r"|(?P<word>sqrt|round|of|to|the|nearest|dp|sf)|(?P<op>[-+*/^()%]))"
)


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError(f"cannot read {text[pos:]!r} in {text!r}")
        kind = m.lastgroup or ""
        out.append((kind, m.group(kind)))
        pos = m.end()
        while pos < len(text) and text[pos] == " ":
            pos += 1
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.toks = _tokens(text)
        self.i = 0

    def peek(self) -> tuple[str, str] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, value: str | None = None) -> tuple[str, str]:
        tok = self.peek()
        if tok is None or (value is not None and tok[1] != value):
            raise ValueError(f"expected {value!r} at token {self.i} of {self.toks}")
        self.i += 1
        return tok

    def done(self) -> bool:
        return self.i == len(self.toks)

    def top(self) -> Node:
        tok = self.peek()
        if tok == ("word", "round"):
            self.take()
            value = self.unary()
            self.take("to")
            if self.peek() == ("word", "the"):
                self.take()
                self.take("nearest")
                kind, k = "nearest", self.take()[1]
            else:
                k = self.take()[1]
                kind = self.take()[1]
            node: Node = Round(value, kind, k)
        else:
            node = self.expr()
            if self.peek() == ("op", "%"):
                self.take()
                self.take("of")
                node = PctOf(node, self.expr())
            elif self.peek() == ("word", "of"):
                self.take()
                node = FracOf(node, self.expr())
        if not self.done():
            raise ValueError(f"trailing tokens {self.toks[self.i :]}")
        return node

    def expr(self) -> Node:
        node = self.term()
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            node = Bin(op, node, self.term())
        return node

    def term(self) -> Node:
        node = self.unary()
        while self.peek() in (("op", "*"), ("op", "/")):
            op = self.take()[1]
            node = Bin(op, node, self.unary())
        return node

    def unary(self) -> Node:
        if self.peek() == ("op", "-"):
            self.take()
            return Neg(self.unary())
        return self.power()

    def power(self) -> Node:
        base = self.atom()
        if self.peek() == ("op", "^"):
            self.take()
            return Pow(base, self.unary())
        return base

    def atom(self) -> Node:
        kind, value = self.take()
        if kind == "num":
            return Num("0" + value if value.startswith(".") else value)
        if kind == "frac":
            n, d = value.split("/")
            return Frac(n, d)
        if kind == "mixed":
            w, f = value.split(" ")
            n, d = f.split("/")
            return Mixed(w, n, d)
        if value == "(":
            inner = self.expr()
            self.take(")")
            return Paren(inner)
        if value == "sqrt":
            self.take("(")
            inner = self.expr()
            self.take(")")
            return Sqrt(inner)
        raise ValueError(f"unexpected {value!r}")


def parse(text: str) -> Node:
    """A canonical problem or answer string as a tree (ValueError when it is not one)."""
    return _Parser(text).top()


def value(node: Node) -> Fraction | None:
    """The exact value of a problem or answer; None when it is not rational."""
    match node:
        case Num(t):
            return Fraction(Decimal(t))
        case Frac(n, d):
            return Fraction(int(n), int(d)) if int(d) else None
        case Mixed(w, n, d):
            return int(w) + Fraction(int(n), int(d)) if int(d) else None
        case Neg(a):
            v = value(a)
            return None if v is None else -v
        case Paren(a):
            return value(a)
        case Bin(op, left, right):
            lv, rv = value(left), value(right)
            if lv is None or rv is None:
                return None
            if op == "/":
                return lv / rv if rv else None
            return {"+": lv + rv, "-": lv - rv, "*": lv * rv}[op]
        case Pow(b, e):
            bv, ev = value(b), value(e)
            if bv is None or ev is None or ev.denominator != 1 or (bv == 0 and ev < 0):
                return None
            return bv ** int(ev)
        case Sqrt(a):
            v = value(a)
            if v is None or v < 0:
                return None
            top, bottom = _isqrt(v.numerator), _isqrt(v.denominator)
            return None if top is None or bottom is None else Fraction(top, bottom)
        case PctOf(p, of):
            pv, ov = value(p), value(of)
            return None if pv is None or ov is None else pv * ov / 100
        case FracOf(f, of):
            fv, ov = value(f), value(of)
            return None if fv is None or ov is None else fv * ov
        case Round(v, kind, k):
            x = value(v)
            return None if x is None else _round(x, kind, k)
    return None


def _isqrt(n: int) -> int | None:
    r = int(n**0.5 + 0.5)
    for c in (r - 1, r, r + 1):
        if c >= 0 and c * c == n:
            return c
    return None


def _round(x: Fraction, kind: str, k: str) -> Fraction:
    d = Decimal(x.numerator) / Decimal(x.denominator)
    if kind == "dp":
        return Fraction(d.quantize(Decimal(1).scaleb(-int(k)), rounding=ROUND_HALF_UP))
    if kind == "sf":
        exp = d.copy_abs().adjusted()
        step = Decimal(1).scaleb(exp - int(k) + 1)
        return Fraction(d.quantize(step, rounding=ROUND_HALF_UP))
    q = (d / Decimal(k)).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return Fraction(q * Decimal(k))


@dataclass(frozen=True)
class Item:
    """One (problem, student answer) pair with its provenance and labels."""

    key: str
    problem: Node
    answer: Node | None
    correct: Node | None
    misconceptions: tuple[str, ...]
    question_id: int | None
    source: str
