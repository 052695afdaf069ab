"""`tutorgraph doctor`: examine an index thoroughly, and repair what can be repaired.

`examine` runs every check of the open-time integrity check (`index/integrity.py`) plus
the sha256 of every file, opens the vector store first in a child process (so that a store
that would crash the process is reported instead; `index/vector_check.py`), and compares the
vector store's ids with the lexical index's. It keeps what it finds per part of the
generation (`chroma`, `vectors`, `lexical`, `catalogue`), so that a repair knows which of the
vector store and the index's own vector copy is intact. A full disk is not damage: it is a
`DiskFullError` (one line), and nothing is repaired.

Besides damage, `examine` notes what is not damage but worth knowing (`Examination.notes`,
exit code unchanged): what a writer that stopped left behind (a half-built generation, an
upload: `index/leftovers.py`), a `PREVIOUS` file that names no older generation, and a
generation written before its HNSW files had checksums.

`repair` (holding the writer lock from its first look to its last write) keeps every record
it can, and never moves `CURRENT` backwards:

0. a `CURRENT` or `PREVIOUS` that is a directory is moved aside (`CURRENT.not-a-file`, kept),
   and what stopped writers left is removed;
1. a `CURRENT` that is missing or names no generation points again at the newest generation
   that passes every check;
2. a live generation whose catalogue is intact is rebuilt from it into a new generation:
   a damaged vector store afresh from the generation's own vector copy (its finite vectors),
   a damaged vector copy from the vector store (then from the bundle's stored vectors, with
   `--bundle`), and only what neither holds is embedded again;
3. a live generation whose catalogue is damaged is replaced by a copy of the last generation
   that was live and intact (`PREVIOUS`, else the newest older one that passes; the last
   ingest must then be run again), else it is retired (renamed `damaged-<name>`, kept on disk,
   with every other generation that fails) and the index is empty until the bundle is
   ingested again;
4. last, a `PREVIOUS` that names no generation older than the live one (garbled, gone, the
   live one itself) is rewritten (in one step: `generations.write_pointer`) to name the
   newest intact one before the live one, or none.

>>> report = await examine(Path(".tutorgraph"), "all-MiniLM-L6-v2")  # doctest: +SKIP
>>> report.ok, [str(p) for p in report.problems]  # doctest: +SKIP
(True, [])
"""

from __future__ import annotations

import asyncio
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.embedding.stored_vectors import StoredVectors
from tutorgraph.errors import ConfigurationError, DiskFullError, IndexDamagedError
from tutorgraph.index._bundle_vectors import STORED_VECTORS_DIR
from tutorgraph.index.diskspace import disk_full_reason
from tutorgraph.index.generations import (
    CURRENT_FILE,
    GENERATIONS_DIR,
    PREVIOUS_FILE,
    activate,
    generation_name,
    generations,
    intact,
    live_generation,
    new_generation,
    pointed_generation,
    previous_generation,
    previous_problem,
    write_pointer,
)
from tutorgraph.index.integrity import (
    REPAIR_HINT,
    Problem,
    check_parts,
    finite_only,
    unchecked_files,
)
from tutorgraph.index.layout import IndexLayout, load_catalogue
from tutorgraph.index.leftovers import find_leftovers, remove_leftovers
from tutorgraph.index.local import LocalIndex
from tutorgraph.index.pipeline import IngestOptions, IngestReport, ingest_locked, writing
from tutorgraph.index.vector_check import VectorCheck, check_vector_store
from tutorgraph.stores.chroma import ChromaVectorStore
from tutorgraph.stores.damaged import DamagedStore
from tutorgraph.stores.manifest import Manifest

__all__ = ["Examination", "RepairReport", "examine", "repair"]

# Where a rebuilt vector copy's vectors came from (`IngestReport.vector_copy`), in words.
_COPY_SOURCES = {
    "written": "as written to the vector store",
    "stored": "from stored vectors",
    "vector store": "from the vector store",
    "embedded": "embedded",
}
# The folder of a generation a problem without one is in, by the source it takes down.
_PART_OF_SOURCE = {"vector": "chroma", "lexical": "lexical", "graph": "catalogue"}


@dataclass
class Examination:
    """What `examine` found: `problems` holds one per source (what the CLI prints), `parts`
    one per folder of the generation (what a repair plans from)."""

    index_dir: Path
    generation: str | None
    problems: list[Problem] = field(default_factory=list)
    generations: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    parts: dict[str, Problem] = field(default_factory=dict)
    # What is not damage but worth knowing, one line each (a stopped writer's leftovers).
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.generation is not None and not self.problems


@dataclass
class RepairReport:
    """What `repair` did, in sentences, and the examination after it."""

    actions: list[str]
    after: Examination


def _part(problem: Problem) -> str:
    return problem.part or _PART_OF_SOURCE.get(problem.source, problem.source)


