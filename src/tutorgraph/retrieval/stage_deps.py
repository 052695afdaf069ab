"""What the stages are made with besides the configuration: `StageDeps`, the stores and the
models (each stage's `make` takes what it needs from it), each model with why it is missing
when it is (`Loaded`: the packet's reasons).

>>> StageDeps(embedder, vector, lexical, graph).reranker.reason  # doctest: +SKIP
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
from tutorgraph.retrieval.loaded import Loaded
from tutorgraph.retrieval.ranker_runtime import DeferredRanker
from tutorgraph.stores.breaker import Breakers
from tutorgraph.stores.protocols import (
    ConceptLinks,
    GraphStore,
    ItemSimilarity,
    LessonSearch,
    LexicalIndex,
    VectorStore,
)

__all__ = ["NO_RANKER", "NO_RERANKER", "NO_SCOPE_MODEL", "StageDeps"]

# Each model that is not given: why, in the packet's words (a retriever built by hand).
NO_RERANKER = Loaded.missing("no reranker configured")
NO_RANKER = Loaded.missing("no learned ranker configured")
NO_SCOPE_MODEL = Loaded.missing("no scope model configured")


@dataclass(frozen=True)
class StageDeps:
    """The stores and the models the stages run with (each model `Loaded`: its `reason`
    says why it is missing, in the packet)."""

    embedder: Embedder
    vector: VectorStore
    lexical: LexicalIndex
    graph: GraphStore
    _: KW_ONLY
    reranker: Loaded[Reranker] = NO_RERANKER
    refiner: Refiner | None = None
    ranker: Loaded[LearnedRanker | DeferredRanker] = NO_RANKER
    scope: Loaded[ScopeModel] = NO_SCOPE_MODEL
    diagnoser: Diagnoser | None = None
    linker: ConceptLinks | None = None
    lessons: LessonSearch | None = None
    # Every item's stored vector by id (the slots' similarity to the message; None: none).
    item_vectors: ItemSimilarity | None = None
    # Each source's circuit breaker (`stores/breaker.py`), shared by every stage that calls it.
    breakers: Breakers = field(default_factory=Breakers.make)
