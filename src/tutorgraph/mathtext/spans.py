"""Math in student text: LaTeX and Unicode to plain text, and canonical math expressions.

Students paste LaTeX (``\\frac{1}{2}``), type Unicode (``½``, ``x²``, ``−``) or write plain
text (``1/2+1/4``). `plain_text` turns all three into one plain form, and `math_spans`
finds the expressions in it, each in a canonical spelling: one space around binary
operators, none around ``/`` and ``^``, a tight unary minus, ``*`` written ``×``.

>>> plain_text(r"why is \\frac{1}{2}+\\frac{1}{4} not ⅔")
'why is 1/2+1/4 not 2/3'
>>> [s.text for s in math_spans("i got 2/6 for 1/2+1/4")]
['2/6', '1/2 + 1/4']
>>> [s.text for s in math_spans("solve 2x+3=7 for x")]
['2x + 3 = 7']
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from tutorgraph.mathtext.latex import latex_to_text

__all__ = ["MathSpan", "canonical_math", "math_spans", "plain_text"]

# Delimited LaTeX: \( \), \[ \], $$ $$ and $ $ (one character or more inside), tried in this
# order at each position. Scanned by hand: the regular expression for them rescans to the end
# for every opener without a closer, quadratic on "\(\(\(...".
_DELIMITERS = (("\\(", "\\)"), ("\\[", "\\]"), ("$$", "$$"))
_OPENER = re.compile(r"[\\$]")
# A bare run of LaTeX: the longest run of pieces (commands, brace groups and other non-space
# characters) with at least one command or brace group (``\frac{x + 1}{2}``, ``x^{2}``,
# ``1\frac{1}{3}``). The pieces are read once each: a pattern `piece* (command | braces)
# piece*` would retry every position of a long run without one.
_BRACES = r"\{(?:[^{}]|\{[^{}]*\})*\}"
_PIECE = re.compile(rf"(?P<markup>\\[A-Za-z]+|{_BRACES})|\\[^A-Za-z\s]|[^\s\\{{}}]")
_SUPERSCRIPTS = {"²": "^2", "³": "^3", "¹": "^1", "⁰": "^0", "⁴": "^4", "⁵": "^5"}
_CHAR_MAP = {"−": "-", "–": "-", "∗": "*", "⋅": "·", "⁄": "/"}

_TOKEN = re.compile(
    r"(?P<num>\d+(?:\.\d+)?)|(?P<word>[A-Za-z]+)|(?P<op><=|>=|!=|[-+×÷*·/=<>≤≥≠^])"
    r"|(?P<lp>\()|(?P<rp>\))|(?P<ws>[ \t]+)|(?P<other>.)",
    re.S,
)
# Binary operators written with a space on each side.
_SPACED = frozenset("+-=×÷<>≤≥≠")
_OP_CANON = {"*": "×", "·": "×", "<=": "≤", ">=": "≥", "!=": "≠"}
# Functions that may stand in an expression as words.
_FUNCTIONS = frozenset({"sqrt"})
# Letters glued to a number may be variables or units (`2x`, `3ab`).
_MAX_GLUED_LETTERS = 2


@dataclass(frozen=True)
class MathSpan:
    """One expression: where it sits in the plain text and its canonical spelling."""

    start: int
    end: int
    text: str


def _unicode_math(text: str) -> str:
    out: list[str] = []
    for i, ch in enumerate(text):
        if ch in _SUPERSCRIPTS:
            out.append(_SUPERSCRIPTS[ch])
        elif ch in _CHAR_MAP:
            out.append(_CHAR_MAP[ch])
        elif unicodedata.name(ch, "").startswith("VULGAR FRACTION"):
            frac = unicodedata.normalize("NFKC", ch).replace("⁄", "/")
            # A mixed number: 1½ is 1 1/2.
            out.append((" " if i and text[i - 1].isdigit() else "") + frac)
        else:
            out.append(ch)
    return "".join(out)


def _latex(segment: str) -> str:
    return latex_to_text(f"\\({segment}\\)")


def plain_text(text: str) -> str:
    """LaTeX and Unicode math as plain text; whitespace collapsed.

    >>> plain_text(r"is \\(x^{2}\\) the same as x² − 1")
    'is x^2 the same as x^2 - 1'
    """
    if "\\" in text or "$" in text:
        text = _read_delimited(text)
    if "\\" in text or "{" in text:
        text = _read_bare(text)
    return " ".join(_unicode_math(text).split())


def _segment(text: str, i: int, last: dict[str, int]) -> tuple[int, int, int] | None:
    """The delimited segment opening at `i`: where its inside starts and stops, and its end.
    `last` holds each closer's last position, so that an opener without one costs nothing."""
    for opener, closer in _DELIMITERS:
        if text.startswith(opener, i) and last[closer] >= i + 3:
            stop = text.find(closer, i + 3)
            return i + 2, stop, stop + 2
    if text[i] == "$" and (stop := text.find("$", i + 1)) > i + 1:
        return i + 1, stop, stop + 1
    return None


