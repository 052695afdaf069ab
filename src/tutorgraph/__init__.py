"""tutorgraph: a GraphRAG retrieval backend for math tutoring.

The doors: `open_retriever(settings)` opens the index of `settings`, loads the models and
builds the retriever (what the server and the CLI do); `build_retriever(index, models,
config)` builds one over an index and models you opened yourself, configured by one
`RetrieverConfig` (`RetrieverConfig.from_settings(settings)`). `HybridRetriever` is the
class both build, for advanced use; build it through a door.

>>> import asyncio
>>> from tutorgraph import RetrievalRequest, Settings, open_retriever
>>> served = open_retriever(Settings())  # doctest: +SKIP
>>> packet = asyncio.run(served.retriever.retrieve(RetrievalRequest(query="what is 3/4 of 12?")))
... # doctest: +SKIP

Every public name is written once, in `_EXPORTS` (name -> the module that defines it), and
loads on first use, so that importing the package loads no model, store or client. The
`TYPE_CHECKING` imports give type checkers the same names, typed; a unit test keeps the two
in step.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for type checkers only (`X as X`: an explicit re-export)
    from tutorgraph.config import Settings as Settings
    from tutorgraph.errors import BundleError as BundleError
    from tutorgraph.errors import ConfigurationError as ConfigurationError
    from tutorgraph.errors import EmbedderMismatchError as EmbedderMismatchError
    from tutorgraph.errors import IndexNotFoundError as IndexNotFoundError
    from tutorgraph.errors import InvalidRequestError as InvalidRequestError
    from tutorgraph.errors import SourceUnavailableError as SourceUnavailableError
    from tutorgraph.errors import StoreError as StoreError
    from tutorgraph.errors import TutorGraphError as TutorGraphError
    from tutorgraph.errors import UnknownConceptError as UnknownConceptError
    from tutorgraph.index.service import OpenRetriever as OpenRetriever
    from tutorgraph.index.service import open_retriever as open_retriever
    from tutorgraph.retrieval.factory import build_retriever as build_retriever
    from tutorgraph.retrieval.retriever import HybridRetriever as HybridRetriever
    from tutorgraph.retrieval.retriever_config import RetrieverConfig as RetrieverConfig
    from tutorgraph_client.models.packet import DialogueInfo as DialogueInfo
    from tutorgraph_client.models.packet import GradeInfo as GradeInfo
    from tutorgraph_client.models.packet import GraphContext as GraphContext
    from tutorgraph_client.models.packet import Hit as Hit
    from tutorgraph_client.models.packet import LanguageInfo as LanguageInfo
    from tutorgraph_client.models.packet import RankerInfo as RankerInfo
    from tutorgraph_client.models.packet import ReasoningPacket as ReasoningPacket
    from tutorgraph_client.models.packet import RerankerInfo as RerankerInfo
    from tutorgraph_client.models.packet import ScopeInfo as ScopeInfo
    from tutorgraph_client.models.request import RetrievalRequest as RetrievalRequest
    from tutorgraph_client.models.request import Turn as Turn

# The public names, by the module that defines them.
_EXPORTS: dict[str, str] = {
    name: module
    for module, names in {
        "tutorgraph.config": ("Settings",),
        "tutorgraph.errors": (
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
        # The doors, and what they return.
        "tutorgraph.index.service": ("OpenRetriever", "open_retriever"),
        "tutorgraph.retrieval.factory": ("build_retriever",),
        "tutorgraph.retrieval.retriever": ("HybridRetriever",),
        "tutorgraph.retrieval.retriever_config": ("RetrieverConfig",),
        # The packet, its parts and the info models of each stage that may not run.
        "tutorgraph_client.models.packet": (
            "DialogueInfo",
            "GradeInfo",
            "GraphContext",
            "Hit",
            "LanguageInfo",
            "RankerInfo",
            "ReasoningPacket",
            "RerankerInfo",
            "ScopeInfo",
        ),
        "tutorgraph_client.models.request": ("RetrievalRequest", "Turn"),
    }.items()
    for name in names
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tutorgraph' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


__version__ = "0.1.0"
