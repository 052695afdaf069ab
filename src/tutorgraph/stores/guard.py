"""One store call under its timeout (and its source's circuit breaker): a failure degrades an
answer, never fails a request.

>>> found = await guarded("graph", graph.get_concepts(ids), timeout_s=2.0)  # doctest: +SKIP
>>> tried = await attempt("graph", graph.get_concepts(ids), 2.0, breaker=breakers.graph)
... # doctest: +SKIP
>>> tried.reason  # None when it answered  # doctest: +SKIP
'graph failed: circuit breaker open after 3 failures in a row, the last: no answer within 2 s; ...'
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Generic, TypeVar

from tutorgraph.errors import TutorGraphError, failure_cause, failure_reason
from tutorgraph.stores.breaker import CircuitBreaker, Ticket, counts_against

__all__ = ["Attempt", "attempt", "guarded"]

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class Attempt(Generic[T]):
    """A guarded call's value, or None and why (`reason`, in the one format of
    `failure_reason`: a timeout, a failure, an open circuit breaker)."""

    value: T | None
    reason: str | None = None


def _skip(aw: Awaitable[object]) -> None:
    # The call never runs: a coroutine is closed (no "never awaited" warning), a task cancelled.
    if inspect.iscoroutine(aw):
        aw.close()
    elif isinstance(aw, asyncio.Future):
        aw.cancel()


async def attempt(
    source: str,
    aw: Awaitable[T],
    timeout_s: float,
    *,
    breaker: CircuitBreaker | None = None,
    degrade_bugs: bool = True,
) -> Attempt[T]:
    """`aw` under `timeout_s` and `breaker`; on a timeout, a store that fails, a task it
    awaited that was cancelled, or a breaker that is open (`aw` is then not run), logs it
    and returns no value and the reason.

    A failure is logged once while the breaker is closed; the breaker logs its own changes of
    state, and a refused call is not logged. Any other exception (a bug) is logged with its
    trace and counts neither way, unless `degrade_bugs` is off: then it propagates (a route
    that answers 500 for a bug and 503 for a store that is down).
    """
    ticket: Ticket | None = None
    if breaker is not None:
        ticket = breaker.admit()
        if ticket is None:
            _skip(aw)
            return Attempt(None, failure_reason(source, breaker.refusal()))
    settled = False
    try:
        value = await asyncio.wait_for(aw, timeout=timeout_s)
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise  # this request is being cancelled: not the source's failure
        # Something the source awaited was cancelled under it: that source is degraded.
        log.warning("source %s was cancelled", source)
        return Attempt(None, failure_reason(source, "cancelled"))
    except Exception as exc:
        # The breaker keeps the cause (it knows its own name); the attempt says who failed.
        cause = failure_cause(exc, timeout_s)
        reason = failure_reason(source, cause)
        if breaker is not None and ticket is not None and counts_against(exc):
            settled = True
            loud = breaker.failed(ticket, cause)
        else:
            loud = True
        if not isinstance(exc, TimeoutError | TutorGraphError | OSError):
            if not degrade_bugs:
                raise
            log.exception("source %s failed", source)
        elif loud and isinstance(exc, TimeoutError):
            log.warning("source %s timed out after %.1fs", source, timeout_s)
        elif loud:
            # A backend that is down: the adapters say why in one line.
            log.warning("source %s failed: %s", source, exc)
        else:
            log.debug("%s (its circuit breaker says so)", reason)
        return Attempt(None, reason)
    else:
        if breaker is not None and ticket is not None:
            settled = True
            breaker.succeeded(ticket)
        return Attempt(value)
    finally:
        if breaker is not None and ticket is not None and not settled:
            breaker.abandoned(ticket)


async def guarded(
    source: str,
    aw: Awaitable[T],
    timeout_s: float,
    *,
    breaker: CircuitBreaker | None = None,
    degrade_bugs: bool = True,
) -> T | None:
    """`aw`'s value under `timeout_s` and `breaker`, or None when it failed, timed out or was
    skipped (`attempt`, which also says why)."""
    return (await attempt(source, aw, timeout_s, breaker=breaker, degrade_bugs=degrade_bugs)).value
