"""The math-message reader: the problem, the student's answer, the answer they claim is right
and the kind of request, read from a student's own words, each with the span it came from.

Students write "for 7 - 2 x 3 I put 15", "teacher marked 0.3 x 0.2 = 0.6 wrong", "I keep
getting 6 for 3 squared", "why is 5 - 8 not 3". The reader works in three passes over the
message's plain text (`mathtext.plain_text`: LaTeX and Unicode made plain):

1. a tokenizer (one regular expression, linear) turns numbers, operator symbols and operator
   *words* ("times", "divided by", "take away", "squared", "square root of", "half of",
   "% of", "negative") into tokens;
2. a small grammar (a precedence-climbing parser over those tokens) reads every maximal
   expression, in the canonical spelling of `mathtext.canonical_math` (`×`, `÷`, `^`,
   `sqrt(…)`), so the diagnosis parses what the reader returns;
3. answer cues pick the student's answer among the lone numbers (got, put, wrote, said,
   think, reckon, was, is, as, "=", equals, "came out as", "not Y", "Y right?", "to" after
   a rounding verb, an answer before its problem), and the problem is the expression that
   is not the answer.

A request that says too little is not guessed at: `missing` names what is absent.

>>> r = read_message("for 7 - 2 x 3 I put 15")
>>> r.problem.value, r.student_answer.value, r.request
('7 - 2 × 3', '15', 'is_right')
>>> read_message("I keep getting 6 for 3 squared").problem.value
'3^2'
>>> read_message("why is 5 - 8 not 3").student_answer.value
'3'
>>> read_message("what is a fraction?").missing
('problem', 'answer')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from tutorgraph.mathtext.spans import plain_text

__all__ = ["MAX_READ_CHARS", "MessageReading", "Read", "RequestKind", "read_message"]

RequestKind = Literal["why_wrong", "is_right", "how_to", "what_is"]
# Longer messages are read up to here (a student's message, not an essay).
MAX_READ_CHARS = 2000
# Tokens an expression may hold (a school calculation, not a stress test).
_MAX_TOKENS = 40


@dataclass(frozen=True)
class Read:
    """A value the reader took from the message, and where: `text[start:end]` of the
    message's plain text (`mathtext.plain_text`)."""

    value: str
    start: int
    end: int


@dataclass(frozen=True)
class MessageReading:
    """What a message states: its problem, the student's answer, the answer the student
    claims is right, and the kind of request; `missing` lists what a diagnosis would need and
    the message does not say (`problem`, `answer`)."""

    problem: Read | None
    student_answer: Read | None
    claimed_right: Read | None
    request: RequestKind | None
    missing: tuple[str, ...]


# -- tokens -------------------------------------------------------------------------------