async def examine(index_dir: Path, embedder: str) -> Examination:
    """Every check there is, on the live generation of `index_dir`. Raises `DiskFullError`
    when the vector store cannot be opened for want of disk space (nothing can be said)."""
    result, layout, manifest = await asyncio.to_thread(_examine_files, index_dir)
    if result.generation is None or layout is None or manifest is None:
        return result
    parts = result.parts
    check: VectorCheck | None = None
    if "chroma" not in parts and layout.chroma.is_dir():
        check = await asyncio.to_thread(VectorCheck.start, layout.root)
        verdict = await asyncio.to_thread(check.result)
        if verdict.disk_full:
            raise DiskFullError(disk_full_reason(index_dir))
        if verdict.problem is not None:
            parts["chroma"] = verdict.problem
        elif verdict.count is not None and verdict.count != manifest.counts.get(
            "items", verdict.count
        ):
            parts["chroma"] = Problem(
                "vector",
                f"holds {verdict.count:,} vectors, the manifest counted "
                f"{manifest.counts['items']:,} items",
                "chroma",
            )
    try:
        # Chroma is opened here only when the child survived it (its verdict is reused).
        async with LocalIndex.open(index_dir, embedder=embedder, check=check) as index:
            if "vector" in index.unavailable:
                raise DiskFullError(index.unavailable["vector"])
            for problem in index.problems:
                parts.setdefault(_part(problem), problem)
            listed = {it.id for it in index.lexical_items()}
            vector_open = not isinstance(index.vector, DamagedStore)
    finally:
        if check is not None:
            check.cancel()
    if vector_open and "lexical" not in parts and "chroma" not in parts:
        mismatch = await _id_mismatch(layout, listed)
        if mismatch is not None:
            parts["chroma"] = mismatch
    by_source: dict[str, Problem] = {}
    for problem in parts.values():
        by_source.setdefault(problem.source, problem)
    result.problems = list(by_source.values())
    return result


def _leftover_notes(index_dir: Path) -> list[str]:
    return [
        f"{leftover} is what a writer that stopped left (or one at work now); "
        "`tutorgraph doctor --repair` or the next ingest removes it"
        for leftover in find_leftovers(index_dir)
    ]


def _examine_files(index_dir: Path) -> tuple[Examination, IndexLayout | None, Manifest | None]:
    result = Examination(index_dir, None, generations=[g.name for g in generations(index_dir)])
    result.notes = _leftover_notes(index_dir)
    try:
        live = live_generation(index_dir)
        manifest = Manifest.read(live) if live is not None else None
    except IndexDamagedError as exc:
        problem = Problem("index", exc.message.removesuffix(f"; {REPAIR_HINT}"))
        result.problems.append(problem)
        result.parts["index"] = problem
        return result, None, None
    if live is None:
        return result, None, None
    if (wrong := previous_problem(index_dir, live)) is not None:
        result.notes.append(
            f"the index's {PREVIOUS_FILE} file {wrong}: there is no last good generation to "
            "go back to; `tutorgraph doctor --repair` names the newest intact one again"
        )
    result.generation = generation_name(live)
    if manifest is None:
        problem = Problem("index", "the live generation has no manifest")
        result.problems.append(problem)
        result.parts["index"] = problem
        return result, None, None
    result.counts = dict(manifest.counts)
    if unchecked := unchecked_files(manifest):
        result.notes.append(
            f"generation {result.generation} was written before its vector store's HNSW files "
            f"had checksums ({len(unchecked)} files): same-size damage to them is found only "
            "by opening them in a child process and probing; the next ingest records them"
        )
    layout = IndexLayout(live)
    result.parts = check_parts(layout, manifest, deep=True)
    by_source: dict[str, Problem] = {}
    for problem in result.parts.values():
        by_source.setdefault(problem.source, problem)
    result.problems = list(by_source.values())
    return result, layout, manifest


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
        "chroma",
    )


def _deep_problems(generation: Path, embedder: str) -> dict[str, Problem] | None:
    """Every file check with sha256 (part -> problem), or None without a readable manifest
    of `embedder`."""
    try:
        manifest = Manifest.read(generation)
    except IndexDamagedError:
        return None
    if manifest is None or manifest.embedder != embedder:
        return None
    return check_parts(IndexLayout(generation), manifest, deep=True)


def _passes(generation: Path, embedder: str) -> bool:
    """Every file check with sha256, and the vector store survives a child's open."""
    if _deep_problems(generation, embedder) != {}:
        return False
    return check_vector_store(generation).problem is None


def _catalogue_passes(generation: Path, embedder: str) -> bool:
    problems = _deep_problems(generation, embedder)
    return problems is not None and "catalogue" not in problems


