"""The hybrid retriever: route, link, search vector/lexical/graph in parallel, merge, fuse, rerank,
rank, diagnose and assemble, as a list of stages (`retrieval.stages`) run by
`retrieval.pipeline`.

>>> retriever = HybridRetriever(embedder, index.vector, index.lexical, index.graph)
... # doctest: +SKIP
>>> packet = await retriever.retrieve(RetrievalRequest(query="why is 3/4 bigger than 2/3?"))
... # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass

from tutorgraph.confidence.scope import ScopeModel
from tutorgraph.config import LESSON_SLOTS, RERANK_DEPTH, SOURCE_TIMEOUT_S, Settings
from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.embedding.reranker import Reranker
from tutorgraph.ranking.model import LearnedRanker
from tutorgraph.refinement.refiner import Refiner
from tutorgraph.retrieval.packet import build_packet
from tutorgraph.retrieval.pipeline import RequestState, Stage, run_stages
from tutorgraph.retrieval.ranker_runtime import DeferredRanker
from tutorgraph.retrieval.stages.check import CheckStage
from tutorgraph.retrieval.stages.dedupe import DedupeStage
from tutorgraph.retrieval.stages.diagnose import DiagnoseStage
from tutorgraph.retrieval.stages.facts import FactsStage
from tutorgraph.retrieval.stages.finish import FinishStage
from tutorgraph.retrieval.stages.fuse import FuseStage
from tutorgraph.retrieval.stages.lessons import LessonStage
from tutorgraph.retrieval.stages.link import LinkStage
from tutorgraph.retrieval.stages.merge import MergeStage
from tutorgraph.retrieval.stages.rank import RankStage
from tutorgraph.retrieval.stages.refine import RefineStage
from tutorgraph.retrieval.stages.rerank import RerankStage
from tutorgraph.retrieval.stages.route import RouteStage
from tutorgraph.retrieval.stages.scope import ScopeStage
from tutorgraph.retrieval.stages.search import SearchStage
from tutorgraph.stores.protocols import (
    ConceptLinks,
    GraphStore,
    LessonSearch,
    LexicalIndex,
    VectorStore,
)
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest

__all__ = ["HybridRetriever", "RetrieverConfig"]


@dataclass(frozen=True)
class RetrieverConfig:
    """Index-level defaults, candidate depths and the per-source timeout.

    `rerank_depth` is how many fused candidates the cross-encoder scores.

    >>> RetrieverConfig.from_settings(Settings(rerank_depth=20)).rerank_depth
    20
    """

    default_retrieval_profile: str = "auto"
    default_semantic_weight: float | None = None
    graph_depth: int = 50
    rerank_depth: int = RERANK_DEPTH
    source_timeout_s: float = SOURCE_TIMEOUT_S
    # How many misconceptions each of the learned ranker's lists may propose.
    ranker_proposals: int = 40
    # The index's near-duplicate threshold (a request may set its own); None: no merge.
    near_duplicate_threshold: float | None = None
    # Lessons a packet carries when the request does not say (0: none).
    lesson_slots: int = LESSON_SLOTS

    @classmethod
    def from_settings(cls, settings: Settings) -> RetrieverConfig:
        """The settings' depths, timeout and lessons (the index sets its own defaults on top)."""
        return cls(
            rerank_depth=settings.rerank_depth,
            source_timeout_s=settings.source_timeout_s,
            lesson_slots=settings.lesson_slots,
        )


class HybridRetriever:
    """Answers a `RetrievalRequest` with a `ReasoningPacket`; stores are injected."""

    def __init__(
        self,
        embedder: Embedder,
        vector: VectorStore,
        lexical: LexicalIndex,
        graph: GraphStore,
        config: RetrieverConfig | None = None,
        *,
        reranker: Reranker | None = None,
        reranker_unavailable: str = "no reranker configured",
        refiner: Refiner | None = None,
        ranker: LearnedRanker | DeferredRanker | None = None,
        ranker_unavailable: str = "no learned ranker configured",
        scope: ScopeModel | None = None,
        scope_unavailable: str = "no scope model configured",
        diagnoser: Diagnoser | None = None,
        linker: ConceptLinks | None = None,
        lessons: LessonSearch | None = None,
    ) -> None:
        """`reranker` must be loaded already; without one, `reranker_unavailable` says why.

        The stores belong to whoever opened them; the retriever owns its refiner, which
        `aclose()` closes (an HTTP client, for the OpenAI refiner).
        """
        self._embedder = embedder
        self._vector = vector
        self._lexical = lexical
        self._graph = graph
        self._config = config or RetrieverConfig()
        self._reranker = reranker
        self._reranker_unavailable = reranker_unavailable
        self._refiner = refiner
        self._ranker = ranker
        self._ranker_unavailable = ranker_unavailable
        self._diagnoser = diagnoser
        self._scope = scope
        self._scope_unavailable = scope_unavailable
        self._linker = linker
        self._lessons = lessons
        self._stages = self._build_stages()

    @property
    def embedder(self) -> Embedder:
        """The query embedder (an ingest into a new index generation reuses it)."""
        return self._embedder

    @property
    def reranker(self) -> Reranker | None:
        """The loaded reranker, or None when packets cannot be reranked."""
        return self._reranker

    @property
    def ranker(self) -> LearnedRanker | None:
        """The learned final score's model, or None when packets keep the fused order (or
        a deferred one no request has loaded yet)."""
        if isinstance(self._ranker, DeferredRanker):
            return self._ranker.loaded
        return self._ranker

    @property
    def refiner(self) -> Refiner | None:
        """The refiner used when a request asks for refinement (the default)."""
        return self._refiner

    async def aclose(self) -> None:
        if self._refiner is not None:
            await self._refiner.aclose()

    @property
    def stages(self) -> list[Stage]:
        """The request pipeline, in order."""
        return list(self._stages)

    async def retrieve(self, request: RetrievalRequest) -> ReasoningPacket:
        """Run the pipeline on `request` and answer with its packet."""
        return build_packet(await run_stages(self._stages, RequestState(request)))

    def _build_stages(self) -> list[Stage]:
        cfg = self._config
        timeout = cfg.source_timeout_s
        return [
            CheckStage(self._graph, timeout_s=timeout),
            RefineStage(self._refiner),
            FactsStage(timeout_s=timeout),
            RouteStage(
                self._embedder,
                self._graph,
                ranker=self._ranker,
                links=self._linker is not None,
                default_profile=cfg.default_retrieval_profile,
                default_semantic_weight=cfg.default_semantic_weight,
            ),
            LinkStage(self._graph, self._linker, timeout_s=timeout),
            SearchStage(
                self._embedder,
                self._vector,
                self._lexical,
                self._graph,
                graph_depth=cfg.graph_depth,
                timeout_s=timeout,
            ),
            MergeStage(),
            FuseStage(),
            DedupeStage(
                self._vector,
                rerank_depth=cfg.rerank_depth,
                reranks=self._reranker is not None,
                threshold=cfg.near_duplicate_threshold,
                timeout_s=timeout,
            ),
            RerankStage(
                self._reranker, depth=cfg.rerank_depth, unavailable=self._reranker_unavailable
            ),
            RankStage(
                self._ranker,
                self._graph,
                self._embedder,
                proposals=cfg.ranker_proposals,
                unavailable=self._ranker_unavailable,
            ),
            DiagnoseStage(self._diagnoser, self._graph, timeout_s=timeout),
            LessonStage(self._lessons, slots=cfg.lesson_slots),
            ScopeStage(self._scope, self._embedder, unavailable=self._scope_unavailable),
            FinishStage(self._embedder),
        ]
