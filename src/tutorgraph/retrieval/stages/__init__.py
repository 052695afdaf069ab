"""The request pipeline's stages, one module each; `STAGES` is their one order, the one
`HybridRetriever` runs (`build_stages` makes each with its `make`, `retrieval.pipeline` runs
them):

check, refine, facts, route, link, search, merge, fuse, dedupe, rerank, rank, diagnose,
lessons, scope, finish.

Each stage declares the `RequestState` fields it reads and writes (`Stage.reads`,
`Stage.writes`); `check_stage_order` refuses an order in which a stage reads a field no
earlier stage writes, and `stage_table` renders the declarations (DESIGN section 2). The
stage modules are private (`_route.py`): the rest of the code, research and the tests use the
stage classes this package exports, and the logic a stage calls lives in `retrieval/` beside
it; no stage module imports another. Import-linter contracts hold both.

>>> [s.name for s in STAGES][:4]
['check', 'refine', 'facts', 'route']
>>> stages = build_stages(StageDeps(embedder, vector, lexical, graph), RetrieverConfig())
... # doctest: +SKIP
"""

from __future__ import annotations

from tutorgraph.retrieval.pipeline import Stage, check_stage_order
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import StageDeps
from tutorgraph.retrieval.stages._check import CheckStage
from tutorgraph.retrieval.stages._dedupe import DedupeStage
from tutorgraph.retrieval.stages._diagnose import DiagnoseStage
from tutorgraph.retrieval.stages._facts import FactsStage
from tutorgraph.retrieval.stages._finish import FinishStage
from tutorgraph.retrieval.stages._fuse import FuseStage
from tutorgraph.retrieval.stages._lessons import LessonStage
from tutorgraph.retrieval.stages._link import LinkStage
from tutorgraph.retrieval.stages._merge import MergeStage
from tutorgraph.retrieval.stages._rank import RankStage
from tutorgraph.retrieval.stages._refine import RefineStage
from tutorgraph.retrieval.stages._rerank import RerankStage
from tutorgraph.retrieval.stages._route import RouteStage
from tutorgraph.retrieval.stages._scope import ScopeStage
from tutorgraph.retrieval.stages._search import SearchStage

__all__ = [
    "STAGES",
    "CheckStage",
    "DedupeStage",
    "DiagnoseStage",
    "FactsStage",
    "FinishStage",
    "FuseStage",
    "LessonStage",
    "LinkStage",
    "MergeStage",
    "RankStage",
    "RefineStage",
    "RerankStage",
    "RouteStage",
    "ScopeStage",
    "SearchStage",
    "StageDeps",
    "build_stages",
]

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


def build_stages(deps: StageDeps, config: RetrieverConfig) -> tuple[Stage, ...]:
    """The stages of `STAGES`, in its order, each made by its `make` from `deps` and
    `config`; the order is checked (`check_stage_order`: a `ConfigurationError` when a stage
    reads a field no earlier stage writes)."""
    stages = tuple(kind.make(deps, config) for kind in STAGES)
    check_stage_order(stages)
    return stages
