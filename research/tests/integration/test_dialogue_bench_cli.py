"""`tutorgraph bench dialogue` end to end: the real CLI over the session index (real Chroma,
real MiniLM) on the first dialogues of the committed set, each student turn sent with the
turns before it, then again against its own report as the baseline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutorgraph_research.cli.bench_dialogue import DIALOGUES

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[3]


def test_the_bench_judges_each_turn_and_pairs_a_rerun_with_itself(  # type: ignore[no-untyped-def]
    run_cli, session_index, tmp_path: Path
) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    common = [
        "--dialogues",
        str(REPO / DIALOGUES),
        "--index-dir",
        str(session_index[0]),
        "--split",
        "dev",
        "--limit",
        "3",
    ]
    proc = run_cli("bench", "dialogue", *common, "--out", str(first))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(first.read_text())
    assert report["_meta"]["n_dialogues"] == 3
    turns = report["turns"]
    assert turns and {t["split"] for t in turns} == {"dev"}
    assert all("chit_chat_flagged" in t["parts"] and "packet" in t["parts"] for t in turns)
    assert "heldout" not in report
    for group, row in report["dev"].items():
        if group in ("chit_chat_flag", "help_flag", "short_vs_full") or row is None:
            continue
        for cell in row.values():
            lo, hi = cell["ci95"]
            assert 0.0 <= lo <= cell["mean"] <= hi <= 1.0
    proc = run_cli("bench", "dialogue", *common, "--baseline", str(first), "--out", str(second))
    assert proc.returncode == 0, proc.stderr
    paired = json.loads(second.read_text())["paired"]
    # The same index and dialogues give the same packets: every paired difference is 0.
    assert paired["dev"]["packet"]["mean"] == 0.0 and paired["dev"]["packet"]["n"] > 0


def test_a_malformed_set_is_one_line_naming_it(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "dl-1", "kind": "quiz"}\n', encoding="utf-8")
    proc = run_cli("bench", "dialogue", "--dialogues", str(bad), "--out", str(tmp_path / "o"))
    assert proc.returncode != 0
    assert "bad.jsonl:1 (dl-1): missing field(s)" in proc.stdout + proc.stderr
