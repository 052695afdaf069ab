"""The composition root: loaded models + an opened index -> a ready `HybridRetriever`.

`build_retriever` is the only place a retriever is assembled (the API, the CLI, every
benchmark and the training scripts call it); `load_models` loads the configured models.

>>> models = load_models(settings)  # doctest: +SKIP
>>> async with LocalIndex.open(settings.index_dir, embedder=settings.embedding_model) as index:
...     retriever = build_retriever(index, models, RetrieverConfig.from_settings(settings))
...     packet = await retriever.retrieve(RetrievalRequest(query="what is a ratio?"))
...     await retriever.aclose()  # doctest: +SKIP
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Protocol, TypeVar, cast

from tutorgraph.confidence.scope import SCOPE_MODEL_FILE, ScopeModel
from tutorgraph.config import (
    BUNDLED_LINKER,
    BUNDLED_RANKER,
    BUNDLED_RERANKER,
    BUNDLED_SCOPE,
    Settings,
)
from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph.embedding.batching import MicroBatchingEmbedder, MicroBatchingReranker
from tutorgraph.embedding.embedder import Embedder, SentenceTransformerEmbedder
from tutorgraph.embedding.onnx_embedder import OnnxEmbedder
from tutorgraph.embedding.reranker import CrossEncoderReranker, Reranker, RerankerOptions
from tutorgraph.embedding.runtime import limit_blas_threads
from tutorgraph.errors import ConfigurationError
from tutorgraph.extras import require
from tutorgraph.linking.linker import ConceptLinker
from tutorgraph.linking.standards_model import MODEL_FILE as STANDARDS_MODEL_FILE
from tutorgraph.linking.standards_model import StandardModel
from tutorgraph.ranking.model import TEXT_ONLY_DIR, LearnedRanker
from tutorgraph.ranking.tuned import TUNED_GRAPH
from tutorgraph.refinement.local import LocalRefiner
from tutorgraph.refinement.refiner import Refiner
from tutorgraph.refinement.spelling import SpellingCorrector
from tutorgraph.retrieval.loaded import Loaded
from tutorgraph.retrieval.ranker_runtime import DeferredRanker
from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph.retrieval.retriever_config import OpenAIRefinerConfig, RefinerKind, RetrieverConfig
from tutorgraph.retrieval.stage_deps import NO_RANKER, NO_RERANKER, NO_SCOPE_MODEL
from tutorgraph.stores.breaker import Breakers
from tutorgraph.stores.protocols import ConceptLinks, IndexReader

__all__ = [
    "Loaded",
    "Models",
    "RefinerKind",
    "build_refiner",
    "build_retriever",
    "bundled_ranker_path",
    "bundled_reranker_path",
    "bundled_scope_path",
    "load_models",
    "load_ranker",
    "load_reranker",
    "load_scope",
    "openai_unavailable",
]

log = logging.getLogger(__name__)

_RANKER_OFF = "learned ranker turned off (TUTORGRAPH_RANKER_MODEL is empty)"
_NO_STANDARDS_MODEL = Loaded.missing("no standards model configured")


def bundled_reranker_path() -> Path:
    """The directory of the int8 reranker that ships inside the package."""
    return Path(__file__).resolve().parent.parent / "_weights" / "eedi-minilm-reranker"


def bundled_ranker_path() -> Path:
    """The directory of the learned ranker that ships inside the package."""
    return Path(__file__).resolve().parent.parent / "_weights" / "eedi-ranker"


def bundled_scope_path() -> Path:
    """The scope model that ships inside the package (`research/scripts/train_scope.py`)."""
    return Path(__file__).resolve().parent.parent / "_weights" / "scope" / SCOPE_MODEL_FILE


_T = TypeVar("_T")


class _Tied(Protocol):
    """A bundled model tied to the embedder whose vectors it was fitted over."""

    @property
    def embedder(self) -> str: ...


def _load_tied(
    settings: Settings,
    name: str,
    what: str,
    setting: str,
    bundled: tuple[str, Path],
    load: Callable[[Path], _T],
) -> Loaded[_T]:
    """Load `what` named by a setting now (blocking), or say why there is none: turned off
    (empty), unreadable, or fitted over another embedder's vectors (refused)."""
    name = name.strip()
    if not name:
        return Loaded.missing(f"{what} turned off (TUTORGRAPH_{setting} is empty)")
    path = bundled[1] if name == bundled[0] else Path(name)
    try:
        model = load(path)
    except ConfigurationError as exc:
        log.warning("the %s is off: %s", what, exc.message)
        return Loaded.missing(f"{what} {name!r} could not be loaded: {exc.message}")
    embedder = cast(_Tied, model).embedder
    if embedder != settings.embedding_model:
        reason = (
            f"{what} {name!r} was fitted over {embedder!r}, "
            f"not the configured embedder {settings.embedding_model!r}"
        )
        log.warning("the %s is off: %s", what, reason)
        return Loaded.missing(reason)
    return Loaded.of(model)


