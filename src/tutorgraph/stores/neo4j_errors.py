"""Neo4j driver and server errors as `StoreError`s that say what failed, for logs and the
reasons of degraded sources."""

from __future__ import annotations

from typing import Any

from neo4j.exceptions import (
    AuthError,
    ConnectionAcquisitionTimeoutError,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
)

from tutorgraph.errors import StoreError

__all__ = ["driver_error", "timeout_error"]


def timeout_error(database: str, action: str, timeout_s: float) -> StoreError:
    """No answer within `timeout_s`, as a `StoreError` that says what was asked."""
    return StoreError(
        f"Neo4j {action} got no answer within {timeout_s:g}s "
        f"(database {database!r}: server unreachable, overloaded or query too slow)",
        details={"database": database, "action": action, "cause": "timeout"},
    )


def driver_error(database: str, exc: Neo4jError | DriverError, action: str) -> StoreError:
    """A tutorgraph error that says what failed, for logs and degraded-source reasons."""
    details: dict[str, Any] = {
        "database": database,
        "action": action,
        "cause": type(exc).__name__,
    }
    db = database
    if isinstance(exc, AuthError):
        msg = f"Neo4j rejected the credentials ({action}): {_reason(exc)}"
    elif isinstance(exc, ServiceUnavailable | SessionExpired):
        msg = f"Neo4j is not reachable ({action}): {_reason(exc)}"
    elif isinstance(exc, ConnectionAcquisitionTimeoutError):
        msg = f"Neo4j {action} timed out waiting for a connection: {_reason(exc)}"
    elif isinstance(exc, Neo4jError):
        code = exc.code or ""
        details["code"] = code
        if "TransactionTimedOut" in code:
            msg = f"Neo4j {action} timed out on the server (database {db!r})"
        elif code == "Neo.ClientError.Database.DatabaseNotFound":
            msg = f"Neo4j has no database {db!r} ({action})"
        elif code == "Neo.ClientError.Procedure.ProcedureCallFailed":
            msg = (
                f"Neo4j {action} failed in a procedure (is the full-text index missing? "
                f"run ensure_schema()): {_reason(exc)}"
            )
        else:
            msg = f"Neo4j {action} failed ({code}): {_reason(exc)}"
    else:
        msg = f"Neo4j driver error ({action}): {_reason(exc)}"
    return StoreError(msg, details=details)


def _reason(exc: Exception) -> str:
    # Server errors carry no args, only `message`; driver-side ones carry their text in args.
    if exc.args:
        return str(exc.args[0])
    return str(getattr(exc, "message", "") or type(exc).__name__)
