"""The message templates (`PHRASINGS`): how a student asks, in which styles, for which
kinds of problem and answer.
"""

from __future__ import annotations

from dataclasses import dataclass

from .problems import FracOf, Node, PctOf, Round
from .render import Style

__all__ = ["PHRASINGS", "PROBLEM_KINDS", "Phrasing", "problem_kind"]

PLAIN = Style()
TIGHT_X = Style(times="x", div="/", plus="+", minus="-")
SPACED_X = Style(times=" x ", div=" / ")
UNICODE = Style(
    times=" × ", div=" ÷ ", minus=" − ", neg="−", frac="unicode", power="unicode", sqrt="symbol"
)
UNICODE_TIGHT = Style(
    times="×",
    div="÷",
    plus="+",
    minus="−",
    neg="−",
    frac="unicode",
    mixed="unicode",
    power="unicode",
    sqrt="symbol",
)
WORDS = Style(
    times=" times ",
    div=" divided by ",
    plus=" plus ",
    minus=" minus ",
    neg="negative ",
    power="words",
    sqrt="words",
    pct=" percent",
    mixed="and",
    rounding="decimal places",
    half=True,
    rounded=True,
)
WORDS2 = Style(
    times=" multiplied by ",
    div=" divided by ",
    plus=" add ",
    minus=" take away ",
    neg="minus ",
    frac="over",
    mixed="and",
    power="pow",
    sqrt="root",
    pct=" per cent",
    rounding="sig figs",
)
LATEX = Style(times=" \\times ", div=" \\div ", frac="latex", power="latex", sqrt="latex")
STAR = Style(times="*", div="/", plus="+", minus="-", point=".", rounding="d.p.")
SLANG = Style(times=" x ", div=" / ", power="words", sqrt="words", pct="%", point=".", half=True)
SHOUT = Style(times=" X ", div=" / ", power="words", sqrt="words", upper=True)

PROBLEM_KINDS = ("expr", "round", "pct", "fracof")


def problem_kind(node: Node) -> str:
    if isinstance(node, Round):
        return "round"
    if isinstance(node, PctOf):
        return "pct"
    if isinstance(node, FracOf):
        return "fracof"
    return "expr"


@dataclass(frozen=True)
class Phrasing:
    """One template: `{p}` the problem, `{a}` the student's answer, `{c}` the right one."""

    id: str
    request: str
    frame: str
    styles: tuple[Style, ...]
    answer_how: str = "plain"  # plain | point | unicode | latex | words
    kinds: tuple[str, ...] = PROBLEM_KINDS
    needs_wrong: bool = True  # only for wrong answers
    right_only: bool = False  # only for right answers
    shows_problem: bool = True
    shows_answer: bool = True
    shows_claim: bool = False
    weight: int = 2  # relative share of items