# Operator words and symbols -> (kind, canonical). Kinds: `bin` (binary), `pre` (prefix),
# `post` (postfix). Longer phrases first so that "divided by" wins over "by".
_WORD_OPS: tuple[tuple[str, str, str], ...] = (
    ("to the power of", "bin", "^"),
    ("raised to the power of", "bin", "^"),
    ("multiplied by", "bin", "×"),
    ("divided by", "bin", "÷"),
    ("take away", "bin", "-"),
    ("takeaway", "bin", "-"),
    ("square root of", "pre", "sqrt"),
    ("the square root of", "pre", "sqrt"),
    ("sqrt of", "pre", "sqrt"),
    ("sqrt", "pre", "sqrt"),
    ("root", "pre", "sqrt"),
    ("half of", "pre", "half"),
    ("percent of", "bin", "% of"),
    ("per cent of", "bin", "% of"),
    ("times", "bin", "×"),
    ("x", "bin", "×"),
    ("plus", "bin", "+"),
    ("add", "bin", "+"),
    ("minus", "bin", "-"),
    ("over", "bin", "/"),
    ("squared", "post", "^2"),
    ("cubed", "post", "^3"),
    ("negative", "pre", "neg"),
)
_SYMBOL_OPS = {
    "+": ("bin", "+"),
    "-": ("bin", "-"),
    "−": ("bin", "-"),
    "–": ("bin", "-"),
    "*": ("bin", "×"),
    "×": ("bin", "×"),
    "·": ("bin", "×"),
    "÷": ("bin", "÷"),
    "/": ("bin", "/"),
    "^": ("bin", "^"),
    "√": ("pre", "sqrt"),
    "²": ("post", "^2"),
    "³": ("post", "^3"),
    "%": ("post", "%"),
    "(": ("open", "("),
    ")": ("close", ")"),
    "=": ("eq", "="),
    "<": ("cmp", "<"),
    ">": ("cmp", ">"),
    "≤": ("cmp", "≤"),
    "≥": ("cmp", "≥"),
}
_NUMBER = r"(?:\d{1,15}(?:,\d{3})*(?:\.\d{1,15})?|\.\d{1,15})"
# A number is not part of a code or a word ("8.EE.C.7", "5.NF.B.3", "x2", "2x"), except
# a times sign written as "x" between digits ("2x3").
_ALONE = r"(?:(?<![\w.])|(?<=\dx))"
_ENDS = r"(?!(?!x\d)[A-Za-z]|\.[A-Za-z0-9])"
_TOKEN = re.compile(
    # A standard's code (8.EE.C.7, HSA-SSE.B.3) is one word, not numbers and letters.
    r"(?P<code>\b\d{1,2}\.[A-Za-z][\w.]*|\bHS[A-Z]-[\w.]+)"
    # A mixed number (2 1/2), a fraction written tight (3/4), then a number.
    rf"|{_ALONE}(?P<mixed>\d{{1,9}} \d{{1,9}}/\d{{1,9}})(?![\d/]){_ENDS}"
    rf"|{_ALONE}(?P<frac>\d{{1,9}}/\d{{1,9}})(?![\d/.]){_ENDS}"
    rf"|{_ALONE}(?P<num>{_NUMBER}){_ENDS}"
    r"|(?P<pct>%\s*of\b)"
    r"|(?P<word>[A-Za-z]+(?:'[a-z]+)?)"
    r"|(?P<sym>[-+*×·÷/^√²³%()=−–<>≤≥])"
    r"|(?P<punct>[?!.,;:])",
)
_PHRASES = {tuple(w.split()): (kind, canon) for w, kind, canon in _WORD_OPS}
_MAX_PHRASE = max(len(p) for p in _PHRASES)


@dataclass(frozen=True)
class _Tok:
    kind: str  # num, bin, pre, post, open, close, eq, word, punct
    text: str  # canonical for operators and numbers, lower case for words
    start: int
    end: int
    said: str = ""  # an operator word as written, lower case ("add", "times")


