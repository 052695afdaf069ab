"""A tiny in-memory index behind the real `HybridRetriever`, for API tests without models.

The graph and BM25 are the real embedded implementations over six records; only the
embedder and the vector store are fakes (no model, no Chroma).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tutorgraph.config import Settings
from tutorgraph.errors import StoreError
from tutorgraph.index.generations import activate, generation_name, live_generation, new_generation
from tutorgraph.index.local import LocalIndex
from tutorgraph.index.service import OpenRetriever
from tutorgraph.models.records import SourceRecords
from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.embedded_graph import EmbeddedGraphStore
from tutorgraph.stores.items import items_from_records
from tutorgraph.stores.manifest import Manifest
from tutorgraph.stores.protocols import (
    ConceptMatch,
    EdgeDirection,
    GraphStore,
    IndexItem,
    MisconceptionLink,
    PrerequisitePath,
    ScoredItem,
)
from tutorgraph_client.models.curriculum import Concept, Document, Misconception, Prerequisite

LICENSE = "CC-BY-4.0"
RECORDS = SourceRecords(
    concepts=[
        Concept(
            id="ccss:5.NF.A.1",
            name="5.NF.A.1",
            description="Add and subtract fractions with unlike denominators",
            kind="standard",
            source="test",
            license=LICENSE,
        ),
        Concept(
            id="ccss:6.NS.A.1",
            name="6.NS.A.1",
            description="Divide fractions by fractions",
            kind="standard",
            source="test",
            license=LICENSE,
        ),
    ],
    prerequisites=[
        Prerequisite(
            prerequisite_id="ccss:5.NF.A.1",
            concept_id="ccss:6.NS.A.1",
            relation="builds_towards",
            source="test",
        )
    ],
    misconceptions=[
        Misconception(
            id="eedi:misconception:1",
            text="Adds the numerators and adds the denominators",
            concept_ids=["ccss:5.NF.A.1"],
            source="test",
            license=LICENSE,
        )
    ],
    documents=[
        Document(
            id="openstax:m1:chunk:0",
            kind="explanation",
            title="Adding fractions",
            text="To add fractions with unlike denominators, find a common denominator.",
            concept_ids=["ccss:5.NF.A.1"],
            source="test",
            license=LICENSE,
        )
    ],
)


class FakeEmbedder:
    name = "fake-embedder"

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        return np.ones((len(texts), 4), dtype=np.float32)

    def count_tokens(self, text: str) -> int:
        return len(text.split())


class FakeVector:
    """Returns every item, best first by id; `fail` makes it raise."""

    def __init__(self, items: list[IndexItem]) -> None:
        self.items = items
        self.fail = False
        self.closed = False

    async def search(self, embedding: npt.NDArray[np.float32], k: int) -> list[ScoredItem]:
        if self.fail:
            raise ConnectionError("vector store down")
        return [ScoredItem(it, 1.0 - i / 10) for i, it in enumerate(self.items[:k])]

    async def embeddings(self, ids: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        # Distinct unit vectors: no fake item is a near-duplicate of another.
        if self.fail:
            raise ConnectionError("vector store down")
        known = {it.id: n for n, it in enumerate(self.items)}
        return {i: np.eye(len(self.items), dtype=np.float32)[known[i]] for i in ids if i in known}

    async def count(self) -> int:
        if self.fail:
            raise ConnectionError("vector store down")
        return len(self.items)

    async def aclose(self) -> None:
        self.closed = True


class SwitchableGraph:
    """The real embedded graph, made to fail on demand: `fail` raises what an adapter raises
    for a store that is down, a `StoreError` (a degraded source); `crash` a bug (a 500)."""

    def __init__(self, inner: GraphStore) -> None:
        self.inner = inner
        self.fail = False
        self.crash = False

    def _check(self) -> None:
        if self.crash:
            raise RuntimeError("a bug in the graph store")
        if self.fail:
            raise StoreError("graph store down")

    async def search_concepts(self, text: str, k: int) -> list[ConceptMatch]:
        self._check()
        return await self.inner.search_concepts(text, k)

    async def get_concepts(self, ids: Sequence[str]) -> list[Concept]:
        self._check()
        return await self.inner.get_concepts(ids)

    async def unknown_concepts(self, ids: Sequence[str]) -> list[str]:
        self._check()
        return await self.inner.unknown_concepts(ids)

    async def get_misconceptions(self, ids: Sequence[str]) -> list[Misconception]:
        self._check()
        return await self.inner.get_misconceptions(ids)

    async def prerequisite_chains(
        self, concept_ids: Sequence[str], depth: int
    ) -> list[PrerequisitePath]:
        self._check()
        return await self.inner.prerequisite_chains(concept_ids, depth)

    async def edges_of(
        self, concept_ids: Sequence[str], direction: EdgeDirection
    ) -> list[Prerequisite]:
        self._check()
        return await self.inner.edges_of(concept_ids, direction)

    async def misconceptions_of(
        self, concept_ids: Sequence[str], query: str | None = None
    ) -> list[MisconceptionLink]:
        self._check()
        return await self.inner.misconceptions_of(concept_ids, query)

    async def documents_of(
        self, concept_ids: Sequence[str], kinds: Sequence[str], limit: int
    ) -> list[Document]:
        self._check()
        return await self.inner.documents_of(concept_ids, kinds, limit)

    async def aclose(self) -> None:
        return None


def manifest() -> Manifest:
    return Manifest(embedder=FakeEmbedder.name, embedding_dim=4, bundle_hash="test")


def write_fake_index(directory: Path) -> Path:
    """An index folder whose live generation is a new one holding only a manifest (what
    `live_generation` needs); returns the index folder."""
    directory.mkdir(parents=True, exist_ok=True)
    if live_generation(directory) is not None:
        return directory
    generation = new_generation(directory, None)
    manifest().write(generation)
    activate(directory, generation)
    return directory


class FakeOpener:
    """An `open_retriever` stand-in: records every directory it opened and what it built."""

    def __init__(self) -> None:
        self.opened: list[Path] = []
        self.indexes: list[LocalIndex] = []

    def __call__(self, settings: Settings) -> OpenRetriever:
        items = items_from_records(RECORDS)
        live = live_generation(settings.index_dir)
        index = LocalIndex(
            manifest(),
            FakeVector(items),
            BM25Index.build(items),
            SwitchableGraph(EmbeddedGraphStore(RECORDS)),
            generation=generation_name(live) if live is not None else "legacy",
        )
        retriever = HybridRetriever(
            FakeEmbedder(),  # type: ignore[arg-type]
            index.vector,
            index.lexical,
            index.graph,
            RetrieverConfig(source_timeout_s=settings.source_timeout_s),
        )
        self.opened.append(live or settings.index_dir)
        self.indexes.append(index)
        return OpenRetriever(retriever, index)

    @property
    def graph(self) -> SwitchableGraph:
        graph = self.indexes[-1].graph
        assert isinstance(graph, SwitchableGraph)
        return graph

    @property
    def vector(self) -> FakeVector:
        vector = self.indexes[-1].vector
        assert isinstance(vector, FakeVector)
        return vector
