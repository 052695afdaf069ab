"""Lessons on a real index (real Chroma, real MiniLM, the committed OpenStax slice): the
index keeps its lessons' stored vectors, and a packet carries the lessons chosen for its
message (nearest by cosine, reordered by their subsection's votes from the request's own
searches, at most two of one subsection) beside results that are unchanged."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from tests.conftest import index_retriever

from tutorgraph.retrieval.factory import Models, build_retriever
from tutorgraph.retrieval.pipeline import run_stages
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stages import LessonStage
from tutorgraph.retrieval.state import RequestState
from tutorgraph.stores.lessons import (
    LESSON_KINDS,
    LESSON_POOL,
    PER_SUBSECTION,
    choose_lessons,
    subsection_votes,
)
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration


def _exercise(index_records: Any) -> str:
    exercises = [d for d in index_records.documents if d.kind == "exercise"]
    if not exercises:
        pytest.skip("the session index holds no OpenStax exercise (tests/data/openstax absent)")
    # As a student meets it: instructions and problem, not the worked solution.
    return sorted(exercises, key=lambda d: d.id)[0].text.split("\nSolution:")[0].strip()


async def test_the_index_holds_every_lesson_with_its_stored_vector(
    opened_index, index_records
) -> None:  # type: ignore[no-untyped-def]
    lessons = [d for d in index_records.documents if d.kind in LESSON_KINDS]
    if not lessons:
        pytest.skip("the session index holds no lesson (tests/data/openstax absent)")
    assert opened_index.lessons is not None and len(opened_index.lessons) == len(lessons)


async def test_a_packet_carries_the_nearest_lessons_and_unchanged_results(  # type: ignore[no-untyped-def]
    opened_index, embedder, index_records
) -> None:
    query = _exercise(index_records)
    retriever = index_retriever(opened_index, embedder)
    ask = {"query": query, "n_results": 20, "max_context_tokens": 0, "debug": True}
    packet = await retriever.retrieve(RetrievalRequest(**ask, lessons=3))
    without = await retriever.retrieve(RetrievalRequest(**ask, lessons=0))

    assert [h.rank for h in packet.lessons] == [1, 2, 3] and without.lessons == []
    assert all(h.kind in LESSON_KINDS and h.found_by == ["vector"] for h in packet.lessons)
    # Their scores are the cosine of the query's vector and the lesson's stored one (the
    # order adds their subsection's vote: the next test).
    vector = embedder.embed([query])[0]
    stored = await opened_index.vector.embeddings([h.id for h in packet.lessons])
    for h in packet.lessons:
        cosine = float(np.dot(vector, stored[h.id]) / np.linalg.norm(stored[h.id]))
        assert h.score == h.source_scores["vector"] == pytest.approx(cosine, abs=2e-3)
    # The first three of ten are the three.
    more = await retriever.retrieve(RetrievalRequest(**ask, lessons=10))
    assert [h.id for h in more.lessons[:3]] == [h.id for h in packet.lessons]
    assert "lessons" in packet.debug["stages_ms"]
    # The results are the ones a retriever without lessons gives.
    plain = await index_retriever(opened_index, embedder, lessons=None).retrieve(
        RetrievalRequest(**ask)
    )
    dump = lambda p: [(h.id, h.score) for h in p.results]  # noqa: E731
    assert dump(without) == dump(plain) and plain.lessons == []
    # ... but for a lesson the finish stage puts second when they hold no teaching.
    taught = {h.id for h in packet.lessons[:1]}
    kept = [x for x in dump(packet) if x[0] not in taught]
    assert kept == [x for x in dump(plain) if x[0] not in taught][: len(kept)]


async def test_a_request_that_does_not_search_vectors_gets_no_lessons(  # type: ignore[no-untyped-def]
    opened_index, embedder, index_records
) -> None:
    packet = await index_retriever(opened_index, embedder).retrieve(
        RetrievalRequest(query=_exercise(index_records), sources=["lexical"])
    )
    assert packet.results and packet.lessons == []


async def test_the_factory_gives_the_retriever_the_index_lessons(
    opened_index, embedder, index_records
) -> None:  # type: ignore[no-untyped-def]
    retriever = build_retriever(opened_index, Models(embedder), RetrieverConfig(refiner="none"))
    packet = await retriever.retrieve(RetrievalRequest(query=_exercise(index_records)))
    assert len(packet.lessons) == RetrieverConfig().lesson_slots
    await retriever.aclose()


async def test_the_teach_slot_follows_its_recipe_on_the_real_searches(  # type: ignore[no-untyped-def]
    opened_index, embedder, index_records
) -> None:
    """The stage's lessons are the pool's best by cosine + the votes of the request's own
    dense and lexical hits, at most two of one subsection; switched off it is the plain
    cosine order."""
    retriever = index_retriever(opened_index, embedder)
    request = RetrievalRequest(query=_exercise(index_records), lessons=8)
    stages = retriever.stages
    names = [s.name for s in stages]
    state = await run_stages(stages[: names.index("lessons")], RequestState(request))
    assert state.raw.get("vector") and state.raw.get("lexical")

    lessons = opened_index.lessons
    await LessonStage(lessons, slots=4).run(state)
    pool = lessons.search(await state.query_embedding(), LESSON_POOL)
    votes = subsection_votes(state.raw["vector"], state.raw["lexical"])
    assert votes, "the searches found teaching items of some subsection"
    want = choose_lessons(pool, votes, 8)
    assert [h.id for h in state.lessons] == [p.found.item.id for p in want]
    assert [h.score for h in state.lessons] == [p.found.score for p in want]
    titles = [h.title for h in state.lessons]
    assert all(titles.count(t) <= (PER_SUBSECTION or 99) for t in titles)

    await LessonStage(lessons, slots=4, vote_weight=0.0, per_subsection=None).run(state)
    assert [h.id for h in state.lessons] == [s.item.id for s in pool[:8]]
    assert all(h.score == h.source_scores["vector"] for h in state.lessons)
