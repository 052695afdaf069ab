"""The async Neo4j driver a `Neo4jGraphStore` is given (no I/O: it connects on first use)."""

from __future__ import annotations

from neo4j import AsyncDriver, AsyncGraphDatabase, basic_auth
from neo4j.exceptions import ConfigurationError as Neo4jConfigurationError

from tutorgraph.errors import ConfigurationError

__all__ = ["neo4j_driver"]


def neo4j_driver(
    uri: str,
    user: str = "neo4j",
    password: str | None = None,
    *,
    connection_timeout_s: float = 5.0,
    max_connection_pool_size: int = 100,
) -> AsyncDriver:
    """Build an async driver for `uri` (no I/O: it connects on first use).

    Encryption comes from the scheme (`neo4j+s://`, `bolt+ssc://`, ...), so no encryption or
    trust option is set here; without a password the driver sends no credentials.

    >>> driver = neo4j_driver("neo4j+s://xxxx.databases.neo4j.io", password="s")  # doctest: +SKIP
    >>> type(driver).__name__  # doctest: +SKIP
    'AsyncNeo4jDriver'
    """
    auth = basic_auth(user, password) if password is not None else None
    try:
        return AsyncGraphDatabase.driver(
            uri,
            auth=auth,
            connection_timeout=connection_timeout_s,
            max_connection_pool_size=max_connection_pool_size,
        )
    except (Neo4jConfigurationError, ValueError) as exc:
        raise ConfigurationError(
            f"cannot use Neo4j URI {uri!r}: {exc}", details={"uri": uri}
        ) from exc