@dataclass(frozen=True)
class _Rebuild:
    """A rebuild of the live generation from its catalogue into a new one."""

    live: Path
    chroma_damaged: bool
    copy_damaged: bool


async def repair(
    index_dir: Path, embedder: Embedder, *, bundle: Path | None = None
) -> RepairReport:
    """Repair the index at `index_dir` as the module says; raises `IndexBusyError` while
    another writer holds it. `bundle` is a bundle whose stored vectors (`embeddings/`) a
    rebuild may take before embedding anything."""
    actions: list[str] = []
    async with writing(index_dir, "tutorgraph doctor --repair", tidy=False):
        await asyncio.to_thread(_clear_pointers, index_dir, actions)
        for leftover in await asyncio.to_thread(remove_leftovers, index_dir):
            actions.append(f"removed {leftover}, left by a writer that stopped")
        before = await examine(index_dir, embedder.name)
        rebuild = await _plan(index_dir, embedder.name, before, actions)
        if rebuild is not None:
            report = await _rebuild(index_dir, embedder, rebuild, bundle)
            copy = ", ".join(
                f"{n:,} {_COPY_SOURCES.get(k, k)}" for k, n in report.vector_copy.items()
            )
            actions.append(
                f"rebuilt generation {report.generation} from the catalogue "
                f"({report.counts.get('items', 0):,} items, {report.embedded:,} embedded; "
                f"vector copy: {copy or 'none'})"
            )
        await asyncio.to_thread(_settle_previous, index_dir, embedder.name, actions)
    after = await examine(index_dir, embedder.name)
    return RepairReport(actions or ["nothing to repair"], after)


async def _plan(
    index_dir: Path, embedder: str, before: Examination, actions: list[str]
) -> _Rebuild | None:
    """Pointer and catalogue repairs (the lock is held); returns the rebuild to run, or
    None."""
    if before.ok or (before.generation is None and not before.problems):
        return None
    if "index" in before.parts:
        pointed = await asyncio.to_thread(_point_at_newest, index_dir, embedder, actions)
        if pointed:
            return None
        before = await examine(index_dir, embedder)
        if before.ok:
            return None
    live = await asyncio.to_thread(live_generation, index_dir)
    assert live is not None  # a generation with problems was examined
    parts = before.parts
    if "catalogue" not in parts:
        if not {"chroma", "vectors", "lexical"} & set(parts):
            return None
        return _Rebuild(live, "chroma" in parts, "vectors" in parts)
    await asyncio.to_thread(_go_back, index_dir, live, embedder, actions)
    return None


def _clear_pointers(index_dir: Path, actions: list[str]) -> None:
    """A pointer file (or its temporary file) that is a directory cannot be replaced: an
    empty one is removed, any other moved aside (kept, renamed `NAME.not-a-file`)."""
    for name in (CURRENT_FILE, PREVIOUS_FILE, f"{CURRENT_FILE}.tmp", f"{PREVIOUS_FILE}.tmp"):
        path = index_dir / name
        if not path.is_dir():
            continue
        try:
            path.rmdir()
        except OSError:
            pass
        else:
            actions.append(f"{name} was an empty directory, not a file: removed it")
            continue
        aside = index_dir / f"{name}.not-a-file"
        n = 1
        while aside.exists() or aside.is_symlink():
            n += 1
            aside = index_dir / f"{name}.not-a-file-{n}"
        path.rename(aside)
        actions.append(f"{name} was a directory, not a file: moved it to {aside.name} (kept)")


def _settle_previous(index_dir: Path, embedder: str, actions: list[str]) -> None:
    """`PREVIOUS` names the newest intact generation before the live one, or none, once the
    rest is repaired (written in one step, never left garbled)."""
    try:
        live = live_generation(index_dir)
    except IndexDamagedError:
        return
    if live is None or live == index_dir:
        return
    wrong = previous_problem(index_dir, live)
    if wrong is None:
        return
    older = [g for g in reversed(generations(index_dir)) if g.name < live.name]
    good = next((g for g in older if intact(g, embedder)), None)
    write_pointer(index_dir, PREVIOUS_FILE, good.name if good is not None else "")
    now = (
        f"it names generation {good.name}, the newest intact one before the live one"
        if good is not None
        else "it names none (no intact generation before the live one)"
    )
    actions.append(f"the index's {PREVIOUS_FILE} file {wrong}: {now}")


