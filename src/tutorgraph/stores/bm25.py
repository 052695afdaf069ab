"""BM25 lexical index (bm25s), persisted as a folder beside the vector store.

>>> index = BM25Index.build(items)  # doctest: +SKIP
>>> await index.search("adding fractions with unlike denominators", k=5)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Sequence
from pathlib import Path

import bm25s
import numpy as np
import numpy.typing as npt

from tutorgraph.errors import StoreError
from tutorgraph.folders import replaced
from tutorgraph.stores.items import read_items, write_items
from tutorgraph.stores.protocols import IndexItem, ScoredItem
from tutorgraph.stores.tokenize import query_weights, tokenize

__all__ = ["BM25Index"]

_ITEMS_FILE = "items.jsonl"
# Searches remembered per index (results hold references to its items, not copies).
_SEARCH_CACHE = 1024


class BM25Index:
    """An in-memory BM25 retriever over `IndexItem`s."""

    def __init__(self, retriever: bm25s.BM25, items: Sequence[IndexItem]) -> None:
        self._retriever = retriever
        self._items = list(items)
        self._vocab: dict[str, int] = dict(retriever.vocab_dict)
        # Each id's positions in `items` (`scores` masks by id).
        self._positions: dict[str, list[int]] = {}
        for position, item in enumerate(self._items):
            self._positions.setdefault(item.id, []).append(position)
        # The index never changes once built, so the top k is a pure function of the query's
        # tokens and weights; the same queries come back (the lexical source, the linker, the
        # graph's names).
        self._top = functools.lru_cache(maxsize=_SEARCH_CACHE)(self._top_uncached)

    @classmethod
    def build(cls, items: Sequence[IndexItem]) -> BM25Index:
        retriever = bm25s.BM25()
        # bm25s cannot index an empty corpus; a placeholder document keeps one index type.
        corpus = [tokenize(it.search_text) or ["<empty>"] for it in items] or [["<empty>"]]
        retriever.index(corpus, show_progress=False)
        return cls(retriever, items)

    @classmethod
    def load(cls, path: Path) -> BM25Index:
        if not (path / _ITEMS_FILE).is_file():
            raise StoreError(f"no lexical index at {path}")
        retriever = bm25s.BM25.load(str(path), show_progress=False)
        return cls(retriever, list(read_items(path / _ITEMS_FILE)))

    def save(self, path: Path) -> None:
        """Write next to `path` and swap in, so a crash never leaves a half-written index."""
        with replaced(path) as tmp:
            self._retriever.save(str(tmp), show_progress=False)
            write_items(self._items, tmp / _ITEMS_FILE)

    @property
    def items(self) -> list[IndexItem]:
        return list(self._items)

    def document_frequencies(self) -> dict[str, int]:
        """How many items hold each token (the spelling corrector's vocabulary)."""
        # bm25s keeps one sparse column per token: its length is the token's document count.
        counts = np.diff(self._retriever.scores["indptr"])
        return {t: int(counts[i]) for t, i in self._vocab.items() if i < len(counts)}

    def search_sync(self, query: str, k: int) -> list[ScoredItem]:
        tokens = [t for t in tokenize(query) if t in self._vocab]
        if not tokens or not self._items:
            return []
        k = min(k, len(self._items))
        return list(self._top(tuple(tokens), tuple(query_weights(tokens)), k))

    def score_all(self, query: str) -> npt.NDArray[np.float32]:
        """Every item's BM25 score for `query`, in item order (zeros when no word of it is
        known): one pass over the query's columns, for a caller that weighs every item (the
        concept linker's cards), with no per-hit objects to build and sort."""
        tokens = [t for t in tokenize(query) if t in self._vocab]
        if not tokens or not self._items:
            return np.zeros(len(self._items), dtype=np.float32)
        weights = query_weights(tokens)
        if all(w == 1.0 for w in weights):
            scores = self._retriever.get_scores(tokens)
        else:
            scores = self._weighted_scores(tokens, weights)
        return np.asarray(scores, dtype=np.float32)

    def _top_uncached(
        self, tokens: tuple[str, ...], weights: tuple[float, ...], k: int
    ) -> tuple[ScoredItem, ...]:
        found: list[tuple[int, float]]
        if all(w == 1.0 for w in weights):
            # n_threads=0 runs inline; any other value starts a thread pool per call.
            docs, scores = self._retriever.retrieve(
                [list(tokens)], k=k, show_progress=False, n_threads=0
            )
            found = [(int(d), float(s)) for d, s in zip(docs[0], scores[0], strict=True)]
        else:
            found = self._weighted_top(list(tokens), list(weights), k)
        out = [ScoredItem(self._items[d], s) for d, s in found if s > 0]
        # bm25s sorts by score only; break ties by id so that output is reproducible.
        out.sort(key=lambda h: (-np.float32(h.score), h.item.id))
        return tuple(out)

    def _weighted_scores(
        self, tokens: Sequence[str], weights: Sequence[float]
    ) -> npt.NDArray[np.float32]:
        """Every document's sum of each token's BM25 column times its weight (bm25s sums the
        columns unweighted; a repeated token counts each time, as there)."""
        index = self._retriever.scores
        data, indices, indptr = index["data"], index["indices"], index["indptr"]
        total = np.zeros(int(index["num_docs"]), dtype=np.float32)
        for token, weight in zip(tokens, weights, strict=True):
            col = self._vocab[token]
            start, end = int(indptr[col]), int(indptr[col + 1])
            np.add.at(total, indices[start:end], weight * data[start:end])
        return total

    def _weighted_top(
        self, tokens: list[str], weights: list[float], k: int
    ) -> list[tuple[int, float]]:
        """The `k` best documents by `_weighted_scores`."""
        total = self._weighted_scores(tokens, weights)
        top = np.argpartition(-total, k - 1)[:k] if k < len(total) else np.arange(len(total))
        return [(int(d), float(total[d])) for d in top]

    def scores(self, query: str, ids: set[str]) -> dict[str, float]:
        """BM25 scores of `query` for the items in `ids` only (one pass, masked)."""
        tokens = [t for t in tokenize(query) if t in self._vocab]
        mask = np.zeros(len(self._items), dtype=np.float32)
        mask[[p for i in ids for p in self._positions.get(i, ())]] = 1.0
        if not tokens or not mask.any():
            return {}
        k = int(mask.sum())
        # n_threads=0 runs inline (the same top k); any other value starts a thread pool per
        # call, which the graph's misconception ranking paid on every request.
        docs, scores = self._retriever.retrieve(
            [tokens], k=k, show_progress=False, n_threads=0, weight_mask=mask
        )
        return {
            self._items[int(d)].id: float(s)
            for d, s in zip(docs[0], scores[0], strict=True)
            if s > 0
        }

    async def search(self, query: str, k: int) -> list[ScoredItem]:
        return await asyncio.to_thread(self.search_sync, query, k)

    async def aclose(self) -> None:
        return None
