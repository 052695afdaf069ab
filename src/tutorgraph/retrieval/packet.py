"""The packet a finished `RequestState` answers with, and its debug block.

>>> packet = build_packet(await run_stages(stages, state))  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

from tutorgraph.models.packet import GraphContext, ReasoningPacket
from tutorgraph.models.request import ALL_SOURCES
from tutorgraph.retrieval.fusion import RRF_K, source_weights
from tutorgraph.retrieval.graph_search import GraphSearchResult
from tutorgraph.retrieval.pipeline import RequestState, elapsed_ms
from tutorgraph.retrieval.stages.search import graph_plan

__all__ = ["build_packet"]

# Source agreement compares each source's this many best candidates.
_AGREEMENT_TOP = 10


def build_packet(state: RequestState) -> ReasoningPacket:
    """The `ReasoningPacket` of a request whose stages have all run; stamps the total time."""
    request, results = state.request, state.results
    graph = state.graph or GraphSearchResult()
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
        degraded_sources=state.degraded,
        reranker=state.reranker_info,
        ranker=state.ranker_info,
        diagnosis=state.findings,
        answer_check=state.answer_check,
        conflicts=state.conflicts,
        concepts=state.linked,
        lessons=state.lessons,
        debug=_debug(state) if request.debug else None,
    )


def _debug(state: RequestState) -> dict[str, Any]:
    request, route, results, fused = state.request, state.route, state.results, state.fused
    tops = {name: {c.item.id for c in cands[:_AGREEMENT_TOP]} for name, cands in results.items()}
    agreement = {
        f"{a}~{b}": round(len(tops[a] & tops[b]) / len(tops[a] | tops[b]), 4)
        for i, a in enumerate(ALL_SOURCES)
        for b in ALL_SOURCES[i + 1 :]
        if tops.get(a) and tops.get(b)
    }
    out: dict[str, Any] = {
        "retrieval_profile_requested": route.profile_requested,
        "retrieval_profile_effective": route.profile.name,
        "semantic_weight_effective": route.semantic_weight,
        "auto_signals_detected": route.analysis.signals,
        "query_type": route.analysis.query_type,
        "graph_plan": graph_plan(request, route).__dict__,
        "candidates": {name: len(cands) for name, cands in results.items()},
        "depths": {
            "vector": route.profile.vector_depth,
            "lexical": route.profile.lexical_depth,
        },
        "fusion": {
            "method": request.fusion,
            "k": RRF_K if request.fusion == "rrf" else None,
            "weights": source_weights(route.semantic_weight),
        },
        "graph_scoped": bool(state.scope),
        "graph_scope": sorted(state.scope),
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
        "near_duplicates": state.near_duplicates,
        "conflicts_detected": len(state.conflicts),
        "conflicts_resolved": sum(c.kind == "temporal" for c in state.conflicts),
        "diagnosis_skipped": state.diagnosis_skipped,
        # Every stage's own time, context assembly (`finish`) included.
        "stages_ms": state.stage_ms,
    }
    if state.degraded_stages:
        out["degraded_stages"] = state.degraded_stages
    return out
