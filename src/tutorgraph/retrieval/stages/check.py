"""The check stage: a request's `concept_ids` must name concepts the graph holds.

>>> await CheckStage(graph, timeout_s=2.0).run(state)  # doctest: +SKIP
"""

from __future__ import annotations

from tutorgraph.errors import UnknownConceptError
from tutorgraph.retrieval.pipeline import RequestState, Stage
from tutorgraph.stores.guard import guarded
from tutorgraph.stores.protocols import GraphStore

__all__ = ["CheckStage"]


class CheckStage(Stage):
    """Refuses concept ids the graph does not hold (`UnknownConceptError`)."""

    name = "check"

    def __init__(self, graph: GraphStore, *, timeout_s: float) -> None:
        self._graph = graph
        self._timeout_s = timeout_s

    async def run(self, state: RequestState) -> bool:
        ids = state.request.concept_ids
        if not ids:
            return False
        unknown = await guarded("graph", self._graph.unknown_concepts(ids), self._timeout_s)
        # None: the graph is down, so the ids cannot be checked; its search degrades too.
        if unknown:
            raise UnknownConceptError(unknown)
        return True