def _tokens(text: str) -> list[_Tok]:
    raw = [(m.lastgroup or "", m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]
    out: list[_Tok] = []
    i = 0
    while i < len(raw):
        group, value, start, end = raw[i]
        if group in ("mixed", "frac", "num"):
            out.append(_Tok("num", value.replace(",", "") if group == "num" else value, start, end))
        elif group == "pct":
            out.append(_Tok("bin", "% of", start, end))
        elif group == "sym":
            kind, canon = _SYMBOL_OPS[value]
            out.append(_Tok(kind, canon, start, end))
        elif group == "punct":
            out.append(_Tok("punct", value, start, end))
        elif group == "code":
            out.append(_Tok("word", value.lower(), start, end))
        else:
            # The longest operator phrase that starts here, else a plain word.
            for n in range(min(_MAX_PHRASE, len(raw) - i), 0, -1):
                words = raw[i : i + n]
                if any(g != "word" for g, *_ in words):
                    continue
                hit = _PHRASES.get(tuple(w.lower() for _, w, _, _ in words))
                if hit is not None:
                    said = " ".join(w.lower() for _, w, _, _ in words)
                    out.append(_Tok(hit[0], hit[1], start, words[-1][3], said))
                    i += n
                    break
            else:
                out.append(_Tok("word", value.lower(), start, end))
                i += 1
            continue
        i += 1
    return _letters(out)


def _operand_end(tok: _Tok) -> bool:
    return tok.kind in ("num", "close", "post")


def _letters(toks: list[_Tok]) -> list[_Tok]:
    """An "x" is a times sign only between two operands; elsewhere it is the letter x."""
    out = list(toks)
    for k, tok in enumerate(toks):
        if tok.said != "x":
            continue
        before = toks[k - 1] if k else None
        after = toks[k + 1] if k + 1 < len(toks) else None
        between = (
            before is not None
            and _operand_end(before)
            and after is not None
            and after.kind in ("num", "open", "pre")
        )
        if not between:
            out[k] = _Tok("word", "x", tok.start, tok.end)
    return out


# -- the grammar: expression := unary (bin unary)*; unary := pre* atom post* ---------------

_BP = {"+": 1, "-": 1, "×": 2, "÷": 2, "% of": 2, "/": 2, "^": 3}


@dataclass(frozen=True)
class _Expr:
    text: str
    ops: int  # operators read (0: a lone number)
    first: int  # token index range [first, last)
    last: int


def _atom(toks: list[_Tok], i: int, depth: int) -> tuple[str, int, int] | None:
    """(canonical text, operators, next index) of one operand, or None."""
    if i >= len(toks) or depth > 8:
        return None
    tok = toks[i]
    if tok.kind == "pre" or (tok.kind == "bin" and tok.text == "-"):
        inner = _atom(toks, i + 1, depth + 1)
        if inner is None:
            return None
        text, ops, j = inner
        name = "neg" if tok.text in ("-", "neg") else tok.text
        shown = {"neg": f"-{text}", "sqrt": f"sqrt({text})", "half": f"{text} ÷ 2"}[name]
        return _postfix(toks, shown, ops + (name != "neg"), j)
    if tok.kind == "num":
        return _postfix(toks, tok.text, 0, i + 1)
    if tok.kind == "open":
        inner_expr = _expression(toks, i + 1, depth + 1)
        if inner_expr is None:
            return None
        j = inner_expr.last
        if j < len(toks) and toks[j].kind == "close":
            return _postfix(toks, f"({inner_expr.text})", inner_expr.ops, j + 1)
    return None


def _postfix(toks: list[_Tok], text: str, ops: int, j: int) -> tuple[str, int, int]:
    while j < len(toks) and toks[j].kind == "post":
        text, ops, j = f"{text}{toks[j].text}", ops + 1, j + 1
    return text, ops, j


def _expression(toks: list[_Tok], i: int, depth: int = 0) -> _Expr | None:
    first = _atom(toks, i, depth)
    if first is None:
        return None
    text, ops, j = first
    while j + 1 < len(toks) and toks[j].kind == "bin" and j - i < _MAX_TOKENS:
        # "x" between two numbers is times; "x" before a word is the letter (solve for x).
        right = _atom(toks, j + 1, depth)
        if right is None:
            break
        op = toks[j].text
        spaced = {"^": "^", "% of": "% of "}.get(op, f" {op} ")
        if op == "/" and toks[j].start == toks[j - 1].end and toks[j + 1].start == toks[j].end:
            spaced = "/"  # a fraction bar written tight
        text, ops, j = f"{text}{spaced}{right[0]}", ops + right[1] + 1, right[2]
    return _Expr(text, ops, i, j)


def _expressions(toks: list[_Tok]) -> list[_Expr]:
    """Every maximal expression, left to right (each token read once)."""
    out: list[_Expr] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        # A minus sign starts a number where no operand stands before it ("got -7").
        signed = tok.text == "-" and (i == 0 or toks[i - 1].kind in ("word", "punct", "eq"))
        expr = _expression(toks, i) if tok.kind in ("num", "pre", "open") or signed else None
        if expr is None:
            i += 1
            continue
        out.append(expr)
        i = max(expr.last, i + 1)
    return out


# -- answers, problems and requests -------------------------------------------------------

# Words that say "what follows is my answer" (the number comes within two filler words):
# strong cues name the student's act; weak ones ("is", "as", "=") also join a question to
# its problem ("what is 3/5 as a decimal"), so a strong cue wins.
_STRONG = frozenset(
    (
        "got", "get", "gets", "getting", "put", "putting", "wrote", "write", "writing",
        "said", "say", "answered", "answer", "thought", "think", "thinks", "reckon",
        "reckoned", "guessed", "guess", "chose", "picked", "came",
    )
)  # fmt: skip
_WEAK = frozenset(
    ("was", "is", "as", "equals", "equal", "gives", "gave", "making", "made", "make", "makes",
     "comes")
)  # fmt: skip
_FILLER = frozenset(
    (
        "it", "it's", "its", "that", "the", "answer", "was", "is", "be", "to", "like",
        "down", "just", "out", "i", "my", "a", "an", "of",
    )
)  # fmt: skip
_ROUND = frozenset(("round", "rounded", "rounding", "rounds"))
_RIGHT = frozenset(("right", "correct", "ok", "okay", "true"))
_WRONG = frozenset(("wrong", "incorrect", "false"))
_NOT = frozenset(("not", "isn't", "isnt", "aren't"))


def _algebra(toks: list[_Tok]) -> bool:
    """A letter stands for a number ("p - 5 = 1/10"): an equation, which this reader does
    not read (the diagnosis's equation reader does); its "=" is not an answer cue."""
    for k, tok in enumerate(toks):
        if tok.kind != "word" or len(tok.text) != 1 or tok.text == "i":
            continue
        before = toks[k - 1] if k else None
        after = toks[k + 1] if k + 1 < len(toks) else None
        glued = (before is not None and before.end == tok.start and before.kind == "num") or (
            after is not None and after.start == tok.end and after.kind != "punct"
        )
        beside = any(t is not None and t.kind in ("eq", "cmp") for t in (before, after))
        if (
            glued
            or beside
            or (tok.text != "a" and any(t is not None and t.kind == "bin" for t in (before, after)))
        ):
            return True
    return False


def _cue(toks: list[_Tok], at: int, *, equals: bool = True) -> int:
    """How strongly the number at `at` reads as the answer: 2 after a strong cue, 1 after a
    weak one (within two filler words), 0 otherwise."""
    j = at - 1
    seen = 0
    while j >= 0 and seen <= 2:
        tok = toks[j]
        if tok.kind == "eq":
            return int(equals)
        if tok.kind != "word":
            return 0
        if tok.text in _STRONG or tok.text in _NOT:
            return 2
        if tok.text in _WEAK:
            return 1
        if tok.text not in _FILLER:
            return 0
        seen += 1
        j -= 1
    return 0


def _request(words: list[str], joined: str) -> RequestKind | None:
    if "why" in words or "wrong" in words or "marked" in words:
        return "why_wrong"
    if re.search(r"\b(?:is|am|was)\b.*\b(?:right|correct)\b|\bright\?|\bcorrect\?", joined):
        return "is_right"
    if re.search(r"\bhow (?:do|can|would|should|to)\b", joined):
        return "how_to"
    if re.search(r"\bwhat(?:'s| is| are)\b", joined):
        return "what_is"
    return None


def _round_problem(toks: list[_Tok], exprs: list[_Expr]) -> tuple[Read, Read] | None:
    """ "rounded 2.45 to 2.4": the problem is rounding 2.45 to the answer's accuracy."""
    for k, expr in enumerate(exprs[:-1]):
        before = toks[expr.first - 1].text if expr.first else ""
        nxt = exprs[k + 1]
        if before not in _ROUND or expr.ops or nxt.ops:
            continue
        if nxt.first != expr.last + 1 or toks[expr.last].text != "to":
            continue
        answer = toks[nxt.first].text
        places = len(answer.partition(".")[2])
        if places:
            task = f"Round {expr.text} to {places} decimal place{'s' * (places > 1)}"
        else:
            task = f"Round {expr.text} to the nearest whole number"
        return (
            Read(task, toks[expr.first - 1].start, toks[expr.last - 1].end),
            Read(answer, toks[nxt.first].start, toks[nxt.last - 1].end),
        )
    return None


# "add 2/3 and 1/4", "subtracted 3 from 10", "multiply 0.6 by 0.2", "divide 6 by 3"
_VERBS = {
    "add": "+", "added": "+", "adding": "+", "sum": "+",
    "subtract": "-", "subtracted": "-", "subtracting": "-", "take": "-", "took": "-",
    "multiply": "×", "multiplied": "×", "multiplying": "×", "times": "×",
    "divide": "÷", "divided": "÷", "dividing": "÷", "share": "÷", "shared": "÷",
}  # fmt: skip
_LINKS = frozenset({"and", "to", "from", "by", "with", "between", "into"})


def _worded(toks: list[_Tok], exprs: list[_Expr]) -> Read | None:
    """A calculation said as a verb and two numbers: "add 2/3 and 1/4" -> "2/3 + 1/4"."""
    for k, a in enumerate(exprs[:-1]):
        b = exprs[k + 1]
        if a.ops or b.ops or not a.first or b.first != a.last + 1:
            continue
        verb, link = toks[a.first - 1], toks[a.last]
        op = _VERBS.get(verb.said or verb.text)
        if op is None or link.text not in _LINKS:
            continue
        left, right = a.text, b.text
        if op == "-" and link.text == "from":
            left, right = right, left
        if op == "÷" and link.text == "into":
            left, right = right, left
        return Read(f"{left} {op} {right}", verb.start, toks[b.last - 1].end)
    return None


def _span(toks: list[_Tok], expr: _Expr, text: str | None = None) -> Read:
    return Read(text or expr.text, toks[expr.first].start, toks[expr.last - 1].end)


def read_message(message: str) -> MessageReading:
    """Read a student's message (see the module's docstring); never raises."""
    text = plain_text(message[:MAX_READ_CHARS])
    toks = _tokens(text)
    words = [t.text for t in toks if t.kind == "word"]
    request = _request(words, " ".join(t.text for t in toks))
    exprs = _expressions(toks)
    problem: Read | None = None
    answer: Read | None = None
    claimed: Read | None = None

    rounded = _round_problem(toks, exprs)
    if rounded is not None:
        problem, answer = rounded
    algebra = _algebra(toks)
    # "A = B" with a calculation on the left and a lone number on the right.
    for k, expr in enumerate(exprs[:-1]):
        if problem is not None or algebra:
            break
        nxt = exprs[k + 1]
        if expr.ops and not nxt.ops and nxt.first == expr.last + 1 and toks[expr.last].kind == "eq":
            problem, answer = _span(toks, expr), _span(toks, nxt)
    lone = [e for e in exprs if not e.ops]
    if answer is None:
        # A compared number ("wrote 0.04 > 0.5") is not an answer this reader reads.
        lone = [e for e in lone if e.last >= len(toks) or toks[e.last].kind != "cmp"]
        strength = {e.first: _cue(toks, e.first, equals=not algebra) for e in lone}
        best = max(strength.values(), default=0)
        cued = [e for e in lone if best and strength[e.first] == best]
        # "Y right?": a number just before "right?" is the student's (checking it).
        checked = [e for e in lone if e.last < len(toks) and toks[e.last].text in _RIGHT | _WRONG]
        # The first cued number, else the last one checked.
        if cued or checked:
            answer = _span(toks, cued[0] if cued else checked[-1])
    if problem is None:
        calc = [e for e in exprs if e.ops and (answer is None or e.first != _first(toks, answer))]
        problem = _span(toks, calc[0]) if calc else _worded(toks, exprs)
    if answer is not None and problem is not None and answer.value == problem.value:
        answer = None
    # "the answer is 15 not 3": the student's is the one after "not"; the other is claimed.
    if answer is not None and request == "why_wrong":
        for e in lone:
            if e.first and toks[e.first - 1].text in ("not",) and _span(toks, e) != answer:
                claimed, answer = answer, _span(toks, e)
                break
    if request is None and problem is not None and answer is not None:
        # Work shown with no question asked: the student wants it checked.
        request = "is_right"
    missing = tuple(name for name, got in (("problem", problem), ("answer", answer)) if got is None)
    return MessageReading(problem, answer, claimed, request, missing)


def _first(toks: list[_Tok], read: Read) -> int:
    return next((i for i, t in enumerate(toks) if t.start == read.start), -1)
