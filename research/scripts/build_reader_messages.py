"""Write the math-message reader benchmark (`data/benchmarks/reader_messages.jsonl`).

    .venv/bin/python research/scripts/build_reader_messages.py /work/shared/data/eedi/train.csv \
        data/benchmarks/reader_messages.jsonl

Each row is one message in a student's words with its labels: the problem it states (plain
ASCII, canonical), the student's answer, the answer the student says is right, the kind of
request, and the Eedi misconception(s) accepted for that answer. Problems come from

* real Eedi pairs (`source == "eedi"`): questions of `train.csv` whose text is a pure
  calculation and whose labelled wrong option is a single number. The calculation is
  extracted from the LaTeX and kept only when it evaluates to the question's own correct
  option (the extraction is checked against Eedi's key), and
* the project's own problems (`source == "own"`, `OWN_PROBLEMS`): a misconception id is
  given only where the wrong answer is exactly what that Eedi misconception produces.

Canonical problem forms: `7 - 2 * 3`, `2/3 + 1/4` (a fraction is `a/b` with no spaces,
division is ` / `), `2 1/2 * 3` (mixed number), `0.5`, `-4`, `(-5) + (-2)`, `3^2`,
`sqrt(16)`, `40% of 120`, `1/6 of 24`, `round 2.45 to 1 dp`, `round 0.0373 to 2 sf`,
`round 4296 to the nearest 10`, `325076 - 100`.

The split is by phrasing, not by item: phrasing `p` is held out when
`int(sha256(("phrasing:" + p).encode()).hexdigest(), 16) % 3 == 0`. Everything is
deterministic (choices come from sha256 of fixed keys).
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

# -- problem trees ------------------------------------------------------------------------


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
            a, b = value(left), value(right)
            if a is None or b is None:
                return None
            if op == "/":
                return a / b if b else None
            return {"+": a + b, "-": a - b, "*": a * b}[op]
        case Pow(b, e):
            bv, ev = value(b), value(e)
            if bv is None or ev is None or ev.denominator != 1 or (bv == 0 and ev < 0):
                return None
            return bv ** int(ev)
        case Sqrt(a):
            v = value(a)
            if v is None or v < 0:
                return None
            n, d = _isqrt(v.numerator), _isqrt(v.denominator)
            return None if n is None or d is None else Fraction(n, d)
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


# -- rendering ----------------------------------------------------------------------------

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
_SMALL_WORDS = (
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
            return _render(v, s) + verb + _precision(kind, k, s)
    raise TypeError(node)


def _precision(kind: str, k: str, s: Style) -> str:
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
        return _SMALL_WORDS[int(node.text)] if int(node.text) < len(_SMALL_WORDS) else node.text
    return canonical(node)


# -- Eedi extraction ----------------------------------------------------------------------

_NUMBER_WORDS = {w: str(i) for i, w in enumerate(_SMALL_WORDS)}
_NUMBER_WORDS.update({"twenty-five": "25", "thirty-six": "36", "forty-nine": "49"})
_NUMBER_WORDS.update({"sixty-four": "64", "eighty-one": "81", "one hundred": "100"})

# Wording around a calculation that says nothing more than "work this out".
_PREFIX_RE = re.compile(
    r"^(?:work out(?: the value of)?:?|calculate:?|evaluate:?|find:?|"
    r"what is the value of:?|what is:?|what does the following equal\??|"
    r"what number belongs in the box\??|what is the answer to\s*:?)\s*",
    re.IGNORECASE,
)
_SUFFIX_RE = re.compile(
    r"\s*(?:write your answer in (?:its )?(?:the )?simplest form\.?|"
    r"give your answer in (?:its )?(?:the )?simplest form\.?|"
    r"leave your answer as a mixed number\.?|"
    r"(?:=\s*)?(?:\?|\\square|\\bigstar)?\s*\??)\s*$",
    re.IGNORECASE,
)


def _latex_to_ascii(tex: str) -> str:
    """LaTeX math (one line, delimiters gone) to the canonical ASCII grammar, or raise."""
    s = tex
    s = re.sub(r"\\mathbf\s*\{([^{}]*)\}", lambda m: m.group(1).replace(" ", ""), s)
    s = re.sub(r"\\(?:mathrm|text|textbf)\s*\{\s*([^{}]*?)\s*\}", r" \1 ", s)
    s = s.replace("\\left", "").replace("\\right", "")
    s = re.sub(r"\\(?:pounds|,|;|!|quad|qquad)|£|~", " ", s)
    s = s.replace("\\times", " * ").replace("\\div", " / ").replace("\\cdot", " * ")
    s = s.replace("\\%", "%").replace("−", "-").replace("×", " * ").replace("÷", " / ")
    # thousands separators inside one number: 10,000 -> 10000
    s = re.sub(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,])", lambda m: m.group(0).replace(",", ""), s)
    # a fraction is one tight token (U+2044 until the end), division is " / "
    s = re.sub(r"\\frac\s*\{\s*(\d+)\s*\}\s*\{\s*(\d+)\s*\}", "\\1\u2044\\2", s)
    s = re.sub(r"\^\s*\{\s*(\d+)\s*\}", r"^\1", s)
    s = re.sub(r"\\sqrt\s*\{([^{}]*)\}", r"sqrt(\1)", s)
    if "\\" in s or "{" in s or "}" in s:
        raise ValueError(f"LaTeX left in {s!r}")
    s = re.sub(r"\s+", " ", s).strip()
    s = re.sub(r"(\d+) (\d+\u2044\d+)", "\\1\u00a7\\2", s)  # mixed number
    s = re.sub(r"\s*([-+*/^()%])\s*", r" \1 ", s)
    s = re.sub(r"\s+", " ", s).strip()
    return s.replace("\u2044", "/").replace("\u00a7", " ")


def _math(tex: str) -> Node:
    """Parse one LaTeX calculation into a problem tree (ValueError when it is not one)."""
    return parse(_latex_to_ascii(tex))


def _plain(raw: str) -> str:
    s = raw.replace("\\(", " ").replace("\\)", " ").replace("\\[", " ").replace("\\]", " ")
    return " ".join(s.split())


def _answer(raw: str) -> Node | None:
    """A single-number answer option as a tree (integer, decimal, fraction, mixed, negative)."""
    text = _plain(raw)
    try:
        node = _math(text)
    except ValueError:
        return None
    inner = node.arg if isinstance(node, Neg) else node
    if not isinstance(inner, Num | Frac | Mixed):
        return None
    return node


_ROUND_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"^what is (?P<x>\S+) rounded to the nearest (?P<k>\S+) ?\?$",
            re.IGNORECASE,
        ),
        "nearest",
    ),
    (
        re.compile(
            r"^(?:round this number to )?(?P<k>\S+) (?P<kind>significant figure|decimal place)s?:?"
            r" (?P<x>\S+)$",
            re.IGNORECASE,
        ),
        "",
    ),
    (
        re.compile(
            r"^(?P<x>\S+) what is this number rounded to (?P<k>\S+) "
            r"(?P<kind>significant figure|decimal place)s? ?\?$",
            re.IGNORECASE,
        ),
        "",
    ),
    (
        re.compile(
            r"^what is (?P<x>\S+) rounded to (?P<k>\S+) "
            r"(?P<kind>significant figure|decimal place)s? ?\?$",
            re.IGNORECASE,
        ),
        "",
    ),
    (
        re.compile(
            r"^round (?P<x>\S+) to (?P<k>\S+) (?P<kind>significant figure|decimal place)s?\.?$",
            re.IGNORECASE,
        ),
        "",
    ),
    (
        re.compile(
            r"^(?P<x>\S+) to (?P<k>\S+) (?P<kind>significant figure|decimal place)s? is\.*$",
            re.IGNORECASE,
        ),
        "",
    ),
)
_ORDINALS = {"one": "1", "two": "2", "three": "3", "ten": "10", "hundred": "100"}
_ORDINALS.update({"thousand": "1000", "ten thousand": "10000"})


def _number_token(tex: str) -> str:
    s = _latex_to_ascii(tex).replace(" ", "")
    if not re.fullmatch(r"\d+(\.\d+)?", s):
        raise ValueError(f"not a number {tex!r}")
    return s


def _round_problem(text: str) -> Node | None:
    flat = re.sub(r"\\mathbf\s*\{([^{}]*)\}", lambda m: m.group(1).replace(" ", ""), text)
    flat = " ".join(flat.split())
    for pattern, fixed_kind in _ROUND_PATTERNS:
        m = pattern.match(flat)
        if not m:
            continue
        try:
            x = _number_token(m.group("x"))
            k = _ORDINALS.get(m.group("k").lower(), m.group("k"))
            k = _number_token(k)
        except ValueError:
            return None
        kind = fixed_kind
        if not kind:
            kind = "sf" if m.group("kind").lower().startswith("significant") else "dp"
        return Round(Num(x), kind, k)
    return None


def _problem(question_text: str) -> Node | None:
    """The calculation a question asks for, or None when it asks for anything else."""
    text = _plain(question_text)
    if not text or "![" in text:
        return None
    rounding = _round_problem(text)
    if rounding is not None:
        return rounding
    m = re.fullmatch(
        r"(?:what is|which of the following is) the square root of ([a-z-]+|\d+) ?\??",
        text,
        re.IGNORECASE,
    )
    if m:
        word = m.group(1).lower()
        n = _NUMBER_WORDS.get(word, word)
        return Sqrt(Num(n)) if n.isdigit() else None
    m = re.fullmatch(r'what is the value of " ?(\d+) (squared|cubed)" ?\?', text, re.IGNORECASE)
    if m:
        return Pow(Num(m.group(1)), Num("2" if m.group(2).lower() == "squared" else "3"))
    m = re.fullmatch(
        r"what number is (\S+) (less|more) than (\S+) ?\?(?: \?)?", text, re.IGNORECASE
    )
    if m:
        try:
            a, b = _number_token(m.group(1)), _number_token(m.group(3).rstrip("?"))
        except ValueError:
            return None
        return Bin("-" if m.group(2).lower() == "less" else "+", Num(b), Num(a))
    body = _PREFIX_RE.sub("", text, count=1)
    body = _SUFFIX_RE.sub("", body, count=1).strip()
    body = re.sub(r"\s*=\s*(?:\?|\\square|\\bigstar)?\s*\??$", "", body).strip()
    if not body or re.search(r"[A-Za-z]{2,}", re.sub(r"\\[a-z]+|\bof\b", "", body)):
        return None
    try:
        node = _math(body.replace("\\text { of }", " of ").replace("\\text{ of }", " of "))
    except ValueError:
        return None
    if isinstance(node, Num | Frac | Mixed):
        return None  # a bare number is a conversion or naming task, not a calculation
    return node


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


def eedi_items(train: Path, known: set[str]) -> tuple[list[Item], Counter[str]]:
    """Every clean (calculation, labelled single-number wrong answer) pair of `train.csv`."""
    items: list[Item] = []
    dropped: Counter[str] = Counter()
    with train.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        labelled = [
            x for x in "ABCD" if x != row["CorrectAnswer"] and row[f"Misconception{x}Id"].strip()
        ]
        if not labelled:
            continue
        problem = _problem(row["QuestionText"])
        if problem is None:
            dropped["question not a pure calculation"] += 1
            continue
        correct = _answer(row[f"Answer{row['CorrectAnswer']}Text"])
        pv = value(problem)
        if correct is None or pv is None or value(correct) != pv:
            dropped["extracted calculation does not give Eedi's correct option"] += 1
            continue
        seen: set[Fraction] = set()
        for letter in labelled:
            answer = _answer(row[f"Answer{letter}Text"])
            if answer is None:
                dropped["wrong option not a single number"] += 1
                continue
            av = value(answer)
            if av is None or av == pv or av in seen:
                dropped["wrong option equal in value to the key or to another option"] += 1
                continue
            seen.add(av)
            mid = f"eedi:misconception:{int(row[f'Misconception{letter}Id'])}"
            if mid not in known:
                dropped["misconception id not in the curriculum"] += 1
                continue
            qid = int(row["QuestionId"])
            items.append(
                Item(f"eedi:{qid}:{letter}", problem, answer, correct, (mid,), qid, "eedi")
            )
    return items, dropped


# -- the project's own problems -----------------------------------------------------------


def _m(*ids: int) -> tuple[str, ...]:
    return tuple(f"eedi:misconception:{i}" for i in ids)


# (problem, student answer, misconception ids the answer is exactly produced by). The
# correct answer is computed. A row with no ids is a slip no Eedi label names for sure, or
# a right answer.
OWN_PROBLEMS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    # order of operations: worked left to right (1507)
    ("7 - 2 * 3", "15", _m(1507)),
    ("2 + 3 * 4", "20", _m(1507)),
    ("10 - 4 / 2", "3", _m(1507)),
    ("8 + 12 / 4", "5", _m(1507)),
    ("5 + 2 * 3", "21", _m(1507)),
    ("20 - 3 * 4", "68", _m(1507)),
    ("6 + 6 / 3", "4", _m(1507)),
    ("9 - 3 * 2", "12", _m(1507)),
    ("4 + 5 * 2", "18", _m(1507)),
    # BIDMAS in strict order (2306)
    ("10 - 4 + 3", "3", _m(2306)),
    ("12 / 2 * 3", "2", _m(2306)),
    ("20 - 5 + 2", "13", _m(2306)),
    # brackets ignored (2488)
    ("(2 + 3) * 4", "14", _m(2488)),
    ("(10 - 4) / 2", "8", _m(2488)),
    # powers
    ("3^2", "6", _m(2316, 1072)),
    ("5^2", "10", _m(2316, 1072)),
    ("7^2", "14", _m(2316, 1072)),
    ("0.3^2", "0.6", _m(2316, 1072)),
    ("4^3", "12", _m(1072, 1792)),
    ("2^5", "10", _m(1072, 1792)),
    ("4^2", "6", _m(952)),
    ("5^3", "8", _m(952)),
    ("7^0", "0", _m(1920)),
    ("(-4)^2", "-16", _m(82)),
    ("-3^2", "9", _m(621)),
    # negatives
    ("(-3) * (-4)", "-12", _m(1597)),
    ("-6 * -2", "-12", _m(1597)),
    ("5 * (-3)", "15", _m(974)),
    ("-4 * 6", "24", _m(974)),
    ("12 / (-3)", "4", _m(1558)),
    ("-20 / 5", "4", _m(34)),
    ("-18 / -3", "-6", _m(1400)),
    ("5 - (-3)", "2", _m(2566, 55)),
    ("5 - 8", "3", _m(1958)),
    ("4 - 9", "5", _m(1958)),
    ("-4 + 7", "-11", ()),
    # decimals
    ("0.3 * 0.2", "0.6", _m(2481)),
    ("0.4 * 0.2", "0.8", _m(2481)),
    ("0.5 * 0.3", "1.5", _m(2481)),
    ("0.3 * 0.2", "6", _m(189)),
    ("0.32 + 0.8", "0.4", _m(1730)),
    ("0.5 + 0.25", "0.30", _m(1730)),
    ("2.4 * 10", "2.40", ()),
    # fractions
    ("2/3 + 1/4", "3/7", _m(217)),
    ("1/2 + 1/3", "2/5", _m(217)),
    ("3/5 + 1/4", "4/9", _m(217)),
    ("4/5 - 1/3", "3/2", _m(172)),
    ("5/6 - 1/2", "4/4", _m(172)),
    ("2/3 * 4/5", "6/15", _m(317)),
    ("2/3 / 4/5", "8/15", _m(232)),
    ("3/4 / 1/2", "4/6", _m(1152)),
    ("2/5 * 3", "2/15", _m(78)),
    ("2/5 / 3", "6/5", _m(609)),
    ("2 + 1/3", "3/3", _m(1852)),
    ("1/2 + 1/4", "2/6", _m(217)),
    ("2 1/2 * 2", "4 1/2", ()),
    ("1 1/2 + 2 1/4", "3 2/6", _m(217)),
    # percentages and fractions of amounts
    ("20% of 80", "100", _m(2206)),
    ("30% of 50", "5", _m(914)),
    ("25% of 80", "3.2", _m(2023)),
    ("40% of 120", "4.8", ()),
    ("15% of 60", "4", ()),
    ("1/2 of 30", "60", ()),
    ("3/4 of 20", "5", ()),
    ("1/2 of 48", "96", ()),
    ("1/2 of 7", "3", ()),
    ("1/2 of 3 1/2", "1 1/2", ()),
    # roots
    ("sqrt(16)", "8", _m(2248, 734)),
    ("sqrt(36)", "18", _m(2248, 734)),
    ("sqrt(9)", "81", _m(1012)),
    ("sqrt(49)", "98", _m(2017, 2175)),
    # rounding
    ("round 2.45 to 1 dp", "2.4", _m(1402, 822)),
    ("round 3.67 to 1 dp", "3.6", _m(1379)),
    ("round 4.32 to 1 dp", "4.4", _m(1988)),
    ("round 7.849 to 2 dp", "7.8", _m(2392)),
    ("round 365 to the nearest 10", "360", _m(1402, 822)),
    ("round 0.0456 to 1 sf", "0", ()),
    # whole-number arithmetic
    ("47 + 38", "75", _m(1383)),
    ("52 - 38", "26", _m(1138)),
    ("52 - 38", "24", _m(699)),
    ("6 * 7", "48", ()),
    ("9 * 8", "63", ()),
    ("56 / 8", "8", ()),
    ("144 / 12", "11", ()),
    ("3 * 4", "7", _m(1416, 1319)),
    ("13 * 6", "68", ()),
    ("250 / 5", "5", ()),
    # right answers
    ("7 - 2 * 3", "1", ()),
    ("3/4 + 1/4", "1", ()),
    ("(-2) * (-5)", "10", ()),
    ("0.2 * 0.3", "0.06", ()),
    ("5^2", "25", ()),
    ("10% of 70", "7", ()),
    ("2/3 + 1/4", "11/12", ()),
    ("(-5) + (-2)", "-7", ()),
    ("round 2.45 to 1 dp", "2.5", ()),
    ("sqrt(16)", "4", ()),
    ("3^2", "9", ()),
    ("0.3 * 0.2", "0.06", ()),
    ("5 - 8", "-3", ()),
    ("1/2 of 30", "15", ()),
    ("2 1/2 + 1 1/4", "3 3/4", ()),
    ("12 / (-4)", "-3", ()),
)


def own_items() -> list[Item]:
    items = []
    for i, (problem, answer, mids) in enumerate(OWN_PROBLEMS):
        node = parse(problem)
        if canonical(node) != problem:
            raise ValueError(f"own problem {problem!r} is not canonical: {canonical(node)!r}")
        pv = value(node)
        if pv is None:
            raise ValueError(f"own problem {problem!r} has no exact value")
        ans = parse(answer)
        if canonical(ans) != answer:
            raise ValueError(f"own answer {answer!r} is not canonical")
        right = _value_node(pv, fractions=_has_fraction(node), mixed=_has_mixed(node))
        if mids and value(ans) == pv:
            raise ValueError(f"{problem} = {answer} is right but has misconceptions")
        items.append(Item(f"own:{i:03d}", node, ans, right, mids, None, "own"))
    return items


def _walk(node: Node) -> list[Node]:
    out = [node]
    for name in ("arg", "left", "right", "base", "exp", "pct", "of", "frac", "value"):
        child = getattr(node, name, None)
        if child is not None:
            out.extend(_walk(child))
    return out


def _has_fraction(node: Node) -> bool:
    return any(isinstance(n, Frac | Mixed) for n in _walk(node))


def _has_mixed(node: Node) -> bool:
    return any(isinstance(n, Mixed) for n in _walk(node))


def _value_node(v: Fraction, *, fractions: bool = False, mixed: bool = False) -> Node:
    """A value as a key would write it: a fraction (or mixed number) for a fraction
    problem, else an integer or a terminating decimal, else a fraction."""
    sign = v < 0
    a = abs(v)
    if a.denominator == 1:
        node: Node = Num(str(a.numerator))
    elif mixed and a > 1:
        whole, rest = divmod(a.numerator, a.denominator)
        node = Mixed(str(whole), str(rest), str(a.denominator))
    elif fractions:
        node = Frac(str(a.numerator), str(a.denominator))
    else:
        d = a.denominator
        while d % 2 == 0:
            d //= 2
        while d % 5 == 0:
            d //= 5
        if d == 1:
            text = format(Decimal(a.numerator) / Decimal(a.denominator), "f")
            node = Num(text)
        else:
            node = Frac(str(a.numerator), str(a.denominator))
    return Neg(node) if sign else node


# -- phrasings ----------------------------------------------------------------------------

PLAIN = Style()
TIGHT_X = Style(times="x", div="/", plus="+", minus="-")
SPACED_X = Style(times=" x ", div=" / ")
UNICODE = Style(
    times=" × ", div=" ÷ ", minus=" − ", neg="−", frac="unicode", power="unicode", sqrt="symbol"
)
UNICODE_TIGHT = Style(
    times="×",
    div="÷",
    plus="+",
    minus="−",
    neg="−",
    frac="unicode",
    mixed="unicode",
    power="unicode",
    sqrt="symbol",
)
WORDS = Style(
    times=" times ",
    div=" divided by ",
    plus=" plus ",
    minus=" minus ",
    neg="negative ",
    power="words",
    sqrt="words",
    pct=" percent",
    mixed="and",
    rounding="decimal places",
    half=True,
    rounded=True,
)
WORDS2 = Style(
    times=" multiplied by ",
    div=" divided by ",
    plus=" add ",
    minus=" take away ",
    neg="minus ",
    frac="over",
    mixed="and",
    power="pow",
    sqrt="root",
    pct=" per cent",
    rounding="sig figs",
)
LATEX = Style(times=" \\times ", div=" \\div ", frac="latex", power="latex", sqrt="latex")
STAR = Style(times="*", div="/", plus="+", minus="-", point=".", rounding="d.p.")
SLANG = Style(times=" x ", div=" / ", power="words", sqrt="words", pct="%", point=".", half=True)
SHOUT = Style(times=" X ", div=" / ", power="words", sqrt="words", upper=True)

PROBLEM_KINDS = ("expr", "round", "pct", "fracof")


def problem_kind(node: Node) -> str:
    if isinstance(node, Round):
        return "round"
    if isinstance(node, PctOf):
        return "pct"
    if isinstance(node, FracOf):
        return "fracof"
    return "expr"


@dataclass(frozen=True)
class Phrasing:
    """One template: `{p}` the problem, `{a}` the student's answer, `{c}` the right one."""

    id: str
    request: str
    frame: str
    styles: tuple[Style, ...]
    answer_how: str = "plain"  # plain | point | unicode | latex | words
    kinds: tuple[str, ...] = PROBLEM_KINDS
    needs_wrong: bool = True  # only for wrong answers
    right_only: bool = False  # only for right answers
    shows_problem: bool = True
    shows_answer: bool = True
    shows_claim: bool = False
    weight: int = 2  # relative share of items


