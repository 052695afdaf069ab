"""The math-message reader: the problem, the student's answer, the answer they claim is right
and the kind of request, read from a student's own words, each with the span it came from.

Students write "for 7 - 2 x 3 I put 15", "teacher marked 0.3 x 0.2 = 0.6 wrong", "I keep
getting 6 for 3 squared", "why is 5 - 8 not 3". The reader works in three passes over the
message's plain text (`mathtext.plain_text`: LaTeX and Unicode made plain):

1. a tokenizer (one regular expression, linear) turns numbers, operator symbols and operator
   *words* ("times", "divided by", "take away", "squared", "square root of", "half of",
   "% of", "negative") into tokens;
2. a small grammar over those tokens (expression := operand (operator operand)*; operand :=
   prefix* (number | "(" expression ")") postfix*) reads every maximal expression and
   writes it in the spelling of `mathtext.canonical_math` (`×`, `÷`, `^`, `sqrt(…)`); the
   order of operations is left to the diagnosis's parser, which reads that spelling;
3. answer cues pick the student's answer among the lone numbers (got, put, wrote, said,
   think, reckon, was, is, as, "=", equals, "came out as", "not Y", "Y right?", "to" after
   a rounding verb, an answer before its problem), and the problem is the expression that
   is not the answer; rounding tasks ("73975 to 1 sf") are read by their own pattern.

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
    ("to the power", "bin", "^"),
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
    ("of", "bin", "of"),
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
_ENDS = r"(?!\d|(?!x\d)[A-Za-z]|\.[A-Za-z0-9])"
_TOKEN = re.compile(
    # A standard's code (8.EE.C.7, HSA-SSE.B.3) is one word, not numbers and letters.
    r"(?P<code>\b\d{1,2}\.[A-Za-z][\w.]*|\bHS[A-Z]-[\w.]+)"
    # A mixed number (2 1/2), a fraction written tight (3/4), then a number.
    rf"|{_ALONE}(?P<mixed>\d{{1,9}} \d{{1,9}}/\d{{1,9}})(?![\d/]){_ENDS}"
    rf"|{_ALONE}(?P<frac>\d{{1,9}}/\d{{1,9}})(?!\d|\.\d){_ENDS}"
    rf"|{_ALONE}(?P<num>{_NUMBER}){_ENDS}"
    r"|(?P<pct>%\s*(?i:of)\b)"
    r"|(?P<word>[A-Za-z]+(?:'[a-z]+)?)"
    r"|(?P<arrow>->|=>|→)"
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
            number = value.replace(",", "") if group == "num" else value
            out.append(_Tok("num", "0" + number if number[0] == "." else number, start, end))
        elif group == "pct":
            out.append(_Tok("bin", "% of", start, end))
        elif group == "sym":
            kind, canon = _SYMBOL_OPS[value]
            out.append(_Tok(kind, canon, start, end))
        elif group == "punct":
            out.append(_Tok("punct", value, start, end))
        elif group == "arrow":
            out.append(_Tok("eq", "=", start, end))
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
    return _mixed(_letters(out))


def _mixed(toks: list[_Tok]) -> list[_Tok]:
    """ "3 and 1/2" is the mixed number 3 1/2."""
    out: list[_Tok] = []
    k = 0
    while k < len(toks):
        tok = toks[k]
        if (
            k + 2 < len(toks)
            and tok.kind == "num"
            and tok.text.isdigit()
            and toks[k + 1].text == "and"
            and toks[k + 2].kind == "num"
            and _PROPER.fullmatch(toks[k + 2].text)
        ):
            out.append(_Tok("num", f"{tok.text} {toks[k + 2].text}", tok.start, toks[k + 2].end))
            k += 3
            continue
        out.append(tok)
        k += 1
    return out


def _operand_end(tok: _Tok) -> bool:
    return tok.kind in ("num", "close", "post")


def _letters(toks: list[_Tok]) -> list[_Tok]:
    """An "x" is a times sign only between two operands, "of" only after a fraction ("3/5 of
    30" is 3/5 × 30); elsewhere they are words. "3 and 1/2" is the mixed number 3 1/2."""
    out = list(toks)
    for k, tok in enumerate(toks):
        if tok.said == "of":
            fraction = k > 0 and toks[k - 1].kind == "num" and "/" in toks[k - 1].text
            out[k] = (
                _Tok("bin", "×", tok.start, tok.end, "of")
                if fraction
                else _Tok("word", "of", tok.start, tok.end)
            )
            continue
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


# -- the grammar: expression := operand (bin operand)*; operand := pre* atom post* ----------

_WHOLE = re.compile(r"\d{1,9}")
_PROPER = re.compile(r"\d{1,9}/\d{1,9}")


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
        bare = text[1:-1] if _one_group(text) else text
        shown = {"neg": f"-{text}", "sqrt": f"sqrt({bare})", "half": f"{text} ÷ 2"}[name]
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


def _one_group(text: str) -> bool:
    """`text` is one bracketed group: "(7 - 2)", not "(7 - 2) × (1 + 1)"."""
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for k, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and k < len(text) - 1:
            return False
    return True


def _postfix(toks: list[_Tok], text: str, ops: int, j: int) -> tuple[str, int, int]:
    while j < len(toks) and toks[j].kind == "post":
        text, ops, j = f"{text}{toks[j].text}", ops + 1, j + 1
    return text, ops, j


def _expression(toks: list[_Tok], i: int, depth: int = 0) -> _Expr | None:
    first = _atom(toks, i, depth)
    if first is None:
        return None
    text, ops, j = first
    last = text  # the operand just read: a fraction bar joins two whole numbers
    while j + 1 < len(toks) and toks[j].kind == "bin" and j - i < _MAX_TOKENS:
        if _signed_number(toks, j):
            break
        # "x" between two numbers is times; "x" before a word is the letter (solve for x).
        right = _atom(toks, j + 1, depth)
        if right is None:
            break
        op = toks[j].text
        spaced = {"^": "^", "% of": "% of "}.get(op, f" {op} ")
        if op == "/":
            # A fraction bar between whole numbers, written tight or said ("3/4", "3 over
            # 4"); a spaced slash or one beside a decimal or fraction divides.
            bar = toks[j].said == "over" or (
                toks[j].start == toks[j - 1].end and toks[j + 1].start == toks[j].end
            )
            whole = _WHOLE.fullmatch(last) is not None and _WHOLE.fullmatch(right[0]) is not None
            spaced = "/" if bar and whole else " ÷ "
        last = right[0] if spaced != "/" else f"{last}/{right[0]}"
        text, ops, j = f"{text}{spaced}{right[0]}", ops + right[1] + 1, right[2]
    return _Expr(text, ops, i, j)


def _signed_number(toks: list[_Tok], j: int) -> bool:
    """ "(-9) + (-4) -5": a minus spaced before and tight to its number, after operators
    spaced on both sides, signs a new number (the answer), not a subtraction."""
    tok = toks[j]
    if tok.text != "-" or tok.said or j + 1 >= len(toks):
        return False
    tight_after = toks[j + 1].start == tok.end
    spaced_before = toks[j - 1].end < tok.start
    return tight_after and spaced_before and toks[j + 1].kind == "num"


def _expressions(toks: list[_Tok]) -> list[_Expr]:
    """Every maximal expression, left to right (each token read once)."""
    out: list[_Expr] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        # A minus sign starts a number where no operand stands before it ("got -7").
        signed = tok.text == "-" and (
            i == 0 or toks[i - 1].kind in ("word", "punct", "eq") or _signed_number(toks, i)
        )
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
        "reckoned", "guessed", "guess", "chose", "picked", "came", "ended", "ans",
    )
)  # fmt: skip
_WEAK = frozenset(
    ("was", "is", "as", "be", "equals", "equal", "gives", "gave", "making", "made", "make",
     "makes", "comes")
)  # fmt: skip
_FILLER = frozenset(
    (
        "it", "it's", "its", "that", "the", "answer", "was", "is", "to", "like",
        "down", "just", "out", "up", "with", "me", "i", "my", "a", "an", "of",
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


# Whose answer a cue gives: "the teacher got 18", "it says 18", "the answer is 18" give the
# answer someone else says is right, "my answer was 36" the student's.
_OTHERS = frozenset(
    ("teacher", "teachers", "book", "sheet", "key", "says", "should", "supposed", "actually",
     "correct", "real", "calculator", "mum", "dad", "sir", "miss")
)  # fmt: skip


def _cue(toks: list[_Tok], at: int, *, equals: bool = True) -> tuple[int, bool]:
    """How strongly the number at `at` reads as an answer (2 after a strong cue, 1 after a
    weak one, within two filler words; 0 otherwise), and whether it is someone else's."""
    j = at - 1
    seen = 0
    while j >= 0 and seen <= 2:
        tok = toks[j]
        if tok.kind == "eq":
            return int(equals), False
        if tok.text == ":":  # "Student answer: 2/6"
            j -= 1
            continue
        if tok.kind != "word":
            return 0, False
        if tok.text in _STRONG or tok.text in _NOT or tok.text in _WEAK or tok.text == "says":
            before = {t.text for t in toks[max(j - 3, 0) : j + 1]}
            theirs = bool(before & _OTHERS) or (tok.text == "answer" and "the" in before)
            strength = 2 if tok.text in _STRONG or tok.text in _NOT else 1
            return strength, theirs
        if tok.text not in _FILLER:
            return 0, False
        seen += 1
        j -= 1
    return 0, False


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
        task = f"round {expr.text} to " + (f"{places} dp" if places else "the nearest whole number")
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


# "73975 to 1 sf", "0.009753 rounded to 2 sig figs", "round 326 to the nearest 10"
_ROUNDING = re.compile(
    rf"(?:\bround(?:ed|ing)?\s+)?(?<![\w.])(?P<x>-?{_NUMBER})\s+(?:(?:is\s+|was\s+)?"
    r"round(?:ed)?\s+)?to\s+(?:the\s+nearest\s+(?P<near>\d[\d,]{0,12}(?:\.\d{1,9})?"
    r"|ten thousand|ten|hundred|thousand|whole\s+number|integer)"
    r"|(?P<n>\d{1,2}|one|two|three|four)\s*(?P<unit>d\.?\s?p\b\.?|decimal\s+places?"
    r"|s\.?\s?f\b\.?|sig(?:nificant)?\.?\s*fig(?:ure)?s?))",
    re.IGNORECASE,
)
_NEAREST_WORDS = {"ten": "10", "hundred": "100", "thousand": "1000", "ten thousand": "10000"}
_COUNT_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4"}


def _rounding(text: str) -> Read | None:
    """A rounding task stated with its accuracy, as `round X to N dp|sf` or `round X to the
    nearest N`."""
    m = _ROUNDING.search(text)
    if m is None:
        return None
    x = "0" + m["x"] if m["x"].startswith(".") else m["x"].replace("-.", "-0.")
    if m["near"]:
        near = " ".join(m["near"].casefold().split())
        near = _NEAREST_WORDS.get(near, near.replace(",", ""))
        if near in ("integer", "whole number"):
            near = "whole number"
        task = f"round {x} to the nearest {near}"
    else:
        unit = "dp" if m["unit"][0].casefold() == "d" else "sf"
        task = f"round {x} to {_COUNT_WORDS.get(m['n'].casefold(), m['n'])} {unit}"
    return Read(task, m.start(), m.end())


# LaTeX made plain glues "80%of300"; the reader spaces it (its spans are in this text).
_PERCENT_OF = re.compile(r"%\s*of(?=\d)", re.IGNORECASE)


def read_message(message: str) -> MessageReading:
    """Read a student's message (see the module's docstring); never raises."""
    text = _PERCENT_OF.sub("% of ", plain_text(message[:MAX_READ_CHARS]))
    toks = _tokens(text)
    words = [t.text for t in toks if t.kind == "word"]
    request = _request(words, " ".join(t.text for t in toks))
    exprs = _expressions(toks)
    algebra = _algebra(toks)
    problem: Read | None = _rounding(text)
    answer: Read | None = None
    claimed: Read | None = None
    if problem is not None:
        # The rounded number and the accuracy are the task's, not answers.
        inside = problem
        exprs = [e for e in exprs if not inside.start <= toks[e.first].start < inside.end]
    elif (rounded := _round_problem(toks, exprs)) is not None:
        problem, answer = rounded
    # "A = B" with a calculation on the left and a lone number on the right.
    for k, expr in enumerate(exprs[:-1]):
        if problem is not None or algebra:
            break
        nxt = exprs[k + 1]
        if expr.ops and not nxt.ops and nxt.first == expr.last + 1 and toks[expr.last].kind == "eq":
            problem, answer = _span(toks, expr), _span(toks, nxt)
    # A compared number ("wrote 0.04 > 0.5", "why is 3/4 bigger than 2/3") is not an answer.
    lone = [e for e in exprs if not e.ops and not _compared(toks, e)]
    if answer is None:
        # A number right after a stated task or a calculation is its answer ("is 0.009753 to
        # 2 sf 0.0097?", "is 5 + 4 x 3 60?").
        ends = {e.last for e in exprs if e.ops}
        if problem is not None:
            ends.add(next((k for k, t in enumerate(toks) if t.start >= problem.end), len(toks)))
        answer, claimed = _answers(toks, lone, ends, algebra=algebra)
    if problem is None:
        calc = [e for e in exprs if e.ops and (answer is None or e.first != _first(toks, answer))]
        problem = _span(toks, calc[0], _ungrouped(calc[0].text)) if calc else _worded(toks, exprs)
    if problem is None and answer is not None:
        # "for 250/5 I put 5": a fraction that is not the answer is the problem.
        bars = [e for e in lone if "/" in e.text and _span(toks, e) != answer]
        problem = _span(toks, bars[0]) if bars else None
    if answer is not None and problem is not None and answer.value == problem.value:
        answer = None
    if request is None and problem is not None and answer is not None:
        # Work shown with no question asked: the student wants it checked.
        request = "is_right"
    missing = tuple(name for name, got in (("problem", problem), ("answer", answer)) if got is None)
    return MessageReading(problem, answer, claimed, request, missing)


_COMPARING = frozenset(
    ("bigger", "smaller", "greater", "larger", "less", "more", "than", "higher", "lower")
)


def _compared(toks: list[_Tok], expr: _Expr) -> bool:
    """The number is compared with another, not given as an answer."""
    if expr.last >= len(toks):
        return False
    nxt = toks[expr.last]
    return nxt.kind == "cmp" or (nxt.kind == "word" and nxt.text in _COMPARING)


def _ungrouped(text: str) -> str:
    """A problem in one pair of brackets ("(0.32 × 0.8)") without them."""
    return text[1:-1] if _one_group(text) else text


def _answers(
    toks: list[_Tok], lone: list[_Expr], ends: set[int], *, algebra: bool
) -> tuple[Read | None, Read | None]:
    """The student's answer and the answer someone else says is right, among the lone
    numbers: the first with the strongest cue, else a number right after a calculation ("is
    5 + 4 x 3 60?"), else the last one checked ("15 right?"); "not Y" after a why-question
    makes Y the student's."""
    cues = {e.first: _cue(toks, e.first, equals=not algebra) for e in lone}
    for e in lone:
        # "15 is what i got": the cue after the number.
        tail = [t.text for t in toks[e.last : e.last + 4]]
        if tail[:3] == ["is", "what", "i"] and len(tail) == 4 and tail[3] in _STRONG:
            cues[e.first] = (2, False)
    theirs = [e for e in lone if cues[e.first][0] and cues[e.first][1]]
    mine = [e for e in lone if cues[e.first][0] and not cues[e.first][1]]
    best = max((cues[e.first][0] for e in mine), default=0)
    cued = [e for e in mine if cues[e.first][0] == best]
    after = [e for e in lone if e.first in ends and e not in theirs]
    checked = [e for e in lone if e.last < len(toks) and toks[e.last].text in _RIGHT | _WRONG]
    pick = cued[0] if cued else after[0] if after else checked[-1] if checked else None
    claimed = _span(toks, theirs[0]) if theirs else None
    if pick is not None and pick.first and toks[pick.first - 1].text == "not" and not claimed:
        # "why is 5 - 8 not 3": 3 is the student's; a number the message says is right, if
        # any, comes before it ("the answer is 15 not 3").
        earlier = [e for e in mine if e.first < pick.first and toks[e.first - 1].text != "not"]
        claimed = _span(toks, earlier[0]) if earlier else None
    return (_span(toks, pick) if pick is not None else None), claimed


def _first(toks: list[_Tok], read: Read) -> int:
    return next((i for i, t in enumerate(toks) if t.start == read.start), -1)
