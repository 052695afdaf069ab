"""The small async protocols every store backend implements: a read port for each store
(what the retriever needs) and a write port for the stores an ingest writes.

Adapters receive their clients through the constructor and do no I/O there; the
retriever only ever sees the read ports, the ingest pipeline only the write ports.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.manifest import Manifest
from tutorgraph_client.models.curriculum import Concept, Document, Misconception, Prerequisite
from tutorgraph_client.models.grade import Band, Grade
from tutorgraph_client.models.packet import HitKind
from tutorgraph_client.models.packet_info import Taxonomy

__all__ = [
    "MAX_TEXT_SEEDS",
    "MIN_RELATIVE_MATCH",
    "ConceptLinks",
    "ConceptMatch",
    "EdgeDirection",
    "GraphStore",
    "GraphWriter",
    "IndexItem",
    "IndexReader",
    "ItemSimilarity",
    "LessonSearch",
    "LexicalIndex",
    "LinkedCard",
    "MisconceptionLink",
    "PrerequisitePath",
    "ScoredItem",
    "VectorStore",
    "VectorWriter",
    "WriteProgress",
]


@dataclass(frozen=True)
class IndexItem:
    """One searchable text as the vector and lexical stores hold it."""

    id: str
    kind: HitKind
    title: str
    text: str
    concept_ids: tuple[str, ...] = ()
    # The record's `updated_at` in UTC ISO 8601 (comparable as text), when it has one.
    updated_at: str | None = None

    @property
    def search_text(self) -> str:
        """What is embedded and tokenised: the title gives short texts their topic."""
        return f"{self.title}. {self.text}" if self.title else self.text


@dataclass(frozen=True)
class ScoredItem:
    """A search result: the item and its score in that source (higher is better)."""

    item: IndexItem
    score: float


# How many concepts a text search may return to seed the graph (or a refiner's concepts),
# and the fraction of the best match a match must reach to count.
MAX_TEXT_SEEDS = 3
MIN_RELATIVE_MATCH = 0.6


@dataclass(frozen=True)
class ConceptMatch:
    """A concept the graph matched from text: its score relative to the best match (0-1],
    and whether the text named it exactly (a standard code such as 6.NS.A.1)."""

    concept: Concept
    score: float
    exact: bool = False


@dataclass(frozen=True)
class MisconceptionLink:
    """A misconception of `concept_id`, with its full-text relevance to the query (0 if none)."""

    misconception: Misconception
    concept_id: str
    relevance: float = 0.0


@dataclass(frozen=True)
class PrerequisitePath:
    """A prerequisite chain ending at `path[-1]`: `path[0]` comes first (depth = len - 1)."""

    path: tuple[str, ...]
    relations: tuple[str, ...] = field(default=())

    @property
    def depth(self) -> int:
        return len(self.path) - 1


@runtime_checkable
class VectorStore(Protocol):
    """Nearest-neighbour search over embeddings the project computes."""

    async def search(self, embedding: npt.NDArray[np.float32], k: int) -> list[ScoredItem]: ...

    async def embeddings(self, ids: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        """The stored vectors of these ids (unit length); ids the store lacks are left out."""
        ...

    async def count(self) -> int: ...

    async def aclose(self) -> None: ...


@runtime_checkable
class VectorWriter(Protocol):
    """The write port of a vector store: items with their embeddings and content hashes
    (an unchanged hash is not embedded again)."""

    async def upsert(
        self,
        items: Sequence[IndexItem],
        embeddings: npt.NDArray[np.float32],
        content_hashes: Sequence[str],
    ) -> None: ...

    async def delete(self, ids: Sequence[str]) -> None: ...

    async def content_hashes(self) -> dict[str, str]: ...

    async def embeddings(self, ids: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        """The stored vectors of `ids` (an index written before it kept its own copy)."""
        ...

    async def aclose(self) -> None: ...


@runtime_checkable
class LexicalIndex(Protocol):
    """BM25 search over the same items."""

    async def search(self, query: str, k: int) -> list[ScoredItem]: ...

    async def aclose(self) -> None: ...


# Which edges of a concept `GraphStore.edges_of` reads: those that end at it ("in": its
# prerequisites, and for a construct or section the standard it is aligned with) or those
# that start at it ("out": what builds on it, and for a standard what is aligned with it).
EdgeDirection = Literal["in", "out"]


@runtime_checkable
class GraphStore(Protocol):
    """The curriculum graph: concepts, prerequisite edges, misconceptions."""

    async def search_concepts(self, text: str, k: int) -> list[ConceptMatch]: ...

    async def get_concepts(self, ids: Sequence[str]) -> list[Concept]: ...

    async def unknown_concepts(self, ids: Sequence[str]) -> list[str]:
        """The ids among `ids` that name no concept of the graph."""
        ...

    async def get_misconceptions(self, ids: Sequence[str]) -> list[Misconception]:
        """The misconceptions with these ids, in the order asked; unknown ids are skipped."""
        ...

    async def prerequisite_chains(
        self, concept_ids: Sequence[str], depth: int
    ) -> list[PrerequisitePath]: ...

    async def edges_of(
        self, concept_ids: Sequence[str], direction: EdgeDirection
    ) -> list[Prerequisite]:
        """The concepts' `PREREQUISITE_OF` edges one hop in `direction`, each as its record
        (relation, source, and an alignment's score and method); ordered by the concept asked
        for (unknown ids are skipped, repeats read once), then relation, then the other end."""
        ...

    async def misconceptions_of(
        self, concept_ids: Sequence[str], query: str | None = None
    ) -> list[MisconceptionLink]:
        """Misconceptions linked to the concepts; with `query`, each gets a full-text relevance."""
        ...

    async def documents_of(
        self, concept_ids: Sequence[str], kinds: Sequence[str], limit: int
    ) -> list[Document]:
        """Documents of the given kinds linked to the concepts, at most `limit`, by id."""
        ...

    async def aclose(self) -> None: ...


# (kind, done, total) while a graph writes its records.
WriteProgress = Callable[[str, int, int], None]


@runtime_checkable
class GraphWriter(Protocol):
    """The write port of a graph store; every write is idempotent (merged on ids)."""

    async def ensure_schema(self) -> None:
        """Create what the reads need (constraints, full-text indexes) if it is missing."""
        ...

    async def upsert(
        self, records: SourceRecords, *, progress: WriteProgress | None = None
    ) -> dict[str, int]:
        """Merge the records in; returns rows written per kind."""
        ...

    async def prune(self, keep_ids: Sequence[str]) -> int:
        """Delete the nodes whose ids are not in `keep_ids`; returns how many."""
        ...

    async def aclose(self) -> None: ...


@dataclass(frozen=True)
class LinkedCard:
    """A concept a linker names for a text: its fused score and what chose it."""

    concept_id: str
    taxonomy: Taxonomy
    name: str
    score: float
    evidence: dict[str, float | int | None]
    description: str = ""


class ConceptLinks(Protocol):
    """A concept linker: the best concepts of each taxonomy for a text (`vector` is the
    text's embedding, when the caller has it; `grade`, the student's, is a prior; `tags`,
    the story's from the request's facts), and the grade band it reads from a text (None
    when it cannot)."""

    def link(
        self,
        text: str,
        k: int = 10,
        vector: npt.NDArray[np.float32] | None = None,
        *,
        grade: Grade | None = None,
        tags: frozenset[str] = frozenset(),
    ) -> dict[str, list[LinkedCard]]: ...

    def infer_band(
        self,
        text: str,
        vector: npt.NDArray[np.float32] | None = None,
        tags: frozenset[str] = frozenset(),
    ) -> tuple[Band, float] | None: ...


class LessonSearch(Protocol):
    """The index's lessons (explanations, worked examples), searched by a query vector."""

    def search(self, vector: npt.NDArray[np.float32], k: int) -> list[ScoredItem]: ...


class ItemSimilarity(Protocol):
    """The index's stored vectors, read by id: the cosine of a query vector with each item
    it holds (`ExactVectors`; an id it does not hold is left out)."""

    def similarities(
        self, vector: npt.NDArray[np.float32], ids: Sequence[str]
    ) -> dict[str, float]: ...


class IndexReader(Protocol):
    """An opened index as a retriever is built over it: the stores, the manifest's request
    defaults, and the lexical vocabulary (term -> document frequency) the spelling
    corrector learns from."""

    @property
    def manifest(self) -> Manifest: ...

    @property
    def vector(self) -> VectorStore: ...

    @property
    def lexical(self) -> LexicalIndex: ...

    @property
    def graph(self) -> GraphStore: ...

    @property
    def linker(self) -> ConceptLinks | None:
        """The concept linker over the index's concept cards, when the index stores them."""
        ...

    @property
    def lessons(self) -> LessonSearch | None:
        """The index's lessons with their stored vectors, when it has both."""
        ...

    @property
    def item_vectors(self) -> ItemSimilarity | None:
        """Every item's stored vector, by id, when the index has them."""
        ...

    def vocabulary(self) -> Mapping[str, int]: ...