def load_scope(settings: Settings) -> Loaded[ScopeModel]:
    """Load the configured scope model now (blocking), or say why there is none. One
    fitted over another embedder's vectors is refused, as a ranker is."""
    bundled = (BUNDLED_SCOPE, bundled_scope_path())
    return _load_tied(
        settings, settings.scope_model, "scope model", "SCOPE_MODEL", bundled, ScopeModel.load
    )


def bundled_standards_path() -> Path:
    """The linker's standards model that ships inside the package (`train-linker`)."""
    return Path(__file__).resolve().parent.parent / "_weights" / "linker" / STANDARDS_MODEL_FILE


def load_standards_model(settings: Settings) -> Loaded[StandardModel]:
    """Load the concept linker's standards model now (blocking), or say why there is none;
    one trained over another embedder's vectors is refused."""
    bundled = (BUNDLED_LINKER, bundled_standards_path())
    return _load_tied(
        settings,
        settings.linker_model,
        "standards model",
        "LINKER_MODEL",
        bundled,
        StandardModel.load,
    )


def _linker(index: IndexReader, models: Models) -> ConceptLinks | None:
    """The index's linker, with the standards model fused in when both are there and the
    model's standards are the index's (else the card search alone, and a warning)."""
    standards = models.standards.value
    if not isinstance(index.linker, ConceptLinker) or standards is None:
        return index.linker
    try:
        return index.linker.with_model(standards)
    except ValueError as exc:
        log.warning("the standards model is off for this index: %s", exc)
        return index.linker


def load_ranker(settings: Settings) -> Loaded[LearnedRanker]:
    """Load the configured learned ranker now (blocking), or say why there is none.

    A ranker trained over another embedder's vectors is refused: its adapter, examples and
    targets would be compared with vectors of a different space.
    """
    name = settings.ranker_model.strip()
    if not name:
        return Loaded.missing(_RANKER_OFF)
    path = bundled_ranker_path() if name == BUNDLED_RANKER else Path(name)
    try:
        ranker = LearnedRanker.load(path)
    except ConfigurationError as exc:
        log.warning("the learned ranker is off: %s", exc.message)
        return Loaded.missing(f"ranker {name!r} could not be loaded: {exc.message}")
    if ranker.embedder != settings.embedding_model:
        reason = (
            f"ranker {name!r} was trained over {ranker.embedder!r}, "
            f"not the configured embedder {settings.embedding_model!r}"
        )
        log.warning("the learned ranker is off: %s", reason)
        return Loaded.missing(reason)
    tuned = ranker.tuned or (ranker.text_only.tuned if ranker.text_only else None)
    if tuned is not None:
        # Its model folder (int8 graph, tokenizer): absolute, or relative to the ranker.
        model = path / tuned.model if not Path(tuned.model).is_absolute() else Path(tuned.model)
        # One thread: its signed int8 pass runs as fast on one core as on two (5.9 ms, 48
        # tokens) for 5.9 ms of CPU, not 8.4, which the search beside it needs.
        encoder = OnnxEmbedder(str(model), graph=TUNED_GRAPH, threads=1)
        try:
            encoder.load()
        except ConfigurationError as exc:
            log.warning("the learned ranker is off: %s", exc.message)
            why = f"ranker {name!r}: its tuned encoder could not be loaded: {exc.message}"
            return Loaded.missing(why)
        ranker = ranker.with_tuned_embedder(encoder)
    return Loaded.of(ranker.with_info({**ranker.info, "name": name}))


