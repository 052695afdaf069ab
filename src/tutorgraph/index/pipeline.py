"""The one ingest pipeline (the CLI, the API, the benchmarks): records -> the stores'
write ports. Idempotent and incremental.

Every ingest takes the index's writer lock (`index/lock.py`: a second writer is refused,
naming the first), copies the live generation into a new one (`index/generations.py`) and
writes there: the catalogue (every record), the BM25 index, every item's vector, the
embedded Chroma collection (or the `VectorWriter` given: a Chroma server), and the manifest
last, with the size and sha256 of every file it wrote; with a `GraphWriter` (Neo4j) the whole
catalogue is merged into it. Then one atomic switch makes the new generation live. A crash
at any step before the switch leaves the live generation as it was; a re-run starts again
from it (nothing is embedded twice: the bundle's and the live generation's vectors are
reused). An unchanged bundle re-embeds nothing; `prune=True` removes records that left the
bundle. A live generation whose catalogue is missing or damaged is refused: merging into it
would delete every item it no longer lists.

>>> report = await ingest_bundle(Path("data/curriculum"), Path(".tutorgraph"), embedder)
... # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypedDict, Unpack

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.embedding.stored_vectors import StoredVectors, as_stored, model_fingerprint
from tutorgraph.errors import BundleRecordError, ConfigurationError, IndexDamagedError
from tutorgraph.folders import replaced
from tutorgraph.index.generations import activate, collect, live_generation, new_generation
from tutorgraph.index.integrity import (
    REPAIR_HINT,
    catalogue_problem,
    check_files,
    fingerprint_files,
    record_counts,
)
from tutorgraph.index.layout import IndexLayout, load_catalogue
from tutorgraph.index.lock import WriterLock
from tutorgraph.ingest.bundle import bundle_hash, validate_bundle, write_bundle
from tutorgraph.linking.alignment import ALIGNED, SHIPPED, alignments, items_by_concept
from tutorgraph.linking.cards import build_cards
from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.chroma import ChromaVectorStore
from tutorgraph.stores.items import items_from_records
from tutorgraph.stores.manifest import Manifest, check_embedder
from tutorgraph.stores.protocols import GraphWriter, IndexItem, VectorWriter

__all__ = [
    "STORED_VECTORS_DIR",
    "IngestOptions",
    "IngestReport",
    "ProgressCallback",
    "Writers",
    "align_bundle",
    "embed_bundle",
    "ingest_bundle",
    "ingest_records",
]

log = logging.getLogger(__name__)

# (stage, done, total): the CLI draws progress bars from it.
ProgressCallback = Callable[[str, int, int], None]
_EMBED_BATCH = 256
# A bundle's stored vectors, inside the bundle folder.
STORED_VECTORS_DIR = "embeddings"


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
    # None keeps the index's (off for a new index); 1.0 merges identical vectors only.
    near_duplicate_threshold: float | None = None
    # Who writes, as a second writer's error names it.
    writer: str = "an ingest"
    # Build every store afresh instead of from a copy of the live generation (a repair of a
    # damaged vector store); the live catalogue is still merged unless `prune`.
    fresh: bool = False

    def check(self) -> None:
        if self.default_retrieval_profile not in (None, "auto", "exact", "balanced", "semantic"):
            raise ConfigurationError(
                f"unknown retrieval profile {self.default_retrieval_profile!r}; "
                "use auto, exact, balanced or semantic"
            )
        weight = self.default_semantic_weight
        if weight is not None and not 0.0 <= weight <= 1.0:
            raise ConfigurationError(f"semantic weight must be in [0, 1], got {weight}")
        threshold = self.near_duplicate_threshold
        if threshold is not None and not 0.5 <= threshold <= 1.0:
            raise ConfigurationError(
                f"near-duplicate threshold must be in [0.5, 1], got {threshold}"
            )


@dataclass
class IngestReport:
    """What an ingest did."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    pruned: int = 0
    rejected: list[BundleRecordError] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    # Vectors taken from the bundle's stored vectors instead of embedded (of added + updated).
    reused: int = 0
    # Rows merged into the graph store (a `GraphWriter`, e.g. Neo4j) per kind, else None.
    graph: dict[str, int] | None = None
    # The generation this ingest made live.
    generation: str = ""
    seconds: float = 0.0

    @property
    def embedded(self) -> int:
        """Texts run through the embedder."""
        return self.added + self.updated - self.reused


