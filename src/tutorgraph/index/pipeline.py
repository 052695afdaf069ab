"""The one ingest pipeline (the CLI, the API, the benchmarks): records -> the stores'
write ports. Idempotent and incremental.

The index folder always keeps the catalogue (every record), the BM25 index and the
manifest; the vectors go to the embedded Chroma collection or to the `VectorWriter` given
(a Chroma server), and with a `GraphWriter` (Neo4j) the whole catalogue is merged into it.
An unchanged bundle re-embeds nothing; `prune=True` removes records that left the bundle.
Vectors are upserted batch by batch, and the manifest is written last, so an interrupted
ingest keeps what it stored and a re-run completes it.

>>> report = await ingest_bundle(Path("data/curriculum"), Path(".tutorgraph"), embedder)
... # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypedDict, Unpack

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.errors import BundleRecordError, ConfigurationError
from tutorgraph.index.layout import IndexLayout, load_catalogue
from tutorgraph.ingest.bundle import bundle_hash, validate_bundle, write_bundle
from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.chroma import ChromaVectorStore
from tutorgraph.stores.items import items_from_records
from tutorgraph.stores.manifest import Manifest, check_embedder
from tutorgraph.stores.protocols import GraphWriter, IndexItem, VectorWriter

__all__ = [
    "IngestOptions",
    "IngestReport",
    "ProgressCallback",
    "Writers",
    "ingest_bundle",
    "ingest_records",
]

# (stage, done, total): the CLI draws progress bars from it.
ProgressCallback = Callable[[str, int, int], None]
_EMBED_BATCH = 256


@dataclass(frozen=True)
class IngestOptions:
    """How an ingest runs.

    `source_hash` is recorded in the manifest (the bundle's hash); `prune` makes the index
    hold exactly the records given; `progress` is called as (stage, done, total); the
    defaults set the index's retrieval defaults (None keeps what the index had; a new
    index starts at `auto` with no weight).
    """

    source_hash: str = "records"
    prune: bool = False
    progress: ProgressCallback | None = None
    default_retrieval_profile: str | None = None
    default_semantic_weight: float | None = None

    def check(self) -> None:
        if self.default_retrieval_profile not in (None, "auto", "exact", "balanced", "semantic"):
            raise ConfigurationError(
                f"unknown retrieval profile {self.default_retrieval_profile!r}; "
                "use auto, exact, balanced or semantic"
            )
        weight = self.default_semantic_weight
        if weight is not None and not 0.0 <= weight <= 1.0:
            raise ConfigurationError(f"semantic weight must be in [0, 1], got {weight}")


@dataclass
class IngestReport:
    """What an ingest did."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    pruned: int = 0
    rejected: list[BundleRecordError] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    # Rows merged into the graph store (a `GraphWriter`, e.g. Neo4j) per kind, else None.
    graph: dict[str, int] | None = None
    seconds: float = 0.0

    @property
    def embedded(self) -> int:
        return self.added + self.updated


def _item_hash(item: IndexItem) -> str:
    row = [item.kind, item.title, item.text, list(item.concept_ids)]
    return hashlib.sha256(json.dumps(row, ensure_ascii=False).encode("utf-8")).hexdigest()


