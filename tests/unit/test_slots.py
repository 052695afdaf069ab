"""Filling the slots (`retrieval/slot_sources.py`, `retrieval/slots.py`) over a small
embedded graph built by hand: the standards' own content first, then what is aligned with
them, then the message's; grades demote; a K-2 packet leaves out what is beyond it; the
misconceptions slot claims only what each item earns."""

from __future__ import annotations

import pytest

from tutorgraph.models.records import SourceRecords
from tutorgraph.retrieval.slot_sources import (
    StandardContent,
    WeightedStandard,
    standard_content,
    weighted_standards,
)
from tutorgraph.retrieval.slots import SlotInputs, SlotPicks, fill_slots
from tutorgraph.stores.embedded_graph import EmbeddedGraphStore
from tutorgraph.stores.protocols import IndexItem
from tutorgraph_client.models.curriculum import Concept, Document, Misconception, Prerequisite
from tutorgraph_client.models.packet import Hit, LinkedConcept

pytestmark = pytest.mark.unit

SUB = "ccss:2.NBT.B.5"  # grade 2: add and subtract within 100
BIG = "ccss:7.NS.A.1"  # grade 7: add and subtract rational numbers
EQ = "ccss:1.OA.D.7"  # grade 1: the equal sign
CONSTRUCT = "eedi:construct:1"
SECTION = "openstax:section:m1"


def _concept(cid: str, kind: str = "standard") -> Concept:
    return Concept(id=cid, name=cid, kind=kind, source="t", license="CC0-1.0")  # type: ignore[arg-type]


def _doc(did: str, kind: str, cid: str, text: str, grade: str | None = None) -> Document:
    return Document(
        id=did,
        kind=kind,  # type: ignore[arg-type]
        title=did,
        text=text,
        concept_ids=[cid],
        grade=grade,
        source="t",
        license="CC0-1.0",
    )


def _misconception(mid: str, cid: str, text: str, grade: str | None = None) -> Misconception:
    return Misconception(
        id=mid, text=text, concept_ids=[cid], grade=grade, source="t", license="CC0-1.0"
    )


def _aligned(standard: str, concept: str) -> Prerequisite:
    return Prerequisite(
        prerequisite_id=standard,
        concept_id=concept,
        relation="aligned_with",
        source="t",
        score=0.8,
        method="judged:test",
    )


RECORDS = SourceRecords(
    concepts=[
        _concept(SUB),
        _concept(BIG),
        _concept(EQ),
        _concept(CONSTRUCT, "construct"),
        _concept(SECTION, "section"),
    ],
    prerequisites=[_aligned(SUB, CONSTRUCT), _aligned(BIG, SECTION)],
    documents=[
        _doc("tutorgraph:lesson:2.NBT.B.5", "explanation", SUB, "Break a ten: 52 - 38.", "2"),
        _doc("tutorgraph:example:2.NBT.B.5:1", "worked_example", SUB, "71 - 46 = 25", "2"),
        _doc("tutorgraph:practice:2.NBT.B.5:1", "exercise", SUB, "64 - 27 = ?", "2"),
        _doc("tutorgraph:practice:2.NBT.B.5:2", "exercise", SUB, "90 - 45 = ?", "2"),
        _doc("tutorgraph:lesson:1.OA.D.7", "explanation", EQ, "The equal sign means same.", "1"),
        _doc("tutorgraph:lesson:7.NS.A.1", "explanation", BIG, "Add -3 and 5 on a line.", "7"),
        _doc("openstax:m1:chunk:0", "explanation", SECTION, "Subtract integers: 3 - (-2)."),
        _doc("eedi:question:9", "question", CONSTRUCT, "What is 52 - 38?"),
    ],
    misconceptions=[
        _misconception(
            "tutorgraph:misconception:smaller-from-larger",
            SUB,
            "Takes the smaller digit from the larger",
            "2",
        ),
        _misconception("eedi:misconception:1", CONSTRUCT, "Forgets to regroup"),
        _misconception("eedi:misconception:2", SECTION, "Thinks minus a negative is minus"),
    ],
)


def _linked(*scored: tuple[str, float]) -> list[LinkedConcept]:
    return [LinkedConcept(id=c, taxonomy="common-core", name=c, score=s) for c, s in scored]


