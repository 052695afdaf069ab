"""What a student's reply to a tutor's question states as its answer, read from the reply
alone (a tutor's turn is never read for one): the choice it makes among the question's
(`choice_answer`), an answer in a form of its own (`form_answer`: "23 r 3", "2 to 3",
"4.5 x 10^4"), the number it ends on after a correction or a worked result (`final_answer`),
a word for a question without numbers (`word_answer`) and a short reply's last number
(`bare_answer`). `retrieval/facts.py` asks them in that order, after the message reader, for
a turn that answers a problem of the dialogue (`refinement/dialogue.py`). Word rules, chosen
on the development dialogues of `bench dialogue`, never its held-out third.

>>> form_answer("by 3 so 2 to 3", "Write the ratio of 6 to 9 in simplest form.")
'2 to 3'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tutorgraph.mathtext.spans import plain_text
from tutorgraph.refinement.expressions import tokens
from tutorgraph.refinement.reader import read_message

# A sentence's end: ". ? !" and the spaces after it, or a line break.
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+|\n+")

__all__ = [
    "BARE_ANSWER_WORDS",
    "WORD_ANSWER_WORDS",
    "bare_answer",
    "choice_answer",
    "final_answer",
    "form_answer",
    "is_option",
    "offers_choice",
    "word_answer",
]

# A reply this short that asks nothing gives its last number as its answer (`bare_answer`).
BARE_ANSWER_WORDS = 8
_ASKING = frozenset(("why", "how", "what", "whats", "what's", "which", "when", "where", "who"))
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


def bare_answer(turn: str) -> str | None:
    """The answer a short reply to a tutor's question gives when the message reader reads
    none in it ("oh 56", "3 so 13", "carry it... 473"): its last number; None for a reply
    that asks (why, how, what ...), runs over `BARE_ANSWER_WORDS` words or states a
    calculation ("so 4 x 2": working, not an answer). The facts step
    asks only of a turn that is no help request and answers a problem of the dialogue.

    >>> bare_answer("oh so 85 lol"), bare_answer("why do we add 7")
    ('85', None)
    """
    plain = _GLUED_UNIT.sub(" ", _UNIT_POWER.sub("", plain_text(turn)))  # "2.5m": 2.5 m
    words = _WORD.findall(plain.lower())
    if len(words) > BARE_ANSWER_WORDS or any(w in _ASKING for w in words):
        return None
    if read_message(turn).problem is not None:
        return None  # working ("so 4 x 2"), not an answer
    if times := _TIME.findall(plain):
        return str(times[-1])  # "12:03", "7:30?"
    numbers = [t.text for t in tokens(plain) if t.kind == "num"]
    if not numbers:
        return None
    last = numbers[-1]
    # The tokens carry no sign: "-24" alone (or after a space) is negative, "5-3" is not.
    return f"-{last}" if re.search(rf"(?:^|[\s(])-\s?{re.escape(last)}\b", plain) else last


_GLUED_UNIT = re.compile(r"(?<=\d)(?=[a-z]{1,3}\b)", re.IGNORECASE)
# A clock time ("12:03", "7:30").
_TIME = re.compile(r"\b\d{1,2}:\d{2}\b")
# The choices a question offers: "odd or even", "a square or a triangle", "4 cats or 7 dogs",
# "2/3 or 3/5".
_CHOICE = re.compile(
    r"([\w/.\-]+)\s+or\s+(?:(?:a|an|the)\s+)?(?:\d+\s+(?=[a-z]))?([\w/.\-]+)", re.IGNORECASE
)
_LISTED = re.compile(r"((?:[a-z]+,\s*)+)[a-z]+,?\s+or\s+[a-z]+", re.IGNORECASE)
_YES_NO = re.compile(r"^\s*(?:is|are|does|do|did|can|could|will|would|was|were)\b", re.I)


def choice_answer(turn: str, problem: str) -> str | None:
    """The choice a short reply makes among those the problem's question offers ("odd or
    even?", "which is bigger, 2/3 or 3/5?", a yes-or-no question): the one choice the reply
    names, else None (none, or both).

    >>> choice_answer("theres one left over so odd", "Is 17 odd or even?")
    'odd'
    >>> choice_answer("3/5 bc 5 is bigger", "Which is bigger, 2/3 or 3/5?")
    '3/5'
    >>> choice_answer("yes it is", "Is 0.25 the same as 25/100?")
    'yes'
    """
    asked = plain_text(problem).strip().rstrip("?.! ")
    said = plain_text(turn).lower()
    letters = _LETTER_OPTION.findall(asked)
    if len(letters) >= 2:
        # Lettered options ("a) 3 b) 6 c) 72"): the letter the reply starts or ends with
        # ("a obviously, am i a genius or what").
        picked = _LETTER_PICK.search(said)
        if picked is not None and (letter := picked["first"] or picked["last"]) in letters:
            return letter
    words = _WORD.findall(said)
    if len(words) > BARE_ANSWER_WORDS or any(w in _ASKING for w in words):
        return None
    choices = [c.lower().strip(".") for m in _CHOICE.finditer(asked) for c in m.groups()]
    # "acute, right, or obtuse": the options of a list before its "or".
    choices += [c for m in _LISTED.finditer(asked) for c in re.split(r",|\bor\b", m[0].lower())]
    choices = [c.strip() for c in choices]
    named = _named(choices, said)
    sentences = _SENTENCE_END.split(plain_text(problem))
    # The question's last sentence that asks; a student's own asks without a "?" ("ok new
    # question. is 500 + 300 the same as 8 hundreds").
    asks = [q for q in sentences if q.rstrip().endswith("?")] or sentences
    if not named and _YES_NO.match(asks[-1]):
        named = _named(["yes", "no"], _YES_WORDS.sub("yes", _NO_WORDS.sub("no", said)))
    return named.pop() if len(named) == 1 else None


def _named(choices: Sequence[str], said: str) -> set[str]:
    return {c for c in choices if re.search(rf"(?<![\w/.]){re.escape(c)}(?![\w/])", said)}


# A lettered option in a question ("(a) 3/8", "b) 6") and a reply that picks one ("a cuz 8
# is bigger", "so b", "b then").
_LETTER_OPTION = re.compile(r"(?:^|\s)\(?([a-d])\)\s")
_LETTER_PICK = re.compile(
    r"^\s*(?P<first>[a-d])\b(?!')(?:\s|[.!?]|$)|(?:^|\s)(?P<last>[a-d])\s*[.!?]*\s*$"
)
_YES_WORDS = re.compile(r"\b(?:ya|yah|yeah|yea|yep|yup|yess+)\b")
_NO_WORDS = re.compile(r"\b(?:nope|nah|naw)\b")

# Answers a reply states in a form of its own, not one number (`form_answer`), by what the
# problem asks for: any problem, a ratio, a comparison, an expression, a list.
_FORMS = (
    r"-?\d+\s*(?:r|R|rem|remainder)\s*\d+\b",  # 23 r 3
    r"\d+(?:\.\d+)?\s*[x×*]\s*10\s*\^\s*-?\d+",  # 4.5 x 10^4
    r"\b\d+\s*\^\s*\d+\b",  # 3^5
    r"\b\d+\s+out\s+of\s+\d+\b",  # 3 out of 8
    r"\b\d{1,2}\s*o'?\s*clock\b",  # 2 o clock
    r"(?:\b\d+\s+(?:thousands?|hundreds?|tens?|ones?)\b(?:\s*,?\s*(?:and\s+)?)?){2,}",
    r"\b\d+(?:\.\d+)?\s*(?:pi|π)(?!\w)",  # 12pi
    r"\b\d+\s+(?:halves|thirds|fourths|quarters|fifths|sixths|eighths|tenths|hundredths)\b",
)
_FORM = re.compile("|".join(f"(?:{f})" for f in _FORMS), re.IGNORECASE)
_RATIO = re.compile(r"\b\d+\s*(?:to|:)\s*\d+\b")
_COMPARISON = re.compile(r"-?\d[\d.,/]*\s*[<>=]\s*-?\d[\d.,/]*")
_LIST = re.compile(r"\d.*\d")
_ASKS_WRITTEN = re.compile(r"\b(?:expanded\s+form|as\s+a\s+(?:product|sum))\b", re.I)
_ASKS_LIST = re.compile(r"\b(?:all|list|pairs|next\s+(?:two|three|four|five|\d+))\b", re.I)


def form_answer(turn: str, problem: str) -> str | None:
    """An answer a reply states in a form of its own, as it writes it: a quotient with its
    remainder, scientific notation, a power, "3 out of 8", "2 o clock", places ("5 tens 8
    ones"); a ratio ("2 to 3") where the problem asks for one, a comparison where it
    compares, an expression in the problem's letter ("3x + 12"), a list where it asks for
    several ("2 and 12, 3 and 8"). None for a plain number, which the reader reads.

    >>> form_answer("by 3 so 2 to 3", "Write the ratio of 6 to 9 in simplest form.")
    '2 to 3'
    >>> form_answer("23 r 3", "What is 95 ÷ 4?"), form_answer("12", "What is 95 ÷ 4?")
    ('23 r 3', None)
    """
    said = plain_text(turn).strip()
    asked = plain_text(problem).lower()
    if mixed := _MIXED_WORDS.search(said):  # "3 and 3/4 cups": 3 3/4
        return f"{mixed[1]} {mixed[2]}"
    forms = list(_FORM.finditer(said))
    if _POINT.search(asked) or "point" in asked:
        forms += list(_PAIR.finditer(said))
    if "ratio" in asked:
        forms += list(_RATIO.finditer(said))
    if "compare" in asked or "<" in asked or ">" in asked:
        forms += list(_COMPARISON.finditer(said))
    if forms:
        last = max(forms, key=lambda m: m.start())
        # "so 2^5 is 32": the form is working, and the number after it the answer.
        return None if _RESULT_AFTER.search(said[last.end() :]) else last[0].strip()
    if (both := _BOTH.match(said)) and _ASKS_TWO.search(asked):
        return both[1]  # "2 and 4. my bike is pink" for "... a bike? And a car?"
    listed = _LIST.search(said) if len(_DIGIT_RUNS.findall(said)) > 1 else None
    if listed is not None:
        worked = _OPERATOR.search(listed[0]) is not None
        if not worked and _ASKS_LIST.search(asked):
            return listed[0]  # "2 and 12, 3 and 8" for "List all the factor pairs of 24."
        if worked and _ASKS_WRITTEN.search(asked) and _CALCULATION.fullmatch(listed[0]):
            return listed[0]  # "4 x 1 + 7 x 1/100" for "Write 4.07 in expanded form."
    expression = _EXPRESSION.search(said)
    if expression is not None:
        named = set(_VARIABLE_IN.findall(expression[0]))
        if named and named <= set(_VARIABLE_IN.findall(asked)):
            return expression[0].strip()
    return None


_DIGIT_RUNS = re.compile(r"\d+")
_MIXED_WORDS = re.compile(r"\b(\d+)\s+and\s+(\d+/\d+)\b")
# A point asked for ("(2, 7)") and one written back ("(5,7)", "5,3").
_POINT = re.compile(r"\(\s*-?\d+(?:\.\d+)?\s*,\s*-?\d+(?:\.\d+)?\s*\)")
_PAIR = re.compile(r"\(?\s*-?\d+(?:\.\d+)?\s*,\s*-?\d+(?:\.\d+)?\s*\)?")
# Two answers for two questions: "2 and 4", "56 and -56", "1 and 2" (a clause of its own).
_BOTH = re.compile(r"^\s*(-?\d[\d./]*\s+and\s+-?\d[\d./]*)\s*(?:[.,!?]|$)")
_ASKS_TWO = re.compile(
    r"\?.*\?|\bbetween\b|\bboth\b|\d\s*[x×*+\-÷/]\s*-?\d.*\band\b.*\d\s*[x×*+\-÷/]\s*-?\d",
    re.IGNORECASE | re.DOTALL,
)
_RESULT_AFTER = re.compile(r"(?:\b(?:is|so|makes|equals)\b|=)\s*-?\d", re.IGNORECASE)
_OPERATOR = re.compile(r"[+\-*/=×÷−]")
_CALCULATION = re.compile(r"[\d\s+\-*/x×÷−().]+")
# A letter that is a variable: alone or after a number ("3x", "n", "5 less than n").
_VARIABLE_IN = re.compile(r"(?:(?<=\d)|\b)([a-z])\b(?!')")
# An expression in a letter: "3x + 12", "n - 5", "2a + 3b".
_EXPRESSION = re.compile(
    r"(?:-?\d*(?:\.\d+)?[a-z]|\d+(?:\.\d+)?)(?:\s*[+\-]\s*(?:\d*(?:\.\d+)?[a-z]|\d+(?:\.\d+)?))+"
    r"(?![\w=])"
)

# The reply's final number after a correction or a worked result ("no its 64. is it 14",
# "4 x 2 is 8 then +3 is 11", "10 + 5 so 15", "8 so half is 4. 4 cm").
_FINAL = re.compile(
    r"(?:\b(?:is\s+it|maybe|wait|i\s+mean|actually|oops|oh|so|is|makes|equals|then|its|it's|no)"
    r"|=|[.!]\s)\s*,?\s*\$?(?P<n>-?\d[\d,]*(?:\.\d+)?(?:/\d+)?)"
    r"(?:\s*[a-z]+(?:\^?[23])?)?\s*[?!.]*\s*$",
    re.IGNORECASE,
)


def final_answer(turn: str) -> str | None:
    """The number a reply ends on after a correction or a worked result, where it states
    more than one number ("no its 64. is it 14" -> 14); else None.

    >>> final_answer("4 x 2 is 8 then +3 is 11"), final_answer("14")
    ('11', None)
    """
    said = _UNIT_POWER.sub("", plain_text(turn))
    if len(_DIGIT_RUNS.findall(said)) < 2:
        return None
    if rather := _RATHER.search(said):  # "so its 9 not 0.9"
        return rather[1]
    if (m := _FINAL.search(said)) is None:
        return None
    return m["n"].replace(",", "")


def word_answer(turn: str, problem: str) -> str | None:
    """The word a short reply gives to a question without numbers ("a sphere" for "What
    shape is a ball?", "an outlier"): the reply's words after an article or a filler; None
    for a reply with a number, one that asks or acknowledges ("ok", "why"), or one of more
    than `WORD_ANSWER_WORDS` words.

    >>> word_answer("a sphere", "What shape is a ball?"), word_answer("ok", "What shape?")
    ('sphere', None)
    """
    if _numbers(problem) or _numbers(turn):
        return None
    words = _WORD.findall(plain_text(turn).lower())
    while words and words[0] in _LEADING:
        words = words[1:]
    if not words or len(words) > WORD_ANSWER_WORDS or any(w in _NOT_ANSWERS for w in words):
        return None
    return " ".join(words)


WORD_ANSWER_WORDS = 3
_LEADING = frozenset(
    "a an the its it's um umm so oh ohh i think".split()  # noqa: SIM905 - a word list
)
_NOT_ANSWERS = _ASKING | frozenset(
    """
    ok okay k yes no yeah yep nope sure idk huh hmm what wait lol why how help dont don't
    know get
    """.split()  # noqa: SIM905 - a word list reads better as prose
)

_RATHER = re.compile(r"(-?\d[\d,]*(?:\.\d+)?(?:/\d+)?)\s+not\s+-?\d[\d.,/]*\s*[?!.]*\s*$")

# A unit's power is no number ("60 cm^3", "12 m²").
_UNIT_POWER = re.compile(r"(?<=[a-z])\s*(?:\^\s*[23]|[²³])", re.IGNORECASE)


def offers_choice(question: str) -> bool:
    """The question offers a choice ("odd or even?", "a square or a triangle")."""
    return _CHOICE.search(question) is not None


def is_option(sentence: str) -> bool:
    """The sentence holds a lettered option ("a) 3 b) 6 c) 72")."""
    return _LETTER_OPTION.search(" " + sentence) is not None


def _numbers(text: str) -> bool:
    return any(t.kind == "num" for t in tokens(text))
