"""The dialogue benchmark (issue 63, item 6): does the packet read each student turn in the
light of the dialogue before it?

Each dialogue of `data/benchmarks/dialogues.jsonl` (`tasks/dialogue_set.py`) is replayed one
student turn at a time, as a tutoring app sends it: the turn as `query`, the turns before it
as `conversation`. Each labelled turn's packet is judged against its label, which was made by
reading the curriculum, never the product's output. The parts, each 1.0 or 0.0 per turn, and
only where they apply:

- ``standard@1`` / ``standard@3``: an accepted standard is the packet's first `ccss:`
  concept / among its first three (maths turns);
- ``topic@3``: on a chit-chat turn with a session topic, an accepted standard (the
  session's) is still among the first three concepts, so the app can steer back;
- ``problem_read``: the packet's problem (`dialogue.problem`, else `answer_check.problem`)
  equals the label's after `same_problem`'s normalising, or is its calculation
  (`same_calculation`: the label's numbers, and the problem's right answer as its value;
  "5 - 2" for "You have 5 crayons and give away 2") (maths turns with a problem);
- ``answer_read``: the packet's `answer_check.student_answer` equals the label's answer
  after `same_answer`'s normalising (turns that state an answer);
- ``answer_none``: no answer is read where the turn states none (maths turns, help requests
  included: "idk" is not an answer);
- ``problem_answer_read``: both read right, on turns that state an answer after a tutor
  turn (the issue's "turns that answer a tutor's question");
- ``answer_check``: the packet's `answer_check.correct` equals the label's `correct`;
- ``chit_chat_flagged``: the packet flags chit-chat (`dialogue.chit_chat`, or a
  `no_match_reason` starting ``chit_chat``); every turn, so that precision and recall come
  out of the same rows (`summarise`'s ``chit_chat_flag``);
- ``help_flagged``: the packet's `dialogue.help_request`; every maths turn (``help_flag``);
- ``topic_kept``: on a ``kept`` turn, the packet says the topic was ``carried``;
  ``topic_moved``: on a ``changed`` turn, that it ``changed``;
- ``tutor_answer``: the packet's answer came from a tutor turn (`dialogue.student_answer_turn`
  names one); should be 0.0 on every turn;
- ``packet``: `bench tutoring`'s packet score of the turn (`tasks/tutoring.score_packet`,
  the turn read as a message of that set: chit-chat as off-topic, a wrong answer as a
  stated error);
- ``short_standard@3`` / ``full_standard@3``: on maths turns of five words or fewer, the
  turn's standard@3 in its dialogue, and that of its `full_message` sent alone.

`summarise` gives each part's mean with a 95% bootstrap interval per kind and overall, plus
the two flags' precision and recall and the short-vs-full difference (paired, same turns);
`paired` gives the difference of two runs over the same turns.

>>> same_answer("60 cm cubed", "60"), same_problem("What is 7 x 6?", "7×6")
(True, True)
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph_client.models.conversation import Turn
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest
from tutorgraph_research.harness.results import mean_cell
from tutorgraph_research.harness.results import paired_parts as paired
from tutorgraph_research.tasks.dialogue_set import (
    SHORT_WORDS,
    Dialogue,
    TurnLabel,
    answer_value,
    problem_value,
    words,
)
from tutorgraph_research.tasks.packet_messages import OFF_TOPIC, PacketMessage
from tutorgraph_research.tasks.tutoring import score_packet

__all__ = [
    "PARTS",
    "TurnScore",
    "paired",
    "requests_for",
    "run_dialogue_benchmark",
    "same_answer",
    "same_calculation",
    "same_problem",
    "score_turn",
    "summarise",
]

PARTS = (
    "standard@1",
    "standard@3",
    "topic@3",
    "problem_read",
    "answer_read",
    "answer_none",
    "problem_answer_read",
    "answer_check",
    "chit_chat_flagged",
    "help_flagged",
    "topic_kept",
    "topic_moved",
    "tutor_answer",
    "packet",
    "short_standard@3",
    "full_standard@3",
)
CHIT_CHAT = "chit_chat"
_LEAD = re.compile(
    r"^(?:(?:sure|of course|ok|okay|great)[.,!]?\s+)?"
    r"(?:(?:what is|what's|whats|work out|solve|find|calculate|evaluate)\s+)?(?:the\s+)?"
)
_STOPS = re.compile(r"[,.?!;:](?=\s|$)")
_ASSIGN = re.compile(r"^[a-z]\s*=\s*")
# Number words as digits, so "round 347 to the nearest ten" reads as "... nearest 10".
_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
)
_NUMBER_WORDS = {w: str(n) for n, w in enumerate(_UNITS.split())} | {
    "thirty": "30",
    "forty": "40",
    "fifty": "50",
    "hundred": "100",
    "thousand": "1000",
}
_WORD = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")\b")


@dataclass(frozen=True)
class TurnScore:
    """One student turn's parts (only those that apply to it)."""

    id: str  # "<dialogue id>#<turn number>"
    dialogue: str
    turn: int
    kind: str
    split: str
    grade: str
    words: int
    chit_chat: bool
    help_request: bool
    parts: dict[str, float] = field(default_factory=dict)
    # What the packet read, for reading the misses: its problem and answer, the check's
    # verdict, the dialogue's flags and topic, and its first three Common Core concepts.
    read: dict[str, Any] = field(default_factory=dict)


