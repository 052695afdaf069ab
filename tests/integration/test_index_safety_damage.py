"""The index survives damage (issues 30 and 46), on real processes, real Chroma and real
MiniLM vectors: damaged files are reported, degrade only their source, say how to repair
and are repaired; a missing catalogue refuses an ingest; a deleted or garbled CURRENT is one
line and loses nothing; NaN vectors are never served; and a server follows a newer
generation but never serves a damaged one over an intact one. Each test ends comparing
against the clean reference index of `index_safety_support.py`.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.contract.chroma_server import free_port
from tests.integration.index_safety_support import (
    QUERIES,
    Snapshot,
    bundles_fixture,  # noqa: F401 - the module fixture `bundles`
    clean_fixture,  # noqa: F401 - the module fixture `clean`
    hnsw_file,
    index_copy,
    one_line_error,
    serving,
    snapshot,
    truncate,
    wait_until,
)

from tutorgraph.index.doctor import examine
from tutorgraph.index.generations import (
    activate,
    generations,
    live_generation,
    new_generation,
    previous_generation,
    previous_problem,
)
from tutorgraph.index.local import LocalIndex
from tutorgraph.index.lock import WriterLock
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration


# -- 3, 4, 6. damage is reported, degrades its source, and is repaired ------------------------


def _drop_line(path: Path) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:3] + lines[4:]))


DAMAGE: dict[str, tuple[str, Callable[[Path], None]]] = {
    "sqlite deleted": ("vector", lambda g: (g / "chroma/chroma.sqlite3").unlink()),
    "sqlite emptied": ("vector", lambda g: truncate(g / "chroma/chroma.sqlite3", 0)),
    "sqlite truncated": ("vector", lambda g: truncate(g / "chroma/chroma.sqlite3")),
    "hnsw truncated": ("vector", lambda g: truncate(hnsw_file(g))),
    "items truncated": ("lexical", lambda g: truncate(g / "lexical/items.jsonl")),
    "items line dropped": ("lexical", lambda g: _drop_line(g / "lexical/items.jsonl")),
    "bm25 matrix truncated": ("lexical", lambda g: truncate(g / "lexical/data.csc.index.npy")),
    "vocabulary deleted": ("lexical", lambda g: (g / "lexical/vocab.index.json").unlink()),
    "catalogue truncated": ("graph", lambda g: truncate(g / "catalogue/documents.jsonl")),
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
    index_dir, live = index_copy(clean[1], tmp_path)
    apply(live)

    # The CLI: one line naming the part and the fix, no traceback, no segfault.
    query = run_cli("query", QUERIES[0], "--json", "--index-dir", str(index_dir))
    assert query.returncode == 2 and query.stdout == ""
    line = one_line_error(query)
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
    index_dir, live = index_copy(clean[1], tmp_path)
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
    index_dir, live = index_copy(clean[1], tmp_path)
    shutil.rmtree(live / "catalogue")
    refused = run_cli("ingest", str(bundles[0]), "--index-dir", str(index_dir))
    assert refused.returncode == 2
    assert "catalogue is damaged" in one_line_error(refused)
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
    with serving(start_cli, index_dir) as (url, _proc):
        yield url, index_dir


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
        truncate(broken / "lexical" / "items.jsonl")
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
    index_dir, live = index_copy(clean[1], tmp_path)
    (live / "lexical" / "vocab.index.json").unlink()
    port = free_port()
    proc = start_cli("serve", "--port", str(port), "--index-dir", str(index_dir))
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: httpx.get(f"{url}/healthz", timeout=2).status_code == 200, proc)
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


# -- issue 46: broken pointers and NaN vectors ---------------------------------------------


@pytest.mark.parametrize("fix", ["doctor --repair", "ingest"])
def test_a_deleted_current_is_one_line_and_nothing_is_lost(
    fix: str,
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    index_dir, live = index_copy(clean[1], tmp_path)
    (index_dir / "CURRENT").unlink()

    query = run_cli("query", QUERIES[0], "--index-dir", str(index_dir))
    assert query.returncode == 2
    line = one_line_error(query)
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
    index_dir, live = index_copy(clean[1], tmp_path)
    (index_dir / "CURRENT").write_bytes(b"\xff\xfe\x00\x9c garbage\n" * 50)
    for args in (("query", QUERIES[0]), ("doctor",)):
        done = run_cli(*args, "--index-dir", str(index_dir))
        assert done.returncode in (1, 2)
        assert "CURRENT file names no generation" in one_line_error(done)
    done = run_cli("doctor", "--repair", "--index-dir", str(index_dir))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"pointed CURRENT at generation {live.name}" in done.stdout
    assert snapshot(index_dir, embedder) == clean[2]


def test_a_current_that_is_a_directory_is_one_line_and_is_repaired(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    """Issue 59: `doctor --repair` crashed with a traceback on it."""
    index_dir, live = index_copy(clean[1], tmp_path)
    (index_dir / "CURRENT").unlink()
    (index_dir / "CURRENT").mkdir()
    (index_dir / "CURRENT" / "notes.txt").write_text("someone's file")
    doctor = run_cli("doctor", "--index-dir", str(index_dir))
    assert doctor.returncode == 1
    assert one_line_error(doctor) == (
        "damaged index: the index's CURRENT is a directory, not a file; "
        "run `tutorgraph doctor --repair`"
    )
    repaired = run_cli("doctor", "--repair", "--index-dir", str(index_dir))
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    assert (
        "repaired: CURRENT was a directory, not a file: moved it to CURRENT.not-a-file (kept)"
        in repaired.stdout
    )
    assert f"pointed CURRENT at generation {live.name}" in repaired.stdout
    assert (index_dir / "CURRENT.not-a-file" / "notes.txt").read_text() == "someone's file"
    assert snapshot(index_dir, embedder) == clean[2]


def test_repair_leaves_previous_naming_an_older_intact_generation_or_none(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    """Issue 59: a garbled PREVIOUS was left as it was (and `collect` then kept no last good
    generation), and a repair that made an older generation live left PREVIOUS naming it."""
    index_dir, live = index_copy(clean[1], tmp_path)
    older = previous_generation(index_dir)
    assert older is not None and older.name < live.name
    previous = index_dir / "PREVIOUS"

    previous.write_bytes(b"\x00\xff\xfegarbage")
    doctor = run_cli("doctor", "--index-dir", str(index_dir))
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "note: the index's PREVIOUS file names no generation" in doctor.stdout
    repaired = run_cli("doctor", "--repair", "--index-dir", str(index_dir))
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    assert "names no generation" in repaired.stdout
    assert f"it names generation {older.name}, the newest intact one" in repaired.stdout
    assert previous.read_bytes() == f"{older.name}\n".encode()
    assert sorted(p.name for p in index_dir.iterdir() if p.name.endswith(".tmp")) == []

    # CURRENT lost and the live generation's catalogue damaged: the older one is live again,
    # and PREVIOUS must not name it.
    (index_dir / "CURRENT").unlink()
    truncate(live / "catalogue" / "documents.jsonl")
    repaired = run_cli("doctor", "--repair", "--index-dir", str(index_dir))
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    now = live_generation(index_dir)
    assert now is not None and now.name == older.name, repaired.stdout
    assert previous.read_bytes() == b"\n", repaired.stdout  # none before it
    assert previous_problem(index_dir, now) is None and "note:" not in repaired.stdout


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


def test_nan_vectors_are_never_served_and_repair_takes_them_from_the_vector_store(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    import numpy as np

    index_dir, live = index_copy(clean[1], tmp_path)
    path = live / "vectors" / "vectors.npy"
    size = path.stat().st_size
    rows = np.load(path, mmap_mode="r+")
    rows[::7] = np.nan  # same-size damage: the size check passes
    rows.flush()
    del rows
    assert path.stat().st_size == size

    query = run_cli("query", QUERIES[0], "--index-dir", str(index_dir))
    assert query.returncode == 2
    line = one_line_error(query)
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
