"""Numbers a student writes in words ("seven", "twenty-one", "a hundred and twenty", "three
quarters", "negative four"), written in digits where they stand as an answer.

The message reader reads digits; `spell_answers` rewrites a number said in words right
after an answer's cue ("i got seven", "the answer is twenty-one", "maybe forty") or alone
on a line, so that the reader's cues read it as they read "7". A number word elsewhere
("two angles make a straight line", "which one is right") is left as it is: it is no
answer, and the story reader (`refinement.story`) reads a story's number words itself.

>>> spell_answers("i got twenty-one for 3 x 7")
'i got 21 for 3 x 7'
>>> spell_answers("i think its three quarters"), spell_answers("which one is right")
('i think its 3/4', 'which one is right')
"""

from __future__ import annotations

import re

__all__ = ["number_value", "spell_answers"]

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
# A fraction's denominator in words: "three quarters", "two thirds", "a half".
_PARTS = {
    "half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
    "fourth": 4, "fourths": 4, "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6,
    "seventh": 7, "sevenths": 7, "eighth": 8, "eighths": 8, "ninth": 9, "ninths": 9,
    "tenth": 10, "tenths": 10,
}  # fmt: skip
_NEGATIVE = frozenset(("negative", "minus"))
_WORD = re.compile(r"[A-Za-z]+")


def _whole(words: list[str]) -> tuple[int, int] | None:
    """The whole number the words start with, and how many words it takes ("a hundred and
    twenty" is 120 in 4 words); None when they start with none."""
    total = current = 0
    used = 0
    seen = False
    k = 0
    while k < len(words):
        word = words[k]
        if word in _UNITS or word in _TENS:
            if seen and current % 100 and (word in _TENS or current % 10 or current < 20):
                break  # "twenty five six": the number ended
            current += _UNITS.get(word, 0) + _TENS.get(word, 0)
        elif word in _SCALES and (seen or (k and words[k - 1] == "a")):
            current = max(current, 1) * _SCALES[word]
            if _SCALES[word] > 100:
                total, current = total + current, 0
        elif word == "a" and not seen and k + 1 < len(words) and words[k + 1] in _SCALES:
            k += 1
            continue
        elif word == "and" and seen and k + 1 < len(words) and words[k - 1] in _SCALES:
            nxt = words[k + 1]
            if nxt not in _UNITS and nxt not in _TENS:
                break
            k += 1
            continue
        else:
            break
        seen = True
        k += 1
        used = k
    return (total + current, used) if seen else None


def number_value(words: list[str]) -> tuple[str, int] | None:
    """The number that `words` (lower case) start with, in digits, and how many words it
    takes: a whole number, a negative one, or a fraction ("three quarters" is 3/4).

    >>> number_value(["a", "hundred", "and", "twenty", "cookies"])
    ('120', 4)
    >>> number_value(["two", "thirds"]), number_value(["a", "half"]), number_value(["idk"])
    (('2/3', 2), ('1/2', 2), None)
    """
    sign, skip = ("-", 1) if words[:1] and words[0] in _NEGATIVE else ("", 0)
    rest = words[skip:]
    if len(rest) >= 2 and rest[0] == "a" and rest[1] in _PARTS and rest[1] not in ("halves",):
        return f"{sign}1/{_PARTS[rest[1]]}", skip + 2
    whole = _whole(rest)
    if whole is None:
        return None
    value, used = whole
    if used < len(rest) and rest[used] in _PARTS and 0 < value < 20:
        return f"{sign}{value}/{_PARTS[rest[used]]}", skip + used + 1
    return f"{sign}{value}", skip + used


# The words after which a number is an answer ("i got seven", "is it forty", "maybe
# twelve"): the reader's cues decide whose it is and whether it is one.
_CUES = frozenset(
    (
        "got", "get", "getting", "put", "wrote", "said", "say", "says", "answered",
        "answer", "think", "thought", "reckon", "guess", "guessing", "chose", "picked", "is",
        "was", "it's", "its", "be", "maybe", "probably", "possibly", "perhaps", "with", "as",
        "to", "equals", "makes", "gives", "thats", "it",
    )
)  # fmt: skip
# "one" is read only where its clause ends after it ("i got one wrong" is a count of
# mistakes, "i think it's one of them" no answer), a number starting a line only where the
# line does ("seven?"; "two angles make a line" is a problem).
_CLAUSE_END = frozenset(
    ("but", "for", "because", "cuz", "and", "so", "right", "is", "i", "on", "not", "or",
     "then", "maybe", "since", "when", "im", "i'm", "as")
)  # fmt: skip
_ENDS = frozenset(("?", "!", ".", ",", ";", "\n"))
_TOKEN = re.compile(r"[A-Za-z]+(?:'[a-z]+)?|\d|=|:|\n|[?!.,;]")


# A question about writing numbers in words: its answers are words ("two hundred and four").
_IN_WORDS = re.compile(r"\bin\s+words\b|\bword\s+form\b|\bwritten\s+(?:out|in\s+full)\b", re.I)


def spell_answers(text: str) -> str:
    """`text` with each number said in words after an answer's cue, or starting a line,
    written in digits (see the module's docstring), unless the text asks for a number in
    words; linear in the text."""
    if _IN_WORDS.search(text):
        return text
    found = [(m.group().casefold(), m.start(), m.end()) for m in _TOKEN.finditer(text)]
    out: list[str] = []
    done = 0
    k = 0
    while k < len(found):
        word, start, _ = found[k]
        before = found[k - 1][0] if k else "\n"
        starts = before in _CUES or before in ("=", ":", "\n")
        read = number_value([w for w, _, _ in found[k : k + 8]]) if starts else None
        if read is None or not _WORD.fullmatch(word):
            k += 1
            continue
        value, used = read
        if used == 0:
            k += 1
            continue
        after = found[k + used][0] if k + used < len(found) else ""
        # "one" must end its clause, a number starting a line its line ("seven?") or say
        # what it is ("eighteen is what i got").
        ends = _ENDS if before == "\n" else _ENDS | _CLAUSE_END
        said = [w for w, _, _ in found[k + used : k + used + 2]] in (
            ["is", "what"],
            ["was", "what"],
        )
        loose = (word == "one" and used == 1) or before == "\n"
        if loose and after and after not in ends and not said:
            k += 1
            continue
        out += [text[done:start], value]
        done = found[k + used - 1][2]
        k += used
    out.append(text[done:])
    return "".join(out)
