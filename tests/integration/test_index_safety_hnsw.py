"""Same-size damage to Chroma's HNSW graph (issue 46): the process that opens it dies of a
segmentation fault, so the CLI must say so in one line and repair it, and a server must
stay up on it, or keep serving the generation it has when swapped to it. The index here is
its own (1,100 concepts: below 1,000 Chroma writes no HNSW files), not the reference of
`index_safety_support.py`.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.integration.index_safety_support import (
    QUERIES,
    Snapshot,
    hnsw_file,
    index_copy,
    one_line_error,
    serving,
    snapshot,
    wait_until,
)

from tutorgraph.index.generations import activate, generations, new_generation
from tutorgraph.index.lock import WriterLock
from tutorgraph.ingest.bundle import load_trusted, write_bundle
from tutorgraph.models.records import SourceRecords

pytestmark = pytest.mark.integration


# -- issue 46: same-size HNSW damage that crashes the process that opens it ------------------


@pytest.fixture(scope="module")
def hnsw(
    tmp_path_factory: pytest.TempPathFactory,
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> tuple[Path, Path, Snapshot]:
    """(bundle, index, snapshot) of 1,100 concepts of the bundled curriculum, with its stored
    vectors: Chroma writes its HNSW files from 1,000 items on (below that it keeps every
    vector in its database), so only an index this size has HNSW bytes to damage."""
    root = tmp_path_factory.mktemp("safety-hnsw")
    curriculum = Path(__file__).resolve().parents[2] / "data" / "curriculum"
    concepts = load_trusted(curriculum, documents=False).concepts
    by_id = {c.id: c for c in concepts}
    chosen: dict[str, Any] = {}

    def add(concept: Any) -> None:
        if concept.id in chosen:
            return
        for parent in concept.parent_ids:
            if parent in by_id:
                add(by_id[parent])
        chosen[concept.id] = concept

    for concept in concepts:
        if len(chosen) >= 1100:
            break
        add(concept)
    bundle = root / "bundle"
    write_bundle(SourceRecords(concepts=list(chosen.values())), bundle)
    shutil.copytree(curriculum / "embeddings", bundle / "embeddings")
    index_dir = root / "index"
    done = run_cli("ingest", str(bundle), "--index-dir", str(index_dir))
    assert done.returncode == 0, done.stderr
    assert "0 embedded" in done.stdout, done.stdout
    return bundle, index_dir, snapshot(index_dir, embedder)


def _damage_hnsw_in_place(generation: Path) -> None:
    """Random bytes over the middle tenth of the HNSW graph, the file's size unchanged: the
    size check passes, and the process that opens the store dies of a segmentation fault."""
    path = hnsw_file(generation)
    size = path.stat().st_size
    assert size > 100_000, "no HNSW graph on disk (fewer than 1,000 vectors?)"
    with path.open("r+b") as fh:
        fh.seek(int(size * 0.45))
        fh.write(random.Random(0).randbytes(size // 10))
    assert path.stat().st_size == size


def _ready(url: str, proc: subprocess.Popen[str], want: Callable[[dict[str, Any]], bool]) -> Any:
    """/readyz's body once `want` holds of it (the server must stay up meanwhile)."""
    found: dict[str, Any] = {}

    def check() -> bool:
        found.update(httpx.get(f"{url}/readyz", timeout=10).json())
        return want(found)

    wait_until(check, proc, timeout_s=90)
    return found


def test_same_size_hnsw_damage_is_one_line_for_the_cli_and_is_repaired(
    tmp_path: Path,
    hnsw: tuple[Path, Path, Snapshot],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    bundle, clean_index, want = hnsw
    index_dir, live = index_copy(clean_index, tmp_path)
    _damage_hnsw_in_place(live)

    query = run_cli("query", QUERIES[0], "--json", "--index-dir", str(index_dir))
    assert query.returncode == 2 and query.stdout == ""
    line = one_line_error(query)
    assert "damaged: vector: opening the vector store kills the process" in line
    assert "tutorgraph doctor --repair" in line

    ingest = run_cli("ingest", str(bundle), "--index-dir", str(index_dir))
    assert ingest.returncode == 2
    assert "the index's vector store is damaged" in one_line_error(ingest)
    assert [g.name for g in generations(index_dir)] == [live.name]  # nothing half-built

    doctor = run_cli("doctor", "--index-dir", str(index_dir))
    assert doctor.returncode == 1 and "kills the process" in one_line_error(doctor)
    repaired = run_cli("doctor", "--repair", "--index-dir", str(index_dir))
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    assert "rebuilt generation" in repaired.stdout and "0 embedded" in repaired.stdout
    assert snapshot(index_dir, embedder) == want


def test_a_server_started_on_a_crashing_vector_store_stays_up_and_says_so(
    tmp_path: Path,
    hnsw: tuple[Path, Path, Snapshot],
    start_cli: Callable[..., subprocess.Popen[str]],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    index_dir, live = index_copy(hnsw[1], tmp_path)
    _damage_hnsw_in_place(live)
    with serving(start_cli, index_dir) as (url, proc):
        ready = httpx.get(f"{url}/readyz", timeout=10)
        assert ready.status_code == 503 and str(tmp_path) not in ready.text
        body = ready.json()
        assert body["status"] == "damaged" and body["generation"] == live.name
        assert "opening the vector store kills the process" in body["problems"][0]
        assert "tutorgraph doctor --repair" in body["problems"][0]
        packet = httpx.post(f"{url}/v1/retrieve", json={"query": "fractions"}, timeout=30)
        assert packet.status_code == 200 and "vector" in packet.json()["degraded_sources"]

        repaired = run_cli("doctor", "--repair", "--index-dir", str(index_dir))
        assert repaired.returncode == 0, repaired.stdout + repaired.stderr
        body = _ready(url, proc, lambda b: b["generation"] != live.name)
        assert body["status"] == "ready" and body["stale"] is None
        assert httpx.get(f"{url}/healthz", timeout=10).status_code == 200


def test_a_server_swapped_to_a_crashing_generation_keeps_serving_the_one_it_has(
    tmp_path: Path,
    hnsw: tuple[Path, Path, Snapshot],
    start_cli: Callable[..., subprocess.Popen[str]],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    index_dir, live = index_copy(hnsw[1], tmp_path)
    with serving(start_cli, index_dir) as (url, proc):
        assert httpx.get(f"{url}/readyz", timeout=10).json()["status"] == "ready"
        with WriterLock(index_dir, "a test writing a crashing generation"):
            broken = new_generation(index_dir, live)
            _damage_hnsw_in_place(broken)
            activate(index_dir, broken)
        body = _ready(url, proc, lambda b: bool(b["stale"]))
        assert body["generation"] == live.name and body["status"] == "ready"
        assert f"generation {broken.name} is damaged" in body["stale"]
        assert "kills the process" in body["stale"] and str(tmp_path) not in json.dumps(body)
        packet = httpx.post(f"{url}/v1/retrieve", json={"query": "fractions"}, timeout=30)
        assert packet.status_code == 200 and packet.json()["degraded_sources"] == []

        repaired = run_cli("doctor", "--repair", "--index-dir", str(index_dir))
        assert repaired.returncode == 0, repaired.stdout + repaired.stderr
        body = _ready(url, proc, lambda b: b["generation"] not in (live.name, broken.name))
        assert body["status"] == "ready" and body["stale"] is None
