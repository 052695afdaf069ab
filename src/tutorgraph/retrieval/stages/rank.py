"""The rank stage: misconception hits get the learned ranker's score, the ranker's own
proposals join them, and the misconceptions are re-ordered by it (which model scores a
request, and its query: `retrieval/ranker_runtime.py`).

>>> hits, info, parts = await learned_rank(ranker, scoring, graph, embedder, request, None,
...     route, hits, proposals=40)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import KW_ONLY, dataclass

from tutorgraph.config import SOURCE_TIMEOUT_S
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.ranking.model import CandidateSignals, LearnedRanker, RankerQuery
from tutorgraph.retrieval.facts import RequestFacts
from tutorgraph.retrieval.hits import misconception_hit
from tutorgraph.retrieval.pipeline import RequestState, Stage, await_shared
from tutorgraph.retrieval.ranker_runtime import DeferredRanker, Scoring, ranker_query_vector
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.router import Route
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.stores.breaker import CircuitBreaker
from tutorgraph.stores.guard import guarded
from tutorgraph.stores.protocols import GraphStore
from tutorgraph_client.models.packet import Hit, RankerInfo
from tutorgraph_client.models.request import RetrievalRequest

__all__ = ["RankStage", "learned_rank"]


async def learned_rank(
    ranker: LearnedRanker,
    scoring: Scoring,
    graph: GraphStore,
    embedder: Embedder,
    request: RetrievalRequest,
    facts: RequestFacts,
    route: Route,
    hits: list[Hit],
    *,
    proposals: int,
    query_vector: Awaitable[RankerQuery | None] | None = None,
    timeout_s: float = SOURCE_TIMEOUT_S,
    breaker: CircuitBreaker | None = None,
) -> tuple[list[Hit], RankerInfo, dict[str, dict[str, float]]]:
    """Give misconceptions their learned score, add those it proposes, and re-order them.

    The misconceptions keep the places the earlier stages gave misconceptions, now in
    learned order; proposals compete for those places. For a misconception query (a
    student's answer is known) the misconceptions come first. `scoring` is which of
    `ranker`'s models scores the request (`scoring_ranker`). Returns the hits, what happened,
    and each scored hit's feature contributions (for the debug block). The proposals are
    read from the graph under `timeout_s` and its `breaker`: a graph that is down costs the
    proposals, not the scores.
    """
    model, concepts, reason = scoring
    if model is None:
        return hits, RankerInfo(model=_name(ranker, None), reason=reason), {}
    combiner = model.combiner
    assert combiner is not None  # the retriever runs this stage only with one
    name = _name(ranker, model)
    query = await (
        query_vector
        if query_vector is not None
        else ranker_query_vector(
            scoring, graph, embedder, request, facts, timeout_s=timeout_s, breaker=breaker
        )
    )
    assert query is not None  # the checks above are the ones it makes
    vector, tuned = query
    slots = [i for i, h in enumerate(hits) if h.kind == "misconception"]
    known = {i for h in hits if h.kind == "misconception" for i in h.ids}
    proposed_ids = [
        m
        for m in await asyncio.to_thread(model.propose, vector, concepts, proposals, tuned=tuned)
        if m not in known
    ]
    found = (
        await guarded("graph", graph.get_misconceptions(proposed_ids), timeout_s, breaker=breaker)
        if proposed_ids
        else []
    )
    proposed = [misconception_hit(m) for m in found or []]
    pool = [hits[i] for i in slots] + proposed
    signals = [
        CandidateSignals(
            h.id,
            h.source_ranks,
            h.source_scores,
            h.fused_score if h.found_by else None,
            h.rerank_score,
        )
        for h in pool
    ]
    rows = await asyncio.to_thread(model.features, vector, concepts, signals, tuned=tuned)
    scores = combiner.score(rows)
    parts = combiner.contributions(rows) if request.debug else []
    for hit, s in zip(pool, scores, strict=True):
        hit.learned_score = s
        hit.score = s
    order = sorted(range(len(pool)), key=lambda n: (-scores[n], pool[n].id))
    ranked = [pool[n] for n in order]
    contributions = {pool[n].id: parts[n] for n in order} if parts else {}
    if route.analysis.query_type == "misconception":  # every misconception will lead
        out = ranked + [h for h in hits if h.kind != "misconception"]
    else:
        out = list(hits)
        for slot, hit in zip(slots, ranked, strict=False):
            out[slot] = hit
    for hit in proposed:  # provenance, set after scoring (the features read `found_by`)
        hit.found_by = ["ranker"]
        hit.source_scores = {"ranker": hit.learned_score or 0.0}
    # `proposed` is counted by the finish stage, after the final cut.
    info = RankerInfo(applied=True, model=name)
    return out, info, contributions


def _name(ranker: LearnedRanker, model: LearnedRanker | None) -> str:
    """The scoring model's name (the ranker's when none scores)."""
    name = str(ranker.info.get("name", "learned-ranker"))
    return name if model is None else str(model.info.get("name", name))


@dataclass(frozen=True)
class RankStage(Stage):
    """Re-orders the misconceptions of `state.hits`; sets `state.ranker_info` and, for the
    debug block, `state.contributions`. A ranker that fails keeps the first-stage order."""

    name = "rank"
    reads = frozenset({"facts", "hits", "ranker_vector", "route", "scoring"})
    writes = frozenset({"contributions", "hits", "ranker_info", "scoring"})
    timing = "rank"
    required = False

    ranker: LearnedRanker | DeferredRanker | None
    graph: GraphStore
    embedder: Embedder
    _: KW_ONLY
    proposals: int
    # Why there is no ranker (the packet's `ranker.reason`).
    unavailable: str | None
    # The proposals come from the graph: under its timeout and breaker.
    timeout_s: float = SOURCE_TIMEOUT_S
    breaker: CircuitBreaker | None = None

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> RankStage:
        return cls(
            deps.ranker.value,
            deps.graph,
            deps.embedder,
            proposals=config.ranker_proposals,
            unavailable=deps.ranker.reason,
            timeout_s=config.source_timeout_s,
            breaker=deps.breakers.graph,
        )

    async def run(self, state: RequestState) -> bool:
        ranker = self.ranker
        unavailable = self.unavailable
        if isinstance(ranker, DeferredRanker):
            reason = ranker.unscored(state.request, state.facts)
            if reason is not None:  # not loaded for a request it would not score
                state.ranker_info = RankerInfo(model=ranker.name, reason=reason)
                return False
            ranker, unavailable = await ranker.get()
        if ranker is None or ranker.combiner is None:
            state.ranker_info = RankerInfo(reason=unavailable)
            return False
        state.hits, state.ranker_info, state.contributions = await learned_rank(
            ranker,
            state.ranker_scoring(ranker),
            self.graph,
            self.embedder,
            state.request,
            state.facts,
            state.route,
            state.hits,
            proposals=self.proposals,
            timeout_s=self.timeout_s,
            breaker=self.breaker,
            query_vector=(
                None
                if state.ranker_vector is None
                else await_shared(state.ranker_vector, "ranker's query embedding")
            ),
        )
        return state.ranker_info.applied

    def degrade(self, state: RequestState, reason: str) -> None:
        ranker = self.ranker
        if isinstance(ranker, DeferredRanker):
            if ranker.loaded is None:  # it failed while loading
                state.ranker_info = RankerInfo(model=ranker.name, reason=reason)
                return
            ranker = ranker.loaded
        assert ranker is not None  # it only fails when it runs
        model = state.ranker_scoring(ranker).model
        state.ranker_info = RankerInfo(model=_name(ranker, model), reason=reason)