def _point_at_newest(index_dir: Path, embedder: str, actions: list[str]) -> bool:
    """Point a missing or garbled `CURRENT` at the newest generation that passes every check
    (True), or at the newest whose catalogue passes, to be rebuilt (False)."""
    candidates = list(reversed(generations(index_dir)))
    good = next((g for g in candidates if _passes(g, embedder)), None)
    usable = good or next((g for g in candidates if _catalogue_passes(g, embedder)), None)
    if usable is None:
        raise IndexDamagedError(
            "no generation of the index passes its checks; ingest the bundle again into "
            "a new TUTORGRAPH_INDEX_DIR"
        )
    how = "the newest intact" if good is not None else "the newest with an intact catalogue"
    pointed = pointed_generation(index_dir)
    if pointed is not None and pointed.name > usable.name:
        # CURRENT names a newer, broken generation: never backwards, a copy goes forward.
        copy = new_generation(index_dir, usable)
        activate(index_dir, copy, outgoing_intact=False)
        actions.append(
            f"generation {pointed.name} has no manifest: generation {usable.name}, {how}, is "
            f"live again (copied as {copy.name})"
        )
    else:
        activate(index_dir, usable, outgoing_intact=False)
        actions.append(f"pointed {CURRENT_FILE} at generation {usable.name}, {how}")
    return good is not None


def _go_back(index_dir: Path, live: Path, embedder: str, actions: list[str]) -> None:
    """The catalogue of `live` is damaged: a copy of the last good generation becomes live,
    or, with none, every failing generation is retired."""
    if live == index_dir:
        raise IndexDamagedError(
            "the catalogue of this index (written before generations) is damaged and "
            "there is nothing to go back to; ingest the bundle again into a new "
            "TUTORGRAPH_INDEX_DIR"
        )
    previous = previous_generation(index_dir)
    older = [g for g in reversed(generations(index_dir)) if g.name < live.name]
    ordered = ([previous] if previous is not None and previous != live else []) + [
        g for g in older if g != previous
    ]
    good = next((g for g in ordered if _passes(g, embedder)), None)
    if good is not None:
        copy = new_generation(index_dir, good)
        activate(index_dir, copy, outgoing_intact=False)
        actions.append(
            f"the catalogue of generation {live.name} is damaged: generation {good.name} is "
            f"live again (copied as {copy.name}); run the last ingest again"
        )
        return
    retired = []
    for generation in generations(index_dir):
        if generation != live and _passes(generation, embedder):
            continue  # newer than the live one and intact: kept (not made live)
        if not (generation / "manifest.json").is_file():
            shutil.rmtree(generation, ignore_errors=True)  # a half-built one
            continue
        retired_as = generation.with_name(f"damaged-{generation.name}")
        while retired_as.exists():  # retired before (a generation number used again)
            retired_as = retired_as.with_name(retired_as.name + "-again")
        generation.rename(retired_as)
        retired.append(retired_as.name)
    (index_dir / CURRENT_FILE).unlink(missing_ok=True)
    (index_dir / PREVIOUS_FILE).unlink(missing_ok=True)
    names = ", ".join(f"{GENERATIONS_DIR}/{n}" for n in retired)
    actions.append(
        f"the catalogue of generation {live.name} is damaged and no older generation passes: "
        f"retired it ({names}, kept); the index is empty until you run "
        "`tutorgraph ingest BUNDLE`"
    )


def _read_finite(folder: Path) -> StoredVectors | None:
    try:
        return finite_only(StoredVectors.read(folder))
    except ConfigurationError:
        return None


def _merged(first: StoredVectors | None, second: StoredVectors | None) -> StoredVectors | None:
    """The vectors of both (the first's where both hold a text), when of one model."""
    if first is None or second is None or first.fingerprint != second.fingerprint:
        return first or second
    keys = np.concatenate([first.keys, second.keys])
    vectors = np.concatenate([np.asarray(first.vectors), np.asarray(second.vectors)])
    _, at = np.unique(keys.view("S32").ravel(), return_index=True)
    return StoredVectors(first.fingerprint, first.model, keys[at], vectors[at])


async def _rebuild(
    index_dir: Path, embedder: Embedder, plan: _Rebuild, bundle: Path | None
) -> IngestReport:
    layout = IndexLayout(plan.live)
    manifest = await asyncio.to_thread(Manifest.read, plan.live)
    assert manifest is not None
    records = await asyncio.to_thread(load_catalogue, layout)
    given = await asyncio.to_thread(_read_finite, bundle / STORED_VECTORS_DIR) if bundle else None
    # A damaged vector copy is not read at all: finite garbage would pass for vectors.
    kept = None if plan.copy_damaged else await asyncio.to_thread(_read_finite, layout.vectors)
    return await ingest_locked(
        records,
        index_dir,
        embedder,
        IngestOptions(
            source_hash=manifest.bundle_hash,
            prune=True,
            fresh=plan.chroma_damaged,
            rebuild_vector_copy=plan.copy_damaged,
            writer="tutorgraph doctor --repair",
            default_retrieval_profile=manifest.default_retrieval_profile,
            default_semantic_weight=manifest.default_semantic_weight,
            near_duplicate_threshold=manifest.near_duplicate_threshold,
        ),
        stored=_merged(kept, given),
        live_intact=False,
    )
