"""The lessons stage: the packet's slots, teach (the explanations and worked examples),
practice and misconceptions, held together by the standards the message is linked to
(issue 62; `retrieval/slots.py`).

First the message's nearest lessons (`stores/lessons.py` says why they are searched apart
and how they are chosen): the `LESSON_POOL` lessons nearest the query vector, reordered by
their subsection's vote from the request's own dense and lexical searches (`state.raw`,
already there: no extra search), at most `PER_SUBSECTION` of one subsection. Then the slots
(`retrieval/request_slots.py`): the linked standards' own content and what is aligned with
them, read from the graph, ranked with those lessons and the search's hits by one score;
the teach slot's hits become `state.lessons`, which the context reads. A graph that fails
leaves the nearest lessons and no slots (the packet then splits its results by kind), and
`degraded_stages` says so.

>>> await LessonStage(index.lessons, graph, slots=4, timeout_s=2.0).run(state)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import KW_ONLY, dataclass
from typing import Any

from tutorgraph.errors import SourceUnavailableError, failure_reason
from tutorgraph.retrieval.hits import lesson_hit
from tutorgraph.retrieval.pipeline import Stage
from tutorgraph.retrieval.request_slots import request_slots
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.slots import FALLBACK_LESSONS
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.retrieval.state import RequestState
from tutorgraph.stores.breaker import CircuitBreaker
from tutorgraph.stores.guard import attempt
from tutorgraph.stores.lessons import (
    LESSON_POOL,
    PER_SUBSECTION,
    VOTE_WEIGHT,
    choose_lessons,
    subsection_votes,
)
from tutorgraph.stores.protocols import GraphStore, ItemSimilarity, LessonSearch

__all__ = ["LessonStage"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LessonStage(Stage):
    """Sets `state.lessons`: up to `slots` of them (the request's `lessons`, when it sets
    it); none for a request that does not search `vector`, or an index without lesson
    vectors. The lessons are in memory: a vector store that is down does not stop them (they
    are then chosen without the dense search's votes). Then `state.slots` (with a `graph`),
    whose teach slot replaces `state.lessons`.

    `vote_weight` 0 and `per_subsection` None give the plain cosine order (the recipe before
    issue 47).
    """

    name = "lessons"
    reads = frozenset(
        {
            "answer_check",
            "findings",
            "grade_info",
            "hits",
            "linked",
            "query_vector",
            "raw",
        }
    )
    writes = frozenset({"lessons", "slots"})
    timing = "lessons"
    required = False

    lessons: LessonSearch | None
    # The graph the slots read the linked standards' content from (None: no slots).
    graph: GraphStore | None = None
    # Every item's stored vector (the slots' similarity to the message; None: the searches').
    vectors: ItemSimilarity | None = None
    _: KW_ONLY
    slots: int
    pool: int = LESSON_POOL
    vote_weight: float = VOTE_WEIGHT
    per_subsection: int | None = PER_SUBSECTION
    timeout_s: float = 2.0
    # The graph's circuit breaker (the retriever's; None: none).
    breaker: CircuitBreaker | None = None

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> LessonStage:
        return cls(
            deps.lessons,
            deps.graph,
            deps.item_vectors,
            slots=config.lesson_slots,
            timeout_s=config.source_timeout_s,
            breaker=deps.breakers.graph,
        )

    async def run(self, state: RequestState) -> bool:
        if state.query_vector is None:
            return False
        slots = state.request.lessons if state.request.lessons is not None else self.slots
        if self.graph is None:
            return await self._nearest(state, slots)
        # The teach slot's fallback: the same nearest lessons whatever the slot's size, so
        # that a smaller slot holds the first of a larger one's.
        nearest = await self._nearest(state, max(slots, FALLBACK_LESSONS) if slots else 0)
        try:
            picks = await request_slots(
                state, self.graph, self.vectors, slots=slots, guard=self._guard
            )
        except SourceUnavailableError as exc:
            # The nearest lessons stay; the packet splits its results into slots by kind.
            log.warning("the slots are left to the results: %s", exc)
            state.degraded_stages[self.name] = failure_reason(self.name, exc)
            state.lessons = state.lessons[:slots]
            return nearest
        state.slots = picks
        state.lessons = picks.lessons
        return True

    async def _guard(self, call: Awaitable[Any]) -> Any:
        """`call` under the graph's timeout and breaker; a failure is the slots' to report."""
        got = await attempt("graph", call, self.timeout_s, breaker=self.breaker)
        if got.value is None:
            raise SourceUnavailableError(got.reason or "graph failed")
        return got.value

    async def _nearest(self, state: RequestState, slots: int) -> bool:
        """The message's `slots` nearest lessons in `state.lessons` (False: none were
        searched)."""
        request = state.request
        if self.lessons is None or slots == 0 or "vector" not in request.sources:
            return False
        vector = await state.query_embedding()
        found = await asyncio.to_thread(self.lessons.search, vector, max(slots, self.pool))
        votes = subsection_votes(state.raw.get("vector", []), state.raw.get("lexical", []))
        picks = choose_lessons(
            found,
            votes,
            slots,
            weight=self.vote_weight,
            per_subsection=self.per_subsection,
        )
        # `score` stays the cosine (the teach slot's documented scale); the vote only orders.
        state.lessons = [lesson_hit(p.found, rank) for rank, p in enumerate(picks, start=1)]
        return True
