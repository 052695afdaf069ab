"""The one ingest pipeline (the CLI, the API, the benchmarks): records -> the stores'
write ports. Idempotent and incremental.

Every ingest takes the index's writer lock first (`index/lock.py`: a second writer is
refused, naming the first, before it reads its bundle), opens the live generation's vector
store in a child process (`index/vector_check.py`: a store that would crash this process is
refused as damaged), copies the live generation into a new one (`index/generations.py`) and
writes there: the catalogue (every record), the BM25 index, every item's vector, the
embedded Chroma collection (or the `VectorWriter` given: a Chroma server), and the manifest
last, with the size and sha256 of every file it wrote; with a `GraphWriter` (Neo4j) the whole
catalogue is merged into it. Then one atomic switch makes the new generation live. A crash
at any step before the switch leaves the live generation as it was; the next writer removes
the half-built generation before anything else (`index/leftovers.py`) and starts again from
the live one (nothing is embedded twice: the bundle's and the live generation's vectors are
reused). An unchanged bundle re-embeds nothing; `prune=True` removes records that left the
bundle. A live generation whose catalogue or vector store is missing or damaged is refused
(merging into it would delete every item it no longer lists, or crash); a damaged vector
copy (`vectors/`) is rebuilt from the vector store. A full disk removes the half-built
generation and is reported in one line (`DiskFullError`).

The ingest's parts: `_ingest_options` (options and report), `_ingest_vectors` (the vectors it
writes); a bundle's own preparation: `_bundle_vectors` (`embed_bundle`), `_bundle_alignment`
(`align_bundle`). Their public names are imported from here.

>>> report = await ingest_bundle(Path("data/curriculum"), Path(".tutorgraph"), embedder)
... # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TypedDict, Unpack

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.embedding.stored_vectors import StoredVectors
from tutorgraph.errors import BundleError, ConfigurationError, IndexDamagedError
from tutorgraph.index._bundle_alignment import align_bundle
from tutorgraph.index._bundle_vectors import STORED_VECTORS_DIR, embed_bundle
from tutorgraph.index._ingest_options import (
    REJECTS_LISTED,
    IngestOptions,
    IngestReport,
    ProgressCallback,
)
from tutorgraph.index._ingest_vectors import _write_item_vectors, _write_vectors, card_texts
from tutorgraph.index.diskspace import (
    disk_full_error,
    folder_bytes,
    free_bytes,
    is_disk_full,
    nearly_full,
)
from tutorgraph.index.generations import (
    activate,
    collect,
    generation_name,
    live_generation,
    new_generation,
)
from tutorgraph.index.integrity import (
    REPAIR_HINT,
    catalogue_problem,
    check_files,
    fingerprint_files,
    finite_only,
    nonfinite_rows,
    record_counts,
)
from tutorgraph.index.layout import IndexLayout, load_catalogue
from tutorgraph.index.leftovers import remove_leftovers
from tutorgraph.index.lock import WriterLock
from tutorgraph.index.references import validate_for_index
from tutorgraph.index.vector_check import check_vector_store
from tutorgraph.ingest.bundle import ValidationReport, bundle_hash, write_bundle
from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.chroma import ChromaVectorStore
from tutorgraph.stores.items import items_from_records
from tutorgraph.stores.manifest import Manifest, check_embedder
from tutorgraph.stores.protocols import GraphWriter, IndexItem, VectorWriter

__all__ = [
    "REJECTS_LISTED",
    "STORED_VECTORS_DIR",
    "IngestOptions",
    "IngestReport",
    "ProgressCallback",
    "Writers",
    "align_bundle",
    "card_texts",
    "embed_bundle",
    "ingest_bundle",
    "ingest_locked",
    "ingest_records",
    "validate_for_ingest",
    "writing",
]

log = logging.getLogger(__name__)
# What a new item adds to a generation on disk, about (Chroma's row, HNSW node and full-text
# entry, its vector copy, BM25 and catalogue lines): the disk-full message's estimate.
_BYTES_PER_NEW_ITEM = 12 * 1024


async def ingest_records(
    records: SourceRecords,
    index_dir: Path,
    embedder: Embedder,
    options: IngestOptions | None = None,
    *,
    vector: VectorWriter | None = None,
    graph: GraphWriter | None = None,
    stored: StoredVectors | None = None,
    lock: WriterLock | None = None,
) -> IngestReport:
    """Ingest already-validated records into a new generation of the index at `index_dir`,
    under its writer lock, and make that generation live.

    Without `vector`, the vectors go to the generation's embedded Chroma collection (opened
    and closed here). The caller owns (and closes) the writers it passes. A text whose vector
    is in `stored` (computed by the same model) or in the live generation is not embedded
    again. Raises `IndexBusyError` when another writer holds the index; `lock`, when given,
    is the index's writer lock that the caller already holds (and releases). A record over
    a limit of `tutorgraph.models.limits` is a `BundleError` naming it, and nothing is
    written (a bundle's such records are rejected as it is read).
    """
    options = options or IngestOptions()
    options.check()
    if over := await asyncio.to_thread(records.over_limits):
        raise BundleError(
            f"{len(over)} record(s) over the record limits; nothing was changed. First: {over[0]}"
        )
    async with writing(index_dir, options.writer, lock):
        return await ingest_locked(records, index_dir, embedder, options, vector, graph, stored)


@contextlib.asynccontextmanager
async def writing(
    index_dir: Path, writer: str, lock: WriterLock | None = None, *, tidy: bool = True
) -> AsyncIterator[WriterLock]:
    """The index's writer lock for a block: `lock` when the caller holds it already (it stays
    held after the block), else taken now and released after it. A lock taken here first
    removes what stopped writers left (`index/leftovers.py`: a half-built generation, a dead
    upload), before anything looks at the free space; `tidy=False` leaves that to the
    caller."""
    if lock is not None and lock.held:
        yield lock
        return
    own = WriterLock(index_dir, writer)
    await asyncio.to_thread(own.acquire)
    try:
        if tidy:
            await asyncio.to_thread(remove_leftovers, index_dir)
        yield own
    finally:
        own.release()


def _live_catalogue(live: Path, manifest: Manifest) -> SourceRecords:
    """The live generation's records, refused when they are not what its manifest counted
    (an ingest merged into a damaged catalogue would delete every item it lost)."""
    layout = IndexLayout(live)
    problems = check_files(layout, manifest)
    try:
        records = load_catalogue(layout)
    except (OSError, ValueError) as exc:
        raise IndexDamagedError(
            f"the index's catalogue cannot be read ({type(exc).__name__}); {REPAIR_HINT} "
            "before ingesting into it"
        ) from exc
    if (wrong := catalogue_problem(records, manifest)) is not None:
        problems.append(wrong)
    damaged = [p for p in problems if p.source == "graph"]
    if damaged:
        raise IndexDamagedError(
            f"the index's catalogue is damaged ({damaged[0].message}); {REPAIR_HINT} before "
            "ingesting into it (an ingest merges into the catalogue and deletes what it lacks)"
        )
    return records


async def ingest_locked(
    records: SourceRecords,
    index_dir: Path,
    embedder: Embedder,
    options: IngestOptions,
    vector: VectorWriter | None = None,
    graph: GraphWriter | None = None,
    stored: StoredVectors | None = None,
    *,
    live_intact: bool | None = None,
) -> IngestReport:
    """`ingest_records` for a caller that holds the index's writer lock (a repair).
    `live_intact=False` says the live generation is damaged (a repair found it so): it is
    never recorded as the previous generation."""
    progress = options.progress
    started = time.perf_counter()
    live = await asyncio.to_thread(live_generation, index_dir, recover=True)
    manifest = await asyncio.to_thread(Manifest.read, live) if live is not None else None
    if manifest is not None:
        check_embedder(manifest, embedder.name, index_dir)
    old = SourceRecords()
    if live is not None and manifest is not None:
        old = await asyncio.to_thread(_live_catalogue, live, manifest)
    catalogue = records if options.prune else old.merged(records)
    items = items_from_records(catalogue)
    report = IngestReport()

    source = None if options.fresh else live
    copied = await asyncio.to_thread(folder_bytes, source) if source is not None else 0
    needed = _needed_bytes(copied, manifest, len(items))
    outgoing_intact: bool | None = None
    if live is not None and manifest is not None:
        outgoing_intact = await asyncio.to_thread(
            _check_live_vectors, live, manifest, copied=source is not None and vector is None
        )
        if outgoing_intact is None:  # Chroma cannot open the live store for want of space
            raise disk_full_error(index_dir, needed, live=_name(live))
        if live_intact is False:
            outgoing_intact = False
    if copied and await asyncio.to_thread(free_bytes, index_dir) < copied:
        raise disk_full_error(index_dir, needed, live=_name(live))  # not even the copy fits
    stored = finite_only(stored)
    target: Path | None = None
    try:
        target = await asyncio.to_thread(new_generation, index_dir, source, manifest=False)
        layout = IndexLayout(target)
        kept = await asyncio.to_thread(_kept_vectors, layout, options.rebuild_vector_copy)
        own = vector is None
        writer = ChromaVectorStore.embedded(layout.chroma) if vector is None else vector
        try:
            fresh = await _write_vectors(writer, items, embedder, report, progress, [stored, kept])
            dim = await _write_item_vectors(
                layout,
                items,
                card_texts(catalogue),
                embedder,
                fresh,
                [stored, kept],
                writer,
                report,
            )
        finally:
            if own:
                await writer.aclose()  # Chroma's files are complete once its client closes

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

        report.counts = {**record_counts(catalogue), "items": len(items)}
        new_manifest = Manifest(
            embedder=embedder.name,
            embedding_dim=dim or (manifest.embedding_dim if manifest else 0),
            bundle_hash=options.source_hash,
            counts=report.counts,
            default_retrieval_profile=options.default_retrieval_profile
            or (manifest.default_retrieval_profile if manifest else "auto"),
            default_semantic_weight=options.default_semantic_weight
            if options.default_semantic_weight is not None
            else (manifest.default_semantic_weight if manifest else None),
            near_duplicate_threshold=options.near_duplicate_threshold
            or (manifest.near_duplicate_threshold if manifest else None),
            files=await asyncio.to_thread(fingerprint_files, layout),
            hnsw_checksums=True,
        )
        await asyncio.to_thread(new_manifest.write, target)
        await asyncio.to_thread(
            activate, index_dir, target, outgoing_intact=outgoing_intact, base=live
        )
    except BaseException as exc:
        # The live generation is untouched; a crash that skips this is tidied by `collect`.
        full = isinstance(exc, Exception) and (
            is_disk_full(exc) or await asyncio.to_thread(nearly_full, index_dir)
        )
        written = 0
        if target is not None:
            written = await asyncio.to_thread(folder_bytes, target)
            await asyncio.to_thread(shutil.rmtree, target, True)
        if full:
            raise disk_full_error(index_dir, max(needed, written), live=_name(live)) from exc
        raise
    try:
        await asyncio.to_thread(collect, index_dir)
    except Exception as exc:  # the new generation is live; the next writer collects again
        log.warning("could not delete the old generations: %s: %s", type(exc).__name__, exc)
    report.generation = target.name
    report.seconds = time.perf_counter() - started
    return report


def _name(live: Path | None) -> str | None:
    return generation_name(live) if live is not None else None


def _needed_bytes(copied: int, manifest: Manifest | None, items: int) -> int:
    """About what the new generation takes on disk: a copy of the live one (`copied` bytes)
    and what the new items add."""
    before = manifest.counts.get("items", 0) if manifest is not None else 0
    return copied + max(0, items - before) * _BYTES_PER_NEW_ITEM + (1 << 20)


def _check_live_vectors(live: Path, manifest: Manifest, *, copied: bool) -> bool | None:
    """Whether the live generation is intact as far as its files and vectors go (it is
    recorded as the previous generation when it is); None when its vector store cannot be
    opened for want of disk space. When its vector store is to be copied and opened here,
    one that fails its file checks or crashes a child process is refused."""
    layout = IndexLayout(live)
    problems = check_files(layout, manifest)
    try:
        copy = StoredVectors.read(layout.vectors)
        nan = nonfinite_rows(copy) if copy is not None else 0
    except ConfigurationError:
        nan = 1
    chroma = next((p for p in problems if p.part == "chroma"), None)
    if not copied:
        return not problems and not nan
    if chroma is None:
        verdict = check_vector_store(live)
        if verdict.disk_full:
            return None
        chroma = verdict.problem
    if chroma is not None:
        raise IndexDamagedError(
            f"the index's vector store is damaged ({chroma.message}); {REPAIR_HINT} before "
            "ingesting into it"
        )
    return not problems and not nan


def _kept_vectors(layout: IndexLayout, rebuild: bool) -> StoredVectors | None:
    """The vector copy the new generation was copied with: its finite vectors, or nothing
    when it is to be rebuilt or cannot be read (it is then rebuilt from the vector store)."""
    if not rebuild:
        try:
            return finite_only(StoredVectors.read(layout.vectors))
        except ConfigurationError as exc:
            log.warning("the live vector copy cannot be read (%s): rebuilding it", exc)
    shutil.rmtree(layout.vectors, ignore_errors=True)
    return None


def _write_derived(layout: IndexLayout, catalogue: SourceRecords, items: list[IndexItem]) -> None:
    # The generation is not live yet: written in place, switched in by `activate`.
    shutil.rmtree(layout.catalogue, ignore_errors=True)
    write_bundle(catalogue, layout.catalogue)
    BM25Index.build(items).save(layout.lexical)


class Writers(TypedDict, total=False):
    """The write ports an ingest may be given besides the index folder's own stores."""

    vector: VectorWriter | None
    graph: GraphWriter | None