def same_problem(read: str | None, label: str) -> bool:
    """Whether a problem read equals the label's: case, white space, a sentence's closing
    punctuation, a leading acknowledgement ("Sure.") and "what is (the)" / "solve", the way
    × ÷ − ^2 are written and number words ("ten" for 10) are ignored, and so are sentences
    without a number around the problem ("Right! Which is less, 6 or 2?", "Leave it in
    terms of pi.") or words without one before it ("next question is area of a triangle
    base 10 height 6") or after it ("Write 1/3 as a decimal using long division."): they
    frame the problem and change none of its numbers.

    >>> same_problem("Solve 2x + 5 = 17.", "2x+5=17"), same_problem("7 x 6", "7 x 5")
    (True, False)
    >>> same_problem("Great job! Now, what is 4 x 6?", "4 x 6")
    True
    >>> same_problem("How much for 12 cups?", "It takes 2 cups for 3. How much for 12 cups?")
    False
    """
    if read is None:
        return False
    got, want = _problem_key(read), _problem_key(label)
    if got == want:
        return True
    core_got, core_want = _problem_key(_core(read)), _problem_key(_core(label))
    if core_got and core_got == core_want:
        return True
    short, long = sorted((got, want), key=len)
    if not _DIGITS.search(short):
        return False
    if long.endswith(short) and not _DIGITS.search(long[: -len(short)]):
        return True
    return long.startswith(short) and not _DIGITS.search(long[len(short) :])


def _core(text: str) -> str:
    """The text without its first and last sentences that have no digit ("Right!")."""
    sentences = [s for s in _SENTENCE.split(text.strip()) if s.strip()]
    while sentences and not _DIGITS.search(sentences[0]):
        sentences.pop(0)
    while sentences and not _DIGITS.search(sentences[-1]):
        sentences.pop()
    return " ".join(sentences)


# "to the nearest tenth" is "to 1 dp", as the reader writes it.
_NEAREST_PLACE = re.compile(r"to the nearest (tenth|hundredth|thousandth)")
_PLACES = {"tenth": 1, "hundredth": 2, "thousandth": 3}
_SENTENCE = re.compile(r"(?<=[.?!:])\s+")


def _problem_key(text: str) -> str:
    t = text.strip().lower().replace("×", "x").replace("*", "x").replace("÷", "/")
    t = _LEAD.sub("", t.replace("−", "-"))
    t = _WORD.sub(lambda m: _NUMBER_WORDS[m[1]], t)
    t = t.replace(" squared", "^2").replace(" cubed", "^3")
    t = _NEAREST_PLACE.sub(lambda m: f"to {_PLACES[m[1]]} dp", t)
    return re.sub(r"\s+", "", _STOPS.sub("", t))


_DIGITS = re.compile(r"\d+(?:\.\d+)?")


