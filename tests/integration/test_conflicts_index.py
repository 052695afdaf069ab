"""Factual conflicts through the real retriever: two real OpenStax exercises (data/curriculum,
CC BY 4.0) that pose one problem with different answers, indexed with real MiniLM vectors in
ChromaDB. Both stay in the packet, marked, and the near-duplicate merge leaves them apart."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tutorgraph.index.local import LocalIndex
from tutorgraph.models.records import SourceRecords
from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig
from tutorgraph.stores.items import document_item
from tutorgraph_client.models.curriculum import Document
from tutorgraph_client.models.request import RetrievalRequest

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


def test_a_record_reingested_into_one_store_only_is_a_resolved_temporal_conflict(
    tmp_path: Path, embedder
) -> None:  # type: ignore[no-untyped-def]
    """The whole index at one version, then a changed copy of one record written to the
    vector store alone (as a Chroma server re-ingested while the lexical index was not)."""
    old = datetime(2026, 1, 5, tzinfo=UTC)
    new = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)
    records = _records()
    records.documents = [d.model_copy(update={"updated_at": old}) for d in records.documents]
    target = next(d for d in records.documents if d.id == EUROS[1])
    changed = target.model_copy(
        update={"text": target.text.replace("590.4 Euros", "590.40 Euros"), "updated_at": new}
    )

    async def go():  # type: ignore[no-untyped-def]
        async with LocalIndex.build(records, tmp_path / "index", embedder) as index:
            item = document_item(changed)
            await index.vector.upsert(  # type: ignore[attr-defined]
                [item], embedder.embed([item.search_text]), ["changed-in-one-store"]
            )
            retriever = HybridRetriever(
                embedder, index.vector, index.lexical, index.graph,
                RetrieverConfig(source_timeout_s=60.0),
            )  # fmt: skip
            request = RetrievalRequest(
                query="how many Euros for 800 dollars at 0.738", sources=["vector", "lexical"],
                debug=True,
            )  # fmt: skip
            return await retriever.retrieve(request)

    packet = asyncio.run(go())
    temporal = [c for c in packet.conflicts if c.kind == "temporal"]
    assert len(temporal) == 1
    (conflict,) = temporal
    assert conflict.ids == [EUROS[1]] and conflict.preferred == new.isoformat()
    assert [(s.source, s.updated_at) for s in conflict.superseded] == [("lexical", old.isoformat())]
    assert conflict.superseded[0].superseded_by == new.isoformat()
    # The packet holds the new text once; the old copy is gone from it.
    copies = [h for h in packet.results if EUROS[1] in h.ids]
    assert len(copies) == 1 and "590.40 Euros" in copies[0].text
    assert copies[0].found_by == ["vector"]
    assert packet.debug is not None and packet.debug["conflicts_resolved"] == 1