PHRASINGS: tuple[Phrasing, ...] = (
    Phrasing(
        "got-for-but-wrong", "why_wrong", "i got {a} for {p} but its wrong??", (TIGHT_X, STAR)
    ),
    Phrasing("for-i-put", "why_wrong", "for {p} I put {a} and it says wrong", (SPACED_X, TIGHT_X)),
    Phrasing("marked-wrong", "why_wrong", "teacher marked {p} = {a} wrong", (SPACED_X, UNICODE)),
    Phrasing(
        "keep-getting", "why_wrong", "I keep getting {a} for {p}, what am i doing wrong", (WORDS,)
    ),
    Phrasing("why-not", "why_wrong", "why is {p} not {a}", (PLAIN, UNICODE)),
    Phrasing(
        "rounded-to",
        "why_wrong",
        "it said round to {r} and i rounded {n} to {a}, why is that wrong",
        (PLAIN, STAR),
        kinds=("round",),
    ),
    Phrasing("right-q", "is_right", "{p} = {a} right?", (UNICODE_TIGHT, TIGHT_X)),
    Phrasing(
        "reckon",
        "is_right",
        "i reckon {p} is {a}, am i right or not",
        (SLANG, WORDS),
        needs_wrong=False,
    ),
    Phrasing(
        "think-correct",
        "is_right",
        "I think {p} is {a}. Is that correct?",
        (PLAIN, WORDS2),
        needs_wrong=False,
    ),
    Phrasing(
        "thought-was", "why_wrong", "thought {p} was {a} but apparently not", (WORDS2, SPACED_X)
    ),
    Phrasing(
        "wrote-as",
        "why_wrong",
        "I wrote {a} as the answer to {p}. Why is it wrong?",
        (PLAIN, LATEX),
    ),
    Phrasing(
        "answered-q",
        "why_wrong",
        "on question 4 ({p}) I answered {a} and got it wrong",
        (SPACED_X, WORDS),
    ),
    Phrasing(
        "sheet-said",
        "why_wrong",
        "the answer sheet says {c} but i said {a} for {p}. why",
        (PLAIN, UNICODE, LATEX),
        shows_claim=True,
    ),
    Phrasing("equals-word", "is_right", "does {p} equal {a}", (WORDS, WORDS2), needs_wrong=False),
    Phrasing(
        "came-out-as",
        "why_wrong",
        "when i do {p} it came out as {a} but the answer is {c}?",
        (TIGHT_X, SLANG),
        shows_claim=True,
    ),
    Phrasing(
        "latex-dollars",
        "why_wrong",
        "why is ${p} = {a}$ wrong",
        (LATEX,),
        answer_how="latex",
        kinds=("expr", "pct", "fracof"),
    ),
    Phrasing(
        "getting-help", "why_wrong", "getting {a} for {p} help", (STAR, SLANG), answer_how="point"
    ),
    Phrasing(
        "how-do-i",
        "how_to",
        "how do i work out {p}",
        (PLAIN, WORDS),
        shows_answer=False,
        needs_wrong=False,
    ),
    Phrasing(
        "how-words",
        "how_to",
        "How do you do {p}?",
        (WORDS2, UNICODE),
        shows_answer=False,
        needs_wrong=False,
    ),
    Phrasing(
        "what-is", "what_is", "what is {p}", (WORDS, TIGHT_X), shows_answer=False, needs_wrong=False
    ),
    Phrasing(
        "whats-pls",
        "what_is",
        "whats {p} ?? pls",
        (STAR, UNICODE_TIGHT),
        shows_answer=False,
        needs_wrong=False,
    ),
    Phrasing("is-it", "is_right", "is {p} {a}?", (WORDS, SPACED_X), needs_wrong=False),
    Phrasing(
        "put-down",
        "why_wrong",
        "put {a} down for {p} and its wrong dont get it",
        (TIGHT_X, STAR, SPACED_X),
    ),
    Phrasing(
        "check-answer",
        "is_right",
        "can u check my answer {p} = {a}",
        (PLAIN, UNICODE_TIGHT),
        needs_wrong=False,
    ),
    Phrasing("equals-q", "is_right", "{p} equals {a} or not", (WORDS, PLAIN), needs_wrong=False),
    Phrasing(
        "i-get-typo",
        "why_wrong",
        "y do i get {a} wen i do {p} wat am i doin rong",
        (TIGHT_X, SLANG, WORDS2),
    ),
    Phrasing(
        "quiz-marks",
        "why_wrong",
        "Q7 on the quiz was {p} and I wrote {a}, got 0 out of 2 marks. What went wrong?",
        (PLAIN, UNICODE, WORDS),
    ),
    Phrasing(
        "worked-out-as",
        "why_wrong",
        "Worked out {p} as {a}. What did I do wrong?",
        (UNICODE, WORDS2),
        answer_how="unicode",
    ),
    Phrasing("shout", "why_wrong", "WHY IS {p} = {a} WRONG", (SHOUT,)),
    Phrasing(
        "answer-was",
        "why_wrong",
        "my answer was {a} for {p} but the teacher got {c}",
        (SPACED_X, LATEX),
        shows_claim=True,
    ),
    Phrasing(
        "equals-first",
        "why_wrong",
        "{a} is what i got when i did {p}, why is it wrong",
        (SLANG, PLAIN),
        answer_how="words",
    ),
    Phrasing(
        "correct-right",
        "is_right",
        "just checking {p} = {a} is right yeah?",
        (PLAIN, WORDS),
        needs_wrong=False,
        right_only=True,
        weight=4,
    ),
    # requests that say too little
    Phrasing(
        "vague-no-problem",
        "why_wrong",
        "i got {a} but it says its wrong why",
        (PLAIN,),
        shows_problem=False,
        weight=1,
    ),
    Phrasing(
        "vague-no-answer",
        "why_wrong",
        "why is my answer wrong for {p}",
        (PLAIN, TIGHT_X),
        shows_answer=False,
        weight=1,
    ),
    Phrasing(
        "vague-is-right",
        "is_right",
        "is {a} right??",
        (PLAIN,),
        shows_problem=False,
        needs_wrong=False,
        weight=1,
    ),
)


