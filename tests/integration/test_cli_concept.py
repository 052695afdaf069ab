"""`tutorgraph concept ID` for real: the bundled curriculum's graph (a standard's
misconceptions, lessons and practice through what is aligned with it) and the session index,
read without loading any model; clear one-line errors."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tutorgraph.index.generations import activate, new_generation
from tutorgraph.index.layout import IndexLayout
from tutorgraph.ingest.bundle import load_trusted
from tutorgraph.stores.manifest import Manifest

pytestmark = pytest.mark.integration

BUNDLE = Path(__file__).resolve().parents[2] / "data" / "curriculum"
STANDARD = "ccss:5.NF.A.1"
CONSTRUCT = "eedi:construct:1428"


@pytest.fixture(scope="module")
def curriculum_graph(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index folder whose live generation holds the bundled curriculum's catalogue and a
    manifest, and nothing else: all a graph lookup reads (no vectors, no BM25)."""
    index_dir = tmp_path_factory.mktemp("curriculum-graph")
    generation = new_generation(index_dir, None)
    catalogue = IndexLayout(generation).catalogue
    catalogue.mkdir(parents=True)
    for f in BUNDLE.glob("*.jsonl"):
        shutil.copyfile(f, catalogue / f.name)
    Manifest(embedder="none", embedding_dim=1, bundle_hash="bundled").write(generation)
    activate(index_dir, generation)
    return index_dir


def test_a_standard_as_json_comes_through_its_aligned_constructs(
    run_cli: Callable[..., subprocess.CompletedProcess[str]], curriculum_graph: Path
) -> None:
    proc = run_cli("concept", STANDARD, "--json", "--index-dir", str(curriculum_graph))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # no status line off a terminal
    view = json.loads(proc.stdout)  # all of stdout is one JSON document
    assert view["concept"]["id"] == STANDARD and view["taxonomy"] == "common-core"
    records = load_trusted(BUNDLE, documents=False)
    aligned = {
        p.concept_id: p.score
        for p in records.prerequisites
        if p.relation == "aligned_with" and p.prerequisite_id == STANDARD
    }
    assert {a["id"] for a in view["aligned"]} == set(aligned)
    mis = view["misconceptions"]
    assert mis and all(m["via"] in aligned for m in mis)
    assert [m["alignment_score"] for m in mis] == sorted(
        (m["alignment_score"] for m in mis), reverse=True
    )
    assert len({m["misconception"]["id"] for m in mis}) == len(mis)
    # Its own lesson first (aligned to it by id, at its grade), then through what is aligned.
    own = [d for d in view["lessons"] if d["via"] is None]
    assert [d["document"]["kind"] for d in own] == [
        "explanation",
        "worked_example",
        "worked_example",
    ]
    assert {d["document"]["grade"] for d in own} == {"5"}
    assert view["lessons"][: len(own)] == own
    assert all(d["via"] in aligned for d in view["lessons"][len(own) :])
    assert {d["document"]["kind"] for d in view["practice"]} <= {"exercise", "question"}
    before = {s["id"] for s in view["prerequisites"] if s["depth"] == 1}
    want = {
        p.prerequisite_id
        for p in records.prerequisites
        if p.concept_id == STANDARD and p.relation != "aligned_with"
    }
    assert before == want
    assert all(s["name"] for s in [*view["prerequisites"], *view["builds_on_it"]])


def test_a_standard_for_people_and_an_unknown_id(
    run_cli: Callable[..., subprocess.CompletedProcess[str]], curriculum_graph: Path
) -> None:
    proc = run_cli("concept", STANDARD, "--depth", "1", "--index-dir", str(curriculum_graph))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for heading in ("builds on", "leads to", "taught by", "misconceptions", "lessons", "practice"):
        assert f"\n{heading} (" in out, heading
    assert "through the constructs aligned with it" in out
    assert "(via eedi:construct:" in out and "(via openstax:section:" in out

    proc = run_cli("concept", "ccss:9.ZZ.Z.9", "--index-dir", str(curriculum_graph))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().splitlines() == ["error: unknown concept id: ccss:9.ZZ.Z.9"]


def test_a_grade_2_standard_shows_what_to_teach_it_with(
    run_cli: Callable[..., subprocess.CompletedProcess[str]], curriculum_graph: Path
) -> None:
    """Issue 61's example: 2.NBT.B.5 had "misconceptions (0) ... lessons (0) ... practice (0)";
    now its own lesson (whole), worked examples, practice and K-5 misconceptions."""
    proc = run_cli("concept", "ccss:2.NBT.B.5", "--json", "--index-dir", str(curriculum_graph))
    assert proc.returncode == 0, proc.stderr
    view = json.loads(proc.stdout)
    kinds = [d["document"]["kind"] for d in view["lessons"] if d["via"] is None]
    assert kinds[0] == "explanation" and kinds.count("worked_example") >= 2
    own_practice = [d for d in view["practice"] if d["via"] is None]
    assert len(own_practice) >= 5
    assert all("\nAnswer: " in d["document"]["text"] for d in own_practice)
    mis = [m["misconception"] for m in view["misconceptions"] if m["via"] is None]
    assert mis and all(m["id"].startswith("tutorgraph:misconception:") for m in mis)
    assert all(m["description"] and len(m["examples"]) >= 2 for m in mis)

    text = run_cli("concept", "ccss:2.NBT.B.5", "--index-dir", str(curriculum_graph)).stdout
    assert "Grade 2: " in text and "Picture it: " in text and "Solution:" in text
    assert "e.g." in text  # a misconception's example wrong answer


def test_a_missing_index_is_one_line(
    run_cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    proc = run_cli("concept", STANDARD, "--index-dir", str(tmp_path / "none"))
    assert proc.returncode == 2 and proc.stdout == ""
    (line,) = proc.stderr.strip().splitlines()
    assert line.startswith("error: no tutorgraph index at")


def test_a_construct_of_the_session_index_loads_no_model(
    session_index: tuple[Path, object], child_env: Callable[..., dict[str, str]]
) -> None:
    """On a real ingested index: its own misconceptions and questions, and neither ONNX
    Runtime, the tokenizers nor Chroma imported (the graph alone is read)."""
    code = (
        "import sys\n"
        "from tutorgraph.cli.app import main\n"
        f"sys.argv = ['tutorgraph', 'concept', {CONSTRUCT!r}, '--json', '--index-dir', "
        f"{str(session_index[0])!r}]\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    assert not exc.code, exc.code\n"
        "heavy = ('onnxruntime', 'tokenizers', 'chromadb', 'torch', 'lightgbm')\n"
        "print(sorted(m for m in heavy if m in sys.modules), file=sys.stderr)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        env=child_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == "[]"
    view = json.loads(proc.stdout)
    assert view["concept"]["id"] == CONSTRUCT and view["taxonomy"] == "eedi"
    assert view["misconceptions"] and all(m["via"] is None for m in view["misconceptions"])
    assert view["practice"] and {d["document"]["kind"] for d in view["practice"]} == {"question"}