async def ingest_records(
    records: SourceRecords,
    index_dir: Path,
    embedder: Embedder,
    options: IngestOptions | None = None,
    *,
    vector: VectorWriter | None = None,
    graph: GraphWriter | None = None,
) -> IngestReport:
    """Ingest already-validated records into the index at `index_dir`.

    Without `vector`, the vectors go to the index's embedded Chroma collection (opened and
    closed here). The caller owns (and closes) the writers it passes.
    """
    options = options or IngestOptions()
    options.check()
    progress = options.progress
    started = time.perf_counter()
    layout = IndexLayout(index_dir)
    manifest = await asyncio.to_thread(Manifest.read, index_dir)
    if manifest is not None:
        check_embedder(manifest, embedder.name, index_dir)

    old = await asyncio.to_thread(load_catalogue, layout)
    catalogue = records if options.prune else old.merged(records)
    items = items_from_records(catalogue)
    report = IngestReport()

    own = vector is None
    writer = ChromaVectorStore.embedded(layout.chroma) if vector is None else vector
    try:
        dim = await _write_vectors(writer, items, embedder, report, progress)
    finally:
        if own:
            await writer.aclose()
    if dim == 0:  # nothing embedded: keep the index's dimension, or probe a new one's
        dim = manifest.embedding_dim if manifest else 0
    if dim == 0:
        dim = int((await asyncio.to_thread(embedder.embed, ["dimension probe"])).shape[1])

    await asyncio.to_thread(_write_derived, layout, catalogue, items)
    if progress:
        progress("lexical", 1, 1)
    if graph is not None:
        await graph.ensure_schema()
        report.graph = await graph.upsert(
            catalogue,
            progress=(lambda kind, d, t: progress(f"graph {kind}", d, t)) if progress else None,
        )
        if options.prune:
            report.graph["pruned"] = await graph.prune(catalogue.node_ids())

    report.counts = {
        "concepts": len(catalogue.concepts),
        "prerequisites": len(catalogue.prerequisites),
        "misconceptions": len(catalogue.misconceptions),
        "documents": len(catalogue.documents),
        "items": len(items),
    }
    new_manifest = Manifest(
        embedder=embedder.name,
        embedding_dim=dim,
        bundle_hash=options.source_hash,
        counts=report.counts,
        default_retrieval_profile=options.default_retrieval_profile
        or (manifest.default_retrieval_profile if manifest else "auto"),
        default_semantic_weight=options.default_semantic_weight
        if options.default_semantic_weight is not None
        else (manifest.default_semantic_weight if manifest else None),
    )
    await asyncio.to_thread(new_manifest.write, index_dir)
    report.seconds = time.perf_counter() - started
    return report


async def _write_vectors(
    vector: VectorWriter,
    items: list[IndexItem],
    embedder: Embedder,
    report: IngestReport,
    progress: ProgressCallback | None,
) -> int:
    """Embed and upsert the items whose content changed, delete the ones that left; returns
    the embedding dimension (0 when nothing was embedded)."""
    stored = await vector.content_hashes()
    hashes = {it.id: _item_hash(it) for it in items}
    todo = [it for it in items if stored.get(it.id) != hashes[it.id]]
    # Batches of similar length waste little compute on padding.
    todo.sort(key=lambda it: (len(it.search_text), it.id))
    report.added = sum(1 for it in todo if it.id not in stored)
    report.updated = len(todo) - report.added
    report.unchanged = len(items) - len(todo)

    stale = sorted(set(stored) - set(hashes))
    await vector.delete(stale)
    report.pruned = len(stale)

    dim = 0
    for start in range(0, len(todo), _EMBED_BATCH):
        batch = todo[start : start + _EMBED_BATCH]
        vectors = await asyncio.to_thread(embedder.embed, [it.search_text for it in batch])
        dim = int(vectors.shape[1])
        await vector.upsert(batch, vectors, [hashes[it.id] for it in batch])
        if progress:
            progress("embed", start + len(batch), len(todo))
    return dim


def _write_derived(layout: IndexLayout, catalogue: SourceRecords, items: list[IndexItem]) -> None:
    layout.root.mkdir(parents=True, exist_ok=True)
    tmp = layout.catalogue.with_name("catalogue.tmp")
    write_bundle(catalogue, tmp)
    if layout.catalogue.exists():
        for f in layout.catalogue.iterdir():
            f.unlink()
        layout.catalogue.rmdir()
    tmp.rename(layout.catalogue)
    BM25Index.build(items).save(layout.lexical)


class Writers(TypedDict, total=False):
    """The write ports an ingest may be given besides the index folder's own stores."""

    vector: VectorWriter | None
    graph: GraphWriter | None


async def ingest_bundle(
    bundle_dir: Path,
    index_dir: Path,
    embedder: Embedder,
    options: IngestOptions | None = None,
    **writers: Unpack[Writers],
) -> IngestReport:
    """`ingest_records` of a bundle's valid records; bad records are reported, not stored.
    `options.source_hash` is replaced by the bundle's hash."""
    validation = await asyncio.to_thread(validate_bundle, bundle_dir)
    options = replace(options or IngestOptions(), source_hash=bundle_hash(bundle_dir))
    report = await ingest_records(validation.records, index_dir, embedder, options, **writers)
    report.rejected = validation.errors
    return report
