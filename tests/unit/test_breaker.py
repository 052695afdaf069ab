"""The circuit breaker's state machine (a fake clock) and the store guard that runs calls
through it (issue 59, item 3: a dependency that is down costs once)."""

from __future__ import annotations

import asyncio
import doctest
import logging
import time
import warnings

import pytest

from tutorgraph.errors import IndexDamagedError, SourceUnavailableError, StoreError
from tutorgraph.stores import breaker as breaker_module
from tutorgraph.stores.breaker import Breakers, CircuitBreaker, counts_against
from tutorgraph.stores.guard import attempt, guarded
from tutorgraph.stores.neo4j_driver import quiet_retry_warnings

pytestmark = pytest.mark.unit


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def make(failures: int = 3, cooldown_s: float = 10.0) -> tuple[CircuitBreaker, Clock]:
    clock = Clock()
    return CircuitBreaker("graph", failures=failures, cooldown_s=cooldown_s, clock=clock), clock


def fail(b: CircuitBreaker, reason: str = "no answer within 2 s") -> bool:
    ticket = b.admit()
    assert ticket is not None
    return b.failed(ticket, reason)


def test_it_opens_after_n_failures_in_a_row_and_refuses_until_the_cool_down() -> None:
    b, clock = make()
    assert [fail(b), fail(b)] == [True, True]  # counted, still closed: the caller logs them
    assert b.state == "closed"
    assert fail(b) is False  # the third opens it: the breaker logs that
    assert b.state == "open" and b.admit() is None
    clock.now += 4.0
    assert b.admit() is None
    snap = b.snapshot()
    assert (snap.state, snap.failures, snap.retry_in_s) == ("open", 3, 6.0)
    assert snap.last_failure == "no answer within 2 s"
    assert b.refusal() == (
        "circuit breaker open after 3 failures in a row, the last: no answer within 2 s; "
        "next probe in 6.0 s"
    )


def test_a_success_resets_the_count() -> None:
    b, _ = make()
    fail(b)
    fail(b)
    ticket = b.admit()
    assert ticket is not None
    b.succeeded(ticket)
    fail(b)
    fail(b)
    assert b.state == "closed" and b.snapshot().failures == 2


def test_half_open_lets_one_probe_through_and_its_success_closes_it() -> None:
    b, clock = make()
    for _ in range(3):
        fail(b)
    clock.now += 10.0
    probe = b.admit()
    assert probe is not None and probe.probe and b.state == "half_open"
    # The others still skip it while the probe is in flight.
    assert b.admit() is None and b.admit() is None
    assert b.refusal().startswith("circuit breaker half-open")
    b.succeeded(probe)
    assert b.state == "closed" and b.snapshot().failures == 0
    assert b.snapshot().last_failure is None
    assert b.admit() is not None


def test_a_failed_probe_opens_it_for_another_cool_down() -> None:
    b, clock = make()
    for _ in range(3):
        fail(b)
    clock.now += 10.0
    probe = b.admit()
    assert probe is not None
    assert b.failed(probe, "StoreError (ServiceUnavailable)") is False
    assert b.state == "open" and b.snapshot().retry_in_s == 10.0
    assert b.snapshot().failures == 4
    clock.now += 9.9
    assert b.admit() is None
    clock.now += 0.1
    assert b.admit() is not None and b.state == "half_open"


def test_an_abandoned_probe_passes_the_turn_to_the_next_call() -> None:
    b, clock = make()
    for _ in range(3):
        fail(b)
    clock.now += 10.0
    probe = b.admit()
    assert probe is not None and b.admit() is None
    b.abandoned(probe)  # its request was cancelled: no verdict
    assert b.state == "half_open"
    assert (again := b.admit()) is not None and again.probe


