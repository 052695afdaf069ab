"""The scope stage: whether the message is school math the index can answer, and the
calibrated confidence of the packet and its slots (`confidence/scope.py`).

It reads what the earlier stages left (the query embedding, the linked concepts, the
lessons, the diagnosis; `retrieval/scope_signals.py`) and runs four small logistic models: no
encoder pass of its own, unless an LLM refiner rewrote the message.

>>> await ScopeStage(model, embedder).run(state); state.scope_info.in_scope  # doctest: +SKIP
0.97
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from tutorgraph.confidence.scope import ScopeModel
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.errors import SourceUnavailableError
from tutorgraph.retrieval.pipeline import Stage
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.scope_signals import scope_signals
from tutorgraph.retrieval.stage_deps import NO_SCOPE_MODEL, StageDeps
from tutorgraph.retrieval.state import RequestState
from tutorgraph_client.models.packet import ScopeInfo

__all__ = ["ScopeStage"]


@dataclass(frozen=True)
class ScopeStage(Stage):
    """Sets `state.scope_info` and `state.confidence` (`concept`, `teach`,
    `misconceptions`); without a model, or without a query embedding, says why."""

    name = "scope"
    reads = frozenset(
        {
            "answer_check",
            "facts",
            "findings",
            "hits",
            "lessons",
            "linked",
            "message_vector",
            "query_vector",
        }
    )
    writes = frozenset({"confidence", "scope_info"})
    required = False

    model: ScopeModel | None
    embedder: Embedder
    _: KW_ONLY
    # Why there is no model (the packet's `scope.reason`).
    unavailable: str | None = NO_SCOPE_MODEL.reason

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> ScopeStage:
        del config  # the stage needs nothing of them
        return cls(deps.scope.value, deps.embedder, unavailable=deps.scope.reason)

    async def run(self, state: RequestState) -> bool:
        model = self.model
        if model is None:
            state.scope_info = ScopeInfo(reason=self.unavailable or NO_SCOPE_MODEL.reason)
            return False
        try:
            signals = await scope_signals(state, self.embedder)
        except SourceUnavailableError as exc:
            state.scope_info = ScopeInfo(reason=f"no query embedding: {exc}")
            return False
        in_scope = model.in_scope(signals)
        state.scope_info = ScopeInfo(
            applied=True,
            model=str(model.info.get("name", "scope")),
            in_scope=round(in_scope, 4),
            threshold=model.threshold,
        )
        mis = model.misconception_confidence(signals, in_scope)
        state.confidence = {
            "concept": round(model.concept_confidence(signals, in_scope), 4),
            "teach": round(model.teach_confidence(signals, in_scope), 4),
            "misconceptions": None if mis is None else round(mis, 4),
        }
        return True

    def degrade(self, state: RequestState, reason: str) -> None:
        state.scope_info = ScopeInfo(reason=reason)
        state.confidence = {}