def _item_hash(item: IndexItem) -> str:
    row = [item.kind, item.title, item.text, list(item.concept_ids)]
    if item.updated_at:  # a new version is written again (without one, the hash is as before)
        row.append(item.updated_at)
    return hashlib.sha256(json.dumps(row, ensure_ascii=False).encode("utf-8")).hexdigest()


async def ingest_records(
    records: SourceRecords,
    index_dir: Path,
    embedder: Embedder,
    options: IngestOptions | None = None,
    *,
    vector: VectorWriter | None = None,
    graph: GraphWriter | None = None,
    stored: StoredVectors | None = None,
) -> IngestReport:
    """Ingest already-validated records into a new generation of the index at `index_dir`,
    under its writer lock, and make that generation live.

    Without `vector`, the vectors go to the generation's embedded Chroma collection (opened
    and closed here). The caller owns (and closes) the writers it passes. A text whose vector
    is in `stored` (computed by the same model) or in the live generation is not embedded
    again. Raises `IndexBusyError` when another writer holds the index.
    """
    options = options or IngestOptions()
    options.check()
    lock = WriterLock(index_dir, options.writer)
    await asyncio.to_thread(lock.acquire)
    try:
        return await _ingest_locked(records, index_dir, embedder, options, vector, graph, stored)
    finally:
        lock.release()


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


async def _ingest_locked(
    records: SourceRecords,
    index_dir: Path,
    embedder: Embedder,
    options: IngestOptions,
    vector: VectorWriter | None,
    graph: GraphWriter | None,
    stored: StoredVectors | None,
) -> IngestReport:
    progress = options.progress
    started = time.perf_counter()
    live = await asyncio.to_thread(live_generation, index_dir)
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
    target = await asyncio.to_thread(new_generation, index_dir, source)
    try:
        layout = IndexLayout(target)
        kept = await asyncio.to_thread(StoredVectors.read, layout.vectors)
        own = vector is None
        writer = ChromaVectorStore.embedded(layout.chroma) if vector is None else vector
        try:
            fresh = await _write_vectors(writer, items, embedder, report, progress, [stored, kept])
            dim = await _write_item_vectors(
                layout, items, card_texts(catalogue), embedder, fresh, [stored, kept], writer
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
        )
        await asyncio.to_thread(new_manifest.write, target)
        await asyncio.to_thread(activate, index_dir, target)
    except BaseException:
        # The live generation is untouched; a crash that skips this is tidied by `collect`.
        await asyncio.to_thread(shutil.rmtree, target, True)
        raise
    await asyncio.to_thread(collect, index_dir)
    report.generation = target.name
    report.seconds = time.perf_counter() - started
    return report


async def _write_vectors(
    vector: VectorWriter,
    items: list[IndexItem],
    embedder: Embedder,
    report: IngestReport,
    progress: ProgressCallback | None,
    sources: list[StoredVectors | None],
) -> dict[str, npt.NDArray[np.float32]]:
    """Embed (or take from `sources`) and upsert the items whose content changed, delete the
    ones that left; returns the vectors written, by text."""
    fingerprint = await asyncio.to_thread(model_fingerprint, embedder.name)
    bundle = sources[0]
    if bundle is not None and fingerprint != bundle.fingerprint:
        log.warning(
            "the bundle's stored vectors are of another model (%s): embedding every text",
            bundle.model,
        )
    indexed = await vector.content_hashes()
    hashes = {it.id: _item_hash(it) for it in items}
    todo = _embedding_order([it for it in items if indexed.get(it.id) != hashes[it.id]])
    report.added = sum(1 for it in todo if it.id not in indexed)
    report.updated = len(todo) - report.added
    report.unchanged = len(items) - len(todo)

    stale = sorted(set(indexed) - set(hashes))
    await vector.delete(stale)
    report.pruned = len(stale)

    written: dict[str, npt.NDArray[np.float32]] = {}
    for start in range(0, len(todo), _EMBED_BATCH):
        batch = todo[start : start + _EMBED_BATCH]
        texts = [it.search_text for it in batch]
        found = _lookup(texts, fingerprint, sources)
        missing = [i for i in range(len(batch)) if i not in found]
        rows = dict(found)
        if missing:
            fresh = await asyncio.to_thread(embedder.embed, [texts[i] for i in missing])
            rows.update(zip(missing, as_stored(fresh), strict=True))
        vectors = np.stack([rows[i] for i in range(len(batch))])
        # Same batches, same order whether vectors were stored or computed: the same index.
        await vector.upsert(batch, vectors, [hashes[it.id] for it in batch])
        written.update(zip(texts, vectors, strict=True))
        report.reused += len(found)
        if progress:
            progress("embed", start + len(batch), len(todo))
    return written


