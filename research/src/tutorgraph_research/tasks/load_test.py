"""The HTTP load test of `tutorgraph serve`: throughput and latency of `POST /v1/retrieve`
under load, and the memory of each server process (`tutorgraph bench load`, and
research/scripts/load_test.py).

It starts `tutorgraph serve --workers N` on a free loopback port over the index
(`load_server`), waits for `/readyz` and for every worker to settle, then, for each
scenario, runs locust in a child process (`load_locust`): N `FastHttpUser`s send Eedi
queries (question, and a wrong answer) back to back until `requests` have been sent or
`seconds` have passed (requests in flight then are waited for). Each scenario warms up
first (`warmup` requests, at least one per user, not timed, on other queries), and each
uses its own slice of the query set, so that no scenario profits from another's caches.

Reported per scenario: requests, req/s, p50/p95/p99 and mean latency (nearest rank over
every answered request, from locust's stats made 0.01 ms fine), errors by kind, the p95 as
a multiple of the 1-client p95 (same rerank setting), and the RSS peaks under load of the
process tree and of each process; for the server, each process's RSS at rest.

>>> spec = LoadTestSpec(Path(".tutorgraph"), Path("train.csv"), workers=2,
...                     scenarios=parse_scenarios("1,8,32"))  # doctest: +SKIP
>>> report = run_load_test(spec, say=print)  # doctest: +SKIP
>>> [(r["clients"], r["p95_vs_1_client"]) for r in report["scenarios"]]  # doctest: +SKIP
[(1, 1.0), (8, 7.41), (32, 24.79)]
"""

from __future__ import annotations

import secrets
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from tutorgraph_research.harness.provenance import hardware
from tutorgraph_research.tasks.load_locust import Load, LoadTestError, run_load
from tutorgraph_research.tasks.load_server import (
    PeakRss,
    Server,
    process_roles,
    process_rss_mib,
    rerank_applied,
    settle,
    start_server,
    stop_server,
    wait_ready,
)

__all__ = [
    "MAX_QUERY_CHARS",
    "LoadTestError",
    "LoadTestSpec",
    "Scenario",
    "load_queries",
    "memory_rows",
    "p95_ratios",
    "parse_clients",
    "parse_scenarios",
    "run_load_test",
    "take",
    "warmup_count",
]

MAX_QUERY_CHARS = 2000  # `RetrievalRequest.query`'s limit: longer queries would be 422s


@dataclass(frozen=True)
class Scenario:
    clients: int
    rerank: bool

    @property
    def name(self) -> str:
        return f"{self.clients} client{'s' if self.clients > 1 else ''}, " + (
            "rerank" if self.rerank else "no rerank"
        )


def parse_scenarios(text: str) -> tuple[Scenario, ...]:
    """`"1,8,32,8r"`: users per scenario, `r` for `"rerank": true`.

    >>> parse_scenarios("1,8r")
    (Scenario(clients=1, rerank=False), Scenario(clients=8, rerank=True))
    """
    return tuple(
        Scenario(int(s.strip().rstrip("r")), s.strip().endswith("r")) for s in text.split(",")
    )


def parse_clients(text: str) -> tuple[int, ...]:
    """`"1,8,32"`: the clients of each scenario, each a distinct integer >= 1, in order.
    Raises `ValueError` with a message for anything else.

    >>> parse_clients("1, 8,32")
    (1, 8, 32)
    """
    parts = [p.strip() for p in text.split(",")]
    if not text.strip() or not all(p.isdigit() for p in parts):
        raise ValueError(f"{text!r}: comma-separated client counts, e.g. 1,8,32")
    clients = tuple(int(p) for p in parts)
    if min(clients) < 1:
        raise ValueError(f"{text!r}: every client count must be >= 1")
    if len(set(clients)) != len(clients):
        raise ValueError(f"{text!r}: a client count appears twice")
    return clients


# -- the query set --------------------------------------------------------------------------------


def load_queries(path: Path) -> list[str]:
    """Every (question, wrong answer) query of an Eedi train file, in file order."""
    from tutorgraph.ingest.eedi import eedi_query_text, read_eedi_questions

    queries = [
        eedi_query_text(q, letter)
        for q in read_eedi_questions(path)
        for letter in sorted(q.answers)
        if letter != q.correct_answer
    ]
    return [q for q in queries if q.strip() and len(q) <= MAX_QUERY_CHARS]


