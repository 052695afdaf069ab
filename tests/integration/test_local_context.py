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


class _Recording:
    """The session's MiniLM, recording every text it is given (the real model answers)."""

    def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
        self.inner, self.texts = inner, []

    @property
    def name(self) -> str:
        return str(self.inner.name)

    def embed(self, texts: list[str]):  # type: ignore[no-untyped-def]
        self.texts.extend(texts)
        return self.inner.embed(texts)

    def count_tokens(self, text: str) -> int:
        return int(self.inner.count_tokens(text))


_FRACTIONS = (
    "To compare 3/4 and 2/3, rewrite both over the common denominator 12: 9/12 and 8/12. "
    "Since 9 twelfths are more than 8 twelfths, 3/4 is bigger. "
)
_OTHER = [
    "The perimeter of a rectangle is twice its length plus twice its width. ",
    "A right angle measures 90 degrees; an acute angle measures less than that. ",
    "To round 347 to the nearest hundred, look at the tens digit: 4 rounds down to 300. ",
    "The mean of a data set is the sum of its values divided by how many there are. ",
]


def _page(i: int, sentence: str) -> dict[str, str]:
    text = (sentence * (MAX_LOCAL_CHARS // len(sentence) + 1))[:MAX_LOCAL_CHARS]
    return {"id": f"page-{i}", "title": f"Lesson page {i}", "text": text}


def test_a_request_at_the_limit_gets_its_local_hits_within_the_default_timeout(
    opened_index, embedder
) -> None:  # type: ignore[no-untyped-def]
    """Twenty documents of 2,000 characters (the request limit) with the shipped source
    timeout: the local source answers, its lesson among the hits, each document embedded
    from at most `LOCAL_EMBED_TOKENS` word pieces (issue 59: all of them, 1.5 s of CPU
    here, and the source always timed out)."""
    from tutorgraph.config import SOURCE_TIMEOUT_S
    from tutorgraph.retrieval.local_context import LOCAL_EMBED_TOKENS
    from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig

    recording = _Recording(embedder)
    retriever = HybridRetriever(
        recording,
        opened_index.vector,
        opened_index.lexical,
        opened_index.graph,
        RetrieverConfig(),  # the shipped SOURCE_TIMEOUT_S
        linker=opened_index.linker,
        lessons=opened_index.lessons,
    )
    pages = [_page(0, _FRACTIONS)] + [_page(i, _OTHER[i % 4]) for i in range(1, 20)]
    _retrieve(retriever, query="warm up the models", rerank=False)
    recording.texts.clear()
    packet = _retrieve(
        retriever, query="why is 3/4 bigger than 2/3?", local_context=pages, debug=True
    )
    assert "local" not in packet.degraded_sources, packet.debug
    assert packet.timings_ms["local"] < SOURCE_TIMEOUT_S * 1000
    assert "local:page-0" in [h.id for h in packet.results]
    local_texts = [t for t in recording.texts if t.startswith("Lesson page ")]
    assert local_texts, recording.texts
    assert max(embedder.count_tokens(t) for t in local_texts) <= LOCAL_EMBED_TOKENS
