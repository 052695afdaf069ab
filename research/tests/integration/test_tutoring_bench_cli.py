"""`tutorgraph bench tutoring` end to end: the real CLI over the session index (real Chroma,
real MiniLM) on the first messages of the committed packet set, then again against its own
report as the baseline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutorgraph_research.cli.bench_tutoring import PACKET_MESSAGES, STATED_ANSWERS

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[3]


def test_the_bench_judges_packets_and_pairs_a_rerun_with_itself(  # type: ignore[no-untyped-def]
    run_cli, session_index, tmp_path: Path
) -> None:
    messages = str(REPO / PACKET_MESSAGES)
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    common = ["--messages", messages, "--index-dir", str(session_index[0]), "--limit", "20"]
    proc = run_cli("bench", "tutoring", *common, "--out", str(first))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(first.read_text())
    assert len(report["messages"]) == 20
    assert {m["split"] for m in report["messages"]} == {"dev", "heldout"}
    for split in ("dev", "heldout"):
        for group, row in report[split].items():
            if group in ("off_topic_flag", "empty_by_grade", "reliability"):
                continue
            # teach_by_band holds a row of cells per grade band.
            cells = (
                [c for band in row.values() for c in band.values()]
                if group == "teach_by_band"
                else row.values()
            )
            for cell in cells:
                lo, hi = cell["ci95"]
                assert 0.0 <= lo <= cell["mean"] <= hi <= 1.0
    proc = run_cli("bench", "tutoring", *common, "--baseline", str(first), "--out", str(second))
    assert proc.returncode == 0, proc.stderr
    paired = json.loads(second.read_text())["paired"]
    # The same index and messages give the same packets: every paired difference is 0.
    assert paired["dev"]["packet"]["mean"] == 0.0 and paired["dev"]["packet"]["n"] > 0
    assert "dev paired packet: +0.000" in proc.stdout


def test_the_bench_scores_the_stated_answers_alone(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """`--answers-only` needs no index: the reader's recall, precision and no answer read
    where none is stated, per split; a missing set is a one-line error."""
    out = tmp_path / "answers.json"
    answers = str(REPO / STATED_ANSWERS)
    proc = run_cli("bench", "tutoring", "--answers-only", "--answers", answers, "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    stated = json.loads(out.read_text())["stated_answers"]
    for split in ("dev", "heldout"):
        for part in ("recall", "precision", "none"):
            assert 0.0 <= stated[split][part]["mean"] <= 1.0 and stated[split][part]["n"] > 0
    assert "dev/stated_answers" in proc.stdout and "heldout/stated_answers" in proc.stdout
    missing = run_cli("bench", "tutoring", "--answers-only", "--answers", str(tmp_path / "no"))
    assert missing.returncode != 0 and "no such file (--answers)" in missing.stdout + missing.stderr
