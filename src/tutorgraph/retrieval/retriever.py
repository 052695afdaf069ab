"""The hybrid retriever: vector, lexical and graph search in parallel, merged and fused.

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
from dataclasses import dataclass
from typing import Any, TypeVar

from tutorgraph.errors import SourceUnavailableError, UnknownConceptError
from tutorgraph.models.packet import STAGES, GraphContext, Hit, ReasoningPacket, RerankerInfo
from tutorgraph.models.request import RetrievalRequest, SourceName
from tutorgraph.retrieval.candidates import Candidate
from tutorgraph.retrieval.embedder import Embedder
from tutorgraph.retrieval.fusion import RRF_K, rrf_fuse
from tutorgraph.retrieval.graph_search import GraphSearchResult, graph_search
from tutorgraph.retrieval.merge import merge_candidates
from tutorgraph.stores.protocols import (
    GraphStore,
    IndexItem,
    LexicalIndex,
    ScoredItem,
    VectorStore,
)

__all__ = ["HybridRetriever", "RetrieverConfig"]

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class RetrieverConfig:
    """Candidate depths and the per-source timeout."""

    vector_depth: int = 50
    lexical_depth: int = 50
    graph_depth: int = 50
    prerequisite_depth: int = 2
    source_timeout_s: float = 2.0


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000.0, 3)


def _candidates(results: list[ScoredItem]) -> list[Candidate]:
    return [Candidate(r.item, r.score, rank) for rank, r in enumerate(results, start=1)]


class HybridRetriever:
    """Answers a `RetrievalRequest` with a `ReasoningPacket`; stores are injected."""

    def __init__(
        self,
        embedder: Embedder,
        vector: VectorStore,
        lexical: LexicalIndex,
        graph: GraphStore,
        config: RetrieverConfig | None = None,
    ) -> None:
        self._embedder = embedder
        self._vector = vector
        self._lexical = lexical
        self._graph = graph
        self._config = config or RetrieverConfig()

    async def retrieve(self, request: RetrievalRequest) -> ReasoningPacket:
        started = time.perf_counter()
        timings = dict.fromkeys(STAGES, 0.0)
        if request.concept_ids:
            unknown = await self._graph.unknown_concepts(request.concept_ids)
            if unknown:
                raise UnknownConceptError(unknown)

        results, graph_result, degraded = await self._search(request, timings)

        t = time.perf_counter()
        merged = merge_candidates(results)
        timings["merge"] = _ms(t)
        t = time.perf_counter()
        weights = {s: 1.0 for s in results}
        fused = rrf_fuse(merged, weights)
        timings["fuse"] = _ms(t)

        hits = [
            Hit(
                id=m.best.item.id,
                ids=sorted(m.ids),
                kind=m.best.item.kind,
                title=m.best.item.title,
                text=m.best.item.text,
                concept_ids=list(m.best.item.concept_ids),
                score=round(score, 9),
                rank=rank,
                found_by=m.found_by,
                source_ranks=dict(m.source_ranks),
                source_scores=dict(m.source_scores),
                fused_score=round(score, 9),
                graph_path=list(m.graph_path) if m.graph_path else None,
            )
            for rank, (m, score) in enumerate(fused[: request.n_results], start=1)
        ]
        timings["total"] = _ms(started)
        return ReasoningPacket(
            query=request.query,
            results=hits,
            graph_context=GraphContext(
                concepts=graph_result.concepts,
                prerequisites=graph_result.prerequisites,
                misconceptions=graph_result.misconceptions,
            ),
            total_results=len(fused),
            vector_count=len(results.get("vector", [])),
            lexical_count=len(results.get("lexical", [])),
            graph_count=len(results.get("graph", [])),
            timings_ms=timings,
            degraded_sources=degraded,
            reranker=RerankerInfo(applied=False, reason="no reranker configured"),
            debug=self._debug(request, results, weights) if request.debug else None,
        )

    async def _search(
        self, request: RetrievalRequest, timings: dict[str, float]
    ) -> tuple[dict[SourceName, list[Candidate]], GraphSearchResult, list[SourceName]]:
        """Run the requested sources concurrently, each under its timeout."""
        cfg = self._config
        vector_task: asyncio.Task[list[ScoredItem]] | None = None
        if "vector" in request.sources:
            vector_task = asyncio.create_task(self._vector_search(request.query, timings))

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
                    request.query,
                    request.concept_ids,
                    depth=cfg.prerequisite_depth,
                    limit=cfg.graph_depth,
                    evidence=items,
                ),
            )

        jobs: dict[SourceName, Awaitable[Any]] = {}
        if vector_task is not None:
            jobs["vector"] = vector_task
        if "lexical" in request.sources:
            jobs["lexical"] = self._timed(
                "lexical", timings, self._lexical.search(request.query, cfg.lexical_depth)
            )
        if "graph" in request.sources:
            jobs["graph"] = run_graph()
        names = list(jobs)
        outcomes = await asyncio.gather(*(self._guard(n, jobs[n]) for n in names))
        degraded = [n for n, out in zip(names, outcomes, strict=True) if out is None]
        if len(degraded) == len(names):
            raise SourceUnavailableError(
                f"no retrieval source answered ({', '.join(degraded)})",
                details={"degraded_sources": degraded},
            )
        results: dict[SourceName, list[Candidate]] = {}
        graph_result = GraphSearchResult()
        for name, out in zip(names, outcomes, strict=True):
            if out is None:
                continue
            if name == "graph":
                graph_result = out
                results[name] = out.candidates
            else:
                results[name] = _candidates(out)
        return results, graph_result, degraded

    async def _vector_search(self, query: str, timings: dict[str, float]) -> list[ScoredItem]:
        t = time.perf_counter()
        vec = await asyncio.to_thread(self._embedder.embed, [query])
        timings["embed"] = _ms(t)
        t = time.perf_counter()
        out = await self._vector.search(vec[0], self._config.vector_depth)
        timings["vector"] = _ms(t)
        return out

    @staticmethod
    async def _timed(stage: str, timings: dict[str, float], aw: Awaitable[T]) -> T:
        t = time.perf_counter()
        out = await aw
        timings[stage] = _ms(t)
        return out

    async def _guard(self, name: SourceName, aw: Awaitable[T]) -> T | None:
        """Run one source under its timeout; a failure degrades the packet, never the request."""
        try:
            return await asyncio.wait_for(aw, timeout=self._config.source_timeout_s)
        except TimeoutError:
            log.warning("source %s timed out after %.1fs", name, self._config.source_timeout_s)
        except Exception:
            log.exception("source %s failed", name)
        return None

    def _debug(
        self,
        request: RetrievalRequest,
        results: dict[SourceName, list[Candidate]],
        weights: dict[SourceName, float],
    ) -> dict[str, Any]:
        return {
            "fusion": {"method": "rrf", "k": RRF_K, "weights": weights},
            "depths": {
                "vector": self._config.vector_depth,
                "lexical": self._config.lexical_depth,
                "graph": self._config.graph_depth,
            },
            "sources": {
                name: [
                    {"id": c.item.id, "rank": c.rank, "score": c.score}
                    for c in cands[: request.n_results * 2]
                ]
                for name, cands in results.items()
            },
        }
