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
    r"i\s+(?:got|get|put|wrote|said|answered|chose|picked|keep\s+getting"
    r"|(?:ended|came)\s+up\s+with|worked\s+(?:it\s+)?out\s+(?:as|to\s+be))"
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
# Cues that give an answer only when math follows them at once: "is it 34", "so its 12",
# "so x = 2" ("is it odd or even" asks, it does not answer).
_MATH_CUE = re.compile(r"\b(?:is\s+it|so\s+(?:it'?s|it\s+is|(?=[a-z]\s*=)))\s*(?:=\s*)?", re.I)
# "equals to" answers in a yes/no check ("is 0.07 as a percentage equal to 0.7%?"), not in a
# question about why a fact holds ("why is x^2 times x^3 equal to x^5").
_EQUAL_TO = re.compile(r"equals?\s+to", re.I)
_YES_NO = re.compile(r"\s*(?:is|does|are|do)\b", re.I)
# A number the message describes ("why isnt 1 a prime") is not an answer.
_DESCRIBED = re.compile(r"\s+an?\s", re.I)
_DESCRIBED_WORD = re.compile(r"\S+\s+an?\s", re.I)
# A lone number (not a math span) after a math cue: "is it 34".
_NUMBER = re.compile(r"-?\d+(?:[.,/]\d+)*%?(?![\w/])")
# "<word problem> = Y?": a student checking an answer against the question.
_CHECK = re.compile(r"\s=\s*([^=?]{1,30})\?\s*$")
_STOP = frozenset(
    "for but and because why when on in is was so then which as if or though since while".split()  # noqa: SIM905
)
_MAX_WORDS = 5
_NONBLANK = re.compile(r"\S")
# The next word on the same line.
_LINE_WORD = re.compile(r"[^\S\n]*(\S+)")
# What a message's cue words are when they are no answer: "i got confused", "i wrote it
# down wrong", "i chose to start with the brackets", "my answer is right".
_NO_ANSWER_WORDS = frozenset(
    ("it", "i", "me", "my", "you", "them", "him", "her", "us", "we", "to", "about", "confused",
     "stuck", "lost", "lots", "right", "wrong", "correct", "incorrect", "in", "on", "down",
     "up", "off", "out", "so", "too", "that", "there", "some", "something", "nothing",
     "really", "kind", "sort", "mixed", "muddled", "help", "a", "an", "the")
)  # fmt: skip
# ... unless the first word ("a", "the") starts a named answer: "A right angle", "The same
# length"; these start none.
_NO_ANSWER_PAIRS = frozenset(
    ("a lot", "a new", "a bit", "a little", "an idea", "the first", "the second", "the last",
     "the hang", "the question", "the answer", "a question", "the wrong", "the right",
     "one wrong", "one right", "one mistake", "one of")
)  # fmt: skip
_ARTICLES = frozenset(("a", "an", "the", "one"))
# An algebra answer given as more than one value: "x = 2 or 3", "x = 3 and y = 1".
_ALSO = re.compile(
    r"\s+(or|and)\s+((?:[A-Za-z]\s*=\s*)?-?\d+(?:[./]\d+)?)(?![\w/.])(?!\s*[-+*/×÷^=(])"
)
# "is it 6 + x or 6 + 3x": a question between two answers gives neither.
_OR = re.compile(r"\s+or\b", re.I)
_LETTERS = re.compile(r"[A-Za-z]")
# A solved unknown, "x = 4": an answer even alone in a message.
_SOLVED = re.compile(r"[A-Za-z]\s*=\s*-?\d+(?:[./]\d+)?")
# A term alone on a line after the first ("simplify 4a + 2a" then "6a").
_TERM_LINE = re.compile(r"^[ \t]*(-?\d+(?:\.\d+)?[a-z](?:\^\d+)?)[ \t]*[?!.]*[ \t]*$", re.M)
# What a bare answer's line may hold besides its answer.
_HEDGES = re.compile(r"(?:\s|[?!.,]|\b(?:i\s+think|maybe|probably|umm*|so|i\s+guess)\b)*", re.I)


def _words_after(text: str, pos: int) -> str | None:
    """The first few words of the line from `pos` on, each read whole (a 1,970-digit number
    is one word): a search word by word, as splitting the whole rest for each cue is
    quadratic, and no cap on characters, which would cut a long word short."""
    words: list[str] = []
    while len(words) < _MAX_WORDS and (m := _LINE_WORD.match(text, pos)) is not None:
        pos = m.end()
        word = m[1].strip("\"'“”‘’")
        end = word[-1:] in {".", ",", "?", "!", ";"}
        word = word.rstrip(".,?!;")
        if not word or word.casefold() in _STOP:
            break
        words.append(word)
        if end:
            break
    return " ".join(words) or None


