"""Load test of `tutorgraph serve`: throughput and latency of `POST /v1/retrieve` under load.

A benchmark, not a test. It starts `tutorgraph serve` on a free loopback port over the
configured index, waits for `/readyz`, then, for each scenario, runs a separate client
process (this script in `--client` mode) in which N concurrent `httpx.AsyncClient` workers
send Eedi queries (question, correct answer and a wrong answer: the `tutorgraph bench
latency` query set) until `--requests` have been sent or `--seconds` have passed. Each
scenario warms up first (`--warmup` requests, at least one per client, not timed, on other
queries), and each uses its own slice of the query set, so that no scenario profits from
another's caches (the reranker's and the refiner's).

Scenarios: 1, 8 and 32 clients without rerank (`"rerank": false`), 8 clients with rerank
(`"rerank": true`, the configured reranker). Reported per scenario: requests, req/s, p50,
p95 and p99 latency (of the requests answered 200), errors (any other status, or a
transport error), and the server's worker processes and inference threads. The server
runs with the rate limit off and one API key made for the run; every other setting comes
from the `TUTORGRAPH_*` environment, as for `tutorgraph serve`.

    .venv/bin/python scripts/load_test.py --index-dir .tutorgraph \\
        --questions ../shared/data/eedi/train.csv --requests 100 --seconds 30 \\
        --out results/load_test.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

RETRIEVE = "/v1/retrieve"
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


SCENARIOS = (Scenario(1, False), Scenario(8, False), Scenario(32, False), Scenario(8, True))


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


def take(queries: list[str], start: int, n: int) -> list[str]:
    """`n` queries from `start`, wrapping around the set."""
    return [queries[(start + i) % len(queries)] for i in range(n)]


def warmup_count(warmup: int, clients: int) -> int:
    """Untimed requests before a scenario: `--warmup`, and at least one per client (each
    opens its connection then), unless `--warmup 0`."""
    return max(warmup, clients) if warmup else 0


# -- the client process -------------------------------------------------------------------------


@dataclass
class Outcome:
    latencies_ms: list[float]
    errors: Counter[str]
    sent: int
    elapsed_s: float


async def drive(
    client: httpx.AsyncClient,
    queries: list[str],
    *,
    clients: int,
    rerank: bool,
    max_requests: int,
    max_seconds: float | None,
) -> Outcome:
    """`clients` workers sending requests back to back until `max_requests` have been sent
    or `max_seconds` have passed (requests in flight then are waited for)."""
    latencies: list[float] = []
    errors: Counter[str] = Counter()
    sent = 0
    started = time.perf_counter()
    deadline = None if max_seconds is None else started + max_seconds

    async def worker() -> None:
        nonlocal sent
        while sent < max_requests and (deadline is None or time.perf_counter() < deadline):
            query = queries[sent % len(queries)]
            sent += 1
            t0 = time.perf_counter()
            try:
                resp = await client.post(RETRIEVE, json={"query": query, "rerank": rerank})
                await resp.aread()
            except httpx.HTTPError as exc:
                errors[type(exc).__name__] += 1
                continue
            if resp.status_code == 200:
                latencies.append((time.perf_counter() - t0) * 1e3)
            else:
                errors[f"HTTP {resp.status_code}"] += 1

    await asyncio.gather(*(worker() for _ in range(clients)))
    return Outcome(latencies, errors, sent, time.perf_counter() - started)


async def client_main(args: argparse.Namespace) -> dict[str, Any]:
    queries = load_queries(args.questions)
    timed = take(queries, args.offset, args.requests)
    warm = take(queries, args.offset + args.requests, warmup_count(args.warmup, args.clients))
    limits = httpx.Limits(max_connections=args.clients, max_keepalive_connections=args.clients)
    async with httpx.AsyncClient(
        base_url=args.url,
        headers={"X-API-Key": args.key},
        timeout=httpx.Timeout(args.timeout),
        limits=limits,
    ) as client:
        kw: dict[str, Any] = {"clients": args.clients, "rerank": args.rerank}
        if warm:
            await drive(client, warm, max_requests=len(warm), max_seconds=None, **kw)
        out = await drive(client, timed, max_requests=args.requests, max_seconds=args.seconds, **kw)
    return {
        "latencies_ms": out.latencies_ms,
        "errors": dict(out.errors),
        "sent": out.sent,
        "elapsed_s": out.elapsed_s,
    }


# -- the server ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def tutorgraph_command() -> list[str]:
    script = Path(sys.executable).with_name("tutorgraph")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "from tutorgraph.cli.app import main; main()"]


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def log_tail(self, n: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""


def start_server(args: argparse.Namespace, key: str, log: Path) -> Server:
    from tutorgraph.api.auth import key_entry

    port = free_port()
    env = dict(os.environ)
    env.update(
        TUTORGRAPH_API_KEYS=key_entry(key, "read"),
        TUTORGRAPH_RATE_LIMIT_PER_MINUTE="0",
        TOKENIZERS_PARALLELISM="false",
    )
    env.setdefault("HF_HUB_OFFLINE", "1")
    command = [
        *tutorgraph_command(),
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--index-dir",
        str(args.index_dir),
        "--workers",
        str(args.workers),
        "--log-level",
        "warning",
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    return Server(f"http://127.0.0.1:{port}", process, log)


def tree_rss_mib(pid: int) -> float:
    """Resident memory of `pid` and its descendants (uvicorn's workers), from /proc."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parents[int(stat.parent.name)] = int(fields[1])
        except (OSError, IndexError, ValueError):
            continue
    tree, frontier = {pid}, [pid]
    while frontier:
        parent = frontier.pop()
        children = [p for p, pp in parents.items() if pp == parent and p not in tree]
        tree.update(children)
        frontier.extend(children)
    kib = 0
    for p in tree:
        try:
            status = Path(f"/proc/{p}/status").read_text()
            kib += int(status.split("VmRSS:")[1].split()[0])
        except (OSError, IndexError, ValueError):
            continue
    return round(kib / 1024, 1)


class PeakRss:
    """The largest `tree_rss_mib` seen every 0.25 s while the block runs."""

    def __init__(self, pid: int) -> None:
        self._pid, self.peak, self._stop = pid, 0.0, threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(0.25):
            self.peak = max(self.peak, tree_rss_mib(self._pid))

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def wait_ready(server: Server, timeout_s: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise SystemExit(
                f"tutorgraph serve exited with {server.process.returncode}:\n{server.log_tail()}"
            )
        try:
            resp = httpx.get(server.url + "/readyz", timeout=30)
            if resp.status_code == 200:
                body: dict[str, Any] = resp.json()
                return body
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"tutorgraph serve was not ready within {timeout_s:g}s:\n{server.log_tail()}")


def stop_server(server: Server) -> None:
    if server.process.poll() is not None:
        return
    server.process.send_signal(signal.SIGTERM)
    try:
        server.process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()


def rerank_applied(server: Server, key: str, query: str) -> bool:
    """Whether the server reranks a `"rerank": true` request (a reranker is loaded)."""
    resp = httpx.post(
        server.url + RETRIEVE,
        json={"query": query, "rerank": True},
        headers={"X-API-Key": key},
        timeout=120,
    )
    resp.raise_for_status()
    return bool(resp.json()["reranker"]["applied"])


# -- one scenario, the report ---------------------------------------------------------------------


def run_scenario(
    args: argparse.Namespace, server: Server, key: str, scenario: Scenario, offset: int
) -> dict[str, Any]:
    from tutorgraph.eval.tasks.latency import percentiles

    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--client",
        "--url",
        server.url,
        "--key",
        key,
        "--questions",
        str(args.questions),
        "--clients",
        str(scenario.clients),
        "--requests",
        str(args.requests),
        "--seconds",
        str(args.seconds),
        "--warmup",
        str(args.warmup),
        "--offset",
        str(offset),
        "--timeout",
        str(args.timeout),
    ]
    if scenario.rerank:
        command.append("--rerank")
    # Generous: the warm-up is not bounded in time, and a request may take `--timeout`.
    limit = args.seconds + 2 * args.timeout + 600
    proc = subprocess.run(command, capture_output=True, text=True, timeout=limit, check=False)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise SystemExit(
            f"the client for {scenario.name!r} failed ({proc.returncode}):\n{proc.stderr}"
        )
    raw = json.loads(proc.stdout.strip().splitlines()[-1])
    latencies: list[float] = raw["latencies_ms"]
    errors: dict[str, int] = raw["errors"]
    elapsed = float(raw["elapsed_s"])
    answered = len(latencies) + sum(errors.values())
    return {
        "scenario": scenario.name,
        "clients": scenario.clients,
        "rerank": scenario.rerank,
        "requests": answered,
        "ok": len(latencies),
        "errors": sum(errors.values()),
        "error_kinds": errors,
        "elapsed_s": round(elapsed, 3),
        "req_per_s": round(answered / elapsed, 2) if elapsed > 0 else 0.0,
        "latency_ms": percentiles(latencies) if latencies else None,
    }


