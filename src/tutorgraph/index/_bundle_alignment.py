"""A bundle's `aligned_with` edges rebuilt by `align_bundle` (`linking.alignment`), the
cards' vectors taken from the bundle's stored vectors where they are there."""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.embedding.stored_vectors import StoredVectors, model_fingerprint
from tutorgraph.index._bundle_vectors import STORED_VECTORS_DIR
from tutorgraph.index._ingest_options import ProgressCallback
from tutorgraph.index._ingest_vectors import _EMBED_BATCH
from tutorgraph.index.lock import WriterLock
from tutorgraph.ingest.bundle import validate_bundle, write_bundle
from tutorgraph.ingest.teaching import JUDGED
from tutorgraph.linking.alignment import ALIGNED, SHIPPED, alignments, items_by_concept
from tutorgraph.linking.cards import build_cards

__all__ = ["align_bundle"]


async def align_bundle(
    bundle_dir: Path,
    embedder: Embedder,
    progress: ProgressCallback | None = None,
    *,
    methods: Sequence[str] = SHIPPED,
    judged: Collection[str] = (),
) -> dict[str, int]:
    """Rebuild the bundle's similarity `aligned_with` edges (`linking.alignment`) and rewrite
    the bundle with them in place of the old ones; judged edges are kept, and a concept that
    has one, or that the judges read (`judged`, even without accepting a standard for it),
    gets no similarity edge. The cards' vectors come from the bundle's stored
    vectors where they are there; the items' own texts (no titles) are embedded. Returns the
    number of edges per method, the judged ones kept included."""
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
    # Judged edges (`ingest.teaching`) stand; similarity adds edges only where none was judged.
    kept = [
        p
        for p in records.prerequisites
        if p.relation == ALIGNED and (p.method or "").startswith(JUDGED)
    ]
    covered = {p.concept_id for p in kept} | set(judged)
    edges = [
        e
        for e in alignments(cards, card_vectors, item_vectors, methods=methods)
        if e.concept_id not in covered
    ]
    records.prerequisites = (
        [p for p in records.prerequisites if p.relation != ALIGNED] + kept + edges
    )
    lock = WriterLock(bundle_dir, f"tutorgraph align-bundle {bundle_dir}")
    await asyncio.to_thread(lock.acquire)
    try:
        await asyncio.to_thread(write_bundle, records, bundle_dir)
    finally:
        lock.release()
    counts: dict[str, int] = {}
    for edge in kept + edges:
        counts[str(edge.method)] = counts.get(str(edge.method), 0) + 1
    return counts
