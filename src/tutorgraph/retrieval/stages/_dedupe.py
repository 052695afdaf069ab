"""The dedupe stage: the fused candidates become hits, near-duplicates (stored vectors that
nearly match) fold into the better one, and factual conflicts among the hits are found
(conflicting hits are never merged).

Near-duplicates are looked for among `NEAR_DUPLICATE_WINDOW` times the hits kept, so that
merged ones are replaced by the next distinct hits. The vectors come from the vector store;
when it fails, the hits stay unmerged and the debug block says so.

>>> await DedupeStage(vector, rerank_depth=30, reranks=False, threshold=None,
...     timeout_s=2.0).run(state)  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from tutorgraph.retrieval.conflicts import factual_conflicts
from tutorgraph.retrieval.fusion import FusedHit
from tutorgraph.retrieval.hits import fused_hit
from tutorgraph.retrieval.local_context import LOCAL_PREFIX
from tutorgraph.retrieval.near_duplicates import MERGEABLE_KINDS, merge_near_duplicates
from tutorgraph.retrieval.pipeline import Stage
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.retrieval.state import NearDuplicates, RequestState
from tutorgraph.stores.breaker import CircuitBreaker
from tutorgraph.stores.guard import guarded
from tutorgraph.stores.protocols import VectorStore
from tutorgraph_client.models.packet import Conflict, Hit

__all__ = ["NEAR_DUPLICATE_WINDOW", "DedupeStage"]

NEAR_DUPLICATE_WINDOW = 3


def _kept_conflicts(hits: list[Hit], conflicts: list[Conflict]) -> list[Conflict]:
    """The conflicts with two or more hits left in the packet, told only of those."""
    kept = {h.id for h in hits}
    for hit in hits:
        hit.conflicts_with = [i for i in hit.conflicts_with if i in kept]
    out = []
    for c in conflicts:
        ids = [i for i in c.ids if i in kept]
        if len(ids) > 1:
            answers = {i: a for i, a in c.answers.items() if i in kept}
            preferred = c.preferred if c.preferred in kept else ids[0]
            out.append(
                c.model_copy(update={"ids": ids, "answers": answers, "preferred": preferred})
            )
    return out


@dataclass(frozen=True)
class DedupeStage(Stage):
    """Sets `state.hits` (as many as the packet and the reranker need), adds the factual
    conflicts and records what the merge did in `state.near_duplicates`."""

    name = "dedupe"
    reads = frozenset({"conflicts", "fused", "route"})
    writes = frozenset({"conflicts", "hits", "near_duplicates"})
    # Reported with the merge of the sources' copies: both merge what is one.
    timing = "merge"

    vector: VectorStore
    _: KW_ONLY
    rerank_depth: int
    # Whether a reranker is configured (then the reranker's depth of hits is kept).
    reranks: bool
    # The index's near-duplicate threshold (a request may set its own); None: no merge.
    threshold: float | None
    timeout_s: float
    # The vector store's circuit breaker (the retriever's; None: none).
    breaker: CircuitBreaker | None = None

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> DedupeStage:
        return cls(
            deps.vector,
            rerank_depth=config.rerank_depth,
            reranks=deps.reranker.value is not None,
            threshold=config.near_duplicate_threshold,
            timeout_s=config.source_timeout_s,
            breaker=deps.breakers.vector,
        )

    async def run(self, state: RequestState) -> bool:
        request = state.request
        rerank_on = state.route.rerank and self.reranks
        keep = max(request.n_results, self.rerank_depth if rerank_on else 0)
        threshold = request.near_duplicate_threshold or self.threshold
        hits, info, conflicts = await self._dedupe(state.fused, keep, threshold)
        state.hits = hits
        state.near_duplicates = info
        state.conflicts = state.conflicts + conflicts
        return True

    async def _dedupe(
        self, fused: list[FusedHit], keep: int, threshold: float | None
    ) -> tuple[list[Hit], NearDuplicates, list[Conflict]]:
        if threshold is None:
            hits = [fused_hit(f) for f in fused[:keep]]
            return hits, NearDuplicates(None), factual_conflicts(hits)
        hits = [fused_hit(f) for f in fused[: keep * NEAR_DUPLICATE_WINDOW]]
        conflicts = factual_conflicts(hits)
        # The local context is in no store (and is the caller's: never merged away).
        ids = [
            h.id for h in hits if h.kind in MERGEABLE_KINDS and not h.id.startswith(LOCAL_PREFIX)
        ]
        vectors = (
            await guarded(
                "vector", self.vector.embeddings(ids), self.timeout_s, breaker=self.breaker
            )
            if ids
            else {}
        )
        if vectors is None:
            info = NearDuplicates(threshold, skipped="the vector store failed")
        else:
            hits, merged = merge_near_duplicates(hits, vectors, threshold)
            info = NearDuplicates(threshold, merged)
        return hits[:keep], info, _kept_conflicts(hits[:keep], conflicts)
