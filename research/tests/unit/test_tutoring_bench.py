"""The whole-packet benchmark's judging (`tutorgraph_research.tasks.tutoring`): which parts
apply to which message, and what makes each 1 or 0, on packets built by hand."""

from __future__ import annotations

import pytest

from tutorgraph_client.models.packet import (
    Hit,
    LinkedConcept,
    PacketSlots,
    ReasoningPacket,
    Slot,
    SlotHit,
)
from tutorgraph_client.models.packet_info import AnswerCheck, DiagnosisFinding
from tutorgraph_research.tasks.packet_messages import PacketMessage
from tutorgraph_research.tasks.tutoring import (
    MessageScore,
    paired,
    reliability,
    request_for,
    score_packet,
    summarise,
)

pytestmark = pytest.mark.unit

SECTION = "Find Multiples and Factors — Identify Multiples of Numbers"


def _message(kind: str = "concept", **kw: object) -> PacketMessage:
    base: dict[str, object] = {
        "id": "pm-x",
        "text": "what is a multiple",
        "kind": kind,
        "tags": (),
        "grade": "4",
        "standards": ("ccss:4.OA.B.4",),
        "sections": (SECTION,),
        "misconceptions": (),
        "problem": None,
        "student_answer": None,
        "stated_answer": None,
        "split": "dev",
        "reason": None,
    }
    base.update(kw)
    return PacketMessage(**base)  # type: ignore[arg-type]


def _hit(
    hid: str, kind: str, title: str = "", rank: int = 1, concept_ids: tuple[str, ...] = ()
) -> Hit:
    return Hit(
        id=hid,
        ids=[hid],
        kind=kind,  # type: ignore[arg-type]
        title=title,
        text="…",
        concept_ids=list(concept_ids),
        score=1.0,
        rank=rank,
        found_by=["vector"],
        fused_score=1.0,
    )


def _packet(results: list[Hit], concepts: list[str], **kw: object) -> ReasoningPacket:
    return ReasoningPacket(
        query="q",
        results=results,
        concepts=[LinkedConcept(id=c, taxonomy="common-core", name=c) for c in concepts],
        timings_ms={},
        **kw,  # type: ignore[arg-type]
    )


def test_a_concept_question_scores_standard_teaching_and_balance() -> None:
    packet = _packet(
        [_hit("openstax:a", "explanation", SECTION), _hit("ex", "exercise", "Other")],
        ["ccss:3.OA.A.1", "ccss:4.OA.B.4"],
    )
    parts = score_packet(_message(), packet).parts
    assert parts["standard@1"] == 0.0 and parts["standard@3"] == 1.0
    assert parts["teach@10"] == 1.0 and parts["balanced"] == 1.0
    assert "misconception@10" not in parts  # only for stated errors
    assert parts["packet"] == 1.0  # standard@3, teach, balanced, not flagged


def test_teaching_of_another_section_balances_but_does_not_teach_the_message() -> None:
    packet = _packet([_hit("o", "worked_example", "Other — Section")], ["ccss:4.OA.B.4"])
    parts = score_packet(_message(), packet).parts
    assert parts["teach@10"] == 0.0 and parts["balanced"] == 1.0


def test_a_lesson_aligned_to_an_accepted_standard_teaches_and_a_grade_band_is_read_from_it() -> (
    None
):
    own = _hit(
        "tutorgraph:lesson:4.OA.B.4", "explanation", "Grade 4: Multiples", 1, ("ccss:4.OA.B.4",)
    )
    parts = score_packet(_message(), _packet([own], ["ccss:4.OA.B.4"])).parts
    assert parts["teach@10"] == 1.0 and parts["teach_band@10"] == 1.0
    # A lesson of another standard in the band: not on target, but at the child's level.
    other = _hit("tutorgraph:lesson:5.NF.A.1", "explanation", "Grade 5", 1, ("ccss:5.NF.A.1",))
    parts = score_packet(_message(), _packet([other], ["ccss:4.OA.B.4"])).parts
    assert parts["teach@10"] == 0.0 and parts["teach_band@10"] == 1.0
    # A grade-7 lesson is of another band; an OpenStax section has no grade.
    seventh = _hit("tutorgraph:lesson:7.EE.A.1", "explanation", "", 1, ("ccss:7.EE.A.1",))
    section = _hit("openstax:a", "explanation", SECTION, 2, ("openstax:section:m1",))
    parts = score_packet(_message(), _packet([seventh, section], ["ccss:4.OA.B.4"])).parts
    assert parts["teach@10"] == 1.0 and parts["teach_band@10"] == 0.0
    summary = summarise([score_packet(_message(), _packet([own], ["ccss:4.OA.B.4"]))])
    assert summary["teach_by_band"]["3-5"]["teach_band@10"]["mean"] == 1.0


