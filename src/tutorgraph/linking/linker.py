"""The concept linker: a message -> ranked concepts per taxonomy, each with its evidence.

Each card is searched densely (cosine of the query's embedding and the card's) and lexically
(BM25 over the cards); a card's score is its cosine plus `lexical_weight` times its BM25 score
over the best BM25 score of its taxonomy. Fusing the two ranks instead (RRF, k = 60, lexical
weight 0.25) let any card with both ranks pass the dense first (MathFish hit@1 0.463 against
0.502 for the score fusion at 0.06, dev messages 0.337 against 0.349; both chosen on
MathFish and the dev messages, never the held-out ones). A Common Core card can also gain
`structure_weight` times the overlap of its structural tags with the message's
(`structure.structure_of`: operations, number kinds and sizes, word problem or not); off by
default, as cross-validation found no gain. A Common Core score also gains, with
`with_model`, a learned standards model's log-probabilities (`standards_model.py`), and,
when the request gives the student's grade, a prior toward that grade.

>>> linker = ConceptLinker.build(build_cards(records.concepts), embedder)  # doctest: +SKIP
>>> [c.concept_id for c in linker.link("how do I compare 5/8 and 3/5?")["common-core"][:2]]
... # doctest: +SKIP
['ccss:4.NF.A.2', 'ccss:3.NF.A.3.d']
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.linking.cards import ConceptCard
from tutorgraph.linking.standards_model import StandardModel, cluster_log_proba
from tutorgraph.linking.structure import structure_of
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.protocols import IndexItem, LinkedCard
from tutorgraph_client.models.grade import (
    BANDS,
    Band,
    Grade,
    band,
    grade_level,
    standard_cluster,
    standard_grade,
)
from tutorgraph_client.models.packet_info import Taxonomy

__all__ = ["ConceptLinker", "grade_penalty"]

# The BM25 share of a card's score (chosen on MathFish and the dev messages).
LEXICAL_WEIGHT = 0.06
# The share of the structural overlap (`structure`) in a card's score, and in a story's (a
# word problem: its words are the story's). Chosen on MathFish and the dev messages, 0.1 and
# 0.3 linked more word problems (dev hit@10 0.552 -> 0.759), but 5-fold CV over those items
# (weights chosen on four folds, scored on the fifth; research/scripts/linker_probe/structure_cv.py)
# found no gain over none: hit@1 +0.003 [-0.029, +0.035], hit@10 +0.000 [-0.022, +0.026].
# So structure ships off; pass the weights to turn it on.
STRUCTURE_WEIGHT = 0.0
STORY_WEIGHT = 0.0
STRUCTURED: Taxonomy = "common-core"
# The learned standards model's shares (x its log-probability and its cluster's, floored;
# `with_model`) and the grade prior's (per grade a standard is above the student's, half
# that per grade below; with or without a model). Issue 48, chosen by cross-validation
# (`research/scripts/linker_cv.py`, docs/RESULTS.md).
MODEL_WEIGHT = 0.03
CLUSTER_WEIGHT = 0.01
MODEL_FLOOR = -6.0
GRADE_WEIGHT = 0.16
# BM25 candidates read for a text (over every taxonomy).
_LEXICAL_DEPTH = 300


def grade_penalty(levels: npt.NDArray[np.float32], grade: Grade) -> npt.NDArray[np.float32]:
    """The grade prior's penalty per standard, in grades: each grade a standard's `levels`
    is above the student's, half of each below, at most 3.

    >>> grade_penalty(np.array([3.0, 6.0, 9.0], dtype=np.float32), "5").tolist()
    [1.0, 1.0, 3.0]
    """
    gap = levels - grade_level(grade)
    out: npt.NDArray[np.float32] = np.where(gap > 0, gap, -0.5 * gap).clip(0, 3).astype(np.float32)
    return out


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
        grade_weight: float = GRADE_WEIGHT,
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
        # Each Common Core card's grade level (K = 0 ... HS = 9), for the grade prior.
        self._standard_levels = np.array(
            [
                grade_level(standard_grade(self._cards[i].concept_id) or "HS")
                for i in self._rows.get(STRUCTURED, [])
            ],
            dtype=np.float32,
        )
        self._model: StandardModel | None = None
        self._model_weight = 0.0
        self._grade_weight = grade_weight
        self._model_order = np.zeros(0, dtype=np.int64)
        self._last: (
            tuple[tuple[str, Grade | None, frozenset[str], bytes], npt.NDArray[np.float32]] | None
        ) = None
        self._cluster_weight = 0.0
        self._cluster_matrix = np.zeros((0, 0), dtype=np.float32)
        self._row_cluster = np.zeros(0, dtype=np.int64)

    @classmethod
    def build(
        cls, cards: Sequence[ConceptCard], embedder: Embedder, **kwargs: float
    ) -> ConceptLinker:
        """Embed the cards (blocking) and build the linker."""
        vectors = embedder.embed([c.text for c in cards]) if cards else np.zeros((0, 1), np.float32)
        return cls(cards, vectors, embedder, **kwargs)

    def with_model(
        self,
        model: StandardModel,
        *,
        weight: float = MODEL_WEIGHT,
        cluster_weight: float = CLUSTER_WEIGHT,
        grade_weight: float = GRADE_WEIGHT,
    ) -> ConceptLinker:
        """This linker with a learned standards model fused into its Common Core scores
        (`weight` x the model's log-probability and `cluster_weight` x its cluster's, each
        floored at `MODEL_FLOOR`) and a grade prior
        (`grade_weight` per grade between a standard's and the request's, half that below).
        Shares this linker's arrays; ValueError when the model knows none of its standards."""
        order = {c: i for i, c in enumerate(model.classes)}
        # The model's column for each of this linker's standards; -1 for a standard it was
        # not trained on (a bundle with more standards), which gets the floor.
        columns = [order.get(self._cards[i].concept_id, -1) for i in self._rows.get(STRUCTURED, [])]
        if not any(c >= 0 for c in columns):
            raise ValueError("the model's standards are not this linker's (none is shared)")
        linked = copy.copy(self)
        linked._last = None
        linked._model = model
        linked._model_weight = weight
        linked._grade_weight = grade_weight
        linked._model_order = np.array(columns, dtype=np.int64)
        # Each model class's cluster (a one-hot column) and each linker row's cluster: the
        # model's mass per cluster is one product.
        clusters = sorted(
            {standard_cluster(c) for c in model.classes}
            | {standard_cluster(self._cards[i].concept_id) for i in self._rows.get(STRUCTURED, [])}
        )
        index = {c: k for k, c in enumerate(clusters)}
        linked._cluster_matrix = np.zeros((len(model.classes), len(clusters)), dtype=np.float32)
        for k, c in enumerate(model.classes):
            linked._cluster_matrix[k, index[standard_cluster(c)]] = 1.0
        linked._row_cluster = np.array(
            [index[standard_cluster(self._cards[i].concept_id)] for i in self._rows[STRUCTURED]],
            dtype=np.int64,
        )
        linked._cluster_weight = cluster_weight
        return linked

    def link(
        self,
        text: str,
        k: int = 10,
        vector: npt.NDArray[np.float32] | None = None,
        *,
        grade: Grade | None = None,
        tags: frozenset[str] = frozenset(),
    ) -> dict[str, list[LinkedCard]]:
        """The `k` best concepts of each taxonomy for `text` (its embedding may be given);
        `grade`, the student's, is a prior over the standards, never a filter; `tags`, the
        story's (`Story.tags`), go to the standards model."""
        vector = self._vector(text, vector)
        dense, bm25, shape, weight = self._signals(text, vector)
        out: dict[str, list[LinkedCard]] = {}
        for taxonomy, rows in self._rows.items():
            words = bm25[rows]
            score = self._card_score(dense, bm25, shape, weight, rows)
            learned: npt.NDArray[np.float32] | None = None
            if taxonomy == STRUCTURED:
                score, learned = self._with_prior(score, vector, text, grade, tags)
            # Ties break by concept id (the rows are in id order): the same input, the same output.
            best = np.lexsort((rows, -score))[:k]  # positions within the taxonomy's rows
            near = dense[rows]
            dense_rank = (near[None, :] > near[best][:, None]).sum(axis=1) + 1
            lexical_rank = (words[None, :] > words[best][:, None]).sum(axis=1) + 1
            out[taxonomy] = [
                LinkedCard(
                    self._cards[i].concept_id,
                    taxonomy,
                    self._cards[i].name,
                    round(float(score[p]), 6),
                    {
                        "cosine": round(float(dense[i]), 4),
                        "dense_rank": int(dense_rank[j]),
                        "bm25": round(float(bm25[i]), 4) if bm25[i] > 0 else None,
                        "lexical_rank": int(lexical_rank[j]) if bm25[i] > 0 else None,
                        "structure": round(float(shape[i]), 4) if shape[i] > 0 else None,
                        **({"model": round(float(learned[p]), 4)} if learned is not None else {}),
                    },
                    self._cards[i].description,
                )
                for j, (p, i) in enumerate(zip(best, rows[best], strict=True))
            ]
        return out

    def infer_band(
        self,
        text: str,
        vector: npt.NDArray[np.float32] | None = None,
        tags: frozenset[str] = frozenset(),
    ) -> tuple[Band, float] | None:
        """The grade band the standards model reads from `text`, with its probability (the
        sum over the band's standards); None without a model."""
        if self._model is None:
            return None
        grades = self._model.grade_distribution(
            self._log_proba(self._vector(text, vector), text, None, tags)
        )
        bands: dict[Band, float] = dict.fromkeys(BANDS, 0.0)
        for grade, p in grades.items():
            bands[band(grade)] += p
        best = max(BANDS, key=lambda b: bands[b])
        return best, round(bands[best], 4)

    @property
    def standard_ids(self) -> tuple[str, ...]:
        """The Common Core standards, in the order of `standard_scores`."""
        return tuple(self._cards[i].concept_id for i in self._rows.get(STRUCTURED, []))

    def standard_scores(
        self,
        text: str,
        vector: npt.NDArray[np.float32] | None = None,
        *,
        grade: Grade | None = None,
        tags: frozenset[str] = frozenset(),
        prior: bool = True,
    ) -> npt.NDArray[np.float32]:
        """Every standard's score for `text` (`standard_ids` order): the card score, plus
        the model and the grade prior unless `prior` is false."""
        vector = self._vector(text, vector)
        rows = self._rows.get(STRUCTURED, np.zeros(0, dtype=np.int64))
        score = self._card_score(*self._signals(text, vector), rows)
        return self._with_prior(score, vector, text, grade, tags)[0] if prior else score

    def _vector(self, text: str, vector: npt.NDArray[np.float32] | None) -> npt.NDArray[np.float32]:
        if vector is None:
            if self._embedder is None:
                raise ValueError("this linker has no embedder: pass the query's vector")
            vector = self._embedder.embed([text])[0]
        return np.asarray(vector, dtype=np.float32)

    def _signals(
        self, text: str, vector: npt.NDArray[np.float32]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float32], float]:
        """Every card's cosine, BM25 and structural overlap, and the overlap's weight."""
        dense = self._vectors @ vector
        # The cards' BM25 scores (its items are the cards, in order), the best
        # `_LEXICAL_DEPTH` kept: one vector, not a ranked list of hits to sort and place.
        bm25 = self._bm25.score_all(text)
        if len(bm25) > _LEXICAL_DEPTH:
            # The same cut as a top-k search: ties at it fall as `argpartition` leaves them.
            top = np.argpartition(bm25, -_LEXICAL_DEPTH)[-_LEXICAL_DEPTH:]
            kept = np.zeros_like(bm25)
            kept[top] = bm25[top]
            bm25 = kept
        shape = np.zeros(len(self._cards), dtype=np.float32)
        tags = structure_of(text) if self._structure_weight or self._story_weight else frozenset()
        weight = self._story_weight if "task:word-problem" in tags else self._structure_weight
        if tags:
            # The cosine of the two tag sets (`structure_overlap`), for every card at once.
            known = [self._tags[t] for t in tags if t in self._tags]
            shared = self._tag_matrix[:, known].sum(axis=1)
            with np.errstate(invalid="ignore", divide="ignore"):
                shape = np.nan_to_num(shared / (self._tag_norms * np.sqrt(len(tags))))
        return dense, bm25, shape, weight

    def _card_score(
        self,
        dense: npt.NDArray[np.float32],
        bm25: npt.NDArray[np.float32],
        shape: npt.NDArray[np.float32],
        weight: float,
        rows: npt.NDArray[np.int64],
    ) -> npt.NDArray[np.float32]:
        """The cards' scores over one taxonomy's rows: cosine, BM25 share, structure share."""
        words = bm25[rows]
        top = float(words.max()) if len(rows) else 0.0
        score = dense[rows] + (self._lexical_weight * words / top if top > 0 else 0.0)
        out: npt.NDArray[np.float32] = (score + weight * shape[rows]).astype(np.float32)
        return out

    def _log_proba(
        self,
        vector: npt.NDArray[np.float32],
        text: str,
        grade: Grade | None,
        tags: frozenset[str],
    ) -> npt.NDArray[np.float32]:
        """The model's log-probabilities; the last call's are kept, as the link stage asks
        twice for a request without a grade (its standards, then its band)."""
        assert self._model is not None
        key = (text, grade, tags, vector.tobytes())
        last = self._last
        if last is not None and last[0] == key:
            return last[1]
        out = self._model.log_proba(vector, text, grade, tags)
        self._last = (key, out)
        return out

    def _with_prior(
        self,
        score: npt.NDArray[np.float32],
        vector: npt.NDArray[np.float32],
        text: str,
        grade: Grade | None,
        tags: frozenset[str] = frozenset(),
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32] | None]:
        """The Common Core scores with the model's log-probabilities and the grade prior
        added, and those log-probabilities (None without a model)."""
        learned = None
        if self._model is not None:
            full = self._log_proba(vector, text, grade, tags)
            log_p = full[self._model_order]
            log_p[self._model_order < 0] = MODEL_FLOOR
            learned = np.maximum(log_p, np.float32(MODEL_FLOOR))
            score = (score + self._model_weight * learned).astype(np.float32)
            if self._cluster_weight:
                cluster = cluster_log_proba(full, self._cluster_matrix)[self._row_cluster]
                floored = np.maximum(cluster, np.float32(MODEL_FLOOR))
                score = (score + self._cluster_weight * floored).astype(np.float32)
        if grade is not None and self._grade_weight:
            penalty = grade_penalty(self._standard_levels, grade)
            score = (score - self._grade_weight * penalty).astype(np.float32)
        return score, learned
