"""The search stage: the requested sources (dense, lexical, graph and the request's own local
context) run concurrently, each under its timeout; a source that fails or times out is named
in `degraded_sources`, and only when none answers does the request fail.

A refined query feeds the dense and lexical searches its `optimized_query`; the student's
answer joins the text misconceptions are matched on. The graph is seeded by one source of
concepts (issue 47): the caller's `concept_ids`, then the link stage's concepts
(`linked_seeds`), which the graph job awaits beside the dense evidence; a refiner's
`key_concepts` seed nothing. The stage ends when the link stage's task has (or is cancelled).

>>> await SearchStage(embedder, vector, lexical, graph, graph_depth=50,
...     timeout_s=2.0).run(state)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import KW_ONLY, dataclass
from typing import Any, TypeVar

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.errors import SourceUnavailableError, failure_reason
from tutorgraph.retrieval.graph_search import (
    GraphSearchResult,
    graph_plan,
    graph_search,
    linked_seeds,
)
from tutorgraph.retrieval.local_context import LOCAL_EMBED_SHARE, local_items, search_local
from tutorgraph.retrieval.pipeline import Stage, elapsed_ms
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.retrieval.state import RequestState, await_linking
from tutorgraph.stores.breaker import Breakers, CircuitBreaker
from tutorgraph.stores.guard import Attempt, attempt
from tutorgraph.stores.protocols import GraphStore, IndexItem, LexicalIndex, ScoredItem, VectorStore
from tutorgraph_client.models.request import SourceName

__all__ = ["SearchStage"]

T = TypeVar("T")


async def _timed(stage: str, timings: dict[str, float], call: Callable[[], Awaitable[T]]) -> T:
    # The call is made here, not by the caller: a breaker that skips the source closes this
    # coroutine unstarted, and no inner coroutine is left never awaited.
    started = time.perf_counter()
    out = await call()
    timings[stage] = elapsed_ms(started)
    return out


@dataclass(frozen=True)
class SearchStage(Stage):
    """Sets `state.raw` (dense, lexical, local), `state.graph` and `state.degraded`."""

    name = "search"
    reads = frozenset({"facts", "linking", "query_vector", "route"})
    writes = frozenset({"degraded", "graph", "graph_plan", "raw"})

    embedder: Embedder
    vector: VectorStore
    lexical: LexicalIndex
    graph: GraphStore
    _: KW_ONLY
    graph_depth: int
    timeout_s: float
    # The sources' circuit breakers (the retriever's; None: none): a source whose breaker is
    # open is skipped at once, and named in `degraded_sources` with the breaker's reason.
    breakers: Breakers | None = None

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> SearchStage:
        return cls(
            deps.embedder,
            deps.vector,
            deps.lexical,
            deps.graph,
            graph_depth=config.graph_depth,
            timeout_s=config.source_timeout_s,
            breakers=deps.breakers,
        )

    async def run(self, state: RequestState) -> bool:
        request, route, timings = state.request, state.route, state.timings
        text, answer = state.facts.search_text, state.facts.student_answer
        graph_text = f"{text} {answer}" if answer and answer not in text else text
        plan = state.graph_plan = graph_plan(request, route)
        profile = route.profile
        local = local_items(request.local_context)
        embedded = state.query_vector is not None
        vector_task: asyncio.Task[list[ScoredItem]] | None = None
        if "vector" in request.sources and embedded:
            vector_task = asyncio.create_task(
                self._vector_search(state, profile.vector_depth, timings)
            )

        async def evidence() -> list[IndexItem]:
            # The graph is seeded by the documents the dense search found (GraphRAG linking).
            # It waits for them, whatever the machine's load: the vector source's own timeout
            # bounds the wait, and a vector source that failed is named in the packet.
            if vector_task is None:
                return []
            await asyncio.wait({vector_task})
            if vector_task.cancelled() or vector_task.exception():
                return []
            return [h.item for h in vector_task.result()]

        async def seeds() -> dict[str, float] | None:
            # No linker, or linking failed: the graph matches names itself. The link stage's
            # task is awaited as the search stage awaits it (`_link_done`), so the packet's
            # concepts and the graph's seeds never disagree.
            linking = await await_linking(state, self.timeout_s)
            if linking is None or not linking.linker_ran:
                return None
            return linked_seeds(linking.concepts)

        async def run_graph(breaker: CircuitBreaker | None) -> Attempt[GraphSearchResult]:
            items, linked = await asyncio.gather(evidence(), seeds())
            # Only the graph's own call is under the graph's timeout and breaker: waiting for
            # its seeds is bounded by their sources' timeouts.
            return await attempt(
                "graph",
                _timed(
                    "graph",
                    timings,
                    lambda: graph_search(
                        self.graph,
                        graph_text,
                        request.concept_ids,
                        plan=plan,
                        limit=self.graph_depth,
                        evidence=items,
                        linked=linked,
                    ),
                ),
                self.timeout_s,
                breaker=breaker,
            )

        jobs: dict[SourceName, Awaitable[Any]] = {}
        if vector_task is not None:
            jobs["vector"] = vector_task
        if "lexical" in request.sources:
            jobs["lexical"] = _timed(
                "lexical", timings, lambda: self.lexical.search(text, profile.lexical_depth)
            )
        if local and embedded:
            # The local documents' embedding ends within a share of the timeout from now.
            deadline = asyncio.get_running_loop().time() + LOCAL_EMBED_SHARE * self.timeout_s
            jobs["local"] = _timed(
                "local",
                timings,
                lambda: self._local_search(local, text, state, route.semantic_weight, deadline),
            )
        breakers = self.breakers

        def breaker(name: SourceName) -> CircuitBreaker | None:
            return breakers.source(name) if breakers is not None else None

        runs = {
            name: attempt(name, job, self.timeout_s, breaker=breaker(name))
            for name, job in jobs.items()
        }
        if "graph" in request.sources:
            runs["graph"] = run_graph(breaker("graph"))
        names = list(runs)
        tries = await asyncio.gather(*runs.values())
        degraded = {
            n: t.reason or failure_reason(n, "no result")
            for n, t in zip(names, tries, strict=True)
            if t.value is None
        }
        if len(degraded) == len(names):
            raise SourceUnavailableError(
                f"no retrieval source answered: {'; '.join(degraded.values())}",
                details={"degraded_sources": list(degraded)},
            )
        answered = {n: t.value for n, t in zip(names, tries, strict=True)}
        state.graph = answered.pop("graph", None)
        state.raw = {name: out for name, out in answered.items() if out is not None}
        state.degraded = degraded
        await self._link_done(state)
        return True

    async def _link_done(self, state: RequestState) -> None:
        """Wait for the link stage's task (it has run beside the sources, and sets
        `state.linked`); past the timeout it is cancelled, degraded, and the packet has no
        concepts."""
        if state.linking is not None and await await_linking(state, self.timeout_s) is None:
            state.linking.cancel()
            state.degraded_stages.setdefault(
                "link", failure_reason("link", TimeoutError(), timeout_s=self.timeout_s)
            )

    async def _vector_search(
        self, state: RequestState, depth: int, timings: dict[str, float]
    ) -> list[ScoredItem]:
        vec = await state.query_embedding()
        started = time.perf_counter()
        out = await self.vector.search(vec, depth)
        timings["vector"] = elapsed_ms(started)
        return out

    async def _local_search(
        self,
        items: list[IndexItem],
        query: str,
        state: RequestState,
        semantic_weight: float,
        deadline: float,
    ) -> list[ScoredItem]:
        """The local context's hits; documents whose embedding would have passed the
        deadline are ranked by their words alone, and the debug block says how many."""
        vector = await state.query_embedding()
        found = await search_local(
            items, query, vector, self.embedder, semantic_weight, deadline=deadline
        )
        if found.unembedded:
            budget = LOCAL_EMBED_SHARE * self.timeout_s
            state.degraded_stages["local"] = (
                f"local: {found.unembedded} of {len(items)} documents matched by their words "
                f"only (their embedding would have ended after {budget:g} s)"
            )
        return found.hits
