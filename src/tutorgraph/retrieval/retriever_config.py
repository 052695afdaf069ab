"""The one configuration carrier of a retriever: `RetrieverConfig`, built from the settings by
`RetrieverConfig.from_settings` (each default is written once, in `tutorgraph.config`).

It carries the depths, the per-source timeout and the circuit breakers' settings (failures
in a row before one opens, its cool-down) the stages run with, the index's routing
defaults (`build_retriever` sets them from the manifest), and what `build_retriever` makes
besides the index and the models: the refiner (none, the local one, or the OpenAI one with
what it needs, `OpenAIRefinerConfig`) and whether the bug rules diagnose.

>>> RetrieverConfig.from_settings(Settings(rerank_depth=20)).rerank_depth
20
>>> RetrieverConfig().diagnosis == Settings().diagnosis
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import SecretStr

from tutorgraph.config import (
    BREAKER_COOLDOWN_S,
    BREAKER_FAILURES,
    CHAT_MODEL,
    DIAGNOSIS,
    GRAPH_DEPTH,
    LESSON_SLOTS,
    RANKER_PROPOSALS,
    REFINER_CACHE_SIZE,
    REFINER_TIMEOUT_S,
    RERANK_DEPTH,
    SOURCE_TIMEOUT_S,
    Settings,
)

__all__ = ["OpenAIRefinerConfig", "RefinerKind", "RetrieverConfig"]

RefinerKind = Literal["none", "local", "openai"]


@dataclass(frozen=True)
class OpenAIRefinerConfig:
    """What the OpenAI refiner needs: a key or the base URL of an OpenAI-compatible server
    (one of the two), the chat model, its deadline and its cache size. Never read from the
    environment behind the caller's back: `from_settings` takes what the settings read.

    >>> OpenAIRefinerConfig().unavailable() is not None  # neither key nor URL
    True
    """

    api_key: SecretStr | None = None
    base_url: str | None = None
    model: str = CHAT_MODEL
    timeout_s: float = REFINER_TIMEOUT_S
    cache_size: int = REFINER_CACHE_SIZE

    @classmethod
    def from_settings(cls, settings: Settings) -> OpenAIRefinerConfig:
        """The settings' key, base URL, refiner model, timeout and cache size."""
        return cls(
            api_key=settings.openai_api_key,
            base_url=settings.openai_base_url,
            model=settings.refiner_model,
            timeout_s=settings.refiner_timeout_s,
            cache_size=settings.refiner_cache_size,
        )

    def unavailable(self) -> str | None:
        """Why the OpenAI refiner cannot run with this configuration, or None when it can."""
        key = self.api_key.get_secret_value() if self.api_key else ""
        if not key and not self.base_url:
            return (
                "no OpenAI key or base URL is configured "
                "(TUTORGRAPH_OPENAI_API_KEY / TUTORGRAPH_OPENAI_BASE_URL)"
            )
        return None


@dataclass(frozen=True)
class RetrieverConfig:
    """A retriever's configuration: depths, timeouts, routing defaults, refiner, diagnosis.

    `rerank_depth` is how many fused candidates the cross-encoder scores; `graph_depth` how
    many candidates the graph search returns; `ranker_proposals` how many misconceptions each
    of the learned ranker's lists may propose. `refiner`, `diagnosis` and `openai` say what
    `build_retriever` makes (a `HybridRetriever` built by hand is handed its refiner and
    diagnoser); `diagnosis` defaults to the settings' default (on).

    >>> RetrieverConfig(refiner="none").rerank_depth
    30
    """

    # The index's routing defaults (`build_retriever` takes them from its manifest).
    default_retrieval_profile: str = "auto"
    default_semantic_weight: float | None = None
    graph_depth: int = GRAPH_DEPTH
    rerank_depth: int = RERANK_DEPTH
    source_timeout_s: float = SOURCE_TIMEOUT_S
    # The circuit breakers (`stores/breaker.py`) of the OpenAI refiner and of the sources in
    # `breaker_sources` (those whose store is a server: `from_settings` names the graph with
    # Neo4j, the vector store with a Chroma server): failures in a row before one opens (0:
    # never), and how long calls then skip it.
    breaker_failures: int = BREAKER_FAILURES
    breaker_cooldown_s: float = BREAKER_COOLDOWN_S
    breaker_sources: frozenset[str] = frozenset()
    ranker_proposals: int = RANKER_PROPOSALS
    # The index's near-duplicate threshold (a request may set its own); None: no merge. When
    # set, `build_retriever` puts it before the index's.
    near_duplicate_threshold: float | None = None
    # Lessons a packet carries when the request does not say (0: none).
    lesson_slots: int = LESSON_SLOTS
    # None, the deterministic local refiner, or the OpenAI one (which wraps the local one and
    # falls back to it), configured by `openai`.
    refiner: RefinerKind = "local"
    # Bug rules that reproduce a student's wrong answer (`tutorgraph.diagnosis`).
    diagnosis: bool = DIAGNOSIS
    openai: OpenAIRefinerConfig = field(default_factory=OpenAIRefinerConfig)

    @classmethod
    def from_settings(cls, settings: Settings) -> RetrieverConfig:
        """The server's configuration: the settings' depths, timeout, breakers, lessons and
        diagnosis, and the OpenAI refiner when a key or URL is set, else the local one (the
        index sets its routing defaults on top)."""
        openai = OpenAIRefinerConfig.from_settings(settings)
        return cls(
            rerank_depth=settings.rerank_depth,
            source_timeout_s=settings.source_timeout_s,
            breaker_failures=settings.breaker_failures,
            breaker_cooldown_s=settings.breaker_cooldown_s,
            breaker_sources=frozenset(
                source
                for source, server in (
                    ("graph", settings.neo4j_uri),
                    ("vector", settings.chroma_host),
                )
                if server
            ),
            lesson_slots=settings.lesson_slots,
            refiner="local" if openai.unavailable() else "openai",
            diagnosis=settings.diagnosis,
            openai=openai,
        )
