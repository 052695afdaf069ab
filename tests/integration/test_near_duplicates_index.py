"""The near-duplicate merge against the real session index (MiniLM vectors in ChromaDB)."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import numpy as np
import pytest

from tutorgraph.index.layout import IndexLayout
from tutorgraph.ingest.bundle import load_trusted
from tutorgraph.retrieval.near_duplicates import MERGEABLE_KINDS
from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration


def _retriever(opened_index, embedder, threshold: float | None) -> HybridRetriever:  # type: ignore[no-untyped-def]
    config = RetrieverConfig(source_timeout_s=60.0, near_duplicate_threshold=threshold)
    return HybridRetriever(
        embedder, opened_index.vector, opened_index.lexical, opened_index.graph, config
    )


@pytest.fixture(scope="module")
def twins(session_index: tuple[Path, object], opened_index) -> tuple[str, str, str, float]:  # type: ignore[no-untyped-def]
    """The closest pair of different content texts of one kind in the index, by stored vector."""
    docs = [d for d in load_trusted(IndexLayout.live(session_index[0]).catalogue).documents]
    docs = [d for d in docs if d.kind in MERGEABLE_KINDS]
    vectors = asyncio.run(opened_index.vector.embeddings([d.id for d in docs]))
    best = (-1.0, "", "", "")
    for a, b in itertools.combinations(docs, 2):
        if a.kind == b.kind and a.text != b.text:
            sim = float(vectors[a.id] @ vectors[b.id])
            if sim > best[0]:
                best = (sim, a.id, b.id, a.text)
    sim, a, b, text = best
    return a, b, text, sim


def _packet(retriever: HybridRetriever, text: str, **kw: object) -> ReasoningPacket:
    return asyncio.run(retriever.retrieve(RetrievalRequest(query=text[:500], **kw)))  # type: ignore[arg-type]


def test_the_closest_pair_merges_into_one_hit_that_keeps_both_ids(
    opened_index, embedder, twins: tuple[str, str, str, float]
) -> None:  # type: ignore[no-untyped-def]
    a, b, text, sim = twins
    assert sim >= 0.85, "the slice should hold a near-duplicate pair"
    off = _packet(_retriever(opened_index, embedder, None), text)
    off_ids = [h.id for h in off.results]
    assert a in off_ids and b in off_ids, off_ids  # without the merge both fill the top 10

    on = _packet(_retriever(opened_index, embedder, 0.85), text, debug=True)
    merged = [h for h in on.results if a in h.ids and b in h.ids]
    assert len(merged) == 1, [h.ids for h in on.results]
    hit = merged[0]
    assert hit.corroborated_by is not None
    dup = next(d for d in hit.corroborated_by.near_duplicates if d.id in (a, b))
    assert dup.similarity == pytest.approx(sim, abs=1e-3)
    assert set(hit.found_by) <= set(hit.corroborated_by.sources)
    # The slot freed is refilled: still a full top 10, and every id of `off` is still there.
    assert len(on.results) == 10
    assert set(off_ids) <= {i for h in on.results for i in h.ids}
    assert on.debug is not None and on.debug["near_duplicates"]["merged"] >= 1
    assert on.timings_ms["merge"] > 0


def test_a_request_threshold_above_the_pair_keeps_them_apart(
    opened_index, embedder, twins: tuple[str, str, str, float]
) -> None:  # type: ignore[no-untyped-def]
    a, b, text, sim = twins
    packet = _packet(
        _retriever(opened_index, embedder, 0.85),
        text,
        near_duplicate_threshold=min(1.0, sim + 0.01),
    )
    assert not any(a in h.ids and b in h.ids for h in packet.results)


def test_no_two_content_hits_left_are_near_duplicates(opened_index, embedder) -> None:  # type: ignore[no-untyped-def]
    packet = _packet(_retriever(opened_index, embedder, 0.85), "simplify fractions and ratios")
    content = [h for h in packet.results if h.kind in MERGEABLE_KINDS]
    vectors = asyncio.run(opened_index.vector.embeddings([h.id for h in content]))
    for x, y in itertools.combinations(content, 2):
        if x.kind == y.kind:
            assert float(np.dot(vectors[x.id], vectors[y.id])) < 0.85 + 1e-3, (x.id, y.id)
