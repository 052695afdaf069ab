"""Same-size damage to Chroma's HNSW graph (issues 46 and 59): the process that opens it may
die of a segmentation fault, or find nothing wrong. Every ingest records the sha256 of the
HNSW files, checked at every open before Chroma reads them: the CLI says so in one line and
repairs it, wherever the bytes changed, every time; a server stays up on it, or keeps
serving the generation it has when swapped to it. A generation written before the checksums
falls back to the child process that opens the store first. The index here is its own
(1,100 concepts: below 1,000 Chroma keeps the vectors in its log and never reads its HNSW
files), not the reference of `index_safety_support.py`.
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
    overwrite,
    serving,
    snapshot,
    wait_until,
)

from tutorgraph.index.generations import activate, generations, new_generation
from tutorgraph.index.integrity import check_files
from tutorgraph.index.layout import IndexLayout
from tutorgraph.index.lock import WriterLock
from tutorgraph.ingest.bundle import load_trusted, write_bundle
from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.manifest import Manifest

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


# Same-size damage over the files Chroma's native code reads, at several places: before the
# checksums (issue 59), `doctor` named some of these, called others intact, and segfaulted on
# others; a server reported ready on some and served them.
SAME_SIZE = (
    ("link_lists.bin", 0.1, 64),
    ("link_lists.bin", 0.5, 256),
    ("link_lists.bin", 0.9, 16),
    ("data_level0.bin", 0.05, 64),
    ("data_level0.bin", 0.5, 4096),
    ("data_level0.bin", 0.95, 8),
    ("header.bin", 0.5, 8),
    ("length.bin", 0.5, 8),
)


def _changed(generation: Path, name: str) -> str:
    """The problem a changed HNSW file of `generation` is reported as."""
    segment = hnsw_file(generation).parent.name
    return (
        f"vector: chroma/{segment}/{name} changed since the ingest wrote it (sha256 differs); "
        "run `tutorgraph doctor --repair`"
    )


def _strip_hnsw_checksums(generation: Path) -> None:
    """Make `generation` look written before the HNSW files had checksums."""
    manifest = Manifest.read(generation)
    assert manifest is not None and manifest.hnsw_checksums
    for rel, signature in manifest.files.items():
        if rel.startswith("chroma/"):
            signature.sha256 = ""
    manifest.hnsw_checksums = False
    manifest.write(generation)


def test_same_size_hnsw_damage_is_found_every_time_before_chroma_reads_it(
    tmp_path: Path,
    hnsw: tuple[Path, Path, Snapshot],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    index_dir, live = index_copy(hnsw[1], tmp_path)
    segment = hnsw_file(live).parent
    manifest = Manifest.read(live)
    assert manifest is not None
    kept = {name: (segment / name).read_bytes() for name, _, _ in SAME_SIZE}

    # The open-time check (every reader, every swap, every writer): each place, three runs.
    for run in range(3):
        for name, at, length in SAME_SIZE:
            overwrite(segment / name, at, length, seed=run)
            found = [str(p) for p in check_files(IndexLayout(live), manifest)]
            assert found == [_changed(live, name)], (run, name, at)
            (segment / name).write_bytes(kept[name])

    # `tutorgraph doctor`: exit 1 and one line naming the file, never a crash or "intact".
    for run, (name, at, length) in enumerate(SAME_SIZE[::2]):
        overwrite(segment / name, at, length, seed=10 + run)
        doctor = run_cli("doctor", "--index-dir", str(index_dir))
        assert doctor.returncode == 1, (name, doctor.stdout, doctor.stderr)
        assert one_line_error(doctor) == f"damaged {_changed(live, name)}"
        (segment / name).write_bytes(kept[name])
    doctor = run_cli("doctor", "--index-dir", str(index_dir))
    assert doctor.returncode == 0 and "intact" in doctor.stdout, doctor.stdout + doctor.stderr
    assert "note:" not in doctor.stdout


def _ready(url: str, proc: subprocess.Popen[str], want: Callable[[dict[str, Any]], bool]) -> Any:
    """/readyz's body once `want` holds of it (the server must stay up meanwhile)."""
    found: dict[str, Any] = {}

    def check() -> bool:
        found.update(httpx.get(f"{url}/readyz", timeout=10).json())
        return want(found)

    wait_until(check, proc, timeout_s=90)
    return found


