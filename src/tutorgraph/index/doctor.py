"""`tutorgraph doctor`: examine an index thoroughly, and repair what can be repaired.

`examine` runs every check of the open-time integrity check (`index/integrity.py`) plus
the sha256 of every file, opens the vector store first in a child process (so that a store
that would crash the process is reported instead), and compares the vector store's ids with
the lexical index's.

`repair` (under the writer lock) keeps every record it can:

1. a `CURRENT` that names no generation points again at the newest generation that passes;
2. a live generation whose catalogue is intact is rebuilt from it into a new generation
   (a damaged vector store is rebuilt afresh from the generation's own vectors, embedding
   only what they lack);
3. a live generation whose catalogue is damaged is replaced by the previous generation when
   that one passes (the last ingest must then be run again), else it is retired (renamed
   `damaged-<name>`, kept on disk) and the index is empty until the bundle is ingested again.

>>> report = await examine(Path(".tutorgraph"), "all-MiniLM-L6-v2")  # doctest: +SKIP
>>> report.ok, [str(p) for p in report.problems]  # doctest: +SKIP
(True, [])
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.embedding.stored_vectors import StoredVectors
from tutorgraph.errors import ConfigurationError, IndexDamagedError
from tutorgraph.index.generations import (
    CURRENT_FILE,
    GENERATIONS_DIR,
    activate,
    generation_name,
    generations,
    live_generation,
)
from tutorgraph.index.integrity import Problem, check_files
from tutorgraph.index.layout import IndexLayout, load_catalogue
from tutorgraph.index.local import LocalIndex
from tutorgraph.index.lock import WriterLock
from tutorgraph.index.pipeline import IngestOptions, IngestReport, ingest_records
from tutorgraph.stores.chroma import ChromaVectorStore
from tutorgraph.stores.manifest import Manifest

__all__ = ["Examination", "RepairReport", "examine", "repair"]

# Opens the collection and counts it in a child process: a crash there is a finding.
_CHILD = (
    "import sys\n"
    "from pathlib import Path\n"
    "from tutorgraph.stores.chroma import ChromaVectorStore\n"
    "store = ChromaVectorStore.embedded(Path(sys.argv[1]), create=False)\n"
    "print(store.count_sync())\n"
    "store.close_sync()\n"
)
_CHILD_TIMEOUT_S = 300


@dataclass
class Examination:
    """What `examine` found."""

    index_dir: Path
    generation: str | None
    problems: list[Problem] = field(default_factory=list)
    generations: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.generation is not None and not self.problems


@dataclass
class RepairReport:
    """What `repair` did, in sentences, and the examination after it."""

    actions: list[str]
    after: Examination


def _vector_store_crashes(chroma: Path) -> Problem | None:
    env = {**os.environ, "TUTORGRAPH_LOG_LEVEL": "ERROR"}
    try:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(chroma)],
            capture_output=True,
            text=True,
            timeout=_CHILD_TIMEOUT_S,
            env=env,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return Problem("vector", f"opening the vector store took over {_CHILD_TIMEOUT_S}s")
    if done.returncode < 0:
        return Problem(
            "vector", f"opening the vector store kills the process (signal {-done.returncode})"
        )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1][:200]
        return Problem("vector", f"the vector store cannot be opened ({last})")
    return None


async def examine(index_dir: Path, embedder: str) -> Examination:
    """Every check there is, on the live generation of `index_dir`."""
    found = await asyncio.to_thread(_examine_files, index_dir)
    result, layout = found
    if result.generation is None or layout is None:
        return result
    problems = {p.source: p for p in result.problems}
    if "vector" not in problems and layout.chroma.is_dir():
        crash = await asyncio.to_thread(_vector_store_crashes, layout.chroma)
        if crash is not None:
            problems["vector"] = crash
    if "vector" not in problems:
        async with LocalIndex.open(index_dir, embedder=embedder) as index:
            for problem in index.problems:
                problems.setdefault(problem.source, problem)
            listed = {it.id for it in index.lexical_items()}
        if "vector" not in problems and "lexical" not in problems and layout.chroma.is_dir():
            mismatch = await _id_mismatch(layout, listed)
            if mismatch is not None:
                problems["vector"] = mismatch
    result.problems = list(problems.values())
    return result


def _examine_files(index_dir: Path) -> tuple[Examination, IndexLayout | None]:
    result = Examination(index_dir, None, generations=[g.name for g in generations(index_dir)])
    try:
        live = live_generation(index_dir)
        manifest = Manifest.read(live) if live is not None else None
    except IndexDamagedError as exc:
        result.problems.append(Problem("index", exc.message))
        return result, None
    if live is None:
        return result, None
    result.generation = generation_name(live)
    if manifest is None:
        result.problems.append(Problem("index", "the live generation has no manifest"))
        return result, None
    result.counts = dict(manifest.counts)
    layout = IndexLayout(live)
    result.problems = check_files(layout, manifest, deep=True)
    return result, layout


async def _id_mismatch(layout: IndexLayout, listed: set[str]) -> Problem | None:
    store = ChromaVectorStore.embedded(layout.chroma, create=False)
    try:
        held = set(await store.content_hashes())
    finally:
        await store.aclose()
    if held == listed:
        return None
    extra, lost = sorted(held - listed), sorted(listed - held)
    return Problem(
        "vector",
        f"the vector store holds {len(extra)} ids the lexical index does not "
        f"({extra[:3]}) and lacks {len(lost)} it lists ({lost[:3]})",
    )


def _passes(generation: Path, embedder: str) -> bool:
    try:
        manifest = Manifest.read(generation)
    except IndexDamagedError:
        return False
    if manifest is None or manifest.embedder != embedder:
        return False
    return not check_files(IndexLayout(generation), manifest, deep=True)


async def repair(index_dir: Path, embedder: Embedder) -> RepairReport:
    """Repair the index at `index_dir` as the module says; raises `IndexBusyError` while
    another writer holds it."""
    actions: list[str] = []
    lock = WriterLock(index_dir, "tutorgraph doctor --repair")
    await asyncio.to_thread(lock.acquire)
    try:
        before = await examine(index_dir, embedder.name)
        rebuild = await asyncio.to_thread(_plan, index_dir, embedder.name, before, actions)
    finally:
        lock.release()
    if rebuild is not None:
        report = await _rebuild(index_dir, embedder, *rebuild)
        actions.append(
            f"rebuilt generation {report.generation} from the catalogue "
            f"({report.counts.get('items', 0):,} items, {report.embedded:,} embedded)"
        )
    after = await examine(index_dir, embedder.name)
    return RepairReport(actions or ["nothing to repair"], after)


def _plan(
    index_dir: Path, embedder: str, before: Examination, actions: list[str]
) -> tuple[Path, bool] | None:
    """Pointer and catalogue repairs (the lock is held); returns the generation to rebuild
    from and whether its vector store must be built afresh, or None."""
    if before.ok or (before.generation is None and not before.problems):
        return None
    sources = {p.source for p in before.problems}
    if "index" in sources:
        good = [g for g in reversed(generations(index_dir)) if _passes(g, embedder)]
        if not good:
            raise IndexDamagedError(
                "no generation of the index passes its checks; ingest the bundle again into "
                "a new TUTORGRAPH_INDEX_DIR"
            )
        activate(index_dir, good[0])
        actions.append(f"pointed {CURRENT_FILE} at generation {good[0].name}, the newest intact")
        return None
    live = live_generation(index_dir)
    assert live is not None  # a generation with problems was examined
    if "graph" not in sources:
        return live, "vector" in sources
    older = [g for g in reversed(generations(index_dir)) if g.name < live.name]
    previous = next((g for g in older if _passes(g, embedder)), None)
    if previous is not None:
        activate(index_dir, previous)
        actions.append(
            f"the catalogue of generation {live.name} is damaged: generation {previous.name} "
            "is live again; run the last ingest again"
        )
        return None
    retired = live.with_name(f"damaged-{live.name}")
    if live == index_dir:
        raise IndexDamagedError(
            "the catalogue of this index (written before generations) is damaged and "
            "there is nothing to go back to; ingest the bundle again into a new "
            "TUTORGRAPH_INDEX_DIR"
        )
    live.rename(retired)
    (index_dir / CURRENT_FILE).unlink()
    actions.append(
        f"the catalogue of generation {live.name} is damaged and no older generation passes: "
        f"retired it to {GENERATIONS_DIR}/{retired.name}; the index is empty until you run "
        "`tutorgraph ingest BUNDLE`"
    )
    return None


async def _rebuild(index_dir: Path, embedder: Embedder, live: Path, fresh: bool) -> IngestReport:
    layout = IndexLayout(live)
    manifest = await asyncio.to_thread(Manifest.read, live)
    assert manifest is not None
    records = await asyncio.to_thread(load_catalogue, layout)
    try:
        kept = await asyncio.to_thread(StoredVectors.read, layout.vectors)
    except ConfigurationError:
        kept = None  # damaged too: the texts are embedded again
    return await ingest_records(
        records,
        index_dir,
        embedder,
        IngestOptions(
            source_hash=manifest.bundle_hash,
            prune=True,
            fresh=fresh,
            writer="tutorgraph doctor --repair",
            default_retrieval_profile=manifest.default_retrieval_profile,
            default_semantic_weight=manifest.default_semantic_weight,
            near_duplicate_threshold=manifest.near_duplicate_threshold,
        ),
        stored=kept,
    )