def _hit(hid: str, kind: str, concept: str, text: str = "…", **kw: object) -> Hit:
    return Hit(
        id=hid,
        ids=[hid],
        kind=kind,  # type: ignore[arg-type]
        text=text,
        concept_ids=[concept],
        score=0.5,
        rank=0,
        found_by=["vector"],
        source_scores={"vector": 0.5},
        fused_score=0.01,
        **kw,  # type: ignore[arg-type]
    )


async def _content(
    standards: list[WeightedStandard],
    *,
    findings: tuple[str, ...] = (),
    message: tuple[Hit, ...] = (),
    misconceptions: str = "all",
) -> StandardContent:
    items = [IndexItem(h.id, h.kind, h.title, h.text, tuple(h.concept_ids)) for h in message]
    return await standard_content(
        EmbeddedGraphStore(RECORDS),
        standards,
        findings=list(findings),
        message_items=items,
        misconceptions=misconceptions,  # type: ignore[arg-type]
    )


def _fill(content: StandardContent, **kw: object) -> SlotPicks:
    base: dict[str, object] = {
        "lessons": [],
        "hits": [],
        "similarities": {},
        "child": (2, 2),
        "teach_slots": 4,
    }
    return fill_slots(content, SlotInputs(**{**base, **kw}))  # type: ignore[arg-type]


def test_the_linkers_standards_carry_its_probability_and_the_callers_share_one() -> None:
    linked = _linked((SUB, 0.9), (EQ, 0.8), (BIG, 0.1))
    weighted = weighted_standards(linked)
    assert [w.id for w in weighted] == [SUB, EQ]  # BIG is far below MIN_PROBABILITY
    assert sum(w.probability for w in weighted) == pytest.approx(1.0, abs=1e-3)
    caller = [LinkedConcept(id=SUB, taxonomy="common-core", name=SUB, evidence={"caller": True})]
    assert weighted_standards(caller) == [WeightedStandard(SUB, 1.0, "caller")]


async def test_the_standards_own_content_comes_first_and_says_where_it_came_from() -> None:
    content = await _content([WeightedStandard(SUB, 0.7), WeightedStandard(EQ, 0.3)])
    nearest = _hit("openstax:m1:chunk:0", "explanation", SECTION)
    picks = _fill(content, lessons=[nearest])
    teach = picks.teach.hits
    assert teach[0].id == "tutorgraph:lesson:2.NBT.B.5"
    assert (teach[0].via, teach[0].standard, teach[0].grade) == ("standard", SUB, "2")
    # One per standard (the slot covers the likely standards), then the message's nearest.
    assert [h.id for h in teach] == [
        "tutorgraph:lesson:2.NBT.B.5",
        "tutorgraph:lesson:1.OA.D.7",
        "openstax:m1:chunk:0",
    ]
    assert teach[-1].via == "message" and teach[-1].standard is None
    # The packet's lessons are the teach slot's, their score the cosine (the search's here).
    assert [h.id for h in picks.lessons] == [h.id for h in teach]
    assert [h.rank for h in picks.lessons] == [1, 2, 3]
    assert picks.lessons[-1].score == 0.5
    # Practice: the standard's own, then what is aligned with it (the construct's question).
    practice = picks.practice.hits
    assert [h.id for h in practice][:2] == [
        "tutorgraph:practice:2.NBT.B.5:1",
        "tutorgraph:practice:2.NBT.B.5:2",
    ]
    assert "eedi:question:9" in [h.id for h in practice]


async def test_content_above_the_childs_grade_is_demoted_and_a_k2_packet_leaves_out_negatives() -> (
    None
):
    even = [WeightedStandard(BIG, 0.5), WeightedStandard(SUB, 0.5)]
    content = await _content(even)
    # A grade-2 child: the grade-7 lesson comes after the grade-2 one, and uses negative
    # numbers, so a K-2 packet leaves it (and the section's integers) out.
    grade2 = _fill(content, child=(2, 2))
    assert [h.id for h in grade2.teach.hits] == ["tutorgraph:lesson:2.NBT.B.5"]
    assert grade2.teach.note is None
    # A grade-7 child gets it first.
    grade7 = _fill(content, child=(7, 7))
    assert grade7.teach.hits[0].id == "tutorgraph:lesson:7.NS.A.1"
    # Nothing else at a K-2 level: the slot holds it and says so.
    only_big = await _content([WeightedStandard(BIG, 1.0)])
    fallback = _fill(only_big, child=(0, 2))
    assert fallback.teach.hits and fallback.teach.note is not None
    assert "negative numbers" in fallback.teach.note


