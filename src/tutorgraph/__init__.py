"""tutorgraph: a GraphRAG retrieval backend for math tutoring.

>>> import asyncio
>>> from tutorgraph import RetrievalRequest, Settings, open_retriever
>>> retriever, index = open_retriever(Settings())  # doctest: +SKIP
>>> packet = asyncio.run(retriever.retrieve(RetrievalRequest(query="what is 3/4 of 12?")))
... # doctest: +SKIP
"""

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
from tutorgraph.models.packet import GraphContext, Hit, ReasoningPacket, RerankerInfo
from tutorgraph.models.request import RetrievalRequest
from tutorgraph.retrieval.factory import open_retriever
from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig

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