def _answer_words(words: str) -> bool:
    """Whether a cue's words may be a worded answer ("Acute", "Only Tom", "The same
    length") rather than the rest of a sentence ("confused", "it down wrong")."""
    first, _, rest = words.casefold().partition(" ")
    if first not in _NO_ANSWER_WORDS:
        return True
    pair = f"{first} {rest.partition(' ')[0]}"
    return first in _ARTICLES and bool(rest) and pair not in _NO_ANSWER_PAIRS


def _algebra_answer(text: str, span: MathSpan) -> tuple[str, int]:
    """The answer a span starts, with its other values when it is algebra ("x = 2 or 3"),
    and where it ends."""
    out, pos = span.text, span.end
    if not _LETTERS.search(span.text):
        return out, pos
    while (also := _ALSO.match(text, pos)) is not None:
        out, pos = f"{out} {also[1]} {also[2]}", also.end()
    return out, pos


def _bare_algebra(text: str, spans: list[MathSpan], start: int) -> str | None:
    """An algebra answer alone on a line (with hedges): a solved unknown ("x = 2 or 3")
    anywhere, an expression ("3x + 4") on a line after the first."""
    first_line_end = text.find("\n")
    for span in spans:
        if span.start < start or not _LETTERS.search(span.text):
            continue
        solved = _SOLVED.fullmatch(span.text) is not None
        later = first_line_end != -1 and span.start > first_line_end
        if not solved and ("=" in span.text or not later):
            continue
        line_start = text.rfind("\n", 0, span.start) + 1
        if not _HEDGES.fullmatch(text, line_start, span.start):
            continue  # not the first thing on its line (and so its values are read once)
        answer, end = _algebra_answer(text, span)
        line_end = len(text) if (e := text.find("\n", end)) == -1 else e
        if _HEDGES.fullmatch(text, end, line_end):
            return answer
    if (first_line_end := text.find("\n", start)) != -1:
        term = _TERM_LINE.search(text, first_line_end + 1)
        return term[1] if term is not None else None
    return None


def _result(expression: str) -> str | None:
    """`LHS = X` with no letters on the left: X is the stated result."""
    left, eq, right = expression.rpartition(" = ")
    return right if eq and left and right and not re.search(r"[A-Za-z]", left) else None


def stated_answer(
    text: str,
    spans: list[MathSpan] | None = None,
    *,
    start: int = 0,
    results: bool = True,
    worksheet: bool = False,
) -> str | None:
    """The stated answer in plain text (see `plain_text`): math in canonical form. Only what
    comes from `start` on is read (before it: the problem, whose numbers are never the
    answer); `results`: whether "A = X" states X as the answer (not in "why does 1/2 = 2/4").
    A `worksheet` labels its answers ("Student answer: [image: A column addition ...]"):
    only the worded cues read it, none of a message's rules for what is no answer ("why
    isnt 1 a prime", "is it odd"), which cost the text-only ranker its labelled image
    answers (issue 59).

    >>> stated_answer("i got a 72 on my first test whats my average", start=28) is None
    True
    >>> stated_answer("Student answer: [image: A shaded bar]", worksheet=True)
    '[image: A shaded bar]'
    """
    spans = math_spans(text) if spans is None else spans
    starts = [s.start for s in spans]

    def span_after(after: int) -> MathSpan | None:
        # The first span from the cue on is the only one that may follow it with nothing
        # but spaces between (a search, not a scan of every span for every cue).
        i = bisect_left(starts, after)
        if i < len(spans) and _NONBLANK.search(text, after, spans[i].start) is None:
            return spans[i]
        return None

    cues = sorted(
        [(c, True) for c in _CUE.finditer(text, start)]
        + ([] if worksheet else [(c, False) for c in _MATH_CUE.finditer(text, start)]),
        key=lambda c: c[0].start(),
    )
    message = not worksheet
    for cue, worded in cues:
        if message and _EQUAL_TO.match(cue[0]) and not _YES_NO.match(text):
            continue
        span = span_after(cue.end())
        if message and span is not None and _DESCRIBED.match(text, span.end):
            continue
        if span is not None and not worded and message and _OR.match(text, span.end):
            continue
        if span is not None:
            return _result(span.text) or _algebra_answer(text, span)[0]
        if not worded:
            if number := _NUMBER.match(text, cue.end()):
                return number[0]
            continue
        if message and _DESCRIBED_WORD.match(text, cue.end()):
            continue
        if (words := _words_after(text, cue.end())) and (worksheet or _answer_words(words)):
            return words
    if message and (bare := _bare_algebra(text, spans, start)) is not None:
        return bare
    if not results:
        return None
    result = next((r for s in spans if s.start >= start and (r := _result(s.text))), None)
    if result is None and (end := _CHECK.search(text, start)):
        return end.group(1).strip()
    return result