def test_a_stated_error_needs_its_misconception_and_teaching_beside_it() -> None:
    message = _message(
        "stated_error",
        misconceptions=("eedi:misconception:7",),
        stated_answer="18",
        student_answer="18",
    )
    only_errors = _packet(
        [_hit(f"eedi:misconception:{i}", "misconception", rank=i) for i in range(1, 11)],
        ["ccss:4.OA.B.4"],
    )
    parts = score_packet(message, only_errors).parts
    assert parts["misconception@10"] == 1.0
    assert parts["teach@10"] == 0.0 and parts["balanced"] == 0.0
    # Teaching past the top 10, or among the lessons, counts when the context carries it:
    # the context is what an app's model reads.
    lesson = _hit("openstax:b", "explanation", SECTION)
    with_lesson = only_errors.model_copy(update={"lessons": [lesson]})
    assert score_packet(message, with_lesson).parts["balanced"] == 0.0
    context = "## Explanations\n[openstax:b] " + SECTION + ": …"
    for packet in (
        with_lesson.model_copy(update={"context": context}),
        only_errors.model_copy(
            update={"results": [*only_errors.results, lesson], "context": context}
        ),
    ):
        parts = score_packet(message, packet).parts
        assert parts["teach@10"] == 1.0 and parts["balanced"] == 1.0


def test_off_topic_is_judged_on_the_flag_alone() -> None:
    message = _message("off_topic", grade=None, standards=(), sections=(), reason="a greeting")
    confident = _packet([_hit("x", "explanation", SECTION)], ["ccss:4.OA.B.4"])
    # The packet score is the flag alone; the reader's precision is reported beside it.
    parts = score_packet(message, confident).parts
    assert parts == {"flagged": 0.0, "packet": 0.0, "reader_none": 1.0}


def test_the_reader_and_the_teach_slot_are_reported_beside_the_packet() -> None:
    stated = _message(
        "stated_error",
        stated_answer="18",
        student_answer="18",
        misconceptions=("eedi:misconception:2316",),
    )
    packet = _packet([_hit("x", "explanation", SECTION)], ["ccss:4.OA.B.4"])
    parts = score_packet(stated, packet).parts
    assert parts["reader_read"] == 0.0 and "reader_none" not in parts  # nothing was read
    assert parts["teach_empty"] == 1.0  # the packet's teach slot holds nothing
    # standard@3, teach@10 and not flagged hold; misconception@10 and balanced do not.
    assert parts["packet"] == 0.6


def test_reliability_bins_the_confidence_against_the_first_standard() -> None:
    rows = [
        MessageScore("a", "concept", "dev", "4", {"standard@1": 1.0}, confidence=0.9),
        MessageScore("b", "concept", "dev", "4", {"standard@1": 0.0}, confidence=0.1),
        MessageScore("c", "off_topic", "dev", None, {"flagged": 1.0}, confidence=0.05),
        MessageScore("d", "concept", "dev", "4", {"standard@1": 1.0}),  # no confidence
    ]
    rel = reliability(rows)
    assert rel["n"] == 3
    assert [(b["n"], b["observed"]) for b in rel["bins"]] == [(2, 0.0), (1, 1.0)]
    assert rel["ece"] == round((2 * 0.075 + 1 * 0.1) / 3, 4)


def test_summary_counts_the_flag_on_math_and_off_topic_messages() -> None:
    scores = [
        MessageScore("a", "off_topic", "dev", None, {"flagged": 1.0, "packet": 1.0}),
        MessageScore("b", "off_topic", "dev", None, {"flagged": 0.0, "packet": 0.0}),
        MessageScore("c", "concept", "dev", "4", {"flagged": 1.0, "packet": 0.5}),
        MessageScore("d", "concept", "dev", "4", {"flagged": 0.0, "packet": 1.0}),
    ]
    summary = summarise(scores)
    flag = summary["off_topic_flag"]
    assert flag["precision"] == 0.5 and flag["recall"] == 0.5 and flag["flagged_math"] == 1
    assert summary["math"]["packet"]["mean"] == 0.75 and summary["all"]["packet"]["n"] == 4
    better = [MessageScore(s.id, s.kind, s.split, s.grade, {"packet": 1.0}) for s in scores]
    diff = paired(scores, better)["packet"]
    assert diff["mean"] == 0.375 and diff["n"] == 4


