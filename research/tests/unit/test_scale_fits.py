"""The scale sweep's fits of time, build, disk and memory against corpus size (pure logic)."""

from __future__ import annotations

from typing import Any

import pytest

from tutorgraph_research.tasks.scale import fit_growth, scale_fits

pytestmark = pytest.mark.unit


def test_a_power_law_gives_its_exponent_and_a_line_its_slope() -> None:
    sizes = [10_000, 20_000, 40_000, 80_000]
    square_root = fit_growth(sizes, [0.1 * n**0.5 for n in sizes])
    assert square_root["exponent"] == 0.5 and square_root["r2"] == 1.0
    line = fit_growth(sizes, [5.0 + 0.002 * n for n in sizes])
    assert line["per_1000"] == 2.0 and line["linear_r2"] == 1.0
    # A constant plus a line bends on log-log axes: the exponent is below 1.
    assert line["exponent"] is not None and 0.0 < line["exponent"] < 1.0


def test_flat_and_zero_values_have_no_r2_or_no_exponent() -> None:
    flat = fit_growth([1, 2, 4], [3.0, 3.0, 3.0])
    assert flat == {"exponent": 0.0, "r2": None, "per_1000": 0.0, "linear_r2": None}
    # A stage that did not run reports 0 ms: it has no logarithm.
    zero = fit_growth([1, 2, 4], [0.0, 0.0, 0.0])
    assert zero["exponent"] is None and zero["r2"] is None


def test_a_fit_needs_two_different_sizes() -> None:
    with pytest.raises(ValueError, match="two different sizes"):
        fit_growth([5, 5], [1.0, 2.0])
    with pytest.raises(ValueError):
        fit_growth([1, 2], [1.0])


def _row(items: int, wall: float, lexical: float) -> dict[str, Any]:
    p = {"p50": 0.0, "p95": 0.0, "p99": 0.0, "mean": 0.0}
    return {
        "counts": {"items": items},
        "stages_ms": {
            "lexical": p | {"p50": lexical},
            "refine": p,
            "wall": p | {"p50": wall},
            "rerank": None,
        },
        "build_s": items / 1000,
        "disk_mb": 10.0 + items / 100,
        "rss_loaded_mb": 300.0,
        "rss_peak_mb": 350.0 + items / 1000,
    }


def test_scale_fits_covers_every_measured_stage_build_disk_and_memory() -> None:
    rows = [_row(1000, 40.0, 2.0), _row(2000, 40.0, 4.0), _row(4000, 40.0, 8.0)]
    fits = scale_fits(rows)
    assert fits["against"] == "items" and fits["items"] == [1000, 2000, 4000]
    # `rerank` was not measured (None): it is not fitted.
    assert set(fits["stages_p50_ms"]) == {"lexical", "refine", "wall"}
    assert fits["stages_p50_ms"]["lexical"]["exponent"] == 1.0
    assert fits["stages_p50_ms"]["wall"]["exponent"] == 0.0
    assert fits["stages_p50_ms"]["refine"]["exponent"] is None
    assert fits["build_s"]["exponent"] == 1.0 and fits["build_s"]["per_1000"] == 1.0
    assert fits["disk_mb"]["per_1000"] == 10.0
    assert fits["rss_loaded_mb"]["linear_r2"] is None
    assert fits["rss_peak_mb"]["per_1000"] == 1.0
    assert scale_fits(rows[:1]) == {}
