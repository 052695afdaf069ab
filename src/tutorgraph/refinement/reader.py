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
   a rounding verb, an answer before its problem, a hedge: "maybe 21?", a number alone on
   a line), and the problem is the expression that is not the answer; rounding tasks
   ("73975 to 1 sf") are read by their own pattern. A number said in words as an answer is
   read in digits ("i got seven", `number_words`), and the numbers a question asks about or
   someone else states are no answer ("is 2/5 the same as 4/10?", `asked`).

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
import re
from dataclasses import dataclass

from tutorgraph.mathtext.spans import plain_text
from tutorgraph.refinement.answer import stated_answer
from tutorgraph.refinement.answer_words import word_answer
from tutorgraph.refinement.asked import asked_about, sentence_starts
from tutorgraph.refinement.cues import (
    OTHERS,
    RIGHT,
    ROUND,
    STRONG,
    WRONG,
    RequestKind,
    answer_cue,
    asks_why_fact,
    checks_answer,
    compared,
    described,
    problem_until,
    request_kind,
)
from tutorgraph.refinement.expressions import (
    NUMBER,
    Expr,
    Tok,
    expressions,
    one_group,
    tokens,
)
from tutorgraph.refinement.number_words import spell_answers

__all__ = [
    "MAX_READ_CHARS",
    "MessageReading",
    "Read",
    "RequestKind",
    "answer_in",
    "read_message",
]

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
    # The message asks about numbers it states, or reports someone else's ("is 2/5 the same
    # as 4/10?", "my teacher says 7 x 6 is 42 but how"): those are no answer of the student's.
    asks: bool = False


# -- answers, problems and requests -------------------------------------------------------


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


_LABEL_FILL = frozenset((":", "was", "is", "=", "of"))
_WORKSHEET = re.compile(r"^[ \t]*student(?:'s)?[ \t]+answer[ \t]*:", re.IGNORECASE | re.MULTILINE)


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
        if toks[k + 1].text != ":" or prev in OTHERS | {"the"}:
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


def _round_problem(toks: list[Tok], exprs: list[Expr]) -> tuple[Read, Read] | None:
    """ "rounded 2.45 to 2.4": the problem is rounding 2.45 to the answer's accuracy."""
    for k, expr in enumerate(exprs[:-1]):
        before = toks[expr.first - 1].text if expr.first else ""
        nxt = exprs[k + 1]
        if before not in ROUND or expr.ops or nxt.ops:
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
    r"|ten thousand|ten|hundred|thousand|whole\s+number|integer)\b"
    r"|the\s+nearest\s+(?P<place>tenth|hundredth|thousandth)\b"
    r"|(?P<n>\d{1,2}|one|two|three|four)\s*(?P<unit>d\.?\s?p\b\.?|decimal\s+places?"
    r"|s\.?\s?f\b\.?|sig(?:nificant)?\.?\s*fig(?:ure)?s?))",
    re.IGNORECASE,
)
_NEAREST_WORDS = {"ten": "10", "hundred": "100", "thousand": "1000", "ten thousand": "10000"}
_COUNT_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4"}
_PLACES = {"tenth": 1, "hundredth": 2, "thousandth": 3}


def _rounding(text: str) -> Read | None:
    """A rounding task stated with its accuracy, as `round X to N dp|sf` or `round X to the
    nearest N`."""
    m = _ROUNDING.search(text)
    if m is None:
        return None
    x = "0" + m["x"] if m["x"].startswith(".") else m["x"].replace("-.", "-0.")
    if m["place"]:
        task = f"round {x} to {_PLACES[m['place'].casefold()]} dp"  # "nearest tenth": 1 dp
    elif m["near"]:
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
    """The text the reader reads: the message's plain text, its "80%of300" spaced and a
    number said in words as an answer in digits ("i got seven": `spell_answers`). Its line
    breaks are kept (an answer may stand on a line of its own) unless LaTeX spans them."""
    message = message[:MAX_READ_CHARS]
    flat = plain_text(message)
    lines = "\n".join(p for line in message.splitlines() if (p := plain_text(line)))
    text = lines if " ".join(lines.split()) == flat else flat
    return spell_answers(_PERCENT_OF.sub("% of ", text))


