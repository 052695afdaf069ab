"""Fusion: reciprocal rank fusion (RRF) or a weighted sum of normalised scores.

RRF: `Σ_source weight / (k + rank)`, ranks 1-based, k = 60.
Weighted: `w·dense + (1−w)·lexical + GRAPH_WEIGHT·graph`, each source's scores min-max
normalised over its own candidates (a lone candidate, or a source whose scores are all
equal, normalises to 1). The graph rule: graph evidence is added on top of text similarity
with the fixed weight `GRAPH_WEIGHT`, the same weight it has in RRF, so that a hit the
curriculum graph links to the request outranks an equally similar one it does not.

Both sort best first and break ties by id, so the same input gives the same output. Each
merged hit is represented by its best-scoring copy.

>>> rrf_score({"vector": 1, "lexical": 3}, {"vector": 1.0, "lexical": 1.0})
0.032266458495966696
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from tutorgraph.retrieval.candidates import Candidate
from tutorgraph.retrieval.merge import MergedHit
from tutorgraph_client.models.request import ALL_SOURCES, SourceName

__all__ = [
    "DIAGNOSIS_WEIGHT",
    "GRAPH_WEIGHT",
    "LOCAL_WEIGHT",
    "RRF_K",
    "FusedHit",
    "fuse",
    "rrf_score",
    "source_weights",
]

RRF_K = 60
GRAPH_WEIGHT = 0.5
# The diagnosis runs after the ranker; its term, weight / (RRF_K + rank), is added to the
# fused score of each misconception a bug rule reproduces (they lead the hits regardless).
DIAGNOSIS_WEIGHT = 1.0
# The local context (dense and lexical in one list) weighs as much as the dense and lexical
# sources together: the caller sent it because it is about this request.
LOCAL_WEIGHT = 1.0

FusionMethod = Literal["rrf", "weighted"]


@dataclass(frozen=True)
class FusedHit:
    """A merged hit with its fused score and what each source contributed to it."""

    hit: MergedHit
    score: float
    contributions: dict[SourceName, float]


def source_weights(semantic_weight: float) -> dict[SourceName, float]:
    """`w` for dense, `1 − w` for lexical, the fixed `GRAPH_WEIGHT` for the graph and
    `LOCAL_WEIGHT` for the caller's local context."""
    return {
        "vector": semantic_weight,
        "lexical": 1.0 - semantic_weight,
        "graph": GRAPH_WEIGHT,
        "local": LOCAL_WEIGHT,
    }


def rrf_score(
    ranks: Mapping[SourceName, int], weights: Mapping[SourceName, float], k: int = RRF_K
) -> float:
    """Σ_source weight / (k + rank), ranks 1-based; summed in a fixed source order."""
    return sum(_rrf_parts(ranks, weights, k).values())


def _rrf_parts(
    ranks: Mapping[SourceName, int], weights: Mapping[SourceName, float], k: int
) -> dict[SourceName, float]:
    return {s: weights.get(s, 0.0) / (k + ranks[s]) for s in ALL_SOURCES if s in ranks}


def _ranges(hits: Sequence[MergedHit]) -> dict[SourceName, tuple[float, float]]:
    out: dict[SourceName, tuple[float, float]] = {}
    for h in hits:
        for s, v in h.source_scores.items():
            lo, hi = out.get(s, (v, v))
            out[s] = (min(lo, v), max(hi, v))
    return out


def _weighted_parts(
    scores: Mapping[SourceName, float],
    weights: Mapping[SourceName, float],
    ranges: Mapping[SourceName, tuple[float, float]],
) -> dict[SourceName, float]:
    parts: dict[SourceName, float] = {}
    for s in ALL_SOURCES:
        if s in scores:
            lo, hi = ranges[s]
            norm = 1.0 if hi == lo else (scores[s] - lo) / (hi - lo)
            parts[s] = weights.get(s, 0.0) * norm
    return parts


def fuse(
    hits: Sequence[MergedHit],
    weights: Mapping[SourceName, float],
    method: FusionMethod = "rrf",
    k: int = RRF_K,
) -> list[FusedHit]:
    """Score every merged hit, keep its best-scoring copy, sort best first (ties by id)."""
    ranges = _ranges(hits) if method == "weighted" else {}

    def parts_of(
        ranks: Mapping[SourceName, int], scores: Mapping[SourceName, float]
    ) -> dict[SourceName, float]:
        if method == "rrf":
            return _rrf_parts(ranks, weights, k)
        return _weighted_parts(scores, weights, ranges)

    out: list[FusedHit] = []
    for h in hits:
        if len(h.copy_ranks) > 1:
            best_id = min(
                h.copy_ranks,
                key=lambda cid: (
                    -sum(parts_of(h.copy_ranks[cid], h.copy_scores[cid]).values()),
                    cid,
                ),
            )
            if best_id != h.best.item.id:
                h.best = Candidate(h.items[best_id], h.best.score, h.best.rank, h.best.graph_path)
        # The hit itself scores with the best rank (and score) of any copy in each source.
        parts = parts_of(h.source_ranks, h.source_scores)
        out.append(FusedHit(h, sum(parts.values()), parts))
    out.sort(key=lambda f: (-f.score, f.hit.best.item.id))
    return out
