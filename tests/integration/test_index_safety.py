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

from tutorgraph.index.doctor import examine
from tutorgraph.index.generations import activate, generations, live_generation, new_generation
from tutorgraph.index.local import LocalIndex
from tutorgraph.index.lock import WriterLock
from tutorgraph.index.pipeline import embed_bundle
from tutorgraph.ingest.bundle import load_trusted, write_bundle
from tutorgraph.models.records import SourceRecords
from tutorgraph.models.request import RetrievalRequest

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
        live = live_generation(index_dir) if index_dir.is_dir() else None
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
        from tutorgraph.retrieval.factory import Models, RetrieverSetup, build_retriever

        async with LocalIndex.open(index_dir, embedder=embedder.name) as index:
            retriever = build_retriever(index, Models(embedder), RetrieverSetup())
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
