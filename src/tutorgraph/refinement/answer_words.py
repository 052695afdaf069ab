"""Answers that are words, not numbers: a multiple-choice letter ("I chose B", "i put c",
"answer: D") and a verdict on two options ("neither is right", "both are correct").

A letter is read as its capital. A verdict is read as one word, `both` (both options are
right) or `neither` (none is), in the student's own case where they wrote that word ("i
put Both"); "they're both wrong" is `neither`. Neither is a number: the diagnosis reads no
value from it, so a packet's answer check never calls it right or wrong. A question about
the options ("are both right?", "is it A or B?") states no answer.

>>> word_answer("i put c"), word_answer("they're both wrong"), word_answer("is it A or B?")
('C', 'neither', None)
"""

from __future__ import annotations

import re

__all__ = ["word_answer"]

# What may follow an answer's letter: the end, punctuation or the next clause.
_AFTER = (
    r"(?=\s*(?:$|[.,!?;:)]|\s(?:but|because|cuz|coz|for|on|and|since|as|then|though"
    r"|i|not|which|was|is|in)\b))"
)
_LETTER = re.compile(
    r"\b(?:i\s+(?:chose|choose|picked|pick|put|said|wrote|answered|circled|ticked|selected"
    r"|got|went\s+(?:with|for)|think(?:\s+(?:it'?s|it\s+is|it\s+was))?|guess|reckon)"
    r"|(?:my|the)\s+answer\s*(?:is|was|:|=|would\s+be)?|answer\s*:"
    r"|is\s+it|is\s+the\s+answer|could\s+it\s+be|it'?s)"
    r"\s*(?:(?:option|answer|choice|box|letter|number)\s+)?\(?(?P<letter>[a-e])\)?" + _AFTER,
    re.IGNORECASE,
)
_BARE_LETTER = re.compile(r"^[ \t]*\(?(?P<letter>[a-e])\)?[ \t]*[?!.]*[ \t]*$", re.I | re.M)

_RIGHT = r"(?:right|correct|true)"
_WRONG = r"(?:wrong|incorrect|false)"
_CUE = (
    r"(?:i\s+(?:said|put|chose|picked|answered|wrote|think|thought|reckon|guess|went\s+with"
    r"|went\s+for)|my\s+answer\s+(?:was|is|:)|is\s+it|i\s+think\s+(?:it'?s|it\s+is))"
)
_VERDICTS = (
    # "both are correct", "they're both wrong", "both of them were right"
    re.compile(
        r"(?:^|[.!?,;]\s*|\b(?:i\s+(?:said|put|think|thought|reckon|guess)|so)\s+(?:that\s+)?)"
        r"(?:they(?:'re|\s+are|\s+were)\s+)?(?P<word>both)(?:\s+of\s+them|\s+answers)?"
        rf"(?:\s+(?:are|were|is))?\s+(?P<judged>{_RIGHT}|{_WRONG})\b",
        re.I | re.M,
    ),
    # "neither is right", "neither of them is correct", "neither tom nor jo is right"
    re.compile(
        r"\b(?P<word>neither)(?:\s+of\s+them|\s+one|\s+\w+\s+nor\s+\w+)?"
        rf"\s+(?:is|are|was|were)\s+{_RIGHT}\b",
        re.I,
    ),
    # "i said both", "i picked neither", "is it neither?"
    re.compile(
        rf"\b{_CUE}\s+(?:that\s+)?(?P<word>both|neither)\b(?!\s+of\s+(?:my|the|us|you))", re.I
    ),
    # A line that is only the verdict: "both?"
    re.compile(r"^[ \t]*(?P<word>both|neither)[ \t]*[?!.]*[ \t]*$", re.I | re.M),
)
_ASKING = frozenset(("are", "is", "can", "could", "do", "does", "would", "should", "were"))
_WRONG_AFTER = re.compile(rf"(?:\s+\w+){{0,3}}?\s+{_WRONG}\b", re.I)


def _lines_ok(text: str, start: int) -> bool:
    """A bare answer's line is the whole message or a line after the first."""
    return "\n" not in text.strip() or "\n" in text[:start]


def _asked(text: str, at: int) -> bool:
    """The verdict's word at `at` follows a question's opening verb ("are both right?")."""
    before = re.split(r"[.!?\n]", text[max(0, at - 24) : at])[-1].split()
    return len(before) == 1 and before[0].casefold() in _ASKING


def _verdict(text: str) -> str | None:
    for pattern in _VERDICTS:
        for m in pattern.finditer(text):
            if _asked(text, m.start("word")):
                continue  # "are both right?" asks
            if pattern is _VERDICTS[-1] and not _lines_ok(text, m.start()):
                continue
            word = m["word"]
            judged = m.groupdict().get("judged")
            wrong = judged is not None and re.fullmatch(_WRONG, judged, re.I) is not None
            if judged is None and word.casefold() == "both":
                wrong = _WRONG_AFTER.match(text, m.end()) is not None
            if wrong:
                return "neither" if word.casefold() == "both" else None
            return word
    return None


def word_answer(text: str) -> str | None:
    """The choice letter (a capital) or the verdict (`both`, `neither`) a message gives as
    the student's answer, or None (see the module's docstring); linear in the text."""
    if (m := _LETTER.search(text)) is not None:
        return m["letter"].upper()
    for m in _BARE_LETTER.finditer(text):
        if _lines_ok(text, m.start()):
            return m["letter"].upper()
    return _verdict(text)