def same_calculation(read: str | None, label: str, right: str | None) -> bool:
    """Whether a problem read as a calculation ("5 - 2") is the label's problem in words
    ("You have 5 crayons and you give away 2. How many are left?"): its numbers are all the
    label's and its value is the problem's right answer (`right`, from the dialogue's
    labels). A calculation of other numbers with the same value ("1 + 4" for "2 + 3") is
    not.

    >>> same_calculation("5 - 2", "You have 5 crayons and give away 2. How many left?", "3")
    True
    >>> same_calculation("1 + 4", "What is 2 + 3?", "5")
    False
    """
    if read is None or right is None:
        return False
    value, want = problem_value(read), answer_value(right)
    if value is None or want is None or value != want:
        return False
    numbers = _DIGITS.findall(read.replace(",", ""))
    return bool(numbers) and set(numbers) <= set(_DIGITS.findall(label.replace(",", "")))


def _right_answer(dialogue: Dialogue, label: TurnLabel) -> str | None:
    """The right answer of `label`'s problem: its own answer when right, else that of a turn
    of the dialogue labelled right for the same problem."""
    if label.correct and label.answer is not None:
        return label.answer
    for turn in dialogue.turns:
        other = turn.label
        if other is not None and other.problem == label.problem and other.correct:
            return other.answer
    return None


def same_answer(read: str | None, label: str) -> bool:
    """Whether an answer read equals the label's: the same number once a unit (with its
    power), a currency sign, "x =" or "about" is dropped ("60 cm cubed" = "60", "60 cm^3" =
    "60", "$1.50" = "1.5", "about 300" = "300"), a number or unit fraction in words as
    digits ("eight" = "8", "a fourth" = "1/4"), "ya" as "yes"; else the same text up to case,
    white space, closing punctuation and a leading article ("an outlier" = "outlier").

    >>> same_answer("x = 6", "6"), same_answer("3/8", "1 1/2"), same_answer("Odd", "odd")
    (True, False, True)
    """
    if read is None:
        return False
    read, label = _as_said(read), _as_said(label)
    got, want = answer_value(read), answer_value(label)
    if got is not None or want is not None:
        return got is not None and got == want
    return _answer_key(read) == _answer_key(label)


def _answer_key(text: str) -> str:
    t = _ASSIGN.sub("", text.strip().lower().rstrip("?!. "))
    return re.sub(r"\s+", "", t)


# A unit fraction in words ("a fourth", "one third") as it is written in digits.
_PART = {"half": 2, "third": 3, "fourth": 4, "quarter": 4, "fifth": 5, "sixth": 6,
         "eighth": 8, "tenth": 10}  # fmt: skip
_UNIT_FRACTION = re.compile(r"^(?:a|an|one)\s+(" + "|".join(_PART) + r")$")


def _as_said(text: str) -> str:
    t = _ABOUT.sub("", _UNIT_POWER.sub("", text.strip().lower().rstrip("?!. ")))
    if m := _UNIT_FRACTION.match(t):
        return f"1/{_PART[m[1]]}"
    if t in _NUMBER_WORDS:
        return _NUMBER_WORDS[t]
    return _YES.get(t, _ARTICLE.sub("", t))


_ARTICLE = re.compile(r"^(?:a|an|the)\s+")
_ABOUT = re.compile(r"^(?:about|around|roughly|approximately|approx)\s+")
_UNIT_POWER = re.compile(r"(?<=[a-z])\s*(?:\^\s*[23]|[²³])")
_YES = {"ya": "yes", "yeah": "yes", "yep": "yes", "yup": "yes", "nope": "no", "nah": "no"}


def _ccss(packet: ReasoningPacket) -> list[str]:
    return [c.id for c in packet.concepts if c.id.startswith("ccss:")]


def _at(packet: ReasoningPacket, accepted: Sequence[str], k: int) -> float:
    return float(bool(set(accepted).intersection(_ccss(packet)[:k])))


def _chit_chat(packet: ReasoningPacket) -> bool:
    dialogue = getattr(packet, "dialogue", None)
    reason = packet.no_match_reason or ""
    return bool(dialogue is not None and dialogue.chit_chat) or reason.startswith(CHIT_CHAT)


