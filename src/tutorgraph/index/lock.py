"""One writer at a time per index: an exclusive lock on the index folder.

Every writer (`tutorgraph ingest`, an HTTP ingest job, `tutorgraph doctor --repair`) takes
`WriterLock(index_dir)` before it touches anything (an ingest before it even reads its
bundle) and holds it until the new generation is live. The lock is an OS lock on the index
folder itself (`flock` on the directory), so the kernel releases it when its holder dies,
even by `kill -9`, and deleting a file cannot admit a second writer. The zero-byte
`.writer.lock` beside it is locked too (`filelock`), for writers of older versions that lock
only that file. Readers take no lock and never wait (they read the live generation, which no
writer changes).

A second writer is refused at once with an `IndexBusyError` naming the holder (its process,
command and start time, which the holder writes beside the lock).

>>> with WriterLock(Path(".tutorgraph"), "tutorgraph ingest data/curriculum"):
...     ...  # build and activate a generation  # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from filelock import FileLock, Timeout

from tutorgraph.errors import IndexBusyError

try:  # POSIX: the folder itself is locked
    import fcntl
except ImportError:  # pragma: no cover - Windows: the lock file alone
    fcntl = None  # type: ignore[assignment]

__all__ = ["HOLDER_FILE", "LOCK_FILE", "WriterLock", "lock_holder"]

LOCK_FILE = ".writer.lock"
HOLDER_FILE = ".writer.json"
# How long a refused writer waits for the holder to write down who it is.
_HOLDER_WAIT_S = 2.0


def lock_holder(index_dir: Path) -> dict[str, Any] | None:
    """What the last writer wrote about itself (it may have finished since)."""
    try:
        data = json.loads((index_dir / HOLDER_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _running(holder: dict[str, Any] | None) -> bool:
    """Whether `holder` names a process that is running (on another host: assumed so)."""
    if not holder:
        return False
    if holder.get("host") != socket.gethostname():
        return True
    try:
        pid = int(holder.get("pid", 0))
        if pid <= 0:
            return False
        os.kill(pid, 0)
    except PermissionError:
        return True  # another user's process
    except (OSError, ValueError, TypeError, OverflowError):
        return False
    return True


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
        self._dir_fd: int | None = None
        # thread_local=False: an async writer may release it from another worker thread.
        self._lock = FileLock(index_dir / LOCK_FILE, timeout=0, thread_local=False)

    @property
    def held(self) -> bool:
        """Whether this object holds the lock now."""
        return self._dir_fd is not None or (fcntl is None and self._lock.is_locked)

    def _busy(self) -> IndexBusyError:
        # The holder writes down who it is just after it takes the lock: a writer refused in
        # that instant waits a moment for it rather than name nobody (or the last writer).
        holder = lock_holder(self._dir)
        deadline = time.monotonic() + _HOLDER_WAIT_S
        while not _running(holder) and time.monotonic() < deadline:
            time.sleep(0.02)
            holder = lock_holder(self._dir)
        return IndexBusyError(
            f"the index at {self._dir} is being written by {_describe(holder)}; "
            "wait for it to finish (readers are not affected)",
            details={"holder": holder or {}},
        )

    def _lock_folder(self) -> None:
        if fcntl is None:  # pragma: no cover
            return
        fd = os.open(self._dir, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise self._busy() from None
        except BaseException:
            os.close(fd)
            raise
        self._dir_fd = fd

    def _unlock_folder(self) -> None:
        fd, self._dir_fd = self._dir_fd, None
        if fd is not None:
            os.close(fd)  # closing the descriptor drops its flock

    def acquire(self) -> None:
        """Take the lock now, or raise `IndexBusyError` naming whoever holds it."""
        self._dir.mkdir(parents=True, exist_ok=True)
        self._lock_folder()
        try:
            self._lock.acquire(timeout=0)
        except Timeout:
            self._unlock_folder()
            raise self._busy() from None
        except BaseException:
            self._unlock_folder()
            raise
        info = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "command": self._command,
            "started": time.time(),
        }
        tmp = self._dir / (HOLDER_FILE + ".tmp")
        # Who holds it is a courtesy to the next writer's message: a full disk must not
        # fail the writer here (it reports the full disk itself, in one line).
        try:
            tmp.write_text(json.dumps(info) + "\n", encoding="utf-8")
            os.replace(tmp, self._dir / HOLDER_FILE)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink()

    def release(self) -> None:
        try:
            if self._lock.is_locked:
                self._lock.release()
        finally:
            self._unlock_folder()

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
