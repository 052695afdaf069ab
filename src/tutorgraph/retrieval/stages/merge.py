"""The merge stage: each source's results become ranked candidates (graph-scoped ones boosted
when the route scopes), stale copies give way to the latest version of an id (a temporal
conflict each), and the copies of one text from several sources merge into one hit.

>>> await MergeStage().run(state); state.merged  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass

from tutorgraph.retrieval.candidates import Candidate
from tutorgraph.retrieval.conflicts import latest_versions
from tutorgraph.retrieval.merge import merge_candidates
from tutorgraph.retrieval.pipeline import RequestState, Stage
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.stores.protocols import IndexItem, ScoredItem
from tutorgraph_client.models.request import SourceName

__all__ = ["SCOPE_BOOST", "MergeStage", "scoped"]

# Graph scoping multiplies the dense/lexical score of in-scope candidates by 1 + SCOPE_BOOST
# and re-ranks each list; it never removes a candidate (a Chroma `where` filter to restrict
# instead costs far more than the search itself).
SCOPE_BOOST = 0.2


def _in_scope(item: IndexItem, scope: set[str]) -> bool:
    return item.id in scope or not scope.isdisjoint(item.concept_ids)


def scoped(results: list[ScoredItem], scope: set[str]) -> list[ScoredItem]:
    """Boost in-scope candidates and re-rank; ties keep their id order."""
    boosted = [
        ScoredItem(r.item, r.score * (1.0 + SCOPE_BOOST)) if _in_scope(r.item, scope) else r
        for r in results
    ]
    return sorted(boosted, key=lambda r: (-r.score, r.item.id))


def _candidates(results: list[ScoredItem]) -> list[Candidate]:
    return [Candidate(r.item, r.score, rank) for rank, r in enumerate(results, start=1)]


@dataclass(frozen=True)
class MergeStage(Stage):
    """Sets `state.scope`, `state.results`, `state.merged` and the temporal conflicts."""

    name = "merge"
    reads = frozenset({"graph", "raw", "route"})
    writes = frozenset({"conflicts", "merged", "results", "scope"})
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
        state.scope = scope
        state.results, stale = latest_versions(results)
        state.conflicts = stale
        state.merged = merge_candidates(state.results)
        return True