def _as_message(dialogue: Dialogue, number: int, text: str, label: TurnLabel) -> PacketMessage:
    """The turn as a message of `bench tutoring`'s set, for its packet score."""
    if label.chit_chat:
        kind = OFF_TOPIC
    elif label.correct is False:
        kind = "stated_error"
    else:
        kind = "concept"
    return PacketMessage(
        id=f"{dialogue.id}#{number}",
        text=text,
        kind=kind,
        tags=(),
        grade=None if label.chit_chat else dialogue.grade,
        standards=() if label.chit_chat else label.standards,
        sections=(),
        misconceptions=(),
        problem=label.problem,
        student_answer=label.answer,
        stated_answer=label.answer,
        split=dialogue.split,
        reason=CHIT_CHAT if label.chit_chat else None,
    )


def score_turn(
    dialogue: Dialogue,
    number: int,
    packet: ReasoningPacket,
    full: ReasoningPacket | None = None,
) -> TurnScore:
    """The parts of turn `number`'s packet that apply to it (see the module's docstring);
    `full`: the packet of its `full_message` sent alone, for a short turn."""
    turn = dialogue.turns[number]
    label = turn.label
    if label is None:
        raise ValueError(f"{dialogue.id} turn {number} has no label")
    info = getattr(packet, "dialogue", None)
    check = packet.answer_check
    read_answer = check.student_answer if check is not None else None
    parts: dict[str, float] = {"chit_chat_flagged": float(_chit_chat(packet))}
    answer_turn = info.student_answer_turn if info is not None else None
    from_tutor = (
        answer_turn is not None
        and 0 <= answer_turn < len(dialogue.turns)
        and dialogue.turns[answer_turn].role == "tutor"
    )
    parts["tutor_answer"] = float(from_tutor)
    parts["packet"] = score_packet(_as_message(dialogue, number, turn.text, label), packet).parts[
        "packet"
    ]
    read_problem = info.problem if info is not None else None
    if read_problem is None and check is not None:
        read_problem = check.problem
    read: dict[str, Any] = {
        "problem": read_problem,
        "answer": read_answer,
        "correct": check.correct if check is not None else None,
        "topic": info.topic if info is not None else None,
        "chit_chat": info.chit_chat if info is not None else None,
        "help_request": info.help_request if info is not None else None,
        "answer_turn": answer_turn,
        "concepts": _ccss(packet)[:3],
    }
    if label.chit_chat:
        if label.standards:
            parts["topic@3"] = _at(packet, label.standards, 3)
        return _score(dialogue, number, label, parts, read)
    parts["standard@1"] = _at(packet, label.standards, 1)
    parts["standard@3"] = _at(packet, label.standards, 3)
    parts["help_flagged"] = float(info is not None and info.help_request)
    if label.problem is not None:
        parts["problem_read"] = float(
            same_problem(read_problem, label.problem)
            or same_calculation(read_problem, label.problem, _right_answer(dialogue, label))
        )
    if label.answer is None:
        parts["answer_none"] = float(read_answer is None)
    else:
        parts["answer_read"] = float(same_answer(read_answer, label.answer))
        after_tutor = any(t.role == "tutor" for t in dialogue.turns[:number])
        if after_tutor and "problem_read" in parts:
            parts["problem_answer_read"] = parts["problem_read"] * parts["answer_read"]
        parts["answer_check"] = float(check is not None and check.correct is label.correct)
    if label.topic == "kept":
        parts["topic_kept"] = float(info is not None and info.topic == "carried")
    elif label.topic == "changed":
        parts["topic_moved"] = float(info is not None and info.topic == "changed")
    if label.full_message is not None and words(turn.text) <= SHORT_WORDS:
        parts["short_standard@3"] = parts["standard@3"]
        if full is not None:
            parts["full_standard@3"] = _at(full, label.standards, 3)
            read["full_concepts"] = _ccss(full)[:3]
    return _score(dialogue, number, label, parts, read)