def _read_delimited(text: str) -> str:
    last = {closer: text.rfind(closer) for _, closer in _DELIMITERS}
    out: list[str] = []
    done = pos = 0
    while (opener := _OPENER.search(text, pos)) is not None:
        i = opener.start()
        if (found := _segment(text, i, last)) is None:
            pos = i + 1
            continue
        start, stop, end = found
        out += [text[done:i], f" {_latex(text[start:stop])} "]
        done = pos = end
    out.append(text[done:])
    return "".join(out)


def _read_bare(text: str) -> str:
    n = len(text)
    # From each position: where its run of pieces ends, and whether the run holds markup.
    ends, marked = list(range(n + 1)), [False] * (n + 1)
    for q in range(n - 1, -1, -1):
        if (m := _PIECE.match(text, q)) is not None:
            ends[q], marked[q] = ends[m.end()], marked[m.end()] or m["markup"] is not None
    out: list[str] = []
    done = q = 0
    while q < n:
        if not marked[q]:
            q += 1
            continue
        out += [text[done:q], _latex(text[q : ends[q]])]
        done = q = ends[q]
    out.append(text[done:])
    return "".join(out)


@dataclass(frozen=True)
class _Tok:
    kind: str
    text: str
    start: int
    end: int

    @property
    def operand(self) -> bool:
        return self.kind in {"num", "var", "rp"}


def _tokens(text: str) -> list[_Tok]:
    toks: list[_Tok] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "other"
        toks.append(_Tok(kind, m[0], m.start(), m.end()))
    return toks


def _glued(toks: list[_Tok], j: int) -> bool:
    return 0 <= j < len(toks) and toks[j].kind not in {"ws", "other", "word"}


def _classify_words(toks: list[_Tok]) -> list[_Tok]:
    """Decide which words are variables or functions; the rest end an expression."""
    out = list(toks)

    def neighbour(i: int, step: int) -> _Tok | None:
        j = i + step
        while 0 <= j < len(toks) and toks[j].kind == "ws":
            j += step
        return toks[j] if 0 <= j < len(toks) else None

    for i, t in enumerate(toks):
        if t.kind != "word":
            continue
        word = t.text
        if word.casefold() in _FUNCTIONS and i + 1 < len(toks) and toks[i + 1].kind == "lp":
            out[i] = _Tok("fn", word.casefold(), t.start, t.end)
            continue
        glued_num = i > 0 and toks[i - 1].kind == "num"
        if glued_num and len(word) <= _MAX_GLUED_LETTERS:
            out[i] = _Tok("var", word, t.start, t.end)
            continue
        if len(word) != 1 or word == "I":
            continue
        # A lone letter is a variable when it touches an operator or a bracket, directly or
        # across spaces to an operator; "a" in "a fraction" stays a word.
        touching = _glued(toks, i - 1) or _glued(toks, i + 1)
        prev, nxt = neighbour(i, -1), neighbour(i, 1)
        near_op = (prev is not None and prev.kind == "op") or (nxt is not None and nxt.kind == "op")
        if touching or near_op:
            out[i] = _Tok("var", word, t.start, t.end)
    return out


