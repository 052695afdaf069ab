"""The Eedi pairs: questions of `train.csv` whose text is a pure calculation and whose
labelled wrong option is a single number.

The calculation is extracted from the LaTeX and kept only when it evaluates to the
question's own correct option (the extraction is checked against Eedi's key); a pair is
dropped, and counted by reason, when it is not clean.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

from .problems import Bin, Frac, Item, Mixed, Neg, Node, Num, Pow, Round, Sqrt, parse, value
from .render import SMALL_WORDS

__all__ = ["eedi_items"]

_NUMBER_WORDS = {w: str(i) for i, w in enumerate(SMALL_WORDS)}
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
