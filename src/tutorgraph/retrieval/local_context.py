"""Local context: the caller's own short documents (the lesson page, a teacher's hint),
searched in memory for one request as the source `local`, and never written to a store.

Both searches run over the documents alone: cosine to the query's embedding (the
documents are embedded with the query embedder), and BM25 over the documents. A document
is a candidate when BM25 matches a query term or its cosine reaches `MIN_LOCAL_COSINE`, so
that a lesson page about something else does not enter the packet. The two rankings
become one list by the fusion rule, reciprocal ranks weighted `w` (dense) and `1 − w`
(lexical) for the request's semantic weight.

>>> items = local_items([LocalDocument(id="hint", text="Find a common denominator.")])
>>> items[0].id
'local:hint'
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.batching import embed_async
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.retrieval.fusion import RRF_K
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.protocols import IndexItem, ScoredItem
from tutorgraph_client.models.request import LocalDocument

__all__ = ["LOCAL_PREFIX", "MIN_LOCAL_COSINE", "local_items", "search_local"]

LOCAL_PREFIX = "local:"
# MiniLM's cosine between unrelated short texts is mostly below 0.2; a related one is above.
MIN_LOCAL_COSINE = 0.3


def local_items(docs: Sequence[LocalDocument]) -> list[IndexItem]:
    """The documents as index items, their ids under `local:` (never a store's id)."""
    return [
        IndexItem(id=f"{LOCAL_PREFIX}{d.id}", kind=d.kind, title=d.title, text=d.text) for d in docs
    ]


def _lexical_ranks(items: Sequence[IndexItem], query: str) -> dict[str, int]:
    found = BM25Index.build(items).search_sync(query, len(items))
    return {r.item.id: rank for rank, r in enumerate(found, start=1)}


async def search_local(
    items: Sequence[IndexItem],
    query: str,
    query_vector: npt.NDArray[np.float32],
    embedder: Embedder,
    semantic_weight: float,
) -> list[ScoredItem]:
    """The matching documents, best first (ties by id), scored by the weighted reciprocal
    ranks of their dense and lexical rank."""
    if not items:
        return []
    vectors, lexical = await asyncio.gather(
        embed_async(embedder, [it.search_text for it in items]),
        asyncio.to_thread(_lexical_ranks, items, query),
    )
    cosine = vectors @ query_vector
    dense_order = sorted(range(len(items)), key=lambda i: (-float(cosine[i]), items[i].id))
    dense = {items[i].id: rank for rank, i in enumerate(dense_order, start=1)}
    out = []
    for n, it in enumerate(items):
        if it.id not in lexical and float(cosine[n]) < MIN_LOCAL_COSINE:
            continue
        score = semantic_weight / (RRF_K + dense[it.id])
        if it.id in lexical:
            score += (1.0 - semantic_weight) / (RRF_K + lexical[it.id])
        out.append(ScoredItem(it, round(score, 9)))
    out.sort(key=lambda r: (-r.score, r.item.id))
    return out
