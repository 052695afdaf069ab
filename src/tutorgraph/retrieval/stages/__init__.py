"""The request pipeline's stages, one module each; `STAGES` is their one order, the one
`HybridRetriever` runs (`build_stages` makes them, `retrieval.pipeline` runs them):

check, refine, facts, route, link, search, merge, fuse, dedupe, rerank, rank, diagnose,
lessons, scope, finish.

Each stage declares the `RequestState` fields it reads and writes (`Stage.reads`,
`Stage.writes`); `check_stage_order` refuses an order in which a stage reads a field no
earlier stage writes, and `stage_table` renders the declarations (DESIGN section 2). No
stage module imports another (an import-linter contract): what two stages share lives in
`retrieval/` (`pipeline.py`, `ranker_runtime.py`).

>>> [s.name for s in STAGES][:4]
['check', 'refine', 'facts', 'route']
>>> stages = build_stages(StageDeps(embedder, vector, lexical, graph), RetrieverConfig())
... # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from tutorgraph.confidence.scope import ScopeModel
from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.embedding.reranker import Reranker
from tutorgraph.errors import ConfigurationError
from tutorgraph.ranking.model import LearnedRanker
from tutorgraph.refinement.refiner import Refiner
from tutorgraph.retrieval.pipeline import Stage, check_stage_order
from tutorgraph.retrieval.ranker_runtime import DeferredRanker
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stages.check import CheckStage
from tutorgraph.retrieval.stages.dedupe import DedupeStage
from tutorgraph.retrieval.stages.diagnose import DiagnoseStage
from tutorgraph.retrieval.stages.facts import FactsStage
from tutorgraph.retrieval.stages.finish import FinishStage
from tutorgraph.retrieval.stages.fuse import FuseStage
from tutorgraph.retrieval.stages.lessons import LessonStage
from tutorgraph.retrieval.stages.link import LinkStage
from tutorgraph.retrieval.stages.merge import MergeStage
from tutorgraph.retrieval.stages.rank import NO_RANKER, RankStage
from tutorgraph.retrieval.stages.refine import RefineStage
from tutorgraph.retrieval.stages.rerank import NO_RERANKER, RerankStage
from tutorgraph.retrieval.stages.route import RouteStage
from tutorgraph.retrieval.stages.scope import NO_SCOPE_MODEL, ScopeStage
from tutorgraph.retrieval.stages.search import SearchStage
from tutorgraph.stores.protocols import (
    ConceptLinks,
    GraphStore,
    LessonSearch,
    LexicalIndex,
    VectorStore,
)

__all__ = ["STAGES", "StageDeps", "build_stages"]

# The pipeline, in order: the one list the retriever runs.
STAGES: tuple[type[Stage], ...] = (
    CheckStage,
    RefineStage,
    FactsStage,
    RouteStage,
    LinkStage,
    SearchStage,
    MergeStage,
    FuseStage,
    DedupeStage,
    RerankStage,
    RankStage,
    DiagnoseStage,
    LessonStage,
    ScopeStage,
    FinishStage,
)


@dataclass(frozen=True)
class StageDeps:
    """What the stages run with besides the configuration: the stores and the models (None:
    not configured; `*_unavailable` says why, in the packet)."""

    embedder: Embedder
    vector: VectorStore
    lexical: LexicalIndex
    graph: GraphStore
    _: KW_ONLY
    reranker: Reranker | None = None
    reranker_unavailable: str = NO_RERANKER
    refiner: Refiner | None = None
    ranker: LearnedRanker | DeferredRanker | None = None
    ranker_unavailable: str = NO_RANKER
    scope: ScopeModel | None = None
    scope_unavailable: str = NO_SCOPE_MODEL
    diagnoser: Diagnoser | None = None
    linker: ConceptLinks | None = None
    lessons: LessonSearch | None = None


def build_stages(deps: StageDeps, config: RetrieverConfig) -> tuple[Stage, ...]:
    """The stages of `STAGES`, in its order, made with `deps` and `config`; the order is
    checked (`check_stage_order`: a `ConfigurationError` when a stage reads a field no
    earlier stage writes)."""
    timeout = config.source_timeout_s
    made: list[Stage] = [
        CheckStage(deps.graph, timeout_s=timeout),
        RefineStage(deps.refiner),
        FactsStage(timeout_s=timeout),
        RouteStage(
            deps.embedder,
            deps.graph,
            ranker=deps.ranker,
            links=deps.linker is not None,
            default_profile=config.default_retrieval_profile,
            default_semantic_weight=config.default_semantic_weight,
        ),
        LinkStage(deps.graph, deps.linker, timeout_s=timeout),
        SearchStage(
            deps.embedder,
            deps.vector,
            deps.lexical,
            deps.graph,
            graph_depth=config.graph_depth,
            timeout_s=timeout,
        ),
        MergeStage(),
        FuseStage(),
        DedupeStage(
            deps.vector,
            rerank_depth=config.rerank_depth,
            reranks=deps.reranker is not None,
            threshold=config.near_duplicate_threshold,
            timeout_s=timeout,
        ),
        RerankStage(
            deps.reranker, depth=config.rerank_depth, unavailable=deps.reranker_unavailable
        ),
        RankStage(
            deps.ranker,
            deps.graph,
            deps.embedder,
            proposals=config.ranker_proposals,
            unavailable=deps.ranker_unavailable,
        ),
        DiagnoseStage(deps.diagnoser, deps.graph, timeout_s=timeout),
        LessonStage(deps.lessons, slots=config.lesson_slots),
        ScopeStage(deps.scope, deps.embedder, unavailable=deps.scope_unavailable),
        FinishStage(deps.embedder),
    ]
    by_kind = {type(stage): stage for stage in made}
    if missing := [kind.__name__ for kind in STAGES if kind not in by_kind]:
        raise ConfigurationError(f"no stage was made for {', '.join(missing)}")
    stages = tuple(by_kind[kind] for kind in STAGES)
    check_stage_order(stages)
    return stages
