"""The refine stage: the message's language, then the refiner's reading of the query (key
concepts, the student's answer, a query rewritten for search), when the request asks for it
and a refiner is configured.

>>> await RefineStage(refiner).run(state); state.refined  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass

from tutorgraph.refinement.language import detect_language, language_note
from tutorgraph.refinement.refiner import Refiner
from tutorgraph.retrieval.pipeline import Stage
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.retrieval.state import RequestState
from tutorgraph_client.models.packet import LanguageInfo

__all__ = ["RefineStage"]


@dataclass(frozen=True)
class RefineStage(Stage):
    """Sets `state.language` (always: the detector is cached and takes well under a
    millisecond for a message, a few for 2,000 hostile characters) and `state.refined`; a
    refiner that fails leaves it None (the query as written)."""

    name = "refine"
    reads = frozenset()
    writes = frozenset({"language", "refined"})
    timing = "refine"
    # Refiners fall back on their own; a failure here is a bug in one.
    required = False

    refiner: Refiner | None

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> RefineStage:
        del config  # the stage needs nothing of them
        return cls(deps.refiner)

    async def run(self, state: RequestState) -> bool:
        request = state.request
        # Only English is supported: the local refiner does not spell-correct another
        # language into English words, and the packet says what the message reads as.
        language = detect_language(request.query)
        if not language.english:
            state.language = LanguageInfo(
                english=False, detected=language.code, note=language_note(language)
            )
        if not request.use_refinement or self.refiner is None:
            return False
        state.refined = await self.refiner.refine(
            request.query, student_answer=request.student_answer
        )
        return True
