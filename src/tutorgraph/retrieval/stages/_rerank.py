"""The rerank stage: the cross-encoder scores the top `rerank_depth` hits against the original
query and re-sorts them; the tail keeps its fused order behind them. A reranker that fails
keeps the fused order and says why in `packet.reranker`.

>>> await RerankStage(reranker, depth=30, unavailable=None).run(state)  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from tutorgraph.embedding.batching import rerank_async
from tutorgraph.embedding.reranker import Reranker
from tutorgraph.retrieval.pipeline import Stage
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.retrieval.state import RequestState
from tutorgraph_client.models.packet import RerankerInfo

__all__ = ["RerankStage"]


@dataclass(frozen=True)
class RerankStage(Stage):
    """Re-orders the head of `state.hits`; sets `state.reranker_info`."""

    name = "rerank"
    reads = frozenset({"hits", "route"})
    writes = frozenset({"hits", "reranker_info"})
    timing = "rerank"
    required = False

    reranker: Reranker | None
    _: KW_ONLY
    depth: int
    # Why there is no reranker (the packet's `reranker.reason`).
    unavailable: str | None

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> RerankStage:
        reranker = deps.reranker
        return cls(reranker.value, depth=config.rerank_depth, unavailable=reranker.reason)

    async def run(self, state: RequestState) -> bool:
        if not state.route.rerank:
            state.reranker_info = RerankerInfo(applied=False, reason="reranking not requested")
            return True
        if self.reranker is None:
            state.reranker_info = RerankerInfo(applied=False, reason=self.unavailable)
            return True
        name, hits = self.reranker.name, state.hits
        if not hits:
            state.reranker_info = RerankerInfo(applied=False, model=name, reason="no candidates")
            return True
        head, tail = hits[: self.depth], hits[self.depth :]
        texts = [f"{h.title}: {h.text}" if h.title else h.text for h in head]
        scores = await rerank_async(self.reranker, state.request.query, texts)
        for hit, s in zip(head, scores, strict=True):
            hit.rerank_score = s
            hit.score = s
        # Stable: equal scores keep their fused order.
        head.sort(key=lambda h: -s if (s := h.rerank_score) is not None else 0.0)
        state.hits = head + tail
        state.reranker_info = RerankerInfo(applied=True, model=name)
        return True

    def degrade(self, state: RequestState, reason: str) -> None:
        model = self.reranker.name if self.reranker is not None else None
        state.reranker_info = RerankerInfo(applied=False, model=model, reason=reason)
