"""One writer at a time per index: an exclusive lock on the index folder.

Every writer (`tutorgraph ingest`, an HTTP ingest job, `tutorgraph doctor --repair`) takes
`WriterLock(index_dir)` before it touches anything and holds it until the new generation is
live. The lock is an OS file lock (`filelock`), so the kernel releases it when its holder
dies, even by `kill -9`: a crashed writer never leaves the index locked. Readers take no
lock and never wait (they read the live generation, which no writer changes).

A second writer is refused at once with an `IndexBusyError` naming the holder (its process,
command and start time, which the holder writes beside the lock).

>>> with WriterLock(Path(".tutorgraph"), "tutorgraph ingest data/curriculum"):
...     ...  # build and activate a generation  # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
import socket
import time
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from filelock import FileLock, Timeout

from tutorgraph.errors import IndexBusyError

__all__ = ["HOLDER_FILE", "LOCK_FILE", "WriterLock", "lock_holder"]

LOCK_FILE = ".writer.lock"
HOLDER_FILE = ".writer.json"


def lock_holder(index_dir: Path) -> dict[str, Any] | None:
    """What the last writer wrote about itself (it may have finished since)."""
    try:
        data = json.loads((index_dir / HOLDER_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _describe(holder: dict[str, Any] | None) -> str:
    if not holder:
        return "another process"
    started = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(holder.get("started", 0))))
    where = f"process {holder.get('pid')} on {holder.get('host')}"
    return f"{where} ({holder.get('command')}, since {started})"


class WriterLock:
    """The index folder's writer lock; a context manager (blocking work: call it from a
    thread in async code, or accept a few file-system calls on the loop)."""

    def __init__(self, index_dir: Path, command: str) -> None:
        self._dir = index_dir
        self._command = command
        # thread_local=False: an async writer may release it from another worker thread.
        self._lock = FileLock(index_dir / LOCK_FILE, timeout=0, thread_local=False)

    def acquire(self) -> None:
        """Take the lock now, or raise `IndexBusyError` naming whoever holds it."""
        self._dir.mkdir(parents=True, exist_ok=True)
        try:
            self._lock.acquire(timeout=0)
        except Timeout:
            holder = lock_holder(self._dir)
            raise IndexBusyError(
                f"the index at {self._dir} is being written by {_describe(holder)}; "
                "wait for it to finish (readers are not affected)",
                details={"holder": holder or {}},
            ) from None
        info = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "command": self._command,
            "started": time.time(),
        }
        tmp = self._dir / (HOLDER_FILE + ".tmp")
        tmp.write_text(json.dumps(info) + "\n", encoding="utf-8")
        os.replace(tmp, self._dir / HOLDER_FILE)

    def release(self) -> None:
        if self._lock.is_locked:
            self._lock.release()

    def __enter__(self) -> Self:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
