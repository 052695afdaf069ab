"""Lessons on a real index (real Chroma, real MiniLM, the committed OpenStax slice): the
index keeps its lessons' stored vectors, and a packet carries the lessons nearest its
message beside results that are unchanged."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from tests.conftest import index_retriever

from tutorgraph.models.request import RetrievalRequest
from tutorgraph.retrieval.factory import Models, RetrieverSetup, build_retriever
from tutorgraph.retrieval.lessons import LESSON_KINDS
from tutorgraph_research.tasks.linking import exercise_query

pytestmark = pytest.mark.integration


def _exercise(index_records: Any) -> str:
    exercises = [d for d in index_records.documents if d.kind == "exercise"]
    if not exercises:
        pytest.skip("the session index holds no OpenStax exercise (tests/data/openstax absent)")
    return exercise_query(sorted(exercises, key=lambda d: d.id)[0])


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
    scores = [h.score for h in packet.lessons]
    assert scores == sorted(scores, reverse=True)
    # Their scores are the cosine of the query's vector and the lesson's stored one.
    vector = embedder.embed([query])[0]
    stored = await opened_index.vector.embeddings([h.id for h in packet.lessons])
    for h in packet.lessons:
        cosine = float(np.dot(vector, stored[h.id]) / np.linalg.norm(stored[h.id]))
        assert h.score == pytest.approx(cosine, abs=2e-3)
    # No other lesson is nearer than the last one given.
    more = await retriever.retrieve(RetrievalRequest(**ask, lessons=10))
    assert [h.id for h in more.lessons[:3]] == [h.id for h in packet.lessons]
    assert "lessons" in packet.debug["stages_ms"]
    # The results are the ones a retriever without lessons gives.
    plain = await index_retriever(opened_index, embedder, lessons=None).retrieve(
        RetrievalRequest(**ask)
    )
    dump = lambda p: [(h.id, h.score) for h in p.results]  # noqa: E731
    assert dump(packet) == dump(without) == dump(plain) and plain.lessons == []


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
    retriever = build_retriever(opened_index, Models(embedder), RetrieverSetup(refiner="none"))
    packet = await retriever.retrieve(RetrievalRequest(query=_exercise(index_records)))
    assert len(packet.lessons) == RetrieverSetup().config.lesson_slots
    await retriever.aclose()