def load_reranker(settings: Settings) -> Loaded[CrossEncoderReranker]:
    """Load the configured reranker now (blocking), or say why there is none.

    A model that cannot be loaded is not fatal: it is logged once, here, and every packet
    then reports `reranker.applied = false` with the reason.
    """
    name = settings.reranker_model.strip()
    if not name:
        return Loaded.missing("reranking turned off (TUTORGRAPH_RERANKER_MODEL is empty)")
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
        return Loaded.missing(f"reranker {name!r} could not be loaded: {exc.message}")
    return Loaded.of(reranker)


@dataclass(frozen=True)
class Models:
    """The loaded models a retriever needs, each with why it is missing when it is
    (`Loaded`); one set can serve several indexes.

    >>> Models(embedder, ranker=load_ranker(settings)).reranker.reason  # doctest: +SKIP
    'no reranker configured'
    """

    embedder: Embedder
    reranker: Loaded[Reranker] = NO_RERANKER
    # Deferred (`load_models(defer_ranker=True)`): loaded by the first request it may score.
    ranker: Loaded[LearnedRanker | DeferredRanker] = NO_RANKER
    scope: Loaded[ScopeModel] = NO_SCOPE_MODEL
    standards: Loaded[StandardModel] = _NO_STANDARDS_MODEL


def make_embedder(settings: Settings) -> SentenceTransformerEmbedder | OnnxEmbedder:
    """The configured embedder (`embedder_backend`), not loaded yet."""
    if settings.embedder_backend == "onnx":
        return OnnxEmbedder(settings.embedding_model)
    return SentenceTransformerEmbedder(
        settings.embedding_model, batch_size=settings.embed_batch_size
    )


def _silent(_what: str) -> None:
    return None


def _defer(
    settings: Settings, status: Callable[[str], None] | None = None
) -> Loaded[DeferredRanker]:
    """The configured learned ranker, to be loaded by the first request it may score (a
    one-shot command's), or why there is none (turned off)."""
    name = settings.ranker_model.strip()
    if not name:
        return Loaded.missing(_RANKER_OFF)
    path = bundled_ranker_path() if name == BUNDLED_RANKER else Path(name)
    return Loaded.of(
        DeferredRanker(
            partial(load_ranker, settings),
            name=name,
            text_only=(path / TEXT_ONLY_DIR).is_dir(),
            status=status,
        )
    )


def load_models(
    settings: Settings,
    *,
    micro_batch: bool = False,
    status: Callable[[str], None] | None = None,
    defer_ranker: bool = False,
) -> Models:
    """Load the embedder, the reranker and the learned ranker (blocking: call at start-up).

    `micro_batch` (the server's choice) puts a `MicroBatcher` in front of each, so concurrent
    requests share model calls (a lone caller would only wait for nobody). Serving is what
    this is for, so numpy's BLAS is capped at `settings.blas_threads` for the process.
    `status` is told what loads next ("loading the embedder (all-MiniLM-L6-v2)"), for a
    command's status line. With `defer_ranker` (a one-shot command's choice) the learned
    ranker loads when a request first may be scored by it (`DeferredRanker`), not now.
    """
    say = status or _silent
    limit_blas_threads(settings.blas_threads)
    model = make_embedder(settings)
    say(f"loading the embedder ({settings.embedding_model.rsplit('/', 1)[-1]})")
    model.load()
    if settings.reranker_model.strip():
        say("loading the reranker")
    reranker: Loaded[Reranker] = load_reranker(settings)
    if micro_batch and reranker.value is not None:
        reranker = Loaded.of(MicroBatchingReranker(reranker.value))
    ranker: Loaded[LearnedRanker | DeferredRanker]
    if defer_ranker:
        ranker = _defer(settings, status)
    else:
        if settings.ranker_model.strip():
            say("loading the learned ranker")
        ranker = load_ranker(settings)
    say("loading the scope and standards models")
    return Models(
        MicroBatchingEmbedder(model) if micro_batch else model,
        reranker=reranker,
        ranker=ranker,
        scope=load_scope(settings),
        standards=load_standards_model(settings),
    )


