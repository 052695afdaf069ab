"""`/healthz` (the process is up), `/readyz` (each dependency answers a probe) and `/metrics`
(Prometheus). None of them needs an API key.

`/readyz` probes the live index's three sources with a tiny real query each (the vector
store's count, a BM25 search, a concept search), each under the source timeout and, for a
store that is a server (Neo4j, a Chroma server), through its circuit breaker: a source whose
breaker is open is `failed` without a probe (its `breaker` says `open` and the seconds until
the next probe), and a probe counts as any call does (it may be the half-open probe). The
OpenAI refiner and the answer model (`answerer`) show their breakers too (an open one is
`failed`; neither makes the server unready). It is 200
with `ready` or `degraded` while at least one source answers, else 503 `unavailable`, so a
load balancer keeps a degraded server (its packets say what they lack) in rotation. Each
dependency has a `state`: `ok`, `off` (an optional part this server is not configured with:
the reranker, the learned ranker, the refiner) or `failed` (configured, but not answering or
not loaded); an optional part that is off or failed never makes the server unready. A
generation that failed its integrity check at open is 503 `damaged` with the `problems`
(damage does not heal by waiting: someone must run `tutorgraph doctor --repair`); so is a
server that serves no generation because the pointer names none (its problem is the
pointer's). The index is named by its generation, never by its path: every message is
scrubbed of paths (`scrub_paths`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from typing import Any, Literal

from fastapi import APIRouter
from fastapi.responses import JSONResponse, PlainTextResponse

from tutorgraph.api.deps import AppState, StateDep
from tutorgraph.api.live_index import Generation, scrub_paths
from tutorgraph.api.metrics import CONTENT_TYPE
from tutorgraph.api.openapi import HEALTH_EXAMPLE, METRICS_EXAMPLE, READINESS_EXAMPLE
from tutorgraph.errors import failure_reason
from tutorgraph.stores.breaker import CircuitBreaker
from tutorgraph.stores.guard import attempt
from tutorgraph.synthesis.answerer import Answerer
from tutorgraph_client.models.api import BreakerState, DependencyState, Health, Readiness
from tutorgraph_client.models.request import STORE_SOURCES

__all__ = ["router"]

router = APIRouter(tags=["health"])

_PROBE_TEXT = "fraction"


def _breaker(breaker: CircuitBreaker | None) -> BreakerState | None:
    if breaker is None:
        return None
    snap = breaker.snapshot()
    return BreakerState(
        state=snap.state,
        failures=snap.failures,
        retry_in_s=snap.retry_in_s,
        last_failure=snap.last_failure,
    )


async def _probe(
    source: str, call: Awaitable[Any], timeout_s: float, breaker: CircuitBreaker | None
) -> DependencyState:
    started = time.perf_counter()
    tried = await attempt(source, call, timeout_s, breaker=breaker)
    if tried.reason is None:
        ms = round((time.perf_counter() - started) * 1e3, 3)
        return DependencyState(state="ok", latency_ms=ms, breaker=_breaker(breaker))
    # The reason names the exception's type only: messages can carry hosts and credentials.
    # A breaker that refused says so ("graph failed: circuit breaker open ..."): no probe
    # was sent.
    return DependencyState(state="failed", detail=tried.reason, breaker=_breaker(breaker))


def _with_breaker(
    name: str, found: DependencyState, breaker: CircuitBreaker | None
) -> DependencyState:
    """An optional remote part (the OpenAI refiner, the answer model: `name`) with its
    breaker: an open one makes it `failed` (calls skip it: the local refiner answers, or no
    answer)."""
    if breaker is None or found.state != "ok":
        return found
    state = _breaker(breaker)
    if state is None or state.state == "closed":
        return found.model_copy(update={"breaker": state})
    detail = failure_reason(name, breaker.refusal())
    return DependencyState(state="failed", detail=detail, breaker=state)


def _answerer(answerer: Answerer | None, unavailable: str) -> DependencyState:
    if answerer is None:
        return DependencyState(state="off", detail=unavailable)
    found = DependencyState(state="ok", detail=answerer.model)
    return _with_breaker("answerer", found, answerer.breaker)


def _optional(name: str | None, configured: bool, without: str, setting: str) -> DependencyState:
    """A part retrieval works without: `ok` when loaded (`name`), `off` when this server is
    not configured with one, `failed` when it is but none was loaded (the log says why)."""
    if name is not None:
        return DependencyState(state="ok", detail=name)
    if not configured:
        return DependencyState(state="off", detail=f"not configured ({setting} is empty)")
    return DependencyState(
        state="failed", detail=f"configured but not loaded (the server log says why): {without}"
    )


async def _dependencies(generation: Generation, state: AppState) -> dict[str, DependencyState]:
    settings = state.settings
    index, retriever = generation.index, generation.retriever
    timeout_s = settings.source_timeout_s
    breakers = retriever.breakers
    vector, lexical, graph = await asyncio.gather(
        _probe("vector", index.vector.count(), timeout_s, breakers.vector),
        _probe("lexical", index.lexical.search(_PROBE_TEXT, 1), timeout_s, breakers.lexical),
        _probe("graph", index.graph.search_concepts(_PROBE_TEXT, 1), timeout_s, breakers.graph),
    )
    reranker = retriever.reranker
    ranker = retriever.ranker
    refiner = retriever.refiner
    counts = ", ".join(f"{n} {k}" for k, n in sorted(index.manifest.counts.items()))
    return {
        "index": DependencyState(
            state="failed" if index.problems else "ok",
            detail=f"generation {generation.name} ({counts})",
        ),
        "embedder": DependencyState(state="ok", detail=index.manifest.embedder),
        "vector": vector,
        "lexical": lexical,
        "graph": graph,
        # Not needed to answer: without them packets say so (reranker.reason, ranker.reason,
        # refined_query), so neither `off` nor `failed` makes the server unready.
        "reranker": _optional(
            reranker.name if reranker is not None else None,
            bool(settings.reranker_model.strip()),
            "packets are not reranked",
            "TUTORGRAPH_RERANKER_MODEL",
        ),
        "ranker": _optional(
            str(ranker.info.get("name", "learned-ranker")) if ranker is not None else None,
            bool(settings.ranker_model.strip()),
            "packets keep the fused order",
            "TUTORGRAPH_RANKER_MODEL",
        ),
        # The server always builds one (local, or OpenAI with a key); none is a setup's choice.
        "refiner": _with_breaker(
            "refiner",
            DependencyState(state="ok", detail=refiner.name),
            breakers.refiner if refiner.name == "openai" else None,
        )
        if refiner is not None
        else DependencyState(state="off", detail="none: messages are searched as they are"),
        # `POST /v1/answer`'s model (off without an OpenAI key or base URL).
        "answerer": _answerer(state.answerer, state.answerer_unavailable),
    }


@router.get(
    "/healthz",
    response_model=Health,
    responses={200: {"content": {"application/json": {"example": HEALTH_EXAMPLE}}}},
    summary="Liveness: the process answers",
)
async def healthz() -> Health:
    return Health()


@router.get(
    "/readyz",
    response_model=Readiness,
    responses={
        200: {
            "description": "Ready, or degraded (some sources down; packets say which)",
            "content": {"application/json": {"example": READINESS_EXAMPLE}},
        },
        503: {"model": Readiness, "description": "No source can answer, or the index is damaged"},
    },
    summary="Readiness: the state of each dependency",
)
async def readyz(state: StateDep) -> JSONResponse:
    generation = state.live.current
    if generation is None:
        startup = state.live.startup_problem
        body = Readiness(
            status="damaged" if startup else "unavailable",
            generation=None,
            stale=state.live.stale,
            problems=[startup] if startup else [],
            dependencies={},
        )
        return JSONResponse(body.model_dump(mode="json"), status_code=503)
    async with state.live.use() as generation:
        deps = await _dependencies(generation, state)
        problems = [
            scrub_paths(str(p), state.settings.index_dir) for p in generation.index.problems
        ]
    up = [name for name in STORE_SOURCES if deps[name].state == "ok"]
    status: Literal["ready", "degraded", "damaged", "unavailable"] = (
        "damaged"
        if problems
        else "ready"
        if len(up) == len(STORE_SOURCES)
        else "degraded"
        if up
        else "unavailable"
    )
    body = Readiness(
        status=status,
        generation=generation.name,
        stale=state.live.stale,
        problems=problems,
        dependencies=deps,
    )
    code = 200 if status in ("ready", "degraded") else 503
    return JSONResponse(body.model_dump(mode="json"), status_code=code)


@router.get(
    "/metrics",
    response_class=PlainTextResponse,
    summary="Prometheus metrics (text format 0.0.4)",
    responses={200: {"content": {CONTENT_TYPE.split(";")[0]: {"example": METRICS_EXAMPLE}}}},
)
async def metrics(state: StateDep) -> PlainTextResponse:
    # With several workers, rendering reads every worker's sample files.
    text = await asyncio.to_thread(state.metrics.render)
    return PlainTextResponse(text, media_type=CONTENT_TYPE)
