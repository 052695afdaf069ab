"""What a configured service runs: settings -> its stores -> the index -> a retriever.

>>> served = open_retriever(Settings())  # loads the models, opens INDEX_DIR # doctest: +SKIP
>>> packet = await served.retriever.retrieve(RetrievalRequest(query="ratio"))  # doctest: +SKIP
>>> await served.aclose()  # the retriever, then the index  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from tutorgraph.config import Settings
from tutorgraph.extras import require
from tutorgraph.index.generations import live_generation, require_live_manifest
from tutorgraph.index.local import AsyncClosing, GraphOnly, LocalIndex
from tutorgraph.index.vector_check import VectorCheck
from tutorgraph.ranking.model import LearnedRanker
from tutorgraph.retrieval.factory import Models, build_retriever, load_models
from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.stores.chroma import ChromaVectorStore

if TYPE_CHECKING:
    from tutorgraph.stores.neo4j_graph import Neo4jGraphStore

__all__ = [
    "OpenRetriever",
    "SharedModels",
    "graph_store",
    "open_graph",
    "open_index",
    "open_retriever",
    "start_vector_check",
    "vector_store",
]


def graph_store(settings: Settings) -> Neo4jGraphStore | None:
    """The Neo4j store when `NEO4J_URI` is set (no I/O yet), else None (the embedded graph)."""
    if not settings.neo4j_uri:
        return None
    require("neo4j", "neo4j", "TUTORGRAPH_NEO4J_URI (the Neo4j graph store)")
    from tutorgraph.stores.neo4j_driver import neo4j_driver
    from tutorgraph.stores.neo4j_graph import Neo4jGraphStore

    password = settings.neo4j_password.get_secret_value() if settings.neo4j_password else None
    sql = None
    if settings.arcadedb_http_url:
        from tutorgraph.stores.arcadedb_sql import ArcadeDBSql

        sql = ArcadeDBSql.connect(
            settings.arcadedb_http_url, settings.neo4j_database, settings.neo4j_user, password
        )
    return Neo4jGraphStore(
        neo4j_driver(settings.neo4j_uri, settings.neo4j_user, password),
        database=settings.neo4j_database,
        timeout_s=settings.source_timeout_s,
        sql=sql,
    )


def open_graph(settings: Settings) -> GraphOnly:
    """The curriculum graph alone, for a lookup that needs no vectors, BM25 or model: Neo4j
    when `NEO4J_URI` is set (no I/O yet), else the index's catalogue (blocking: reads it)."""
    neo4j = graph_store(settings)
    if neo4j is not None:
        return GraphOnly(neo4j)
    return GraphOnly.load(settings.index_dir)


def vector_store(settings: Settings) -> ChromaVectorStore | None:
    """A Chroma server's store when `CHROMA_HOST` is set (it connects on first use), else
    None (the index's embedded Chroma)."""
    if not settings.chroma_host:
        return None
    return ChromaVectorStore.server(settings.chroma_host, settings.chroma_port)


def open_index(
    settings: Settings, *, isolate: bool = True, check: VectorCheck | None = None
) -> LocalIndex:
    """The index under `INDEX_DIR` with the configured backends (blocking: loads BM25).

    With `isolate` (the default) the embedded vector store is opened in a child process
    first (`index/vector_check.py`; `check` is that child, when it was started earlier), so
    that a damaged HNSW file marks the vector source damaged instead of killing this
    process."""
    return LocalIndex.load(
        settings.index_dir,
        embedder=settings.embedding_model,
        vector=vector_store(settings),
        graph=graph_store(settings),
        isolate=isolate,
        check=check,
    )


@dataclass(frozen=True)
class OpenRetriever(AsyncClosing):
    """A retriever and the index it searches; `aclose()` (or `async with`) closes both."""

    retriever: HybridRetriever
    index: LocalIndex

    async def aclose(self) -> None:
        await self.retriever.aclose()
        await self.index.aclose()


