"""Open a generation's vector store in a child process before this process opens it.

Chroma's HNSW files are read by native code: bytes changed in place (the same size, so the
open-time size check passes) can kill the process that opens them with a segmentation
fault. Since issue 59 the open-time check compares their sha256 with the manifest's first
(`index/integrity.py`), which finds such damage in every generation written since; the
child stays for what checksums cannot vouch for (a generation written before them, damage
to `chroma.sqlite3` that SQLite's quick check passes). So before a server serves a
generation (at start-up and on a swap), before `tutorgraph query`/`answer` and before an
ingest copies the live generation, a child process opens the store, counts it, and has
three of its own stored vectors find themselves (`ChromaVectorStore.self_probe_sync`). A
child that dies, hangs or finds damage marks the vector store damaged (a `Problem`), and
this process never opens it; a child that fails for want of disk space says so
(`disk_full`), which is not damage.

The child costs about 1.2 s on a 2-core machine, nearly all of it importing chromadb; it is
started before the models load (`open_retriever`), so a start-up hardly waits for it.

>>> check = VectorCheck.start(Path(".tutorgraph/generations/000003"))  # doctest: +SKIP
>>> check.result().problem  # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from tutorgraph.index.diskspace import mentions_disk_full, nearly_full
from tutorgraph.index.integrity import Problem, one_line

__all__ = ["CHILD_TIMEOUT_S", "VectorCheck", "Verdict", "check_vector_store"]

CHILD_TIMEOUT_S = 120.0
_CHILD = (
    "import json, sys\n"
    "from pathlib import Path\n"
    "from tutorgraph.stores.chroma import ChromaVectorStore\n"
    "store = ChromaVectorStore.embedded(Path(sys.argv[1]), create=False)\n"
    "try:\n"
    "    found = {'count': store.count_sync(), 'probe': store.self_probe_sync()}\n"
    "finally:\n"
    "    store.close_sync()\n"
    "print(json.dumps(found))\n"
)


@dataclass(frozen=True)
class Verdict:
    """What the child found: a problem (damage), a full disk, or neither."""

    problem: Problem | None = None
    disk_full: bool = False
    count: int | None = None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.problem is None and not self.disk_full


class VectorCheck:
    """The child process checking one generation's `chroma/` folder; `result()` waits."""

    def __init__(self, generation: Path, timeout_s: float = CHILD_TIMEOUT_S) -> None:
        self.generation = generation
        self._timeout_s = timeout_s
        self._started = time.perf_counter()
        self._proc: subprocess.Popen[str] | None = None
        self._verdict: Verdict | None = None
        self._lock = threading.Lock()
        chroma = generation / "chroma"
        if not (chroma / "chroma.sqlite3").is_file():
            # Nothing a child could crash on; the open-time check reports what is missing.
            self._verdict = Verdict()
            return
        env = {**os.environ, "TUTORGRAPH_LOG_LEVEL": "ERROR"}
        self._proc = subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(chroma)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )

    @classmethod
    def start(cls, generation: Path, timeout_s: float = CHILD_TIMEOUT_S) -> VectorCheck:
        """Start the child now (it runs while the caller does other work)."""
        return cls(generation, timeout_s)

    def result(self) -> Verdict:
        """The child's verdict (blocking until it exits, at most the timeout)."""
        with self._lock:
            if self._verdict is None:
                self._verdict = self._wait()
            return self._verdict

    def cancel(self) -> None:
        """Stop a child whose verdict is no longer wanted."""
        with self._lock:
            proc = self._proc
            if self._verdict is None and proc is not None and proc.poll() is None:
                proc.kill()
                proc.communicate()
                self._verdict = Verdict()

    def _wait(self) -> Verdict:
        proc = self._proc
        assert proc is not None
        try:
            out, err = proc.communicate(timeout=self._timeout_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            return self._verdict_of(
                Problem(
                    "vector",
                    f"opening the vector store did not finish within {self._timeout_s:g}s",
                    "chroma",
                )
            )
        code = proc.returncode
        if code < 0:
            return self._verdict_of(
                Problem(
                    "vector",
                    f"opening the vector store kills the process (signal {-code})",
                    "chroma",
                )
            )
        if code != 0:
            if mentions_disk_full(err) or nearly_full(self.generation):
                return Verdict(disk_full=True, seconds=self._elapsed())
            last = (err.strip().splitlines() or ["no message"])[-1]
            return self._verdict_of(
                Problem(
                    "vector", f"the vector store cannot be opened ({one_line(last, 200)})", "chroma"
                )
            )
        try:
            found = json.loads((out.strip().splitlines() or ["{}"])[-1])
        except ValueError:
            found = {}
        count = found.get("count") if isinstance(found, dict) else None
        probe = found.get("probe") if isinstance(found, dict) else None
        if probe:
            return self._verdict_of(Problem("vector", str(probe), "chroma"), count)
        return Verdict(count=count if isinstance(count, int) else None, seconds=self._elapsed())

    def _elapsed(self) -> float:
        return time.perf_counter() - self._started

    def _verdict_of(self, problem: Problem, count: object = None) -> Verdict:
        return Verdict(
            problem=problem,
            count=count if isinstance(count, int) else None,
            seconds=self._elapsed(),
        )


def check_vector_store(generation: Path, timeout_s: float = CHILD_TIMEOUT_S) -> Verdict:
    """`VectorCheck.start(generation).result()`: the check, waited for."""
    return VectorCheck.start(generation, timeout_s).result()
