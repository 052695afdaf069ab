"""Fusion: reciprocal rank fusion (RRF) over the merged hits.

>>> rrf_score({"vector": 1, "lexical": 3}, {"vector": 1.0, "lexical": 1.0})
0.032266458495966696
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tutorgraph.models.request import ALL_SOURCES, SourceName
from tutorgraph.retrieval.merge import MergedHit

__all__ = ["RRF_K", "FusedHit", "rrf_fuse", "rrf_score"]

RRF_K = 60

FusedHit = tuple[MergedHit, float]


def rrf_score(
    ranks: Mapping[SourceName, int], weights: Mapping[SourceName, float], k: int = RRF_K
) -> float:
    """Σ_source weight / (k + rank), ranks 1-based; summed in a fixed source order."""
    return sum(weights.get(s, 0.0) / (k + ranks[s]) for s in ALL_SOURCES if s in ranks)


def rrf_fuse(
    hits: Sequence[MergedHit], weights: Mapping[SourceName, float], k: int = RRF_K
) -> list[FusedHit]:
    """Score every hit by RRF and sort best first; ties break by id, so output is stable."""
    scored = [(h, rrf_score(h.source_ranks, weights, k)) for h in hits]
    scored.sort(key=lambda hs: (-hs[1], hs[0].best.item.id))
    return scored
