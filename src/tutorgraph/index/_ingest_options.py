"""How an ingest runs (`IngestOptions`) and what it reports (`IngestReport`, and the
progress callback it calls as it goes).

>>> options = IngestOptions(prune=True, writer="a nightly rebuild")
>>> options.check()
>>> IngestReport(added=3, updated=1, reused=2).embedded
2
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tutorgraph.errors import BundleRecordError, ConfigurationError
from tutorgraph_client.models.request import RETRIEVAL_PROFILES

__all__ = ["REJECTS_LISTED", "IngestOptions", "IngestReport", "ProgressCallback"]

# (stage, done, total): the CLI draws progress bars from it.
ProgressCallback = Callable[[str, int, int], None]
# How many rejected records `tutorgraph ingest` prints and an HTTP job's report lists (both
# count them all; `tutorgraph validate` lists every one).
REJECTS_LISTED = 100


@dataclass(frozen=True)
class IngestOptions:
    """How an ingest runs.

    `source_hash` is recorded in the manifest (the bundle's hash); `prune` makes the index
    hold exactly the records given; `progress` is called as (stage, done, total); the
    defaults set the index's retrieval defaults (None keeps what the index had; a new
    index starts at `auto` with no weight).
    """

    source_hash: str = "records"
    prune: bool = False
    progress: ProgressCallback | None = None
    default_retrieval_profile: str | None = None
    default_semantic_weight: float | None = None
    # None keeps the index's (off for a new index); 1.0 merges identical vectors only.
    near_duplicate_threshold: float | None = None
    # Who writes, as a second writer's error names it.
    writer: str = "an ingest"
    # Build every store afresh instead of from a copy of the live generation (a repair of a
    # damaged vector store); the live catalogue is still merged unless `prune`.
    fresh: bool = False
    # Rebuild the generation's vector copy (`vectors/`) instead of copying the live one's (a
    # repair of a damaged copy): from this ingest's vectors, the stored ones given, the
    # vector store, and only then the embedder.
    rebuild_vector_copy: bool = False

    def check(self) -> None:
        if self.default_retrieval_profile not in (None, *RETRIEVAL_PROFILES):
            raise ConfigurationError(
                f"unknown retrieval profile {self.default_retrieval_profile!r}; "
                f"use one of {', '.join(RETRIEVAL_PROFILES)}"
            )
        weight = self.default_semantic_weight
        if weight is not None and not 0.0 <= weight <= 1.0:
            raise ConfigurationError(f"semantic weight must be in [0, 1], got {weight}")
        threshold = self.near_duplicate_threshold
        if threshold is not None and not 0.5 <= threshold <= 1.0:
            raise ConfigurationError(
                f"near-duplicate threshold must be in [0.5, 1], got {threshold}"
            )


@dataclass
class IngestReport:
    """What an ingest did."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    pruned: int = 0
    rejected: list[BundleRecordError] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    # Vectors taken from the bundle's stored vectors instead of embedded (of added + updated).
    reused: int = 0
    # Rows merged into the graph store (a `GraphWriter`, e.g. Neo4j) per kind, else None.
    graph: dict[str, int] | None = None
    # The generation this ingest made live.
    generation: str = ""
    # Where the vectors of the generation's vector copy (`vectors/`) came from, by source:
    # "written" (this ingest's), "stored" (the bundle's or the live copy's), "vector store",
    # "embedded".
    vector_copy: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def embedded(self) -> int:
        """Texts run through the embedder."""
        return self.added + self.updated - self.reused