def test_crashing_hnsw_damage_in_a_generation_without_checksums_is_one_line_and_repaired(
    tmp_path: Path,
    hnsw: tuple[Path, Path, Snapshot],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    """A generation written before the HNSW checksums: the child process that opens the
    store first is what finds the damage, and doctor says the checksums are missing."""
    bundle, clean_index, want = hnsw
    index_dir, live = index_copy(clean_index, tmp_path)
    _strip_hnsw_checksums(live)
    doctor = run_cli("doctor", "--index-dir", str(index_dir))
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert f"note: generation {live.name} was written before its vector store's HNSW" in (
        doctor.stdout
    )
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
    assert "note:" not in repaired.stdout  # the rebuilt generation has its checksums
    assert snapshot(index_dir, embedder) == want


def test_a_server_started_on_damaged_hnsw_files_stays_up_and_says_so(
    tmp_path: Path,
    hnsw: tuple[Path, Path, Snapshot],
    start_cli: Callable[..., subprocess.Popen[str]],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    index_dir, live = index_copy(hnsw[1], tmp_path)
    # Damage the vector probe passes: before the checksums a server reported ready on it.
    overwrite(hnsw_file(live).with_name("link_lists.bin"), 0.1, 64, seed=0)
    with serving(start_cli, index_dir) as (url, proc):
        ready = httpx.get(f"{url}/readyz", timeout=10)
        assert ready.status_code == 503 and str(tmp_path) not in ready.text
        body = ready.json()
        assert body["status"] == "damaged" and body["generation"] == live.name
        assert body["problems"] == [_changed(live, "link_lists.bin")]
        packet = httpx.post(f"{url}/v1/retrieve", json={"query": "fractions"}, timeout=30)
        assert packet.status_code == 200 and "vector" in packet.json()["degraded_sources"]

        repaired = run_cli("doctor", "--repair", "--index-dir", str(index_dir))
        assert repaired.returncode == 0, repaired.stdout + repaired.stderr
        body = _ready(url, proc, lambda b: b["generation"] != live.name)
        assert body["status"] == "ready" and body["stale"] is None
        assert httpx.get(f"{url}/healthz", timeout=10).status_code == 200


def test_a_server_swapped_to_a_damaged_generation_keeps_serving_the_one_it_has(
    tmp_path: Path,
    hnsw: tuple[Path, Path, Snapshot],
    start_cli: Callable[..., subprocess.Popen[str]],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    index_dir, live = index_copy(hnsw[1], tmp_path)
    with serving(start_cli, index_dir) as (url, proc):
        assert httpx.get(f"{url}/readyz", timeout=10).json()["status"] == "ready"
        with WriterLock(index_dir, "a test writing a damaged generation"):
            broken = new_generation(index_dir, live)
            overwrite(hnsw_file(broken), 0.05, 64, seed=1)  # the probe passes this
            activate(index_dir, broken)
        body = _ready(url, proc, lambda b: bool(b["stale"]))
        assert body["generation"] == live.name and body["status"] == "ready"
        damaged = f"generation {broken.name} is damaged: {_changed(broken, 'data_level0.bin')}"
        assert body["stale"].endswith(damaged), body["stale"]
        assert str(tmp_path) not in json.dumps(body)
        packet = httpx.post(f"{url}/v1/retrieve", json={"query": "fractions"}, timeout=30)
        assert packet.status_code == 200 and packet.json()["degraded_sources"] == []

        repaired = run_cli("doctor", "--repair", "--index-dir", str(index_dir))
        assert repaired.returncode == 0, repaired.stdout + repaired.stderr
        body = _ready(url, proc, lambda b: b["generation"] not in (live.name, broken.name))
        assert body["status"] == "ready" and body["stale"] is None
