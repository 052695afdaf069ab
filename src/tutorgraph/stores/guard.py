"""One store call under its timeout: a failure degrades an answer, never fails a request.

>>> found = await guarded("graph", graph.get_concepts(ids), timeout_s=2.0)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TypeVar

from tutorgraph.errors import TutorGraphError

__all__ = ["guarded"]

log = logging.getLogger(__name__)
T = TypeVar("T")


async def guarded(
    source: str, aw: Awaitable[T], timeout_s: float, *, degrade_bugs: bool = True
) -> T | None:
    """`aw` under `timeout_s`; on a timeout, a store that fails or a task it awaited that was
    cancelled, logs it and returns None.

    Any other exception (a bug) is logged with its trace and also returns None, unless
    `degrade_bugs` is off: then it propagates (a route that answers 500 for a bug and 503
    for a store that is down).
    """
    try:
        return await asyncio.wait_for(aw, timeout=timeout_s)
    except TimeoutError:
        log.warning("source %s timed out after %.1fs", source, timeout_s)
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise  # this request is being cancelled: not the source's failure
        # Something the source awaited was cancelled under it: that source is degraded.
        log.warning("source %s was cancelled", source)
    except TutorGraphError as exc:
        # A backend that is down: the adapters say why in one line.
        log.warning("source %s failed: %s", source, exc)
    except Exception:
        if not degrade_bugs:
            raise
        log.exception("source %s failed", source)
    return None
