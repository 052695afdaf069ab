"""The async Neo4j driver a `Neo4jGraphStore` is given (no I/O: it connects on first use),
and its retry warnings kept out of the log (`quiet_retry_warnings`)."""

from __future__ import annotations

import logging

from neo4j import AsyncDriver, AsyncGraphDatabase, basic_auth
from neo4j.exceptions import ConfigurationError as Neo4jConfigurationError

from tutorgraph.errors import ConfigurationError

__all__ = ["neo4j_driver", "quiet_retry_warnings"]

# The driver's logger for a managed transaction that failed and is retried (`neo4j.session`).
_RETRY_LOGGER = "neo4j.session"
_RETRY_MESSAGE = "Transaction failed and will be retried"


class _RetriesAtDebug(logging.Filter):
    """Passes the driver's retry warnings only when its logger shows DEBUG, as DEBUG."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.WARNING or not str(record.msg).startswith(_RETRY_MESSAGE):
            return True
        if not logging.getLogger(record.name).isEnabledFor(logging.DEBUG):
            return False
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


def quiet_retry_warnings() -> None:
    """Log the driver's retries at DEBUG, not WARNING (idempotent; called by every Neo4j
    store, never at import). Against a server that is down each read retried once or twice
    within its timeout, one warning a retry: 518 in 30 s under load (issue 59). The store's
    `StoreError` says what failed, and the graph's circuit breaker logs once each time it
    opens or closes."""
    logger = logging.getLogger(_RETRY_LOGGER)
    if not any(isinstance(f, _RetriesAtDebug) for f in logger.filters):
        logger.addFilter(_RetriesAtDebug())


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
