"""A Neo4j database through the official async driver: the connection a `Neo4jGraphStore`
stands on.

It holds the driver on the event loop that first used it, checks the server (`verify`),
runs one bounded read transaction (`_read`: a statement from `tutorgraph.stores.cypher`,
values as parameters) and closes the driver and ArcadeDB's SQL API (`aclose`).

>>> connection = Neo4jConnection(neo4j_driver("neo4j://localhost:7687"))  # doctest: +SKIP
>>> (await connection.verify())["server"]  # doctest: +SKIP
'Neo4j Kernel'
"""

from __future__ import annotations

import asyncio
from typing import Any, LiteralString

from neo4j import AsyncDriver, Query, Record, RoutingControl
from neo4j.exceptions import DriverError, Neo4jError

from tutorgraph.errors import ConfigurationError, StoreError
from tutorgraph.stores import cypher
from tutorgraph.stores.arcadedb_sql import ArcadeDBSql
from tutorgraph.stores.neo4j_driver import quiet_retry_warnings
from tutorgraph.stores.neo4j_errors import driver_error, timeout_error

__all__ = ["Neo4jConnection"]


class Neo4jConnection:
    """The driver (and ArcadeDB's `sql`), owned: `aclose()` closes them. The constructor does
    no I/O. An async driver belongs to the event loop that first used it: the connection
    refuses, with a `StoreError` saying so, to be used from another loop."""

    def __init__(
        self,
        driver: AsyncDriver,
        *,
        database: str = "neo4j",
        timeout_s: float = 2.0,
        sql: ArcadeDBSql | None = None,
    ) -> None:
        if not database:
            raise ConfigurationError("the Neo4j database name must not be empty")
        if not timeout_s > 0:
            raise ConfigurationError(f"Neo4j timeout_s must be > 0, got {timeout_s}")
        self._driver_ = driver
        self._database = database
        self._timeout_s = timeout_s
        self._sql = sql
        self._loop: asyncio.AbstractEventLoop | None = None
        # One warning per change of the graph's breaker, not one per driver retry.
        quiet_retry_warnings()

    @property
    def _driver(self) -> AsyncDriver:
        """The driver, on the loop that first used it (its connections live there)."""
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = loop
        elif loop is not self._loop:
            raise StoreError(
                "this Neo4jGraphStore was first used on another event loop, and its driver's "
                "connections belong to that loop: make one store per loop (per asyncio.run)",
                details={"database": self._database, "cause": "event loop"},
            )
        return self._driver_

    @property
    def database(self) -> str:
        return self._database

    async def verify(self, *, timeout_s: float = 10.0) -> dict[str, Any]:
        """Check connectivity and credentials; return the server's name, version and edition.

        Raises `StoreError` saying what failed (unreachable, credentials, unknown database,
        no answer within `timeout_s`).
        """
        action = "verify"
        try:
            async with asyncio.timeout(timeout_s):
                # Fails fast with the real cause; a query alone would retry until the timeout.
                await self._driver.verify_connectivity()
                info = await self._driver.get_server_info()
                result = await self._driver.execute_query(
                    Query(cypher.VERIFY, timeout=timeout_s),
                    routing_=RoutingControl.READ,
                    database_=self._database,
                )
        except TimeoutError as exc:
            raise timeout_error(self._database, action, timeout_s) from exc
        except (Neo4jError, DriverError) as exc:
            raise driver_error(self._database, exc, action) from exc
        components = [record.data() for record in result.records]
        kernel = next(
            (c for c in components if c.get("name") == "Neo4j Kernel"),
            components[0] if components else {},
        )
        versions = kernel.get("versions") or [None]
        return {
            "database": self._database,
            "server": kernel.get("name"),
            "version": versions[0],
            "edition": kernel.get("edition"),
            # "Neo4j/5.26.0", or "Neo4j/5.26.0 compatible (ArcadeDB 26.10.2)"
            "agent": info.agent,
        }

    async def aclose(self) -> None:
        await self._driver_.close()
        if self._sql is not None:
            await self._sql.aclose()

    async def _read(
        self, statement: LiteralString, params: dict[str, Any], action: str
    ) -> list[Record]:
        """One read transaction, bounded on the server and here (retries included)."""
        try:
            async with asyncio.timeout(self._timeout_s):
                result = await self._driver.execute_query(
                    Query(statement, timeout=self._timeout_s),
                    params,
                    routing_=RoutingControl.READ,
                    database_=self._database,
                )
        except TimeoutError as exc:
            raise timeout_error(self._database, action, self._timeout_s) from exc
        except (Neo4jError, DriverError) as exc:
            raise driver_error(self._database, exc, action) from exc
        return list(result.records)
