"""The scale sweep end to end on the session index's slice (real Chroma, BM25, MiniLM, a
fresh serving process per size), and the sizes the real bundle allows."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutorgraph.ingest.bundle import read_bundle
from tutorgraph_research.tasks.scale import ScaleSpec, run_scale_sweep, scale_sizes

pytestmark = pytest.mark.integration

BUNDLE = Path(__file__).resolve().parents[3] / "data" / "curriculum"


def test_the_bundle_runs_out_of_real_exercises_before_x8() -> None:
    records = read_bundle(BUNDLE)
    sizes = scale_sizes(records)
    # x1, x2 and x4 are what they say; x8 is every real document, at its real ratio.
    assert [(s.factor, s.ratio) for s in sizes[:3]] == [(1, 1.0), (2, 2.0), (4, 4.0)]
    largest = sizes[-1]
    assert largest.factor == 8 and 4.0 < largest.ratio < 8.0
    assert largest.counts["documents"] == len(records.documents)


async def test_the_sweep_fits_its_sizes_and_resumes_only_what_it_measured(  # type: ignore[no-untyped-def]
    index_bundle, session_index, embedder, tmp_path: Path
) -> None:
    spec = ScaleSpec(
        bundle=index_bundle,
        work=tmp_path,
        vectors_from=session_index[0],
        factors=(1, 2),
        n_queries=3,
        warmup=1,
        timeout_s=300,
    )
    report = await run_scale_sweep(spec, embedder)
    rows = report["sizes"]
    assert [r["factor"] for r in rows] == [1, 2]
    assert all(r["vectors_embedded"] == 0 and r["wall_s"] >= r["build_s"] > 0 for r in rows)
    assert {r["config"] for r in rows} == {report["config"]}
    assert report["hardware"]["cpu"] and rows[0]["embedder"]
    fits = report["fits"]
    assert fits["items"] == [r["counts"]["items"] for r in rows]
    assert {"embed", "vector", "lexical", "wall"} <= set(fits["stages_p50_ms"])
    assert set(fits) >= {"build_s", "disk_mb", "rss_loaded_mb", "rss_peak_mb"}

    # A finished size is kept; one measured before the shipped embedder (no `embedder`)
    # is measured again.
    x1 = tmp_path / "x1.json"
    x2 = tmp_path / "x2.json"
    x2.write_text(x2.read_text(encoding="utf-8").replace('"embedder"', '"was"'), "utf-8")
    kept = x1.stat().st_mtime_ns
    again = await run_scale_sweep(spec, embedder)
    assert again["sizes"][0] == rows[0] and x1.stat().st_mtime_ns == kept
    assert "embedder" in again["sizes"][1] and '"embedder"' in x2.read_text(encoding="utf-8")
