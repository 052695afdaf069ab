"""The rerank stage: the cross-encoder scores the top `rerank_depth` hits against the original
query and re-sorts them; the tail keeps its fused order behind them. A reranker that fails
keeps the fused order and says why in `packet.reranker`.

>>> await RerankStage(reranker, depth=30, unavailable="").run(state)  # doctest: +SKIP
"""

from __future__ import annotations

from tutorgraph.embedding.batching import rerank_async
from tutorgraph.embedding.reranker import Reranker
from tutorgraph.retrieval.pipeline import RequestState, Stage
from tutorgraph_client.models.packet import RerankerInfo

__all__ = ["RerankStage"]


class RerankStage(Stage):
    """Re-orders the head of `state.hits`; sets `state.reranker_info`."""

    name = "rerank"
    timing = "rerank"
    required = False

    def __init__(self, reranker: Reranker | None, *, depth: int, unavailable: str) -> None:
        self._reranker = reranker
        self._depth = depth
        self._unavailable = unavailable

    async def run(self, state: RequestState) -> bool:
        if not state.route.rerank:
            state.reranker_info = RerankerInfo(applied=False, reason="reranking not requested")
            return True
        if self._reranker is None:
            state.reranker_info = RerankerInfo(applied=False, reason=self._unavailable)
            return True
        name, hits = self._reranker.name, state.hits
        if not hits:
            state.reranker_info = RerankerInfo(applied=False, model=name, reason="no candidates")
            return True
        head, tail = hits[: self._depth], hits[self._depth :]
        texts = [f"{h.title}: {h.text}" if h.title else h.text for h in head]
        scores = await rerank_async(self._reranker, state.request.query, texts)
        for hit, s in zip(head, scores, strict=True):
            hit.rerank_score = s
            hit.score = s
        # Stable: equal scores keep their fused order.
        head.sort(key=lambda h: -s if (s := h.rerank_score) is not None else 0.0)
        state.hits = head + tail
        state.reranker_info = RerankerInfo(applied=True, model=name)
        return True

    def degrade(self, state: RequestState, reason: str) -> None:
        model = self._reranker.name if self._reranker is not None else None
        state.reranker_info = RerankerInfo(applied=False, model=model, reason=reason)
