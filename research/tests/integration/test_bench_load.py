"""`tutorgraph bench load` through the real CLI, small: a real `tutorgraph serve` (1 worker)
over the session index, loaded by locust at 1 and 2 clients, and the report it writes.
Checks that the benchmark runs, not a measurement: no number here is one."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

import pytest

# A server start (the models load) and two small locust runs: about 11 s on 2 cores.
pytestmark = pytest.mark.integration

QUESTIONS = Path(__file__).resolve().parents[3] / "tests" / "data" / "eedi" / "train.csv"
REQUESTS = 8


def test_bench_load_reports_each_scenario_and_each_worker_memory(
    run_cli: Callable[..., CompletedProcess[str]],
    session_index: tuple[Path, object],
    tmp_path: Path,
) -> None:
    out = tmp_path / "load.json"
    proc = run_cli(
        "bench", "load", "--questions", str(QUESTIONS), "--index-dir", str(session_index[0]),
        "--workers", "1", "--clients", "1,2", "--requests", str(REQUESTS), "--warmup", "2",
        # A bound the requests stay far under: the request cap ends each scenario.
        "--seconds", "60", "--timeout", "60", "--out", str(out),
        timeout=300,
        TUTORGRAPH_RERANKER_MODEL="",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]

    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["command"].startswith("tutorgraph bench load")
    rows = report["scenarios"]
    assert [(r["clients"], r["rerank"]) for r in rows] == [(1, False), (2, False)]
    for row in rows:
        assert row["requests"] == row["ok"] == REQUESTS, row
        assert row["errors"] == 0 and row["error_kinds"] == {}, row
        lat = row["latency_ms"]
        assert 0 < lat["p50"] <= lat["p95"] <= lat["p99"], row
        assert row["req_per_s"] > 0 and row["server_peak_rss_mib"] > 0, row
    assert rows[0]["p95_vs_1_client"] == 1.0 and rows[1]["p95_vs_1_client"] > 0

    # One memory row per worker (with one worker, the server process itself), each with its
    # RSS at rest and its peak under load.
    workers = [m for m in report["memory"] if m["role"] == "worker"]
    assert len(workers) == report["server"]["workers"] == 1, report["memory"]
    assert workers[0]["rss_at_rest_mib"] > 0 and workers[0]["peak_rss_mib"] > 0
    # The table, the hardware line and the memory table are printed.
    assert "p95 ratio" in proc.stdout and "cores" in proc.stdout
    assert "RSS at rest" in proc.stdout, proc.stdout
