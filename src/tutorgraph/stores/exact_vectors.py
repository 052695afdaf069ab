"""Exact nearest-neighbour search over an index's stored vectors, in memory.

An embedded index keeps every item's vector beside its Chroma collection (`vectors/`, the
ingest's float16 copy). Searching them exactly, one matrix product and a partial sort, is
what the index's dense source does (issue 59):
- it is deterministic: embedded Chroma replays the writes its HNSW file had not taken in
  at every open, in an order that changes from process to process, so the same query found
  different neighbours in two processes (`ccss:MP6`, cosine 0.569, first in one and missing
  from the 60 nearest in another);
- it is exact: no neighbour is lost to the graph's approximation;
- it is fast: about a millisecond for 33,432 items on two cores (Chroma's query: 1.8 ms;
  `research/scripts/stage_floors.py`), for 51 MB of float32 rows.

>>> import numpy as np
>>> items = [IndexItem("a", "explanation", "Ratios", "A ratio compares two amounts.")]
>>> ExactVectors(items, np.ones((1, 4), np.float32)).search(np.ones(4, np.float32), 3)[0].item.id
'a'
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Self

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.stored_vectors import StoredVectors
from tutorgraph.stores.protocols import IndexItem, ScoredItem

__all__ = ["ExactVectors"]


class ExactVectors:
    """Items and their unit vectors, searched by cosine (rounded to 6 places, ties by id)."""

    def __init__(self, items: Sequence[IndexItem], vectors: npt.NDArray[np.float32]) -> None:
        if len(items) != len(vectors):
            raise ValueError(f"{len(items)} items but {len(vectors)} vectors")
        self._items = list(items)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        self._vectors = (vectors / np.maximum(norms, 1e-12)).astype(np.float32)

    @classmethod
    def of(cls, items: Sequence[IndexItem], stored: StoredVectors) -> Self | None:
        """`items` with the vectors their ingest stored; None when there is no item or some
        item has no stored vector (vectors of another embedder, which the manifest check
        refuses anyway)."""
        found = stored.lookup([it.search_text for it in items], stored.fingerprint)
        if not items or len(found) < len(items):
            return None
        return cls(items, np.stack([found[i] for i in range(len(items))]))

    def __len__(self) -> int:
        return len(self._items)

    @property
    def items(self) -> list[IndexItem]:
        return self._items

    @cached_property
    def _rows(self) -> dict[str, int]:
        """Each item's row, by id (built on first use: the search does not need it)."""
        return {it.id: i for i, it in enumerate(self._items)}

    def similarities(self, vector: npt.NDArray[np.float32], ids: Sequence[str]) -> dict[str, float]:
        """The cosine of `vector` with each of `ids` that it holds (rounded to 6 places).

        >>> items = [IndexItem("a", "exercise", "", "2 + 2"), IndexItem("b", "exercise", "", "?")]
        >>> exact = ExactVectors(items, np.eye(2, dtype=np.float32))
        >>> exact.similarities(np.array([1, 0]), ["b", "z"])
        {'b': 0.0}
        """
        rows = self._rows
        found = [(i, rows[i]) for i in dict.fromkeys(ids) if i in rows]
        if not found:
            return {}
        sims = self._vectors[[r for _, r in found]] @ np.asarray(vector, dtype=np.float32).ravel()
        return {i: round(float(s), 6) for (i, _), s in zip(found, sims, strict=True)}

    def search(self, vector: npt.NDArray[np.float32], k: int) -> list[ScoredItem]:
        """The `k` items nearest `vector`, best first (ties by id); blocking (numpy releases
        the GIL in the product)."""
        k = min(k, len(self._items))
        if k <= 0:
            return []
        # Query vectors are unit length (every embedder normalises them).
        sims = self._vectors @ np.asarray(vector, dtype=np.float32).ravel()
        # A few more than k, so that a tie at the cut is broken by id, not by position.
        pool = min(len(sims), k + 16)
        top = np.argpartition(-sims, pool - 1)[:pool]
        best = sorted(top, key=lambda i: (-round(float(sims[i]), 6), self._items[i].id))[:k]
        return [ScoredItem(self._items[i], round(float(sims[i]), 6)) for i in best]
