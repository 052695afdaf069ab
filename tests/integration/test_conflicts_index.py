"""Factual conflicts through the real retriever: two real OpenStax exercises (data/curriculum,
CC BY 4.0) that pose one problem with different answers, indexed with real MiniLM vectors in
ChromaDB. Both stay in the packet, marked, and the near-duplicate merge leaves them apart."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tutorgraph.index.local import LocalIndex
from tutorgraph.models.curriculum import Document
from tutorgraph.models.records import SourceRecords
from tutorgraph.models.request import RetrievalRequest
from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig

pytestmark = pytest.mark.integration

BUNDLE = Path(__file__).resolve().parents[2] / "data" / "curriculum" / "documents.jsonl"
EUROS = ("openstax:m81311:exercise:fs-id1454987", "openstax:m82539:exercise:fs-id1169597577700")
# Neighbours from the same sections, so that the index holds more than the pair.
OTHERS = 30


def _records() -> SourceRecords:
    rows = [json.loads(line) for line in BUNDLE.open(encoding="utf-8")]
    wanted = [r for r in rows if r["id"] in EUROS]
    sections = {i.rsplit(":exercise:", 1)[0] for i in EUROS}
    near = [r for r in rows if r["id"].split(":exercise:")[0] in sections and r["id"] not in EUROS]
    docs = [{**r, "concept_ids": []} for r in wanted + near[:OTHERS]]
    return SourceRecords(documents=[Document.model_validate(d) for d in docs])


def test_both_answers_stay_marked_and_unmerged(tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    async def go():  # type: ignore[no-untyped-def]
        async with LocalIndex.build(_records(), tmp_path / "index", embedder) as index:
            retriever = HybridRetriever(
                embedder, index.vector, index.lexical, index.graph,
                RetrieverConfig(source_timeout_s=60.0, near_duplicate_threshold=0.85),
            )  # fmt: skip
            request = RetrievalRequest(
                query="change 800 dollars into Euros at 0.738 Euro per dollar", debug=True
            )
            vectors = await index.vector.embeddings(list(EUROS))
            return await retriever.retrieve(request), vectors

    packet, vectors = asyncio.run(go())
    # Near-duplicates by their vectors: without the conflict they would merge.
    assert float(vectors[EUROS[0]] @ vectors[EUROS[1]]) >= 0.85
    ids = [h.id for h in packet.results]
    assert set(EUROS) <= set(ids)
    (conflict,) = packet.conflicts
    assert conflict.kind == "factual" and set(conflict.ids) == set(EUROS)
    assert sorted(conflict.answers.values()) == ["590 Euros", "590.4 Euros"]
    by_id = {h.id: h for h in packet.results}
    assert by_id[EUROS[0]].conflicts_with == [EUROS[1]]
    assert by_id[EUROS[1]].conflicts_with == [EUROS[0]]
    assert packet.debug is not None
    assert (packet.debug["conflicts_detected"], packet.debug["conflicts_resolved"]) == (1, 0)
