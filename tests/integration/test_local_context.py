"""Local context against the real session index (MiniLM, Chroma, BM25): the caller's
documents are searched in memory as the source `local` and never reach a store."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic import ValidationError

from tutorgraph_client.models.request import MAX_LOCAL_CHARS, RetrievalRequest

pytestmark = pytest.mark.integration

LESSON = {
    "id": "lesson-7",
    "title": "Comparing fractions",
    "text": "To compare 3/4 and 2/3, rewrite both over the common denominator 12: 9/12 and "
    "8/12. Since 9 twelfths are more than 8 twelfths, 3/4 is bigger. Zyxwvut marker.",
}
OFF_TOPIC = {"id": "notice", "text": "The school trip to the museum leaves on Friday at nine."}


def _retrieve(retriever, **fields: Any):  # type: ignore[no-untyped-def]
    return asyncio.run(retriever.retrieve(RetrievalRequest(**fields)))


def test_a_matching_document_is_found_as_local_and_an_off_topic_one_is_not(retriever) -> None:  # type: ignore[no-untyped-def]
    packet = _retrieve(
        retriever, query="why is 3/4 bigger than 2/3?", local_context=[LESSON, OFF_TOPIC]
    )
    local = [h for h in packet.results if h.id.startswith("local:")]
    assert [h.id for h in local] == ["local:lesson-7"]
    hit = local[0]
    assert hit.found_by == ["local"] and hit.kind == "explanation"
    assert hit.title == LESSON["title"] and hit.rank <= 3
    assert "[local:lesson-7]" in packet.context
    assert packet.timings_ms["local"] > 0 and packet.degraded_sources == []
    # The store sources still answer beside it.
    assert any(h.found_by and "local" not in h.found_by for h in packet.results)


def test_local_only_searches_nothing_else(retriever) -> None:  # type: ignore[no-untyped-def]
    packet = _retrieve(
        retriever, query="common denominator", sources=["local"], local_context=[LESSON]
    )
    assert [h.id for h in packet.results] == ["local:lesson-7"]
    assert packet.vector_count == packet.lexical_count == packet.graph_count == 0


def test_local_documents_are_never_written_to_a_store(retriever, opened_index) -> None:  # type: ignore[no-untyped-def]
    before = asyncio.run(opened_index.vector.content_hashes())
    _retrieve(retriever, query="compare fractions", local_context=[LESSON])
    after = asyncio.run(opened_index.vector.content_hashes())
    assert before == after and not any(i.startswith("local:") for i in after)
    assert asyncio.run(opened_index.lexical.search("zyxwvut", 5)) == []
    # A second request without the context does not see it.
    packet = _retrieve(retriever, query="zyxwvut marker")
    assert not any(h.id.startswith("local:") for h in packet.results)


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"id": "big", "text": "x" * (MAX_LOCAL_CHARS + 1)}, "local document 'big': text has"),
        ({"id": "blank", "text": "   "}, "local document 'blank': text is empty"),
        ({"id": "", "text": "t"}, "needs an id"),
        ({"id": "t", "text": "t", "title": "x" * 201}, "local document 't': title has"),
    ],
)
def test_validation_names_the_bad_document(doc: dict[str, str], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        RetrievalRequest(query="q", local_context=[LESSON, doc])


def test_limits_on_the_list() -> None:
    with pytest.raises(ValidationError, match="local document 'lesson-7': the id is used twice"):
        RetrievalRequest(query="q", local_context=[LESSON, LESSON])
    with pytest.raises(ValidationError, match="at most 20"):
        RetrievalRequest(query="q", local_context=[{"id": f"d{i}", "text": "t"} for i in range(21)])
    with pytest.raises(ValidationError, match="local_context is empty"):
        RetrievalRequest(query="q", sources=["local"])
