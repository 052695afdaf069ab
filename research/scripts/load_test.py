"""Load test of `tutorgraph serve`: throughput and latency of `POST /v1/retrieve` under load.

A benchmark, not a test. It starts `tutorgraph serve` on a free loopback port over the
configured index, waits for `/readyz`, then, for each scenario, runs locust (its library API,
headless, in a child process of this script, so that gevent's monkey-patching stays there):
N `FastHttpUser`s send Eedi queries (question, correct answer and a wrong answer: the
`tutorgraph bench latency` query set) back to back until `--requests` have been sent or
`--seconds` have passed (requests in flight then are waited for). Each scenario warms up
first (`--warmup` requests, at least one per user, not timed, on other queries), and each uses
its own slice of the query set, so that no scenario profits from another's caches (the
reranker's and the refiner's).

Scenarios (`--scenarios`): 1, 8 and 32 users without rerank (`"rerank": false`), 8 with
rerank (`"rerank": true`, the configured reranker). Reported per scenario, from locust's
stats: requests, req/s, p50, p95, p99 and mean latency (nearest rank, over every answered
request; locust's histogram is made 0.01 ms fine here, not its default two significant
digits), errors (any status but 200, or a transport error) by kind; and, sampled here from
/proc, the server's RSS (its process tree) at rest and its peak under load. The server runs
with the rate limit off and one API key made for the run; every other setting comes from the
`TUTORGRAPH_*` environment, as for `tutorgraph serve`.

    .venv/bin/python research/scripts/load_test.py --index-dir .tutorgraph \\
        --questions ../shared/data/eedi/train.csv --requests 100 --seconds 30 \\
        --out results/load_test.json
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

# research/scripts/ is first on sys.path: the load and the server are the modules beside it.
from load_locust import Load, run_load
from load_server import (
    PeakRss,
    Server,
    rerank_applied,
    start_server,
    stop_server,
    tree_rss_mib,
    wait_ready,
)

from tutorgraph_research.harness.provenance import hardware

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
    """`"1,8,32,8r"`: users per scenario, `r` for `"rerank": true`."""
    return tuple(
        Scenario(int(s.strip().rstrip("r")), s.strip().endswith("r")) for s in text.split(",")
    )


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
    """Untimed requests before a scenario: `--warmup`, and at least one per user (each
    opens its connection then), unless `--warmup 0`."""
    return max(warmup, clients) if warmup else 0


# -- one scenario, the report ---------------------------------------------------------------------


def run_scenario(
    args: argparse.Namespace,
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
            warm=bodies(offset + args.requests, warmup_count(args.warmup, scenario.clients)),
            timed=bodies(offset, args.requests),
            seconds=args.seconds,
            timeout=args.timeout,
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
                f"{ready['status']}, generation {ready['generation']}",
                flush=True,
            )
            reranker = ready["dependencies"].get("reranker", {})
            time.sleep(2.0)  # let start-up settle
            rss_at_rest = tree_rss_mib(server.process.pid)
            print(f"server RSS at rest: {rss_at_rest} MiB", flush=True)
            offset = 0
            for scenario in args.scenarios:
                applied = None
                if scenario.rerank:
                    applied = rerank_applied(server, key, queries[-1])
                    if not applied:
                        print(f"warning: the server does not rerank ({reranker.get('detail')})")
                print(f"running {scenario.name} ...", flush=True)
                with PeakRss(server.process.pid) as rss:
                    row = run_scenario(args, server, key, queries, scenario, offset)
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
        "load_generator": f"locust {metadata.version('locust')} (FastHttpUser)",
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
    p.add_argument(
        "--scenarios",
        type=parse_scenarios,
        default=parse_scenarios("1,8,32,8r"),
        help='users per scenario, "r" for rerank (default "1,8,32,8r")',
    )
    p.add_argument("--timeout", type=float, default=120.0, help="per-request timeout (s)")
    p.add_argument("--start-timeout", type=float, default=300.0, help="wait for /readyz (s)")
    p.add_argument("--out", type=Path, default=None, help="also write the report as JSON")
    args = p.parse_args(argv)
    if args.requests < 1 or args.seconds <= 0 or args.warmup < 0 or args.workers < 1:
        p.error("--requests and --workers must be >= 1, --seconds > 0, --warmup >= 0")
    if not args.scenarios or min(s.clients for s in args.scenarios) < 1:
        p.error("--scenarios: one or more user counts >= 1, e.g. 1,8,32,8r")
    return args


def main(argv: list[str] | None = None) -> int:
    return server_main(parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