def start_vector_check(settings: Settings) -> VectorCheck | None:
    """The child process that opens the live generation's embedded vector store (None with a
    Chroma server, or no index): started now, waited for by `open_index`."""
    if settings.chroma_host:
        return None
    generation = live_generation(settings.index_dir)
    return VectorCheck.start(generation) if generation is not None else None


def open_retriever(
    settings: Settings,
    models: Models | None = None,
    *,
    isolate: bool = True,
    check: VectorCheck | None = None,
    status: Callable[[str], None] | None = None,
    defer_ranker: bool = False,
) -> OpenRetriever:
    """Open the index of `settings` and build a retriever over it, loading the models unless
    `models` are given (blocking: call at start-up).

    The models load in a thread while the index opens (much of a model's load is native code
    that runs beside the parsing of BM25's items and the catalogue; `research/scripts/cold_start.py`
    measures the overlap). With
    `isolate` (the default) a child process opens the embedded vector store first, started
    before either (see `open_index`; `check`: a child the caller started even earlier), so
    the three overlap. `status` is told what loads, for a command's status line;
    `defer_ranker` leaves the learned ranker to the first request it may score (a one-shot
    command's choice: see `load_models`)."""
    loading: Future[Models] | None = None
    try:
        # Fail fast on a missing index or another embedder's, before loading any model.
        require_live_manifest(settings.index_dir, settings.embedding_model)
        if isolate and check is None:
            check = start_vector_check(settings)
        if models is None:
            loading = _in_thread(
                partial(load_models, settings, status=status, defer_ranker=defer_ranker)
            )
        if status is not None:
            status("opening the index (BM25, the graph, the vectors)")
        index = open_index(settings, isolate=isolate, check=check)
    except BaseException:
        if loading is not None:
            loading.exception()  # no model loads on after this returns
        raise
    finally:
        if check is not None:
            check.cancel()  # taken by `open_index`, or not wanted after a failure
    try:
        models = models or _result(loading)
    except BaseException:
        _close(index)
        raise
    return OpenRetriever(
        build_retriever(index, models, RetrieverConfig.from_settings(settings)), index
    )


def _in_thread(call: Callable[[], Models]) -> Future[Models]:
    future: Future[Models] = Future()

    def run() -> None:
        try:
            future.set_result(call())
        except BaseException as exc:
            future.set_exception(exc)

    threading.Thread(target=run, name="load-models", daemon=True).start()
    return future


def _result(loading: Future[Models] | None) -> Models:
    assert loading is not None
    return loading.result()


def _close(index: LocalIndex) -> None:
    """Close an index from blocking code, whether or not this thread runs an event loop."""
    done = threading.Thread(target=asyncio.run, args=(index.aclose(),), name="close-index")
    done.start()
    done.join()


class SharedModels:
    """Loads the models once, on first use, and opens every index generation with them.

    The server opens a new generation for each HTTP ingest; sharing the models keeps that
    from loading MiniLM and the reranker again (and holding two copies while it drains).

    >>> shared = SharedModels(micro_batch=True)
    >>> served = shared.open_retriever(settings)  # doctest: +SKIP
    """

    def __init__(self, *, micro_batch: bool = False) -> None:
        self._micro_batch = micro_batch
        self._models: Models | None = None
        self._lock = threading.Lock()

    def models(self, settings: Settings) -> Models:
        """The shared models, loaded now if this is the first call (blocking)."""
        with self._lock:
            if self._models is None:
                models = load_models(settings, micro_batch=self._micro_batch)
                # A server pays every load at start-up, not on its first ranked request.
                ranker = models.ranker.value
                if isinstance(ranker, LearnedRanker) and ranker.combiner is not None:
                    ranker.combiner.warm()
                self._models = models
            return self._models

    def open_retriever(self, settings: Settings) -> OpenRetriever:
        # The vector store's child check runs while the models load (the first time).
        require_live_manifest(settings.index_dir, settings.embedding_model)
        check = start_vector_check(settings)
        try:
            models = self.models(settings)
        except BaseException:
            if check is not None:
                check.cancel()
            raise
        return open_retriever(settings, models, check=check)
