"""The lessons stage: the explanations and worked examples nearest the query, for the
packet's `lessons` (`retrieval/lessons.py` says why they are searched apart).

>>> await LessonStage(index.lessons, slots=4).run(state)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio

from tutorgraph.retrieval.hits import lesson_hit
from tutorgraph.retrieval.pipeline import RequestState, Stage
from tutorgraph.stores.protocols import LessonSearch

__all__ = ["LessonStage"]


class LessonStage(Stage):
    """Sets `state.lessons`: up to `slots` of them (the request's `lessons`, when it sets
    it); none for a request that does not search `vector`, or an index without lesson
    vectors. The lessons are in memory: a vector store that is down does not stop them."""

    name = "lessons"
    timing = "lessons"
    required = False

    def __init__(self, lessons: LessonSearch | None, *, slots: int) -> None:
        self._lessons = lessons
        self._slots = slots

    async def run(self, state: RequestState) -> bool:
        request = state.request
        slots = request.lessons if request.lessons is not None else self._slots
        if self._lessons is None or slots == 0 or "vector" not in request.sources:
            return False
        if state.query_vector is None:
            return False
        vector = await state.query_embedding()
        found = await asyncio.to_thread(self._lessons.search, vector, slots)
        state.lessons = [lesson_hit(s, rank) for rank, s in enumerate(found, start=1)]
        return True
