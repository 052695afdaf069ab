"""Wiring: settings -> embedder + stores + reranker + ranker -> a ready `HybridRetriever`.

>>> retriever, index = open_retriever(Settings())  # doctest: +SKIP
>>> packet = await retriever.retrieve(RetrievalRequest(query="what is a ratio?"))  # doctest: +SKIP
>>> await retriever.aclose(); await index.aclose()  # doctest: +SKIP
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path

from openai import AsyncOpenAI

from tutorgraph.config import BUNDLED_RANKER, BUNDLED_RERANKER, Settings
from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph.embedding.embedder import Embedder, SentenceTransformerEmbedder
from tutorgraph.embedding.onnx_embedder import OnnxEmbedder
from tutorgraph.errors import ConfigurationError
from tutorgraph.ranking.model import LearnedRanker
from tutorgraph.refinement.local import LocalRefiner
from tutorgraph.refinement.openai_refiner import OpenAIRefiner
from tutorgraph.refinement.refiner import Refiner
from tutorgraph.refinement.spelling import SpellingCorrector
from tutorgraph.retrieval.batching import MicroBatchingEmbedder, MicroBatchingReranker
from tutorgraph.retrieval.reranker import CrossEncoderReranker, Reranker, RerankerOptions
from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig
from tutorgraph.stores.chroma import ChromaVectorStore
from tutorgraph.stores.local_index import OpenIndex, chroma_http_client, open_index
from tutorgraph.stores.neo4j_graph import Neo4jGraphStore, neo4j_driver

__all__ = [
    "Models",
    "SharedModels",
    "build_refiner",
    "build_retriever",
    "bundled_ranker_path",
    "bundled_reranker_path",
    "graph_store",
    "load_models",
    "load_ranker",
    "load_reranker",
    "open_retriever",
    "open_stores",
    "vector_store",
]

log = logging.getLogger(__name__)


def bundled_reranker_path() -> Path:
    """The directory of the int8 reranker that ships inside the package."""
    return Path(__file__).resolve().parent.parent / "_weights" / "eedi-minilm-reranker"


def bundled_ranker_path() -> Path:
    """The directory of the learned ranker that ships inside the package."""
    return Path(__file__).resolve().parent.parent / "_weights" / "eedi-ranker"


def load_ranker(settings: Settings) -> tuple[LearnedRanker | None, str]:
    """Load the configured learned ranker now (blocking), or say why there is none.

    A ranker trained over another embedder's vectors is refused: its adapter, examples and
    targets would be compared with vectors of a different space.
    """
    name = settings.ranker_model.strip()
    if not name:
        return None, "learned ranker turned off (TUTORGRAPH_RANKER_MODEL is empty)"
    path = bundled_ranker_path() if name == BUNDLED_RANKER else Path(name)
    try:
        ranker = LearnedRanker.load(path)
    except ConfigurationError as exc:
        log.warning("the learned ranker is off: %s", exc.message)
        return None, f"ranker {name!r} could not be loaded: {exc.message}"
    if ranker.embedder != settings.embedding_model:
        reason = (
            f"ranker {name!r} was trained over {ranker.embedder!r}, "
            f"not the configured embedder {settings.embedding_model!r}"
        )
        log.warning("the learned ranker is off: %s", reason)
        return None, reason
    return ranker.with_info({**ranker.info, "name": name}), ""


def load_reranker(settings: Settings) -> tuple[CrossEncoderReranker | None, str]:
    """Load the configured reranker now (blocking), or say why there is none.

    A model that cannot be loaded is not fatal: it is logged once, here, and every packet
    then reports `reranker.applied = false` with the reason.
    """
    name = settings.reranker_model.strip()
    if not name:
        return None, "reranking turned off (TUTORGRAPH_RERANKER_MODEL is empty)"
    model: str | Path = bundled_reranker_path() if name == BUNDLED_RERANKER else name
    reranker = CrossEncoderReranker(
        model,
        backend=settings.reranker_backend,
        options=RerankerOptions(
            max_length=settings.reranker_max_length, batch_size=settings.reranker_batch_size
        ),
        name=name,
    )
    try:
        reranker.load()
    except ConfigurationError as exc:
        log.warning("reranking is off: %s", exc.message)
        return None, f"reranker {name!r} could not be loaded: {exc.message}"
    return reranker, ""


def build_refiner(settings: Settings, index: OpenIndex) -> Refiner:
    """The local refiner over the index, wrapped by the OpenAI one when a key or URL is set.

    Builds the spelling vocabulary from the lexical index (CPU only, well under a second).
    """
    local = LocalRefiner(index.graph, SpellingCorrector(index.lexical.document_frequencies()))
    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
    if not key and not settings.openai_base_url:
        return local
    client = AsyncOpenAI(
        # A local OpenAI-compatible server may need no key; the client insists on one.
        api_key=key or "no-key",
        base_url=settings.openai_base_url,
        timeout=settings.refiner_timeout_s,
        max_retries=0,
    )
    return OpenAIRefiner(
        client,
        local,
        model=settings.refiner_model,
        timeout_s=settings.refiner_timeout_s,
        cache_size=settings.refiner_cache_size,
    )


def graph_store(settings: Settings) -> Neo4jGraphStore | None:
    """The Neo4j store when `NEO4J_URI` is set (no I/O yet), else None (the embedded graph)."""
    if not settings.neo4j_uri:
        return None
    password = settings.neo4j_password.get_secret_value() if settings.neo4j_password else None
    return Neo4jGraphStore(
        neo4j_driver(settings.neo4j_uri, settings.neo4j_user, password),
        database=settings.neo4j_database,
        timeout_s=settings.source_timeout_s,
    )


def vector_store(settings: Settings) -> ChromaVectorStore | None:
    """A Chroma server's store when `CHROMA_HOST` is set, else None (embedded Chroma).

    It connects on first use, so a server that is down at start-up degrades requests until it
    is back rather than stopping the service.
    """
    host, port = settings.chroma_host, settings.chroma_port
    if not host:
        return None
    return ChromaVectorStore.connecting(lambda: chroma_http_client(host, port))


def open_stores(settings: Settings) -> OpenIndex:
    """The index under `INDEX_DIR` with the configured backends (blocking: loads BM25)."""
    return open_index(
        settings.index_dir,
        embedder=settings.embedding_model,
        vector=vector_store(settings),
        graph=graph_store(settings),
    )


@dataclass(frozen=True)
class Models:
    """The loaded models a retriever needs; one set can serve several indexes."""

    embedder: Embedder
    reranker: Reranker | None
    reranker_unavailable: str = ""
    ranker: LearnedRanker | None = None
    ranker_unavailable: str = ""


def load_models(settings: Settings, *, micro_batch: bool = False) -> Models:
    """Load the embedder, the reranker and the learned ranker (blocking: call at start-up).

    `micro_batch` (the server's choice) puts a `MicroBatcher` in front of each, so concurrent
    requests share model calls (a lone caller would only wait for nobody).
    """
    model: SentenceTransformerEmbedder | OnnxEmbedder
    if settings.embedder_backend == "onnx":
        model = OnnxEmbedder(settings.embedding_model, batch_size=settings.embed_batch_size)
    else:
        model = SentenceTransformerEmbedder(
            settings.embedding_model, batch_size=settings.embed_batch_size
        )
    model.load()
    reranker, why_not = load_reranker(settings)
    ranker, ranker_why_not = load_ranker(settings)
    if not micro_batch:
        return Models(model, reranker, why_not, ranker, ranker_why_not)
    return Models(
        MicroBatchingEmbedder(model),
        MicroBatchingReranker(reranker) if reranker is not None else None,
        why_not,
        ranker,
        ranker_why_not,
    )


def build_retriever(settings: Settings, index: OpenIndex, models: Models) -> HybridRetriever:
    """The retriever over an opened index with loaded models; builds the refiner."""
    return HybridRetriever(
        models.embedder,
        index.vector,
        index.lexical,
        index.graph,
        RetrieverConfig(
            default_retrieval_profile=index.manifest.default_retrieval_profile,
            default_semantic_weight=index.manifest.default_semantic_weight,
            rerank_depth=settings.rerank_depth,
            source_timeout_s=settings.source_timeout_s,
        ),
        reranker=models.reranker,
        reranker_unavailable=models.reranker_unavailable,
        ranker=models.ranker,
        ranker_unavailable=models.ranker_unavailable,
        refiner=build_refiner(settings, index),
        diagnoser=Diagnoser.bundled() if settings.diagnosis else None,
    )


def open_retriever(
    settings: Settings, models: Models | None = None
) -> tuple[HybridRetriever, OpenIndex]:
    """Open the index of `settings` and build a retriever over it, loading the models unless
    `models` are given (blocking: call at start-up).

    Close both when done: `await retriever.aclose(); await index.aclose()`.
    """
    models = models or load_models(settings)
    index = open_stores(settings)
    return build_retriever(settings, index, models), index


class SharedModels:
    """Loads the models once, on first use, and opens every index generation with them.

    The server opens a new generation for each HTTP ingest; sharing the models keeps that
    from loading MiniLM and the reranker again (and holding two copies while it drains).

    >>> shared = SharedModels(micro_batch=True)
    >>> retriever, index = shared.open_retriever(settings)  # doctest: +SKIP
    """

    def __init__(self, *, micro_batch: bool = False) -> None:
        self._micro_batch = micro_batch
        self._models: Models | None = None
        self._lock = threading.Lock()

    def models(self, settings: Settings) -> Models:
        """The shared models, loaded now if this is the first call (blocking)."""
        with self._lock:
            if self._models is None:
                self._models = load_models(settings, micro_batch=self._micro_batch)
            return self._models

    def open_retriever(self, settings: Settings) -> tuple[HybridRetriever, OpenIndex]:
        return open_retriever(settings, self.models(settings))
