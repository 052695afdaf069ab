"""A fine-tuned bi-encoder's part of the learned ranker (issue 33).

`tutorgraph train-embedder` fine-tunes MiniLM on labelled answers; its cosine between a
query and each target is a much stronger text signal than the index's zero-shot one. The
ranker reads it as three features of a candidate: the cosine, its rank among every target
and its gap to the best target; and proposes that encoder's best targets.

`TunedText` holds the targets' vectors under the tuned encoder (in the ranker's target
order) and, when serving, the encoder that embeds the query. In training the scores come
from encoders that did not see the query's question (cross-fitted), so the rows the
combiner learns from look like the ones it will score.

>>> tuned = TunedText(target_vectors, model="models/eedi-embedder/model")  # doctest: +SKIP
>>> tuned_features(tuned.scores(query_vector), [0, 5, None])  # doctest: +SKIP
>>> tuned.query(query_vector).scores.shape  # doctest: +SKIP
(2587,)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.ranking.examples import ExampleMemory

__all__ = [
    "TUNED_EXAMPLE_FEATURES",
    "TUNED_FEATURES",
    "TUNED_GRAPH",
    "TunedQuery",
    "TunedText",
    "tuned_features",
]

TUNED_FEATURES = ("tuned_cosine", "tuned_rank", "tuned_gap")
TUNED_EXAMPLE_FEATURES = ("tuned_example_max_sim", "tuned_example_vote")
# The tuned encoder is served, and cross-fitted, by its int8 graph (per-channel; a quarter
# of the fp32 weights, within 0.006 held-out MAP@25 of them), relative to its model folder.
TUNED_GRAPH = "onnx/model_qint8.onnx"


class TunedQuery(NamedTuple):
    """A query under one tuned encoder: its cosine with every target and, for a ranker with
    a tuned memory, its vector and the labelled examples under that same encoder."""

    scores: npt.NDArray[np.float32]
    vector: npt.NDArray[np.float32] | None = None
    examples: ExampleMemory | None = None


@dataclass(frozen=True)
class TunedText:
    """The targets (and, optionally, the labelled examples: `examples`) under a fine-tuned
    encoder; `embedder` embeds queries (None in training, where the scores are
    cross-fitted), `model` says where its weights are."""

    target_vectors: npt.NDArray[np.float32]
    model: str = ""
    embedder: Embedder | None = None
    examples: ExampleMemory | None = None

    def scores(self, query: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """Cosine of an L2-normalised query vector (of this encoder) with every target."""
        out: npt.NDArray[np.float32] = self.target_vectors @ np.asarray(query, dtype=np.float32)
        return out

    def query(self, vector: npt.NDArray[np.float32]) -> TunedQuery:
        """What the ranker reads of a query vector of this encoder."""
        vector = np.asarray(vector, dtype=np.float32)
        return TunedQuery(self.scores(vector), vector, self.examples)

    def with_embedder(self, embedder: Embedder) -> TunedText:
        return replace(self, embedder=embedder)

    def with_examples(self, examples: ExampleMemory | None) -> TunedText:
        return replace(self, examples=examples)


def tuned_features(
    scores: npt.NDArray[np.float32], rows: Sequence[int | None]
) -> list[tuple[float, float, float]]:
    """`TUNED_FEATURES` for the targets at `rows` of `scores` (None: not a target, NaN)."""
    order = np.argsort(-scores, kind="stable")
    rank = np.empty(len(scores), dtype=np.int64)
    rank[order] = np.arange(1, len(scores) + 1)
    best = float(scores[order[0]]) if len(scores) else math.nan
    nan = (math.nan, math.nan, math.nan)
    return [
        nan
        if i is None
        else (
            round(float(scores[i]), 6),
            float(rank[i]),
            round(best - float(scores[i]), 6),
        )
        for i in rows
    ]
