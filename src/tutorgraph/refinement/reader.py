"""The math-message reader: the problem, the student's answer, the answer they claim is right
and the kind of request, read from a student's own words, each with the span it came from.

Students write "for 7 - 2 x 3 I put 15", "teacher marked 0.3 x 0.2 = 0.6 wrong", "I keep
getting 6 for 3 squared", "why is 5 - 8 not 3". The reader works in three passes over the
message's plain text (`mathtext.plain_text`: LaTeX and Unicode made plain):

1. a tokenizer (`expressions.tokens`, one regular expression, linear) turns numbers,
   operator symbols and operator *words* ("times", "divided by", "take away", "squared",
   "square root of", "half of", "% of", "negative") into tokens;
2. a small grammar (`expressions.expressions`) reads every maximal expression and writes it
   in the spelling of `mathtext.canonical_math` (`×`, `÷`, `^`, `sqrt(…)`), which the
   diagnosis parses;
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

import functools
import itertools
import re
from dataclasses import dataclass
from typing import Literal

from tutorgraph.mathtext.spans import plain_text
from tutorgraph.refinement.answer import stated_answer
from tutorgraph.refinement.expressions import (
    NUMBER,
    Expr,
    Tok,
    expressions,
    one_group,
    tokens,
)

__all__ = [
    "MAX_READ_CHARS",
    "MessageReading",
    "Read",
    "RequestKind",
    "answer_in",
    "read_message",
]

RequestKind = Literal["why_wrong", "is_right", "how_to", "what_is"]
# Longer messages are read up to here (a student's message, not an essay).
MAX_READ_CHARS = 2000


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
    # The message labels its answer as a worksheet does ("Student answer: …").
    labelled: bool = False
    # Where the problem's last open question starts ("how many …", `problem_until`): no
    # number before it is the answer; and whether the message asks why a fact holds.
    problem_until: int = 0
    why_fact: bool = False


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


def _algebra(toks: list[Tok]) -> bool:
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


_MINE = frozenset(("my", "student", "students", "student's"))
_LABEL_FILL = frozenset((":", "was", "is", "=", "of"))


def _labelled(toks: list[Tok], exprs: list[Expr]) -> tuple[Read | None, Read | None] | None:
    """What a label gives as the student's answer ("Student answer: 16%", "Student answer:
    2 ÷ 4 = 0.5": the answer, and the calculation it answers if it says one), or None when
    the message has no such label."""
    starts = {e.first: e for e in exprs}
    for k, tok in enumerate(toks):
        if tok.text != "answer" or k + 1 >= len(toks):
            continue
        prev = toks[k - 1].text if k else ""
        # "Student answer:" labels the student's; "Correct answer:" does not.
        if toks[k + 1].text != ":" or prev in _OTHERS | {"the"}:
            continue
        j = k + 1
        while j < len(toks) and toks[j].text in _LABEL_FILL and j - k <= 3:
            j += 1
        expr = starts.get(j)
        if expr is None:
            return None, None
        nxt = next((e for e in exprs if e.first == expr.last + 1), None)
        if expr.ops and nxt is not None and not nxt.ops and toks[expr.last].kind == "eq":
            return _span(toks, nxt), _span(toks, expr, _ungrouped(expr.text))
        return (None, None) if expr.ops else (_span(toks, expr), None)
    return None


def _cue(
    toks: list[Tok], at: int, *, checks: bool = True, ends: frozenset[int] = frozenset()
) -> tuple[int, bool]:
    """How strongly the number at `at` reads as an answer (2 after a strong cue, 1 after a
    weak one, within two filler words; 0 otherwise), and whether it is someone else's. A
    weak word counts only in the student's voice, right after the problem (`ends`: "326
    rounded to the nearest ten is 300") or in a message that checks an answer (`checks`):
    "the rope is 72 inches long" states the problem, "it is 72" an answer."""
    j = at - 1
    seen = 0
    while j >= 0 and seen <= 2:
        tok = toks[j]
        if tok.kind == "eq":
            return 1, False
        if tok.text == ":":  # "Student answer: 2/6"
            j -= 1
            continue
        if tok.kind != "word":
            return 0, False
        if tok.text in _STRONG or tok.text in _NOT or tok.text in _WEAK or tok.text == "says":
            before = {t.text for t in toks[max(j - 3, 0) : j + 1]}
            theirs = bool(before & _OTHERS) or (tok.text == "answer" and "the" in before)
            if j and toks[j - 1].text == "you":
                return 0, False  # "how do you write 4.6 as a percentage": a question
            strength = 2 if tok.text in _STRONG or tok.text in _NOT else 1
            after = bool(ends & {j - 1, j})  # "7 - 2 x 3 to be 15"
            if strength == 1 and not checks and not after and not _voiced(toks, j):
                return 0, False
            if tok.text == "answer" and (toks[j + 1].text == ":" or before & _MINE):
                strength = 3  # "Student answer: 46%", "my answer was 36": a label
            return strength, theirs
        if tok.text not in _FILLER:
            return 0, False
        seen += 1
        j -= 1
    return 0, False


# What may say "is" of an answer: "it is 12", "the answer was 36", "3^0 is 0", "0.3 as a
# fraction is 1/3"; a story's noun ("the rope is 72 inches long") states the problem.
_VOICE = frozenset(
    ("it", "it's", "its", "that", "thats", "that's", "this", "answer", "ans", "mine",
     "result", "total", "fraction", "decimal", "percentage", "percent", "form", "notation")
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
    return any(t.text in _STRONG for t in toks[max(j - _STRONG_REACH, 0) : j])


_NOT_CHECKS = frozenset(("triangle", "triangles", "angle", "angles", "angled"))


_YES_NO = frozenset(("is", "does", "do", "did", "are", "was"))


def _checks(toks: list[Tok]) -> bool:
    """The message checks an answer: it says right, correct, wrong or marked (a right
    triangle aside), asks yes or no ("does 2.45 rounded to 1 dp equal 2.5", "… or not",
    "… isnt it"), or a number is asked about ("… 12?")."""
    if toks and toks[0].text in _YES_NO:
        return True
    for k, tok in enumerate(toks):
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        said = tok.text in _RIGHT | _WRONG | {"marked"}
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

    >>> problem_until(tokens("a rope is 3 meters long how many centimeters is that"))
    24
    """
    return max((t.start for k, t in enumerate(toks) if _asks(toks, k)), default=0)