def take(queries: Sequence[str], start: int, n: int) -> list[str]:
    """`n` queries from `start`, wrapping around the set."""
    return [queries[(start + i) % len(queries)] for i in range(n)]


def warmup_count(warmup: int, clients: int) -> int:
    """Untimed requests before a scenario: `warmup`, and at least one per user (each opens
    its connection then), unless `warmup` is 0."""
    return max(warmup, clients) if warmup else 0


# -- the report's arithmetic ----------------------------------------------------------------------


def p95_ratios(rows: Sequence[Mapping[str, Any]]) -> list[float | None]:
    """Each scenario's p95 as a multiple of the p95 of the first 1-client scenario with the
    same rerank setting (issue 51's bar: within 3x), rounded to 0.01; None where either has
    no latency (nothing answered) or there is no 1-client scenario.

    >>> rows = [{"clients": 1, "rerank": False, "latency_ms": {"p95": 40.0}},
    ...         {"clients": 8, "rerank": False, "latency_ms": {"p95": 110.0}},
    ...         {"clients": 8, "rerank": True, "latency_ms": {"p95": 900.0}}]
    >>> p95_ratios(rows)
    [1.0, 2.75, None]
    """
    base: dict[bool, float] = {}
    for row in rows:
        lat = row["latency_ms"]
        if row["clients"] == 1 and lat and lat["p95"] > 0:
            base.setdefault(bool(row["rerank"]), float(lat["p95"]))
    ratios: list[float | None] = []
    for row in rows:
        lat, one = row["latency_ms"], base.get(bool(row["rerank"]))
        ratios.append(round(lat["p95"] / one, 2) if lat and one else None)
    return ratios


def memory_rows(
    roles: Mapping[int, str],
    at_rest: Mapping[int, float],
    peaks: Iterable[Mapping[int, float]],
) -> list[dict[str, Any]]:
    """One row per server process (by pid, in `roles`' order): its role, RSS at rest and its
    peak over every scenario (`peaks`, one mapping per scenario; None if never sampled).

    >>> memory_rows({7: "parent", 9: "worker"}, {7: 80.0, 9: 650.0}, [{9: 700.0}, {9: 720.5}])
    ... # doctest: +NORMALIZE_WHITESPACE
    [{'pid': 7, 'role': 'parent', 'rss_at_rest_mib': 80.0, 'peak_rss_mib': None},
     {'pid': 9, 'role': 'worker', 'rss_at_rest_mib': 650.0, 'peak_rss_mib': 720.5}]
    """
    peaks = list(peaks)
    rows = []
    for pid, role in roles.items():
        seen = [p[pid] for p in peaks if pid in p]
        rows.append(
            {
                "pid": pid,
                "role": role,
                "rss_at_rest_mib": at_rest.get(pid),
                "peak_rss_mib": max(seen) if seen else None,
            }
        )
    return rows


# -- the run --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LoadTestSpec:
    """What to load: the index served with `workers` workers, the query file, the scenarios,
    and each scenario's bounds (`requests` at most, `seconds` at most, `warmup` untimed
    requests first, `timeout` per request); `start_timeout` for `/readyz`."""

    index_dir: Path
    questions: Path
    workers: int = 1
    scenarios: tuple[Scenario, ...] = (Scenario(1, False), Scenario(8, False))
    requests: int = 500
    seconds: float = 60.0
    warmup: int = 20
    timeout: float = 120.0
    start_timeout: float = 300.0