def _runs(toks: list[_Tok]) -> list[list[_Tok]]:
    """Maximal runs of math tokens; a space between two operands ends a run, except in a
    mixed number (`1 1/3`)."""
    runs: list[list[_Tok]] = []
    cur: list[_Tok] = []
    math_kinds = {"num", "var", "op", "lp", "rp", "fn"}
    for i, t in enumerate(toks):
        if t.kind == "ws":
            continue
        if t.kind not in math_kinds:
            if cur:
                runs.append(cur)
            cur = []
            continue
        if cur:
            last = cur[-1]
            spaced = toks[i - 1].kind == "ws"
            mixed = (
                last.kind == "num"
                and "." not in last.text
                and t.kind == "num"
                and i + 2 < len(toks)
                and toks[i + 1].text == "/"
                and toks[i + 2].kind == "num"
                and (len(cur) < 2 or cur[-2].kind != "op" or cur[-2].text != "/")
            )
            if spaced and last.operand and t.kind in {"num", "var", "lp", "fn"} and not mixed:
                runs.append(cur)
                cur = []
        cur.append(t)
    if cur:
        runs.append(cur)
    return runs


def _trim(run: list[_Tok]) -> list[_Tok]:
    """Drop dangling operators and unbalanced brackets at the ends."""
    changed = True
    while run and changed:
        changed = False
        first, last = run[0], run[-1]
        # A leading sign stays only when it is a unary minus or plus before an operand.
        signed = first.kind == "op" and first.text in {"-", "+"}
        if first.kind == "rp" or (first.kind == "op" and not signed):
            run, changed = run[1:], True
        elif last.kind in {"op", "lp", "fn"}:
            run, changed = run[:-1], True
        elif signed and (len(run) < 2 or run[1].kind not in {"num", "var", "lp", "fn"}):
            run, changed = run[1:], True
    depth = 0
    for t in run:
        depth += (t.kind == "lp") - (t.kind == "rp")
    while run and depth > 0 and run[0].kind == "lp":
        run, depth = run[1:], depth - 1
    while run and depth < 0 and run[-1].kind == "rp":
        run, depth = run[:-1], depth + 1
    return run


def _is_expression(run: list[_Tok]) -> bool:
    if any(t.kind == "fn" for t in run):
        return True
    for i in range(1, len(run) - 1):
        if run[i].kind == "op" and run[i - 1].kind in {"num", "var", "rp"}:
            return True
    return False


def _render(run: list[_Tok]) -> str:
    out: list[str] = []
    prev: _Tok | None = None
    for t in run:
        text = _OP_CANON.get(t.text, t.text) if t.kind == "op" else t.text
        after_op = prev is None or prev.kind in {"op", "lp"}
        unary = t.kind == "op" and text in {"-", "+"} and after_op
        if t.kind == "op" and text in _SPACED and not unary:
            out.append(f" {text} ")
        elif prev is not None and prev.kind == "num" and t.kind == "num":
            out.append(f" {text}")  # mixed number
        else:
            out.append(text)
        prev = t
    return "".join(out)


def canonical_math(text: str) -> str:
    """The canonical spelling of one expression (spacing and operator symbols only).

    >>> canonical_math("2x+3 = 7"), canonical_math("-3-(-5)"), canonical_math("3*4")
    ('2x + 3 = 7', '-3 - (-5)', '3 × 4')
    """
    plain = plain_text(text)
    spans = math_spans(plain)
    if len(spans) == 1 and spans[0].start == 0 and spans[0].end == len(plain):
        return spans[0].text
    return plain


def math_spans(text: str) -> list[MathSpan]:
    """The expressions in plain text (see `plain_text`), in order, canonical."""
    toks = _classify_words(_tokens(text))
    spans = []
    for run in _runs(toks):
        run = _trim(run)
        if run and _is_expression(run):
            spans.append(MathSpan(run[0].start, run[-1].end, _render(run)))
    return spans