def heldout(phrasing_id: str) -> bool:
    """The split rule: a phrasing is held out when its sha256 is 0 mod 3."""
    return int(hashlib.sha256(("phrasing:" + phrasing_id).encode()).hexdigest(), 16) % 3 == 0


def _hash(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest()[:12], 16)


def _fits(p: Phrasing, item: Item) -> bool:
    if problem_kind(item.problem) not in p.kinds:
        return False
    if item.answer is None:
        return False
    right = item.correct is not None and value(item.answer) == value(item.correct)
    if p.right_only:
        return right
    if p.needs_wrong and right:
        return False
    if p.shows_claim and (item.correct is None or right):
        return False
    return not (p.shows_answer and not p.shows_problem and right)


def _answer_how(p: Phrasing, style: Style) -> str:
    if p.answer_how != "plain":
        return p.answer_how
    if style.neg == "−":
        return "unicode"
    if style.point == ".":
        return "point"
    return "plain"


def message(item: Item, p: Phrasing) -> dict[str, object]:
    """One benchmark row: `item` said in phrasing `p`."""
    style = p.styles[_hash(f"style:{item.key}:{p.id}") % len(p.styles)]
    how = _answer_how(p, style)
    assert item.answer is not None
    fields = {
        "p": render(item.problem, style),
        "a": answer_text(item.answer, how),
        "c": answer_text(item.correct, how) if item.correct is not None else "",
    }
    if isinstance(item.problem, Round):
        fields["n"] = render(item.problem.value, style)
        fields["r"] = _precision(item.problem.kind, item.problem.k, style)
    text = p.frame.format(**fields)
    complete = p.shows_problem and p.shows_answer
    return {
        "claimed_right": canonical(item.correct) if p.shows_claim and item.correct else None,
        "id": f"{item.key}:{p.id}",
        "misconception_ids": list(item.misconceptions) if complete else [],
        "phrasing": p.id,
        "problem": canonical(item.problem) if p.shows_problem else None,
        "question_id": item.question_id,
        "request": p.request,
        "source": item.source,
        "split": "heldout" if heldout(p.id) else "dev",
        "student_answer": canonical(item.answer) if p.shows_answer else None,
        "text": text,
    }


