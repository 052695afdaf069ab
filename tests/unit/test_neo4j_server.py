"""Neo4jGraphStore against a recording driver double: the server around the statements.
Schema creation (Neo4j's Cypher, ArcadeDB's SQL), verify, a second event loop, driver errors
and timeouts as store errors, the constructor and `neo4j_driver` without I/O, clear and
prune. The double is `neo4j_fakes.py`.
"""

from __future__ import annotations

import asyncio

import pytest
from neo4j import AsyncDriver, RoutingControl
from neo4j.exceptions import AuthError, Neo4jError, ServiceUnavailable
from tests.unit.neo4j_fakes import (
    STATEMENT_NAMES,
    FakeDriver,
    RecordingSql,
    graph_store,
)

from tutorgraph.errors import ConfigurationError, StoreError
from tutorgraph.stores import cypher
from tutorgraph.stores.neo4j_driver import neo4j_driver
from tutorgraph.stores.neo4j_graph import Neo4jGraphStore

pytestmark = pytest.mark.unit


# -- schema, verify, stats, errors, driver ------------------------------------------------------


async def test_ensure_schema_runs_each_schema_statement_then_waits_for_indexes() -> None:
    driver = FakeDriver()
    await graph_store(driver).ensure_schema(await_indexes_s=60)
    # verify() first: it tells Neo4j from ArcadeDB.
    assert [c.statement for c in driver.calls[:2]] == ["", cypher.VERIFY]
    schema = driver.calls[2:]
    assert [c.statement for c in schema] == [*cypher.SCHEMA, cypher.AWAIT_INDEXES]
    assert schema[-1].params == {"timeout_s": 60}
    assert all(c.routing == RoutingControl.WRITE for c in schema)


async def test_on_arcadedb_the_full_text_indexes_are_made_with_its_sql() -> None:
    driver = FakeDriver(agent="Neo4j/5.26.0 compatible (ArcadeDB 26.10.2)")
    with pytest.raises(StoreError, match="TUTORGRAPH_ARCADEDB_HTTP_URL"):
        await graph_store(driver).ensure_schema()
    sql = RecordingSql()
    store = Neo4jGraphStore(driver, database="tutor", sql=sql)  # type: ignore[arg-type]
    driver.calls.clear()
    await store.ensure_schema()
    statements = [c.statement for c in driver.calls[2:]]
    # Constraints as Cypher, no CREATE FULLTEXT INDEX, no db.awaitIndexes: the states polled.
    assert statements == [*cypher.CONSTRAINTS, cypher.INDEX_STATES]
    assert sql.statements == list(cypher.ARCADEDB_FULLTEXT_SQL)
    await store.aclose()
    assert sql.closed and driver.closed


def test_a_second_event_loop_is_a_clear_store_error() -> None:
    store = graph_store(FakeDriver())
    asyncio.run(store.unknown_concepts(["ccss:6.NS.A.1"]))
    with pytest.raises(StoreError, match="another event loop") as info:
        asyncio.run(store.unknown_concepts(["ccss:6.NS.A.1"]))
    assert info.value.details["cause"] == "event loop"


async def test_verify_reports_the_server() -> None:
    driver = FakeDriver()
    store = graph_store(driver)
    assert await store.verify() == {
        "database": "tutor",
        "server": "Neo4j Kernel",
        "version": "5.26.0",
        "edition": "community",
        "agent": "Neo4j/5.26.0",
    }
    assert [c.via for c in driver.calls] == ["verify_connectivity", "execute_query"]
    await store.aclose()
    assert driver.closed


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (ServiceUnavailable("Couldn't connect to localhost:7687"), "not reachable"),
        (AuthError("The client is unauthorized"), "rejected the credentials"),
        (
            Neo4jError._hydrate_neo4j(
                code="Neo.ClientError.Database.DatabaseNotFound", message="x"
            ),
            "no database 'tutor'",
        ),
        (
            Neo4jError._hydrate_neo4j(
                code="Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration",
                message="terminated",
            ),
            "timed out on the server",
        ),
        (
            Neo4jError._hydrate_neo4j(
                code="Neo.ClientError.Procedure.ProcedureCallFailed", message="no such index"
            ),
            "ensure_schema",
        ),
    ],
)
async def test_driver_errors_become_store_errors(error: Exception, message: str) -> None:
    driver = FakeDriver(error=error)
    store = graph_store(driver)
    with pytest.raises(StoreError, match=message) as info:
        await store.search_concepts("fractions", 3)
    assert info.value.details["action"] == "search_concepts"
    assert info.value.__cause__ is error
    with pytest.raises(StoreError, match=message):
        await store.verify()


async def test_a_slow_server_is_a_timeout_store_error() -> None:
    driver = FakeDriver(delay_s=5.0)
    store = graph_store(driver, timeout_s=0.05)
    with pytest.raises(StoreError, match=r"no answer within 0\.05s"):
        await store.get_concepts(["ccss:6.NS.A.1"])


def test_constructor_checks_its_arguments_without_io() -> None:
    driver = FakeDriver()
    with pytest.raises(ConfigurationError):
        graph_store(driver, timeout_s=0)
    with pytest.raises(ConfigurationError):
        Neo4jGraphStore(driver, database="")  # type: ignore[arg-type]
    assert driver.calls == []


@pytest.mark.parametrize(
    "uri", ["neo4j+s://example.invalid", "bolt+ssc://example.invalid:7687", "neo4j://localhost"]
)
async def test_neo4j_driver_builds_without_io(uri: str) -> None:
    driver = neo4j_driver(uri, "neo4j", "secret")
    assert isinstance(driver, AsyncDriver)
    await driver.close()
    no_auth = neo4j_driver(uri)
    await no_auth.close()


def test_neo4j_driver_refuses_a_bad_uri() -> None:
    with pytest.raises(ConfigurationError, match="cannot use Neo4j URI"):
        neo4j_driver("ftp://example.invalid", "neo4j", "secret")


async def test_clear_and_prune_are_one_write_each() -> None:
    driver = FakeDriver(rows={"DELETE_MISSING": [{"deleted": 3}]})
    store = graph_store(driver)
    await store.clear()
    assert await store.prune(["ccss:6.NS.A.1", "lc:g6"]) == 3  # as many as the server says
    assert [
        (STATEMENT_NAMES[c.statement], c.params, c.routing, c.database) for c in driver.calls
    ] == [
        ("DELETE_ALL", {}, RoutingControl.WRITE, "tutor"),
        ("DELETE_MISSING", {"ids": ["ccss:6.NS.A.1", "lc:g6"]}, RoutingControl.WRITE, "tutor"),
    ]
    assert await graph_store(FakeDriver()).prune([]) == 0  # no row back: nothing deleted
