"""`tutorgraph bench latency` on the real slice index, through the real CLI.

The numbers are the benchmark's business; this checks that the default settings' stages
run: the bundled learned rankers' `rank` stage is timed with each question's construct
sent and without it (the text-only ranker), and with the models behind `serve`'s
micro-batchers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

import pytest

pytestmark = pytest.mark.integration

QUESTIONS = Path(__file__).resolve().parents[3] / "tests" / "data" / "eedi" / "train.csv"


@pytest.mark.parametrize(
    "flags", [["--construct"], ["--no-construct"], ["--no-construct", "--micro-batch"]]
)
def test_the_rank_stage_is_timed_with_and_without_the_construct(
    flags: list[str],
    run_cli: Callable[..., CompletedProcess[str]],
    session_index: tuple[Path, object],
    tmp_path: Path,
) -> None:
    out = tmp_path / "latency.json"
    proc = run_cli(
        "bench", "latency", "--questions", str(QUESTIONS), "--n", "12", "--rerank-depths", "",
        "--index-dir", str(session_index[0]), "--out", str(out), *flags,
        timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["n_queries"] == 12
    rank = report["stages_ms"]["rank"]
    # The concept ranker with the construct, the text-only one without (each Eedi query
    # states the student's answer).
    assert rank["p50"] > 0, rank
    assert report["stages_ms"]["wall"]["p50"] > report["stages_ms"]["embed"]["p50"] > 0
    assert "rank" in proc.stdout
    # The request's CPU (every thread's) and the wall time it allows on this machine's cores.
    assert report["cpu_ms_per_request"] > 0
    assert report["cpu_floor_ms"] * report["hardware"]["cores"] == pytest.approx(
        report["cpu_ms_per_request"], abs=0.1 * report["hardware"]["cores"]
    )
    assert f"CPU {report['cpu_ms_per_request']} ms a request" in proc.stdout
