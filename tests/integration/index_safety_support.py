"""What the index-safety tests (issues 30 and 46) share: the reference index they compare
against, the snapshot they compare, and small helpers.

The reference is a clean index of the session bundle built in two ingests (records without
documents first, then the whole bundle), as a user who adds content would have it; every test
compares what it ends with against that index: the same counts and the same dense and lexical
top 10 for a few queries. `bundles` and `clean` are module-scoped fixtures: a test module
imports them (as `bundles_fixture`, `clean_fixture`), and builds them once for its tests::

    from tests.integration.index_safety_support import clean_fixture  # noqa: F401

    def test_x(clean, embedder):
        assert snapshot(clean[1], embedder) == clean[2]
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.contract.chroma_server import free_port

from tutorgraph.index.generations import live_generation
from tutorgraph.index.local import LocalIndex
from tutorgraph.index.pipeline import embed_bundle
from tutorgraph.ingest.bundle import load_trusted, write_bundle
from tutorgraph.models.records import SourceRecords

__all__ = [
    "QUERIES",
    "Snapshot",
    "bundles_fixture",
    "clean_fixture",
    "hnsw_file",
    "index_copy",
    "one_line_error",
    "overwrite",
    "serving",
    "snapshot",
    "truncate",
    "wait_until",
]

QUERIES = (
    "adding fractions with unlike denominators",
    "what is the value of a negative number squared",
    "solve 2x + 3 = 7",
)
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


@pytest.fixture(scope="module", name="bundles")
def bundles_fixture(
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


@pytest.fixture(scope="module", name="clean")
def clean_fixture(
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


def index_copy(index: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the reference `index` at `tmp_path / "index"`, and its live generation: what
    a test damages."""
    index_dir = tmp_path / "index"
    shutil.copytree(index, index_dir)
    live = live_generation(index_dir)
    assert live is not None
    return index_dir, live


def one_line_error(proc: subprocess.CompletedProcess[str]) -> str:
    """The one line a failed CLI run wrote to stderr (no traceback, no second line)."""
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert "Traceback" not in proc.stderr, proc.stderr
    assert len(lines) == 1, proc.stderr
    return lines[0]


def truncate(path: Path, keep: float = 0.5) -> None:
    """Cut `path` to `keep` of its size, as a disk that filled or a copy that died would."""
    with path.open("r+b") as fh:
        fh.truncate(int(path.stat().st_size * keep))


def hnsw_file(generation: Path) -> Path:
    """The HNSW graph file of `generation`'s Chroma collection."""
    return next(p for p in (generation / "chroma").iterdir() if p.is_dir()) / "data_level0.bin"


def wait_until(
    ready: Callable[[], bool], proc: subprocess.Popen[str], timeout_s: float = 120
) -> None:
    """Poll `ready` until it holds (an HTTP error counts as not yet); fail if `proc` exits."""
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


@contextlib.contextmanager
def serving(
    start_cli: Callable[..., subprocess.Popen[str]], index_dir: Path, **env: str
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`tutorgraph serve` on `index_dir` (reloading every 0.3 s, no reranker; `env` added to
    its environment) until it answers `/healthz`; yields its URL and process, and stops it
    (unless the test killed it)."""
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
        **env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: httpx.get(f"{url}/healthz", timeout=2).status_code == 200, proc)
        yield url, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
        proc.communicate(timeout=60)


def overwrite(path: Path, at: float, length: int, seed: int) -> None:
    """Random bytes over `length` bytes of `path` from `at` (a fraction of its size), its size
    unchanged: damage no size check sees."""
    size = path.stat().st_size
    start = min(int(size * at), max(0, size - length))
    with path.open("r+b") as fh:
        fh.seek(start)
        fh.write(random.Random(seed).randbytes(min(length, size - start)))
    assert path.stat().st_size == size
