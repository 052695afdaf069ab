"""What the stages are made with besides the configuration: `StageDeps`, the stores and the
models (each stage's `make` takes what it needs from it), and why a model is missing when it
is (the packet's reasons).

>>> StageDeps(embedder, vector, lexical, graph).reranker_unavailable  # doctest: +SKIP
'no reranker configured'
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field

from tutorgraph.confidence.scope import ScopeModel
from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.embedding.reranker import Reranker
from tutorgraph.ranking.model import LearnedRanker
from tutorgraph.refinement.refiner import Refiner
from tutorgraph.retrieval.ranker_runtime import DeferredRanker
from tutorgraph.stores.breaker import Breakers
from tutorgraph.stores.protocols import (
    ConceptLinks,
    GraphStore,
    LessonSearch,
    LexicalIndex,
    VectorStore,
)

__all__ = ["NO_RANKER", "NO_RERANKER", "NO_SCOPE_MODEL", "StageDeps"]

NO_RERANKER = "no reranker configured"
NO_RANKER = "no learned ranker configured"
NO_SCOPE_MODEL = "no scope model configured"


@dataclass(frozen=True)
class StageDeps:
    """The stores and the models the stages run with (None: not configured; `*_unavailable`
    says why, in the packet)."""

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
    # Each source's circuit breaker (`stores/breaker.py`), shared by every stage that calls it.
    breakers: Breakers = field(default_factory=Breakers.make)