def openai_unavailable(settings: Settings) -> str | None:
    """Why the OpenAI refiner cannot run with `settings`, or None when it can."""
    return OpenAIRefinerConfig.from_settings(settings).unavailable()


def build_refiner(
    config: RetrieverConfig,
    index: IndexReader,
    embedder: Embedder | None = None,
    breakers: Breakers | None = None,
) -> Refiner | None:
    """The configured refiner over the index (its spelling vocabulary and graph; CPU only,
    well under a second), or None. The OpenAI refiner's prompt lists the index linker's
    concepts for the message when the index has a linker and `embedder` is given (the
    query embedder: `build_retriever` passes it), else the best concept-name matches.
    `breakers` (the retriever's) guard its graph calls and the OpenAI server."""
    if config.refiner == "none":
        return None
    graph_breaker = breakers.graph if breakers is not None else None
    if config.refiner == "local":
        return LocalRefiner(
            index.graph, SpellingCorrector(index.vocabulary()), breaker=graph_breaker
        )
    openai = config.openai
    if (reason := openai.unavailable()) is not None:
        raise ConfigurationError(f"the OpenAI refiner cannot run: {reason}")
    require("openai", "openai", "the OpenAI refiner")
    local = LocalRefiner(index.graph, SpellingCorrector(index.vocabulary()), breaker=graph_breaker)
    from openai import AsyncOpenAI

    from tutorgraph.refinement.openai_refiner import LinkerCandidates, OpenAIRefiner

    key = openai.api_key.get_secret_value() if openai.api_key else None
    client = AsyncOpenAI(
        # A local OpenAI-compatible server may need no key; the client insists on one.
        api_key=key or "no-key",
        base_url=openai.base_url,
        timeout=openai.timeout_s,
        max_retries=0,
    )
    return OpenAIRefiner(
        client,
        local,
        model=openai.model,
        timeout_s=openai.timeout_s,
        cache_size=openai.cache_size,
        breaker=breakers.refiner if breakers is not None else None,
        candidates=(
            LinkerCandidates(index.linker, embedder)
            if index.linker is not None and embedder is not None
            else None
        ),
    )


def build_retriever(
    index: IndexReader, models: Models, config: RetrieverConfig | None = None
) -> HybridRetriever:
    """The retriever over an opened index with loaded models, configured by `config` (its
    refiner, its diagnosis, its depths; the index's manifest sets the routing defaults and,
    unless `config` sets one, the near-duplicate threshold). It owns its refiner
    (`aclose()` closes it); the index and the models stay the caller's.

    >>> retriever = build_retriever(index, Models(embedder), RetrieverConfig())  # doctest: +SKIP
    """
    config = config or RetrieverConfig()
    manifest = index.manifest
    # One set of circuit breakers for the stages and the refiner: the refiner's graph calls
    # and the search's see the same graph.
    breakers = Breakers.make(
        failures=config.breaker_failures,
        cooldown_s=config.breaker_cooldown_s,
        sources=config.breaker_sources,
    )
    return HybridRetriever(
        models.embedder,
        index.vector,
        index.lexical,
        index.graph,
        replace(
            config,
            default_retrieval_profile=manifest.default_retrieval_profile,
            default_semantic_weight=manifest.default_semantic_weight,
            near_duplicate_threshold=config.near_duplicate_threshold
            or manifest.near_duplicate_threshold,
        ),
        reranker=models.reranker,
        ranker=models.ranker,
        scope=models.scope,
        refiner=build_refiner(config, index, models.embedder, breakers),
        diagnoser=Diagnoser.bundled() if config.diagnosis else None,
        linker=_linker(index, models),
        lessons=index.lessons,
        item_vectors=index.item_vectors,
        breakers=breakers,
    )