def test_fields_send_the_problem_and_the_answer_apart() -> None:
    message = _message(problem="9 squared", student_answer="18", stated_answer="18")
    assert request_for(message).problem is None
    sent = request_for(message, fields=True)
    assert (sent.problem, sent.student_answer, sent.query) == ("9 squared", "18", message.text)
    with_grade = request_for(message, fields=True, grade=True)
    assert (with_grade.grade, with_grade.problem) == ("4", "9 squared")
    assert request_for(message, grade=True).grade == "4"
    assert request_for(message).grade is None


def test_the_teach_slot_share_written_for_the_band_is_reported_per_band_and_for_k5() -> None:
    own = _hit("tutorgraph:lesson:4.OA.B.4", "explanation", "", 1, ("ccss:4.OA.B.4",))
    seventh = _hit("tutorgraph:lesson:7.EE.A.1", "explanation", "", 2, ("ccss:7.EE.A.1",))
    slots = PacketSlots(teach=Slot(hits=[own, seventh], scale="cosine"))
    packet = _packet([], ["ccss:4.OA.B.4"], slots=slots)
    score = score_packet(_message(), packet)
    assert score.parts["teach_slot_band"] == 0.5
    summary = summarise([score])
    assert summary["teach_by_band"]["K-5"]["teach_slot_band"]["mean"] == 0.5
    assert summary["teach_by_band"]["3-5"]["teach_slot_band"]["n"] == 1
    # An empty slot is not scored (teach_empty says so).
    assert "teach_slot_band" not in score_packet(_message(), _packet([], [])).parts


def test_misconceptions_of_a_message_stating_no_answer_must_be_its_standards_own() -> None:
    own, stray = "tutorgraph:misconception:borrow", "eedi:misconception:9"
    mine = _hit(own, "misconception")
    other = _hit(stray, "misconception")
    for hits, want in (([], 1.0), ([mine], 1.0), ([mine, other], 0.0)):
        slots = PacketSlots(misconceptions=Slot(hits=hits, scale="fused"))
        parts = score_packet(_message(), _packet([], [], slots=slots), {own}).parts
        assert parts["misconception_own"] == want
    # Not judged without the graph's list, nor for a message that states an answer.
    slots = PacketSlots(misconceptions=Slot(hits=[other], scale="fused"))
    assert "misconception_own" not in score_packet(_message(), _packet([], [], slots=slots)).parts
    stated = _message("stated_error", stated_answer="18", student_answer="18")
    parts = score_packet(stated, _packet([], [], slots=slots), {own}).parts
    assert "misconception_own" not in parts


def test_practice_is_on_target_when_aligned_generated_or_given_through_the_standard() -> None:
    aligned = _hit("tutorgraph:practice:4.OA.B.4:1", "exercise", "", 0, ("ccss:4.OA.B.4",))
    made = aligned.model_copy(update={"id": "generated:4.OA.B.4:ab", "generated": True})
    through = SlotHit.of(_hit("openstax:ex", "exercise"), via="standard", standard="ccss:4.OA.B.4")
    stray = _hit("openstax:fence", "exercise", "", 0, ("ccss:3.MD.D.8",))
    for hits, first, share in (
        ([made, aligned, through, stray], 1.0, 0.75),
        ([stray, aligned], 0.0, 0.5),
        ([], 0.0, None),
    ):
        slots = PacketSlots(practice=Slot(hits=hits, scale="slot"))
        parts = score_packet(_message(), _packet([], [], slots=slots)).parts
        assert parts["practice_on_target"] == first
        assert parts.get("practice_share") == share


def test_the_context_is_judged_for_the_answer_check_the_diagnosis_and_no_match() -> None:
    stated = _message("stated_error", stated_answer="26", student_answer="26")
    check = AnswerCheck(problem="52 - 38", student_answer="26", correct=False, correct_answer="14")
    found = DiagnosisFinding(
        misconception_id="m", rule="r", reproduced_answer="26", explanation="smaller from larger"
    )
    told = "## About this message\nAnswer check: 26 is wrong.\nDiagnosis: smaller from larger."
    parts = score_packet(
        stated, _packet([], [], answer_check=check, diagnosis=[found], context=told)
    ).parts
    assert parts["context_answer"] == parts["context_diagnosis"] == 1.0
    parts = score_packet(stated, _packet([], [], answer_check=check, context="[x] a lesson")).parts
    assert parts["context_answer"] == 0.0 and "context_diagnosis" not in parts
    flagged = _packet([], [], no_match=True, context="Nothing in the curriculum matched.")
    assert score_packet(_message(), flagged).parts["context_no_match"] == 1.0
    leaky = _packet([], [], no_match=True, context="[openstax:a] a worked example")
    assert score_packet(_message(), leaky).parts["context_no_match"] == 0.0