# The refiner, the diagnosis and its answer check read the same message in one request.
@functools.lru_cache(maxsize=1024)
def read_message(message: str) -> MessageReading:
    """Read a student's message (see the module's docstring); never raises."""
    text = _reader_text(message)
    toks = tokens(text)
    words = [t.text for t in toks if t.kind == "word"]
    request = request_kind(words, " ".join(t.text for t in toks))
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
            why_fact=asks_why_fact(words),
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
    asked = asked_about(toks, exprs, text=text)
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
            mine = toks[nxt.first].start >= until and nxt.first not in asked.theirs
            answer = _span(toks, nxt) if mine and nxt.first not in asked.dropped else None
    # A compared number ("wrote 0.04 > 0.5", "why is 3/4 bigger than 2/3"), one the message
    # says something of ("why isnt 1 a prime") and a number of the problem, before its open
    # question ("the rope is 72 inches long, how much longer ..."), are not answers.
    lone = [
        e
        for e in exprs
        if not e.ops
        and not compared(toks, e)
        and not described(toks, e)
        and toks[e.first].start >= until
        and e.first not in asked.dropped
    ]
    if answer is None or labelled is not None:
        # A number right after a stated task or a calculation is its answer ("is 0.009753 to
        # 2 sf 0.0097?", "is 5 + 4 x 3 60?"); a label's answer stands.
        ends = {e.last for e in exprs if e.ops}
        if problem is not None:
            ends.add(next((k for k, t in enumerate(toks) if t.start >= problem.end), len(toks)))
        checks = checks_answer(toks)
        cued, claimed = _answers(
            toks,
            lone,
            ends,
            checks=checks,
            why_fact=asks_why_fact(words),
            theirs=asked.theirs,
            bare=_bare(toks, lone, text),
            asks_how=bool({"why", "how"} & set(words)),
        )
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
        why_fact=asks_why_fact(words),
        asks=bool(asked.dropped or asked.theirs),
    )


def _ungrouped(text: str) -> str:
    """A problem in one pair of brackets ("(0.32 × 0.8)") without them."""
    return text[1:-1] if one_group(text) else text


# A hedge after the answer: "21 maybe?", "36? not sure", "x = 6 i think".
_HEDGED_TAILS = (
    ("maybe",), ("probably",), ("perhaps",), ("?", "maybe"), ("?", "not", "sure"),
    ("?", "idk"), ("i", "think"), ("i", "guess"), ("i", "reckon"), ("?", "im", "not", "sure"),
)  # fmt: skip
# Words a bare answer's line may hold beside its number ("umm 32??", "maybe 21?").
_BARE_WORDS = frozenset(
    ("um", "umm", "ummm", "hmm", "uh", "er", "erm", "so", "ok", "okay", "maybe", "probably",
     "possibly", "perhaps", "idk", "not", "sure", "i", "think", "guess", "its", "it's", "then",
     "im", "i'm", "then", "answer", "is", "it")
)  # fmt: skip


def _bare(toks: list[Tok], lone: list[Expr], text: str) -> frozenset[int]:
    """The lone numbers that stand alone on a line as its answer: the whole message ("21?",
    "umm 32??") or a line after the first ("what is 7 x 3" then "21"), with hedges, a unit
    word after it ("18 cm") and punctuation, and nothing else."""
    if not lone:
        return frozenset()
    starts = sentence_starts(toks, text)
    lines: list[list[int]] = []
    for k, tok in enumerate(toks):
        if k == 0 or (k in starts and "\n" in text[toks[k - 1].end : tok.start]):
            lines.append([])
        lines[-1].append(k)
    whole = len(lines) == 1
    out: set[int] = set()
    by_first = {e.first: e for e in lone}
    for n, line in enumerate(lines):
        if n == 0 and not whole:
            continue
        nums = [k for k in line if toks[k].kind == "num"]
        if len(nums) != 1 or nums[0] not in by_first:
            continue
        expr = by_first[nums[0]]
        rest = [toks[k] for k in line if not expr.first <= k < expr.last]
        words = [t for t in rest if t.kind == "word" and t.text not in _BARE_WORDS]
        unit = len(words) == 1 and words[0].start > toks[expr.last - 1].end
        if all(t.kind in ("word", "punct") for t in rest) and (not words or unit):
            out.add(expr.first)
    return frozenset(out)


def _hedged(toks: list[Tok], e: Expr) -> bool:
    """A hedge follows the number ("21 maybe?"), or "is what i got" does."""
    tail = tuple(t.text for t in toks[e.last : e.last + 4])
    if tail[:3] == ("is", "what", "i") and len(tail) == 4 and tail[3] in STRONG:
        return True
    return any(tail[: len(h)] == h for h in _HEDGED_TAILS)


def _the_answer(toks: list[Tok], e: Expr) -> bool:
    """ "the answer is 21" (and no one named who says so): said of the answer, in the
    student's voice unless the message gives an answer of its own."""
    window = {t.text for t in toks[max(e.first - 4, 0) : e.first]}
    return {"the", "answer"} <= window and not window & (OTHERS | {"my"})


