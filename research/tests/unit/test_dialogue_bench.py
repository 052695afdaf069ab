"""The dialogue benchmark's judging (`tutorgraph_research.tasks.dialogue`): which parts apply
to which student turn and what makes each 1 or 0, on packets built by hand; the requests the
runner sends; the summaries' flags and the short-vs-full difference; the paired difference."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tutorgraph_client.models.conversation import DialogueInfo
from tutorgraph_client.models.packet import LinkedConcept, ReasoningPacket
from tutorgraph_client.models.packet_info import AnswerCheck
from tutorgraph_client.models.request import RetrievalRequest
from tutorgraph_research.tasks.dialogue import (
    TurnScore,
    paired,
    requests_for,
    run_dialogue_benchmark,
    same_answer,
    same_calculation,
    same_problem,
    score_turn,
    summarise,
)
from tutorgraph_research.tasks.dialogue_set import Dialogue, DialogueTurn, TurnLabel

pytestmark = pytest.mark.unit

MULT = "ccss:3.OA.C.7"
FRAC = "ccss:3.NF.A.1"


def _label(**kw: Any) -> TurnLabel:
    base: dict[str, Any] = {
        "standards": (MULT,),
        "problem": "7 x 6",
        "answer": "48",
        "correct": False,
        "chit_chat": False,
        "help_request": False,
        "topic": "new",
        "full_message": "What is 7 x 6? I got 48.",
    }
    base.update(kw)
    return TurnLabel(**base)


def _dialogue(*turns: DialogueTurn, kind: str = "wrong_then_right") -> Dialogue:
    return Dialogue("dl-x", kind, "3", "dev", turns)


T0 = DialogueTurn("tutor", "What is 7 x 6?")
S1 = DialogueTurn("student", "48?", _label())
T2 = DialogueTurn("tutor", "Not quite. Try 7 x 5 and add 7.")
S3 = DialogueTurn("student", "42", _label(answer="42", correct=True, topic="kept"))
CHAT = DialogueTurn(
    "student",
    "brb",
    _label(problem=None, answer=None, correct=None, chit_chat=True, topic=None, full_message=None),
)
HELP = DialogueTurn("student", "idk", _label(answer=None, correct=None, help_request=True))
MOVE = DialogueTurn(
    "student",
    "can you help with fractions now",
    _label(
        standards=(FRAC,),
        problem=None,
        answer=None,
        correct=None,
        topic="changed",
        full_message=None,
    ),
)


def _packet(
    concepts: list[str],
    *,
    dialogue: DialogueInfo | None = None,
    check: AnswerCheck | None = None,
    **kw: Any,
) -> ReasoningPacket:
    return ReasoningPacket(
        query="q",
        results=[],
        concepts=[LinkedConcept(id=c, taxonomy="common-core", name=c) for c in concepts],
        timings_ms={},
        dialogue=dialogue,
        answer_check=check,
        **kw,
    )


def _info(**kw: Any) -> DialogueInfo:
    base: dict[str, Any] = {"turns": 1, "problem": "7 x 6", "problem_turn": 0}
    base.update(kw)
    return DialogueInfo(**base)


def test_a_wrong_answer_to_the_tutors_question_read_right() -> None:
    d = _dialogue(T0, S1, T2)
    packet = _packet(
        ["ccss:3.OA.A.1", MULT],
        dialogue=_info(student_answer_turn=1),
        check=AnswerCheck(problem="7 × 6", student_answer="48", correct=False),
    )
    full = _packet([MULT])
    s = score_turn(d, 1, packet, full)
    assert s.id == "dl-x#1" and s.words == 1
    p = s.parts
    assert p["standard@1"] == 0.0 and p["standard@3"] == 1.0
    assert p["problem_read"] == p["answer_read"] == p["problem_answer_read"] == 1.0
    assert p["answer_check"] == 1.0
    assert p["chit_chat_flagged"] == 0.0 and p["help_flagged"] == 0.0
    assert p["tutor_answer"] == 0.0
    assert "answer_none" not in p and "topic_kept" not in p  # the first maths turn is new
    assert p["short_standard@3"] == 1.0 and p["full_standard@3"] == 1.0
    assert 0.0 <= p["packet"] <= 1.0
    assert s.read["problem"] == "7 x 6" and s.read["answer"] == "48"
    assert s.read["answer_turn"] == 1 and s.read["full_concepts"] == [MULT]


def test_an_answer_taken_from_a_tutor_turn_is_counted() -> None:
    d = _dialogue(T0, S1, T2, S3)
    packet = _packet(
        [MULT],
        dialogue=_info(turns=3, student_answer_turn=2, topic="carried"),
        check=AnswerCheck(problem="7 x 6", student_answer="7", correct=False),
    )
    p = score_turn(d, 3, packet).parts
    assert p["tutor_answer"] == 1.0
    assert p["answer_read"] == 0.0 and p["answer_check"] == 0.0
    assert p["topic_kept"] == 1.0
    assert "full_standard@3" not in p  # no full packet given


def test_without_a_dialogue_block_nothing_is_read_from_the_dialogue() -> None:
    d = _dialogue(T0, S1, T2, S3)
    p = score_turn(d, 3, _packet([MULT])).parts
    assert p["problem_read"] == 0.0 and p["answer_read"] == 0.0
    assert p["topic_kept"] == 0.0 and p["tutor_answer"] == 0.0
    assert p["standard@1"] == 1.0


def test_chit_chat_is_judged_by_the_flag_and_the_topic_kept_in_concepts() -> None:
    d = _dialogue(T0, S1, CHAT, kind="chit_chat")
    flagged = _packet(
        [MULT],
        dialogue=_info(turns=2, chit_chat=True),
        no_match=True,
        no_match_reason="chit_chat: a social turn",
    )
    p = score_turn(d, 2, flagged).parts
    assert p["chit_chat_flagged"] == 1.0 and p["topic@3"] == 1.0
    assert p["packet"] == 1.0  # an off-topic message of bench tutoring: flagged
    assert "standard@3" not in p and "answer_none" not in p and "help_flagged" not in p
    by_reason = _packet([], no_match=True, no_match_reason="chit_chat: brb")
    assert score_turn(d, 2, by_reason).parts["chit_chat_flagged"] == 1.0
    missed = _packet([FRAC], dialogue=_info(turns=2))
    q = score_turn(d, 2, missed).parts
    assert q["chit_chat_flagged"] == 0.0 and q["topic@3"] == 0.0


def test_a_help_request_is_not_an_answer() -> None:
    d = _dialogue(T0, HELP, T2, kind="help_request")
    right = _packet([MULT], dialogue=_info(help_request=True))
    p = score_turn(d, 1, right).parts
    assert p["help_flagged"] == 1.0 and p["answer_none"] == 1.0
    assert "answer_read" not in p and "answer_check" not in p
    wrong = _packet(
        [MULT],
        dialogue=_info(student_answer_turn=1),
        check=AnswerCheck(problem="7 x 6", student_answer="idk"),
    )
    q = score_turn(d, 1, wrong).parts
    assert q["help_flagged"] == 0.0 and q["answer_none"] == 0.0


def test_a_change_of_topic_must_move_it() -> None:
    d = _dialogue(T0, S1, MOVE, kind="topic_change")
    moved = _packet([FRAC], dialogue=_info(turns=2, topic="changed"))
    p = score_turn(d, 2, moved).parts
    assert p["topic_moved"] == 1.0 and p["standard@1"] == 1.0
    assert "problem_read" not in p and "short_standard@3" not in p  # six words
    stuck = _packet([MULT], dialogue=_info(turns=2, topic="carried"))
    q = score_turn(d, 2, stuck).parts
    assert q["topic_moved"] == 0.0 and q["standard@3"] == 0.0


def test_an_unlabelled_turn_is_refused() -> None:
    with pytest.raises(ValueError, match="no label"):
        score_turn(_dialogue(T0, S1, T2), 0, _packet([]))


def test_answers_and_problems_are_compared_after_normalising() -> None:
    assert same_answer("60", "60 cm cubed") and same_answer("$1.50", "1.5")
    assert same_answer("x=6", "6") and same_answer("Triangle.", "triangle")
    assert not same_answer("3/8", "1 1/2") and not same_answer(None, "4")
    assert not same_answer("odd", "3")  # a number and a word are never the same
    assert same_problem("What is 56 ÷ 8?", "56 / 8")
    assert same_problem(
        "A rectangle is 4 cm wide. What is its area?", "a rectangle is 4 cm wide, what is its area"
    )
    assert same_problem("2.5 x 4", "2.5 × 4") and not same_problem("25 x 4", "2.5 x 4")
    assert not same_problem(None, "7 x 6")
    assert same_problem("round 347 to the nearest 10", "Round 347 to the nearest ten.")
    assert not same_problem("round 347 to the nearest 100", "Round 347 to the nearest ten.")


def test_the_runner_sends_the_turns_before_as_conversation() -> None:
    d = _dialogue(T0, S1, T2, S3)
    request, full = requests_for(d, 3, grade=True)
    assert request.query == "42" and request.grade == "3"
    assert [(t.role, t.text) for t in request.conversation] == [
        ("tutor", "What is 7 x 6?"),
        ("student", "48?"),
        ("tutor", T2.text),
    ]
    assert full is not None and full.query == "What is 7 x 6? I got 48."
    assert full.conversation == []

    class Recorder:
        def __init__(self) -> None:
            self.seen: list[RetrievalRequest] = []

        async def retrieve(self, request: RetrievalRequest) -> ReasoningPacket:
            self.seen.append(request)
            return _packet([MULT])

    recorder = Recorder()
    scores, packets = asyncio.run(run_dialogue_benchmark(recorder, [d]))  # type: ignore[arg-type]
    assert [s.id for s in scores] == ["dl-x#1", "dl-x#3"] and set(packets) == {"dl-x#1", "dl-x#3"}
    # each short turn is sent twice: in its dialogue, then its full message alone
    assert [len(r.conversation) for r in recorder.seen] == [1, 0, 3, 0]


def _score(sid: str, kind: str, parts: dict[str, float], **kw: Any) -> TurnScore:
    base: dict[str, Any] = {
        "id": sid,
        "dialogue": sid.split("#")[0],
        "turn": 1,
        "kind": kind,
        "split": "dev",
        "grade": "3",
        "words": 1,
        "chit_chat": False,
        "help_request": False,
    }
    base.update(kw)
    return TurnScore(parts=parts, **base)


def test_summaries_give_flag_precision_recall_and_short_vs_full() -> None:
    scores = [
        _score("a#1", "chit_chat", {"chit_chat_flagged": 1.0}, chit_chat=True),
        _score("a#3", "chit_chat", {"chit_chat_flagged": 0.0}, chit_chat=True),
        _score(
            "b#1",
            "wrong_then_right",
            {
                "chit_chat_flagged": 1.0,
                "help_flagged": 0.0,
                "standard@3": 1.0,
                "short_standard@3": 1.0,
                "full_standard@3": 1.0,
            },
        ),
        _score(
            "b#3",
            "wrong_then_right",
            {
                "chit_chat_flagged": 0.0,
                "help_flagged": 1.0,
                "standard@3": 0.0,
                "short_standard@3": 0.0,
                "full_standard@3": 1.0,
            },
            help_request=True,
        ),
        _score("c#1", "help_request", {"chit_chat_flagged": 0.0, "help_flagged": 0.0}, words=9),
    ]
    out = summarise(scores)
    chat = out["chit_chat_flag"]
    assert chat["precision"] == 0.5 and chat["recall"] == 0.5
    assert chat["false_positive_rate"] == round(1 / 3, 4)
    helped = out["help_flag"]
    assert helped["precision"] == 1.0 and helped["recall"] == 1.0 and helped["negatives"] == 2
    assert out["short_vs_full"]["mean"] == -0.5 and out["short_vs_full"]["n"] == 2
    assert out["short"]["standard@3"]["n"] == 2  # maths turns of five words or fewer
    assert out["maths"]["chit_chat_flagged"]["n"] == 3
    assert out["all"]["chit_chat_flagged"]["n"] == 5
    assert out["chit_chat"]["chit_chat_flagged"]["mean"] == 0.5
    lo, hi = out["all"]["chit_chat_flagged"]["ci95"]
    assert lo <= 0.4 <= hi


def test_paired_differences_are_over_the_same_turns() -> None:
    before = [_score("a#1", "chit_chat", {"x": 0.0}), _score("a#2", "chit_chat", {"x": 1.0})]
    after = [_score("a#1", "chit_chat", {"x": 1.0}), _score("b#9", "chit_chat", {"x": 0.0})]
    diff = paired(before, after)
    assert diff["x"]["mean"] == 1.0 and diff["x"]["n"] == 1


def test_a_problem_read_as_its_calculation_is_the_problem_of_the_same_numbers_and_value() -> None:
    story = "You have 5 crayons and you give away 2. How many are left?"
    assert same_calculation("5 - 2", story, "3")
    assert not same_calculation("5 - 2", story, "7")  # another value
    assert not same_calculation("1 + 4", "What is 2 + 3?", "5")  # other numbers
    assert not same_calculation("x - 2 = 4", "3(x - 2) = 12", "6")  # not a calculation
    assert not same_calculation("5 - 2", story, None)  # no right answer known
