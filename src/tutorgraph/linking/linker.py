"""The concept linker: a message -> ranked concepts per taxonomy, each with its evidence.

Each card is searched densely (cosine of the query's embedding and the card's) and lexically
(BM25 over the cards); a card's score is its cosine plus `lexical_weight` times its BM25 score
over the best BM25 score of its taxonomy. Fusing the two ranks instead (RRF, k = 60, lexical
weight 0.25) let any card with both ranks pass the dense first (MathFish hit@1 0.463 against
0.502 for the score fusion at 0.06, dev messages 0.337 against 0.349; both chosen on
MathFish and the dev messages, never the held-out ones). A Common Core card can also gain
`structure_weight` times the overlap of its structural tags with the message's
(`structure.structure_of`: operations, number kinds and sizes, word problem or not); off by
default, as cross-validation found no gain.

>>> linker = ConceptLinker.build(build_cards(records.concepts), embedder)  # doctest: +SKIP
>>> [c.concept_id for c in linker.link("how do I compare 5/8 and 3/5?")["common-core"][:2]]
... # doctest: +SKIP
['ccss:4.NF.A.2', 'ccss:3.NF.A.3.d']
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.linking.cards import ConceptCard
from tutorgraph.linking.structure import structure_of
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.protocols import IndexItem, LinkedCard

__all__ = ["ConceptLinker"]

# The BM25 share of a card's score (chosen on MathFish and the dev messages).
LEXICAL_WEIGHT = 0.06
# The share of the structural overlap (`structure`) in a card's score, and in a story's (a
# word problem: its words are the story's). Chosen on MathFish and the dev messages, 0.1 and
# 0.3 linked more word problems (dev hit@10 0.552 -> 0.759), but 5-fold CV over those items
# (weights chosen on four folds, scored on the fifth; scripts/linker_probe/structure_cv.py)
# found no gain over none: hit@1 +0.003 [-0.029, +0.035], hit@10 +0.000 [-0.022, +0.026].
# So structure ships off; pass the weights to turn it on.
STRUCTURE_WEIGHT = 0.0
STORY_WEIGHT = 0.0
STRUCTURED = "common-core"
# BM25 candidates read for a text (over every taxonomy).
_LEXICAL_DEPTH = 300


class ConceptLinker:
    """Dense and lexical search over concept cards, fused per taxonomy. Without an embedder,
    `link` needs the query's vector (the retriever passes the one it searched with)."""

    def __init__(
        self,
        cards: Sequence[ConceptCard],
        vectors: npt.NDArray[np.float32],
        embedder: Embedder | None = None,
        *,
        lexical_weight: float = LEXICAL_WEIGHT,
        structure_weight: float = STRUCTURE_WEIGHT,
        story_weight: float = STORY_WEIGHT,
    ) -> None:
        if len(cards) != len(vectors):
            raise ValueError(f"{len(cards)} cards but {len(vectors)} vectors")
        self._cards = list(cards)
        self._vectors = np.asarray(vectors, dtype=np.float32)
        self._embedder = embedder
        self._lexical_weight = lexical_weight
        self._structure_weight = structure_weight
        self._story_weight = story_weight
        # Measured on Common Core linking only, so the other taxonomies' cards carry no tags.
        # Each card's tags are a row of a 0/1 matrix: a message's overlap with every card is
        # then one product (per request, a Python loop over the cards cost about 1.5 ms).
        tags = [
            structure_of(c.text, card=True) if c.taxonomy == STRUCTURED else frozenset()
            for c in cards
        ]
        self._tags = {t: k for k, t in enumerate(sorted(set().union(*tags)))}
        self._tag_matrix = np.zeros((len(cards), len(self._tags)), dtype=np.float32)
        for row, card_tags in enumerate(tags):
            self._tag_matrix[row, [self._tags[t] for t in card_tags]] = 1.0
        self._tag_norms = np.sqrt(self._tag_matrix.sum(axis=1))
        items = [IndexItem(id=c.concept_id, kind="concept", title="", text=c.text) for c in cards]
        self._bm25 = BM25Index.build(items)
        self._row = {c.concept_id: i for i, c in enumerate(cards)}
        self._rows = {
            t: np.array([i for i, c in enumerate(cards) if c.taxonomy == t], dtype=np.int64)
            for t in sorted({c.taxonomy for c in cards})
        }

    @classmethod
    def build(
        cls, cards: Sequence[ConceptCard], embedder: Embedder, **kwargs: float
    ) -> ConceptLinker:
        """Embed the cards (blocking) and build the linker."""
        vectors = embedder.embed([c.text for c in cards]) if cards else np.zeros((0, 1), np.float32)
        return cls(cards, vectors, embedder, **kwargs)

    def link(
        self, text: str, k: int = 10, vector: npt.NDArray[np.float32] | None = None
    ) -> dict[str, list[LinkedCard]]:
        """The `k` best concepts of each taxonomy for `text` (its embedding may be given)."""
        if vector is None:
            if self._embedder is None:
                raise ValueError("this linker has no embedder: pass the query's vector")
            vector = self._embedder.embed([text])[0]
        dense = self._vectors @ np.asarray(vector, dtype=np.float32)
        bm25 = np.zeros(len(self._cards), dtype=np.float32)
        for hit in self._bm25.search_sync(text, _LEXICAL_DEPTH):
            bm25[self._row[hit.item.id]] = hit.score
        shape = np.zeros(len(self._cards), dtype=np.float32)
        tags = structure_of(text) if self._structure_weight or self._story_weight else frozenset()
        weight = self._story_weight if "task:word-problem" in tags else self._structure_weight
        if tags:
            # The cosine of the two tag sets (`structure_overlap`), for every card at once.
            known = [self._tags[t] for t in tags if t in self._tags]
            shared = self._tag_matrix[:, known].sum(axis=1)
            with np.errstate(invalid="ignore", divide="ignore"):
                shape = np.nan_to_num(shared / (self._tag_norms * np.sqrt(len(tags))))
        out: dict[str, list[LinkedCard]] = {}
        for taxonomy, rows in self._rows.items():
            words = bm25[rows]
            top = float(words.max()) if len(rows) else 0.0
            score = dense[rows] + (self._lexical_weight * words / top if top > 0 else 0.0)
            score = score + weight * shape[rows]
            # Ties break by concept id (the rows are in id order): the same input, the same output.
            best = rows[np.lexsort((rows, -score))[:k]]
            out[taxonomy] = [
                LinkedCard(
                    self._cards[i].concept_id,
                    taxonomy,
                    self._cards[i].name,
                    round(float(score[np.searchsorted(rows, i)]), 6),
                    {
                        "cosine": round(float(dense[i]), 4),
                        "dense_rank": int((dense[rows] > dense[i]).sum()) + 1,
                        "bm25": round(float(bm25[i]), 4) if bm25[i] > 0 else None,
                        "lexical_rank": int((words > bm25[i]).sum()) + 1 if bm25[i] > 0 else None,
                        "structure": round(float(shape[i]), 4) if shape[i] > 0 else None,
                    },
                    self._cards[i].description,
                )
                for i in best
            ]
        return out
