"""Faults against a real Bolt server (ArcadeDB, started here): killed mid-ingest and re-run,
killed while serving (the graph's circuit breaker opens, then a probe closes it once the
server is back). Skips only when no Java runtime can start."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from neo4j import AsyncGraphDatabase
from tests.contract.arcadedb_server import BoltServer, arcadedb_server

from tutorgraph.errors import StoreError
from tutorgraph.index.local import LocalIndex
from tutorgraph.models.records import SourceRecords
from tutorgraph.retrieval.factory import Models, build_retriever
from tutorgraph.retrieval.retriever import RetrieverConfig
from tutorgraph.stores.arcadedb_sql import ArcadeDBSql
from tutorgraph.stores.embedded_graph import EmbeddedGraphStore
from tutorgraph.stores.neo4j_graph import Neo4jGraphStore
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration

TIMEOUT_S = 2.0
COOLDOWN_S = 2.0


@contextmanager
def _server(root: Path, ports: tuple[int, int] | None = None) -> Iterator[BoltServer]:
    try:
        context = arcadedb_server(root, ports=ports)
        server = context.__enter__()
    except (ImportError, OSError, RuntimeError) as exc:
        pytest.skip(f"no Bolt server: ArcadeDB could not start here ({exc})")
    try:
        yield server
    finally:
        context.__exit__(None, None, None)


def _ports(server: BoltServer) -> tuple[int, int]:
    return int(server.uri.rsplit(":", 1)[1]), int(server.http_url.rsplit(":", 1)[1])


def _store(server: BoltServer, timeout_s: float = 30.0) -> Neo4jGraphStore:
    # A short retry budget: a dead server fails the batch in seconds, not the default 30 s.
    driver = AsyncGraphDatabase.driver(
        server.uri,
        auth=(server.user, server.password),
        max_transaction_retry_time=1.0,
        connection_timeout=2.0,
    )
    sql = ArcadeDBSql.connect(server.http_url, server.database, server.user, server.password)
    return Neo4jGraphStore(driver, database=server.database, timeout_s=timeout_s, sql=sql)


async def test_a_server_killed_mid_ingest_then_a_rerun_loses_and_doubles_nothing(
    tmp_path: Path, full_slice_records: SourceRecords
) -> None:
    records = full_slice_records
    want = await EmbeddedGraphStore(records).stats()
    batches = 0
    with _server(tmp_path) as server:
        ports = _ports(server)
        store = _store(server)
        await store.ensure_schema()

        def kill_after_three(kind: str, done: int, total: int) -> None:
            nonlocal batches
            batches += 1
            if batches == 3:
                server.process.kill()
                server.process.wait()

        with pytest.raises(StoreError, match="re-run to complete") as info:
            await store.upsert(records, batch_size=20, progress=kill_after_three)
        committed = info.value.details["committed"]
        assert committed["concepts"] == 60  # the three batches before the kill
        await store.aclose()

    with _server(tmp_path, ports) as server:
        store = _store(server)
        try:
            kept = await store.stats()
            assert kept["nodes"]["Concept"] == committed["concepts"]  # committed stays
            await store.upsert(records)
            assert await store.stats() == want  # nothing lost, nothing doubled
            await store.upsert(records)  # and a second re-run changes nothing
            assert await store.stats() == want
        finally:
            await store.aclose()


async def test_a_server_killed_while_serving_degrades_then_recovers(
    tmp_path: Path, index_records: SourceRecords, opened_index, embedder
) -> None:  # type: ignore[no-untyped-def]
    with _server(tmp_path) as server:
        ports = _ports(server)
        store = _store(server, timeout_s=TIMEOUT_S)
        await store.ensure_schema()
        await store.upsert(index_records)
        # The session index's vectors and BM25, with the graph on the Bolt server.
        index = LocalIndex(opened_index.manifest, opened_index.vector, opened_index.lexical, store)
        config = RetrieverConfig(
            source_timeout_s=TIMEOUT_S,
            refiner="none",
            breaker_cooldown_s=COOLDOWN_S,
            breaker_sources=frozenset({"graph"}),  # as `from_settings` arms it for Neo4j
        )
        retriever = build_retriever(index, Models(embedder), config)
        breaker = retriever.breakers.graph
        request = RetrievalRequest(query="adding fractions with different denominators")
        before = await retriever.retrieve(request)
        assert before.degraded_sources == [] and before.graph_count > 0

        server.process.kill()
        server.process.wait()
        started = time.perf_counter()
        down = await retriever.retrieve(request)
        elapsed = time.perf_counter() - started
        assert down.degraded_sources == ["graph"]
        assert down.results  # the other sources still answer
        assert elapsed < TIMEOUT_S + 3.0, elapsed
        # Down, requests pay the timeout until the graph's circuit breaker opens (3 failed
        # calls in a row); then none waits for it until the cool-down ends (issue 59).
        for _ in range(3):
            if breaker.state == "open":
                break
            await retriever.retrieve(request)
        assert breaker.state == "open"
        started = time.perf_counter()
        skipped = await retriever.retrieve(request)
        assert time.perf_counter() - started < TIMEOUT_S / 2
        assert skipped.degraded_sources == ["graph"] and skipped.results
        assert skipped.degraded_reasons["graph"].startswith(
            "graph failed: circuit breaker open after"
        )

    with _server(tmp_path, ports):
        # Back: once the cool-down is over, one request probes it, and its success closes
        # the breaker (pooled connections to the dead server may fail a first probe).
        after = down
        for _ in range(5):
            await asyncio.sleep((breaker.snapshot().retry_in_s or 0.0) + 0.1)
            after = await retriever.retrieve(request)
            if not after.degraded_sources:
                break
        assert after.degraded_sources == [] and breaker.state == "closed"
        assert [h.id for h in after.results] == [h.id for h in before.results]
        await retriever.aclose()
        await store.aclose()
