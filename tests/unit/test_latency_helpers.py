"""Small helpers of the latency harness (the harness itself runs in the integration tier)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutorgraph.eval.tasks.latency import percentiles, read_through

pytestmark = pytest.mark.unit


def test_read_through_reads_every_file_below_the_folder(tmp_path: Path) -> None:
    (tmp_path / "chroma" / "seg").mkdir(parents=True)
    (tmp_path / "manifest.json").write_bytes(b"{}")
    (tmp_path / "chroma" / "seg" / "data_level0.bin").write_bytes(b"x" * (3 << 20))
    assert read_through(tmp_path) == 2 + (3 << 20)
    assert read_through(tmp_path / "empty-or-missing") == 0


def test_percentiles_name_the_median_and_the_tail() -> None:
    got = percentiles([float(x) for x in range(1, 101)])
    assert got["p50"] == pytest.approx(50.5)
    assert 95.0 <= got["p95"] <= 96.0 and 99.0 <= got["p99"] <= 100.0
    assert got["mean"] == pytest.approx(50.5)
