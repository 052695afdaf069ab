"""The teaching-content ordering benchmark's items, grades and scores (logic only)."""

from __future__ import annotations

import pytest

from tutorgraph_client.models.curriculum import Document
from tutorgraph_client.models.packet import TIMING_KEYS, Hit, HitKind, ReasoningPacket
from tutorgraph_research.tasks.teaching import held_out_section, item_scores, teaching_items

pytestmark = pytest.mark.unit


def doc(n: str, kind: str, title: str, module: str = "m1", text: str = "x") -> Document:
    return Document(
        id=f"openstax:{module}:{kind}:{n}",
        kind=kind,
        title=title,
        text=text,
        concept_ids=[f"openstax:section:{module}"],
        source="openstax",
        license="CC-BY-4.0",
    )


def section_title(held_out: bool) -> str:
    return next(f"Section {i}" for i in range(100) if held_out_section(f"Section {i}") == held_out)


def test_items_grade_the_subsection_lesson_above_the_section_in_every_book() -> None:
    s = section_title(True)
    docs = [
        doc("e1", "explanation", f"{s} — Add"),
        doc("w1", "worked_example", f"{s} — Add", module="m9"),  # the same section, another book
        doc("x1", "exercise", f"{s} — Add", text="Add.\n3+4\nSolution: 7"),
        doc("x2", "exercise", f"{s} — Subtract"),  # no lesson of its own: not an item
        doc("e2", "explanation", f"{s} — Subtract"),
        doc("o1", "explanation", f"{section_title(False)} — Add"),
    ]
    docs[4] = doc("e2", "worked_example", f"{s} — Multiply")
    items = teaching_items(docs)
    assert [i.id for i in items] == ["openstax:m1:exercise:x1"]
    item = items[0]
    assert item.query == "Add.\n3+4"  # as a student meets it: no solution
    assert item.grades == {
        "openstax:m1:explanation:e1": 2,
        "openstax:m9:worked_example:w1": 2,
        "openstax:m1:exercise:x2": 1,
        "openstax:m1:worked_example:e2": 1,
    }
    assert teaching_items(docs, held_out=False) == []  # the other section has no exercise


def packet(ids: list[tuple[str, HitKind]]) -> ReasoningPacket:
    hits = [
        Hit(
            id=i, ids=[i], kind=k, text="t", score=1.0, rank=1, found_by=["vector"], fused_score=1.0
        )
        for i, k in ids
    ]
    return ReasoningPacket(query="q", timings_ms=dict.fromkeys(TIMING_KEYS, 0.0), results=hits)


def test_scores_skip_the_exercise_itself_and_what_is_not_teaching_content() -> None:
    s = section_title(True)
    docs = [
        doc("e1", "explanation", f"{s} — Add"),
        doc("x1", "exercise", f"{s} — Add"),
        doc("x2", "exercise", f"{s} — Add"),
    ]
    item = teaching_items(docs)[0]
    lesson, other = "openstax:m1:explanation:e1", "openstax:m1:exercise:x2"
    best = item_scores(
        packet(
            [
                (item.id, "exercise"),
                ("m", "misconception"),
                (lesson, "explanation"),
                (other, "exercise"),
            ]
        ),
        item,
    )
    assert best == {"ndcg@10": pytest.approx(1.0), "first_is_subsection": 1.0}
    worse = item_scores(packet([(other, "exercise"), (lesson, "explanation")]), item)
    assert 0 < worse["ndcg@10"] < 1 and worse["first_is_subsection"] == 0.0
    assert item_scores(packet([]), item) == {"ndcg@10": 0.0, "first_is_subsection": 0.0}
