"""Math in a student's words, as tokens and expressions: "7 - 2 x 3", "3 squared", "half
of 18", "2 1/2 times 4", "the square root of 16".

One regular expression (linear) tokenizes numbers (fractions, mixed numbers, "3 and 1/2",
".5"), operator symbols and operator words; a small grammar (expression := operand
(operator operand)*; operand := prefix* (number | "(" expression ")") postfix*) reads every
maximal expression and writes it in the spelling of `mathtext.canonical_math` (`×`, `÷`,
`^`, `sqrt(…)`). The order of operations is left to the diagnosis's parser, which reads
that spelling. Used by the message reader (`reader.py`).

>>> [e.text for e in expressions(tokens("for 7 - 2 x 3 I put 15"))]
['7 - 2 × 3', '15']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["NUMBER", "Expr", "Tok", "expressions", "one_group", "signed_number", "tokens"]

# Tokens an expression may hold (a school calculation, not a stress test).
_MAX_TOKENS = 40

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
NUMBER = r"(?:\d{1,15}(?:,\d{3})*(?:\.\d{1,15})?|\.\d{1,15})"
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
    rf"|{_ALONE}(?P<num>{NUMBER}){_ENDS}"
    r"|(?P<pct>%\s*(?i:of)\b)"
    r"|(?P<word>[A-Za-z]+(?:'[a-z]+)?)"
    r"|(?P<arrow>->|=>|→)"
    r"|(?P<sym>[-+*×·÷/^√²³%()=−–<>≤≥])"
    r"|(?P<punct>[?!.,;:])",
)
_PHRASES = {tuple(w.split()): (kind, canon) for w, kind, canon in _WORD_OPS}
_MAX_PHRASE = max(len(p) for p in _PHRASES)


@dataclass(frozen=True)
class Tok:
    kind: str  # num, bin, pre, post, open, close, eq, word, punct
    text: str  # canonical for operators and numbers, lower case for words
    start: int
    end: int
    said: str = ""  # an operator word as written, lower case ("add", "times")


def tokens(text: str) -> list[Tok]:
    raw = [(m.lastgroup or "", m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]
    out: list[Tok] = []
    i = 0
    while i < len(raw):
        group, value, start, end = raw[i]
        if group in ("mixed", "frac", "num"):
            number = value.replace(",", "") if group == "num" else value
            out.append(Tok("num", "0" + number if number[0] == "." else number, start, end))
        elif group == "pct":
            out.append(Tok("bin", "% of", start, end))
        elif group == "sym":
            kind, canon = _SYMBOL_OPS[value]
            out.append(Tok(kind, canon, start, end))
        elif group == "punct":
            out.append(Tok("punct", value, start, end))
        elif group == "arrow":
            out.append(Tok("eq", "=", start, end))
        elif group == "code":
            out.append(Tok("word", value.lower(), start, end))
        else:
            # The longest operator phrase that starts here, else a plain word.
            for n in range(min(_MAX_PHRASE, len(raw) - i), 0, -1):
                words = raw[i : i + n]
                if any(g != "word" for g, *_ in words):
                    continue
                hit = _PHRASES.get(tuple(w.lower() for _, w, _, _ in words))
                if hit is not None:
                    said = " ".join(w.lower() for _, w, _, _ in words)
                    out.append(Tok(hit[0], hit[1], start, words[-1][3], said))
                    i += n
                    break
            else:
                out.append(Tok("word", value.lower(), start, end))
                i += 1
            continue
        i += 1
    return _mixed(_letters(out))


def _mixed(toks: list[Tok]) -> list[Tok]:
    """ "3 and 1/2" is the mixed number 3 1/2."""
    out: list[Tok] = []
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
            out.append(Tok("num", f"{tok.text} {toks[k + 2].text}", tok.start, toks[k + 2].end))
            k += 3
            continue
        out.append(tok)
        k += 1
    return out


def _operand_end(tok: Tok) -> bool:
    return tok.kind in ("num", "close", "post")


def _letters(toks: list[Tok]) -> list[Tok]:
    """An "x" is a times sign only between two operands, "of" only after a fraction ("3/5 of
    30" is 3/5 × 30); elsewhere they are words. "3 and 1/2" is the mixed number 3 1/2."""
    out = list(toks)
    for k, tok in enumerate(toks):
        if tok.said == "of":
            fraction = k > 0 and toks[k - 1].kind == "num" and "/" in toks[k - 1].text
            out[k] = (
                Tok("bin", "×", tok.start, tok.end, "of")
                if fraction
                else Tok("word", "of", tok.start, tok.end)
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
            out[k] = Tok("word", "x", tok.start, tok.end)
    return out


# -- the grammar: expression := operand (bin operand)*; operand := pre* atom post* ----------

_WHOLE = re.compile(r"\d{1,9}")
_PROPER = re.compile(r"\d{1,9}/\d{1,9}")


@dataclass(frozen=True)
class Expr:
    text: str
    ops: int  # operators read (0: a lone number)
    first: int  # token index range [first, last)
    last: int


def _atom(toks: list[Tok], i: int, depth: int) -> tuple[str, int, int] | None:
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
        bare = text[1:-1] if one_group(text) else text
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


def one_group(text: str) -> bool:
    """`text` is one bracketed group: "(7 - 2)", not "(7 - 2) × (1 + 1)"."""
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for k, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and k < len(text) - 1:
            return False
    return True


def _postfix(toks: list[Tok], text: str, ops: int, j: int) -> tuple[str, int, int]:
    while j < len(toks) and toks[j].kind == "post":
        # A percentage ("16%") is a number; a square or a cube is an operation.
        text, ops, j = f"{text}{toks[j].text}", ops + (toks[j].text != "%"), j + 1
    return text, ops, j


def _expression(toks: list[Tok], i: int, depth: int = 0) -> Expr | None:
    first = _atom(toks, i, depth)
    if first is None:
        return None
    text, ops, j = first
    last = text  # the operand just read: a fraction bar joins two whole numbers
    while j + 1 < len(toks) and toks[j].kind == "bin" and j - i < _MAX_TOKENS:
        if signed_number(toks, j):
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
    return Expr(text, ops, i, j)


def signed_number(toks: list[Tok], j: int) -> bool:
    """ "(-9) + (-4) -5": a minus spaced before and tight to its number, after operators
    spaced on both sides, signs a new number (the answer), not a subtraction."""
    tok = toks[j]
    if tok.text != "-" or tok.said or j + 1 >= len(toks):
        return False
    tight_after = toks[j + 1].start == tok.end
    spaced_before = toks[j - 1].end < tok.start
    return tight_after and spaced_before and toks[j + 1].kind == "num"


def expressions(toks: list[Tok]) -> list[Expr]:
    """Every maximal expression, left to right (each token read once)."""
    out: list[Expr] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        # A minus sign starts a number where no operand stands before it ("got -7").
        signed = tok.text == "-" and (
            i == 0 or toks[i - 1].kind in ("word", "punct", "eq") or signed_number(toks, i)
        )
        expr = _expression(toks, i) if tok.kind in ("num", "pre", "open") or signed else None
        if expr is None:
            i += 1
            continue
        out.append(expr)
        i = max(expr.last, i + 1)
    return out
