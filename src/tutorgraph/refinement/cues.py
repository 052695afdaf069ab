"""The words that cue a reading of a student's message: which number is an answer and whose,
whether the message checks an answer, where the problem's open question starts, whether it
asks why a fact holds, and the kind of request.

The message reader (`refinement.reader`) reads a message's numbers and calculations; these
cues decide what each one is.

>>> request_kind(["why", "is", "5", "-", "8", "not", "3"], "why is 5 - 8 not 3")
'why_wrong'
"""

from __future__ import annotations

import itertools
import re
from typing import Literal

from tutorgraph.refinement.expressions import Expr, Tok

__all__ = [
    "OTHERS",
    "RIGHT",
    "ROUND",
    "STRONG",
    "WRONG",
    "RequestKind",
    "answer_cue",
    "asks_why_fact",
    "checks_answer",
    "compared",
    "described",
    "problem_until",
    "request_kind",
]

RequestKind = Literal["why_wrong", "is_right", "how_to", "what_is"]

# Words that say "what follows is my answer" (the number comes within two filler words):
# strong cues name the student's act; weak ones ("is", "as", "=") also join a question to
# its problem ("what is 3/5 as a decimal"), so a strong cue wins.
STRONG = frozenset(
    (
        "got", "get", "gets", "getting", "put", "putting", "wrote", "write", "writing",
        "said", "say", "answered", "answer", "thought", "think", "thinks", "reckon",
        "reckoned", "guessed", "guess", "chose", "picked", "came", "ended", "ans",
        # A hedged answer is the student's too: "maybe 21?", "i'm guessing 100".
        "maybe", "probably", "possibly", "perhaps", "guessing",
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
ROUND = frozenset(("round", "rounded", "rounding", "rounds"))
RIGHT = frozenset(("right", "correct", "ok", "okay", "true"))
WRONG = frozenset(("wrong", "incorrect", "false"))
_NOT = frozenset(("not", "isn't", "isnt", "aren't"))

# Whose answer a cue gives: "the teacher got 18", "it says 18", "the answer is 18" give the
# answer someone else says is right, "my answer was 36" the student's.
OTHERS = frozenset(
    ("teacher", "teachers", "book", "sheet", "key", "says", "should", "supposed", "actually",
     "correct", "real", "calculator", "mum", "dad", "sir", "miss")
)  # fmt: skip
_MINE = frozenset(("my", "student", "students", "student's"))


def answer_cue(
    toks: list[Tok], at: int, *, checks: bool = True, ends: frozenset[int] = frozenset()
) -> tuple[int, bool]:
    """How strongly the number at `at` reads as an answer (2 after a strong cue, 1 after a
    weak one, within two filler words; 0 otherwise), and whether it is someone else's. A
    weak word counts only in the student's voice, right after the problem (`ends`: "326
    rounded to the nearest ten is 300") or in a message that checks an answer (`checks`):
    "the rope is 72 inches long" states the problem, "it is 72" an answer."""
    j = at - 1
    seen = 0
    # "pretty sure its 1/4": "it's" gives the answer when no cue stands before it.
    voiced = False
    while j >= 0 and seen <= 2:
        tok = toks[j]
        if tok.kind == "eq":
            return 1, False
        if tok.text == ":":  # "Student answer: 2/6"
            j -= 1
            continue
        if tok.kind != "word":
            return 0, False
        if tok.text in STRONG or tok.text in _NOT or tok.text in _WEAK or tok.text == "says":
            before = {t.text for t in toks[max(j - 3, 0) : j + 1]}
            if toks[0].text == "should" and j <= 3:
                before.discard("should")  # "should it be 72?": the student asks of theirs
            theirs = bool(before & OTHERS) or (tok.text == "answer" and "the" in before)
            if j and toks[j - 1].text == "you":
                return 0, False  # "how do you write 4.6 as a percentage": a question
            strength = 2 if tok.text in STRONG or tok.text in _NOT else 1
            after = bool(ends & {j - 1, j})  # "7 - 2 x 3 to be 15"
            if strength == 1 and not checks and not after and not _voiced(toks, j):
                return 0, False
            if tok.text == "answer" and (toks[j + 1].text == ":" or before & _MINE):
                strength = 3  # "Student answer: 46%", "my answer was 36": a label
            return strength, theirs
        voiced = voiced or (tok.text in _ITS and j + 1 == at)
        if tok.text not in _FILLER:
            break
        seen += 1
        j -= 1
    nxt = toks[at + 1].text if at + 1 < len(toks) else "?"
    return (1, False) if voiced and nxt in _ITS_ENDS else (0, False)


_ITS = frozenset(("it's", "its"))
# What may follow an answer "it's" gives: the clause ends ("pretty sure its 1/4", not "its
# 4:35 and").
_ITS_ENDS = frozenset(("but", "i", "not", "right", "so", "because", "cuz", "maybe", "?", "!", "."))
# What may say "is" of an answer: "it is 12", "the answer was 36", "3^0 is 0", "0.3 as a
# fraction is 1/3"; a story's noun ("the rope is 72 inches long") states the problem.
_VOICE = frozenset(
    ("it", "it's", "its", "that", "thats", "that's", "this", "answer", "ans", "mine",
     "result", "total", "fraction", "decimal", "percentage", "percent", "form", "notation",
     "might", "could", "would", "should", "must", "will")
)  # fmt: skip
_STRONG_REACH = 8


def _voiced(toks: list[Tok], j: int) -> bool:
    """The weak cue at `j` follows math, an answer's word or, within a few words, a strong
    cue ("i said the other one is 20")."""
    if j == 0:
        return False
    prev = toks[j - 1]
    if prev.kind not in ("word", "punct") or prev.text in _VOICE:
        return True
    return any(t.text in STRONG for t in toks[max(j - _STRONG_REACH, 0) : j])


_NOT_CHECKS = frozenset(("triangle", "triangles", "angle", "angles", "angled"))


_YES_NO = frozenset(("is", "does", "do", "did", "are", "was"))


def checks_answer(toks: list[Tok]) -> bool:
    """The message checks an answer: it says right, correct, wrong or marked (a right
    triangle aside), asks yes or no ("does 2.45 rounded to 1 dp equal 2.5", "… or not",
    "… isnt it"), or a number is asked about ("… 12?")."""
    if toks and toks[0].text in _YES_NO:
        return True
    for k, tok in enumerate(toks):
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        said = tok.text in RIGHT | WRONG | {"marked"}
        if said and not (tok.text == "right" and nxt is not None and nxt.text in _NOT_CHECKS):
            return True
        if tok.kind == "num" and nxt is not None and nxt.text == "?":
            return True
        if tok.text in ("isnt", "isn't", "or") and nxt is not None and nxt.text in ("it", "not"):
            return True  # "1.5 hours is 1 hour 50 minutes isnt it", "equals 0.09 or not"
    return False


# An open question about the problem's quantity: "how many are left", "whats the area",
# "when does it end", "who has more". What comes before it is the problem, and a number in
# the problem is never the student's answer ("i got a 72 on my first test ... whats my
# average").
_HOW = frozenset(
    ("many", "much", "long", "far", "old", "tall", "high", "big", "fast", "heavy", "wide",
     "deep", "often", "large", "short", "tall", "heavier", "longer", "taller", "farther")
)  # fmt: skip
_WHAT = frozenset(("what", "whats", "what's"))
_WHAT_ASKS = frozenset(
    ("the", "my", "his", "her", "their", "its", "our", "your", "score", "time", "number")
)  # fmt: skip
_ABOUT_ANSWER = frozenset(("answer", "right", "correct", "wrong", "mistake", "error"))
_WHEN_WHO = frozenset(("when", "who"))
_WHEN_WHO_NEXT = frozenset(
    ("does", "do", "did", "will", "would", "is", "can", "should", "has", "have", "had")
)  # fmt: skip


def _asks(toks: list[Tok], k: int) -> bool:
    """An open question about the problem starts at `toks[k]`."""
    tok = toks[k]
    if tok.kind != "word":
        return False
    nxt = [t.text for t in toks[k + 1 : k + 5]]
    if tok.text == "how":
        return bool(nxt) and nxt[0] in _HOW
    if tok.text in _WHEN_WHO:
        return bool(nxt) and nxt[0] in _WHEN_WHO_NEXT
    if tok.text in _WHAT:
        rest = nxt[1:] if nxt[:1] in (["is"], ["are"], ["was"], ["will"]) else nxt
        return bool(rest) and rest[0] in _WHAT_ASKS and not set(rest[:3]) & _ABOUT_ANSWER
    return False


def problem_until(toks: list[Tok]) -> int:
    """Where the problem's last open question starts (a character offset; 0 when none):
    no number before it is the student's answer.

    >>> from tutorgraph.refinement.expressions import tokens
    >>> problem_until(tokens("a rope is 3 meters long how many centimeters is that"))
    24
    """
    return max((t.start for k, t in enumerate(toks) if _asks(toks, k)), default=0)


# "why does 1/2 = 2/4", "why do we flip": a question about why a fact holds, not a check.
_WHY_FACT = frozenset(("does", "do", "can", "are"))


def asks_why_fact(words: list[str]) -> bool:
    """The message asks why a fact holds ("why does 1/2 = 2/4") and calls nothing wrong."""
    asks = any(w == "why" and n in _WHY_FACT for w, n in itertools.pairwise(words))
    return asks and not set(words) & (WRONG | _NOT)


def request_kind(words: list[str], joined: str) -> RequestKind | None:
    """What the message asks for, from its words and their text joined by spaces; None
    when it asks nothing the reader knows."""
    if "why" in words or "wrong" in words or "marked" in words:
        return "why_wrong"
    if re.search(r"\b(?:is|am|was)\b.*\b(?:right|correct)\b|\bright\?|\bcorrect\?", joined):
        return "is_right"
    if re.search(r"\bhow (?:do|can|would|should|to)\b", joined):
        return "how_to"
    if re.search(r"\bwhat(?:'s| is| are)\b", joined):
        return "what_is"
    return None


_COMPARING = frozenset(
    ("bigger", "smaller", "greater", "larger", "less", "more", "than", "higher", "lower")
)


def compared(toks: list[Tok], expr: Expr) -> bool:
    """The number is compared with another, not given as an answer."""
    if expr.last >= len(toks):
        return False
    nxt = toks[expr.last]
    return nxt.kind == "cmp" or (nxt.kind == "word" and nxt.text in _COMPARING)


_ARTICLES = frozenset(("a", "an"))


def described(toks: list[Tok], expr: Expr) -> bool:
    """The message says what the number is ("why isnt 1 a prime number")."""
    return expr.last < len(toks) and toks[expr.last].text in _ARTICLES
