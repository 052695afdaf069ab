"""An index on disk, opened: its vector, lexical and graph stores and its manifest.

`LocalIndex.open(dir)` and `LocalIndex.build(records, dir, embedder)` are async context
managers (or awaitables, for an index that outlives a block); the index owns the Chroma
client it opened, and closing it closes every store.

>>> async with LocalIndex.open(Path(".tutorgraph"), embedder=MINILM) as index:
...     print(index.manifest.counts["items"])  # doctest: +SKIP
>>> async with LocalIndex.build(records, Path("/tmp/idx"), embedder) as index:
...     retriever = build_retriever(index, Models(embedder))  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Generator
from pathlib import Path
from typing import Any, Self

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.index.layout import IndexLayout, load_catalogue
from tutorgraph.index.pipeline import IngestOptions, ingest_records
from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.chroma import ChromaVectorStore
from tutorgraph.stores.embedded_graph import EmbeddedGraphStore
from tutorgraph.stores.manifest import Manifest, require_manifest
from tutorgraph.stores.protocols import GraphStore, LexicalIndex, VectorStore

__all__ = ["AsyncClosing", "LocalIndex", "Opening"]


class AsyncClosing:
    """Closed by `aclose()`, or at the end of an `async with` block."""

    async def aclose(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class LocalIndex(AsyncClosing):
    """The stores of one index, ready to search (an `IndexReader`)."""

    def __init__(
        self, manifest: Manifest, vector: VectorStore, lexical: BM25Index, graph: GraphStore
    ) -> None:
        self._manifest = manifest
        self._vector = vector
        self._lexical = lexical
        self._graph = graph

    @property
    def manifest(self) -> Manifest:
        return self._manifest

    @property
    def vector(self) -> VectorStore:
        return self._vector

    @property
    def lexical(self) -> LexicalIndex:
        return self._lexical

    @property
    def graph(self) -> GraphStore:
        return self._graph

    def vocabulary(self) -> dict[str, int]:
        """Term -> how many items hold it, over the lexical index (the spelling corrector's
        vocabulary)."""
        return self._lexical.document_frequencies()

    async def aclose(self) -> None:
        for store in (self._vector, self._lexical, self._graph):
            await store.aclose()

    @classmethod
    def load(
        cls,
        index_dir: Path,
        *,
        embedder: str,
        vector: VectorStore | None = None,
        graph: GraphStore | None = None,
    ) -> LocalIndex:
        """Open an index built by `tutorgraph ingest` (blocking: loads the graph and BM25).

        `vector` and `graph` replace the embedded stores (a Chroma server, Neo4j); the BM25
        index, the catalogue and the manifest always live in `index_dir`. Without `vector`
        the index opens (on first use) and owns an embedded Chroma client.
        """
        layout = IndexLayout(index_dir)
        manifest = require_manifest(index_dir, embedder)
        if vector is None:
            own = ChromaVectorStore.embedded(layout.chroma)
            own.preload(manifest.embedding_dim)  # overlaps the loads below
            vector = own
        return cls(
            manifest,
            vector,
            BM25Index.load(layout.lexical),
            graph or EmbeddedGraphStore(load_catalogue(layout)),
        )

    @classmethod
    def open(cls, index_dir: Path, *, embedder: str) -> Opening:
        """`load` of the embedded stores in a worker thread, as `async with` or `await`."""
        return Opening(lambda: asyncio.to_thread(cls.load, index_dir, embedder=embedder))

    @classmethod
    def build(
        cls,
        records: SourceRecords,
        index_dir: Path,
        embedder: Embedder,
        options: IngestOptions | None = None,
    ) -> Opening:
        """Make the embedded index under `index_dir` hold `records` (merged into what it
        holds, or exactly them with `options.prune`), then open it with the same Chroma
        client."""
        options = options or IngestOptions()

        async def make() -> LocalIndex:
            vector = ChromaVectorStore.embedded(IndexLayout(index_dir).chroma)
            try:
                await ingest_records(records, index_dir, embedder, options, vector=vector)
                return await asyncio.to_thread(
                    cls.load, index_dir, embedder=embedder.name, vector=vector
                )
            except BaseException:
                await vector.aclose()
                raise

        return Opening(make)


class Opening:
    """An index being opened: `await` it for the index, or `async with` it to close the
    index at the end of the block."""

    def __init__(self, make: Callable[[], Awaitable[LocalIndex]]) -> None:
        self._make = make
        self._index: LocalIndex | None = None

    def __await__(self) -> Generator[Any, None, LocalIndex]:
        return self._make().__await__()

    async def __aenter__(self) -> LocalIndex:
        self._index = await self._make()
        return self._index

    async def __aexit__(self, *exc: object) -> None:
        if self._index is not None:
            await self._index.aclose()
