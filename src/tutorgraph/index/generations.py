"""Index generations: every write builds a new, complete index beside the live one, and one
atomic pointer switch makes it live.

Layout of an index folder::

    CURRENT              the live generation's name (replaced whole by `os.replace`)
    PREVIOUS             the last generation that was live and intact before it
    generations/000007/  one complete index: manifest.json, chroma/, lexical/, catalogue/,
                         vectors/ (see `IndexLayout`)
    .writer.lock         the one writer's lock (`index/lock.py`, which locks the folder too)

A writer (holding the lock) copies the live generation into the next one, ingests there,
writes the manifest last and then `activate`s it. `CURRENT` only ever moves forward: a
generation numbered below the live one is never made live (a repair that goes back copies
the older generation into a new one). A crash at any step before the switch leaves the live
generation exactly as it was (the half-built one is removed by the next writer); after it,
the new one is complete. `collect` keeps the live generation and `PREVIOUS` (when it still
passes its checks) and deletes the rest, the manifest-less and failing ones first. Readers
open whatever `CURRENT` names and hold it with a shared file lock, so that `collect` never
deletes a generation that is in use; they never wait for a writer.

A `CURRENT` that is missing while generations with a manifest exist, or that names no
generation, is damage (`IndexDamagedError`: `tutorgraph doctor --repair` points it at the
newest intact generation); a writer resumes from the newest intact generation instead
(`live_generation(..., recover=True)`), so that nothing ingested is lost.

An index written before generations existed (`manifest.json` at the top) is read in place;
its next ingest copies it into a generation and then removes the old top-level parts.

>>> live_generation(Path(".tutorgraph"))  # doctest: +SKIP
PosixPath('.tutorgraph/generations/000003')
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import sqlite3
from pathlib import Path

from tutorgraph.errors import IndexBusyError, IndexDamagedError, IndexNotFoundError
from tutorgraph.index.integrity import check_files
from tutorgraph.index.layout import IndexLayout
from tutorgraph.index.pointer import (
    CURRENT_FILE,
    GENERATIONS_DIR,
    LEGACY,
    NAME,
    generation_name,
    generations,
    named_generation,
    pointed_generation,
    read_name,
    with_manifest,
)
from tutorgraph.index.pointer import live_generation as _live_generation
from tutorgraph.stores.manifest import MANIFEST_FILE, Manifest, require_manifest

try:  # POSIX: generations in use are held with a shared lock
    import fcntl
except ImportError:  # pragma: no cover - Windows: collection keeps the newest ones only
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "CURRENT_FILE",
    "GENERATIONS_DIR",
    "LEGACY",
    "PREVIOUS_FILE",
    "ReaderHold",
    "activate",
    "collect",
    "generation_name",
    "generations",
    "in_use",
    "intact",
    "live_generation",
    "new_generation",
    "pointed_generation",
    "previous_generation",
    "previous_problem",
    "require_live_manifest",
    "write_pointer",
]

log = logging.getLogger(__name__)

PREVIOUS_FILE = "PREVIOUS"
_READERS = ".readers"
# The parts of an index written before generations (moved into one by the next ingest).
_LEGACY_PARTS = ("chroma", "lexical", "catalogue", "vectors", MANIFEST_FILE)


def live_generation(index_dir: Path, *, recover: bool = False) -> Path | None:
    """The folder of the live generation, `index_dir` itself for an index written before
    generations, or None when there is no index (`index/pointer.py`).

    A `CURRENT` that names no generation, or is missing while some generation has a
    manifest, is an `IndexDamagedError`. With `recover` (a writer, under the lock) a missing
    `CURRENT` gives the newest generation that passes its checks instead (a writer killed
    between its manifest and the switch, a `CURRENT` deleted by hand), so that the next
    ingest builds on it rather than on nothing."""
    if (
        recover
        and not (index_dir / CURRENT_FILE).exists()
        and not (index_dir / MANIFEST_FILE).is_file()
    ):
        good = next((g for g in reversed(with_manifest(index_dir)) if intact(g)), None)
        if good is not None:
            log.warning(
                "the index's %s is missing: building on generation %s, the newest intact",
                CURRENT_FILE,
                good.name,
            )
            return good
    return _live_generation(index_dir)


def previous_generation(index_dir: Path) -> Path | None:
    """The generation `PREVIOUS` names (the last one that was live and intact before the
    live one), when it is still there."""
    return named_generation(index_dir, PREVIOUS_FILE)


def previous_problem(index_dir: Path, live: Path | None) -> str | None:
    """What is wrong with the `PREVIOUS` file, as the end of a sentence that starts "the
    index's PREVIOUS file", or None when nothing is: it is missing, empty (no previous
    generation yet), or names a generation that is there and older than `live`."""
    path = index_dir / PREVIOUS_FILE
    if path.is_dir():
        return "is a directory, not a file"
    try:
        name = read_name(path)
    except IndexDamagedError:
        return "cannot be read"
    if not name:
        return None
    if not NAME.fullmatch(name):
        return f"names no generation ({name[:40]!r})"
    if not (index_dir / GENERATIONS_DIR / name).is_dir():
        return f"names generation {name}, which is gone"
    if live is not None and NAME.fullmatch(live.name) and name >= live.name:
        return f"names generation {name}, which is not older than the live one ({live.name})"
    return None


def intact(generation: Path, embedder: str | None = None, *, deep: bool = False) -> bool:
    """Whether `generation` has a readable manifest (of `embedder`, when given) and passes
    the file checks (sizes, Chroma's database; sha256 too when `deep`)."""
    try:
        manifest = Manifest.read(generation)
    except IndexDamagedError:
        return False
    if manifest is None or (embedder is not None and manifest.embedder != embedder):
        return False
    try:
        return not check_files(IndexLayout(generation), manifest, deep=deep)
    except OSError:
        return False


def require_live_manifest(index_dir: Path, embedder: str) -> Manifest:
    """The live generation's manifest, built with `embedder`: `IndexNotFoundError` when the
    folder holds no index, `EmbedderMismatchError` for another embedder's."""
    generation = live_generation(index_dir)
    if generation is None:
        raise IndexNotFoundError(index_dir)
    return require_manifest(generation, embedder)


def new_generation(index_dir: Path, source: Path | None, *, manifest: bool = True) -> Path:
    """A new generation folder, after every existing one, holding a copy of `source` (the
    live generation) or nothing. Only a writer holding the lock calls this. A copy that
    fails (a full disk) leaves nothing behind. Without `manifest` the copy leaves out the
    source's manifest: a writer that goes on to change the copy writes its own last, so that
    until then the generation reads as half-built, never as an intact copy of its source."""
    existing = generations(index_dir)
    number = int(existing[-1].name) + 1 if existing else 1
    target = index_dir / GENERATIONS_DIR / f"{number:06d}"
    target.mkdir(parents=True)
    try:
        if source is not None:
            _copy_generation(source, target, manifest=manifest)
    except BaseException:
        shutil.rmtree(target, ignore_errors=True)
        raise
    return target


def _copy_generation(source: Path, target: Path, *, manifest: bool) -> None:
    for part in ("lexical", "catalogue", "vectors"):
        if (source / part).is_dir():
            shutil.copytree(source / part, target / part)
    chroma = source / "chroma"
    if chroma.is_dir():
        (target / "chroma").mkdir()
        for entry in chroma.iterdir():
            if entry.is_dir():
                shutil.copytree(entry, target / "chroma" / entry.name)
            elif entry.name == "chroma.sqlite3":
                _copy_sqlite(entry, target / "chroma" / entry.name)
    if manifest and (source / MANIFEST_FILE).is_file():
        shutil.copy2(source / MANIFEST_FILE, target / MANIFEST_FILE)


def _copy_sqlite(source: Path, target: Path) -> None:
    # SQLite's backup API: a consistent copy even while a server's Chroma has it open.
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            dst.close()
    except sqlite3.DatabaseError as exc:
        if "disk is full" in str(exc).lower():
            raise  # not damage: the writer reports the full disk
        raise IndexDamagedError(
            f"cannot copy the vector store {source}: {exc}; run `tutorgraph doctor --repair`"
        ) from exc
    finally:
        src.close()


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_pointer(index_dir: Path, file: str, name: str) -> None:
    """Replace the pointer file `file` (`CURRENT`, `PREVIOUS`) by one holding `name`, in one
    step (written beside it, fsynced, `os.replace`d, its folder fsynced). A pointer that is
    a directory is an `IndexDamagedError` (`doctor --repair` moves it aside), not a crash."""
    pointer = index_dir / file
    tmp = index_dir / (file + ".tmp")
    for path in (pointer, tmp):
        if path.is_dir():
            raise IndexDamagedError(
                f"the index's {path.name} is a directory, not a file; run `tutorgraph doctor "
                "--repair`"
            )
    try:
        with tmp.open("w", encoding="utf-8") as fh:
            fh.write(name + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, pointer)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(index_dir)


def activate(
    index_dir: Path,
    generation: Path,
    *,
    outgoing_intact: bool | None = None,
    base: Path | None = None,
) -> None:
    """Make `generation` the live one: everything it holds reaches the disk, then `CURRENT`
    is replaced in one step. Readers that open the index after this see it whole.

    `CURRENT` never moves backwards: a generation numbered below the live one is refused
    (`IndexBusyError`: another writer made a newer one live). The generation that was live
    becomes `PREVIOUS` when it is intact (`outgoing_intact`: what the writer found; None:
    the file checks decide), so that `collect` keeps the last good one; `base` is the
    generation the writer built on, when `CURRENT` named none (it was missing)."""
    outgoing = pointed_generation(index_dir)
    if outgoing is not None and outgoing.name > generation.name:
        raise IndexBusyError(
            f"generation {outgoing.name} was made live while generation {generation.name} was "
            "being built (another writer?); the index was not switched back: run it again"
        )
    if outgoing is None and base is not None and NAME.fullmatch(base.name):
        outgoing = base
    os.sync()  # the generation's files before the pointer that names them
    if outgoing is not None and outgoing.name != generation.name:
        keep = intact(outgoing) if outgoing_intact is None else outgoing_intact
        if keep:
            write_pointer(index_dir, PREVIOUS_FILE, outgoing.name)
        elif not (index_dir / PREVIOUS_FILE).exists():
            write_pointer(index_dir, PREVIOUS_FILE, "")  # none yet: not the damaged one
    write_pointer(index_dir, CURRENT_FILE, generation.name)


def in_use(generation: Path) -> bool:
    """Whether a reader holds `generation` (a shared lock on its `.readers` file)."""
    if fcntl is None:  # pragma: no cover
        return False
    try:
        fd = os.open(generation / _READERS, os.O_RDONLY)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def collect(index_dir: Path) -> list[str]:
    """Delete the generations a writer left behind: every one but the live one and the last
    one that was live and intact (`PREVIOUS`, kept while it still passes its file checks;
    for an index from before `PREVIOUS`, the newest intact one below the live one). The
    manifest-less (half-built) and failing ones go first. A generation a reader holds is
    kept until it is released. Then the top-level parts of a pre-generation index once a
    generation is live. Only a writer holding the lock calls this. Returns the names
    deleted."""
    live = live_generation(index_dir)
    if live is None or live == index_dir:
        return []
    keep = {live.name}
    previous = previous_generation(index_dir)
    if previous is None and not (index_dir / PREVIOUS_FILE).exists():
        older = [g for g in generations(index_dir) if g.name < live.name]
        previous = next((g for g in reversed(older) if intact(g)), None)
    if previous is not None and previous.name != live.name and intact(previous):
        keep.add(previous.name)
    doomed = [g for g in generations(index_dir) if g.name not in keep]
    # Broken ones first: a collector stopped half-way has removed the least useful.
    doomed.sort(key=lambda g: (intact(g), g.name))
    removed = []
    for generation in doomed:
        if in_use(generation):
            log.info("keeping generation %s: a reader still has it open", generation.name)
            continue
        shutil.rmtree(generation, ignore_errors=True)
        removed.append(generation.name)
    if (index_dir / MANIFEST_FILE).is_file() and not in_use(index_dir):
        for part in _LEGACY_PARTS:
            path = index_dir / part
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
        removed.append(LEGACY)
    return removed


class ReaderHold:
    """A shared lock on a generation while an index is open on it, so that no writer deletes
    it from under the reader. Never blocks: on a read-only folder it holds nothing."""

    def __init__(self, generation: Path) -> None:
        self._fd: int | None = None
        if fcntl is None:  # pragma: no cover
            return
        with contextlib.suppress(OSError):
            fd = os.open(generation / _READERS, os.O_RDONLY | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except OSError:  # a collector holds it this instant: it will see us next time
                os.close(fd)
                return
            self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
