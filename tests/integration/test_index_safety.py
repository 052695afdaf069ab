"""The index survives careless operators (issue 30): two writers, killed writers, damaged files
and a server that must notice a newer generation, all on real processes, real Chroma and real
MiniLM vectors.

The reference is a clean index of the session bundle built in two ingests (records without
documents first, then the whole bundle), as a user who adds content would have it; every test
compares what it ends with against that index: the same counts and the same dense and lexical
top 10 for a few queries.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.contract.chroma_server import free_port

from tutorgraph.errors import IndexDamagedError
from tutorgraph.index.doctor import examine
from tutorgraph.index.generations import activate, generations, live_generation, new_generation
from tutorgraph.index.local import LocalIndex
from tutorgraph.index.lock import WriterLock
from tutorgraph.index.pipeline import embed_bundle
from tutorgraph.ingest.bundle import load_trusted, write_bundle
from tutorgraph.models.records import SourceRecords
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration

QUERIES = (
    "adding fractions with unlike denominators",
    "what is the value of a negative number squared",
    "solve 2x + 3 = 7",
)
KILL_SEEDS = range(20)
Snapshot = dict[str, Any]


async def _snapshot_async(index_dir: Path, embedder: Any) -> Snapshot:
    async with LocalIndex.open(index_dir, embedder=embedder.name) as index:
        assert index.problems == [], index.problems
        out: Snapshot = {
            "counts": index.manifest.counts,
            "vectors": await index.vector.count(),
            "lexical": len(index.lexical_items()),
        }
        for query, vector in zip(QUERIES, embedder.embed(list(QUERIES)), strict=True):
            dense = await index.vector.search(vector, 10)
            words = await index.lexical.search(query, 10)
            out[query] = ([h.item.id for h in dense], [h.item.id for h in words])
        return out


def snapshot(index_dir: Path, embedder: Any) -> Snapshot:
    """Counts and top-10 ids of an intact index (fails on any integrity problem)."""
    return asyncio.run(_snapshot_async(index_dir, embedder))


@pytest.fixture(scope="module")
def bundles(
    tmp_path_factory: pytest.TempPathFactory, index_bundle: Path, embedder: Any
) -> tuple[Path, Path]:
    """(A, B): B is the session bundle with its vectors stored (as the bundled curriculum
    ships them); A is B without its documents."""
    root = tmp_path_factory.mktemp("safety-bundles")
    full = root / "B"
    shutil.copytree(index_bundle, full)
    asyncio.run(embed_bundle(full, embedder))
    records = load_trusted(full)
    part = root / "A"
    write_bundle(
        SourceRecords(
            concepts=records.concepts,
            prerequisites=records.prerequisites,
            misconceptions=records.misconceptions,
        ),
        part,
    )
    shutil.copytree(full / "embeddings", part / "embeddings")
    return part, full


@pytest.fixture(scope="module")
def clean(
    tmp_path_factory: pytest.TempPathFactory,
    bundles: tuple[Path, Path],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> tuple[Path, Path, Snapshot, float]:
    """(index of A, index of A then B, B's snapshot, seconds of a clean CLI ingest of B)."""
    part, full = bundles
    root = tmp_path_factory.mktemp("safety-clean")
    only_a = root / "A"
    done = run_cli("ingest", str(part), "--index-dir", str(only_a))
    assert done.returncode == 0, done.stderr
    both = root / "AB"
    shutil.copytree(only_a, both)
    started = time.perf_counter()
    done = run_cli("ingest", str(full), "--index-dir", str(both))
    seconds = time.perf_counter() - started
    assert done.returncode == 0, done.stderr
    return only_a, both, snapshot(both, embedder), seconds


def _one_line_error(proc: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert "Traceback" not in proc.stderr, proc.stderr
    assert len(lines) == 1, proc.stderr
    return lines[0]


# -- 1. one writer at a time ---------------------------------------------------------------


def test_a_second_writer_is_refused_naming_the_first_and_readers_go_on(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    only_a, _, want, _ = clean
    index_dir = tmp_path / "index"
    shutil.copytree(only_a, index_dir)
    with WriterLock(index_dir, "a test holding the lock"):
        refused = run_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
        assert refused.returncode == 2
        line = _one_line_error(refused)
        assert f"process {os.getpid()}" in line and "a test holding the lock" in line
        # Readers never wait for the writer.
        assert (
            snapshot(index_dir, embedder)["counts"]
            == json.loads(
                (live_generation(index_dir) / "manifest.json").read_text()  # type: ignore[operator]
            )["counts"]
        )
    done = run_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    assert done.returncode == 0, done.stderr
    assert snapshot(index_dir, embedder) == want


@pytest.mark.parametrize("delay_s", [0.0, 2.0])
def test_two_ingests_at_once_leave_one_clean_index(
    delay_s: float,
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    start_cli: Callable[..., subprocess.Popen[str]],
    embedder: Any,
) -> None:
    index_dir = tmp_path / "index"
    first = start_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    time.sleep(delay_s)
    second = start_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    outcomes = []
    for proc in (first, second):
        _, err = proc.communicate(timeout=600)
        assert "Traceback" not in err and proc.returncode in (0, 2), err
        if proc.returncode == 2:
            assert "is being written by process" in err
        outcomes.append(proc.returncode)
    assert 0 in outcomes
    assert snapshot(index_dir, embedder) == clean[2]
    assert asyncio.run(examine(index_dir, embedder.name)).ok


# -- crashes: kill -9 at random points ------------------------------------------------------


def test_killed_ingests_leave_the_live_generation_whole_and_a_rerun_completes(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    start_cli: Callable[..., subprocess.Popen[str]],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    only_a, _, want, seconds = clean
    counts_a = snapshot(only_a, embedder)["counts"]
    landed: list[str] = []
    for seed in KILL_SEEDS:
        rng = random.Random(seed)
        index_dir = tmp_path / f"seed-{seed}"
        if seed % 2:  # an index that holds A: the ingest of B is incremental
            shutil.copytree(only_a, index_dir)
        proc = start_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
        time.sleep(rng.uniform(0.0, 1.1 * seconds))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=600)
        try:
            live = live_generation(index_dir) if index_dir.is_dir() else None
        except IndexDamagedError:  # killed between its manifest and CURRENT: resumed below
            live = None
        built = [g.name for g in generations(index_dir)] if index_dir.is_dir() else []
        if proc.returncode == -signal.SIGKILL:
            half = [n for n in built if live is None or n > live.name]
            landed.append("mid-write" if half else "before-write")
        else:
            landed.append("finished")
        # Whatever the live generation is, it opens whole: A's (or none) or B's.
        if live is not None:
            got = snapshot(index_dir, embedder)["counts"]
            assert got in (counts_a, want["counts"]), (seed, got)
        done = run_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
        assert done.returncode == 0, (seed, done.stderr)
        assert snapshot(index_dir, embedder) == want, seed
        assert len(generations(index_dir)) <= 2  # crashed builds are collected
    print("kill points:", {k: landed.count(k) for k in sorted(set(landed))})
    assert landed.count("mid-write") >= 3, landed


# -- 3, 4, 6. damage is reported, degrades its source, and is repaired ------------------------


def _truncate(path: Path, keep: float = 0.5) -> None:
    with path.open("r+b") as fh:
        fh.truncate(int(path.stat().st_size * keep))


def _drop_line(path: Path) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:3] + lines[4:]))


