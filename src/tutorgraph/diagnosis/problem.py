"""The arithmetic problem in a request, a student's message or an Eedi question.

Students write the problem as math ("10 - 4 / 2", LaTeX, Unicode) or in words ("i added 2/3
and 1/4"). `find_problem` returns it in the canonical spelling of `math_spans`, or None;
it never raises.

>>> find_problem("i added 2/3 and 1/4 and got 3/7, why is that wrong?")
'2/3 + 1/4'
>>> find_problem("I worked out 10 - 4 / 2 as 3", student_answer="3")
'10 - 4/2'
>>> find_problem(r"Work out: \\( \\frac{4}{11}+\\frac{7}{11} \\) in its simplest form")
'4/11 + 7/11'
>>> find_problem("what is a fraction?") is None
True
"""

from __future__ import annotations

import re

from tutorgraph.diagnosis.diagnose import WORDED_KINDS
from tutorgraph.diagnosis.expression import BinOp, Neg, Num, parse
from tutorgraph.mathtext.spans import canonical_math, math_spans, plain_text

__all__ = ["find_problem"]

_NUM = r"-?\d+(?:\.\d+)?(?:/\d+)?"
# "added 2/3 and 1/4", "subtract 3 from 10", "multiplied 0.6 by 0.2", "divided 6 by -3"
_WORDS = re.compile(
    rf"\b(?P<verb>add(?:ed|ing)?|subtract(?:ed|ing)?|multipl(?:y|ied|ying)|divid(?:e|ed|ing))"
    rf"\s+(?P<a>{_NUM})\s+(?P<link>and|to|from|by)\s+(?P<b>{_NUM})",
    re.I,
)
# Text longer than this is not a problem statement worth reading.
MAX_TEXT = 2000


# "triple 8", "double 3.5", "square 7", "halve 18"
_ONE_NUMBER = re.compile(
    rf"\b(?P<verb>double|triple|halve|square|cube)\s+(?:of\s+)?(?P<a>{_NUM})\b", re.I
)
_ONE_NUMBER_FORMS = {
    "double": "2 × {}",
    "triple": "3 × {}",
    "halve": "{} ÷ 2",
    "square": "{}^2",
    "cube": "{}^3",
}


def _from_words(text: str) -> str | None:
    if (one := _ONE_NUMBER.search(text)) is not None:
        return canonical_math(_ONE_NUMBER_FORMS[one["verb"].casefold()].format(one["a"]))
    m = _WORDS.search(text)
    if m is None:
        return None
    verb, a, b, link = m["verb"].casefold(), m["a"], m["b"], m["link"].casefold()
    if verb.startswith("add"):
        expression = f"{a} + {b}"
    elif verb.startswith("subtract"):
        expression = f"{b} - {a}" if link == "from" else f"{a} - {b}"
    elif verb.startswith("multipl"):
        expression = f"{a} × {b}"
    else:
        expression = f"{a} ÷ {b}"
    return canonical_math(expression)


def _is_calculation(text: str) -> bool:
    tree = parse(text)
    while isinstance(tree, Neg):
        tree = tree.operand
    if not isinstance(tree, BinOp):
        return False
    # A lone fraction is a number, not a calculation.
    return not (tree.op == "/" and isinstance(tree.left, Num) and isinstance(tree.right, Num))


def find_problem(text: str, *, student_answer: str | None = None) -> str | None:
    """The first calculation in `text` that is not the student's answer, or None."""
    if not text or len(text) > MAX_TEXT:
        return None
    try:
        plain = plain_text(text)
        for read, _ in WORDED_KINDS:
            if (found := read(plain)) is not None:
                return str(found.text)
        if (worded := _from_words(plain)) is not None:
            return worded
        answer = canonical_math(student_answer) if student_answer else None
        for span in math_spans(plain):
            candidate = span.text.partition("=")[0].strip()
            if candidate and candidate != answer and _is_calculation(candidate):
                return candidate
    except (ValueError, IndexError, RecursionError, ArithmeticError):
        return None
    return None
