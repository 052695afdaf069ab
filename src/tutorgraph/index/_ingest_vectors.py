"""The vectors an ingest writes: each changed item's, embedded or taken from stored
vectors, into the vector store, and every item's and concept card's into the generation's
`vectors/` folder; and the batching both share with `embed_bundle`."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.embedding.stored_vectors import StoredVectors, as_stored, model_fingerprint
from tutorgraph.index._ingest_options import IngestReport, ProgressCallback
from tutorgraph.index.layout import IndexLayout
from tutorgraph.linking.cards import build_cards
from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.protocols import IndexItem, VectorWriter

__all__ = [
    "_EMBED_BATCH",
    "_embedding_order",
    "_write_item_vectors",
    "_write_vectors",
    "card_texts",
]

# Named as before the split: the CLI's log lines show it and a user may filter on it.
log = logging.getLogger("tutorgraph.index.pipeline")

_EMBED_BATCH = 256


def _item_hash(item: IndexItem) -> str:
    row = [item.kind, item.title, item.text, list(item.concept_ids)]
    if item.updated_at:  # a new version is written again (without one, the hash is as before)
        row.append(item.updated_at)
    return hashlib.sha256(json.dumps(row, ensure_ascii=False).encode("utf-8")).hexdigest()


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
    report: IngestReport | None = None,
) -> int:
    """Keep every item's vector, and every concept card's, in the generation (`vectors/`):
    a repair rebuilds the vector store from it, the integrity probe reads it, and the concept
    linker searches the cards' (taken from `sources` when there, then from the vector store,
    else embedded here). Returns the dimension."""
    fingerprint = await asyncio.to_thread(model_fingerprint, embedder.name)
    texts = sorted({it.search_text for it in items} | set(cards))
    rows = {i: written[t] for i, t in enumerate(texts) if t in written}
    counts = {"written": len(rows)}
    rest = [i for i in range(len(texts)) if i not in rows]
    found = _lookup([texts[i] for i in rest], fingerprint, sources)
    rows.update({rest[j]: v for j, v in found.items()})
    counts["stored"] = len(found)
    missing = {texts[i] for i in range(len(texts)) if i not in rows}
    if missing:  # an index written before generations, or a damaged copy: from Chroma
        ids = {it.search_text: it.id for it in items if it.search_text in missing}
        held = await vector.embeddings(sorted(ids.values()))
        by_text = {t: held[i] for t, i in ids.items() if i in held and np.isfinite(held[i]).all()}
        rows.update({i: by_text[t] for i, t in enumerate(texts) if t in by_text})
        counts["vector store"] = len(by_text)
    if len(rows) < len(texts):
        rest = [i for i in range(len(texts)) if i not in rows]
        fresh = await asyncio.to_thread(embedder.embed, [texts[i] for i in rest])
        rows.update(zip(rest, as_stored(fresh), strict=True))
        counts["embedded"] = len(rest)
    if report is not None:
        report.vector_copy = {k: n for k, n in counts.items() if n}
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
