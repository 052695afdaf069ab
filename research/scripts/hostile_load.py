"""Load test with hostile clients: do regex-pathological requests slow everyone else down?

A benchmark, not a test (issue 30, finding 2). It starts `tutorgraph serve` on a free
loopback port (127.0.0.1 only) over the given index, with one read key and the rate limit
off, as `tutorgraph bench load` does (whose server, query set and locust run it reuses:
`tutorgraph_research.tasks.load_server`, `load_test`, `load_locust`). Then two phases,
each bounded by `--requests` normal requests and `--seconds`:

- without: `--clients` (8) clients send ordinary Eedi queries back to back;
- with: the same, on other queries of the set (no cache helps either phase), while
  `--hostile-clients` (2) clients send requests at the request limits whose text made the
  old number-reading patterns backtrack for seconds on the event loop (2,000 characters of
  digits, "9,9,9...", nested LaTeX, "\\(\\(\\(...", a 500-character answer).

- control: the same with `--hostile-clients` clients sending ordinary queries instead, so
  that what two more clients cost a saturated server is told apart from what the hostile
  text costs.

It prints p50 and p95 of the normal requests in each phase, the ratio of the p95 with the
hostile clients to the p95 without (and to the control's), what the extra requests took,
and the hardware, and writes them to `--out`. The bar: the p95 with hostile clients within
1.5x of the p95 without.

    .venv/bin/python research/scripts/hostile_load.py --index-dir .tutorgraph \\
        --questions ../shared/data/eedi/train.csv --out results/hostile_load.json
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tutorgraph_research.harness.provenance import hardware
from tutorgraph_research.tasks import load_locust, load_server, load_test

BAR = 1.5
NINES = f"I got {'9' * 1970} for 1/2+1/4"
HOSTILE: list[dict[str, str]] = [  # each at the limits: 2,000 characters, 500 of answer
    {"query": NINES},
    {"query": ("1/2+1/4 " + "9," * 1000)[:2000], "student_answer": "9" * 500},
    {"query": ("convert " + "9" * 2000)[:1984] + " to a percentage", "student_answer": "3"},
    {"query": ("\\frac{" * 400 + "1" + "}{2}" * 400)[:2000], "student_answer": "3"},
    {"query": ("\\(" * 1000)[:2000], "student_answer": "1" + " " * 498 + "x"},
    {"query": ("I got " + "9 hours = " * 200)[:2000]},
]


def phase(
    url: str, key: str, queries: list[str], args: argparse.Namespace, extra: str | None
) -> dict[str, Any]:
    """`args.clients` normal users over `queries` (after a warm-up), with
    `args.hostile_clients` more running alongside them: `extra` "hostile" ones, or
    "ordinary" ones (the control: what any two more clients cost), or none. Locust runs it
    (`load_locust.run_load`)."""
    hostile = args.hostile_clients if extra else 0
    # The control's users send queries of the set that no phase times.
    bodies = HOSTILE if extra == "hostile" else [{"query": q} for q in queries[: args.warmup]]
    out = load_locust.run_load(
        load_locust.Load(
            url=url,
            key=key,
            users=args.clients,
            warm=[{"query": q, "rerank": False} for q in queries[: args.warmup]],
            timed=[{"query": q, "rerank": False} for q in queries[args.warmup :]],
            seconds=args.seconds,
            timeout=args.timeout,
            extra_users=hostile,
            extra_bodies=[{**body, "rerank": False} for body in bodies],
            head_start_s=0.5 if hostile else 0.0,  # the extra users are going before the timing
        )
    )
    normal = out["normal"]
    row: dict[str, Any] = {
        "phase": f"{args.clients} normal + {hostile} {extra or 'extra'}",
        "normal_clients": args.clients,
        "extra_clients": hostile,
        "extra_kind": extra,
        "normal_ok": normal["ok"],
        "normal_errors": normal["error_kinds"],
        "elapsed_s": out["elapsed_s"],
        "normal_latency_ms": normal["latency_ms"],
    }
    if hostile:
        row["extra_ok"] = out["extra"]["ok"]
        row["extra_errors"] = out["extra"]["error_kinds"]
        row["extra_latency_ms"] = out["extra"]["latency_ms"]
    return row


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        return run(args)
    except load_locust.LoadTestError as exc:
        raise SystemExit(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    from tutorgraph.index.generations import live_generation

    if live_generation(args.index_dir) is None:
        raise SystemExit(f"no tutorgraph index at {args.index_dir}")
    queries = load_test.load_queries(args.questions)
    per_phase = args.warmup + args.requests
    if len(queries) < 3 * per_phase:
        raise SystemExit(f"{args.questions} has {len(queries)} queries; {3 * per_phase} needed")
    key = secrets.token_urlsafe(24)
    with tempfile.TemporaryDirectory(prefix="tutorgraph-hostile-") as tmp:
        server = load_server.start_server(args.index_dir, 1, key, Path(tmp) / "serve.log")
        try:
            ready = load_server.wait_ready(server, args.start_timeout)
            print(f"server up at {server.url} ({ready['generation']})", flush=True)
            rows = []
            for n, extra in enumerate((None, "ordinary", "hostile")):
                print(f"running {args.clients} normal clients + {extra or 'none'} ...", flush=True)
                sliced = load_test.take(queries, n * per_phase, per_phase)
                rows.append(phase(server.url, key, sliced, args, extra))
        finally:
            load_server.stop_server(server)
    without, control, with_ = (r["normal_latency_ms"] for r in rows)
    if without is None or control is None or with_ is None:
        raise SystemExit("no normal request was answered in a phase")
    ratio = round(with_["p95"] / without["p95"], 3)
    print()
    for row in rows:
        lat = row["normal_latency_ms"]
        extra = row.get("extra_latency_ms")
        print(
            f"{row['phase']:<22} normal: {row['normal_ok']} requests, p50 {lat['p50']:.1f} ms, "
            f"p95 {lat['p95']:.1f} ms, errors {sum(row['normal_errors'].values())}"
            + (
                f"; the {row['extra_kind']} ones: {row['extra_ok']} answered, "
                f"p50 {extra['p50']:.1f} ms, p95 {extra['p95']:.1f} ms, "
                f"errors {sum(row['extra_errors'].values())}"
                if extra
                else ""
            )
        )
    verdict = "within" if ratio <= BAR else "OVER"
    print(f"p95 ratio with/without hostile clients: {ratio} ({verdict} the {BAR}x bar)")
    control_ratio = round(with_["p95"] / control["p95"], 3)
    print(f"p95 ratio hostile/ordinary extra clients: {control_ratio}")
    hw = hardware()
    print(f"hardware: {hw['cpu']}, {hw['cores']} cores, Python {hw['python']}")
    report = {
        "command": " ".join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]]),
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "hardware": hw,
        "server": {"host": "127.0.0.1", "workers": 1, "generation": ready["generation"]},
        "bounds": {
            "requests": args.requests,
            "seconds": args.seconds,
            "warmup": args.warmup,
            "timeout_s": args.timeout,
        },
        "hostile_requests": [
            {k: f"{len(v)} characters: {v[:24]!r}..." for k, v in body.items()} for body in HOSTILE
        ],
        "phases": rows,
        "p95_ratio": ratio,
        "p95_ratio_to_control": control_ratio,
        "bar": BAR,
        "within_bar": ratio <= BAR,
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
        help="Eedi train.csv: the normal queries",
    )
    p.add_argument("--clients", type=int, default=8, help="normal clients")
    p.add_argument("--hostile-clients", type=int, default=2, help="hostile clients")
    p.add_argument("--requests", type=int, default=200, help="normal requests per phase (at most)")
    p.add_argument("--seconds", type=float, default=60.0, help="seconds per phase (at most)")
    p.add_argument("--warmup", type=int, default=16, help="untimed requests before each phase")
    p.add_argument("--timeout", type=float, default=60.0, help="per-request timeout (s)")
    p.add_argument("--start-timeout", type=float, default=300.0, help="wait for /readyz (s)")
    p.add_argument("--out", type=Path, default=None, help="also write the report as JSON")
    args = p.parse_args(argv)
    if min(args.clients, args.requests) < 1 or args.hostile_clients < 0 or args.seconds <= 0:
        p.error("--clients and --requests must be >= 1, --hostile-clients >= 0, --seconds > 0")
    return args


if __name__ == "__main__":
    sys.exit(main())
