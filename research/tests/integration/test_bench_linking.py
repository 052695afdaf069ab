"""`tutorgraph bench linking` through the real CLI, on a small real index of the standards.

The index holds the bundled curriculum's Common Core concepts (``ccss:`` standards and
clusters, the ``lc:`` groupings above them) and the progressions between them, nothing else;
the items are the committed MathFish slice (tests/data/mathfish, Apache-2.0) and six of the
tutoring messages and of the word problems (data/benchmarks).
"""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

import pytest

from tutorgraph.index.pipeline import ingest_bundle
from tutorgraph.ingest.bundle import write_bundle
from tutorgraph.models.records import SourceRecords
from tutorgraph_client.models.curriculum import Concept, Prerequisite

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[3]
CURRICULUM = ROOT / "data" / "curriculum"
MESSAGES = ROOT / "data" / "benchmarks" / "tutoring_messages.jsonl"
WORD_PROBLEMS = ROOT / "data" / "benchmarks" / "word_problems.jsonl"
SLICE = ROOT / "tests" / "data" / "mathfish" / "generated_problems_teacher_annotations_slice.csv"
SYSTEMS = {"packet", "packet+grade", "dense-descriptions", "linker", "linker+grade"}
METRICS = {f"{p}hit@{k}" for p in ("", "cluster_") for k in (1, 3, 5, 10)}


def _jsonl(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.fixture(scope="module")
def standards_index(
    tmp_path_factory: pytest.TempPathFactory, embedder: object
) -> tuple[Path, Path]:
    """(bundle, index) of the Common Core part of the bundled curriculum."""
    concepts = [
        Concept(**r)  # type: ignore[arg-type]
        for r in _jsonl(CURRICULUM / "concepts.jsonl")
        if str(r["id"]).startswith(("ccss:", "lc:"))
    ]
    ids = {c.id for c in concepts}
    edges = [
        Prerequisite(**r)  # type: ignore[arg-type]
        for r in _jsonl(CURRICULUM / "prerequisites.jsonl")
        if r["prerequisite_id"] in ids and r["concept_id"] in ids
    ]
    bundle = tmp_path_factory.mktemp("standards-bundle")
    write_bundle(SourceRecords(concepts=concepts, prerequisites=edges), bundle)
    # The bundled vectors cover these texts: the ingest takes them instead of embedding.
    shutil.copytree(CURRICULUM / "embeddings", bundle / "embeddings")
    index = tmp_path_factory.mktemp("standards-index")
    report = asyncio.run(ingest_bundle(bundle, index, embedder))  # type: ignore[arg-type]
    assert not report.rejected, report.rejected[:3]
    return bundle, index


def test_bench_linking_writes_every_system_data_set_and_split(
    run_cli: Callable[..., CompletedProcess[str]],
    standards_index: tuple[Path, Path],
    tmp_path: Path,
) -> None:
    bundle, index = standards_index
    few_files = {}
    for name, source in (("messages", MESSAGES), ("word-problems", WORD_PROBLEMS)):
        records = _jsonl(source)
        few = [r for r in records if r["split"] == "dev"][:3]
        few += [r for r in records if r["split"] == "heldout"][:3]
        few_files[name] = tmp_path / f"{name}.jsonl"
        few_files[name].write_text("".join(json.dumps(r) + "\n" for r in few), encoding="utf-8")
    out = tmp_path / "linking.json"
    proc = run_cli(
        "bench", "linking", "--mathfish", str(SLICE), "--messages", str(few_files["messages"]),
        "--word-problems", str(few_files["word-problems"]),
        "--curriculum", str(bundle), "--index-dir", str(index), "--out", str(out),
        "--limit", "8", timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(out.read_text(encoding="utf-8"))

    assert set(report["systems"]) == SYSTEMS
    for system in SYSTEMS:
        mathfish = report["systems"][system]["mathfish"]["all"]
        assert mathfish["n"] == 8
        assert set(mathfish) >= METRICS
        for metric in METRICS:
            lo, hi = mathfish[metric]["ci95"]
            assert 0.0 <= lo <= mathfish[metric]["mean"] <= hi <= 1.0
        for name in ("tutoring_messages", "word-problems"):
            splits = report["systems"][system][name]
            assert {"dev", "heldout", "all"} <= set(splits)
            assert splits["dev"]["n"] == 3 and splits["heldout"]["n"] == 3
            assert set(splits["all"]) >= METRICS
    paired = report["systems"]["packet"]["mathfish"]["all"]["paired"]
    assert paired["versus"] == "dense-descriptions" and paired["n"] == 8
    assert -1.0 <= paired["hit@10"]["mean"] <= 1.0
    assert report["systems"]["dense-descriptions"]["mathfish"]["all"]["hit@10"]["mean"] > 0

    data = report["datasets"]
    assert data["mathfish"]["read"] == 20 and data["mathfish"]["scored"] == 8
    assert data["tutoring_messages"]["scored"] == 6
    assert data["word-problems"]["scored"] == 6
    assert data["word-problems"]["path"] == str(few_files["word-problems"])
    for item in report["items"]["mathfish"]:
        assert len(item["dense-descriptions"]) == 10 and len(item["linker"]) == 10
        assert all(s.startswith("ccss:") for s in item["packet"] + item["packet+grade"])
    # Told the grade, the linker ranks the same standards differently for some item.
    items = report["items"]["mathfish"] + report["items"]["word-problems"]
    assert any(i["linker+grade"] != i["linker"] for i in items)
    assert report["_meta"]["standards_searched"] == 597
    assert "mathfish" in proc.stdout and "dense-descriptions" in proc.stdout


def test_bench_linking_skips_a_missing_mathfish_with_its_reason(
    run_cli: Callable[..., CompletedProcess[str]],
    standards_index: tuple[Path, Path],
    tmp_path: Path,
) -> None:
    bundle, index = standards_index
    out = tmp_path / "linking.json"
    missing = tmp_path / "shared" / "mathfish.csv"
    proc = run_cli(
        "bench", "linking", "--mathfish", str(missing), "--messages", str(MESSAGES),
        "--word-problems", str(WORD_PROBLEMS),
        "--curriculum", str(bundle), "--index-dir", str(index), "--out", str(out),
        "--limit", "2", timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["datasets"]["mathfish"]["status"] == "skipped"
    assert str(missing) in report["datasets"]["mathfish"]["reason"]
    assert "mathfish" not in report["systems"]["packet"]
    assert report["systems"]["packet"]["tutoring_messages"]["all"]["n"] == 2
    assert report["systems"]["packet"]["word-problems"]["all"]["n"] == 2
    assert report["datasets"]["word-problems"]["items"] >= 120
    assert "skipped mathfish" in proc.stdout
