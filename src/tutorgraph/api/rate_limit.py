"""A token bucket per API key, in memory.

Each key may burst up to `per_minute` requests, then gets one more every `60 / per_minute`
seconds. A refused request learns how long until a token is back (`Retry-After`).

Limits, honestly: the buckets live in one process, so `serve --workers N` allows N times the
rate, and they start full again after a restart.

>>> clock = iter([0.0, 0.0, 0.0]).__next__
>>> limiter = RateLimiter(per_minute=2, clock=clock)
>>> limiter.check("k"), limiter.check("k")
(None, None)
>>> limiter.check("k")
Traceback (most recent call last):
...
tutorgraph.errors.RateLimitedError: rate limit exceeded; retry later
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from tutorgraph.api.errors import RateLimitedError
from tutorgraph.errors import ConfigurationError

__all__ = ["RateLimiter", "TokenBucket"]

# With auth off, buckets are per client address: forget full (idle) ones past this many.
_MAX_BUCKETS = 10_000


@dataclass
class TokenBucket:
    """`tokens` left of `capacity`, refilled at `rate` tokens a second since `updated`."""

    capacity: float
    rate: float
    tokens: float
    updated: float

    def refill(self, now: float) -> None:
        elapsed = max(0.0, now - self.updated)
        self.tokens = min(self.capacity, self.tokens + elapsed * self.rate)
        self.updated = now

    def take(self, now: float) -> float:
        """Take one token; return 0 when allowed, else the seconds until one is available."""
        self.refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate


class RateLimiter:
    """Buckets by key; `per_minute=0` turns limiting off."""

    def __init__(self, per_minute: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        if per_minute < 0:
            raise ConfigurationError(f"rate_limit_per_minute must be >= 0, got {per_minute}")
        self._per_minute = per_minute
        self._clock = clock
        self._buckets: dict[str, TokenBucket] = {}

    @property
    def enabled(self) -> bool:
        return self._per_minute > 0

    def check(self, key: str) -> None:
        """Spend one request of `key`'s budget, or raise `RateLimitedError(retry_after)`."""
        if not self.enabled:
            return
        now = self._clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= _MAX_BUCKETS:
                self._forget_idle(now)
            cap = float(self._per_minute)
            bucket = TokenBucket(capacity=cap, rate=cap / 60.0, tokens=cap, updated=now)
            self._buckets[key] = bucket
        wait = bucket.take(now)
        if wait > 0:
            raise RateLimitedError(wait)

    def _forget_idle(self, now: float) -> None:
        for key, bucket in list(self._buckets.items()):
            bucket.refill(now)
            if bucket.tokens >= bucket.capacity:
                del self._buckets[key]
