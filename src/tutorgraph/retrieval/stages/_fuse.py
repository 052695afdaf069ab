"""The fuse stage: the merged hits scored by weighted reciprocal-rank (or score) fusion, with
the route's semantic weight, best first.

>>> await FuseStage().run(state); state.fused[0].score  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass

from tutorgraph.retrieval.fusion import fuse, source_weights
from tutorgraph.retrieval.pipeline import Stage
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.retrieval.state import RequestState

__all__ = ["FuseStage"]


@dataclass(frozen=True)
class FuseStage(Stage):
    """Sets `state.fused` and the weights it fused with (`state.fusion_weights`)."""

    name = "fuse"
    reads = frozenset({"merged", "route"})
    writes = frozenset({"fused", "fusion_weights"})
    timing = "fuse"

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> FuseStage:
        del deps, config  # the stage needs nothing of them
        return cls()

    async def run(self, state: RequestState) -> bool:
        state.fusion_weights = source_weights(state.route.semantic_weight)
        state.fused = fuse(state.merged, state.fusion_weights, state.request.fusion)
        return True
