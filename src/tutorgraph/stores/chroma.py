"""ChromaDB vector store, with embeddings the project computes (never Chroma's default).

>>> store = ChromaVectorStore.embedded(Path(".tutorgraph/chroma"))  # no I/O until first use
>>> server = ChromaVectorStore.server("localhost", 8000)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from tutorgraph.errors import StoreError
from tutorgraph.stores.exact_vectors import ExactVectors
from tutorgraph.stores.protocols import IndexItem, ScoredItem

__all__ = ["COLLECTION_NAME", "ChromaVectorStore", "chroma_http_client", "chroma_persistent_client"]

COLLECTION_NAME = "tutorgraph"
log = logging.getLogger(__name__)
# Chroma's default ef_search of 10 loses recall at depth 50; 200 costs well under a millisecond.
_HNSW = {"space": "cosine", "ef_search": 200, "ef_construction": 200}
_UPSERT_BATCH = 2000
# A stored vector finds itself at cosine 1, up to float16 rounding.
_SELF = 0.999
# Searches an embedded store remembers (see `ChromaVectorStore.search`).
_SEARCH_CACHE = 256
# Items read from Chroma that an embedded store keeps (`ChromaVectorStore._items_of`; 33k,
# the bundled curriculum's count, hold 34 MB).
_ITEM_CACHE = 50_000
T = TypeVar("T")


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


class ChromaVectorStore:
    """A Chroma collection in cosine space; the client (persistent or HTTP) is injected.

    `ChromaVectorStore.connecting(make_client)` defers the client itself: a Chroma server
    that is down at start-up then fails calls (a degraded source) until it is back, and the
    next call connects. With `owns_client` (and for `connecting` stores) `aclose()` closes
    the client, which frees an embedded Chroma's in-memory system.
    """

    def __init__(
        self,
        client: Any,
        collection_name: str = COLLECTION_NAME,
        *,
        owns_client: bool = False,
        create: bool = True,
    ) -> None:
        self._client = client
        self._owns_client = owns_client
        # A reader never creates the collection: a missing one is an error, not an empty index.
        self._create = create
        self._connect: Callable[[], Any] | None = None
        self._name = collection_name
        self._collection: Any = None
        self._lock = threading.Lock()  # one client, even when the opening thread races a call
        # An embedded store's searches, by (query vector, k); None: not remembered (a server
        # is written by other clients). Writes through this store forget them.
        self._searches: (
            OrderedDict[tuple[str, tuple[int, ...], bytes, int], tuple[ScoredItem, ...]] | None
        ) = None
        self._writes = 0
        self._searches_lock = threading.Lock()
        # An embedded store's items by id: those its opener knows (`know_items`) and those
        # searches have read, both forgotten on a write. A search then asks Chroma for ids
        # and distances only, a third of the time of also reading each hit's document and
        # metadata (issue 51).
        self._known: dict[str, IndexItem] = {}
        self._items: dict[str, IndexItem] = {}
        # An embedded reader's exact search over its index's stored vectors
        # (`search_exactly`), forgotten on a write.
        self._exact: ExactVectors | None = None

    @classmethod
    def connecting(
        cls,
        make_client: Callable[[], Any],
        collection_name: str = COLLECTION_NAME,
        *,
        create: bool = True,
    ) -> ChromaVectorStore:
        """A store whose client is made on first use, and made again after a failed attempt.

        >>> store = ChromaVectorStore.connecting(lambda: chromadb.HttpClient(port=8000))
        ... # doctest: +SKIP
        """
        store = cls(None, collection_name, owns_client=True, create=create)
        store._connect = make_client
        return store

    @classmethod
    def embedded(cls, path: Path, *, create: bool = True) -> ChromaVectorStore:
        """The persistent collection under `path`, with a client of its own (made on first
        use, closed by `aclose()`); with `create=False` (a reader) a missing folder or
        collection fails instead of being made empty."""
        if create:
            store = cls.connecting(lambda: chroma_persistent_client(path))
            store._searches = OrderedDict()
            return store

        def existing() -> Any:
            if not (path / "chroma.sqlite3").is_file():
                raise StoreError(f"no vector store at {path}")
            return chroma_persistent_client(path)

        store = cls.connecting(existing, create=False)
        store._searches = OrderedDict()
        return store

    @classmethod
    def server(cls, host: str, port: int) -> ChromaVectorStore:
        """The collection of a Chroma server; a server that is down at start-up degrades
        requests until it is back rather than stopping the service."""
        return cls.connecting(lambda: chroma_http_client(host, port))

    async def _run(self, call: Callable[..., T], *args: Any) -> T:
        """`call` in a worker thread; whatever Chroma raises (a server that is down, a bad
        collection) leaves the adapter as a `StoreError` naming it."""
        try:
            return await asyncio.to_thread(call, *args)
        except Exception as exc:
            raise StoreError(f"chroma: {type(exc).__name__}: {exc}") from exc

    def _coll(self) -> Any:
        with self._lock:
            if self._collection is None:
                if self._client is None and self._connect is not None:
                    self._client = self._connect()  # raises while the server is down
                if self._create:
                    self._collection = self._client.get_or_create_collection(
                        name=self._name,
                        configuration={"hnsw": _HNSW},
                        embedding_function=None,
                    )
                else:
                    self._collection = self._client.get_collection(
                        name=self._name, embedding_function=None
                    )
            return self._collection

    def _forget_searches(self) -> None:
        with self._searches_lock:
            self._writes += 1
            if self._searches is not None:
                self._searches.clear()
            self._known = {}
            self._items.clear()
            self._exact = None

    def _upsert(
        self,
        items: Sequence[IndexItem],
        embeddings: npt.NDArray[np.float32],
        hashes: Sequence[str],
    ) -> None:
        self._forget_searches()
        try:
            self._upsert_batches(items, embeddings, hashes)
        finally:
            self._forget_searches()  # and any search that overlapped the write

    def _upsert_batches(
        self,
        items: Sequence[IndexItem],
        embeddings: npt.NDArray[np.float32],
        hashes: Sequence[str],
    ) -> None:
        coll = self._coll()
        for start in range(0, len(items), _UPSERT_BATCH):
            chunk = items[start : start + _UPSERT_BATCH]
            coll.upsert(
                ids=[it.id for it in chunk],
                embeddings=embeddings[start : start + _UPSERT_BATCH],
                documents=[it.text for it in chunk],
                metadatas=[
                    {
                        "kind": it.kind,
                        "title": it.title,
                        "concept_ids": json.dumps(list(it.concept_ids)),
                        "content_hash": h,
                        **({"updated_at": it.updated_at} if it.updated_at else {}),
                    }
                    for it, h in zip(chunk, hashes[start : start + _UPSERT_BATCH], strict=True)
                ],
            )

    async def upsert(
        self,
        items: Sequence[IndexItem],
        embeddings: npt.NDArray[np.float32],
        content_hashes: Sequence[str],
    ) -> None:
        if items:
            await self._run(self._upsert, items, embeddings, content_hashes)

    def _delete(self, ids: Sequence[str]) -> None:
        self._forget_searches()
        try:
            for start in range(0, len(ids), _UPSERT_BATCH):
                self._coll().delete(ids=list(ids[start : start + _UPSERT_BATCH]))
        finally:
            self._forget_searches()

    async def delete(self, ids: Sequence[str]) -> None:
        if ids:
            await self._run(self._delete, ids)

    def _hashes(self) -> dict[str, str]:
        coll = self._coll()
        out: dict[str, str] = {}
        total = coll.count()
        for offset in range(0, total, 5000):
            got = coll.get(include=["metadatas"], limit=5000, offset=offset)
            for id_, meta in zip(got["ids"], got["metadatas"], strict=True):
                out[id_] = str((meta or {}).get("content_hash", ""))
        return out

    async def content_hashes(self) -> dict[str, str]:
        return await self._run(self._hashes)

    def search_sync(self, embedding: npt.NDArray[np.float32], k: int) -> list[ScoredItem]:
        """`search`, blocking (the integrity probe runs it in the thread that opens Chroma)."""
        return self._search(embedding, k)

    def count_sync(self) -> int:
        return int(self._coll().count())

    def self_probe_sync(self) -> str | None:
        """What is wrong with the collection's own index, or None: each of three of its
        stored vectors (the first, middle and last in Chroma's order) must find its own id
        at cosine 1 (a tie of identical vectors counts). Run in a child process before a
        generation is opened for good: a damaged HNSW file can crash the process."""
        coll = self._coll()
        total = int(coll.count())
        for offset in sorted({0, total // 2, total - 1} if total else set()):
            got = coll.get(limit=1, offset=offset, include=["embeddings"])
            if not got["ids"]:
                return f"holds {total:,} vectors but none at position {offset:,}"
            own = str(got["ids"][0])
            vector = np.asarray(got["embeddings"], dtype=np.float32).reshape(-1)
            if not np.isfinite(vector).all():
                return f"the vector of {own} is not finite numbers"
            res = coll.query(
                query_embeddings=[vector], n_results=min(10, total), include=["distances"]
            )
            ids, distances = res["ids"][0], res["distances"][0]
            at_one = [i for i, d in zip(ids, distances, strict=True) if 1.0 - d >= _SELF]
            if own not in at_one and not (at_one and len(at_one) == len(ids)):
                return f"the vector of {own} does not find it: the HNSW index is damaged"
        return None

    def _search(self, embedding: npt.NDArray[np.float32], k: int) -> list[ScoredItem]:
        coll = self._coll()
        found: tuple[list[IndexItem], list[float]] | None = None
        if self._searches is not None:  # embedded: only this store writes its items
            res = coll.query(query_embeddings=[embedding], n_results=k, include=["distances"])
            items = self._items_of(coll, res["ids"][0])
            if items is not None:
                found = items, res["distances"][0]
        if found is None:
            res = coll.query(
                query_embeddings=[embedding],
                n_results=k,
                include=["documents", "metadatas", "distances"],
            )
            found = (
                _items(res["ids"][0], res["documents"][0], res["metadatas"][0]),
                res["distances"][0],
            )
        # Cosine distance -> similarity; rounded so that float noise cannot reorder ties.
        out = [
            ScoredItem(item, round(1.0 - float(dist), 6)) for item, dist in zip(*found, strict=True)
        ]
        out.sort(key=lambda h: (-h.score, h.item.id))
        return out

    def search_exactly(self, exact: ExactVectors) -> None:
        """Tell an embedded reader the stored vectors of every item its collection holds, so
        that its searches are exact and the same in every process (`exact_vectors`); a write
        through it goes back to Chroma's index. A server's store ignores them.

        >>> store.search_exactly(ExactVectors.of(lexical.items, stored))  # doctest: +SKIP
        """
        with self._searches_lock:
            if self._searches is not None:
                self._exact = exact

    def know_items(self, items: Sequence[IndexItem]) -> None:
        """Tell an embedded reader the items its collection holds (its index's lexical
        store has the same ones), so that no search reads them from Chroma; an item that
        is not among them is still read. A server's store ignores them.

        >>> store.know_items(lexical.items)  # doctest: +SKIP
        """
        with self._searches_lock:
            if self._searches is not None:
                self._known = {it.id: it for it in items}

    def _items_of(self, coll: Any, ids: Sequence[str]) -> list[IndexItem] | None:
        """The items of `ids`, read from Chroma only for those no search has read since the
        last write; None when one is gone (deleted since the query: a write is under way)."""
        with self._searches_lock:
            known = {i: it for i in ids if (it := self._known.get(i) or self._items.get(i))}
            writes = self._writes
        missing = [i for i in ids if i not in known]
        if missing:
            got = coll.get(ids=missing, include=["documents", "metadatas"])
            read = dict(
                zip(got["ids"], _items(got["ids"], got["documents"], got["metadatas"]), strict=True)
            )
            if len(read) != len(missing):
                return None
            known.update(read)
            with self._searches_lock:
                if self._writes == writes:
                    if len(self._items) + len(read) > _ITEM_CACHE:
                        self._items.clear()
                    self._items.update(read)
        return [known[i] for i in ids]

    async def search(self, embedding: npt.NDArray[np.float32], k: int) -> list[ScoredItem]:
        """The `k` nearest items. An embedded store remembers its latest searches: nothing
        but this store writes its files (an ingest writes a new generation), and the same
        query vectors come back (a benchmark's configurations, a repeated question)."""
        if self._searches is None:
            return await self._run(self._search, embedding, k)
        exact = self._exact
        if exact is not None:
            return await asyncio.to_thread(exact.search, embedding, k)
        query = np.asarray(embedding)
        key = (query.dtype.str, query.shape, query.tobytes(), k)
        with self._searches_lock:
            hit = self._searches.get(key)
            if hit is not None:
                self._searches.move_to_end(key)
                return list(hit)
            writes = self._writes
        found = await self._run(self._search, embedding, k)
        with self._searches_lock:
            if self._writes == writes:  # no write began or ended meanwhile
                self._searches[key] = tuple(found)
                if len(self._searches) > _SEARCH_CACHE:
                    self._searches.popitem(last=False)
        return found

    def _embeddings(self, ids: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        got = self._coll().get(ids=list(ids), include=["embeddings"])
        if not got["ids"]:
            return {}
        vectors = np.asarray(got["embeddings"], dtype=np.float32).reshape(len(got["ids"]), -1)
        return dict(zip(got["ids"], vectors, strict=True))

    async def embeddings(self, ids: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        if not ids:
            return {}
        return await self._run(self._embeddings, ids)

    async def count(self) -> int:
        return int(await self._run(lambda: self._coll().count()))

    def close_sync(self) -> None:
        """`aclose`, blocking."""
        self._forget_searches()
        with self._lock:
            self._collection = None
            client = self._client
            if not self._owns_client or client is None:
                return
            self._client = None
        close = getattr(client, "close", None)  # chromadb >= 1.1 has it
        if callable(close):
            close()

    async def aclose(self) -> None:
        await asyncio.to_thread(self.close_sync)


def _items(
    ids: Sequence[str], docs: Sequence[str | None], metas: Sequence[dict[str, Any] | None]
) -> list[IndexItem]:
    """The items Chroma stores under `ids` (as `_upsert_batches` writes them)."""
    out = []
    for id_, doc, meta in zip(ids, docs, metas, strict=True):
        meta = meta or {}
        out.append(
            IndexItem(
                id=id_,
                kind=meta["kind"],
                title=str(meta.get("title", "")),
                text=doc or "",
                concept_ids=tuple(json.loads(str(meta.get("concept_ids", "[]")))),
                updated_at=str(meta["updated_at"]) if meta.get("updated_at") else None,
            )
        )
    return out
