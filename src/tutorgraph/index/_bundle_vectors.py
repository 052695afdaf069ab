"""A bundle's stored vectors (`BUNDLE/embeddings/`): `embed_bundle` writes them in the
batches a fresh ingest would embed them in, so an ingest that reads them builds the same
index."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.embedding.stored_vectors import StoredVectors, as_stored, model_fingerprint
from tutorgraph.errors import ConfigurationError
from tutorgraph.folders import replaced
from tutorgraph.index._ingest_options import ProgressCallback
from tutorgraph.index._ingest_vectors import _EMBED_BATCH, _embedding_order, card_texts
from tutorgraph.index.lock import WriterLock
from tutorgraph.ingest.bundle import validate_bundle
from tutorgraph.stores.items import items_from_records

__all__ = ["STORED_VECTORS_DIR", "embed_bundle"]

# A bundle's stored vectors, inside the bundle folder.
STORED_VECTORS_DIR = "embeddings"


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


def _write_stored(
    folder: Path, texts: list[str], vectors: npt.NDArray[np.float32], model: str, fingerprint: str
) -> int:
    with replaced(folder) as tmp:
        return StoredVectors.write(tmp, texts, vectors, model=model, fingerprint=fingerprint)