PHRASINGS: tuple[Phrasing, ...] = (
    Phrasing(
        "got-for-but-wrong", "why_wrong", "i got {a} for {p} but its wrong??", (TIGHT_X, STAR)
    ),
    Phrasing("for-i-put", "why_wrong", "for {p} I put {a} and it says wrong", (SPACED_X, TIGHT_X)),
    Phrasing("marked-wrong", "why_wrong", "teacher marked {p} = {a} wrong", (SPACED_X, UNICODE)),
    Phrasing(
        "keep-getting", "why_wrong", "I keep getting {a} for {p}, what am i doing wrong", (WORDS,)
    ),
    Phrasing("why-not", "why_wrong", "why is {p} not {a}", (PLAIN, UNICODE)),
    Phrasing(
        "rounded-to",
        "why_wrong",
        "it said round to {r} and i rounded {n} to {a}, why is that wrong",
        (PLAIN, STAR),
        kinds=("round",),
    ),
    Phrasing("right-q", "is_right", "{p} = {a} right?", (UNICODE_TIGHT, TIGHT_X)),
    Phrasing(
        "reckon",
        "is_right",
        "i reckon {p} is {a}, am i right or not",
        (SLANG, WORDS),
        needs_wrong=False,
    ),
    Phrasing(
        "think-correct",
        "is_right",
        "I think {p} is {a}. Is that correct?",
        (PLAIN, WORDS2),
        needs_wrong=False,
    ),
    Phrasing(
        "thought-was", "why_wrong", "thought {p} was {a} but apparently not", (WORDS2, SPACED_X)
    ),
    Phrasing(
        "wrote-as",
        "why_wrong",
        "I wrote {a} as the answer to {p}. Why is it wrong?",
        (PLAIN, LATEX),
    ),
    Phrasing(
        "answered-q",
        "why_wrong",
        "on question 4 ({p}) I answered {a} and got it wrong",
        (SPACED_X, WORDS),
    ),
    Phrasing(
        "sheet-said",
        "why_wrong",
        "the answer sheet says {c} but i said {a} for {p}. why",
        (PLAIN, UNICODE, LATEX),
        shows_claim=True,
    ),
    Phrasing("equals-word", "is_right", "does {p} equal {a}", (WORDS, WORDS2), needs_wrong=False),
    Phrasing(
        "came-out-as",
        "why_wrong",
        "when i do {p} it came out as {a} but the answer is {c}?",
        (TIGHT_X, SLANG),
        shows_claim=True,
    ),
    Phrasing(
        "latex-dollars",
        "why_wrong",
        "why is ${p} = {a}$ wrong",
        (LATEX,),
        answer_how="latex",
        kinds=("expr", "pct", "fracof"),
    ),
    Phrasing(
        "getting-help", "why_wrong", "getting {a} for {p} help", (STAR, SLANG), answer_how="point"
    ),
    Phrasing(
        "how-do-i",
        "how_to",
        "how do i work out {p}",
        (PLAIN, WORDS),
        shows_answer=False,
        needs_wrong=False,
    ),
    Phrasing(
        "how-words",
        "how_to",
        "How do you do {p}?",
        (WORDS2, UNICODE),
        shows_answer=False,
        needs_wrong=False,
    ),
    Phrasing(
        "what-is", "what_is", "what is {p}", (WORDS, TIGHT_X), shows_answer=False, needs_wrong=False
    ),
    Phrasing(
        "whats-pls",
        "what_is",
        "whats {p} ?? pls",
        (STAR, UNICODE_TIGHT),
        shows_answer=False,
        needs_wrong=False,
    ),
    Phrasing("is-it", "is_right", "is {p} {a}?", (WORDS, SPACED_X), needs_wrong=False),
    Phrasing(
        "put-down",
        "why_wrong",
        "put {a} down for {p} and its wrong dont get it",
        (TIGHT_X, STAR, SPACED_X),
    ),
    Phrasing(
        "check-answer",
        "is_right",
        "can u check my answer {p} = {a}",
        (PLAIN, UNICODE_TIGHT),
        needs_wrong=False,
    ),
    Phrasing("equals-q", "is_right", "{p} equals {a} or not", (WORDS, PLAIN), needs_wrong=False),
    Phrasing(
        "i-get-typo",
        "why_wrong",
        "y do i get {a} wen i do {p} wat am i doin rong",
        (TIGHT_X, SLANG, WORDS2),
    ),
    Phrasing(
        "quiz-marks",
        "why_wrong",
        "Q7 on the quiz was {p} and I wrote {a}, got 0 out of 2 marks. What went wrong?",
        (PLAIN, UNICODE, WORDS),
    ),
    Phrasing(
        "worked-out-as",
        "why_wrong",
        "Worked out {p} as {a}. What did I do wrong?",
        (UNICODE, WORDS2),
        answer_how="unicode",
    ),
    Phrasing("shout", "why_wrong", "WHY IS {p} = {a} WRONG", (SHOUT,)),
    Phrasing(
        "answer-was",
        "why_wrong",
        "my answer was {a} for {p} but the teacher got {c}",
        (SPACED_X, LATEX),
        shows_claim=True,
    ),
    Phrasing(
        "equals-first",
        "why_wrong",
        "{a} is what i got when i did {p}, why is it wrong",
        (SLANG, PLAIN),
        answer_how="words",
    ),
    Phrasing(
        "correct-right",
        "is_right",
        "just checking {p} = {a} is right yeah?",
        (PLAIN, WORDS),
        needs_wrong=False,
        right_only=True,
        weight=4,
    ),
    # requests that say too little
    Phrasing(
        "vague-no-problem",
        "why_wrong",
        "i got {a} but it says its wrong why",
        (PLAIN,),
        shows_problem=False,
        weight=1,
    ),
    Phrasing(
        "vague-no-answer",
        "why_wrong",
        "why is my answer wrong for {p}",
        (PLAIN, TIGHT_X),
        shows_answer=False,
        weight=1,
    ),
    Phrasing(
        "vague-is-right",
        "is_right",
        "is {a} right??",
        (PLAIN,),
        shows_problem=False,
        needs_wrong=False,
        weight=1,
    ),
)
