"""The request pipeline's stages, one module each; `STAGES` is their one order, the one
`HybridRetriever` runs (`build_stages` makes each with its `make`, `retrieval.pipeline` runs
them):

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

from tutorgraph.retrieval.pipeline import Stage, check_stage_order
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.stage_deps import StageDeps
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


def build_stages(deps: StageDeps, config: RetrieverConfig) -> tuple[Stage, ...]:
    """The stages of `STAGES`, in its order, each made by its `make` from `deps` and
    `config`; the order is checked (`check_stage_order`: a `ConfigurationError` when a stage
    reads a field no earlier stage writes)."""
    stages = tuple(kind.make(deps, config) for kind in STAGES)
    check_stage_order(stages)
    return stages
