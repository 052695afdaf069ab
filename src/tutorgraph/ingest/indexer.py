"""Bundle -> stores: idempotent, incremental ingest into the local index.

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.errors import BundleRecordError, ConfigurationError
from tutorgraph.ingest.bundle import bundle_hash, validate_bundle, write_bundle
from tutorgraph.models.curriculum import Prerequisite
from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.chroma import ChromaVectorStore
from tutorgraph.stores.items import items_from_records
from tutorgraph.stores.local_index import (
    IndexLayout,
    chroma_persistent_client,
    load_catalogue,
)
from tutorgraph.stores.manifest import Manifest, check_embedder
from tutorgraph.stores.protocols import IndexItem

__all__ = ["IngestReport", "ProgressCallback", "ingest_bundle", "ingest_records"]

# (stage, done, total): the CLI draws progress bars from it.
ProgressCallback = Callable[[str, int, int], None]
_EMBED_BATCH = 256


@dataclass
class IngestReport:
    """What an ingest did."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    pruned: int = 0
    rejected: list[BundleRecordError] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def embedded(self) -> int:
        return self.added + self.updated


def _item_hash(item: IndexItem) -> str:
    row = [item.kind, item.title, item.text, list(item.concept_ids)]
    return hashlib.sha256(json.dumps(row, ensure_ascii=False).encode("utf-8")).hexdigest()


def _merge(old: SourceRecords, new: SourceRecords) -> SourceRecords:
    """New records replace old ones with the same id; old ones not in `new` stay."""

    def by_id(olds: list[Any], news: list[Any]) -> list[Any]:
        merged = {r.id: r for r in olds}
        merged.update({r.id: r for r in news})
        return list(merged.values())

    def edge_key(p: Prerequisite) -> tuple[str, str, str]:
        return (p.prerequisite_id, p.concept_id, p.relation)

    edges = {edge_key(p): p for p in old.prerequisites}
    edges.update({edge_key(p): p for p in new.prerequisites})
    merged = SourceRecords(
        concepts=by_id(old.concepts, new.concepts),
        prerequisites=list(edges.values()),
        misconceptions=by_id(old.misconceptions, new.misconceptions),
        documents=by_id(old.documents, new.documents),
    )
    # Keep the graph closed: drop references to concepts neither bundle holds.
    known = {c.id for c in merged.concepts}
    merged.prerequisites = [
        p for p in merged.prerequisites if p.prerequisite_id in known and p.concept_id in known
    ]
    return merged


async def ingest_records(
    records: SourceRecords,
    index_dir: Path,
    embedder: Embedder,
    *,
    source_hash: str,
    prune: bool = False,
    chroma_client: Any = None,
    progress: ProgressCallback | None = None,
    default_retrieval_profile: str | None = None,
    default_semantic_weight: float | None = None,
) -> IngestReport:
    """Ingest already-validated records into the index at `index_dir`.

    `default_retrieval_profile` / `default_semantic_weight` set the index's retrieval defaults
    (None keeps what the index had; a new index starts at `auto` with no weight).
    """
    if default_retrieval_profile not in (None, "auto", "exact", "balanced", "semantic"):
        raise ConfigurationError(
            f"unknown retrieval profile {default_retrieval_profile!r}; "
            "use auto, exact, balanced or semantic"
        )
    if default_semantic_weight is not None and not 0.0 <= default_semantic_weight <= 1.0:
        raise ConfigurationError(
            f"semantic weight must be in [0, 1], got {default_semantic_weight}"
        )
    started = time.perf_counter()
    layout = IndexLayout(index_dir)
    manifest = await asyncio.to_thread(Manifest.read, index_dir)
    if manifest is not None:
        check_embedder(manifest, embedder.name, index_dir)

    old = await asyncio.to_thread(load_catalogue, layout)
    catalogue = records if prune else _merge(old, records)
    items = items_from_records(catalogue)
    report = IngestReport()

    client = chroma_client or await asyncio.to_thread(chroma_persistent_client, layout.chroma)
    vector = ChromaVectorStore(client)
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

    dim = manifest.embedding_dim if manifest else 0
    for start in range(0, len(todo), _EMBED_BATCH):
        batch = todo[start : start + _EMBED_BATCH]
        vectors = await asyncio.to_thread(embedder.embed, [it.search_text for it in batch])
        dim = int(vectors.shape[1])
        await vector.upsert(batch, vectors, [hashes[it.id] for it in batch])
        if progress:
            progress("embed", start + len(batch), len(todo))
    if dim == 0:  # nothing to embed in a new index: still record the real dimension
        dim = int((await asyncio.to_thread(embedder.embed, ["dimension probe"])).shape[1])

    await asyncio.to_thread(_write_derived, layout, catalogue, items)
    if progress:
        progress("lexical", 1, 1)

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
        bundle_hash=source_hash,
        counts=report.counts,
        default_retrieval_profile=default_retrieval_profile
        or (manifest.default_retrieval_profile if manifest else "auto"),
        default_semantic_weight=default_semantic_weight
        if default_semantic_weight is not None
        else (manifest.default_semantic_weight if manifest else None),
    )
    await asyncio.to_thread(new_manifest.write, index_dir)
    report.seconds = time.perf_counter() - started
    return report


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


async def ingest_bundle(
    bundle_dir: Path,
    index_dir: Path,
    embedder: Embedder,
    *,
    prune: bool = False,
    chroma_client: Any = None,
    progress: ProgressCallback | None = None,
    default_retrieval_profile: str | None = None,
    default_semantic_weight: float | None = None,
) -> IngestReport:
    """Validate a bundle and ingest its valid records; bad records are reported, not stored."""
    validation = await asyncio.to_thread(validate_bundle, bundle_dir)
    report = await ingest_records(
        validation.records,
        index_dir,
        embedder,
        source_hash=bundle_hash(bundle_dir),
        prune=prune,
        chroma_client=chroma_client,
        progress=progress,
        default_retrieval_profile=default_retrieval_profile,
        default_semantic_weight=default_semantic_weight,
    )
    report.rejected = validation.errors
    return report
