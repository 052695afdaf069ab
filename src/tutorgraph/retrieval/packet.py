"""The packet a finished `RequestState` answers with, and its debug block.

>>> packet = build_packet(await run_stages(stages, state))  # doctest: +SKIP
"""

from __future__ import annotations

import logging
from typing import Any

from tutorgraph.errors import failure_reason
from tutorgraph.linking.linker import STRUCTURED as COMMON_CORE
from tutorgraph.retrieval.dialogue_info import dialogue_info
from tutorgraph.retrieval.fusion import RRF_K
from tutorgraph.retrieval.graph_search import GraphSearchResult
from tutorgraph.retrieval.no_match import no_match_reason
from tutorgraph.retrieval.pipeline import elapsed_ms
from tutorgraph.retrieval.practice import GeneratedPractice, generated_practice
from tutorgraph.retrieval.slots import SlotPick
from tutorgraph.retrieval.state import RequestState
from tutorgraph_client.models.grade import standard_grade
from tutorgraph_client.models.packet import (
    GraphContext,
    Hit,
    PacketSlots,
    ReasoningPacket,
    Slot,
    SlotHit,
    SlotScale,
)
from tutorgraph_client.models.request import ALL_SOURCES

__all__ = ["build_packet"]

log = logging.getLogger(__name__)

# Source agreement compares each source's this many best candidates.
_AGREEMENT_TOP = 10


def build_packet(state: RequestState) -> ReasoningPacket:
    """The `ReasoningPacket` of a request whose stages have all run; stamps the total time."""
    request, results = state.request, state.results
    graph = state.graph or GraphSearchResult()
    no_match = no_match_reason(state)
    generated = _generated(state, no_match)
    state.timings["total"] = elapsed_ms(state.started)
    return ReasoningPacket(
        query=request.query,
        refined_query=state.refined,
        results=state.hits,
        graph_context=GraphContext(
            concepts=graph.concepts,
            prerequisites=graph.prerequisites,
            misconceptions=graph.misconceptions,
        ),
        context=state.context,
        total_results=len(state.fused),
        vector_count=len(results.get("vector", [])),
        lexical_count=len(results.get("lexical", [])),
        graph_count=len(results.get("graph", [])),
        timings_ms=state.timings,
        degraded_sources=list(state.degraded),
        degraded_reasons=dict(state.degraded),
        degraded_stages=dict(state.degraded_stages),
        reranker=state.reranker_info,
        ranker=state.ranker_info,
        diagnosis=state.findings,
        answer_check=state.answer_check,
        conflicts=state.conflicts,
        concepts=state.linked,
        lessons=state.lessons,
        slots=_slots(state, generated),
        confidence=state.confidence.get("concept"),
        no_match=no_match is not None,
        no_match_reason=no_match,
        scope=state.scope_info,
        grade=state.grade_info,
        language=state.language,
        dialogue=dialogue_info(state),
        debug=_debug(state, generated) if request.debug else None,
    )


def _generated(state: RequestState, no_match: str | None) -> GeneratedPractice:
    """The generated practice (`retrieval/practice.py`); a failure leaves none and says why
    in `degraded_stages`, as an optional stage's does."""
    try:
        return generated_practice(state, no_match)
    except Exception as exc:
        reason = failure_reason("practice", exc)
        log.warning("generating practice failed (%s); the packet has none", exc, exc_info=exc)
        state.degraded_stages["practice"] = reason
        return GeneratedPractice(reason=reason)


def _practice(state: RequestState, generated: GeneratedPractice) -> list[Hit]:
    """The practice slot: the generated problems, then the index's practice aligned to their
    standard (the results', then up to `PAST_THE_CUT` from past the cut), then the rest of
    the results', each in order."""
    kinds = ("exercise", "question")
    found = _of_kinds(state, kinds)
    if not generated.hits:
        return found
    standard = generated.standard
    aligned = [h for h in found if standard in h.concept_ids]
    taken = {h.id for h in (*state.hits, *aligned)}
    aligned += [
        h
        for h in state.uncut
        if h.kind in kinds and h.id not in taken and standard in h.concept_ids
    ][:PAST_THE_CUT]
    ids = {h.id for h in aligned}
    return [*generated.hits, *aligned, *(h for h in found if h.id not in ids)]


