"""Wiring: settings -> embedder + stores -> a ready `HybridRetriever`.

>>> retriever, index = open_retriever(Settings())  # doctest: +SKIP
>>> packet = await retriever.retrieve(RetrievalRequest(query="what is a ratio?"))  # doctest: +SKIP
>>> await index.aclose()  # doctest: +SKIP
"""

from __future__ import annotations

from tutorgraph.config import Settings
from tutorgraph.retrieval.embedder import SentenceTransformerEmbedder
from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig
from tutorgraph.stores.local_index import OpenIndex, open_index

__all__ = ["open_retriever"]


def open_retriever(settings: Settings) -> tuple[HybridRetriever, OpenIndex]:
    """Open the local index and load the embedder (blocking: call it at start-up)."""
    embedder = SentenceTransformerEmbedder(
        settings.embedding_model, batch_size=settings.embed_batch_size
    )
    index = open_index(settings.index_dir, embedder=settings.embedding_model)
    embedder.load()
    retriever = HybridRetriever(
        embedder,
        index.vector,
        index.lexical,
        index.graph,
        RetrieverConfig(
            default_retrieval_profile=index.manifest.default_retrieval_profile,
            default_semantic_weight=index.manifest.default_semantic_weight,
            source_timeout_s=settings.source_timeout_s,
        ),
    )
    return retriever, index
