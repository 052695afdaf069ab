"""Opening one index generation's stores, beside `LocalIndex.load`: the embedded vector store
opened in a thread of its own once the child check found it sound, then counted and probed
against the manifest; the concept linker over the card vectors the ingest stored; the store
that stands in for a damaged or unavailable source; and a failure's reason as text.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TypeVar

import numpy as np

from tutorgraph.embedding.stored_vectors import StoredVectors
from tutorgraph.errors import DiskFullError
from tutorgraph.index.diskspace import is_disk_full, nearly_full
from tutorgraph.index.integrity import Problem, probe_items, probe_vectors
from tutorgraph.index.layout import IndexLayout, load_catalogue
from tutorgraph.index.vector_check import Verdict
from tutorgraph.linking import ConceptLinker, build_cards
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.chroma import ChromaVectorStore
from tutorgraph.stores.damaged import DamagedStore
from tutorgraph.stores.manifest import Manifest
from tutorgraph.stores.protocols import LexicalIndex, VectorStore
from tutorgraph_client.models.curriculum import Concept

__all__ = [
    "DISK_FULL",
    "check_vectors",
    "count_when_sound",
    "error_text",
    "in_thread",
    "load_linker",
    "vector_store_for",
]

log = logging.getLogger(__name__)

_T = TypeVar("_T")


class _Unsound(Exception):
    """The vector store's child check found it damaged (or the disk full): not opened here."""


def count_when_sound(store: ChromaVectorStore, verdict: Future[Verdict] | None) -> int:
    """Open the embedded store and count it, once the child check (if any) found it sound."""
    if verdict is not None and not verdict.result().ok:
        raise _Unsound
    return store.count_sync()


def in_thread(call: Callable[[], _T]) -> Future[_T]:
    """`call` in a thread of its own (Chroma pages its index in beside the other loads)."""
    future: Future[_T] = Future()

    def run() -> None:
        try:
            future.set_result(call())
        except BaseException as exc:
            future.set_exception(exc)

    threading.Thread(target=run, name="chroma-open", daemon=True).start()
    return future


def load_linker(
    layout: IndexLayout, concepts: list[Concept] | None, stored: StoredVectors | None
) -> ConceptLinker | None:
    """The linker over the catalogue's cards, with the card vectors the ingest stored."""
    try:
        if concepts is None:
            concepts = load_catalogue(layout, documents=False).concepts
    except Exception as exc:  # damage is the integrity check's to report
        log.info("no concept linker: %s", error_text(exc))
        return None
    cards = build_cards(concepts)
    if stored is None or not cards:
        return None
    found = stored.lookup([c.text for c in cards], stored.fingerprint)
    if len(found) < len(cards):
        log.info("no concept linker: %d cards have no stored vector", len(cards) - len(found))
        return None
    return ConceptLinker(cards, np.stack([found[i] for i in range(len(cards))]))


def vector_store_for(
    problems: dict[str, Problem],
    unavailable: dict[str, str],
    given: VectorStore | None,
    own: ChromaVectorStore | None,
) -> VectorStore:
    """The vector store the index serves: a `DamagedStore` for a damaged or unavailable
    source, else the given store, else the embedded one it opened."""
    if "vector" in problems:
        return DamagedStore(str(problems["vector"]))
    if "vector" in unavailable:
        return DamagedStore(f"vector: {unavailable['vector']}", DiskFullError)
    store = given or own
    assert store is not None  # no problem and no given store: the embedded one was opened
    return store


def error_text(exc: BaseException) -> str:
    """An exception as a problem's reason: its type and the start of its message.

    >>> error_text(ValueError("bad header"))
    'ValueError: bad header'
    """
    return f"{type(exc).__name__}: {str(exc)[:160]}" if str(exc) else type(exc).__name__


# What `check_vectors` returns when Chroma could not open for want of disk space.
DISK_FULL = Problem("vector", "disk full", "chroma")


def check_vectors(
    store: ChromaVectorStore,
    opened: Future[int],
    manifest: Manifest,
    lexical: LexicalIndex | None,
    stored: StoredVectors | None,
    root: Path,
) -> Problem | None:
    """The count against the manifest's, then each probe item's stored vector finds it."""
    try:
        count = opened.result()
    except Exception as exc:
        # Chroma writes when it opens: an intact store on a full disk fails here.
        if is_disk_full(exc) or nearly_full(root):
            return DISK_FULL
        return Problem("vector", f"the vector store cannot be opened ({error_text(exc)})", "chroma")
    expected = manifest.counts.get("items")
    if expected is not None and count != expected:
        return Problem(
            "vector",
            f"holds {count:,} vectors, the manifest counted {expected:,} items",
            "chroma",
        )
    if not isinstance(lexical, BM25Index) or stored is None:  # no vectors: an older index
        return None
    items = probe_items(lexical.items)
    found = stored.lookup([it.search_text for it in items], stored.fingerprint)
    probes = [(items[i], v) for i, v in sorted(found.items())]
    try:
        return probe_vectors(store.search_sync, probes)
    except Exception as exc:
        if is_disk_full(exc) or nearly_full(root):
            return DISK_FULL
        return Problem("vector", f"the vector store fails a search ({error_text(exc)})", "chroma")