# "why does 1/2 = 2/4", "why do we flip": a question about why a fact holds, not a check.
_WHY_FACT = frozenset(("does", "do", "can", "are"))


def _why_fact(words: list[str]) -> bool:
    """The message asks why a fact holds ("why does 1/2 = 2/4") and calls nothing wrong."""
    asks = any(w == "why" and n in _WHY_FACT for w, n in itertools.pairwise(words))
    return asks and not set(words) & (_WRONG | _NOT)


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


def _round_problem(toks: list[Tok], exprs: list[Expr]) -> tuple[Read, Read] | None:
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


def _worded(toks: list[Tok], exprs: list[Expr]) -> Read | None:
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


def _span(toks: list[Tok], expr: Expr, text: str | None = None) -> Read:
    return Read(text or expr.text, toks[expr.first].start, toks[expr.last - 1].end)


# "73975 to 1 sf", "0.009753 rounded to 2 sig figs", "round 326 to the nearest 10"
_ROUNDING = re.compile(
    rf"(?:\bround(?:ed|ing)?\s+)?(?<![\w.])(?P<x>-?{NUMBER})\s+(?:(?:is\s+|was\s+)?"
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


def _reader_text(message: str) -> str:
    """The text the reader reads: the message's plain text, its "80%of300" spaced."""
    return _PERCENT_OF.sub("% of ", plain_text(message[:MAX_READ_CHARS]))


# The refiner, the diagnosis and its answer check read the same message in one request.
@functools.lru_cache(maxsize=1024)
def read_message(message: str) -> MessageReading:
    """Read a student's message (see the module's docstring); never raises."""
    text = _reader_text(message)
    toks = tokens(text)
    words = [t.text for t in toks if t.kind == "word"]
    request = _request(words, " ".join(t.text for t in toks))
    if _algebra(toks):
        # An equation ("3p = 1/12", "x = 2"): the diagnosis's equation reader reads it, and
        # the refiner the answer's words ("p = 1/4").
        return MessageReading(
            None,
            None,
            None,
            request,
            ("problem", "answer"),
            problem_until=problem_until(toks),
            why_fact=_why_fact(words),
        )
    exprs = expressions(toks)
    until = problem_until(toks)
    problem: Read | None = _rounding(text)
    answer: Read | None = None
    claimed: Read | None = None
    if problem is not None:
        # The rounded number and the accuracy are the task's, not answers.
        inside = problem
        exprs = [e for e in exprs if not inside.start <= toks[e.first].start < inside.end]
    elif (rounded := _round_problem(toks, exprs)) is not None:
        problem, answer = rounded
    labelled = _labelled(toks, exprs)
    if labelled is not None:
        # "Student answer: 2 ÷ 4 = 0.5": the label says which; when what it labels is no
        # number ("Student answer: None of these"), the reader reads none.
        answer = labelled[0]
        if problem is None and labelled[1] is not None:
            problem = labelled[1]
    # "A = B" with a calculation on the left and a lone number on the right.
    for k, expr in enumerate(exprs[:-1]):
        if problem is not None or labelled is not None:
            break
        nxt = exprs[k + 1]
        if expr.ops and not nxt.ops and nxt.first == expr.last + 1 and toks[expr.last].kind == "eq":
            problem = _span(toks, expr)
            answer = _span(toks, nxt) if toks[nxt.first].start >= until else None
    # A compared number ("wrote 0.04 > 0.5", "why is 3/4 bigger than 2/3"), one the message
    # says something of ("why isnt 1 a prime") and a number of the problem, before its open
    # question ("the rope is 72 inches long, how much longer ..."), are not answers.
    lone = [
        e
        for e in exprs
        if not e.ops
        and not _compared(toks, e)
        and not _described(toks, e)
        and toks[e.first].start >= until
    ]
    if answer is None or labelled is not None:
        # A number right after a stated task or a calculation is its answer ("is 0.009753 to
        # 2 sf 0.0097?", "is 5 + 4 x 3 60?"); a label's answer stands.
        ends = {e.last for e in exprs if e.ops}
        if problem is not None:
            ends.add(next((k for k, t in enumerate(toks) if t.start >= problem.end), len(toks)))
        checks = _checks(toks)
        cued, claimed = _answers(toks, lone, ends, checks=checks, why_fact=_why_fact(words))
        answer = answer if labelled is not None else cued
    if problem is None:
        calc = [
            e for e in exprs if e.ops and (answer is None or toks[e.first].start != answer.start)
        ]
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
    return MessageReading(
        problem,
        answer,
        claimed,
        request,
        missing,
        labelled is not None,
        problem_until=until,
        why_fact=_why_fact(words),
    )


_COMPARING = frozenset(
    ("bigger", "smaller", "greater", "larger", "less", "more", "than", "higher", "lower")
)


def _compared(toks: list[Tok], expr: Expr) -> bool:
    """The number is compared with another, not given as an answer."""
    if expr.last >= len(toks):
        return False
    nxt = toks[expr.last]
    return nxt.kind == "cmp" or (nxt.kind == "word" and nxt.text in _COMPARING)


_ARTICLES = frozenset(("a", "an"))


def _described(toks: list[Tok], expr: Expr) -> bool:
    """The message says what the number is ("why isnt 1 a prime number")."""
    return expr.last < len(toks) and toks[expr.last].text in _ARTICLES


def _ungrouped(text: str) -> str:
    """A problem in one pair of brackets ("(0.32 × 0.8)") without them."""
    return text[1:-1] if one_group(text) else text


def _answers(
    toks: list[Tok], lone: list[Expr], ends: set[int], *, checks: bool, why_fact: bool
) -> tuple[Read | None, Read | None]:
    """The student's answer and the answer someone else says is right, among the lone
    numbers: the first with the strongest cue, else a number right after a calculation ("is
    5 + 4 x 3 60?"), else the last one checked ("15 right?"); "not Y" after a why-question
    makes Y the student's. A weak cue needs the student's voice or a check (`_cue`), and a
    question about why a fact holds (`why_fact`: "why does 1/2 = 2/4") states no answer by
    one."""
    cues = {e.first: _cue(toks, e.first, checks=checks, ends=frozenset(ends)) for e in lone}
    if why_fact:
        cues = {k: (0, False) if v[0] == 1 else v for k, v in cues.items()}
    for e in lone:
        # "15 is what i got": the cue after the number.
        tail = [t.text for t in toks[e.last : e.last + 4]]
        if tail[:3] == ["is", "what", "i"] and len(tail) == 4 and tail[3] in _STRONG:
            cues[e.first] = (2, False)
    # A recurring decimal ("0.666...") is no exact answer to check a reading with.
    theirs = [
        e
        for e in lone
        if cues[e.first][0]
        and cues[e.first][1]
        and [t.text for t in toks[e.last : e.last + 2]] != [".", "."]
    ]
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


def answer_in(message: str) -> str | None:
    """The student's answer a message states: a labelled answer ("Student answer: 102
    minutes") in the label's own words, units and all, as the ranker's query text has always
    carried them; else the reader's; else a cue's words ("my answer was B", which the
    reader, reading numbers, leaves).

    >>> answer_in("for 7 - 2 x 3 I put 15")
    '15'
    """
    read = read_message(message)
    reader = read.student_answer
    if reader is not None and not read.labelled:
        return reader.value  # the cue's words are read only where they may decide
    if read.labelled:
        # A worksheet's layout, read as the Eedi benchmark's texts always were.
        said = stated_answer(plain_text(message))
    else:
        # The same text and limits as the reader: nothing from the problem, before its open
        # question, and no "A = X" in a question about why a fact holds.
        text = _reader_text(message)
        said = stated_answer(text, start=read.problem_until, results=not read.why_fact)
    return said if reader is None or said is not None else reader.value