def messages(items: list[Item], per_item: int = 2) -> list[dict[str, object]]:
    """`per_item` phrasings per item, balanced over phrasings by weight, deterministic."""
    used: Counter[str] = Counter()
    seen_texts: set[str] = set()
    rows: list[dict[str, object]] = []
    for item in sorted(items, key=lambda it: _hash(f"item:{it.key}")):
        fitting = [p for p in PHRASINGS if _fits(p, item)]
        fitting.sort(key=lambda p: (used[p.id] / p.weight, _hash(f"pick:{item.key}:{p.id}")))
        taken = 0
        for p in fitting:
            if taken == per_item:
                break
            row = message(item, p)
            if row["text"] in seen_texts:
                continue
            seen_texts.add(str(row["text"]))
            used[p.id] += 1
            rows.append(row)
            taken += 1
    rows.sort(key=lambda r: str(r["id"]))
    return rows


def main(train: str, out: str) -> None:
    root = Path(__file__).resolve().parents[2]
    known = {
        json.loads(line)["id"]
        for line in (root / "data/curriculum/misconceptions.jsonl").read_text().splitlines()
        if line.strip()
    }
    eedi, dropped = eedi_items(Path(train), known)
    items = eedi + own_items()
    rows = messages(items)
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(r, ensure_ascii=False, sort_keys=True) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    splits = Counter(str(r["split"]) for r in rows)
    sources = Counter(str(r["source"]) for r in rows)
    phr = Counter(str(r["phrasing"]) for r in rows)
    held = sorted(p for p in phr if heldout(p))
    print(
        f"{len(eedi)} Eedi pairs from {len({i.question_id for i in eedi})} questions;"
        f" dropped: {dict(dropped)}"
    )
    print(f"{len(rows)} messages -> {out}; splits {dict(splits)}; sources {dict(sources)}")
    print(f"{len(phr)} phrasings, {len(held)} held out")


if __name__ == "__main__":
    main(*sys.argv[1:3])
