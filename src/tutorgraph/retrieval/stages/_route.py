"""The route stage: the routing decision (profile, semantic weight, graph scoping, rerank),
and the query embeddings the later stages await, started here so that they overlap the
search: the index embedder's (the dense search, the local context and the linker), the
learned ranker's query, and the message as typed when the refiner rewrote it and a scope
model reads it (after the query's).

>>> await RouteStage(embedder, graph, ranker=None, links=False, scopes=False,
...     default_profile="auto", default_semantic_weight=None).run(state)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import KW_ONLY, dataclass

import numpy as np
import numpy.typing as npt

from tutorgraph.config import SOURCE_TIMEOUT_S
from tutorgraph.embedding.batching import embed_async
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.ranking.model import LearnedRanker, RankerQuery
from tutorgraph.retrieval.pipeline import Stage, elapsed_ms
from tutorgraph.retrieval.ranker_runtime import DeferredRanker, ranker_query_vector, scoring_of
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.router import resolve_route
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.retrieval.state import RequestState
from tutorgraph.stores.breaker import CircuitBreaker
from tutorgraph.stores.protocols import GraphStore

__all__ = ["RouteStage"]


@dataclass(frozen=True)
class RouteStage(Stage):
    """Sets `state.route` and starts `state.query_vector` and `state.ranker_vector`; works
    out which model scores the request (`state.scoring`) for a loaded ranker now, for a
    deferred one in the task that loads it."""

    name = "route"
    reads = frozenset({"facts"})
    writes = frozenset({"message_vector", "query_vector", "ranker_vector", "route", "scoring"})

    embedder: Embedder
    graph: GraphStore
    _: KW_ONLY
    ranker: LearnedRanker | DeferredRanker | None
    # Whether a linker will read the query embedding (then it is started for every request).
    links: bool
    # Whether a scope model will read the message as typed (`message_vector`).
    scopes: bool
    default_profile: str
    default_semantic_weight: float | None
    # The ranker's concept names come from the graph: under its timeout and breaker.
    timeout_s: float = SOURCE_TIMEOUT_S
    breaker: CircuitBreaker | None = None

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> RouteStage:
        return cls(
            deps.embedder,
            deps.graph,
            ranker=deps.ranker.value,
            links=deps.linker is not None,
            scopes=deps.scope.value is not None,
            default_profile=config.default_retrieval_profile,
            default_semantic_weight=config.default_semantic_weight,
            timeout_s=config.source_timeout_s,
            breaker=deps.breakers.graph,
        )

    async def run(self, state: RequestState) -> bool:
        request, facts = state.request, state.facts
        state.route = resolve_route(
            query=request.query,
            retrieval_profile=request.retrieval_profile,
            semantic_weight=request.semantic_weight,
            graph_scope=request.graph_scope,
            rerank=request.rerank,
            default_profile=self.default_profile,
            default_semantic_weight=self.default_semantic_weight,
            student_answer=facts.student_answer is not None,
        )
        state.ranker_vector = self._start_ranker_vector(state)
        # One query embedding serves the dense search, the local context and the linker.
        if "vector" in request.sources or request.local_context or self.links:
            state.query_vector = asyncio.create_task(self._embed(facts.search_text, state.timings))
            if self.scopes and facts.rewritten:
                # Off the packet's last steps: the scope stage read it there (6% of Eedi
                # questions with their construct, 14% without).
                state.message_vector = asyncio.create_task(
                    self._embed_after(facts.scope_text, state.query_vector)
                )
                state.message_vector.add_done_callback(lambda t: t.cancelled() or t.exception())
        return True

    def _start_ranker_vector(self, state: RequestState) -> asyncio.Task[RankerQuery | None] | None:
        """None when no ranker will score the request."""
        ranker = self.ranker
        if isinstance(ranker, DeferredRanker):
            if ranker.unscored(state.request, state.facts) is not None:
                return None
            # It loads (once) in a worker thread while the first stage runs.
            task = asyncio.create_task(self._deferred_vector(ranker, state))
            task.add_done_callback(lambda t: t.cancelled() or t.exception())
            return task
        if ranker is None or ranker.combiner is None:
            return None
        scoring = scoring_of(state, ranker)
        if scoring.model is None:
            return None
        task = asyncio.create_task(
            ranker_query_vector(
                scoring,
                self.graph,
                self.embedder,
                state.request,
                state.facts,
                timeout_s=self.timeout_s,
                breaker=self.breaker,
            )
        )
        # Awaited by the rank stage; if the request fails first, its error is not lost noise.
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        return task

    async def _deferred_vector(
        self, deferred: DeferredRanker, state: RequestState
    ) -> RankerQuery | None:
        ranker, _ = await deferred.get()
        if ranker is None or ranker.combiner is None:
            return None
        return await ranker_query_vector(
            scoring_of(state, ranker),
            self.graph,
            self.embedder,
            state.request,
            state.facts,
            timeout_s=self.timeout_s,
            breaker=self.breaker,
        )

    async def _embed_after(
        self, text: str, first: asyncio.Task[npt.NDArray[np.float32]]
    ) -> npt.NDArray[np.float32]:
        """`text`'s embedding, once `first` (the query's, which the search waits for) is done."""
        await asyncio.wait({first})
        vectors = await embed_async(self.embedder, [text])
        out: npt.NDArray[np.float32] = vectors[0]
        return out

    async def _embed(self, text: str, timings: dict[str, float]) -> npt.NDArray[np.float32]:
        started = time.perf_counter()
        vectors = await embed_async(self.embedder, [text])
        timings["embed"] = elapsed_ms(started)
        first: npt.NDArray[np.float32] = vectors[0]
        return first