def test_calls_admitted_under_an_earlier_state_do_not_count() -> None:
    b, clock = make()
    in_flight = [b.admit() for _ in range(8)]  # eight requests, all before it opens
    assert all(t is not None for t in in_flight)
    outcomes = [b.failed(t, "no answer within 2 s") for t in in_flight if t is not None]
    # Two counted (logged by the caller), the third opened it, five arrived too late.
    assert outcomes == [True, True, False, False, False, False, False, False]
    assert b.snapshot().failures == 3
    clock.now += 10.0
    probe = b.admit()
    assert probe is not None
    # A call admitted before it opened that answers late does not close it: the probe does.
    b.succeeded(in_flight[0])  # type: ignore[arg-type]
    assert b.state == "half_open"
    b.succeeded(probe)
    late = in_flight[1]
    assert late is not None
    assert b.failed(late, "no answer within 2 s") is False and b.state == "closed"
    assert b.snapshot().failures == 0


def test_zero_failures_turns_it_off() -> None:
    b, _ = make(failures=0)
    for _ in range(20):
        assert fail(b) is True
    assert b.state == "closed" and b.admit() is not None


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="failures"):
        CircuitBreaker("graph", failures=-1)
    with pytest.raises(ValueError, match="cooldown_s"):
        CircuitBreaker("graph", cooldown_s=0)


def test_each_change_of_state_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    b, clock = make()
    with caplog.at_level(logging.INFO, logger="tutorgraph.stores.breaker"):
        for _ in range(3):
            fail(b)
        for _ in range(500):  # refused calls log nothing
            assert b.admit() is None
        clock.now += 10.0
        probe = b.admit()
        assert probe is not None
        for _ in range(50):
            assert b.admit() is None
        b.failed(probe, "no answer within 2 s")
        clock.now += 10.0
        probe = b.admit()
        assert probe is not None
        b.succeeded(probe)
    lines = [r.getMessage() for r in caplog.records if r.name == "tutorgraph.stores.breaker"]
    assert len(lines) == 5, lines
    assert lines[0].startswith("circuit breaker graph opened after 3 failures in a row")
    assert lines[1] == lines[3] == "circuit breaker graph is half-open: one call probes it"
    assert lines[2].startswith("circuit breaker graph opened again: the probe failed")
    assert lines[4] == "circuit breaker graph closed: the probe answered"


def test_what_counts_against_a_dependency() -> None:
    assert counts_against(TimeoutError())
    assert counts_against(ConnectionRefusedError())
    assert counts_against(StoreError("Neo4j is not reachable"))
    # Refused at once, or not the dependency's failure.
    assert not counts_against(IndexDamagedError("damaged"))
    assert not counts_against(SourceUnavailableError("the query embedding failed"))
    assert not counts_against(KeyError("a bug"))


def test_the_registry_has_a_breaker_per_source_and_the_refiner() -> None:
    breakers = Breakers.make(failures=2, cooldown_s=5.0)
    assert {breakers.source(n).name for n in ("vector", "lexical", "graph")} == {  # type: ignore[union-attr]
        "vector",
        "lexical",
        "graph",
    }
    assert breakers.source("local") is None
    assert breakers.refiner.threshold == 2 and breakers.graph is not None
    assert breakers.graph.cooldown_s == 5.0
    # Only the sources named (those behind a server) get one; the refiner always does.
    graph_only = Breakers.make(sources=("graph",))
    assert graph_only.vector is None and graph_only.lexical is None
    assert graph_only.source("graph") is graph_only.graph is not None
    with pytest.raises(ValueError, match="no such source: local"):
        Breakers.make(sources=("local",))


def test_the_module_example_runs() -> None:
    assert doctest.testmod(breaker_module, verbose=False).failed == 0


# -- the guard ----------------------------------------------------------------------------------


class Dependency:
    """Counts the calls that reach it; `hang` never answers, `fail` raises a store error."""

    def __init__(self, *, hang: bool = False, fail: bool = False) -> None:
        self.hang = hang
        self.fail = fail
        self.calls = 0

    async def call(self) -> list[str]:
        self.calls += 1
        if self.hang:
            await asyncio.Event().wait()
        if self.fail:
            raise StoreError("down", details={"cause": "ServiceUnavailable"})
        return ["answer"]


