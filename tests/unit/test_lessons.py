"""A packet's lessons: the in-memory search over the index's lessons and the hits it makes
(logic only; `tests/integration/test_lessons_index.py` runs them on a real index)."""

from __future__ import annotations

import numpy as np
import pytest
from pydantic import ValidationError

from tutorgraph.embedding.stored_vectors import StoredVectors
from tutorgraph.retrieval.hits import lesson_hit
from tutorgraph.stores.lessons import (
    VOTE_RANK_K,
    LessonIndex,
    choose_lessons,
    subsection_votes,
)
from tutorgraph.stores.protocols import IndexItem, ScoredItem
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.unit


def _item(id_: str, kind: str = "explanation") -> IndexItem:
    return IndexItem(id_, kind, f"title {id_}", f"text of {id_}")  # type: ignore[arg-type]


def test_the_search_ranks_by_cosine_and_breaks_ties_by_id() -> None:
    items = [_item("b"), _item("a"), _item("c", "worked_example")]
    vectors = np.array([[1, 0], [1, 0], [0.6, 0.8]], dtype=np.float32) * 3  # normalised inside
    index = LessonIndex(items, vectors)
    found = index.search(np.array([1, 0], dtype=np.float32), 2)
    assert [(s.item.id, s.score) for s in found] == [("a", 1.0), ("b", 1.0)]
    assert [s.item.id for s in index.search(np.array([0, 1], np.float32), 5)] == ["c", "a", "b"]
    assert index.search(np.array([1, 0], np.float32), 0) == []
    with pytest.raises(ValueError, match="2 items but 1 vectors"):
        LessonIndex(items[:2], vectors[:1])


def test_the_index_keeps_only_lessons_with_stored_vectors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    items = [_item("x"), _item("w", "worked_example"), _item("e", "exercise")]
    texts = [it.search_text for it in items]
    vectors = np.eye(3, 4, dtype=np.float32)
    fingerprint = "f" * 64
    StoredVectors.write(tmp_path, texts, vectors, model="m", fingerprint=fingerprint)
    stored = StoredVectors.read(tmp_path)
    assert stored is not None
    index = LessonIndex.of(items, stored)
    assert index is not None and len(index) == 2
    assert index.search(np.array([0, 1, 0, 0], np.float32), 1)[0].item.id == "w"
    # A lesson without its vector (another ingest's vectors): no lesson index at all.
    assert LessonIndex.of([*items, _item("new")], stored) is None
    assert LessonIndex.of([_item("e", "exercise")], stored) is None


def test_a_searched_lesson_says_where_it_came_from() -> None:
    hit = lesson_hit(ScoredItem(_item("x"), 0.71), 2)
    assert hit.found_by == ["vector"] and hit.source_scores == {"vector": 0.71}
    assert hit.score == 0.71 and hit.fused_score == 0.0 and hit.rank == 2
    assert hit.title == "title x" and hit.kind == "explanation"


@pytest.mark.parametrize("n", [-1, 11])
def test_a_request_asks_for_zero_to_ten_lessons(n: int) -> None:
    with pytest.raises(ValidationError):
        RetrievalRequest(query="ratios", lessons=n)
    assert RetrievalRequest(query="ratios", lessons=0).lessons == 0


def _titled(id_: str, title: str, kind: str = "explanation", score: float = 0.5) -> ScoredItem:
    return ScoredItem(IndexItem(id_, kind, title, f"text of {id_}"), score)  # type: ignore[arg-type]


def test_teaching_hits_vote_for_their_subsection_by_rank() -> None:
    dense = [
        _titled("c", "6.RP.A.1", "concept"),
        _titled("e1", "Subtract — In Applications", "exercise"),
        _titled("m", "Adds the digits", "misconception"),
        _titled("w", "Add — Models", "worked_example"),
    ]
    lexical = [_titled("e2", "Subtract — In Applications", "exercise")]
    votes = subsection_votes(dense, lexical)
    k = VOTE_RANK_K
    assert votes == {
        "Subtract — In Applications": round(1 / (k + 2) + 1 / (k + 1), 6),
        "Add — Models": round(1 / (k + 4), 6),
    }
    assert subsection_votes() == {} and subsection_votes([], []) == {}


def test_a_voted_subsection_lifts_its_lessons_and_one_subsection_fills_two_slots() -> None:
    pool = [
        _titled("a1", "Divide — Notation", score=0.60),
        _titled("a2", "Divide — Notation", score=0.59),
        _titled("a3", "Divide — Notation", score=0.58),
        _titled("b1", "Subtract — In Applications", score=0.50),
        _titled("c1", "Add — Models", score=0.40),
    ]
    votes = {"Subtract — In Applications": 0.25}
    picks = choose_lessons(pool, votes, 4, weight=0.5, per_subsection=2)
    assert [p.found.item.id for p in picks] == ["b1", "a1", "a2", "c1"]
    assert picks[0].score == 0.625 and picks[0].found.score == 0.5
    # Switched off: the pool's own (cosine) order, ties broken by id.
    plain = choose_lessons(pool, votes, 4, weight=0.0, per_subsection=None)
    assert [p.found.item.id for p in plain] == ["a1", "a2", "a3", "b1"]
    tied = [_titled("z", "T"), _titled("y", "T")]
    assert [p.found.item.id for p in choose_lessons(tied, {}, 2)] == ["y", "z"]
    assert choose_lessons(pool, votes, 0) == [] and choose_lessons([], votes, 4) == []
