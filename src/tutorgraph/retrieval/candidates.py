"""What each source hands to the merge: ranked candidates with their score and graph path."""

from __future__ import annotations

from dataclasses import dataclass

from tutorgraph.stores.protocols import IndexItem

__all__ = ["Candidate"]


@dataclass(frozen=True)
class Candidate:
    """One source's result at 1-based `rank`."""

    item: IndexItem
    score: float
    rank: int
    graph_path: tuple[str, ...] | None = None
