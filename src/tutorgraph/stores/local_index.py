"""The on-disk index under `TUTORGRAPH_INDEX_DIR`: vector, lexical and graph stores + manifest.

Layout::

    manifest.json   embedder, bundle hash, versions (written last)
    chroma/         ChromaDB persistent collection
    lexical/        BM25 index and its items
    catalogue/      every ingested record, as a bundle (the graph is built from it)

>>> index = open_index(Path(".tutorgraph"), embedder="sentence-transformers/all-MiniLM-L6-v2")
... # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tutorgraph.errors import IndexNotFoundError, StoreError
from tutorgraph.ingest.bundle import load_trusted
from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.chroma import ChromaVectorStore
from tutorgraph.stores.embedded_graph import EmbeddedGraphStore
from tutorgraph.stores.manifest import Manifest, check_embedder
from tutorgraph.stores.protocols import GraphStore, VectorStore

__all__ = [
    "IndexLayout",
    "OpenIndex",
    "chroma_http_client",
    "chroma_persistent_client",
    "load_catalogue",
    "open_index",
]


@dataclass(frozen=True)
class IndexLayout:
    root: Path

    @property
    def chroma(self) -> Path:
        return self.root / "chroma"

    @property
    def lexical(self) -> Path:
        return self.root / "lexical"

    @property
    def catalogue(self) -> Path:
        return self.root / "catalogue"


@dataclass
class OpenIndex:
    """The stores of one index, ready to search."""

    manifest: Manifest
    vector: VectorStore
    lexical: BM25Index
    graph: GraphStore

    async def aclose(self) -> None:
        for store in (self.vector, self.lexical, self.graph):
            await store.aclose()


def chroma_persistent_client(path: Path) -> Any:
    """An embedded Chroma client with telemetry off (the machines here have no network)."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    path.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(
        path=str(path), settings=ChromaSettings(anonymized_telemetry=False)
    )


def chroma_http_client(host: str, port: int) -> Any:
    """A client of a Chroma server (`chroma run`); it connects, so call it on first use."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    try:
        return chromadb.HttpClient(
            host=host, port=port, settings=ChromaSettings(anonymized_telemetry=False)
        )
    except ValueError as exc:  # chromadb's "Could not connect to a Chroma server"
        raise StoreError(f"Chroma server at {host}:{port} is not reachable: {exc}") from exc


def load_catalogue(layout: IndexLayout, *, documents: bool = True) -> SourceRecords:
    """The records ingested so far (none for a new index)."""
    if not layout.catalogue.is_dir():
        return SourceRecords()
    return load_trusted(layout.catalogue, documents=documents)


def open_index(
    index_dir: Path,
    *,
    embedder: str,
    chroma_client: Any = None,
    vector: VectorStore | None = None,
    graph: GraphStore | None = None,
) -> OpenIndex:
    """Open an index built by `tutorgraph ingest` (blocking: loads the graph and BM25 index).

    `vector` and `graph` replace the embedded stores (a Chroma server, Neo4j); the BM25
    index, the catalogue and the manifest always live in `index_dir`.
    """
    layout = IndexLayout(index_dir)
    manifest = Manifest.read(index_dir)
    if manifest is None:
        raise IndexNotFoundError(index_dir)
    check_embedder(manifest, embedder, index_dir)
    if vector is None:
        vector = (
            ChromaVectorStore(chroma_client)
            if chroma_client is not None
            else ChromaVectorStore(chroma_persistent_client(layout.chroma), owns_client=True)
        )
    return OpenIndex(
        manifest=manifest,
        vector=vector,
        lexical=BM25Index.load(layout.lexical),
        graph=graph or EmbeddedGraphStore.from_records(load_catalogue(layout)),
    )
