"""Throughput with a dependency down, with and without its circuit breaker (issue 59, item 3).

Each scenario starts `tutorgraph serve` (one worker) over the index with its own settings and
loads it with locust as `tutorgraph bench load` does (`load_test.run_scenario`'s bodies and
bounds): `clients` users send Eedi (question, wrong answer) queries back to back after an
untimed warm-up. The dependency that is "down" is a closed loopback port (refused) or a
socket that accepts and never answers (hung), for Neo4j (`TUTORGRAPH_NEO4J_URI`) and for the
OpenAI-compatible refiner (`TUTORGRAPH_OPENAI_BASE_URL`). The baselines: the same server with
the embedded graph whose requests search `vector` and `lexical` only (graph off), and the
same server with the local refiner (no OpenAI one). `--before` adds each down scenario with
`TUTORGRAPH_BREAKER_FAILURES=0` (no breaker: every request waits for the timeout).

    python research/scripts/probes/breaker_load.py --index-dir IDX \
        --questions tests/data/eedi/train.csv --clients 8 --seconds 40 --out results/x.json
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tutorgraph_research.harness.provenance import hardware
from tutorgraph_research.tasks.load_locust import Load, run_load
from tutorgraph_research.tasks.load_server import settle, start_server, stop_server, wait_ready
from tutorgraph_research.tasks.load_test import load_queries, take, warmup_count


class Silent:
    """A loopback port that accepts every connection and never sends a byte (a hung
    dependency); `closed_port()` is one nobody listens on (a dependency that is down)."""

    def __init__(self) -> None:
        self._sock = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._sock.getsockname()[1])
        self._held: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            self._held.append(conn)

    @staticmethod
    def closed_port() -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return int(s.getsockname()[1])


@contextmanager
def environment(extra: dict[str, str]) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.update(extra)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def scenarios(silent: Silent, before: bool) -> list[tuple[str, dict[str, str], list[str] | None]]:
    """(name, the server's settings, the sources the requests ask; None: the default)."""
    down = f"bolt://127.0.0.1:{Silent.closed_port()}"
    hung = f"bolt://127.0.0.1:{silent.port}"
    neo4j = {"TUTORGRAPH_NEO4J_PASSWORD": "x"}
    refiner_hung = {"TUTORGRAPH_OPENAI_BASE_URL": f"http://127.0.0.1:{silent.port}/v1"}
    off = {"TUTORGRAPH_BREAKER_FAILURES": "0"}
    out: list[tuple[str, dict[str, str], list[str] | None]] = [
        ("graph off (embedded graph, sources vector+lexical)", {}, ["vector", "lexical"]),
        ("graph down (refused)", {"TUTORGRAPH_NEO4J_URI": down, **neo4j}, None),
        ("graph hung (accepts, never answers)", {"TUTORGRAPH_NEO4J_URI": hung, **neo4j}, None),
        ("local refiner (no OpenAI refiner)", {}, None),
        ("OpenAI refiner hung", refiner_hung, None),
    ]
    if before:
        out += [
            ("graph down, no breaker", {"TUTORGRAPH_NEO4J_URI": down, **neo4j, **off}, None),
            ("graph hung, no breaker", {"TUTORGRAPH_NEO4J_URI": hung, **neo4j, **off}, None),
            ("OpenAI refiner hung, no breaker", {**refiner_hung, **off}, None),
        ]
    return out


def run_one(
    args: argparse.Namespace,
    queries: list[str],
    env: dict[str, str],
    sources: list[str] | None,
    offset: int,
) -> dict[str, Any]:
    key = secrets.token_urlsafe(24)

    def bodies(start: int, n: int) -> list[dict[str, Any]]:
        extra: dict[str, Any] = {"sources": sources} if sources else {}
        return [{"query": q, "rerank": False, **extra} for q in take(queries, start, n)]

    with tempfile.TemporaryDirectory(prefix="breaker-load-") as tmp, environment(env):
        server = start_server(args.index_dir, 1, key, Path(tmp) / "serve.log")
        try:
            ready = wait_ready(server, 300.0)
            time.sleep(2.0)
            settle(server.process.pid, 1, 300.0)
            out = run_load(
                Load(
                    url=server.url,
                    key=key,
                    users=args.clients,
                    warm=bodies(offset + args.requests, warmup_count(20, args.clients)),
                    timed=bodies(offset, args.requests),
                    seconds=args.seconds,
                    timeout=120.0,
                )
            )
        finally:
            stop_server(server)
            log = (Path(tmp) / "serve.log").read_text(errors="replace")
    stats, elapsed = out["normal"], out["elapsed_s"]
    return {
        "readyz": ready["status"],
        "graph": ready["dependencies"]["graph"].get("breaker"),
        "requests": stats["requests"],
        "errors": stats["errors"],
        "elapsed_s": elapsed,
        "req_per_s": round(stats["requests"] / elapsed, 2) if elapsed > 0 else 0.0,
        "latency_ms": {k: stats["latency_ms"][k] for k in ("p50", "p95", "p99")},
        "log_warnings": log.count("WARNING"),
        "log_retry_warnings": log.count("will be retried"),
        "log_breaker_lines": log.count("circuit breaker"),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--index-dir", type=Path, required=True)
    ap.add_argument("--questions", type=Path, required=True)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--seconds", type=float, default=40.0)
    ap.add_argument("--before", action="store_true", help="also without the breakers")
    ap.add_argument(
        "--only", default="", help="scenario numbers (1-based), comma-separated, run in order"
    )
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    queries = load_queries(args.questions)
    silent = Silent()
    every = scenarios(silent, args.before)
    # In the order given (a scenario may come twice: A B B A evens out a machine's drift).
    chosen = [int(n) for n in args.only.split(",") if n.strip()] or range(1, len(every) + 1)
    rows = []
    for n in chosen:
        name, env, sources = every[n - 1]
        row = {"scenario": name, **run_one(args, queries, env, sources, offset=0)}
        print(json.dumps(row), flush=True)
        rows.append(row)
    report = {
        "hardware": hardware(),
        "clients": args.clients,
        "seconds": args.seconds,
        "scenarios": rows,
    }
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
