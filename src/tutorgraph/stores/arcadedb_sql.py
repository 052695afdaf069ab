"""ArcadeDB's HTTP command API, for the SQL its Cypher does not take: the full-text indexes a
`Neo4jGraphStore` on an ArcadeDB Bolt server needs (`cypher.ARCADEDB_FULLTEXT_SQL`).

>>> sql = ArcadeDBSql.connect("http://localhost:2480", "neo4j", "root", "secret")
>>> await sql.run(cypher.ARCADEDB_FULLTEXT_SQL[0])  # doctest: +SKIP
>>> await sql.aclose()  # doctest: +SKIP
"""

from __future__ import annotations

from typing import LiteralString

import httpx

from tutorgraph.errors import StoreError

__all__ = ["ArcadeDBSql"]


class ArcadeDBSql:
    """Runs fixed SQL statements (no user text) on one database; the client is injected."""

    def __init__(self, client: httpx.AsyncClient, database: str) -> None:
        self._client = client
        self._database = database

    @classmethod
    def connect(
        cls, url: str, database: str, user: str, password: str | None, *, timeout_s: float = 60
    ) -> ArcadeDBSql:
        """A client of the server at `url` (no I/O until the first statement)."""
        auth = (user, password) if password is not None else None
        client = httpx.AsyncClient(base_url=url, auth=auth, timeout=timeout_s)
        return cls(client, database)

    async def run(self, statement: LiteralString) -> None:
        """Run one statement; a refusal or an unreachable server is a `StoreError`."""
        try:
            response = await self._client.post(
                f"/api/v1/command/{self._database}",
                json={"language": "sql", "command": statement},
            )
        except httpx.HTTPError as exc:
            raise StoreError(
                f"ArcadeDB's HTTP API is not reachable ({type(exc).__name__}: {exc})"
            ) from exc
        if response.is_error:
            raise StoreError(
                f"ArcadeDB refused {statement!r} ({response.status_code}): {response.text[:300]}",
                details={"status": response.status_code},
            )

    async def aclose(self) -> None:
        await self._client.aclose()
