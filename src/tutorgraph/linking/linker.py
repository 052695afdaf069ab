"""The concept linker: a message -> ranked concepts per taxonomy, each with its evidence.

Each card is searched densely (cosine of the query's embedding and the card's) and lexically
(BM25 over the cards), and the two ranks are fused by weighted reciprocal rank (k = 60), per
taxonomy. The card vectors are computed once, when the linker is built.

>>> linker = ConceptLinker.build(build_cards(records.concepts), embedder)  # doctest: +SKIP
>>> [c.concept_id for c in linker.link("how do I compare 5/8 and 3/5?")["common-core"][:2]]
... # doctest: +SKIP
['ccss:4.NF.A.2', 'ccss:3.NF.A.3.d']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.linking.cards import ConceptCard
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.protocols import IndexItem

__all__ = ["ConceptLinker", "LinkedConcept"]

RRF_K = 60
# Candidates each search hands to the fusion, per taxonomy.
_DEPTH = 50


@dataclass(frozen=True)
class LinkedConcept:
    """A concept the linker names, its fused score and what chose it."""

    concept_id: str
    taxonomy: str
    name: str
    score: float
    evidence: dict[str, Any]


class ConceptLinker:
    """Dense and lexical search over concept cards, fused per taxonomy."""

    def __init__(
        self,
        cards: Sequence[ConceptCard],
        vectors: npt.NDArray[np.float32],
        embedder: Embedder,
        *,
        lexical_weight: float = 0.25,
    ) -> None:
        if len(cards) != len(vectors):
            raise ValueError(f"{len(cards)} cards but {len(vectors)} vectors")
        self._cards = list(cards)
        self._vectors = np.asarray(vectors, dtype=np.float32)
        self._embedder = embedder
        self._lexical_weight = lexical_weight
        items = [IndexItem(id=c.concept_id, kind="concept", title="", text=c.text) for c in cards]
        self._bm25 = BM25Index.build(items)
        self._row = {c.concept_id: i for i, c in enumerate(cards)}

    @classmethod
    def build(
        cls, cards: Sequence[ConceptCard], embedder: Embedder, **kwargs: float
    ) -> ConceptLinker:
        """Embed the cards (blocking) and build the linker."""
        vectors = embedder.embed([c.text for c in cards]) if cards else np.zeros((0, 1), np.float32)
        return cls(cards, vectors, embedder, **kwargs)

    def link(
        self, text: str, k: int = 10, vector: npt.NDArray[np.float32] | None = None
    ) -> dict[str, list[LinkedConcept]]:
        """The `k` best concepts of each taxonomy for `text` (its embedding may be given)."""
        if vector is None:
            vector = self._embedder.embed([text])[0]
        dense = self._vectors @ np.asarray(vector, dtype=np.float32)
        lexical = self._bm25.search_sync(text, _DEPTH * 3)
        out: dict[str, list[LinkedConcept]] = {}
        for taxonomy in sorted({c.taxonomy for c in self._cards}):
            rows = [i for i, c in enumerate(self._cards) if c.taxonomy == taxonomy]
            order = sorted(rows, key=lambda i: (-dense[i], self._cards[i].concept_id))[:_DEPTH]
            dense_rank = {self._cards[i].concept_id: r for r, i in enumerate(order, 1)}
            words = [h for h in lexical if self._cards[self._row[h.item.id]].taxonomy == taxonomy]
            lexical_rank = {h.item.id: r for r, h in enumerate(words[:_DEPTH], 1)}
            bm25 = {h.item.id: h.score for h in words}
            fused = {
                cid: 1.0 / (RRF_K + dense_rank.get(cid, 10**6))
                + self._lexical_weight / (RRF_K + lexical_rank.get(cid, 10**6))
                for cid in dense_rank.keys() | lexical_rank.keys()
            }
            best = sorted(fused, key=lambda cid: (-fused[cid], cid))[:k]
            out[taxonomy] = [
                LinkedConcept(
                    cid,
                    taxonomy,
                    self._cards[self._row[cid]].name,
                    round(fused[cid], 6),
                    {
                        "dense_rank": dense_rank.get(cid),
                        "cosine": round(float(dense[self._row[cid]]), 4),
                        "lexical_rank": lexical_rank.get(cid),
                        "bm25": round(bm25[cid], 4) if cid in bm25 else None,
                    },
                )
                for cid in best
            ]
        return out
