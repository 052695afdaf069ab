"""`research/scripts/load_test.py` and `research/scripts/hostile_load.py` end to end, small:
a real `tutorgraph serve` over the session index, loaded by locust, and the reports they
write.
Checks that the scripts work, not benchmarks: no number here is a measurement.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
REQUESTS = 20
QUESTIONS = REPO / "tests" / "data" / "eedi" / "train.csv"


def run_script(name: str, env: dict[str, str], cwd: Path, *args: str) -> str:
    command = [sys.executable, str(REPO / "research" / "scripts" / name), *args]
    proc = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_load_test_script_reports_locust_stats_per_scenario(
    session_index: tuple[Path, object], child_env: Callable[..., dict[str, str]], tmp_path: Path
) -> None:
    out = tmp_path / "load_test.json"
    stdout = run_script(
        "load_test.py",
        child_env(),
        tmp_path,
        *("--index-dir", str(session_index[0]), "--questions", str(QUESTIONS)),
        *("--scenarios", "2,2r", "--requests", str(REQUESTS), "--warmup", "2"),
        # A bound the 20 requests stay far under: the request cap ends each scenario.
        *("--seconds", "60", "--timeout", "60", "--out", str(out)),
    )

    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["load_generator"].startswith("locust ")
    assert report["server"]["workers"] == 1 and report["server"]["rss_at_rest_mib"] > 0
    assert report["bounds"]["requests"] == REQUESTS
    rows = report["scenarios"]
    assert [(r["scenario"], r["clients"], r["rerank"]) for r in rows] == [
        ("2 clients, no rerank", 2, False),
        ("2 clients, rerank", 2, True),
    ]
    for row in rows:
        assert row["requests"] == row["ok"] == REQUESTS, row
        assert row["errors"] == 0 and row["error_kinds"] == {}, row
        lat = row["latency_ms"]
        assert 0 < lat["p50"] <= lat["p95"] <= lat["p99"], row
        assert row["elapsed_s"] > 0 and row["req_per_s"] > 0, row
        assert row["server_peak_rss_mib"] > 0, row
    assert "reranker_applied" in rows[1]
    # The table the script prints names each scenario.
    assert "2 clients, no rerank" in stdout and "2 clients, rerank" in stdout


def test_hostile_load_script_reports_each_phase(
    session_index: tuple[Path, object], child_env: Callable[..., dict[str, str]], tmp_path: Path
) -> None:
    out = tmp_path / "hostile_load.json"
    requests, seconds = 30, 1.0  # the test set has 120 queries: 3 phases of 2 + 30
    run_script(
        "hostile_load.py",
        child_env(),
        tmp_path,
        *("--index-dir", str(session_index[0]), "--questions", str(QUESTIONS)),
        *("--clients", "2", "--hostile-clients", "1", "--warmup", "2"),
        *("--requests", str(requests), "--seconds", str(seconds), "--timeout", "60"),
        *("--out", str(out)),
    )

    report = json.loads(out.read_text(encoding="utf-8"))
    phases = report["phases"]
    assert [(p["extra_clients"], p["extra_kind"]) for p in phases] == [
        (0, None),
        (1, "ordinary"),
        (1, "hostile"),
    ]
    for phase in phases:
        assert phase["normal_errors"] == {}, phase
        # Whichever bound comes first ends a phase: the request cap or the seconds.
        assert 0 < phase["normal_ok"] <= requests, phase
        assert phase["normal_ok"] == requests or phase["elapsed_s"] >= seconds, phase
        lat = phase["normal_latency_ms"]
        assert 0 < lat["p50"] <= lat["p95"] <= lat["p99"], phase
    for phase in phases[1:]:
        assert phase["extra_ok"] > 0 and phase["extra_errors"] == {}, phase
        assert phase["extra_latency_ms"]["p50"] > 0, phase
    assert report["p95_ratio"] > 0 and isinstance(report["within_bar"], bool)
