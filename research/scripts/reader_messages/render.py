"""How a student writes a problem tree (`Style`), and the canonical ASCII form.

>>> from .problems import parse
>>> render(parse("2/3 + 1/4"), Style(times=" x ", frac="unicode"))
'⅔ + ¼'
>>> canonical(parse("round 2.45 to 1 dp"))
'round 2.45 to 1 dp'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .problems import Bin, Frac, FracOf, Mixed, Neg, Node, Num, Paren, PctOf, Pow, Round, Sqrt

__all__ = ["SMALL_WORDS", "Style", "answer_text", "canonical", "precision", "render"]

_UNICODE_FRACTIONS = {
    ("1", "2"): "½",
    ("1", "3"): "⅓",
    ("2", "3"): "⅔",
    ("1", "4"): "¼",
    ("3", "4"): "¾",
    ("1", "5"): "⅕",
    ("2", "5"): "⅖",
    ("3", "5"): "⅗",
    ("4", "5"): "⅘",
    ("1", "6"): "⅙",
    ("5", "6"): "⅚",
    ("1", "8"): "⅛",
    ("3", "8"): "⅜",
    ("5", "8"): "⅝",
    ("7", "8"): "⅞",
}
_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
SMALL_WORDS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
)


@dataclass(frozen=True)
class Style:
    """How one student writes a calculation."""

    times: str = " * "
    div: str = " / "
    plus: str = " + "
    minus: str = " - "
    neg: str = "-"  # prefix of a negative number
    frac: str = "slash"  # slash | unicode | latex | over
    mixed: str = "space"  # space | and | unicode
    power: str = "caret"  # caret | unicode | words | latex | pow
    sqrt: str = "func"  # func | symbol | words | latex | root
    pct: str = "%"  # "%", " %", " percent", " per cent"
    point: str = "0."  # "0." or "." (leading-point decimals)
    rounding: str = "dp"  # dp | d.p. | decimal places | sig figs | significant figures
    half: bool = False  # "half of 30" for 1/2 of 30
    rounded: bool = False  # "2.45 rounded to 1 dp" rather than "2.45 to 1 dp"
    upper: bool = False


def _num(text: str, style: Style) -> str:
    if style.point == "." and text.startswith("0."):
        return text[1:]
    return text


def _frac(n: str, d: str, style: Style) -> str:
    if style.frac == "unicode" and (n, d) in _UNICODE_FRACTIONS:
        return _UNICODE_FRACTIONS[(n, d)]
    if style.frac == "latex":
        return f"\\frac{{{n}}}{{{d}}}"
    if style.frac == "over":
        return f"{n} over {d}"
    return f"{n}/{d}"


def render(node: Node, style: Style) -> str:
    """The problem (or an answer) as this style writes it."""
    text = _render(node, style)
    return text.upper() if style.upper else text


def _render(node: Node, s: Style) -> str:
    match node:
        case Num(t):
            return _num(t, s)
        case Frac(n, d):
            return _frac(n, d, s)
        case Mixed(w, n, d):
            if s.mixed == "unicode" and (n, d) in _UNICODE_FRACTIONS:
                return w + _UNICODE_FRACTIONS[(n, d)]
            if s.mixed == "and":
                return f"{w} and {n}/{d}"
            if s.frac == "latex":
                return f"{w}\\frac{{{n}}}{{{d}}}"
            return f"{w} {n}/{d}"
        case Neg(a):
            if isinstance(a, Pow) and s.neg.strip().isalpha():
                return "-" + _render(a, s)  # "negative 3 squared" would read as (-3)^2
            return s.neg + _render(a, s)
        case Paren(a):
            return "(" + _render(a, s) + ")"
        case Bin(op, left, right):
            sym = {"+": s.plus, "-": s.minus, "*": s.times, "/": s.div}[op]
            if sym == "/" and isinstance(right, Frac | Mixed):
                sym = " / "  # "2/1/5" would read as (2/1)/5
            return _render(left, s) + sym + _render(right, s)
        case Pow(b, e):
            base = _render(b, s)
            exp = _render(e, Style())
            if s.power == "unicode" and re.fullmatch(r"-?\d+", exp):
                return base + exp.translate(_SUPERSCRIPTS)
            if s.power == "words":
                if exp == "2":
                    return base + " squared"
                if exp == "3":
                    return base + " cubed"
                return f"{base} to the power of {exp}"
            if s.power == "pow":
                return f"{base} to the power {exp}"
            if s.power == "latex":
                return f"{base}^{{{exp}}}"
            return f"{base}^{exp}"
        case Sqrt(a):
            inner = _render(a, s)
            if s.sqrt == "symbol":
                return "√" + inner
            if s.sqrt == "words":
                return "the square root of " + inner
            if s.sqrt == "root":
                return "root " + inner
            if s.sqrt == "latex":
                return f"\\sqrt{{{inner}}}"
            return f"sqrt({inner})"
        case PctOf(p, of):
            return f"{_render(p, s)}{s.pct} of {_render(of, s)}"
        case FracOf(f, of):
            if s.half and f == Frac("1", "2"):
                return f"half of {_render(of, s)}"
            return f"{_render(f, s)} of {_render(of, s)}"
        case Round(v, kind, k):
            verb = " rounded to " if s.rounded else " to "
            return _render(v, s) + verb + precision(kind, k, s)
    raise TypeError(node)


def precision(kind: str, k: str, s: Style) -> str:
    if kind == "nearest":
        return f"the nearest {k}"
    one = k == "1"
    if kind == "dp":
        return {
            "dp": f"{k} dp",
            "d.p.": f"{k}d.p.",
            "decimal places": f"{k} decimal place" + ("" if one else "s"),
        }.get(s.rounding, f"{k} dp")
    return {
        "sig figs": f"{k} sig fig" + ("" if one else "s"),
        "significant figures": f"{k} significant figure" + ("" if one else "s"),
    }.get(s.rounding, f"{k} sf")


def canonical(node: Node) -> str:
    """The canonical ASCII form (the `problem` and answer fields)."""
    if isinstance(node, Round):
        if node.kind == "nearest":
            return f"round {canonical(node.value)} to the nearest {node.k}"
        return f"round {canonical(node.value)} to {node.k} {node.kind}"
    return _render(node, Style())


def answer_text(node: Node, how: str) -> str:
    """An answer as the student types it: plain, leading point, unicode, latex or words."""
    if how == "point":
        return render(node, Style(point="."))
    if how == "unicode":
        return render(node, Style(neg="−", frac="unicode", mixed="unicode"))
    if how == "latex":
        return render(node, Style(frac="latex"))
    if how == "words" and isinstance(node, Num) and node.text.isdigit():
        return SMALL_WORDS[int(node.text)] if int(node.text) < len(SMALL_WORDS) else node.text
    return canonical(node)