async def test_an_open_breaker_skips_the_call_at_once_and_says_why() -> None:
    b, _ = make(failures=2)
    dep = Dependency(fail=True)
    for _ in range(2):
        tried = await attempt("graph", dep.call(), 1.0, breaker=b)
        assert tried.value is None
        assert tried.reason == "graph failed: StoreError (ServiceUnavailable)"
    assert b.state == "open" and dep.calls == 2
    # The breaker keeps the cause alone: the reason names the source once.
    assert b.snapshot().last_failure == "StoreError (ServiceUnavailable)"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a skipped coroutine is closed, never left unawaited
        tried = await attempt("graph", dep.call(), 1.0, breaker=b)
    assert tried.value is None and dep.calls == 2
    assert tried.reason is not None
    assert tried.reason.startswith("graph failed: circuit breaker open after 2 failures in a row, ")
    assert "the last: StoreError (ServiceUnavailable); next probe in" in tried.reason


async def test_a_skipped_task_is_cancelled() -> None:
    b, _ = make(failures=1)
    fail(b)
    task = asyncio.create_task(Dependency().call())
    assert await guarded("vector", task, 1.0, breaker=b) is None
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_timeouts_count_and_a_bug_does_not() -> None:
    b, _ = make(failures=2)
    tried = await attempt("graph", Dependency(hang=True).call(), 0.01, breaker=b)
    assert tried.reason == "graph failed: no answer within 0.01 s" and b.snapshot().failures == 1

    async def bug() -> None:
        raise KeyError("ours")

    assert (await attempt("graph", bug(), 1.0, breaker=b)).reason == "graph failed: KeyError"
    assert b.state == "closed" and b.snapshot().failures == 1


async def test_a_cancelled_request_is_not_the_dependency_s_failure() -> None:
    b, clock = make(failures=1)
    fail(b)
    clock.now += 10.0
    dep = Dependency(hang=True)
    task = asyncio.create_task(attempt("graph", dep.call(), 5.0, breaker=b))
    await asyncio.sleep(0.01)
    assert b.state == "half_open" and dep.calls == 1  # it is the probe
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert b.state == "half_open"
    assert (probe := b.admit()) is not None and probe.probe  # the next call probes


async def test_eight_concurrent_callers_pay_the_timeout_once() -> None:
    # Eight requests in flight when the dependency hangs pay its timeout; the breaker then
    # opens, and every later call returns at once without reaching it.
    b = CircuitBreaker("graph", failures=3, cooldown_s=30.0)
    dep = Dependency(hang=True)
    timeout_s = 0.3
    started = time.perf_counter()
    first = await asyncio.gather(
        *(attempt("graph", dep.call(), timeout_s, breaker=b) for _ in range(8))
    )
    assert time.perf_counter() - started >= timeout_s
    assert all(t.reason == "graph failed: no answer within 0.3 s" for t in first)
    assert b.state == "open" and dep.calls == 8
    started = time.perf_counter()
    later = await asyncio.gather(
        *(attempt("graph", dep.call(), timeout_s, breaker=b) for _ in range(80))
    )
    assert time.perf_counter() - started < timeout_s / 2
    assert dep.calls == 8
    opened = "graph failed: circuit breaker open"
    assert all(t.reason and t.reason.startswith(opened) for t in later)


# -- the Neo4j driver's retries -------------------------------------------------------------


def test_the_driver_s_retry_warnings_are_kept_at_debug(caplog: pytest.LogCaptureFixture) -> None:
    quiet_retry_warnings()
    quiet_retry_warnings()  # idempotent
    retry = logging.getLogger("neo4j.session")
    assert sum(type(f).__name__ == "_RetriesAtDebug" for f in retry.filters) == 1
    with caplog.at_level(logging.WARNING):
        retry.warning("Transaction failed and will be retried in %ss (%s)", 1.1, "refused")
        retry.warning("something else")
    assert [r.getMessage() for r in caplog.records] == ["something else"]
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="neo4j.session"):
        retry.warning("Transaction failed and will be retried in %ss (%s)", 1.1, "refused")
    assert [(r.levelname, r.getMessage()[:18]) for r in caplog.records] == [
        ("DEBUG", "Transaction failed")
    ]