def validate_for_ingest(
    bundle_dir: Path, index_dir: Path, *, prune: bool = False, writer: bool = False
) -> ValidationReport:
    """The one rule of `tutorgraph ingest` and `POST /v1/ingest` for bad records: each is
    rejected with its file, line and reason and the valid ones are ingested, so one bad
    record does not cost an author the rest; a pruning ingest refuses the whole bundle
    (`BundleError`, nothing changed), since it would remove the rejected records' ids from
    the index too. The records may reference the index's concepts unless `prune`
    (`validate_for_index`); `writer`: the caller holds the index's writer lock."""
    validation = validate_for_index(bundle_dir, index_dir, prune=prune, writer=writer)
    if prune and validation.errors:
        hint = (
            " (a pruning ingest keeps only the bundle, so it may reference only its own "
            "concepts; without pruning it is added to the index and may reference those)"
            if any(e.reason.startswith("unknown") for e in validation.errors)
            else ""
        )
        raise BundleError(
            f"{len(validation.errors)} invalid record(s) in the bundle, and pruning would "
            f"remove them from the index; nothing was changed{hint}. First: "
            f"{validation.errors[0]}",
            errors=validation.errors,
        )
    return validation


async def ingest_bundle(
    bundle_dir: Path,
    index_dir: Path,
    embedder: Embedder,
    options: IngestOptions | None = None,
    *,
    lock: WriterLock | None = None,
    **writers: Unpack[Writers],
) -> IngestReport:
    """`ingest_records` of a bundle's valid records; bad records are reported, not stored
    (`validate_for_ingest`: a pruning ingest with a bad record is refused whole).
    `options.source_hash` is replaced by the bundle's hash; the bundle's stored vectors
    (`BUNDLE/embeddings/`, written by `tutorgraph embed-bundle`) are used where they fit.
    The writer lock is taken before the bundle is read: a second writer is refused at once.

    The records are merged into what the index holds (nothing is removed unless
    `options.prune`), so a bundle may reference the index's concepts as well as its own (an
    add-on bundle: `index/references.py`); with `prune` only its own."""
    options = options or IngestOptions()
    options.check()
    async with writing(index_dir, options.writer, lock):
        validation = await asyncio.to_thread(
            partial(validate_for_ingest, prune=options.prune, writer=True), bundle_dir, index_dir
        )
        stored = await asyncio.to_thread(StoredVectors.read, bundle_dir / STORED_VECTORS_DIR)
        options = replace(options, source_hash=bundle_hash(bundle_dir))
        report = await ingest_locked(
            validation.records,
            index_dir,
            embedder,
            options,
            writers.get("vector"),
            writers.get("graph"),
            stored,
        )
    report.rejected = validation.errors
    return report
