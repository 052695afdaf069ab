"""The rank stage: misconception hits get the learned ranker's score, the ranker's own
proposals join them, and the misconceptions are re-ordered by it (`retrieval/learned_rank.py`;
which model scores a request, and its query: `retrieval/ranker_runtime.py`).

>>> await RankStage(ranker, graph, embedder, proposals=40).run(state)  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from tutorgraph.config import SOURCE_TIMEOUT_S
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.ranking.model import LearnedRanker
from tutorgraph.retrieval.learned_rank import learned_rank, ranker_name
from tutorgraph.retrieval.pipeline import Stage
from tutorgraph.retrieval.ranker_runtime import DeferredRanker, scoring_of
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.retrieval.state import RequestState, await_shared
from tutorgraph.stores.breaker import CircuitBreaker
from tutorgraph.stores.protocols import GraphStore
from tutorgraph_client.models.packet import RankerInfo

__all__ = ["RankStage"]


@dataclass(frozen=True)
class RankStage(Stage):
    """Re-orders the misconceptions of `state.hits`; sets `state.ranker_info` and, for the
    debug block, `state.contributions`. A ranker that fails keeps the first-stage order."""

    name = "rank"
    reads = frozenset({"facts", "hits", "ranker_vector", "route", "scoring"})
    writes = frozenset({"contributions", "hits", "ranker_info", "scoring"})
    timing = "rank"
    required = False

    ranker: LearnedRanker | DeferredRanker | None
    graph: GraphStore
    embedder: Embedder
    _: KW_ONLY
    proposals: int
    # Why there is no ranker (the packet's `ranker.reason`).
    unavailable: str | None
    # The proposals come from the graph: under its timeout and breaker.
    timeout_s: float = SOURCE_TIMEOUT_S
    breaker: CircuitBreaker | None = None

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> RankStage:
        return cls(
            deps.ranker.value,
            deps.graph,
            deps.embedder,
            proposals=config.ranker_proposals,
            unavailable=deps.ranker.reason,
            timeout_s=config.source_timeout_s,
            breaker=deps.breakers.graph,
        )

    async def run(self, state: RequestState) -> bool:
        ranker = self.ranker
        unavailable = self.unavailable
        if isinstance(ranker, DeferredRanker):
            reason = ranker.unscored(state.request, state.facts)
            if reason is not None:  # not loaded for a request it would not score
                state.ranker_info = RankerInfo(model=ranker.name, reason=reason)
                return False
            ranker, unavailable = await ranker.get()
        if ranker is None or ranker.combiner is None:
            state.ranker_info = RankerInfo(reason=unavailable)
            return False
        state.hits, state.ranker_info, state.contributions = await learned_rank(
            ranker,
            scoring_of(state, ranker),
            self.graph,
            self.embedder,
            state.request,
            state.facts,
            state.route,
            state.hits,
            proposals=self.proposals,
            timeout_s=self.timeout_s,
            breaker=self.breaker,
            query_vector=(
                None
                if state.ranker_vector is None
                else await_shared(state.ranker_vector, "ranker's query embedding")
            ),
        )
        return state.ranker_info.applied

    def degrade(self, state: RequestState, reason: str) -> None:
        ranker = self.ranker
        if isinstance(ranker, DeferredRanker):
            if ranker.loaded is None:  # it failed while loading
                state.ranker_info = RankerInfo(model=ranker.name, reason=reason)
                return
            ranker = ranker.loaded
        assert ranker is not None  # it only fails when it runs
        model = scoring_of(state, ranker).model
        state.ranker_info = RankerInfo(model=ranker_name(ranker, model), reason=reason)
