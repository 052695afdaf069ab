"""The diagnosis stage: the bug rules that reproduce the student's wrong answer put their
misconceptions first, each with an RRF term like a source's (`retrieval/request_diagnosis.py`).

>>> await DiagnoseStage(diagnoser, graph, timeout_s=2.0).run(state)  # doctest: +SKIP
>>> state.findings, state.answer_check  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph.retrieval.pipeline import Stage
from tutorgraph.retrieval.request_diagnosis import diagnose_hits
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.retrieval.state import RequestState
from tutorgraph.stores.breaker import CircuitBreaker
from tutorgraph.stores.guard import guarded
from tutorgraph.stores.protocols import GraphStore

__all__ = ["DiagnoseStage"]


@dataclass(frozen=True)
class DiagnoseStage(Stage):
    """Puts the reproduced misconceptions first in `state.hits`; sets `state.findings`,
    `state.answer_check` and, when the rules gave nothing in time, `state.diagnosis_skipped`."""

    name = "diagnose"
    reads = frozenset({"facts", "hits"})
    writes = frozenset({"answer_check", "diagnosis_skipped", "findings", "hits"})
    timing = "diagnose"
    required = False

    diagnoser: Diagnoser | None
    graph: GraphStore
    _: KW_ONLY
    timeout_s: float
    # The graph's circuit breaker (the retriever's; None: none).
    breaker: CircuitBreaker | None = None

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> DiagnoseStage:
        return cls(
            deps.diagnoser,
            deps.graph,
            timeout_s=config.source_timeout_s,
            breaker=deps.breakers.graph,
        )

    async def run(self, state: RequestState) -> bool:
        if self.diagnoser is None:
            return False
        outcome = await diagnose_hits(
            self.diagnoser,
            lambda ids: guarded(
                "graph", self.graph.get_misconceptions(ids), self.timeout_s, breaker=self.breaker
            ),
            state.facts,
            state.hits,
            timeout_s=self.timeout_s,
        )
        state.hits, state.findings, state.answer_check = (
            outcome.hits,
            outcome.findings,
            outcome.check,
        )
        state.diagnosis_skipped = outcome.skipped
        # Timed whenever the rules were tried, also when they found nothing.
        return outcome.ran

    def degrade(self, state: RequestState, reason: str) -> None:
        state.diagnosis_skipped = reason
