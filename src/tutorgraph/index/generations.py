"""Index generations: every write builds a new, complete index beside the live one, and one
atomic pointer switch makes it live.

Layout of an index folder::

    CURRENT              the live generation's name (replaced whole by `os.replace`)
    generations/000007/  one complete index: manifest.json, chroma/, lexical/, catalogue/,
                         vectors/ (see `IndexLayout`)
    .writer.lock         the one writer's lock (`index/lock.py`)

A writer (holding the lock) copies the live generation into the next one, ingests there,
writes the manifest last and then `activate`s it. A crash at any step before the switch
leaves the live generation exactly as it was (the half-built one is removed by the next
writer); after it, the new one is complete. Readers open whatever `CURRENT` names and hold it
with a shared file lock, so that `collect` never deletes a generation that is in use; they
never wait for a writer.

An index written before generations existed (`manifest.json` at the top) is read in place;
its next ingest copies it into a generation and then removes the old top-level parts.

>>> live_generation(Path(".tutorgraph"))  # doctest: +SKIP
PosixPath('.tutorgraph/generations/000003')
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import sqlite3
from pathlib import Path

from tutorgraph.errors import IndexDamagedError, IndexNotFoundError
from tutorgraph.stores.manifest import MANIFEST_FILE, Manifest, require_manifest

try:  # POSIX: generations in use are held with a shared lock
    import fcntl
except ImportError:  # pragma: no cover - Windows: collection keeps the newest ones only
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "CURRENT_FILE",
    "GENERATIONS_DIR",
    "LEGACY",
    "ReaderHold",
    "activate",
    "collect",
    "generation_name",
    "generations",
    "live_generation",
    "new_generation",
    "require_live_manifest",
]

log = logging.getLogger(__name__)

CURRENT_FILE = "CURRENT"
GENERATIONS_DIR = "generations"
# The name reported for an index written before generations existed.
LEGACY = "legacy"
# Generations kept: the live one and the one before it (a server may still be draining it).
KEEP = 2
_NAME = re.compile(r"\d{6}")
_READERS = ".readers"
# The parts of an index written before generations (moved into one by the next ingest).
_LEGACY_PARTS = ("chroma", "lexical", "catalogue", "vectors", MANIFEST_FILE)


def generations(index_dir: Path) -> list[Path]:
    """The generation folders of an index, oldest first."""
    root = index_dir / GENERATIONS_DIR
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if p.is_dir() and _NAME.fullmatch(p.name))


def live_generation(index_dir: Path) -> Path | None:
    """The folder of the live generation, `index_dir` itself for an index written before
    generations, or None when there is no index. A `CURRENT` that names no generation is an
    `IndexDamagedError`."""
    pointer = index_dir / CURRENT_FILE
    try:
        name = pointer.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return index_dir if (index_dir / MANIFEST_FILE).is_file() else None
    except OSError as exc:
        raise IndexDamagedError(f"cannot read {pointer}: {exc}") from exc
    path = index_dir / GENERATIONS_DIR / name
    if not _NAME.fullmatch(name) or not path.is_dir():
        raise IndexDamagedError(
            f"{pointer} names no generation ({name[:40]!r}); run `tutorgraph doctor --repair`"
        )
    return path


def require_live_manifest(index_dir: Path, embedder: str) -> Manifest:
    """The live generation's manifest, built with `embedder`: `IndexNotFoundError` when the
    folder holds no index, `EmbedderMismatchError` for another embedder's."""
    generation = live_generation(index_dir)
    if generation is None:
        raise IndexNotFoundError(index_dir)
    return require_manifest(generation, embedder)


def generation_name(generation: Path) -> str:
    """`000007`, or `legacy` for an index written before generations."""
    return generation.name if _NAME.fullmatch(generation.name) else LEGACY


def new_generation(index_dir: Path, source: Path | None) -> Path:
    """A new generation folder, after every existing one, holding a copy of `source` (the
    live generation) or nothing. Only a writer holding the lock calls this."""
    existing = generations(index_dir)
    number = int(existing[-1].name) + 1 if existing else 1
    target = index_dir / GENERATIONS_DIR / f"{number:06d}"
    target.mkdir(parents=True)
    if source is not None:
        _copy_generation(source, target)
    return target


def _copy_generation(source: Path, target: Path) -> None:
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
    if (source / MANIFEST_FILE).is_file():
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


def activate(index_dir: Path, generation: Path) -> None:
    """Make `generation` the live one: everything it holds reaches the disk, then `CURRENT`
    is replaced in one step. Readers that open the index after this see it whole."""
    os.sync()  # the generation's files before the pointer that names them
    pointer = index_dir / CURRENT_FILE
    tmp = index_dir / (CURRENT_FILE + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        fh.write(generation.name + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, pointer)
    _fsync_dir(index_dir)


def _in_use(generation: Path) -> bool:
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
    """Delete the generations a writer left behind: all but the newest `KEEP` up to the live
    one, and any half-built one after it, unless a reader holds it; and the top-level parts
    of a pre-generation index once a generation is live. Only a writer holding the lock
    calls this. Returns the names deleted."""
    live = live_generation(index_dir)
    if live is None or live == index_dir:
        return []
    removed = []
    older = [g for g in generations(index_dir) if g.name < live.name]
    doomed = older[: max(0, len(older) - (KEEP - 1))]
    doomed += [g for g in generations(index_dir) if g.name > live.name]  # crashed builds
    for generation in doomed:
        if _in_use(generation):
            log.info("keeping generation %s: a reader still has it open", generation.name)
            continue
        shutil.rmtree(generation, ignore_errors=True)
        removed.append(generation.name)
    if (index_dir / MANIFEST_FILE).is_file() and not _in_use(index_dir):
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