def _answers(
    toks: list[Tok],
    lone: list[Expr],
    ends: set[int],
    *,
    checks: bool,
    why_fact: bool,
    theirs: frozenset[int] = frozenset(),
    bare: frozenset[int] = frozenset(),
    asks_how: bool = False,
) -> tuple[Read | None, Read | None]:
    """The student's answer and the answer someone else says is right, among the lone
    numbers: the first with the strongest cue, else a number right after a calculation ("is
    5 + 4 x 3 60?"), else the last one checked ("15 right?"); "not Y" after a why-question
    makes Y the student's. A weak cue needs the student's voice or a check (`answer_cue`), and a
    question about why a fact holds (`why_fact`: "why does 1/2 = 2/4") states no answer by
    one. `theirs`: numbers an authority is reported to state ("my teacher says ... is 42");
    `bare`: numbers alone on a line (`_bare`), which are the student's; "the answer is 21"
    is the student's unless the message gives one of its own or asks how or why."""
    cues = {e.first: answer_cue(toks, e.first, checks=checks, ends=frozenset(ends)) for e in lone}
    if why_fact:
        cues = {k: (0, False) if v[0] == 1 else v for k, v in cues.items()}
    for e in lone:
        if e.first in theirs:
            # What an authority is reported to say is right; an uncued number is nobody's.
            cues[e.first] = (cues[e.first][0], bool(cues[e.first][0]))
        elif e.first in bare or _hedged(toks, e):
            cues[e.first] = (max(cues[e.first][0], 2), False)
    # A recurring decimal ("0.666...") is no exact answer to check a reading with.
    their = [
        e
        for e in lone
        if cues[e.first][0]
        and cues[e.first][1]
        and [t.text for t in toks[e.last : e.last + 2]] != [".", "."]
    ]
    mine = [e for e in lone if cues[e.first][0] and not cues[e.first][1]]
    if asks_how:
        # "the answer is 36 but i dont get why": the answer the student asks about.
        said = [e for e in mine if cues[e.first][0] == 1 and _the_answer(toks, e)]
        mine, their = [e for e in mine if e not in said], their + said
    elif not mine:
        # "is the answer 44?", "the answer is 21": the student's, when they give no other.
        said = [e for e in their if e.first not in theirs and _the_answer(toks, e)]
        mine, their = said[:1], [e for e in their if e not in said[:1]]
    best = max((cues[e.first][0] for e in mine), default=0)
    cued = [e for e in mine if cues[e.first][0] == best]
    after = [e for e in lone if e.first in ends and e not in their]
    checked = [e for e in lone if e.last < len(toks) and toks[e.last].text in RIGHT | WRONG]
    pick = cued[0] if cued else after[0] if after else checked[-1] if checked else None
    claimed = _span(toks, their[0]) if their else None
    if pick is not None and pick.first and toks[pick.first - 1].text == "not" and not claimed:
        # "why is 5 - 8 not 3": 3 is the student's; a number the message says is right, if
        # any, comes before it ("the answer is 15 not 3").
        earlier = [e for e in mine if e.first < pick.first and toks[e.first - 1].text != "not"]
        claimed = _span(toks, earlier[0]) if earlier else None
    return (_span(toks, pick) if pick is not None else None), claimed


def answer_in(message: str) -> str | None:
    """The student's answer a message states: a labelled answer ("Student answer: 102
    minutes") in the label's own words, units and all, as the ranker's query text has always
    carried them; else the reader's; else a choice letter or a verdict ("I chose B",
    "neither is right": `word_answer`); else a cue's words or algebra ("my answer was
    Acute", "x = 2 or 3", which the reader, reading numbers, leaves). A message that asks
    about the numbers it states, or reports someone else's, states none of them
    (`MessageReading.asks`).

    >>> answer_in("for 7 - 2 x 3 I put 15")
    '15'
    >>> answer_in("is 2/5 the same as 4/10?") is None, answer_in("i said both were wrong")
    (True, 'neither')
    """
    read = read_message(message)
    reader = read.student_answer
    # A worksheet's layout labels the student's answer on a line of its own, whatever it
    # is: a number the reader reads, or a picture's description it does not.
    worksheet = read.labelled or _WORKSHEET.search(message) is not None
    if reader is not None and not worksheet:
        return reader.value  # the cue's words are read only where they may decide
    if worksheet:
        # Read as the Eedi benchmark's texts always were.
        said = stated_answer(plain_text(message), worksheet=True)
        if said is None and reader is None:
            said = word_answer(_reader_text(message))  # "answer: D"
        return said if reader is None or said is not None else reader.value
    # The same text and limits as the reader: nothing from the problem, before its open
    # question, and no "A = X" in a question about why a fact holds.
    text = _reader_text(message)
    if (word := word_answer(text[read.problem_until :])) is not None:
        return word
    if read.asks:
        return None  # its numbers were judged: asked about, or someone else's
    return stated_answer(text, start=read.problem_until, results=not read.why_fact)
