"""Local context: the caller's own short documents (the lesson page, a teacher's hint),
searched in memory for one request as the source `local`, and never written to a store.

Both searches run over the documents alone: cosine to the query's embedding (the
documents are embedded with the query embedder), and BM25 over the documents. A document
is a candidate when BM25 matches a query term or its cosine reaches `MIN_LOCAL_COSINE`, so
that a lesson page about something else does not enter the packet. The two rankings
become one list by the fusion rule, reciprocal ranks weighted `w` (dense) and `1 − w`
(lexical) for the request's semantic weight.

The embedding is bounded by the source's time (issue 59: 20 documents of 2,000 characters
cost 1.5 s of CPU here and their `local` source always timed out, its work going on after
the timeout): each document is embedded from its first `LOCAL_EMBED_TOKENS` word pieces
(MiniLM was trained on 128; BM25 still reads the whole text), `LOCAL_EMBED_BATCH` at a
time, the lexical matches first, and no call starts that would end after the `deadline`
(judged by the slowest call so far, so a loaded machine stops sooner). A document left
unembedded is ranked by its words alone, and the result says how many were
(`LocalSearch.unembedded`).

>>> items = local_items([LocalDocument(id="hint", text="Find a common denominator.")])
>>> items[0].id
'local:hint'
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.batching import embed_async
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.retrieval.fusion import RRF_K
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.protocols import IndexItem, ScoredItem
from tutorgraph_client.models.request import LocalDocument

__all__ = [
    "LOCAL_EMBED_BATCH",
    "LOCAL_EMBED_SHARE",
    "LOCAL_EMBED_TOKENS",
    "LOCAL_PREFIX",
    "MIN_LOCAL_COSINE",
    "LocalSearch",
    "head_tokens",
    "local_items",
    "search_local",
]

LOCAL_PREFIX = "local:"
# MiniLM's cosine between unrelated short texts is mostly below 0.2; a related one is above.
MIN_LOCAL_COSINE = 0.3
# Word pieces of a document that are embedded: all-MiniLM-L6-v2 was trained on sequences of
# at most 128 (its model card), and reads 256 at most; half the tokens, half the CPU.
LOCAL_EMBED_TOKENS = 128
# Documents per embedding call: the call in flight when the deadline passes ends soon after.
LOCAL_EMBED_BATCH = 4
# The share of the source timeout by which embedding ends (the search stage's deadline),
# leaving the rest for the query embedding's wait and the ranking.
LOCAL_EMBED_SHARE = 0.75


@dataclass(frozen=True)
class LocalSearch:
    """The matching documents, best first, and how many were ranked by their words alone
    because their embedding would have passed the deadline."""

    hits: list[ScoredItem]
    unembedded: int = 0


def local_items(docs: Sequence[LocalDocument]) -> list[IndexItem]:
    """The documents as index items, their ids under `local:` (never a store's id)."""
    return [
        IndexItem(id=f"{LOCAL_PREFIX}{d.id}", kind=d.kind, title=d.title, text=d.text) for d in docs
    ]


def _lexical_ranks(items: Sequence[IndexItem], query: str) -> dict[str, int]:
    found = BM25Index.build(items).search_sync(query, len(items))
    return {r.item.id: rank for rank, r in enumerate(found, start=1)}


def head_tokens(text: str, max_tokens: int, count_tokens: Callable[[str], int]) -> str:
    """The first whole words of `text` that make at most `max_tokens` tokens (the text when
    it fits; its first word when even that does not: the model cuts it).

    >>> head_tokens("one two three four", 2, lambda t: len(t.split()))
    'one two'
    """
    total = count_tokens(text)
    if total <= max_tokens:
        return text
    words = text.split()
    keep = len(words) * max_tokens // total  # tokens are spread about evenly over words
    while keep > 1 and count_tokens(" ".join(words[:keep])) > max_tokens:
        keep -= max(1, keep // 10)
    return " ".join(words[: max(keep, 1)])


def _prepare(
    items: Sequence[IndexItem], query: str, count_tokens: Callable[[str], int]
) -> tuple[dict[str, int], list[str]]:
    """The documents' BM25 ranks and the texts to embed (blocking: tokenizers)."""
    heads = [head_tokens(it.search_text, LOCAL_EMBED_TOKENS, count_tokens) for it in items]
    return _lexical_ranks(items, query), heads


async def search_local(
    items: Sequence[IndexItem],
    query: str,
    query_vector: npt.NDArray[np.float32],
    embedder: Embedder,
    semantic_weight: float,
    *,
    deadline: float | None = None,
) -> LocalSearch:
    """The matching documents, best first (ties by id), scored by the weighted reciprocal
    ranks of their dense and lexical rank. Embedding ends by `deadline` (the event loop's
    clock; None: every document is embedded): no call starts that the slowest call so far
    says would end after it; the documents left are ranked by their words alone."""
    if not items:
        return LocalSearch([])
    lexical, heads = await asyncio.to_thread(_prepare, items, query, embedder.count_tokens)
    # The lexical matches first: what a deadline leaves out are documents no word matched.
    unmatched = len(items) + 1
    order = sorted(range(len(items)), key=lambda i: (lexical.get(items[i].id, unmatched), i))
    loop = asyncio.get_running_loop()
    cosine: dict[int, float] = {}
    slowest = 0.0  # the longest call so far: what the next one is expected to take
    for start in range(0, len(order), LOCAL_EMBED_BATCH):
        began = loop.time()
        if deadline is not None and began + slowest > deadline:
            break
        batch = order[start : start + LOCAL_EMBED_BATCH]
        vectors = await embed_async(embedder, [heads[i] for i in batch])
        cosine.update(zip(batch, (float(c) for c in vectors @ query_vector), strict=True))
        slowest = max(slowest, loop.time() - began)
    dense_order = sorted(cosine, key=lambda i: (-cosine[i], items[i].id))
    dense = {i: rank for rank, i in enumerate(dense_order, start=1)}
    out = []
    for n, it in enumerate(items):
        matched = it.id in lexical
        if not matched and cosine.get(n, -1.0) < MIN_LOCAL_COSINE:
            continue
        score = semantic_weight / (RRF_K + dense[n]) if n in dense else 0.0
        if matched:
            score += (1.0 - semantic_weight) / (RRF_K + lexical[it.id])
        out.append(ScoredItem(it, round(score, 9)))
    out.sort(key=lambda r: (-r.score, r.item.id))
    return LocalSearch(out, unembedded=len(items) - len(cosine))
