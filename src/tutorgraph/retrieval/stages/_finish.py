"""The finish stage: the packet's hits in their final order (for a misconception query, what
the student got wrong leads; teaching is never crowded out, `with_teaching`), cut to
`n_results` and numbered, and the context assembled within the request's token budget: what
the packet knows about the message (the topic, the grade, the answer check, the diagnosis),
then the lessons and the hits (`teaching_first`). A packet that matched nothing
(`no_match_reason`) gets a context that says so and why, and nothing to answer from.

>>> await FinishStage(embedder).run(state); state.context  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.retrieval.context import assemble_context, no_match_context
from tutorgraph.retrieval.context_header import known_lines
from tutorgraph.retrieval.hits import with_teaching
from tutorgraph.retrieval.no_match import no_match_reason
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
    reads = frozenset(
        {
            "answer_check",
            "facts",
            "findings",
            "grade_info",
            "hits",
            "language",
            "lessons",
            "linked",
            "ranker_info",
            "route",
            "scope_info",
            "slots",
        }
    )
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
        count, budget = self.embedder.count_tokens, request.max_context_tokens
        if (reason := no_match_reason(state)) is not None:
            state.context = no_match_context(reason, count_tokens=count, max_tokens=budget)
            return True
        known = known_lines(
            state.linked,
            state.grade_info,
            state.answer_check,
            state.findings,
            [*state.uncut, *state.lessons],
            state.slots.lead_standard if state.slots is not None else None,
        )
        state.context = await asyncio.to_thread(
            assemble_context,
            teaching_first(state.lessons, hits),
            count_tokens=count,
            max_tokens=budget,
            known=known,
        )
        return True
