"""The finish stage: the packet's hits in their final order (for a misconception query, what
the student got wrong leads; teaching is never crowded out, `with_teaching`), cut to
`n_results` and numbered, and the context assembled
from the lessons and then them (`teaching_first`) within the request's token budget.

>>> await FinishStage(embedder).run(state); state.context  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.retrieval.context import assemble_context
from tutorgraph.retrieval.hits import with_teaching
from tutorgraph.retrieval.pipeline import Stage
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.retrieval.state import RequestState
from tutorgraph_client.models.packet import teaching_first

__all__ = ["FinishStage"]


@dataclass(frozen=True)
class FinishStage(Stage):
    """Sets the final `state.hits` and `state.context`."""

    name = "finish"
    reads = frozenset({"hits", "lessons", "ranker_info", "route"})
    writes = frozenset({"context", "hits", "ranker_info", "uncut"})

    embedder: Embedder

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> FinishStage:
        del config  # the stage needs nothing of them
        return cls(deps.embedder)

    async def run(self, state: RequestState) -> bool:
        request, hits = state.request, state.hits
        if state.route.analysis.query_type == "misconception":
            # The student's answer is known: what they got wrong leads (stable otherwise).
            hits.sort(key=lambda h: h.kind != "misconception")
        state.uncut = with_teaching(hits, state.lessons)
        hits = state.uncut[: request.n_results]
        for rank, hit in enumerate(hits, start=1):
            hit.rank = rank
        state.hits = hits
        if state.ranker_info.applied:  # the proposals still shown after the cut
            shown = sum(h.found_by[:1] == ["ranker"] for h in hits)
            state.ranker_info = state.ranker_info.model_copy(update={"proposed": shown})
        state.context = await asyncio.to_thread(
            assemble_context,
            teaching_first(state.lessons, hits),
            count_tokens=self.embedder.count_tokens,
            max_tokens=request.max_context_tokens,
        )
        return True
