"""tutorgraph: a GraphRAG retrieval backend for math tutoring.

>>> import asyncio
>>> from tutorgraph import RetrievalRequest, Settings, open_retriever
>>> served = open_retriever(Settings())  # doctest: +SKIP
>>> packet = asyncio.run(served.retriever.retrieve(RetrievalRequest(query="what is 3/4 of 12?")))
... # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tutorgraph.config import Settings
    from tutorgraph.errors import (
        BundleError,
        ConfigurationError,
        EmbedderMismatchError,
        IndexNotFoundError,
        InvalidRequestError,
        SourceUnavailableError,
        StoreError,
        TutorGraphError,
        UnknownConceptError,
    )
    from tutorgraph.index.service import open_retriever
    from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig
    from tutorgraph_client.models.packet import GraphContext, Hit, ReasoningPacket, RerankerInfo
    from tutorgraph_client.models.request import RetrievalRequest

# Public name -> the module that defines it. Loaded on first use, so that importing the
# package (or `tutorgraph.errors`) does not load the models, stores and clients.
_EXPORTS = {
    "Settings": "tutorgraph.config",
    **dict.fromkeys(
        (
            "BundleError",
            "ConfigurationError",
            "EmbedderMismatchError",
            "IndexNotFoundError",
            "InvalidRequestError",
            "SourceUnavailableError",
            "StoreError",
            "TutorGraphError",
            "UnknownConceptError",
        ),
        "tutorgraph.errors",
    ),
    **dict.fromkeys(
        ("GraphContext", "Hit", "ReasoningPacket", "RerankerInfo"),
        "tutorgraph_client.models.packet",
    ),
    "RetrievalRequest": "tutorgraph_client.models.request",
    "open_retriever": "tutorgraph.index.service",
    "HybridRetriever": "tutorgraph.retrieval.retriever",
    "RetrieverConfig": "tutorgraph.retrieval.retriever",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tutorgraph' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


__all__ = [
    "BundleError",
    "ConfigurationError",
    "EmbedderMismatchError",
    "GraphContext",
    "Hit",
    "HybridRetriever",
    "IndexNotFoundError",
    "InvalidRequestError",
    "ReasoningPacket",
    "RerankerInfo",
    "RetrievalRequest",
    "RetrieverConfig",
    "Settings",
    "SourceUnavailableError",
    "StoreError",
    "TutorGraphError",
    "UnknownConceptError",
    "open_retriever",
]

__version__ = "0.1.0"