def run_scenario(
    spec: LoadTestSpec,
    server: Server,
    key: str,
    queries: list[str],
    scenario: Scenario,
    offset: int,
) -> dict[str, Any]:
    def bodies(start: int, n: int) -> list[dict[str, Any]]:
        return [{"query": q, "rerank": scenario.rerank} for q in take(queries, start, n)]

    out = run_load(
        Load(
            url=server.url,
            key=key,
            users=scenario.clients,
            warm=bodies(offset + spec.requests, warmup_count(spec.warmup, scenario.clients)),
            timed=bodies(offset, spec.requests),
            seconds=spec.seconds,
            timeout=spec.timeout,
        )
    )
    stats, elapsed = out["normal"], out["elapsed_s"]
    return {
        "scenario": scenario.name,
        "clients": scenario.clients,
        "rerank": scenario.rerank,
        **{k: stats[k] for k in ("requests", "ok", "errors", "error_kinds")},
        "elapsed_s": elapsed,
        "req_per_s": round(stats["requests"] / elapsed, 2) if elapsed > 0 else 0.0,
        "latency_ms": stats["latency_ms"],
        "locust_cpu_warning": out["locust_cpu_warning"],
    }


def run_load_test(spec: LoadTestSpec, say: Callable[[str], None] = print) -> dict[str, Any]:
    """Serve `spec.index_dir`, run every scenario against it, stop it; the report (without
    the command line, which the caller adds). `say` gets one line per step. Raises
    `LoadTestError` when there is no index or no query, or the server or locust fails."""
    from tutorgraph.config import Settings
    from tutorgraph.index.generations import live_generation

    if live_generation(spec.index_dir) is None:
        raise LoadTestError(f"no tutorgraph index at {spec.index_dir}")
    queries = load_queries(spec.questions)
    if not queries:
        raise LoadTestError(f"no queries in {spec.questions}")
    threads = Settings().inference_threads
    key = secrets.token_urlsafe(24)
    rows: list[dict[str, Any]] = []
    peaks: list[dict[int, float]] = []
    with tempfile.TemporaryDirectory(prefix="tutorgraph-load-") as tmp:
        server = start_server(spec.index_dir, spec.workers, key, Path(tmp) / "serve.log")
        pid = server.process.pid
        try:
            started = time.monotonic()
            ready = wait_ready(server, spec.start_timeout)
            say(
                f"server up in {time.monotonic() - started:.1f}s at {server.url}: "
                f"{ready['status']}, generation {ready['generation']}"
            )
            reranker = ready["dependencies"].get("reranker", {})
            time.sleep(2.0)  # let start-up settle
            settle(pid, spec.workers, spec.start_timeout)
            roles = process_roles(pid, spec.workers)
            at_rest = process_rss_mib(pid)
            rss_at_rest = round(sum(at_rest.values()), 1)
            n_workers = sum(role == "worker" for role in roles.values())
            if n_workers != spec.workers:
                say(f"warning: {n_workers} worker processes found, {spec.workers} asked for")
            say(f"server RSS at rest: {rss_at_rest} MiB")
            offset = 0
            for scenario in spec.scenarios:
                applied = None
                if scenario.rerank:
                    applied = rerank_applied(server, key, queries[-1])
                    if not applied:
                        say(f"warning: the server does not rerank ({reranker.get('detail')})")
                say(f"running {scenario.name} ...")
                with PeakRss(pid) as rss:
                    row = run_scenario(spec, server, key, queries, scenario, offset)
                row["server_peak_rss_mib"] = rss.peak
                row["process_peak_rss_mib"] = {str(p): mib for p, mib in rss.peaks.items()}
                peaks.append(rss.peaks)
                if applied is not None:
                    row["reranker_applied"] = applied
                rows.append(row)
                offset += spec.requests + warmup_count(spec.warmup, scenario.clients)
        finally:
            stop_server(server)
    for row, ratio in zip(rows, p95_ratios(rows), strict=True):
        row["p95_vs_1_client"] = ratio
    return {
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "hardware": hardware(),
        "load_generator": f"locust {metadata.version('locust')} (FastHttpUser)",
        "server": {
            "workers": spec.workers,
            "inference_threads": threads,
            "generation": ready["generation"],
            "readyz": ready["status"],
            "reranker": reranker.get("detail"),
            "rss_at_rest_mib": rss_at_rest,
        },
        "memory": memory_rows(roles, at_rest, peaks),
        "bounds": {
            "requests": spec.requests,
            "seconds": spec.seconds,
            "warmup": spec.warmup,
            "timeout_s": spec.timeout,
        },
        "queries": {"file": str(spec.questions), "available": len(queries)},
        "scenarios": rows,
    }
