"""Wiring: settings -> embedder + stores + reranker -> a ready `HybridRetriever`.

>>> retriever, index = open_retriever(Settings())  # doctest: +SKIP
>>> packet = await retriever.retrieve(RetrievalRequest(query="what is a ratio?"))  # doctest: +SKIP
>>> await index.aclose()  # doctest: +SKIP
"""

from __future__ import annotations

import logging
from pathlib import Path

from tutorgraph.config import BUNDLED_RERANKER, Settings
from tutorgraph.errors import ConfigurationError
from tutorgraph.retrieval.embedder import SentenceTransformerEmbedder
from tutorgraph.retrieval.reranker import CrossEncoderReranker, RerankerOptions
from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig
from tutorgraph.stores.local_index import OpenIndex, open_index

__all__ = ["bundled_reranker_path", "load_reranker", "open_retriever"]

log = logging.getLogger(__name__)


def bundled_reranker_path() -> Path:
    """The directory of the int8 reranker that ships inside the package."""
    return Path(__file__).resolve().parent.parent / "_weights" / "eedi-minilm-reranker"


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


def open_retriever(settings: Settings) -> tuple[HybridRetriever, OpenIndex]:
    """Open the local index and load the embedder and reranker (blocking: call at start-up)."""
    embedder = SentenceTransformerEmbedder(
        settings.embedding_model, batch_size=settings.embed_batch_size
    )
    index = open_index(settings.index_dir, embedder=settings.embedding_model)
    embedder.load()
    reranker, why_not = load_reranker(settings)
    retriever = HybridRetriever(
        embedder,
        index.vector,
        index.lexical,
        index.graph,
        RetrieverConfig(
            default_retrieval_profile=index.manifest.default_retrieval_profile,
            default_semantic_weight=index.manifest.default_semantic_weight,
            rerank_depth=settings.rerank_depth,
            source_timeout_s=settings.source_timeout_s,
        ),
        reranker=reranker,
        reranker_unavailable=why_not,
    )
    return retriever, index
