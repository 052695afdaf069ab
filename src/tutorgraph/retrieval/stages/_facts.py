"""The facts stage: the request's facts (`retrieval/facts.py`), read once, right after the
refiner, for every later stage: the problem, the student's answer and its source, the
correct answer and the numbers.

>>> await FactsStage(timeout_s=2.0).run(state); state.facts.student_answer  # doctest: +SKIP
'18'
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import KW_ONLY, dataclass

from tutorgraph.retrieval.facts import RequestFacts, request_facts
from tutorgraph.retrieval.pipeline import Stage
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.retrieval.state import RequestState

__all__ = ["FactsStage"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FactsStage(Stage):
    """Sets `state.facts`. Past `timeout_s` (the reader is linear: tens of milliseconds at
    most for 2,000 hostile characters) or on a failure, the facts are the request's own
    fields, nothing read."""

    name = "facts"
    reads = frozenset({"refined"})
    writes = frozenset({"facts"})
    required = False

    _: KW_ONLY
    timeout_s: float

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> FactsStage:
        del deps  # the stage needs nothing of them
        return cls(timeout_s=config.source_timeout_s)

    async def run(self, state: RequestState) -> bool:
        # The reader runs in a worker thread, off the event loop (it is cached: the local
        # refiner has usually read the same text already).
        work = asyncio.to_thread(request_facts, state.request, state.refined)
        try:
            state.facts = await asyncio.wait_for(work, self.timeout_s)
        except TimeoutError:
            log.warning("reading the request's facts took over %g s", self.timeout_s)
            state.facts = RequestFacts.given(state.request, state.refined)
        return True

    def degrade(self, state: RequestState, reason: str) -> None:
        del reason
        state.facts = RequestFacts.given(state.request, state.refined)
