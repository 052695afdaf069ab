"""The app factory: `create_app(settings)` returns a FastAPI app; nothing is built at import.

The constructor does no I/O. The lifespan, once per process, loads the models and opens the
index (`tutorgraph.retrieval.factory.SharedModels`, in a worker thread; the embedder and
reranker are micro-batched and shared by every index generation), bounds the
threads that blocking inference runs on, and on shutdown cancels a running ingest job and
closes every store and client.

The app serves the live generation of `settings.index_dir` and follows the index's pointer
to a newer one, whoever wrote it (see `tutorgraph.api.live_index`).

>>> app = create_app(Settings(index_dir=Path(".tutorgraph")))  # doctest: +SKIP
>>> uvicorn.run(app, host="127.0.0.1", port=8000)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

from tutorgraph import __version__
from tutorgraph.api.auth import API_KEY_HEADER, ApiKeys
from tutorgraph.api.deps import AppState
from tutorgraph.api.errors import install_error_handlers
from tutorgraph.api.hosts import AllowedHosts, AllowedHostsMiddleware
from tutorgraph.api.ingest_jobs import IngestJobs
from tutorgraph.api.live_index import LiveIndex, RetrieverOpener
from tutorgraph.api.metrics import ApiMetrics
from tutorgraph.api.middleware import (
    SAFE_METHODS,
    AuthFailureLimitMiddleware,
    BodyLimitMiddleware,
    CrossSiteWriteMiddleware,
    MetricsMiddleware,
)
from tutorgraph.api.openapi import install_openapi
from tutorgraph.api.rate_limit import MEMORY, RateLimiter
from tutorgraph.api.routes import answer, concepts, health, ingest, retrieve
from tutorgraph.api.routes.docs import UI_PATH, install_docs, install_ui
from tutorgraph.api.security_headers import SecurityHeadersMiddleware
from tutorgraph.config import Settings
from tutorgraph.index.leftovers import tidy_if_idle
from tutorgraph.index.service import SharedModels
from tutorgraph.synthesis.answerer import answer_unavailable, build_answerer

__all__ = ["app_from_environment", "create_app"]

log = logging.getLogger(__name__)

_INGEST_PATH = "/v1/ingest"
# The POST routes that only read (a question in, a packet out): a page of another site may
# send them, as CORS allows. Every other non-GET route is a write (`_is_write`).
READ_ONLY_POSTS = frozenset({"/v1/retrieve", "/v1/answer"})


def _is_write(method: str, path: str) -> bool:
    return method not in SAFE_METHODS and path not in READ_ONLY_POSTS


def _checks_key(path: str) -> bool:
    """Whether a route under `path` checks the API key (health, metrics and docs do not)."""
    return path.startswith("/v1/")


def _state(app: FastAPI) -> AppState:
    state = app.state.tutorgraph
    assert isinstance(state, AppState)
    return state


@contextlib.asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    state = _state(app)
    loop = asyncio.get_running_loop()
    # `asyncio.to_thread` (embedding, reranking, Chroma, BM25) runs on the loop's default
    # executor: bounding it bounds concurrent inference, whatever the request rate.
    pool = ThreadPoolExecutor(
        max_workers=state.settings.inference_threads, thread_name_prefix="tutorgraph-inference"
    )
    # asyncio has no getter: restored on shutdown, so that a loop which outlives the app (an
    # embedding program, a test session) keeps a working default executor.
    previous = getattr(loop, "_default_executor", None)
    loop.set_default_executor(pool)
    try:
        if not state.keys.enabled:
            log.warning(
                "TUTORGRAPH_API_KEYS is empty: authentication is OFF, and every caller may "
                "read and ingest. Make keys with `tutorgraph keys hash`."
            )
        # A writer that died (an ingest job cut off by kill -9) left its upload and its
        # half-built generation: removed now, unless a writer is at work.
        await asyncio.to_thread(
            tidy_if_idle, state.settings.index_dir, "tutorgraph serve (start-up tidy)"
        )
        await state.live.open()
        current = state.live.current
        log.info("serving index generation %s", current.name if current else "?")
        yield
    finally:
        await state.jobs.aclose()
        await state.live.aclose()
        if state.answerer is not None:
            await state.answerer.aclose()
        state.metrics.worker_exited()
        loop.set_default_executor(
            previous if isinstance(previous, ThreadPoolExecutor) else ThreadPoolExecutor()
        )
        pool.shutdown(wait=False, cancel_futures=True)


def create_app(settings: Settings, *, opener: RetrieverOpener | None = None) -> FastAPI:
    """The tutorgraph HTTP API over the index of `settings`.

    `opener` builds a (retriever, index) pair from settings (by default over models loaded
    once and micro-batched: `SharedModels(micro_batch=True).open_retriever`); the app calls
    it at start-up and for every generation an ingest job builds. Raises
    `ConfigurationError` for malformed `TUTORGRAPH_API_KEYS`.

    >>> app = create_app(Settings(index_dir=Path("/srv/index"), api_keys=entry))  # doctest: +SKIP
    """
    keys = ApiKeys.parse(settings.api_keys)
    metrics = ApiMetrics()
    live = LiveIndex(settings, opener or SharedModels(micro_batch=True).open_retriever)
    unavailable = answer_unavailable(settings)
    state = AppState(
        settings=settings,
        keys=keys,
        limiter=RateLimiter(
            settings.rate_limit_per_minute, storage=settings.rate_limit_storage or MEMORY
        ),
        metrics=metrics,
        live=live,
        jobs=IngestJobs(settings, live, metrics),
        answerer=build_answerer(settings) if unavailable is None else None,
        answerer_unavailable=unavailable or "",
    )
    app = FastAPI(
        title="tutorgraph",
        summary="GraphRAG retrieval for math tutoring: a question in, a ReasoningPacket out.",
        version=__version__,
        lifespan=_lifespan,
        docs_url=None,  # both served from packaged assets (install_docs), not a CDN
        redoc_url=None,
    )
    app.state.tutorgraph = state
    install_error_handlers(app)
    app.include_router(health.router)
    app.include_router(retrieve.router)
    app.include_router(answer.router)
    app.include_router(concepts.router)
    app.include_router(ingest.router)
    install_docs(app)
    install_ui(app)
    install_openapi(app)

    def limit_for(path: str) -> int:
        if path == _INGEST_PATH:
            return settings.max_ingest_bytes
        return settings.max_body_bytes

    # An origin has no path: "https://tutor.example/" is "https://tutor.example".
    origins = [o.strip().rstrip("/") for o in settings.cors_origins.split(",") if o.strip()]
    # Added innermost first: the security headers wrap CORS (when configured), which wraps
    # metrics, which wraps the refusal of unknown hosts, the limit on failed key checks, the
    # refusal of cross-site writes and the body limit.
    app.add_middleware(BodyLimitMiddleware, limit_for=limit_for)
    app.add_middleware(CrossSiteWriteMiddleware, allowed_origins=origins, is_write=_is_write)
    # Off with the rate limit (RATE_LIMIT_PER_MINUTE=0 turns every limit off) or no keys.
    failures = settings.auth_failures_per_minute if settings.rate_limit_per_minute else 0
    app.add_middleware(
        AuthFailureLimitMiddleware,
        limiter=RateLimiter(
            failures if keys.enabled else 0, storage=settings.rate_limit_storage or MEMORY
        ),
        checks_key=_checks_key,
    )
    # A `Host` the server does not answer to (DNS rebinding) is refused before the rest.
    app.add_middleware(AllowedHostsMiddleware, hosts=AllowedHosts.parse(settings.allowed_hosts))
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    if origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=origins,
            allow_methods=["GET", "POST"],
            allow_headers=[API_KEY_HEADER, "Content-Type"],
            expose_headers=["Retry-After", "Location"],
        )
    # Outermost: every answer (a CORS preflight's, a refusal's) carries them.
    app.add_middleware(SecurityHeadersMiddleware, csp_paths=frozenset({UI_PATH}))
    return app


def app_from_environment() -> FastAPI:
    """`create_app(Settings())`: the factory uvicorn imports in each worker process
    (`tutorgraph serve --workers N`)."""
    return create_app(Settings())
