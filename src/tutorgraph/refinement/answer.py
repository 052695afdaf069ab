"""The answer a student says they gave ("I got 2/6", "my answer was B", "1/2 + 1/4 = 2/6").

>>> stated_answer("i got 2/6 for 1/2 + 1/4 why is it wrong")
'2/6'
>>> stated_answer("i added 2/3 and 1/4 and got 3/7, why is that wrong?")
'3/7'
>>> stated_answer("1/2 + 1/4 = 2/6 why is that wrong")
'2/6'
>>> stated_answer("is 0.07 as a percentage equal to 0.7%?")
'0.7%'
>>> stated_answer("why isnt it 3/7? the question was 2/3 + 1/4")
'3/7'
>>> stated_answer("solve 2x + 3 = 7") is None
True
"""

from __future__ import annotations

import re
from bisect import bisect_left

from tutorgraph.mathtext.spans import MathSpan, math_spans

__all__ = ["stated_answer"]

_CUE = re.compile(
    r"\b(?:"
    r"i\s+(?:got|get|put|wrote|said|answered|chose|picked|keep\s+getting)"
    r"|(?:and|then|but|so)\s+(?:i\s+)?(?:got|put|wrote|ended\s+up\s+with)"
    r"|(?:my|the)\s+(?:kid|son|daughter|child|student)\s+(?:got|wrote|put|said|answered)"
    r"|my\s+answer\s*(?:was|is|:|=)"
    r"|student(?:'s)?\s+answer\s*(?:was|is|:)"
    r"|i\s+think\s+(?:it'?s|it\s+is|the\s+answer\s+is)"
    r"|\bequals?\s+to"
    r"|why\s+(?:isn'?t|is\s*not|is\s+it\s+not|not)(?:\s+it)?"
    r")(?:\s+(?:that|it\s+was|it\s+is|it'?s|the\s+answer|answer))?\s*(?:was|is|:|=)?\s*",
    re.I,
)
# "<word problem> = Y?": a student checking an answer against the question.
_CHECK = re.compile(r"\s=\s*([^=?]{1,30})\?\s*$")
_STOP = frozenset(
    "for but and because why when on in is was so then which as if or though since while".split()  # noqa: SIM905
)
_MAX_WORDS = 5
_NONBLANK = re.compile(r"\S")


def _words_after(text: str) -> str | None:
    words: list[str] = []
    # The first few words only: splitting the whole rest for each cue is quadratic.
    for raw in text.split(None, _MAX_WORDS):
        word = raw.strip("\"'“”‘’")
        end = word[-1:] in {".", ",", "?", "!", ";"}
        word = word.rstrip(".,?!;")
        if not word or word.casefold() in _STOP:
            break
        words.append(word)
        if end or len(words) == _MAX_WORDS:
            break
    return " ".join(words) or None


def _result(expression: str) -> str | None:
    """`LHS = X` with no letters on the left: X is the stated result."""
    left, eq, right = expression.rpartition(" = ")
    return right if eq and left and right and not re.search(r"[A-Za-z]", left) else None


def stated_answer(text: str, spans: list[MathSpan] | None = None) -> str | None:
    """The stated answer in plain text (see `plain_text`): math in canonical form."""
    spans = math_spans(text) if spans is None else spans
    starts = [s.start for s in spans]
    for cue in _CUE.finditer(text):
        after = cue.end()
        # The first span from the cue on is the only one that may follow it with nothing
        # but spaces between (a search, not a scan of every span for every cue).
        i = bisect_left(starts, after)
        if i < len(spans) and _NONBLANK.search(text, after, spans[i].start) is None:
            return _result(spans[i].text) or spans[i].text
        words = _words_after(text[after:])
        if words:
            return words
    result = next((r for s in spans if (r := _result(s.text))), None)
    if result is None and (end := _CHECK.search(text)):
        return end.group(1).strip()
    return result
