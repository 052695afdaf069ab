"""Merge: one hit per content, keyed by the sha256 of the normalised full text.

The surviving hit keeps every id merged into it (with each copy's own ranks, so that fusion
can keep the best-scoring copy), every source that found it, and its best rank and score in
each source.

>>> merged = merge_candidates({"vector": [...], "lexical": [...]})  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tutorgraph.retrieval.candidates import Candidate
from tutorgraph.stores.items import content_hash
from tutorgraph.stores.protocols import IndexItem
from tutorgraph_client.models.request import ALL_SOURCES, SourceName

__all__ = ["MergedHit", "merge_candidates"]


@dataclass
class MergedHit:
    """A hit after merge: its copies, the representative one, and what each source said."""

    key: str
    best: Candidate
    items: dict[str, IndexItem] = field(default_factory=dict)
    copy_ranks: dict[str, dict[SourceName, int]] = field(default_factory=dict)
    copy_scores: dict[str, dict[SourceName, float]] = field(default_factory=dict)
    source_ranks: dict[SourceName, int] = field(default_factory=dict)
    source_scores: dict[SourceName, float] = field(default_factory=dict)
    graph_path: tuple[str, ...] | None = None

    @property
    def ids(self) -> list[str]:
        return sorted(self.items)

    @property
    def found_by(self) -> list[SourceName]:
        return [s for s in ALL_SOURCES if s in self.source_ranks]


def _better(a: Candidate, b: Candidate) -> bool:
    """Is `a` a better representative than `b`? Lower rank wins, then the smaller id."""
    return (a.rank, a.item.id) < (b.rank, b.item.id)


def merge_candidates(
    results: Mapping[SourceName, Sequence[Candidate]],
) -> list[MergedHit]:
    """Merge per-source candidates; the output order is by content key (fusion sorts later)."""
    merged: dict[str, MergedHit] = {}
    for source in ALL_SOURCES:
        for cand in results.get(source, ()):
            item_id = cand.item.id
            key = content_hash(cand.item.search_text)
            hit = merged.get(key)
            if hit is None:
                hit = merged[key] = MergedHit(key=key, best=cand)
            elif _better(cand, hit.best):
                hit.best = cand
            hit.items.setdefault(item_id, cand.item)
            ranks = hit.copy_ranks.setdefault(item_id, {})
            if source not in ranks or cand.rank < ranks[source]:
                ranks[source] = cand.rank
                hit.copy_scores.setdefault(item_id, {})[source] = cand.score
            if source not in hit.source_ranks or cand.rank < hit.source_ranks[source]:
                hit.source_ranks[source] = cand.rank
                hit.source_scores[source] = cand.score
            if cand.graph_path is not None and (
                hit.graph_path is None or len(cand.graph_path) < len(hit.graph_path)
            ):
                hit.graph_path = cand.graph_path
    return [merged[k] for k in sorted(merged)]
