"""docs/RESULTS.md's tables are generated from results/*.json by research/scripts/results_md.py:
the committed document is what the committed JSON gives (`--check`), a stale figure is
caught, and regenerating rewrites only what lies between the markers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

REPO = Path(__file__).resolve().parents[3]
SCRIPT = REPO / "research" / "scripts" / "results_md.py"
DOC = REPO / "docs" / "RESULTS.md"


def results_md(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_committed_document_matches_the_committed_results() -> None:
    done = results_md("--check")
    assert done.returncode == 0, (
        "docs/RESULTS.md is out of date with results/:"
        " run python research/scripts/results_md.py\n" + done.stdout[-4000:] + done.stderr[-2000:]
    )


def test_a_stale_figure_is_caught_and_regenerating_keeps_the_prose(tmp_path: Path) -> None:
    doc = tmp_path / "RESULTS.md"
    text = DOC.read_text(encoding="utf-8")
    generated = text.index("<!-- generated:linker-cv -->")
    figure = text.index("0.218 → 0.209", generated)  # a cell inside the generated table
    stale = text[:figure] + "0.218 → 0.299" + text[figure + len("0.218 → 0.209") :]
    # Hand-written, outside any block: kept as it is.
    stale = stale.replace("Attempts, all by the same script", "Attempts, all by one script")
    doc.write_text(stale, encoding="utf-8")

    check = results_md("--check", "--doc", str(doc))
    assert check.returncode == 1
    assert "-| held-out generators | model | 3528 | 0.218 → 0.299" in check.stdout
    assert "out of date" in check.stderr
    assert doc.read_text(encoding="utf-8") == stale  # --check writes nothing

    assert results_md("--doc", str(doc)).returncode == 0
    fixed = doc.read_text(encoding="utf-8")
    assert fixed == text.replace("Attempts, all by the same script", "Attempts, all by one script")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("<!-- generated:latency-47 -->", "<!-- generated:latency-48 -->"), "unknown block"),
        (("<!-- generated:latency-47 -->", "<!-- latency-47 -->"), "is not in the document"),
    ],
)
def test_markers_must_name_each_known_block_once(
    tmp_path: Path, edit: tuple[str, str], message: str
) -> None:
    doc = tmp_path / "RESULTS.md"
    doc.write_text(DOC.read_text(encoding="utf-8").replace(*edit), encoding="utf-8")
    done = results_md("--check", "--doc", str(doc))
    assert done.returncode != 0
    assert message in done.stderr


def test_a_missing_results_file_is_named(tmp_path: Path) -> None:
    results = tmp_path / "results"
    results.mkdir()
    for path in (REPO / "results").glob("*.json"):
        if not path.name.startswith("latency_47_"):
            (results / path.name).symlink_to(path)
    done = results_md("--check", "--results", str(results))
    assert done.returncode != 0
    assert "latency_47_base_c_1.json: missing" in done.stderr