def _score(
    dialogue: Dialogue,
    number: int,
    label: TurnLabel,
    parts: dict[str, float],
    read: dict[str, Any],
) -> TurnScore:
    return TurnScore(
        id=f"{dialogue.id}#{number}",
        dialogue=dialogue.id,
        turn=number,
        kind=dialogue.kind,
        split=dialogue.split,
        grade=dialogue.grade,
        words=words(dialogue.turns[number].text),
        chit_chat=label.chit_chat,
        help_request=label.help_request,
        parts=parts,
        read=read,
    )


def requests_for(
    dialogue: Dialogue, number: int, *, grade: bool = False
) -> tuple[RetrievalRequest, RetrievalRequest | None]:
    """The request an app sends for turn `number` (the turn as `query`, the turns before it
    as `conversation`) and, for a short turn, its `full_message` sent alone (or None)."""
    turn = dialogue.turns[number]
    known = {"grade": dialogue.grade} if grade else {}
    history = [
        Turn.model_validate({"role": t.role, "text": t.text}) for t in dialogue.turns[:number]
    ]
    request = RetrievalRequest(query=turn.text, conversation=history, **known)
    label = turn.label
    full = None
    if label is not None and label.full_message is not None:
        full = RetrievalRequest(query=label.full_message, **known)
    return request, full


async def run_dialogue_benchmark(
    retriever: HybridRetriever,
    dialogues: Sequence[Dialogue],
    *,
    grade: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[TurnScore], dict[str, ReasoningPacket]]:
    """Score every labelled student turn, one dialogue at a time and in order, as a tutoring
    app would send them (each short turn's full message too)."""
    scores: list[TurnScore] = []
    packets: dict[str, ReasoningPacket] = {}
    for done, dialogue in enumerate(dialogues, start=1):
        for number, _, _ in dialogue.labelled():
            request, alone = requests_for(dialogue, number, grade=grade)
            packet = await retriever.retrieve(request)
            full = await retriever.retrieve(alone) if alone is not None else None
            score = score_turn(dialogue, number, packet, full)
            packets[score.id] = packet
            scores.append(score)
        if progress is not None:
            progress(done, len(dialogues))
    return scores, packets


def _flag(
    scores: Sequence[TurnScore], part: str, truth: Callable[[TurnScore], bool]
) -> dict[str, Any]:
    """A flag's precision and recall over the turns that carry `part`, with the counts."""
    rows = [(s.parts[part] >= 1.0, truth(s)) for s in scores if part in s.parts]
    flagged = sum(f for f, _ in rows)
    right = sum(f and t for f, t in rows)
    positives = sum(t for _, t in rows)
    negatives = len(rows) - positives
    wrong = flagged - right
    return {
        "precision": round(right / flagged, 4) if flagged else None,
        "recall": round(right / positives, 4) if positives else None,
        "false_positive_rate": round(wrong / negatives, 4) if negatives else None,
        "flagged_right": right,
        "flagged_wrong": wrong,
        "positives": positives,
        "negatives": negatives,
    }


def summarise(scores: Sequence[TurnScore]) -> dict[str, Any]:
    """Per group ("all", "maths", "short" (maths turns of five words or fewer), each kind)
    and part: mean, 95% interval and n; plus the chit-chat and help flags' precision, recall
    and false-positive rate, and the short-vs-full difference of standard@3 on the same turns
    (`short_vs_full`, with its paired interval)."""
    groups: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for s in scores:
        names = ["all", s.kind]
        if not s.chit_chat:
            names.append("maths")
            if s.words <= SHORT_WORDS:
                names.append("short")
        for part, value in s.parts.items():
            for name in names:
                groups[name][part].append(value)
    out: dict[str, Any] = {
        name: {part: mean_cell(vals) for part, vals in parts.items()}
        for name, parts in sorted(groups.items())
    }
    out["chit_chat_flag"] = _flag(scores, "chit_chat_flagged", lambda s: s.chit_chat)
    out["help_flag"] = _flag(scores, "help_flagged", lambda s: s.help_request)
    diffs = [
        s.parts["short_standard@3"] - s.parts["full_standard@3"]
        for s in scores
        if "short_standard@3" in s.parts and "full_standard@3" in s.parts
    ]
    out["short_vs_full"] = mean_cell(diffs) if diffs else None
    return out