def _lookup(
    texts: list[str], fingerprint: str | None, sources: list[StoredVectors | None]
) -> dict[int, npt.NDArray[np.float32]]:
    found: dict[int, npt.NDArray[np.float32]] = {}
    for source in sources:
        if source is None or len(found) == len(texts):
            continue
        rest = [i for i in range(len(texts)) if i not in found]
        hits = source.lookup([texts[i] for i in rest], fingerprint)
        found.update({rest[j]: v for j, v in hits.items()})
    return found


async def _write_item_vectors(
    layout: IndexLayout,
    items: list[IndexItem],
    cards: list[str],
    embedder: Embedder,
    written: dict[str, npt.NDArray[np.float32]],
    sources: list[StoredVectors | None],
    vector: VectorWriter,
) -> int:
    """Keep every item's vector, and every concept card's, in the generation (`vectors/`):
    a repair rebuilds the vector store from it, the integrity probe reads it, and the concept
    linker searches the cards' (taken from `sources` when there, else embedded here).
    Returns the dimension."""
    fingerprint = await asyncio.to_thread(model_fingerprint, embedder.name)
    texts = sorted({it.search_text for it in items} | set(cards))
    rows = {i: written[t] for i, t in enumerate(texts) if t in written}
    rest = [i for i in range(len(texts)) if i not in rows]
    found = _lookup([texts[i] for i in rest], fingerprint, sources)
    rows.update({rest[j]: v for j, v in found.items()})
    missing = {texts[i] for i in range(len(texts)) if i not in rows}
    if missing:  # an index written before generations kept its vectors in Chroma only
        ids = {it.search_text: it.id for it in items if it.search_text in missing}
        held = await vector.embeddings(sorted(ids.values()))
        by_text = {t: held[i] for t, i in ids.items() if i in held}
        rows.update({i: by_text[t] for i, t in enumerate(texts) if t in by_text})
    if len(rows) < len(texts):
        rest = [i for i in range(len(texts)) if i not in rows]
        fresh = await asyncio.to_thread(embedder.embed, [texts[i] for i in rest])
        rows.update(zip(rest, as_stored(fresh), strict=True))
    if not texts:
        probe = await asyncio.to_thread(embedder.embed, ["dimension probe"])
        return int(probe.shape[1])
    vectors = np.stack([rows[i] for i in range(len(texts))])
    await asyncio.to_thread(
        StoredVectors.write,
        layout.vectors,
        texts,
        vectors,
        model=embedder.name,
        fingerprint=fingerprint or f"name:{embedder.name}",
    )
    return int(vectors.shape[1])


def card_texts(records: SourceRecords) -> list[str]:
    """The texts of the records' concept cards, in the order they are embedded."""
    return sorted({c.text for c in build_cards(records.concepts)}, key=lambda t: (len(t), t))


def _embedding_order(items: list[IndexItem]) -> list[IndexItem]:
    # Batches of similar length waste little compute on padding.
    return sorted(items, key=lambda it: (len(it.search_text), it.id))


async def embed_bundle(
    bundle_dir: Path, embedder: Embedder, progress: ProgressCallback | None = None
) -> int:
    """Embed every text of a bundle's valid records, and their concept cards, and store the
    vectors in the bundle (`BUNDLE/embeddings/`), in the batches a fresh ingest would embed
    them in, so that an ingest that reads them builds the same index. A batch whose every
    text is already stored (same model) is taken as stored, so adding texts embeds only
    theirs. Returns the number of distinct texts."""
    fingerprint = await asyncio.to_thread(model_fingerprint, embedder.name)
    if fingerprint is None:
        raise ConfigurationError(
            f"the embedder {embedder.name!r} is not a local model folder, so its vectors "
            "cannot be keyed to it; install it locally or point TUTORGRAPH_EMBEDDING_MODEL at one"
        )
    validation = await asyncio.to_thread(validate_bundle, bundle_dir)
    groups = [
        [it.search_text for it in _embedding_order(items_from_records(validation.records))],
        card_texts(validation.records),
    ]
    stored = await asyncio.to_thread(StoredVectors.read, bundle_dir / STORED_VECTORS_DIR)
    texts = [t for group in groups for t in group]
    parts = []
    done = 0
    for group in groups:
        for start in range(0, len(group), _EMBED_BATCH):
            batch = group[start : start + _EMBED_BATCH]
            found = stored.lookup(batch, fingerprint) if stored is not None else {}
            if len(found) == len(batch):
                parts.append(np.stack([found[i] for i in range(len(batch))]))
            else:
                parts.append(as_stored(await asyncio.to_thread(embedder.embed, batch)))
            done += len(batch)
            if progress:
                progress("embed", done, len(texts))
    vectors = np.concatenate(parts) if parts else np.zeros((0, 0), dtype=np.float32)
    # One writer of the bundle's vectors at a time; the folder is swapped in whole.
    lock = WriterLock(bundle_dir, f"tutorgraph embed-bundle {bundle_dir}")
    await asyncio.to_thread(lock.acquire)
    try:
        return await asyncio.to_thread(
            _write_stored,
            bundle_dir / STORED_VECTORS_DIR,
            texts,
            vectors,
            embedder.name,
            fingerprint,
        )
    finally:
        lock.release()


