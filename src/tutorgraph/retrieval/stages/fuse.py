"""The fuse stage: the merged hits scored by weighted reciprocal-rank (or score) fusion, with
the route's semantic weight, best first.

>>> await FuseStage().run(state); state.fused[0].score  # doctest: +SKIP
"""

from __future__ import annotations

from tutorgraph.retrieval.fusion import fuse, source_weights
from tutorgraph.retrieval.pipeline import RequestState, Stage

__all__ = ["FuseStage"]


class FuseStage(Stage):
    """Sets `state.fused`."""

    name = "fuse"
    timing = "fuse"

    async def run(self, state: RequestState) -> bool:
        weights = source_weights(state.route.semantic_weight)
        state.fused = fuse(state.merged, weights, state.request.fusion)
        return True