async def test_no_stated_answer_gives_the_standards_own_errors_only_when_it_is_likely() -> None:
    sure = await _content([WeightedStandard(SUB, 0.8), WeightedStandard(EQ, 0.2)])
    picks = _fill(sure, stated=False)
    mis = picks.misconceptions.hits
    assert {h.id for h in mis} == {
        "tutorgraph:misconception:smaller-from-larger",
        "eedi:misconception:1",  # through the construct aligned with the standard
    }
    assert all(h.role == "topic_error" and h.confidence is None for h in mis)
    assert all(h.via == "standard" and h.standard == SUB for h in mis)
    assert picks.stated_answer is False
    # Unsure of the standard: nothing, and why.
    unsure = await _content([WeightedStandard(SUB, 0.5), WeightedStandard(EQ, 0.5)])
    empty = _fill(unsure, stated=False).misconceptions
    assert empty.hits == [] and empty.empty_reason is not None
    assert "0.8" in empty.empty_reason


async def test_a_stated_answer_puts_the_reproduced_one_first_and_the_rest_earn_their_place() -> (
    None
):
    diagnosed = _hit("eedi:misconception:1", "misconception", CONSTRUCT, learned_score=-2.0)
    likely = _hit("eedi:misconception:7", "misconception", CONSTRUCT, learned_score=3.0)
    unlikely = _hit("eedi:misconception:8", "misconception", CONSTRUCT, learned_score=-1.0)
    hits = [likely, unlikely, diagnosed]
    content = await _content(
        [WeightedStandard(SUB, 1.0)], findings=("eedi:misconception:1",), message=tuple(hits)
    )
    picks = _fill(content, hits=hits, stated=True, findings=["eedi:misconception:1"])
    mis = picks.misconceptions.hits
    # The reproduced one alone: once the rules reproduced the answer, the others are not likely.
    assert [(h.id, h.role) for h in mis] == [("eedi:misconception:1", "reproduces_answer")]
    assert mis[0].confidence is not None and mis[0].confidence > 0.5
    assert picks.stated_answer is True
    # Nothing reproduced: only a candidate whose own probability reaches LIKELY follows,
    # marked possible, with that probability.
    none = _fill(content, hits=hits, stated=True, findings=[])
    assert [(h.id, h.role) for h in none.misconceptions.hits] == [
        ("eedi:misconception:7", "possible")
    ]
    assert none.misconceptions.hits[0].confidence == pytest.approx(
        none.misconceptions.hits[0].score
    )


async def test_a_reproduced_misconceptions_standard_joins_the_slots() -> None:
    # The message is linked to the equal sign alone; the answer reproduces a grade-2 error,
    # whose standard's lesson then teaches what went wrong.
    content = await _content(
        [WeightedStandard(EQ, 1.0)], findings=("tutorgraph:misconception:smaller-from-larger",)
    )
    assert [(w.id, w.why) for w in content.standards] == [(EQ, "linked"), (SUB, "diagnosed")]
    picks = _fill(content)
    assert "tutorgraph:lesson:2.NBT.B.5" in [h.id for h in picks.teach.hits]


async def test_a_reproduced_misconceptions_standard_linked_low_is_raised_to_the_first() -> None:
    # "3 + 4 x 2 = 14": the right standard was linked third; the bug rule's finding says it is
    # the one whose lesson teaches what went wrong.
    content = await _content(
        [WeightedStandard(EQ, 0.9), WeightedStandard(SUB, 0.1)],
        findings=("tutorgraph:misconception:smaller-from-larger",),
    )
    assert [(w.id, w.probability, w.why) for w in content.standards] == [
        (EQ, 0.9, "linked"),
        (SUB, 0.9, "diagnosed"),
    ]


async def test_the_grade_of_aligned_content_is_read_from_its_alignment() -> None:
    nearest = _hit("openstax:m1:chunk:0", "explanation", SECTION)
    content = await _content([WeightedStandard(SUB, 1.0)], message=(nearest,))
    assert content.levels[SECTION] == 7  # the section teaches a grade-7 standard
    picks = _fill(content, lessons=[nearest], child=(7, 7))
    graded = {h.id: h.grade for h in picks.teach.hits}
    assert graded["openstax:m1:chunk:0"] == "7"
