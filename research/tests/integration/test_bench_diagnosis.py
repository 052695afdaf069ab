"""`tutorgraph bench diagnosis` through the real CLI, on real Eedi rows."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

import pytest

pytestmark = pytest.mark.integration

QUESTIONS = (
    Path(__file__).resolve().parents[3] / "tests" / "data" / "eedi" / "diagnosis_questions.csv"
)


def test_the_report_is_printed_and_written(
    run_cli: Callable[..., CompletedProcess[str]], tmp_path: Path
) -> None:
    out = tmp_path / "diagnosis.json"
    proc = run_cli("bench", "diagnosis", "--train", str(QUESTIONS), "--out", str(out))
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["fired"] > 0 and 0 < report["coverage"] <= 1
    assert set(report["by_fold"]) == {"0", "1", "2", "3", "4"}
    assert "fraction_add_across" in proc.stdout and "coverage" in proc.stdout


def test_a_missing_file_is_a_clear_error(
    run_cli: Callable[..., CompletedProcess[str]], tmp_path: Path
) -> None:
    proc = run_cli("bench", "diagnosis", "--train", str(tmp_path / "none.csv"))
    assert proc.returncode != 0
    assert "none.csv" in proc.stderr and "Traceback" not in proc.stderr
