"""The lessons stage: the packet's `teach` slot, the explanations and worked examples for the
message (`stores/lessons.py` says why they are searched apart and how they are chosen).

The `LESSON_POOL` lessons nearest the query vector are reordered by their subsection's vote
from the request's own dense and lexical searches (`state.raw`, already there: no extra
search), at most `PER_SUBSECTION` of one subsection.

>>> await LessonStage(index.lessons, slots=4).run(state)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
from dataclasses import KW_ONLY, dataclass

from tutorgraph.retrieval.hits import lesson_hit
from tutorgraph.retrieval.pipeline import Stage
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.retrieval.state import RequestState
from tutorgraph.stores.lessons import (
    LESSON_POOL,
    PER_SUBSECTION,
    VOTE_WEIGHT,
    choose_lessons,
    subsection_votes,
)
from tutorgraph.stores.protocols import LessonSearch

__all__ = ["LessonStage"]


@dataclass(frozen=True)
class LessonStage(Stage):
    """Sets `state.lessons`: up to `slots` of them (the request's `lessons`, when it sets
    it); none for a request that does not search `vector`, or an index without lesson
    vectors. The lessons are in memory: a vector store that is down does not stop them (they
    are then chosen without the dense search's votes).

    `vote_weight` 0 and `per_subsection` None give the plain cosine order (the recipe before
    issue 47).
    """

    name = "lessons"
    reads = frozenset({"query_vector", "raw"})
    writes = frozenset({"lessons"})
    timing = "lessons"
    required = False

    lessons: LessonSearch | None
    _: KW_ONLY
    slots: int
    pool: int = LESSON_POOL
    vote_weight: float = VOTE_WEIGHT
    per_subsection: int | None = PER_SUBSECTION

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> LessonStage:
        return cls(deps.lessons, slots=config.lesson_slots)

    async def run(self, state: RequestState) -> bool:
        request = state.request
        slots = request.lessons if request.lessons is not None else self.slots
        if self.lessons is None or slots == 0 or "vector" not in request.sources:
            return False
        if state.query_vector is None:
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
