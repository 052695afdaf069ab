"""What a writer that stopped half-way leaves in an index folder, found and removed.

A writer killed before its pointer switch (kill -9, a power cut, a server stopped mid-job)
leaves behind its half-built generation (a `generations/NNNNNN/` without a manifest), an HTTP
ingest job's upload (`.uploads/job-*`: the archive, the unpacked bundle) and, rarely, a
pointer's temporary file (`CURRENT.tmp`). Nothing reads them, but they hold disk space: on a
nearly full disk the next ingest would fail for want of it, for good. So every writer
removes them once it holds the writer lock, before it looks at the free space
(`remove_leftovers`: `tutorgraph ingest`, an HTTP ingest job, `doctor --repair`), a server
does at start-up when no writer is at work, and `tutorgraph doctor` lists them
(`find_leftovers`). A generation a pointer names (`CURRENT`, `PREVIOUS`) or a reader holds is
never a leftover; neither is any generation with a manifest (`collect` decides about those).

>>> [str(x) for x in find_leftovers(Path(".tutorgraph"))]  # doctest: +SKIP
['half-built generation generations/000004 (12.3 MB)']
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tutorgraph.errors import IndexBusyError
from tutorgraph.index.diskspace import folder_bytes
from tutorgraph.index.generations import (
    CURRENT_FILE,
    PREVIOUS_FILE,
    generations,
    in_use,
)
from tutorgraph.index.lock import HOLDER_FILE, WriterLock
from tutorgraph.index.pointer import named_generation
from tutorgraph.stores.manifest import MANIFEST_FILE

__all__ = [
    "UPLOADS_DIR",
    "Leftover",
    "find_leftovers",
    "remove_leftovers",
    "tidy_if_idle",
    "upload_folder",
]

log = logging.getLogger(__name__)

# Where an HTTP ingest job keeps its upload while it runs (inside the index folder, so that
# the next writer of this index knows any it finds is a dead job's).
UPLOADS_DIR = ".uploads"
_TEMPORARY = (CURRENT_FILE + ".tmp", PREVIOUS_FILE + ".tmp", HOLDER_FILE + ".tmp")


@dataclass(frozen=True)
class Leftover:
    """One thing a stopped writer left: what it is, where (relative to the index folder)
    and how many bytes it holds."""

    kind: str  # "half-built generation" | "upload" | "temporary file"
    path: Path
    relative: str
    size: int

    def __str__(self) -> str:
        return f"{self.kind} {self.relative} ({self.size / 1e6:,.1f} MB)"


def upload_folder(index_dir: Path) -> Path:
    """The folder an HTTP ingest job unpacks its upload in (made now); only the holder of
    the writer lock calls this, and it removes the folder before it releases the lock."""
    root = index_dir / UPLOADS_DIR
    root.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix="job-", dir=root))


def find_leftovers(index_dir: Path) -> list[Leftover]:
    """What stopped writers left in `index_dir` (read only: `tutorgraph doctor`). Without the
    writer lock, a writer at work now shows here too."""
    out: list[Leftover] = []
    named = {
        g.name
        for g in (named_generation(index_dir, p) for p in (CURRENT_FILE, PREVIOUS_FILE))
        if g is not None
    }
    for generation in generations(index_dir):
        if (generation / MANIFEST_FILE).is_file() or generation.name in named:
            continue
        if in_use(generation):
            continue
        out.append(_leftover("half-built generation", generation, index_dir))
    uploads = index_dir / UPLOADS_DIR
    if uploads.is_dir():
        out.extend(_leftover("upload", entry, index_dir) for entry in sorted(uploads.iterdir()))
    for name in _TEMPORARY:
        path = index_dir / name
        if path.is_file() and not path.is_symlink():
            out.append(_leftover("temporary file", path, index_dir))
    return out


def _leftover(kind: str, path: Path, index_dir: Path) -> Leftover:
    size = folder_bytes(path) if path.is_dir() else _size(path)
    return Leftover(kind, path, path.relative_to(index_dir).as_posix(), size)


def _size(path: Path) -> int:
    try:
        return path.lstat().st_size
    except OSError:
        return 0


def remove_leftovers(index_dir: Path) -> list[Leftover]:
    """Remove what stopped writers left (only the holder of the writer lock calls this, so
    none of it is a writer's at work); returns what was removed."""
    removed = []
    for leftover in find_leftovers(index_dir):
        path = leftover.path
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                path.unlink()
        if not path.exists():
            removed.append(leftover)
            log.warning("removed %s, left by a writer that stopped", leftover)
    return removed


def tidy_if_idle(index_dir: Path, command: str) -> list[Leftover]:
    """`remove_leftovers` under the writer lock when no writer holds it now (a server at
    start-up); nothing when one does, or the folder cannot be locked (read-only)."""
    if not index_dir.is_dir() or not os.access(index_dir, os.W_OK):
        return []  # no index, or a read-only one: nothing a writer could have left
    lock = WriterLock(index_dir, command)
    try:
        lock.acquire()
    except (IndexBusyError, OSError):
        return []
    try:
        return remove_leftovers(index_dir)
    except OSError as exc:  # a tidy-up must never stop a server from starting
        log.warning("could not remove what a stopped writer left: %s", exc)
        return []
    finally:
        lock.release()
