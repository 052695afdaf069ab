"""Small helpers of the latency harness (the harness itself runs in the integration tier)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutorgraph_research.tasks.latency import percentiles, read_through

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


def test_ran_percentiles_count_only_the_queries_a_stage_ran_on() -> None:
    from tutorgraph_research.tasks.latency import ran_percentiles

    got = ran_percentiles([0.0, 4.0, 0.0, 2.0])
    assert got["n"] == 2 and got["p50"] == pytest.approx(3.0) and got["p99"] <= 4.0
    assert ran_percentiles([0.0, 0.0]) == {"n": 0}


# -- the latency tables ------------------------------------------------------------------------

HW = {"cpu": "Test CPU", "cores": 2, "python": "3.11", "torch": "2", "onnxruntime": "1"}


def _stages(ms: float) -> dict[str, dict[str, float]]:
    from tutorgraph_research.tasks.latency import LATENCY_STAGES

    return {s: {"p50": ms, "p95": ms + 1, "p99": ms + 2, "mean": ms} for s in LATENCY_STAGES}


def _row(config: str, ms: float, *, diagnosed: int = 0, **detail: object) -> dict[str, object]:
    from tutorgraph_client.models.packet import TIMING_KEYS

    ran: dict[str, dict[str, float]] = {
        s: {"n": 10, "p50": 1.0, "p95": 2.0, "p99": 3.0, "mean": 1.5} for s in TIMING_KEYS
    }
    ran["diagnose"] = (
        {"n": diagnosed, "p50": 0.5, "p95": 0.7, "p99": 0.9, "mean": 0.6} if diagnosed else {"n": 0}
    )
    return {
        "config": config,
        "factor": "best" if config == "default" else config.split("=")[0],
        "config_detail": {"diagnosis": True, "near_duplicate_threshold": None} | detail,
        "status": "ok",
        "n_queries": 10,
        "warmup": 2,
        "stages_ms": _stages(ms),
        "ran_ms": ran,
        "n_degraded": 0,
    }


def _latency(bolt: dict[str, object]) -> dict[str, object]:
    return {
        "hardware": HW,
        "queries": {"n": 10, "warmup": 2},
        "reference": "default",
        "rows": [
            _row("sources=no-graph", 5.0),
            _row("default", 10.0),
            _row("merge=0.85", 20.0, near_duplicate_threshold=0.85),
            {"config": "reranker=msmarco", "status": "not measured: no hub here"},
        ],
        "diagnosis": {
            "queries": "student messages",
            "n_queries": 10,
            "config": "default",
            "status": "ok",
            "row": _row("default", 40.0, diagnosed=3),
        },
        "bolt_graph": {
            "server": "ArcadeDB standing in for Neo4j; Neo4j itself was never run",
            "stands_in_for": "neo4j",
            "neo4j_run": False,
            "config": "default",
        }
        | bolt,
        "not_measured": {"graph backend neo4j": "not measured: Neo4j itself was never run"},
    }


def _cells(table: object) -> dict[str, list[object]]:
    return {str(r[0]): list(r[1:]) for r in table.rows if not isinstance(r, str)}  # type: ignore[attr-defined]


def test_the_stage_table_puts_the_bolt_graph_beside_the_embedded_one() -> None:
    from tutorgraph_research.report._system_tables import latency_configs, latency_stages

    bolt = {
        "status": "ok",
        "agent": "Neo4j/5.26.0 compatible (ArcadeDB 26.10.2)",
        "load_s": 3.5,
        "row": _row("default", 30.0) | {"warmup": 6},
    }
    table = latency_stages(_latency(bolt))
    cells = _cells(table)
    assert table.columns == ["Stage", "p50", "p95", "p99"]
    assert cells["total"] == ["10.0", "11.0", "12.0"]  # the reference, not the first row
    assert cells["merge at 0.85 (merge=0.85)"] == ["20.0", "21.0", "22.0"]
    # The diagnosis on student messages, over only the 3 it ran on, and said so.
    assert cells["diagnose where it ran, 3 of 10 (default)"] == ["0.5", "0.7", "0.9"]
    assert cells["rank where it ran, 10 of 10 (default)"] == ["1.0", "2.0", "3.0"]
    assert cells["total, the same 10 messages"] == ["40.0", "41.0", "42.0"]
    assert cells["graph, embedded (NetworkX)"] == ["10.0", "11.0", "12.0"]
    assert cells["graph, Bolt (ArcadeDB)"] == ["30.0", "31.0", "32.0"]
    assert cells["total, Bolt (ArcadeDB)"] == ["30.0", "31.0", "32.0"]
    md = table.markdown()
    assert "ArcadeDB standing in for Neo4j; Neo4j itself was never run" in md
    assert "Test CPU, 2 cores" in table.caption
    assert "ArcadeDB 26.10.2), standing in for Neo4j (never run)" in md
    assert "6 warm-up queries" in md

    configs = latency_configs(_latency(bolt))
    assert "Test CPU, 2 cores" in configs.caption and configs.columns[-3:] == [
        "total p50",
        "p95",
        "p99",
    ]
    bolt_row = _cells(configs)["default, graph on Bolt"]
    assert bolt_row[-3:] == ["30.0", "31.0", "32.0"]


def test_a_bolt_server_that_did_not_start_is_named_not_timed() -> None:
    from tutorgraph_research.report._system_tables import latency_configs, latency_stages
    from tutorgraph_research.report._table import Note

    lat = _latency({"status": "not measured: the ArcadeDB Bolt server could not start here (x)"})
    lat["diagnosis"] = {"status": "not measured: no configuration with the diagnosis on"}
    cells = _cells(latency_stages(lat))
    assert isinstance(cells["diagnose"][0], Note)
    note = cells["graph, Bolt (ArcadeDB)"][0]
    assert isinstance(note, Note)
    assert note.reason == "the ArcadeDB Bolt server could not start here (x)"
    assert "total, Bolt (ArcadeDB)" not in cells
    assert not any("graph on Bolt" in k for k in _cells(latency_configs(lat)))


def test_results_from_before_the_new_stages_still_render() -> None:
    from tutorgraph_research.report._system_tables import latency_configs, latency_stages

    old = _row("best", 10.0)
    for key in ("ran_ms", "n_degraded"):
        del old[key]
    old["config_detail"] = {"refiner": "none"}
    for stage in ("rank", "diagnose"):
        del old["stages_ms"][stage]  # type: ignore[attr-defined]
    lat = {"hardware": HW, "queries": {"n": 10, "warmup": 2}, "rows": [old]}
    cells = _cells(latency_stages(lat))
    assert cells["total"] == ["10.0", "11.0", "12.0"]
    assert "graph, Bolt (ArcadeDB)" not in cells
    assert _cells(latency_configs(lat))["best"][7] == "–"  # no rank stage then


def test_the_latency_figure_draws_the_bolt_run_too(tmp_path: Path) -> None:
    import json

    from tutorgraph_research.report import render_figures

    bolt = {"status": "ok", "agent": "ArcadeDB", "load_s": 1.0, "row": _row("default", 30.0)}
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "latency.json").write_text(json.dumps(_latency(bolt)))
    written = render_figures(tmp_path / "results", tmp_path / "figures")
    assert (tmp_path / "figures" / "latency.png") in written
    assert (tmp_path / "figures" / "latency.png").stat().st_size > 0
