"""The check stage: a request's `concept_ids` must name concepts the graph holds.

>>> await CheckStage(graph, timeout_s=2.0).run(state)  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from tutorgraph.errors import UnknownConceptError
from tutorgraph.retrieval.pipeline import Stage
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.retrieval.state import RequestState
from tutorgraph.stores.breaker import CircuitBreaker
from tutorgraph.stores.guard import guarded
from tutorgraph.stores.protocols import GraphStore

__all__ = ["CheckStage"]


@dataclass(frozen=True)
class CheckStage(Stage):
    """Refuses concept ids the graph does not hold (`UnknownConceptError`)."""

    name = "check"
    reads = frozenset()
    writes = frozenset()

    graph: GraphStore
    _: KW_ONLY
    timeout_s: float
    # The graph's circuit breaker (the retriever's; None: none).
    breaker: CircuitBreaker | None = None

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> CheckStage:
        return cls(deps.graph, timeout_s=config.source_timeout_s, breaker=deps.breakers.graph)

    async def run(self, state: RequestState) -> bool:
        ids = state.request.concept_ids
        if not ids:
            return False
        unknown = await guarded(
            "graph", self.graph.unknown_concepts(ids), self.timeout_s, breaker=self.breaker
        )
        # None: the graph is down, so the ids cannot be checked; its search degrades too.
        if unknown:
            raise UnknownConceptError(unknown)
        return True
