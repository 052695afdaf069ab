"""Per-key rate limits through `limits`: `per_minute` requests in any 60 s (a moving window).
The same limiter counts failed API key checks per client address (`exhausted` and `spend`,
`AuthFailureLimitMiddleware`).

The storage is a `limits` URI: in-process memory by default; `serve --workers N` points
every worker at one SQLite file (`async+sqlite:///...`, `api/limit_storage.py`) so that N
workers do not allow N times the rate; `async+redis://host:6379` shares limits across
machines. A refused request learns how long until the oldest request in its window expires
(`Retry-After`). A storage that fails lets the request through and logs why: a rate-limit
store that is down must not take the API down with it.

>>> limiter = RateLimiter(per_minute=2)  # no I/O until the first check
>>> limiter.enabled
True
"""

from __future__ import annotations

import logging
import time

from limits import RateLimitItemPerMinute
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string

from tutorgraph.api import limit_storage  # registers async+sqlite://
from tutorgraph.api.errors import RateLimitedError
from tutorgraph.errors import ConfigurationError

__all__ = ["MEMORY", "RateLimiter"]

MEMORY = "async+memory://"
log = logging.getLogger(__name__)
del limit_storage


class RateLimiter:
    """`per_minute` requests per key in any minute; `per_minute=0` turns limiting off."""

    def __init__(self, per_minute: int, *, storage: str = MEMORY) -> None:
        if per_minute < 0:
            raise ConfigurationError(f"rate_limit_per_minute must be >= 0, got {per_minute}")
        if not storage.startswith("async+"):
            raise ConfigurationError(
                f"rate limit storage {storage!r}: use an async `limits` URI such as "
                "async+memory://, async+sqlite:///path or async+redis://host:6379"
            )
        self._per_minute = per_minute
        self._uri = storage
        self._item = RateLimitItemPerMinute(max(per_minute, 1))
        self._strategy: MovingWindowRateLimiter | None = None

    @property
    def enabled(self) -> bool:
        return self._per_minute > 0

    def _limiter(self) -> MovingWindowRateLimiter:
        if self._strategy is None:
            self._strategy = MovingWindowRateLimiter(storage_from_string(self._uri))
        return self._strategy

    async def check(self, key: str) -> None:
        """Spend one request of `key`'s budget, or raise `RateLimitedError(retry_after)`."""
        if not self.enabled:
            return
        limiter = self._limiter()
        try:
            if await limiter.hit(self._item, key):
                return
            stats = await limiter.get_window_stats(self._item, key)
        except Exception as exc:  # the store is down: serve, and say so in the log
            log.warning("rate limit storage %s failed, request allowed: %s", self._uri, exc)
            return
        raise RateLimitedError(max(stats.reset_time - time.time(), 0.001))

    async def exhausted(self, key: str) -> float | None:
        """Seconds until `key` may spend again when its budget is spent now, else None (spends
        nothing; a failing storage is logged and counts as not spent)."""
        if not self.enabled:
            return None
        limiter = self._limiter()
        try:
            if await limiter.test(self._item, key):
                return None
            stats = await limiter.get_window_stats(self._item, key)
        except Exception as exc:
            log.warning("rate limit storage %s failed, request allowed: %s", self._uri, exc)
            return None
        return max(stats.reset_time - time.time(), 0.001)

    async def spend(self, key: str) -> None:
        """Spend one of `key`'s budget, whether or not any is left."""
        if not self.enabled:
            return
        try:
            await self._limiter().hit(self._item, key)
        except Exception as exc:
            log.warning("rate limit storage %s failed: %s", self._uri, exc)
