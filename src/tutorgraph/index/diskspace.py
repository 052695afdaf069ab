"""A full disk, told apart from damage.

A writer that runs out of space (a copy, Chroma's SQLite, a BM25 file, the manifest) removes
its half-built generation and reports one line (`DiskFullError`: "disk full: about N MB
needed, M MB free"): an error that names a full disk, or any error while the disk has under
1 MiB free (Chroma's own message may not say why). A reader whose Chroma cannot open for
want of space (Chroma writes to its database when it opens it) reports the vector store as
unavailable, never as damaged: the live generation is intact, and a repair would only make
things worse.

>>> is_disk_full(OSError(errno.ENOSPC, "No space left on device"))
True
"""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

from tutorgraph.errors import DiskFullError

__all__ = [
    "disk_full_error",
    "disk_full_reason",
    "folder_bytes",
    "free_bytes",
    "is_disk_full",
    "mentions_disk_full",
    "nearly_full",
]

_FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT}
# What SQLite (SQLITE_FULL, code 13), Chroma's Rust side and the C library say.
_FULL_TEXTS = ("database or disk is full", "no space left on device", "disk quota exceeded")
_MB = 1 << 20
# Less free than this when a store fails: the failure is the full disk, whatever the store
# says (Chroma reports a full disk during its compaction as "Failed to apply logs").
_NEARLY_FULL = _MB


def mentions_disk_full(text: str) -> bool:
    """Whether an error's text (a child's stderr, a wrapped library error) says the disk is
    full."""
    lowered = text.lower()
    return any(t in lowered for t in _FULL_TEXTS)


def is_disk_full(exc: BaseException) -> bool:
    """Whether `exc`, or an error it was raised from, is a full disk."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, DiskFullError):
            return True
        if isinstance(current, OSError) and current.errno in _FULL_ERRNOS:
            return True
        if mentions_disk_full(str(current)):
            return True
        current = current.__cause__ or current.__context__
    return False


def nearly_full(path: Path) -> bool:
    """Whether the disk of `path` has (almost) no room left, as when a write just failed on
    it for want of space."""
    return free_bytes(path) < _NEARLY_FULL


def folder_bytes(path: Path) -> int:
    """The bytes of every file under `path` (0 when it is not there)."""
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                continue
    return total


def free_bytes(path: Path) -> int:
    """The bytes free to this user on the disk of `path` (or of its nearest existing
    parent)."""
    probe = path
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:
        return shutil.disk_usage(probe).free
    except OSError:
        return 0


def _mb(n: int) -> int:
    return max(1, -(-n // _MB))


def disk_full_error(index_dir: Path, needed: int, *, live: str | None) -> DiskFullError:
    """The one line a writer reports when the disk filled up (its half-built generation is
    already removed)."""
    free = free_bytes(index_dir)
    kept = f"generation {live} stays live" if live else "the index is unchanged"
    return DiskFullError(
        f"disk full: about {_mb(needed)} MB needed to write a new generation of the index, "
        f"{free // _MB} MB free on its disk; the half-built generation was removed and "
        f"{kept}; free some space and run it again",
        details={"needed_mb": _mb(needed), "free_mb": free // _MB},
    )


def disk_full_reason(index_dir: Path) -> str:
    """Why a store that is intact could not open: its disk is full (one line)."""
    free = free_bytes(index_dir)
    return (
        f"the vector store cannot be opened: the index's disk is full ({free // _MB} MB "
        "free; Chroma writes to its database when it opens it); the index is intact: free "
        "some space"
    )
