"""Circuit breakers: a dependency that is down costs one timeout, not one a request.

A `CircuitBreaker` guards one dependency (a source, the refiner, the answer model). Closed,
every call goes through; after `failures` failures in a row (timeouts, a store or network
error) it opens, and calls are refused at once for `cooldown_s`; then it is half-open: the
next call probes the dependency, alone (the others are still refused), and its success
closes the breaker, its failure opens it again for another cool-down. Each change of state
is logged once, never each refused call.

An outcome counts only against the state its call was admitted under: a call that was in
flight when the breaker opened, and fails later, is not counted again, and one admitted
before a recovery does not reopen it. The breaker is used from one event loop and never
awaits, so its state changes need no lock.

No library was used: `purgatory` and `circuitbreaker` let every concurrent call through
once half-open (and read the clock themselves), `pybreaker`'s async support is Tornado's
and `aiobreaker` has had no release since 2021.

>>> breaker = CircuitBreaker("graph", failures=2, cooldown_s=10.0, clock=lambda: 0.0)
>>> for _ in range(2):
...     breaker.failed(breaker.admit(), "no answer within 2 s")
True
False
>>> breaker.admit() is None, breaker.snapshot().state
(True, 'open')
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from tutorgraph.config import BREAKER_COOLDOWN_S, BREAKER_FAILURES
from tutorgraph.errors import IndexDamagedError, SourceUnavailableError, StoreError
from tutorgraph_client.models.request import STORE_SOURCES

__all__ = [
    "BREAKER_SOURCES",
    "BreakerSnapshot",
    "BreakerState",
    "Breakers",
    "CircuitBreaker",
    "Ticket",
    "counts_against",
]

log = logging.getLogger(__name__)

BreakerState = Literal["closed", "open", "half_open"]


@dataclass(frozen=True)
class Ticket:
    """A call the breaker let through: the state it was admitted under (`epoch`) and
    whether it is the half-open probe. Hand it back with `succeeded`, `failed` or
    `abandoned`."""

    epoch: int
    probe: bool = False


@dataclass(frozen=True)
class BreakerSnapshot:
    """What a breaker says about its dependency now (`/readyz`): its state, the failures in
    a row, the seconds until the next call may probe it (open only), the last failure."""

    name: str
    state: BreakerState
    failures: int
    retry_in_s: float | None = None
    last_failure: str | None = None


def counts_against(exc: BaseException) -> bool:
    """Whether `exc` says the dependency is down or hung: a timeout, a network error or a
    store's error. A damaged index file (refused at once) and a shared task that failed
    under the call (the query embedding) are not the dependency's failures."""
    if isinstance(exc, IndexDamagedError | SourceUnavailableError):
        return False
    return isinstance(exc, TimeoutError | OSError | StoreError)


