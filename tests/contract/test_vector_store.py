"""One behavioural suite for every `VectorStore`: embedded Chroma and a real `chroma run`
server on a free loopback port (the HTTP client that `TUTORGRAPH_CHROMA_HOST` selects)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from tests.contract.chroma_server import ChromaServer, chroma_server, free_port

from tutorgraph.errors import StoreError
from tutorgraph.stores.chroma import ChromaVectorStore, chroma_http_client, chroma_persistent_client
from tutorgraph.stores.protocols import IndexItem, VectorStore, VectorWriter

pytestmark = pytest.mark.integration

DIM = 384
ITEMS = [
    IndexItem(
        id=f"test:item:{i:02d}",
        kind="misconception" if i % 2 else "explanation",
        title=f"title {i}" if i % 3 else "",
        text=f"text number {i}",
        concept_ids=(f"test:concept:{i % 4}",) if i % 5 else (),
    )
    for i in range(24)
]


def _unit(rows: npt.NDArray[np.float64]) -> npt.NDArray[np.float32]:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


EMBEDDINGS = _unit(np.random.default_rng(7).normal(size=(len(ITEMS), DIM)))
HASHES = [f"hash-{i}" for i in range(len(ITEMS))]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ChromaServer]:
    with chroma_server(tmp_path_factory.mktemp("chroma-server")) as s:
        yield s


_names = iter(range(10_000))


@pytest.fixture(params=["embedded", "embedded-index", "server"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[VectorStore]:
    # A fresh collection per test, so that the legs never see each other's data.
    name = f"contract{next(_names)}"
    if request.param == "embedded-index":  # an index's own store: it keeps what it reads
        index_store = ChromaVectorStore.embedded(tmp_path / "chroma")
        yield index_store
        asyncio.run(index_store.aclose())
        return
    if request.param == "embedded":
        client: Any = chroma_persistent_client(tmp_path / "chroma")
    else:
        srv: ChromaServer = request.getfixturevalue("server")
        client = chroma_http_client(srv.host, srv.port)
    store = ChromaVectorStore(client, collection_name=name)
    yield store
    asyncio.run(store.aclose())


async def _filled(store: VectorStore) -> VectorStore:
    await store.upsert(ITEMS, EMBEDDINGS, HASHES)
    return store


def test_satisfies_both_ports(store: VectorStore) -> None:
    assert isinstance(store, VectorStore) and isinstance(store, VectorWriter)


async def test_an_empty_store(store: VectorStore) -> None:
    assert await store.count() == 0
    assert await store.content_hashes() == {}


async def test_upsert_then_count_and_hashes(store: VectorStore) -> None:
    await _filled(store)
    assert await store.count() == len(ITEMS)
    assert await store.content_hashes() == {it.id: h for it, h in zip(ITEMS, HASHES, strict=True)}


async def test_search_finds_the_item_itself_first_with_its_fields(store: VectorStore) -> None:
    await _filled(store)
    for i in (0, 5, 13):
        hits = await store.search(EMBEDDINGS[i], 5)
        assert hits[0].item == ITEMS[i]  # kind, title, text and concept ids round-trip
        assert hits[0].score == pytest.approx(1.0, abs=1e-4)
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        assert len(hits) == 5


async def test_search_ranks_by_cosine_similarity(store: VectorStore) -> None:
    await _filled(store)
    query = _unit(EMBEDDINGS[3:4].astype(np.float64) + 0.5 * EMBEDDINGS[9:10])[0]
    hits = await store.search(query, len(ITEMS))
    expected = sorted(
        range(len(ITEMS)), key=lambda i: (-round(float(EMBEDDINGS[i] @ query), 6), ITEMS[i].id)
    )
    assert [h.item.id for h in hits[:2]] == [ITEMS[i].id for i in expected[:2]]
    for h in hits:
        i = ITEMS.index(h.item)
        assert h.score == pytest.approx(float(EMBEDDINGS[i] @ query), abs=1e-4)


async def test_a_version_is_kept_and_returned(store: VectorStore) -> None:
    stamped = dataclasses.replace(ITEMS[5], updated_at="2026-11-20T09:30:00+00:00")
    await store.upsert([stamped, ITEMS[6]], EMBEDDINGS[5:7], HASHES[5:7])
    found = {r.item.id: r.item for r in await store.search(EMBEDDINGS[5], 2)}
    assert found[ITEMS[5].id].updated_at == "2026-11-20T09:30:00+00:00"
    assert found[ITEMS[6].id].updated_at is None


async def test_embeddings_returns_the_stored_vectors_of_known_ids(store: VectorStore) -> None:
    await _filled(store)
    got = await store.embeddings([ITEMS[3].id, "test:item:missing", ITEMS[0].id])
    assert sorted(got) == [ITEMS[0].id, ITEMS[3].id]
    np.testing.assert_allclose(got[ITEMS[3].id], EMBEDDINGS[3], atol=1e-6)
    assert await store.embeddings([]) == {}


async def test_k_larger_than_the_store(store: VectorStore) -> None:
    await store.upsert(ITEMS[:3], EMBEDDINGS[:3], HASHES[:3])
    assert len(await store.search(EMBEDDINGS[0], 50)) == 3


async def test_upsert_is_idempotent_and_replaces(store: VectorStore) -> None:
    await _filled(store)
    await _filled(store)
    assert await store.count() == len(ITEMS)
    changed = IndexItem(id=ITEMS[0].id, kind="explanation", title="new", text="changed text")
    await store.upsert([changed], EMBEDDINGS[:1], ["hash-new"])
    assert await store.count() == len(ITEMS)
    assert (await store.content_hashes())[changed.id] == "hash-new"
    assert (await store.search(EMBEDDINGS[0], 1))[0].item == changed


async def test_delete(store: VectorStore) -> None:
    await _filled(store)
    gone = [ITEMS[1].id, ITEMS[2].id]
    await store.delete(gone)
    await store.delete([])  # a no-op
    assert await store.count() == len(ITEMS) - 2
    assert not set(gone) & set(await store.content_hashes())
    assert all(h.item.id not in gone for h in await store.search(EMBEDDINGS[1], len(ITEMS)))


async def test_data_survives_a_new_client(store: VectorStore) -> None:
    """What one client stored, another client of the same backend reads (a restart)."""
    await _filled(store)
    assert isinstance(store, ChromaVectorStore)
    again = ChromaVectorStore(store._client, collection_name=store._name)
    assert await again.count() == len(ITEMS)


async def test_aclose_closes_only_a_client_the_store_owns(tmp_path: Path) -> None:
    # An old index generation must give its embedded Chroma system back when it closes.
    lent = chroma_persistent_client(tmp_path / "lent")
    await ChromaVectorStore(lent).aclose()
    assert lent.list_collections() == []  # still usable: the caller owns it
    owned = chroma_persistent_client(tmp_path / "owned")
    store = ChromaVectorStore(owned, owns_client=True)
    await _filled(store)
    await store.aclose()
    with pytest.raises(Exception):  # noqa: B017  (chromadb raises no documented type)
        owned.list_collections()
    # Through the adapter, whatever chromadb raises is a StoreError naming it.
    with pytest.raises(StoreError, match=r"^chroma: "):
        await ChromaVectorStore(owned).count()
    reopened = ChromaVectorStore(chroma_persistent_client(tmp_path / "owned"), owns_client=True)
    assert await reopened.count() == len(ITEMS)  # closing lost nothing
    await reopened.aclose()


def test_an_unreachable_server_is_a_clear_store_error() -> None:
    with pytest.raises(StoreError, match="not reachable"):
        chroma_http_client("127.0.0.1", 1)


async def test_a_lazy_store_connects_once_the_server_is_up(tmp_path: Path) -> None:
    """Down at start-up: calls fail (the retriever degrades); once it is up, calls work."""
    port = free_port()
    store = ChromaVectorStore.connecting(lambda: chroma_http_client("127.0.0.1", port))
    with pytest.raises(StoreError):
        await store.count()
    with chroma_server(tmp_path, port=port):
        await store.upsert(ITEMS[:2], EMBEDDINGS[:2], HASHES[:2])
        assert await store.count() == 2


async def test_an_embedded_store_remembers_searches_until_it_is_written(tmp_path: Path) -> None:
    """An embedded store answers a repeated search from memory (a list of the caller's own);
    an upsert or a delete through it forgets what it remembered."""
    store = ChromaVectorStore.embedded(tmp_path / "chroma")
    try:
        await _filled(store)
        first = await store.search(EMBEDDINGS[0], 5)
        again = await store.search(EMBEDDINGS[0], 5)
        assert again == first and again is not first
        again.clear()
        assert await store.search(EMBEDDINGS[0], 5) == first
        assert len(await store.search(EMBEDDINGS[0], 3)) == 3  # k is part of the question
        changed = IndexItem(id=ITEMS[0].id, kind="explanation", title="new", text="changed")
        await store.upsert([changed], EMBEDDINGS[:1], ["hash-new"])
        assert (await store.search(EMBEDDINGS[0], 5))[0].item == changed
        await store.delete([ITEMS[0].id])
        assert ITEMS[0].id not in {h.item.id for h in await store.search(EMBEDDINGS[0], 5)}
    finally:
        await store.aclose()


async def test_an_index_store_serves_the_items_it_is_told_until_it_is_written(
    tmp_path: Path, server: ChromaServer
) -> None:
    """Items told (`know_items`: the index's lexical store holds the same) are served as
    they are; the others are read from Chroma; a write forgets both. A server's store,
    which other clients write, reads every item."""
    store = ChromaVectorStore.embedded(tmp_path / "chroma")
    remote = ChromaVectorStore.server(server.host, server.port)
    told = [dataclasses.replace(it, title="as told") for it in ITEMS[:12]]
    try:
        await _filled(store)
        store.know_items(told)
        found = {h.item.id: h.item for h in await store.search(EMBEDDINGS[0], len(ITEMS))}
        assert all(found[t.id] is t for t in told)
        assert all(found[it.id] == it for it in ITEMS[12:])
        assert store._items_of(store._coll(), ["test:item:gone"]) is None  # a full query then
        await store.upsert([ITEMS[0]], EMBEDDINGS[:1], HASHES[:1])
        found = {h.item.id: h.item for h in await store.search(EMBEDDINGS[1], len(ITEMS))}
        assert all(found[it.id] == it for it in ITEMS)
        await _filled(remote)
        remote.know_items(told)
        found = {h.item.id: h.item for h in await remote.search(EMBEDDINGS[0], len(ITEMS))}
        assert all(found[it.id] == it for it in ITEMS)
    finally:
        await store.aclose()
        await remote.aclose()
