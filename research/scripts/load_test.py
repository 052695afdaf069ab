"""Load test of `tutorgraph serve`: throughput and latency of `POST /v1/retrieve` under load.

A benchmark, not a test, and since issue 51 a thin wrapper: the load test itself is
`tutorgraph_research.tasks.load_test` (with `load_server` and `load_locust`), which
`tutorgraph bench load` runs too; this script keeps its `--scenarios` (rerank ones too) and
its plain table. It starts `tutorgraph serve` on a free loopback port over the configured
index, waits for `/readyz` (and for every worker to settle), then, for each scenario, runs
locust (its library API, headless, in a child process of this script, so that gevent's
monkey-patching stays there): N `FastHttpUser`s send Eedi queries (question, correct answer
and a wrong answer: the `tutorgraph bench latency` query set) back to back until
`--requests` have been sent or `--seconds` have passed (requests in flight then are waited
for). Each scenario warms up first (`--warmup` requests, at least one per user, not timed,
on other queries), and each uses its own slice of the query set, so that no scenario profits
from another's caches (the reranker's and the refiner's).

Scenarios (`--scenarios`): 1, 8 and 32 users without rerank (`"rerank": false`), 8 with
rerank (`"rerank": true`, the configured reranker). Reported per scenario, from locust's
stats: requests, req/s, p50, p95, p99 and mean latency (nearest rank, over every answered
request; locust's histogram is made 0.01 ms fine here, not its default two significant
digits), errors (any status but 200, or a transport error) by kind; and, sampled here from
/proc, the server's RSS (its process tree, and each process) at rest and its peak under
load. The server runs with the rate limit off and one API key made for the run; every other
setting comes from the `TUTORGRAPH_*` environment, as for `tutorgraph serve`.

    .venv/bin/python research/scripts/load_test.py --index-dir .tutorgraph \\
        --questions ../shared/data/eedi/train.csv --requests 100 --seconds 30 \\
        --out results/load_test.json
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from pathlib import Path
from typing import Any

from tutorgraph_research.tasks.load_test import (
    LoadTestError,
    LoadTestSpec,
    parse_scenarios,
    run_load_test,
)


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


def print_memory(memory: list[dict[str, Any]]) -> None:
    for row in memory:
        peak = row["peak_rss_mib"]
        print(
            f"  pid {row['pid']} ({row['role']}): {row['rss_at_rest_mib']} MiB at rest, "
            f"peak {peak if peak is not None else '-'} MiB under load"
        )


def server_main(args: argparse.Namespace) -> int:
    spec = LoadTestSpec(
        index_dir=args.index_dir,
        questions=args.questions,
        workers=args.workers,
        scenarios=args.scenarios,
        requests=args.requests,
        seconds=args.seconds,
        warmup=args.warmup,
        timeout=args.timeout,
        start_timeout=args.start_timeout,
    )
    try:
        report = run_load_test(spec, say=functools.partial(print, flush=True))
    except LoadTestError as exc:
        raise SystemExit(str(exc)) from None
    print()
    print_table(report["scenarios"], args.workers, report["server"]["inference_threads"])
    print_memory(report["memory"])
    report = {"command": " ".join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]]), **report}
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