class CircuitBreaker:
    """One dependency's breaker (see the module). `failures=0` turns it off: it admits every
    call and never opens. `clock` is monotonic seconds (a test passes a fake one)."""

    def __init__(
        self,
        name: str,
        *,
        failures: int = BREAKER_FAILURES,
        cooldown_s: float = BREAKER_COOLDOWN_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if failures < 0:
            raise ValueError(f"failures must be >= 0, got {failures}")
        if not cooldown_s > 0:
            raise ValueError(f"cooldown_s must be > 0, got {cooldown_s}")
        self.name = name
        self.threshold = failures
        self.cooldown_s = cooldown_s
        self._clock = clock
        self._state: BreakerState = "closed"
        self._epoch = 0
        self._failures = 0
        self._opened_at = 0.0
        self._probing = False
        self._last: str | None = None

    @property
    def enabled(self) -> bool:
        return self.threshold > 0

    @property
    def state(self) -> BreakerState:
        return self._state

    def admit(self) -> Ticket | None:
        """A ticket for a call, or None when the call must skip the dependency (open, or
        half-open with its probe in flight; `refusal()` says why)."""
        if self._state == "closed":
            return Ticket(self._epoch)
        if self._state == "open":
            if self._clock() - self._opened_at < self.cooldown_s:
                return None
            self._move("half_open")
            log.info("circuit breaker %s is half-open: one call probes it", self.name)
        if self._probing:
            return None
        self._probing = True
        return Ticket(self._epoch, probe=True)

    def succeeded(self, ticket: Ticket) -> None:
        """The call answered: a probe closes the breaker, any call resets the count."""
        if ticket.epoch != self._epoch:
            return  # admitted under an earlier state
        if ticket.probe and self._state == "half_open":
            self._move("closed")
            log.warning("circuit breaker %s closed: the probe answered", self.name)
        elif self._state == "closed":
            self._failures = 0

    def failed(self, ticket: Ticket, reason: str) -> bool:
        """The call failed for `reason`. True when it was counted and the breaker stays
        closed (the caller logs the failure itself); False when the breaker logged a change
        of state instead, or the outcome no longer counts (the caller stays quiet)."""
        if not self.enabled:
            return True
        if ticket.epoch != self._epoch:
            return False
        self._last = reason
        if ticket.probe and self._state == "half_open":
            self._failures += 1
            self._open()
            log.warning(
                "circuit breaker %s opened again: the probe failed (%s); next probe in %g s",
                self.name,
                reason,
                self.cooldown_s,
            )
            return False
        if self._state != "closed":
            return False
        self._failures += 1
        if self._failures < self.threshold:
            return True
        self._open()
        log.warning(
            "circuit breaker %s opened after %d failures in a row (the last: %s): calls skip "
            "it for %g s, then one probes it",
            self.name,
            self._failures,
            reason,
            self.cooldown_s,
        )
        return False

    def abandoned(self, ticket: Ticket) -> None:
        """The call ended with no verdict (cancelled, or a bug of ours): a probe's turn
        passes to the next call."""
        if ticket.probe and ticket.epoch == self._epoch and self._state == "half_open":
            self._probing = False

    def refusal(self) -> str:
        """Why calls skip the dependency now (the reason a degraded packet gives)."""
        snap = self.snapshot()
        last = f", the last: {snap.last_failure}" if snap.last_failure else ""
        if snap.state == "half_open":
            return f"circuit breaker half-open ({snap.failures} failures{last}): one call probes it"
        wait = f"next probe in {snap.retry_in_s:.1f} s" if snap.retry_in_s else "next call probes"
        return f"circuit breaker open after {snap.failures} failures in a row{last}; {wait}"

    def snapshot(self) -> BreakerSnapshot:
        """The breaker's state now (open past its cool-down: `retry_in_s` 0, the next call
        probes)."""
        retry: float | None = None
        if self._state == "open":
            retry = round(max(0.0, self._opened_at + self.cooldown_s - self._clock()), 1)
        return BreakerSnapshot(self.name, self._state, self._failures, retry, self._last)

    def _open(self) -> None:
        failures = self._failures
        self._move("open")
        self._failures = max(failures, 1)
        self._opened_at = self._clock()

    def _move(self, state: BreakerState) -> None:
        # A new epoch: outcomes of calls admitted before are not counted.
        self._state = state
        self._epoch += 1
        self._probing = False
        if state == "closed":
            self._failures = 0
            self._last = None


# The sources whose store may be a server of its own: Neo4j, a Chroma server (BM25 is
# always in this process).
BREAKER_SOURCES = STORE_SOURCES


@dataclass(frozen=True)
class Breakers:
    """The breakers of one retriever: one for each source in `sources` (those whose store
    is a server: an in-process store cannot be down, and its timeouts are this machine's
    load, which a breaker would turn into seconds of missing results), and the OpenAI
    refiner's (the local refiner needs none). A source without one is None.

    >>> breakers = Breakers.make(failures=3, cooldown_s=10.0, sources=("graph",))
    >>> breakers.graph.state, breakers.vector
    ('closed', None)
    """

    vector: CircuitBreaker | None
    lexical: CircuitBreaker | None
    graph: CircuitBreaker | None
    refiner: CircuitBreaker

    @classmethod
    def make(
        cls,
        *,
        failures: int = BREAKER_FAILURES,
        cooldown_s: float = BREAKER_COOLDOWN_S,
        sources: Iterable[str] = BREAKER_SOURCES,
        clock: Callable[[], float] = time.monotonic,
    ) -> Breakers:
        armed = frozenset(sources)
        if unknown := armed - set(BREAKER_SOURCES):
            raise ValueError(f"no such source: {', '.join(sorted(unknown))}")

        def one(name: str) -> CircuitBreaker:
            return CircuitBreaker(name, failures=failures, cooldown_s=cooldown_s, clock=clock)

        def source(name: str) -> CircuitBreaker | None:
            return one(name) if name in armed else None

        return cls(source("vector"), source("lexical"), source("graph"), one("refiner"))

    def source(self, name: str) -> CircuitBreaker | None:
        """The breaker of source `name`, or None for one without (an in-process store, or a
        request's local context)."""
        return {"vector": self.vector, "lexical": self.lexical, "graph": self.graph}.get(name)
