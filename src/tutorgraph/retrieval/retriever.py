"""The hybrid retriever: route, link, search vector/lexical/graph in parallel, merge, fuse, rerank,
rank, diagnose and assemble, as the stages of `retrieval.stages.STAGES` run by
`retrieval.pipeline`.

>>> retriever = HybridRetriever(embedder, index.vector, index.lexical, index.graph)
... # doctest: +SKIP
>>> packet = await retriever.retrieve(RetrievalRequest(query="why is 3/4 bigger than 2/3?"))
... # doctest: +SKIP
"""

from __future__ import annotations

from tutorgraph.confidence.scope import ScopeModel
from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.embedding.reranker import Reranker
from tutorgraph.ranking.model import LearnedRanker
from tutorgraph.refinement.refiner import Refiner
from tutorgraph.retrieval.loaded import Loaded
from tutorgraph.retrieval.packet import build_packet
from tutorgraph.retrieval.pipeline import Stage, run_stages
from tutorgraph.retrieval.ranker_runtime import DeferredRanker
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import NO_RANKER, NO_RERANKER, NO_SCOPE_MODEL, StageDeps
from tutorgraph.retrieval.stages import build_stages
from tutorgraph.retrieval.state import RequestState
from tutorgraph.stores.breaker import Breakers
from tutorgraph.stores.protocols import (
    ConceptLinks,
    GraphStore,
    ItemSimilarity,
    LessonSearch,
    LexicalIndex,
    VectorStore,
)
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest

# `RetrieverConfig` is defined in `retriever_config.py` (the stages are built with it) and
# is named here too, where a retriever's caller looks for it.
__all__ = ["HybridRetriever", "RetrieverConfig"]


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
        reranker: Loaded[Reranker] = NO_RERANKER,
        refiner: Refiner | None = None,
        ranker: Loaded[LearnedRanker | DeferredRanker] = NO_RANKER,
        scope: Loaded[ScopeModel] = NO_SCOPE_MODEL,
        diagnoser: Diagnoser | None = None,
        linker: ConceptLinks | None = None,
        lessons: LessonSearch | None = None,
        item_vectors: ItemSimilarity | None = None,
        breakers: Breakers | None = None,
    ) -> None:
        """Each model is `Loaded` (`Loaded.of(model)`, or `Loaded.missing(why)`: the packet
        says why); `reranker` must be loaded already.
        `breakers` are the sources' circuit breakers (by default new ones, set by `config`;
        `build_retriever` passes those its refiner shares).

        The stores belong to whoever opened them; the retriever owns its refiner, which
        `aclose()` closes (an HTTP client, for the OpenAI refiner).
        """
        config = config or RetrieverConfig()
        self._deps = StageDeps(
            embedder,
            vector,
            lexical,
            graph,
            reranker=reranker,
            refiner=refiner,
            ranker=ranker,
            scope=scope,
            diagnoser=diagnoser,
            linker=linker,
            lessons=lessons,
            item_vectors=item_vectors,
            breakers=breakers
            or Breakers.make(
                failures=config.breaker_failures,
                cooldown_s=config.breaker_cooldown_s,
                sources=config.breaker_sources,
            ),
        )
        # Built in `STAGES`' order and checked (`check_stage_order`): a stage that reads a
        # field no earlier stage writes fails here, not on a request.
        self._stages = build_stages(self._deps, config)

    @property
    def embedder(self) -> Embedder:
        """The query embedder (an ingest into a new index generation reuses it)."""
        return self._deps.embedder

    @property
    def reranker(self) -> Reranker | None:
        """The loaded reranker, or None when packets cannot be reranked."""
        return self._deps.reranker.value

    @property
    def ranker(self) -> LearnedRanker | None:
        """The learned final score's model, or None when packets keep the fused order (or
        a deferred one no request has loaded yet)."""
        ranker = self._deps.ranker.value
        return ranker.loaded if isinstance(ranker, DeferredRanker) else ranker

    @property
    def breakers(self) -> Breakers:
        """The circuit breakers of its sources and of the OpenAI refiner (`/readyz`)."""
        return self._deps.breakers

    @property
    def refiner(self) -> Refiner | None:
        """The refiner used when a request asks for refinement (the default)."""
        return self._deps.refiner

    async def aclose(self) -> None:
        if self._deps.refiner is not None:
            await self._deps.refiner.aclose()

    @property
    def stages(self) -> list[Stage]:
        """The request pipeline, in order."""
        return list(self._stages)

    async def retrieve(self, request: RetrievalRequest) -> ReasoningPacket:
        """Run the pipeline on `request` and answer with its packet."""
        return build_packet(await run_stages(self._stages, RequestState(request)))
