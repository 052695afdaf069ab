"""The hybrid retriever: route, search vector/lexical/graph in parallel, merge, fuse, assemble.

>>> retriever = HybridRetriever(embedder, index.vector, index.lexical, index.graph)
... # doctest: +SKIP
>>> packet = await retriever.retrieve(RetrievalRequest(query="why is 3/4 bigger than 2/3?"))
... # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.errors import SourceUnavailableError, UnknownConceptError
from tutorgraph.linking import taxonomy_of
from tutorgraph.models.packet import (
    STAGES,
    Conflict,
    GraphContext,
    Hit,
    LinkedConcept,
    RankerInfo,
    ReasoningPacket,
    RerankerInfo,
)
from tutorgraph.models.refined_query import RefinedQuery
from tutorgraph.models.request import ALL_SOURCES, RetrievalRequest, SourceName
from tutorgraph.ranking.model import LearnedRanker
from tutorgraph.refinement.refiner import Refiner
from tutorgraph.retrieval.batching import embed_async, rerank_async
from tutorgraph.retrieval.candidates import Candidate
from tutorgraph.retrieval.conflicts import factual_conflicts, latest_versions
from tutorgraph.retrieval.context import assemble_context
from tutorgraph.retrieval.diagnosis_stage import DiagnosisOutcome, diagnose_hits
from tutorgraph.retrieval.fusion import RRF_K, FusedHit, fuse, source_weights
from tutorgraph.retrieval.graph_search import (
    GRAPH_PLANS,
    GraphPlan,
    GraphSearchResult,
    graph_search,
)
from tutorgraph.retrieval.hits import fused_hit
from tutorgraph.retrieval.learned_stage import (
    RankerQuery,
    learned_rank,
    ranker_query_vector,
    scoring_ranker,
)
from tutorgraph.retrieval.link_stage import with_chains
from tutorgraph.retrieval.local_context import LOCAL_PREFIX, local_items, search_local
from tutorgraph.retrieval.merge import merge_candidates
from tutorgraph.retrieval.near_duplicates import MERGEABLE_KINDS, merge_near_duplicates
from tutorgraph.retrieval.reranker import Reranker
from tutorgraph.retrieval.router import Route, resolve_route
from tutorgraph.stores.guard import guarded
from tutorgraph.stores.protocols import (
    ConceptLinks,
    GraphStore,
    IndexItem,
    LexicalIndex,
    ScoredItem,
    VectorStore,
)

__all__ = ["SCOPE_BOOST", "HybridRetriever", "RetrieverConfig"]

log = logging.getLogger(__name__)
T = TypeVar("T")
# Graph scoping multiplies the dense/lexical score of in-scope candidates by 1 + SCOPE_BOOST
# and re-ranks each list; it never removes a candidate (a Chroma `where` filter to restrict
# instead costs far more than the search itself).
SCOPE_BOOST = 0.2
_AGREEMENT_TOP = 10
# Near-duplicates are looked for among this many times the hits a packet keeps, so that
# merged ones are replaced by the next distinct hits.
NEAR_DUPLICATE_WINDOW = 3


@dataclass(frozen=True)
class RetrieverConfig:
    """Index-level defaults, candidate depths and the per-source timeout.

    `rerank_depth` is how many fused candidates the cross-encoder scores.
    """

    default_retrieval_profile: str = "auto"
    default_semantic_weight: float | None = None
    graph_depth: int = 50
    rerank_depth: int = 30
    source_timeout_s: float = 2.0
    # How many misconceptions each of the learned ranker's lists may propose.
    ranker_proposals: int = 40
    # The index's near-duplicate threshold (a request may set its own); None: no merge.
    near_duplicate_threshold: float | None = None


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000.0, 3)


def _candidates(results: list[ScoredItem]) -> list[Candidate]:
    return [Candidate(r.item, r.score, rank) for rank, r in enumerate(results, start=1)]


def _graph_plan(request: RetrievalRequest, route: Route) -> GraphPlan:
    """The query type's graph plan, with the request's prerequisite hops when it sets them."""
    plan = GRAPH_PLANS[route.analysis.query_type]
    if request.prerequisite_hops is None:
        return plan
    return replace(plan, prerequisite_depth=request.prerequisite_hops)


def _in_scope(item: IndexItem, scope: set[str]) -> bool:
    return item.id in scope or not scope.isdisjoint(item.concept_ids)


def _scoped(results: list[ScoredItem], scope: set[str]) -> list[ScoredItem]:
    """Boost in-scope candidates and re-rank; ties keep their id order."""
    boosted = [
        ScoredItem(r.item, r.score * (1.0 + SCOPE_BOOST)) if _in_scope(r.item, scope) else r
        for r in results
    ]
    return sorted(boosted, key=lambda r: (-r.score, r.item.id))


def _kept_conflicts(hits: list[Hit], conflicts: list[Conflict]) -> list[Conflict]:
    """The conflicts with two or more hits left in the packet, told only of those."""
    kept = {h.id for h in hits}
    for hit in hits:
        hit.conflicts_with = [i for i in hit.conflicts_with if i in kept]
    out = []
    for c in conflicts:
        ids = [i for i in c.ids if i in kept]
        if len(ids) > 1:
            answers = {i: a for i, a in c.answers.items() if i in kept}
            preferred = c.preferred if c.preferred in kept else ids[0]
            out.append(
                c.model_copy(update={"ids": ids, "answers": answers, "preferred": preferred})
            )
    return out


# Concepts the linker names in each taxonomy (10: with 5, the packet missed the standard a
# top-10 search finds, held-out messages hit@10 0.674 against the linker's 0.761).
LINKED_PER_TAXONOMY = 10


class HybridRetriever:
    """Answers a `RetrievalRequest` with a `ReasoningPacket`; stores are injected."""

    def __init__(
        self,
        embedder: Embedder,
        vector: VectorStore,
        lexical: LexicalIndex,
        graph: GraphStore,
        config: RetrieverConfig | None = None,
        *,
        reranker: Reranker | None = None,
        reranker_unavailable: str = "no reranker configured",
        refiner: Refiner | None = None,
        ranker: LearnedRanker | None = None,
        ranker_unavailable: str = "no learned ranker configured",
        diagnoser: Diagnoser | None = None,
        linker: ConceptLinks | None = None,
    ) -> None:
        """`reranker` must be loaded already; without one, `reranker_unavailable` says why.

        The stores belong to whoever opened them; the retriever owns its refiner, which
        `aclose()` closes (an HTTP client, for the OpenAI refiner).
        """
        self._embedder = embedder
        self._vector = vector
        self._lexical = lexical
        self._graph = graph
        self._config = config or RetrieverConfig()
        self._reranker = reranker
        self._reranker_unavailable = reranker_unavailable
        self._refiner = refiner
        self._ranker = ranker
        self._ranker_unavailable = ranker_unavailable
        self._diagnoser = diagnoser
        self._linker = linker

    @property
    def embedder(self) -> Embedder:
        """The query embedder (an ingest into a new index generation reuses it)."""
        return self._embedder

    @property
    def reranker(self) -> Reranker | None:
        """The loaded reranker, or None when packets cannot be reranked."""
        return self._reranker

    @property
    def ranker(self) -> LearnedRanker | None:
        """The learned final score's model, or None when packets keep the fused order."""
        return self._ranker

    @property
    def refiner(self) -> Refiner | None:
        """The refiner used when a request asks for refinement (the default)."""
        return self._refiner

    async def aclose(self) -> None:
        if self._refiner is not None:
            await self._refiner.aclose()

    def route(self, request: RetrievalRequest, refined: RefinedQuery | None = None) -> Route:
        """The routing decision for a request (no I/O)."""
        return resolve_route(
            query=request.query,
            retrieval_profile=request.retrieval_profile,
            semantic_weight=request.semantic_weight,
            graph_scope=request.graph_scope,
            rerank=request.rerank,
            default_profile=self._config.default_retrieval_profile,
            default_semantic_weight=self._config.default_semantic_weight,
            student_answer=bool(refined.student_answer if refined else request.student_answer),
        )

    async def retrieve(self, request: RetrievalRequest) -> ReasoningPacket:
        started = time.perf_counter()
        timings = dict.fromkeys(STAGES, 0.0)
        if request.concept_ids:
            unknown = await self._guard("graph", self._graph.unknown_concepts(request.concept_ids))
            # None: the graph is down, so the ids cannot be checked; its search degrades too.
            if unknown:
                raise UnknownConceptError(unknown)
        t = time.perf_counter()
        refined = await self._refine(request)
        # The time spent, also when the refiner failed (0 only when it did not run).
        timings["refine"] = _ms(t) if self._refines(request) else 0.0
        route = self.route(request, refined)
        ranker_vector = self._start_ranker_vector(request, refined)
        query_vector = self._start_query_vector(request, refined, timings)
        raw, graph, degraded = await self._search(request, refined, route, timings, query_vector)
        graph_result = graph or GraphSearchResult()
        t = time.perf_counter()
        linked = await self._link(request, query_vector)
        timings["link"] = _ms(t) if self._linker is not None else 0.0

        t = time.perf_counter()
        scope = graph_result.scope() if route.graph_scope else set()
        results: dict[SourceName, list[Candidate]] = {
            name: _candidates(_scoped(out, scope) if scope else out) for name, out in raw.items()
        }
        if graph is not None:
            results["graph"] = graph.candidates
        results, stale = latest_versions(results)
        merged = merge_candidates(results)
        timings["merge"] = _ms(t)
        t = time.perf_counter()
        weights = source_weights(route.semantic_weight)
        fused = fuse(merged, weights, request.fusion)
        timings["fuse"] = _ms(t)

        rerank_on = route.rerank and self._reranker is not None
        keep = max(request.n_results, self._config.rerank_depth if rerank_on else 0)
        t = time.perf_counter()
        hits, near_duplicates, conflicts = await self._near_duplicates(request, fused, keep)
        conflicts = stale + conflicts
        timings["merge"] = round(timings["merge"] + _ms(t), 3)
        t = time.perf_counter()
        hits, reranker_info = await self._rerank(request.query, hits, route.rerank)
        timings["rerank"] = _ms(t)
        t = time.perf_counter()
        contributions: dict[str, dict[str, float]] = {}
        if self._ranker is None or self._ranker.combiner is None:
            ranker_info = RankerInfo(reason=self._ranker_unavailable)
        else:
            hits, ranker_info, contributions = await learned_rank(
                self._ranker,
                self._graph,
                self._embedder,
                request,
                refined,
                route,
                hits,
                proposals=self._config.ranker_proposals,
                query_vector=ranker_vector,
            )
        timings["rank"] = _ms(t) if ranker_info.applied else 0.0
        t = time.perf_counter()
        diagnosed = DiagnosisOutcome(hits)
        if self._diagnoser is not None:
            diagnosed = await diagnose_hits(
                self._diagnoser,
                lambda ids: self._guard("graph", self._graph.get_misconceptions(ids)),
                request,
                refined,
                hits,
                timeout_s=self._config.source_timeout_s,
            )
        hits, diagnosis, check = diagnosed.hits, diagnosed.findings, diagnosed.check
        # The time spent whenever the rules were tried, also when they found nothing.
        timings["diagnose"] = _ms(t) if diagnosed.ran else 0.0
        if route.analysis.query_type == "misconception":
            # The student's answer is known: what they got wrong leads (stable otherwise).
            hits.sort(key=lambda h: h.kind != "misconception")
        hits = hits[: request.n_results]
        for rank, hit in enumerate(hits, start=1):
            hit.rank = rank
        context = await asyncio.to_thread(
            assemble_context,
            hits,
            count_tokens=self._embedder.count_tokens,
            max_tokens=request.max_context_tokens,
        )
        timings["total"] = _ms(started)
        return ReasoningPacket(
            query=request.query,
            refined_query=refined,
            results=hits,
            graph_context=GraphContext(
                concepts=graph_result.concepts,
                prerequisites=graph_result.prerequisites,
                misconceptions=graph_result.misconceptions,
            ),
            context=context,
            total_results=len(fused),
            vector_count=len(results.get("vector", [])),
            lexical_count=len(results.get("lexical", [])),
            graph_count=len(results.get("graph", [])),
            timings_ms=timings,
            degraded_sources=degraded,
            reranker=reranker_info,
            ranker=ranker_info,
            diagnosis=diagnosis,
            answer_check=check,
            conflicts=conflicts,
            concepts=linked,
            debug=(
                {
                    **self._debug(request, route, results, fused, scope),
                    "learned_score": contributions,
                    "near_duplicates": near_duplicates,
                    "conflicts_detected": len(conflicts),
                    "conflicts_resolved": sum(c.kind == "temporal" for c in conflicts),
                    "diagnosis_skipped": diagnosed.skipped,
                }
                if request.debug
                else None
            ),
        )

    def _refines(self, request: RetrievalRequest) -> bool:
        return request.use_refinement and self._refiner is not None

    async def _refine(self, request: RetrievalRequest) -> RefinedQuery | None:
        """The refiner's reading of the request; None when off or when it failed."""
        if not self._refines(request) or self._refiner is None:
            return None
        try:
            return await self._refiner.refine(request.query, student_answer=request.student_answer)
        except Exception:
            # Refiners fall back on their own; this only guards against a bug in one.
            log.exception("refiner %s failed; searching the query as written", self._refiner.name)
            return None

    async def _near_duplicates(
        self, request: RetrievalRequest, fused: list[FusedHit], keep: int
    ) -> tuple[list[Hit], dict[str, Any], list[Conflict]]:
        """The first `keep` fused hits after near-duplicates are merged, drawn from a window
        of `NEAR_DUPLICATE_WINDOW` times as many; what the merge did (for `debug`); and the
        factual conflicts among them (conflicting hits are never merged).

        The vectors come from the vector store; when it fails, the hits stay unmerged.
        """
        threshold = request.near_duplicate_threshold or self._config.near_duplicate_threshold
        if threshold is None:
            hits = [fused_hit(f) for f in fused[:keep]]
            return hits, {"threshold": None, "merged": 0}, factual_conflicts(hits)
        hits = [fused_hit(f) for f in fused[: keep * NEAR_DUPLICATE_WINDOW]]
        conflicts = factual_conflicts(hits)
        # The local context is in no store (and is the caller's: never merged away).
        ids = [
            h.id for h in hits if h.kind in MERGEABLE_KINDS and not h.id.startswith(LOCAL_PREFIX)
        ]
        vectors = await self._guard("vector", self._vector.embeddings(ids)) if ids else {}
        if vectors is None:
            info = {"threshold": threshold, "merged": 0, "skipped": "the vector store failed"}
        else:
            hits, merged = merge_near_duplicates(hits, vectors, threshold)
            info = {"threshold": threshold, "merged": merged}
        return hits[:keep], info, _kept_conflicts(hits[:keep], conflicts)

    async def _rerank(
        self, query: str, hits: list[Hit], wanted: bool
    ) -> tuple[list[Hit], RerankerInfo]:
        """Score the top `rerank_depth` hits against the original query and re-sort them.

        The tail keeps its fused order behind them. A failure keeps the fused order and says so.
        """
        if not wanted:
            return hits, RerankerInfo(applied=False, reason="reranking not requested")
        if self._reranker is None:
            return hits, RerankerInfo(applied=False, reason=self._reranker_unavailable)
        name = self._reranker.name
        if not hits:
            return hits, RerankerInfo(applied=False, model=name, reason="no candidates")
        head, tail = hits[: self._config.rerank_depth], hits[self._config.rerank_depth :]
        texts = [f"{h.title}: {h.text}" if h.title else h.text for h in head]
        try:
            scores = await rerank_async(self._reranker, query, texts)
        except Exception as exc:
            log.warning("reranker %s failed: %s", name, exc)
            reason = f"reranker failed: {type(exc).__name__}"
            return hits, RerankerInfo(applied=False, model=name, reason=reason)
        for hit, s in zip(head, scores, strict=True):
            hit.rerank_score = s
            hit.score = s
        # Stable: equal scores keep their fused order.
        head.sort(key=lambda h: -s if (s := h.rerank_score) is not None else 0.0)
        return head + tail, RerankerInfo(applied=True, model=name)

    async def _search(
        self,
        request: RetrievalRequest,
        refined: RefinedQuery | None,
        route: Route,
        timings: dict[str, float],
        query_vector: asyncio.Task[npt.NDArray[np.float32]] | None,
    ) -> tuple[dict[SourceName, list[ScoredItem]], GraphSearchResult | None, list[SourceName]]:
        """Run the requested sources concurrently, each under its timeout.

        A refined query feeds the dense and lexical searches its `optimized_query` and the
        graph its `key_concepts`; the student's answer joins the text misconceptions are
        matched on. Returns the dense and lexical results, the graph's result (None when it
        did not answer or was not asked) and the sources that failed.
        """
        cfg = self._config
        text = refined.optimized_query if refined else request.query
        answer = refined.student_answer if refined else request.student_answer
        graph_text = f"{text} {answer}" if answer and answer not in text else text
        profile = route.profile
        local = local_items(request.local_context)
        vector_task: asyncio.Task[list[ScoredItem]] | None = None
        if "vector" in request.sources and query_vector is not None:
            vector_task = asyncio.create_task(
                self._vector_search(query_vector, profile.vector_depth, timings)
            )

        async def evidence() -> list[IndexItem]:
            # The graph is seeded by the documents the dense search found (GraphRAG linking);
            # a failed or slow vector source just leaves it with its other seeds.
            if vector_task is None:
                return []
            await asyncio.wait({vector_task}, timeout=cfg.source_timeout_s / 2)
            if not vector_task.done() or vector_task.cancelled() or vector_task.exception():
                return []
            return [h.item for h in vector_task.result()]

        async def run_graph() -> GraphSearchResult:
            items = await evidence()
            return await self._timed(
                "graph",
                timings,
                graph_search(
                    self._graph,
                    graph_text,
                    request.concept_ids,
                    plan=_graph_plan(request, route),
                    limit=cfg.graph_depth,
                    evidence=items,
                    # No key concepts (none found, or the graph failed the refiner): the graph
                    # matches names itself, and a graph that is down then shows as degraded.
                    key_concepts=refined.key_concepts if refined and refined.key_concepts else None,
                ),
            )

        jobs: dict[SourceName, Awaitable[Any]] = {}
        if vector_task is not None:
            jobs["vector"] = vector_task
        if "lexical" in request.sources:
            jobs["lexical"] = self._timed(
                "lexical", timings, self._lexical.search(text, profile.lexical_depth)
            )
        if "graph" in request.sources:
            jobs["graph"] = run_graph()
        if local and query_vector is not None:
            jobs["local"] = self._timed(
                "local",
                timings,
                self._local_search(local, text, query_vector, route.semantic_weight),
            )
        names = list(jobs)
        outcomes = await asyncio.gather(*(self._guard(n, jobs[n]) for n in names))
        degraded = [n for n, out in zip(names, outcomes, strict=True) if out is None]
        if len(degraded) == len(names):
            raise SourceUnavailableError(
                f"no retrieval source answered ({', '.join(degraded)})",
                details={"degraded_sources": degraded},
            )
        answered = dict(zip(names, outcomes, strict=True))
        graph: GraphSearchResult | None = answered.pop("graph", None)
        raw = {name: out for name, out in answered.items() if out is not None}
        return raw, graph, degraded

    def _start_ranker_vector(
        self, request: RetrievalRequest, refined: RefinedQuery | None
    ) -> asyncio.Task[RankerQuery | None] | None:
        """The learned ranker's query embedding, started now so that it overlaps the first
        stage instead of following the rerank; None when the ranker will not run."""
        if self._ranker is None or self._ranker.combiner is None:
            return None
        if scoring_ranker(self._ranker, request, refined)[0] is None:
            return None
        task = asyncio.create_task(
            ranker_query_vector(self._ranker, self._graph, self._embedder, request, refined)
        )
        # Awaited by the rank stage; if the request fails first, its error is not lost noise.
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        return task

    def _start_query_vector(
        self, request: RetrievalRequest, refined: RefinedQuery | None, timings: dict[str, float]
    ) -> asyncio.Task[npt.NDArray[np.float32]] | None:
        """One query embedding serves the dense search, the local context and the linker."""
        if "vector" not in request.sources and not request.local_context and not self._linker:
            return None
        text = refined.optimized_query if refined else request.query
        return asyncio.create_task(self._embed_query(text, timings))

    async def _link(
        self,
        request: RetrievalRequest,
        query_vector: asyncio.Task[npt.NDArray[np.float32]] | None,
    ) -> list[LinkedConcept]:
        """The concepts the request is about, per taxonomy: the caller's first, and the
        linker's best `LINKED_PER_TAXONOMY` in each taxonomy the caller named none of."""
        caller = (
            await self._guard("graph", self._graph.get_concepts(request.concept_ids))
            if request.concept_ids
            else None
        )
        out = [
            LinkedConcept(
                id=c.id,
                taxonomy=t,
                name=c.name,
                description=c.description,
                evidence={"caller": True},
            )
            for c in caller or []
            if (t := taxonomy_of(c)) is not None
        ]
        if self._linker is not None and query_vector is not None:
            named = {c.taxonomy for c in out}
            text = " ".join(p for p in (request.query, request.problem) if p)
            found = await asyncio.to_thread(
                self._linker.link, text, LINKED_PER_TAXONOMY, await query_vector
            )
            out += [
                LinkedConcept(
                    id=c.concept_id,
                    taxonomy=c.taxonomy,
                    name=c.name,
                    description=c.description,
                    score=c.score,
                    evidence=c.evidence,
                )
                for taxonomy, concepts in found.items()
                if taxonomy not in named
                for c in concepts
            ]
        # A graph that is down leaves the concepts without their chains.
        return await self._guard("graph", with_chains(self._graph, out)) or out

    async def _embed_query(self, query: str, timings: dict[str, float]) -> npt.NDArray[np.float32]:
        t = time.perf_counter()
        vec = await embed_async(self._embedder, [query])
        timings["embed"] = _ms(t)
        first: npt.NDArray[np.float32] = vec[0]
        return first

    async def _vector_search(
        self,
        query_vector: asyncio.Task[npt.NDArray[np.float32]],
        depth: int,
        timings: dict[str, float],
    ) -> list[ScoredItem]:
        vec = await query_vector
        t = time.perf_counter()
        out = await self._vector.search(vec, depth)
        timings["vector"] = _ms(t)
        return out

    async def _local_search(
        self,
        items: list[IndexItem],
        query: str,
        query_vector: asyncio.Task[npt.NDArray[np.float32]],
        semantic_weight: float,
    ) -> list[ScoredItem]:
        return await search_local(items, query, await query_vector, self._embedder, semantic_weight)

    async def _guard(self, name: SourceName, aw: Awaitable[T]) -> T | None:
        return await guarded(name, aw, self._config.source_timeout_s)

    @staticmethod
    async def _timed(stage: str, timings: dict[str, float], aw: Awaitable[T]) -> T:
        t = time.perf_counter()
        out = await aw
        timings[stage] = _ms(t)
        return out

    @staticmethod
    def _debug(
        request: RetrievalRequest,
        route: Route,
        results: dict[SourceName, list[Candidate]],
        fused: list[FusedHit],
        scope: set[str],
    ) -> dict[str, Any]:
        tops = {
            name: {c.item.id for c in cands[:_AGREEMENT_TOP]} for name, cands in results.items()
        }
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
            "graph_plan": _graph_plan(request, route).__dict__,
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
            "graph_scoped": bool(scope),
            "graph_scope": sorted(scope),
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
        }