async def align_bundle(
    bundle_dir: Path,
    embedder: Embedder,
    progress: ProgressCallback | None = None,
    *,
    methods: Sequence[str] = SHIPPED,
) -> dict[str, int]:
    """Rebuild the bundle's `aligned_with` edges (`linking.alignment`) and rewrite the bundle
    with them in place of the old ones. The cards' vectors come from the bundle's stored
    vectors where they are there; the items' own texts (no titles) are embedded. Returns the
    number of edges per method."""
    validation = await asyncio.to_thread(validate_bundle, bundle_dir)
    records = validation.records
    cards = build_cards(records.concepts)
    items = items_by_concept(records.documents)
    fingerprint = await asyncio.to_thread(model_fingerprint, embedder.name)
    stored = await asyncio.to_thread(StoredVectors.read, bundle_dir / STORED_VECTORS_DIR)
    card_texts = [c.text for c in cards]
    found = stored.lookup(card_texts, fingerprint) if stored is not None else {}
    missing = [i for i in range(len(cards)) if i not in found]
    item_texts = [t for texts in items.values() for t in texts]
    total, done = len(missing) + len(item_texts), 0
    embedded: list[npt.NDArray[np.float32]] = []
    todo = [card_texts[i] for i in missing] + item_texts
    for start in range(0, len(todo), _EMBED_BATCH):
        embedded.append(await asyncio.to_thread(embedder.embed, todo[start : start + _EMBED_BATCH]))
        done += len(embedded[-1])
        if progress:
            progress("align", done, total)
    fresh = np.concatenate(embedded) if embedded else np.zeros((0, 0), dtype=np.float32)
    dim = fresh.shape[1] if len(fresh) else next(iter(found.values())).shape[0]
    card_vectors = np.zeros((len(cards), dim), dtype=np.float32)
    for i, vector in found.items():
        card_vectors[i] = vector
    card_vectors[missing] = fresh[: len(missing)]
    item_vectors, at = {}, len(missing)
    for cid, texts in items.items():
        item_vectors[cid] = fresh[at : at + len(texts)]
        at += len(texts)
    edges = alignments(cards, card_vectors, item_vectors, methods=methods)
    records.prerequisites = [p for p in records.prerequisites if p.relation != ALIGNED] + edges
    lock = WriterLock(bundle_dir, f"tutorgraph align-bundle {bundle_dir}")
    await asyncio.to_thread(lock.acquire)
    try:
        await asyncio.to_thread(write_bundle, records, bundle_dir)
    finally:
        lock.release()
    counts: dict[str, int] = {}
    for edge in edges:
        counts[str(edge.method)] = counts.get(str(edge.method), 0) + 1
    return counts


def _write_stored(
    folder: Path, texts: list[str], vectors: npt.NDArray[np.float32], model: str, fingerprint: str
) -> int:
    with replaced(folder) as tmp:
        return StoredVectors.write(tmp, texts, vectors, model=model, fingerprint=fingerprint)


def _write_derived(layout: IndexLayout, catalogue: SourceRecords, items: list[IndexItem]) -> None:
    # The generation is not live yet: written in place, switched in by `activate`.
    shutil.rmtree(layout.catalogue, ignore_errors=True)
    write_bundle(catalogue, layout.catalogue)
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
    `options.source_hash` is replaced by the bundle's hash; the bundle's stored vectors
    (`BUNDLE/embeddings/`, written by `tutorgraph embed-bundle`) are used where they fit."""
    validation = await asyncio.to_thread(validate_bundle, bundle_dir)
    stored = await asyncio.to_thread(StoredVectors.read, bundle_dir / STORED_VECTORS_DIR)
    options = replace(options or IngestOptions(), source_hash=bundle_hash(bundle_dir))
    report = await ingest_records(
        validation.records, index_dir, embedder, options, stored=stored, **writers
    )
    report.rejected = validation.errors
    return report
