"""The merge stage: each source's results become ranked candidates (graph-scoped ones boosted
when the route scopes), stale copies give way to the latest version of an id (a temporal
conflict each), and the copies of one text from several sources merge into one hit.

>>> await MergeStage().run(state); state.merged  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass

from tutorgraph.retrieval.candidates import Candidate
from tutorgraph.retrieval.conflicts import latest_versions
from tutorgraph.retrieval.graph_scope import scoped
from tutorgraph.retrieval.merge import merge_candidates
from tutorgraph.retrieval.pipeline import Stage
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.retrieval.state import RequestState
from tutorgraph.stores.protocols import ScoredItem
from tutorgraph_client.models.request import SourceName

__all__ = ["MergeStage"]


def _candidates(results: list[ScoredItem]) -> list[Candidate]:
    return [Candidate(r.item, r.score, rank) for rank, r in enumerate(results, start=1)]


@dataclass(frozen=True)
class MergeStage(Stage):
    """Sets `state.graph_scope`, `state.results`, `state.merged` and the temporal conflicts."""

    name = "merge"
    reads = frozenset({"graph", "raw", "route"})
    writes = frozenset({"conflicts", "graph_scope", "merged", "results"})
    timing = "merge"

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> MergeStage:
        del deps, config  # the stage needs nothing of them
        return cls()

    async def run(self, state: RequestState) -> bool:
        graph = state.graph
        scope = graph.scope() if graph is not None and state.route.graph_scope else set()
        results: dict[SourceName, list[Candidate]] = {
            name: _candidates(scoped(out, scope) if scope else out)
            for name, out in state.raw.items()
        }
        if graph is not None:
            results["graph"] = graph.candidates
        state.graph_scope = scope
        state.results, stale = latest_versions(results)
        state.conflicts = stale
        state.merged = merge_candidates(state.results)
        return True
