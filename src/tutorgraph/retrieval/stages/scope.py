"""The scope stage: whether the message is school math the index can answer, and the
calibrated confidence of the packet and its slots (`confidence/scope.py`).

It reads what the earlier stages left (the query embedding, the linked concepts, the
lessons, the diagnosis) and runs four small logistic models: no encoder pass of its own,
unless an LLM refiner rewrote the message (see `scope_signals`).

>>> await ScopeStage(model, embedder).run(state); state.scope_info.in_scope  # doctest: +SKIP
0.97
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from tutorgraph.confidence.scope import ScopeModel, ScopeSignals
from tutorgraph.embedding.batching import embed_async
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.errors import SourceUnavailableError
from tutorgraph.linking.linker import STRUCTURED as COMMON_CORE
from tutorgraph.retrieval.pipeline import RequestState, Stage, await_shared
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import NO_SCOPE_MODEL, StageDeps
from tutorgraph_client.models.packet import ScopeInfo

__all__ = ["ScopeStage", "scope_signals"]


async def scope_signals(state: RequestState, embedder: Embedder) -> ScopeSignals:
    """What the scope model reads of a request whose earlier stages have run; raises
    `SourceUnavailableError` when the query was not embedded.

    The message is judged as the student typed it: the shared query embedding is of the
    refiner's rewrite, which for an LLM refiner may read maths into chit-chat, so a rewrite
    that differs is embedded again from the message (the local refiner's does not differ).
    """
    request = state.request
    vector = await state.query_embedding()
    refined = state.refined
    if refined is not None and refined.optimized_query != request.query:
        vector = (
            await await_shared(state.message_vector, "message embedding")
            if state.message_vector is not None
            else (await embed_async(embedder, [request.query]))[0]
        )
    cosines = [float(c.evidence.get("cosine") or 0.0) for c in state.linked]
    core = [c.score for c in state.linked if c.taxonomy == COMMON_CORE and c.score is not None]
    lessons = [h.score for h in state.lessons]
    misconceptions = [h.score for h in state.hits if h.kind == "misconception"]
    check = state.answer_check
    return ScopeSignals(
        text=" ".join(t for t in (request.query, request.problem) if t),
        vector=vector,
        concept_cosine=max(cosines, default=0.0),
        concept_score=core[0] if core else 0.0,
        concept_margin=core[0] - core[1] if len(core) > 1 else (core[0] if core else 0.0),
        lesson_cosine=lessons[0] if lessons else 0.0,
        lesson_mean=sum(lessons) / len(lessons) if lessons else 0.0,
        stated_answer=bool(check and check.student_answer),
        diagnosed=bool(state.findings),
        misconception_score=misconceptions[0] if misconceptions else 0.0,
    )


@dataclass(frozen=True)
class ScopeStage(Stage):
    """Sets `state.scope_info` and `state.confidence` (`concept`, `teach`,
    `misconceptions`); without a model, or without a query embedding, says why."""

    name = "scope"
    reads = frozenset(
        {
            "answer_check",
            "findings",
            "hits",
            "lessons",
            "linked",
            "message_vector",
            "query_vector",
            "refined",
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
