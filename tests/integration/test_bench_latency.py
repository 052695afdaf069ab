"""`tutorgraph bench latency` on the real slice index, through the real CLI.

The numbers are the benchmark's business; this checks that the default settings' stages
run: with each question's construct sent, the bundled learned ranker's `rank` stage is
timed; without it the stage is skipped and reads 0.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

import pytest

pytestmark = pytest.mark.integration

QUESTIONS = Path(__file__).parents[1] / "data" / "eedi" / "train.csv"


@pytest.mark.parametrize("construct", [True, False])
def test_the_rank_stage_is_timed_with_and_without_the_construct(
    construct: bool,
    run_cli: Callable[..., CompletedProcess[str]],
    session_index: tuple[Path, object],
    tmp_path: Path,
) -> None:
    out = tmp_path / "latency.json"
    flag = "--construct" if construct else "--no-construct"
    proc = run_cli(
        "bench", "latency", "--questions", str(QUESTIONS), "--n", "12", "--rerank-depths", "",
        "--index-dir", str(session_index[0]), "--out", str(out), flag,
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
