"""What the scope model (`confidence/scope.py`) reads of a request whose earlier stages have
run: the message as typed and its embedding, the linked concepts, the lessons, the
misconception hits and the diagnosis.

>>> signals = await scope_signals(state, embedder)  # doctest: +SKIP
>>> model.in_scope(signals)  # doctest: +SKIP
0.97
"""

from __future__ import annotations

from tutorgraph.confidence.scope import ScopeSignals
from tutorgraph.embedding.batching import embed_async
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.linking.linker import STRUCTURED as COMMON_CORE
from tutorgraph.retrieval.state import RequestState, await_shared

__all__ = ["scope_signals"]


async def scope_signals(state: RequestState, embedder: Embedder) -> ScopeSignals:
    """What the scope model reads of a request whose earlier stages have run; raises
    `SourceUnavailableError` when the query was not embedded.

    The message is judged as the student typed it: the shared query embedding is of the
    refiner's rewrite, which for an LLM refiner may read maths into chit-chat, so a rewrite
    that differs is embedded again from the message (the local refiner's does not differ).
    In a dialogue, a turn that leans on it ("12?") is judged with the turns before it
    (`RequestFacts.scope_text`): alone it says too little to be school maths.
    """
    vector = await state.query_embedding()
    if state.facts.rewritten:
        vector = (
            await await_shared(state.message_vector, "message embedding")
            if state.message_vector is not None
            else (await embed_async(embedder, [state.facts.scope_text]))[0]
        )
    cosines = [float(c.evidence.get("cosine") or 0.0) for c in state.linked]
    core = [c.score for c in state.linked if c.taxonomy == COMMON_CORE and c.score is not None]
    lessons = [h.score for h in state.lessons]
    misconceptions = [h.score for h in state.hits if h.kind == "misconception"]
    check = state.answer_check
    return ScopeSignals(
        text=state.facts.link_text,
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
