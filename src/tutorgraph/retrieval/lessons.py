"""Lessons for a packet: the explanations and worked examples nearest the query, searched
apart from the rest.

A search over everything fills a packet with exercises: the bundle holds about five for
every lesson (22,520 exercises, 4,727 explanations and worked examples), and an exercise
reads most like another exercise. For an OpenStax exercise of a held-out section the first
teaching hit of its packet was its own subsection's lesson once in 224 (`bench teaching`);
the lessons alone, searched with the same query vector, put it first for about a third. So
the index keeps its lessons' stored vectors in memory (`LessonIndex`; a Chroma query
filtered to these kinds took 74 ms here against 5 ms unfiltered) and the packet carries
the best few as `lessons`, beside its `results`.

>>> lessons = LessonIndex.of(index_items, stored_vectors)  # doctest: +SKIP
>>> lessons.search(query_vector, 4)[0].item.kind  # doctest: +SKIP
'worked_example'
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.stored_vectors import StoredVectors
from tutorgraph.stores.protocols import IndexItem, ScoredItem

__all__ = ["LESSON_KINDS", "TEACHING_KINDS", "LessonIndex"]

# What a packet teaches with, and the part of it that explains rather than asks.
TEACHING_KINDS = frozenset({"explanation", "worked_example", "exercise"})
LESSON_KINDS = frozenset({"explanation", "worked_example"})


class LessonIndex:
    """The index's lessons and their unit vectors, searched by cosine in memory.

    >>> import numpy as np
    >>> items = [IndexItem("a", "explanation", "Ratios", "A ratio compares two amounts.")]
    >>> LessonIndex(items, np.ones((1, 4), np.float32)).search(np.ones(4, np.float32), 3)[0].item.id
    'a'
    """

    def __init__(self, items: Sequence[IndexItem], vectors: npt.NDArray[np.float32]) -> None:
        if len(items) != len(vectors):
            raise ValueError(f"{len(items)} lessons but {len(vectors)} vectors")
        self._items = list(items)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        self._vectors = (vectors / np.maximum(norms, 1e-12)).astype(np.float32)

    @classmethod
    def of(cls, items: Sequence[IndexItem], stored: StoredVectors) -> LessonIndex | None:
        """The lessons among an index's `items`, with the vectors its ingest stored (None
        when it has no lesson, or when some lesson has no stored vector: vectors of another
        embedder, which the manifest check refuses anyway)."""
        lessons = [it for it in items if it.kind in LESSON_KINDS]
        found = stored.lookup([it.search_text for it in lessons], stored.fingerprint)
        if not lessons or len(found) < len(lessons):
            return None
        return cls(lessons, np.stack([found[i] for i in range(len(lessons))]))

    def __len__(self) -> int:
        return len(self._items)

    def search(self, vector: npt.NDArray[np.float32], k: int) -> list[ScoredItem]:
        """The `k` lessons nearest `vector`, best first (ties by id); blocking, about a
        millisecond for 5,000 lessons."""
        if k <= 0:
            return []
        sims = self._vectors @ np.asarray(vector, dtype=np.float32).ravel()
        top = np.argpartition(-sims, min(k, len(sims)) - 1)[:k]
        best = sorted(top, key=lambda i: (-round(float(sims[i]), 6), self._items[i].id))
        return [ScoredItem(self._items[i], round(float(sims[i]), 6)) for i in best]