def print_table(rows: list[dict[str, Any]], workers: int, threads: int) -> None:
    header = (
        f"{'scenario':<22} {'requests':>8} {'req/s':>8} {'p50 ms':>9} {'p95 ms':>9} "
        f"{'p99 ms':>9} {'errors':>6} {'workers':>7} {'peak MiB':>9}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        lat = row["latency_ms"] or {"p50": float("nan"), "p95": float("nan"), "p99": float("nan")}
        print(
            f"{row['scenario']:<22} {row['requests']:>8} {row['req_per_s']:>8.2f} "
            f"{lat['p50']:>9.1f} {lat['p95']:>9.1f} {lat['p99']:>9.1f} {row['errors']:>6} "
            f"{workers:>7} {row['server_peak_rss_mib']:>9.0f}"
        )
    print(f"(server: {workers} worker process(es), {threads} inference threads each)")


def server_main(args: argparse.Namespace) -> int:
    from tutorgraph.config import Settings
    from tutorgraph.eval.harness.provenance import hardware
    from tutorgraph.index.generations import live_generation

    if live_generation(args.index_dir) is None:
        raise SystemExit(f"no tutorgraph index at {args.index_dir}")
    queries = load_queries(args.questions)
    if not queries:
        raise SystemExit(f"no queries in {args.questions}")
    threads = Settings().inference_threads
    key = secrets.token_urlsafe(24)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="tutorgraph-load-") as tmp:
        server = start_server(args, key, Path(tmp) / "serve.log")
        try:
            started = time.monotonic()
            ready = wait_ready(server, args.start_timeout)
            print(
                f"server up in {time.monotonic() - started:.1f}s at {server.url}: "
                f"{ready['status']}, {ready['index_dir']}",
                flush=True,
            )
            reranker = ready["dependencies"].get("reranker", {})
            time.sleep(2.0)  # let start-up settle
            rss_at_rest = tree_rss_mib(server.process.pid)
            print(f"server RSS at rest: {rss_at_rest} MiB", flush=True)
            offset = 0
            for scenario in SCENARIOS:
                applied = None
                if scenario.rerank:
                    applied = rerank_applied(server, key, queries[-1])
                    if not applied:
                        print(f"warning: the server does not rerank ({reranker.get('detail')})")
                print(f"running {scenario.name} ...", flush=True)
                with PeakRss(server.process.pid) as rss:
                    row = run_scenario(args, server, key, scenario, offset)
                row["server_peak_rss_mib"] = rss.peak
                if applied is not None:
                    row["reranker_applied"] = applied
                rows.append(row)
                offset += args.requests + warmup_count(args.warmup, scenario.clients)
        finally:
            stop_server(server)
    print()
    print_table(rows, args.workers, threads)
    report = {
        "command": " ".join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]]),
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "hardware": hardware(),
        "server": {
            "workers": args.workers,
            "inference_threads": threads,
            "generation": ready["generation"],
            "readyz": ready["status"],
            "reranker": reranker.get("detail"),
            "rss_at_rest_mib": rss_at_rest,
        },
        "bounds": {
            "requests": args.requests,
            "seconds": args.seconds,
            "warmup": args.warmup,
            "timeout_s": args.timeout,
        },
        "queries": {"file": str(args.questions), "available": len(queries)},
        "scenarios": rows,
    }
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.out}")
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--index-dir", type=Path, default=Path(".tutorgraph"), help="index to serve")
    p.add_argument(
        "--questions",
        type=Path,
        default=Path("../shared/data/eedi/train.csv"),
        help="Eedi train.csv: the query set",
    )
    p.add_argument("--requests", type=int, default=500, help="requests per scenario (at most)")
    p.add_argument("--seconds", type=float, default=60.0, help="seconds per scenario (at most)")
    p.add_argument("--warmup", type=int, default=20, help="untimed requests before each scenario")
    p.add_argument("--workers", type=int, default=1, help="`tutorgraph serve --workers`")
    p.add_argument("--timeout", type=float, default=120.0, help="per-request timeout (s)")
    p.add_argument("--start-timeout", type=float, default=300.0, help="wait for /readyz (s)")
    p.add_argument("--out", type=Path, default=None, help="also write the report as JSON")
    # The client process (started by this script for each scenario).
    p.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--url", help=argparse.SUPPRESS)
    p.add_argument("--key", help=argparse.SUPPRESS)
    p.add_argument("--clients", type=int, default=1, help=argparse.SUPPRESS)
    p.add_argument("--rerank", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--offset", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.requests < 1 or args.seconds <= 0 or args.warmup < 0 or args.workers < 1:
        p.error("--requests and --workers must be >= 1, --seconds > 0, --warmup >= 0")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.client:
        print(json.dumps(asyncio.run(client_main(args))))
        return 0
    return server_main(args)


if __name__ == "__main__":
    sys.exit(main())