def _slots(state: RequestState, generated: GeneratedPractice) -> PacketSlots:
    """The packet by job (design 8a): the slots stage's (`retrieval/slots.py`), each hit's
    `rank` its place among the results (0: not among them); without them, the results split
    by kind, in their order and on their scale. The generated practice, unscored, leads
    `practice`."""
    picks = state.slots
    if picks is not None:
        ranks = {h.id: h.rank for h in state.hits}
        return PacketSlots(
            concepts=[c.id for c in state.linked if c.taxonomy == COMMON_CORE],
            concepts_confidence=state.confidence.get("concept"),
            teach=_picked(picks.teach, ranks, state.confidence.get("teach")),
            misconceptions=_picked(
                picks.misconceptions,
                ranks,
                state.confidence.get("misconceptions"),
                stated_answer=picks.stated_answer,
            ),
            practice=_picked(picks.practice, ranks, None, lead=generated),
        )
    request = state.request
    misconceptions = _of_kinds(state, ("misconception",))
    practice = _practice(state, generated)
    found = len(practice) - len(generated.hits)
    stated = bool(state.answer_check and state.answer_check.student_answer)
    fused: SlotScale = "rerank" if state.reranker_info.applied else "fused"
    if request.lessons == 0:
        teach_empty = "the request asked for no lessons (lessons = 0)"
    elif "vector" not in request.sources:
        teach_empty = "lessons are searched by the vector source, which the request left out"
    else:
        teach_empty = "no explanation or worked example in the index is near this message"
    return PacketSlots(
        concepts=[c.id for c in state.linked if c.taxonomy == COMMON_CORE],
        concepts_confidence=state.confidence.get("concept"),
        teach=_slot(state.lessons, "cosine", state.confidence.get("teach"), teach_empty),
        misconceptions=_slot(
            misconceptions,
            "learned" if state.ranker_info.applied else fused,
            state.confidence.get("misconceptions"),
            "no misconception among the message's candidates",
            stated_answer=stated,
        ),
        practice=_slot(
            practice,
            fused if found else "none",
            None,
            "no exercise or question among the message's candidates",
        ),
    )


# Hits a slot takes from past the cut when `results` hold none of its kinds.
PAST_THE_CUT = 3


def _of_kinds(state: RequestState, kinds: tuple[str, ...]) -> list[Hit]:
    """The hits of `kinds` in `results`, in order; when there are none, the first
    `PAST_THE_CUT` of them past the cut (their `rank` 0: not among the results), so that a
    stated answer's misconceptions do not leave the packet without practice."""
    shown = [h for h in state.hits if h.kind in kinds]
    if shown:
        return shown
    return [h for h in state.uncut if h.kind in kinds][:PAST_THE_CUT]


def _picked(
    pick: SlotPick,
    ranks: dict[str, int],
    confidence: float | None,
    *,
    stated_answer: bool | None = None,
    lead: GeneratedPractice | None = None,
) -> Slot:
    """A slot the slots stage filled; `lead`'s generated problems, when there are any, come
    first (through their standard, unscored)."""
    made: list[SlotHit] = []
    if lead is not None and lead.standard is not None:
        grade = standard_grade(lead.standard)
        made = [
            SlotHit.of(h, via="standard", standard=lead.standard, grade=grade) for h in lead.hits
        ]
    return Slot(
        hits=[*made, *(h.model_copy(update={"rank": ranks.get(h.id, 0)}) for h in pick.hits)],
        scale="slot" if pick.hits else "none",
        confidence=confidence,
        empty_reason=None if made else pick.empty_reason,
        note=pick.note,
        stated_answer=stated_answer,
    )


def _slot(
    hits: list[Hit],
    scale: SlotScale,
    confidence: float | None,
    empty: str,
    *,
    stated_answer: bool | None = None,
) -> Slot:
    return Slot(
        hits=[SlotHit.of(h) for h in hits],
        scale=scale if hits else "none",
        confidence=confidence,
        empty_reason=None if hits else empty,
        stated_answer=stated_answer,
    )


def _debug(state: RequestState, generated: GeneratedPractice) -> dict[str, Any]:
    request, route, results, fused = state.request, state.route, state.results, state.fused
    tops = {name: {c.item.id for c in cands[:_AGREEMENT_TOP]} for name, cands in results.items()}
    agreement = {
        f"{a}~{b}": round(len(tops[a] & tops[b]) / len(tops[a] | tops[b]), 4)
        for i, a in enumerate(ALL_SOURCES)
        for b in ALL_SOURCES[i + 1 :]
        if tops.get(a) and tops.get(b)
    }
    return {
        "retrieval_profile_requested": route.profile_requested,
        "retrieval_profile_effective": route.profile.name,
        "semantic_weight_effective": route.semantic_weight,
        "auto_signals_detected": route.analysis.signals,
        "query_type": route.analysis.query_type,
        "graph_plan": state.graph_plan.__dict__ if state.graph_plan is not None else None,
        "candidates": {name: len(cands) for name, cands in results.items()},
        "depths": {
            "vector": route.profile.vector_depth,
            "lexical": route.profile.lexical_depth,
        },
        "fusion": {
            "method": request.fusion,
            "k": RRF_K if request.fusion == "rrf" else None,
            "weights": state.fusion_weights,
        },
        "graph_scoped": bool(state.graph_scope),
        "graph_scope": sorted(state.graph_scope),
        "rerank_requested": route.rerank,
        "source_agreement": agreement,
        "fused_top": [
            {"id": f.hit.best.item.id, "score": round(f.score, 9)}
            for f in fused[: request.n_results * 2]
        ],
        "sources": {
            name: [
                {"id": c.item.id, "rank": c.rank, "score": c.score}
                for c in cands[: request.n_results * 2]
            ]
            for name, cands in results.items()
        },
        "learned_score": state.contributions,
        "near_duplicates": state.near_duplicates.debug() if state.near_duplicates else {},
        "conflicts_detected": len(state.conflicts),
        "conflicts_resolved": sum(c.kind == "temporal" for c in state.conflicts),
        "diagnosis_skipped": state.diagnosis_skipped,
        # Every stage's own time, context assembly (`finish`) included.
        "stages_ms": state.stage_ms,
        # The generated practice: its standard, shape and time, or why there is none.
        "practice": generated.debug(),
    }