def _hnsw(generation: Path) -> Path:
    return next(p for p in (generation / "chroma").iterdir() if p.is_dir()) / "data_level0.bin"


DAMAGE: dict[str, tuple[str, Callable[[Path], None]]] = {
    "sqlite deleted": ("vector", lambda g: (g / "chroma/chroma.sqlite3").unlink()),
    "sqlite emptied": ("vector", lambda g: _truncate(g / "chroma/chroma.sqlite3", 0)),
    "sqlite truncated": ("vector", lambda g: _truncate(g / "chroma/chroma.sqlite3")),
    "hnsw truncated": ("vector", lambda g: _truncate(_hnsw(g))),
    "items truncated": ("lexical", lambda g: _truncate(g / "lexical/items.jsonl")),
    "items line dropped": ("lexical", lambda g: _drop_line(g / "lexical/items.jsonl")),
    "bm25 matrix truncated": ("lexical", lambda g: _truncate(g / "lexical/data.csc.index.npy")),
    "vocabulary deleted": ("lexical", lambda g: (g / "lexical/vocab.index.json").unlink()),
    "catalogue truncated": ("graph", lambda g: _truncate(g / "catalogue/documents.jsonl")),
    "catalogue deleted": ("graph", lambda g: shutil.rmtree(g / "catalogue")),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_damage_degrades_its_source_says_how_to_repair_and_is_repaired(
    damage: str,
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    source, apply = DAMAGE[damage]
    index_dir = tmp_path / "index"
    shutil.copytree(clean[1], index_dir)
    live = live_generation(index_dir)
    assert live is not None
    apply(live)

    # The CLI: one line naming the part and the fix, no traceback, no segfault.
    query = run_cli("query", QUERIES[0], "--json", "--index-dir", str(index_dir))
    assert query.returncode == 2 and query.stdout == ""
    line = _one_line_error(query)
    assert f"damaged: {source}:" in line and "tutorgraph doctor --repair" in line

    # In process (the server's way): the other sources answer, the damaged one is degraded.
    async def packet() -> tuple[list[str], list[str]]:
        from tutorgraph.retrieval.factory import Models, build_retriever
        from tutorgraph.retrieval.retriever_config import RetrieverConfig

        async with LocalIndex.open(index_dir, embedder=embedder.name) as index:
            retriever = build_retriever(index, Models(embedder), RetrieverConfig())
            try:
                got = await retriever.retrieve(RetrievalRequest(query=QUERIES[0]))
            finally:
                await retriever.aclose()
            return [p.source for p in index.problems], list(got.degraded_sources)

    problems, degraded = asyncio.run(packet())
    assert problems == [source] and source in degraded

    assert not asyncio.run(examine(index_dir, embedder.name)).ok
    repaired = run_cli("doctor", "--repair", "--index-dir", str(index_dir))
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    if source == "graph":  # the catalogue falls back to the generation before it
        assert "run the last ingest again" in repaired.stdout
        again = run_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
        assert again.returncode == 0, again.stderr
    assert snapshot(index_dir, embedder) == clean[2]


def test_doctor_finds_damage_the_open_check_cannot_see(
    tmp_path: Path, clean: tuple[Path, Path, Snapshot, float], embedder: Any
) -> None:
    """Bytes changed in place (the same size): only the sha256 of `doctor` sees them."""
    index_dir = tmp_path / "index"
    shutil.copytree(clean[1], index_dir)
    live = live_generation(index_dir)
    assert live is not None
    path = live / "lexical" / "items.jsonl"
    data = bytearray(path.read_bytes())
    data[100:110] = b"XXXXXXXXXX"
    path.write_bytes(bytes(data))
    found = asyncio.run(examine(index_dir, embedder.name))
    assert [p.source for p in found.problems] == ["lexical"]
    assert "sha256" in found.problems[0].message


def test_a_missing_catalogue_refuses_an_ingest_instead_of_pruning(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    index_dir = tmp_path / "index"
    shutil.copytree(clean[1], index_dir)
    live = live_generation(index_dir)
    assert live is not None
    shutil.rmtree(live / "catalogue")
    refused = run_cli("ingest", str(bundles[0]), "--index-dir", str(index_dir))
    assert refused.returncode == 2
    assert "catalogue is damaged" in _one_line_error(refused)
    # Nothing was pruned or switched: the same live generation, every vector still there.
    assert live_generation(index_dir) == live
    assert [g.name for g in generations(index_dir)] == [g.name for g in generations(clean[1])]

    async def vectors() -> int:
        from tutorgraph.stores.chroma import ChromaVectorStore

        store = ChromaVectorStore.embedded(live / "chroma", create=False)
        try:
            return await store.count()
        finally:
            await store.aclose()

    assert asyncio.run(vectors()) == clean[2]["vectors"]


# -- 7. a server follows a newer generation, and never serves a damaged one over an intact one -


@pytest.fixture
def server(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    start_cli: Callable[..., subprocess.Popen[str]],
) -> Iterator[tuple[str, Path]]:
    index_dir = tmp_path / "index"
    shutil.copytree(clean[0], index_dir)
    port = free_port()
    proc = start_cli(
        "serve",
        "--port",
        str(port),
        "--index-dir",
        str(index_dir),
        "--log-level",
        "warning",
        TUTORGRAPH_INDEX_RELOAD_S="0.3",
        TUTORGRAPH_RERANKER_MODEL="",
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait(lambda: httpx.get(f"{url}/healthz", timeout=2).status_code == 200, proc)
        yield url, index_dir
    finally:
        proc.terminate()
        proc.communicate(timeout=60)


def _wait(ready: Callable[[], bool], proc: subprocess.Popen[str], timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()[1]
        try:
            if ready():
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError("timed out")


def test_a_server_follows_a_cli_ingest_and_keeps_an_intact_generation_over_a_damaged_one(
    server: tuple[str, Path],
    bundles: tuple[Path, Path],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    url, index_dir = server
    before = httpx.get(f"{url}/readyz").json()
    assert before["status"] == "ready" and str(index_dir) not in json.dumps(before)
    query = {"query": "write 3/4 as a decimal", "sources": ["lexical"]}
    kinds = {h["kind"] for h in httpx.post(f"{url}/v1/retrieve", json=query).json()["results"]}
    assert not kinds & {"question", "explanation", "exercise"}  # A holds no documents

    done = run_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    assert done.returncode == 0, done.stderr
    live = live_generation(index_dir)
    assert live is not None and live.name != before["generation"]
    proc_ready = lambda: httpx.get(f"{url}/readyz").json()["generation"] == live.name  # noqa: E731
    deadline = time.monotonic() + 60
    while not proc_ready():
        assert time.monotonic() < deadline, "the server did not follow the new generation"
        time.sleep(0.2)
    hits = httpx.post(f"{url}/v1/retrieve", json=query).json()["results"]
    assert {h["kind"] for h in hits} & {"question", "explanation", "exercise"}

    # A damaged newer generation (as a writer with a broken disk would leave it).
    with WriterLock(index_dir, "a test writing a damaged generation"):
        broken = new_generation(index_dir, live)
        _truncate(broken / "lexical" / "items.jsonl")
        activate(index_dir, broken)
    deadline = time.monotonic() + 60
    while not (stale := httpx.get(f"{url}/readyz").json())["stale"]:
        assert time.monotonic() < deadline, "the server did not report the damaged generation"
        time.sleep(0.2)
    assert stale["generation"] == live.name and stale["status"] == "ready"
    assert f"generation {broken.name} is damaged" in stale["stale"]
    assert httpx.post(f"{url}/v1/retrieve", json=query).json()["degraded_sources"] == []


def test_readyz_is_not_ready_on_a_damaged_index(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    start_cli: Callable[..., subprocess.Popen[str]],
) -> None:
    index_dir = tmp_path / "index"
    shutil.copytree(clean[1], index_dir)
    live = live_generation(index_dir)
    assert live is not None
    (live / "lexical" / "vocab.index.json").unlink()
    port = free_port()
    proc = start_cli("serve", "--port", str(port), "--index-dir", str(index_dir))
    url = f"http://127.0.0.1:{port}"
    try:
        _wait(lambda: httpx.get(f"{url}/healthz", timeout=2).status_code == 200, proc)
        ready = httpx.get(f"{url}/readyz")
        assert ready.status_code == 503
        body = ready.json()
        assert body["status"] == "damaged" and str(index_dir) not in ready.text
        assert body["problems"] and "lexical/vocab.index.json is missing" in body["problems"][0]
        assert "tutorgraph doctor --repair" in body["problems"][0]
        packet = httpx.post(f"{url}/v1/retrieve", json={"query": QUERIES[0]}).json()
        assert packet["degraded_sources"] == ["lexical"] and packet["results"]
    finally:
        proc.terminate()
        proc.communicate(timeout=60)


# -- issue 46: damage that crashes, full disks, broken pointers, deleted locks, NaN vectors --


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
    path = _hnsw(generation)
    size = path.stat().st_size
    assert size > 100_000, "no HNSW graph on disk (fewer than 1,000 vectors?)"
    with path.open("r+b") as fh:
        fh.seek(int(size * 0.45))
        fh.write(random.Random(0).randbytes(size // 10))
    assert path.stat().st_size == size


@contextlib.contextmanager
def _serving(
    start_cli: Callable[..., subprocess.Popen[str]], index_dir: Path
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    port = free_port()
    proc = start_cli(
        "serve",
        "--port",
        str(port),
        "--index-dir",
        str(index_dir),
        "--log-level",
        "warning",
        TUTORGRAPH_INDEX_RELOAD_S="0.3",
        TUTORGRAPH_RERANKER_MODEL="",
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait(lambda: httpx.get(f"{url}/healthz", timeout=2).status_code == 200, proc)
        yield url, proc
    finally:
        proc.terminate()
        proc.communicate(timeout=60)


def _ready(url: str, proc: subprocess.Popen[str], want: Callable[[dict[str, Any]], bool]) -> Any:
    """/readyz's body once `want` holds of it (the server must stay up meanwhile)."""
    found: dict[str, Any] = {}

    def check() -> bool:
        found.update(httpx.get(f"{url}/readyz", timeout=10).json())
        return want(found)

    _wait(check, proc, timeout_s=90)
    return found


def test_same_size_hnsw_damage_is_one_line_for_the_cli_and_is_repaired(
    tmp_path: Path,
    hnsw: tuple[Path, Path, Snapshot],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    bundle, clean_index, want = hnsw
    index_dir = tmp_path / "index"
    shutil.copytree(clean_index, index_dir)
    live = live_generation(index_dir)
    assert live is not None
    _damage_hnsw_in_place(live)

    query = run_cli("query", QUERIES[0], "--json", "--index-dir", str(index_dir))
    assert query.returncode == 2 and query.stdout == ""
    line = _one_line_error(query)
    assert "damaged: vector: opening the vector store kills the process" in line
    assert "tutorgraph doctor --repair" in line

    ingest = run_cli("ingest", str(bundle), "--index-dir", str(index_dir))
    assert ingest.returncode == 2
    assert "the index's vector store is damaged" in _one_line_error(ingest)
    assert [g.name for g in generations(index_dir)] == [live.name]  # nothing half-built

    doctor = run_cli("doctor", "--index-dir", str(index_dir))
    assert doctor.returncode == 1 and "kills the process" in _one_line_error(doctor)
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
    index_dir = tmp_path / "index"
    shutil.copytree(hnsw[1], index_dir)
    live = live_generation(index_dir)
    assert live is not None
    _damage_hnsw_in_place(live)
    with _serving(start_cli, index_dir) as (url, proc):
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
    index_dir = tmp_path / "index"
    shutil.copytree(hnsw[1], index_dir)
    live = live_generation(index_dir)
    assert live is not None
    with _serving(start_cli, index_dir) as (url, proc):
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


def _fill(folder: Path, leave: int) -> Path:
    """A file that leaves `leave` bytes free on `folder`'s disk (0: the disk is full)."""
    filler = folder / f"filler-{time.monotonic_ns()}"
    free = shutil.disk_usage(folder).free
    with filler.open("wb", buffering=0) as fh:
        with contextlib.suppress(OSError):
            os.posix_fallocate(fh.fileno(), 0, max(0, free - leave))
        if leave == 0:  # to the last block
            fh.seek(0, os.SEEK_END)
            with contextlib.suppress(OSError):
                while fh.write(b"\0" * 4096):
                    pass
    return filler


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 24 MiB filesystem of its own (tmpfs; needs root, else the test skips: the
    simulated full disk below covers the messages everywhere)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_is_one_line_loses_nothing_and_is_not_damage(
    small_disk: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    only_a, _, want, _ = clean
    index_dir = small_disk / "index"
    shutil.copytree(only_a, index_dir)
    before = snapshot(index_dir, embedder)
    live = live_generation(index_dir)
    assert live is not None

    # Room for a copy of the live generation, not for what B adds.
    filler = _fill(small_disk, leave=int(folder_size(live) * 1.6))
    ingest = run_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    assert ingest.returncode == 2
    line = _one_line_error(ingest)
    assert line.startswith("error: disk full: about ") and "MB needed" in line, line
    assert f"generation {live.name} stays live" in line
    assert [g.name for g in generations(index_dir)] == [live.name]  # no half-built one
    assert snapshot(index_dir, embedder) == before

    # Full to the last block: Chroma cannot open (it writes when it opens); not damage.
    full = _fill(small_disk, leave=0)
    query = run_cli("query", QUERIES[0], "--json", "--index-dir", str(index_dir))
    assert query.returncode == 0, query.stderr
    assert "damaged" not in query.stderr and "disk is full" in query.stderr
    assert json.loads(query.stdout)["degraded_sources"] == ["vector"]
    for args in (("doctor",), ("doctor", "--repair")):
        done = run_cli(*args, "--index-dir", str(index_dir))
        assert done.returncode == 2, done.stdout + done.stderr
        assert "disk is full" in _one_line_error(done) and "damaged" not in done.stderr
    assert [g.name for g in generations(index_dir)] == [live.name]

    full.unlink()
    filler.unlink()
    assert asyncio.run(examine(index_dir, embedder.name)).ok
    done = run_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    assert done.returncode == 0, done.stderr
    assert snapshot(index_dir, embedder) == want


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def test_a_simulated_full_disk_removes_the_half_built_generation(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    embedder: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ENOSPC where no small filesystem can be made: the same line, nothing left behind."""
    from tutorgraph.errors import DiskFullError
    from tutorgraph.index import pipeline
    from tutorgraph.index.pipeline import ingest_bundle

    index_dir = tmp_path / "index"
    shutil.copytree(clean[0], index_dir)
    before = snapshot(index_dir, embedder)
    live = live_generation(index_dir)
    assert live is not None

    def no_space(*args: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pipeline, "_write_derived", no_space)
    with pytest.raises(DiskFullError) as info:
        asyncio.run(ingest_bundle(bundles[1], index_dir, embedder))
    assert info.value.message.startswith("disk full: about ")
    assert "\n" not in info.value.message
    assert [g.name for g in generations(index_dir)] == [live.name]
    assert snapshot(index_dir, embedder) == before


@pytest.mark.parametrize("fix", ["doctor --repair", "ingest"])
def test_a_deleted_current_is_one_line_and_nothing_is_lost(
    fix: str,
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    index_dir = tmp_path / "index"
    shutil.copytree(clean[1], index_dir)
    live = live_generation(index_dir)
    assert live is not None
    (index_dir / "CURRENT").unlink()

    query = run_cli("query", QUERIES[0], "--index-dir", str(index_dir))
    assert query.returncode == 2
    line = _one_line_error(query)
    assert "CURRENT file is missing" in line and "tutorgraph doctor --repair" in line
    if fix == "doctor --repair":
        done = run_cli("doctor", "--repair", "--index-dir", str(index_dir))
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"pointed CURRENT at generation {live.name}" in done.stdout
    else:  # an ingest of A builds on the newest intact generation (A and B), not on nothing
        done = run_cli("ingest", str(bundles[0]), "--index-dir", str(index_dir))
        assert done.returncode == 0, done.stderr
    assert snapshot(index_dir, embedder) == clean[2]


def test_a_garbled_current_is_one_line_and_is_repaired(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    index_dir = tmp_path / "index"
    shutil.copytree(clean[1], index_dir)
    live = live_generation(index_dir)
    assert live is not None
    (index_dir / "CURRENT").write_bytes(b"\xff\xfe\x00\x9c garbage\n" * 50)
    for args in (("query", QUERIES[0]), ("doctor",)):
        done = run_cli(*args, "--index-dir", str(index_dir))
        assert done.returncode in (1, 2)
        assert "CURRENT file names no generation" in _one_line_error(done)
    done = run_cli("doctor", "--repair", "--index-dir", str(index_dir))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"pointed CURRENT at generation {live.name}" in done.stdout
    assert snapshot(index_dir, embedder) == clean[2]


def test_readyz_names_no_path_and_clears_stale_once_the_pointer_is_fixed(
    server: tuple[str, Path],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    url, index_dir = server
    served = httpx.get(f"{url}/readyz").json()["generation"]
    (index_dir / "CURRENT").write_bytes(b"garbage\n")
    deadline = time.monotonic() + 60
    while not (body := httpx.get(f"{url}/readyz").json())["stale"]:
        assert time.monotonic() < deadline, "the server did not report the broken pointer"
        time.sleep(0.2)
    assert "CURRENT file names no generation" in body["stale"]
    assert str(index_dir) not in json.dumps(body) and body["generation"] == served
    done = run_cli("doctor", "--repair", "--index-dir", str(index_dir))
    assert done.returncode == 0, done.stdout + done.stderr
    deadline = time.monotonic() + 60
    while (body := httpx.get(f"{url}/readyz").json())["stale"]:
        assert time.monotonic() < deadline, f"stale was not cleared: {body['stale']}"
        time.sleep(0.2)
    assert body["status"] == "ready" and body["generation"] == served


def test_a_deleted_lock_file_does_not_admit_a_second_writer(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    start_cli: Callable[..., subprocess.Popen[str]],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    index_dir = tmp_path / "index"
    shutil.copytree(clean[0], index_dir)
    first = start_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    holder = index_dir / ".writer.json"
    deadline = time.monotonic() + 120
    while not (holder.is_file() and json.loads(holder.read_text()).get("pid") == first.pid):
        assert first.poll() is None and time.monotonic() < deadline, first.communicate()[1]
        time.sleep(0.02)
    first.send_signal(signal.SIGSTOP)  # mid-ingest, for as long as the test needs
    try:
        (index_dir / ".writer.lock").unlink()  # zero bytes: it looks stale
        second = run_cli("ingest", str(bundles[0]), "--index-dir", str(index_dir))
        assert second.returncode == 2
        assert f"is being written by process {first.pid}" in _one_line_error(second)
    finally:
        first.send_signal(signal.SIGCONT)
    _, err = first.communicate(timeout=600)
    assert first.returncode == 0, err
    assert snapshot(index_dir, embedder) == clean[2]


def test_after_a_crash_and_a_rerun_the_last_good_generation_survives_and_repair_restores_it(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    start_cli: Callable[..., subprocess.Popen[str]],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    only_a, _, want, _ = clean
    index_dir = tmp_path / "index"
    shutil.copytree(only_a, index_dir)
    good = live_generation(index_dir)
    assert good is not None
    counts_a = snapshot(index_dir, embedder)

    # kill -9 while the next generation is half-built.
    proc = start_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    half = index_dir / "generations" / f"{int(good.name) + 1:06d}"
    deadline = time.monotonic() + 120
    while not half.is_dir():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()[1]
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    assert not (half / "manifest.json").exists()

    rerun = run_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    assert rerun.returncode == 0, rerun.stderr
    live = live_generation(index_dir)
    assert live is not None and live.name > half.name
    # The half-built generation went, the last live and intact one stayed.
    assert [g.name for g in generations(index_dir)] == [good.name, live.name]
    assert (index_dir / "PREVIOUS").read_text().strip() == good.name

    _truncate(live / "catalogue" / "documents.jsonl")
    query = run_cli("query", QUERIES[0], "--index-dir", str(index_dir))
    assert query.returncode == 2 and "damaged: graph:" in _one_line_error(query)
    repaired = run_cli("doctor", "--repair", "--index-dir", str(index_dir))
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    assert f"generation {good.name} is live again" in repaired.stdout
    restored = live_generation(index_dir)
    assert restored is not None and restored.name > live.name  # CURRENT moved forward
    assert snapshot(index_dir, embedder) == counts_a
    again = run_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    assert again.returncode == 0, again.stderr
    assert snapshot(index_dir, embedder) == want


def test_nan_vectors_are_never_served_and_repair_takes_them_from_the_vector_store(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    import numpy as np

    index_dir = tmp_path / "index"
    shutil.copytree(clean[1], index_dir)
    live = live_generation(index_dir)
    assert live is not None
    path = live / "vectors" / "vectors.npy"
    size = path.stat().st_size
    rows = np.load(path, mmap_mode="r+")
    rows[::7] = np.nan  # same-size damage: the size check passes
    rows.flush()
    del rows
    assert path.stat().st_size == size

    query = run_cli("query", QUERIES[0], "--index-dir", str(index_dir))
    assert query.returncode == 2
    line = _one_line_error(query)
    assert "damaged: vector: vectors/vectors.npy" in line and "not finite numbers" in line
    repaired = run_cli("doctor", "--repair", "--index-dir", str(index_dir))
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    # The items' vectors came back from Chroma, not from the embedder.
    assert "0 embedded; vector copy:" in repaired.stdout, repaired.stdout
    assert "from the vector store" in repaired.stdout
    assert snapshot(index_dir, embedder) == clean[2]
    fixed = live_generation(index_dir)
    assert fixed is not None
    assert np.isfinite(np.load(fixed / "vectors" / "vectors.npy")).all()
