"""The index the server answers from, and how an ingest replaces it without readers noticing.

A *generation* is one index directory opened as a retriever. Requests hold the generation
they started on (`use()`), so a swap never pulls an index from under a running request.

How an HTTP ingest replaces the live index (see `tutorgraph.api.ingest_jobs`):

1. The live directory is copied to a new sibling, `<INDEX_DIR>.gen-<job_id>`; the ingest runs
   there (incrementally: unchanged records keep their vectors). Nothing writes into the live
   directory, ever.
2. The new directory is opened as a retriever (in a worker thread, over the same models).
3. Its path is written to the pointer file `<INDEX_DIR>.current` (a temporary file, then
   `os.replace`, so the pointer is always whole), and then, under a lock, the app's reference
   moves to the new generation. Requests already running finish on the old one.
4. Once the old generation has no request left (or after a drain timeout), it is closed and
   every older `<INDEX_DIR>.gen-*` directory is deleted.

At start-up the app, not the library, reads the pointer: when it names a directory holding
an index, that is served; otherwise `INDEX_DIR` itself. The generation directory keeps its
`.gen-<job_id>` name once live because an open Chroma client cannot follow a rename.

Limits, honestly:
- The CLI (`tutorgraph ingest`, `query`) works on `INDEX_DIR` and ignores the pointer. After
  an HTTP ingest, a CLI ingest into `INDEX_DIR` is not served until the pointer file is
  deleted (the server logs a warning at start-up when it sees this).
- One server process per `INDEX_DIR`: with several workers each would swap only itself, so
  `serve --workers N` turns HTTP ingest off.
- Neo4j and a Chroma server are shared, live resources that a copy cannot isolate: HTTP
  ingest is refused when either is configured (use `tutorgraph ingest`).
- The copy is a plain file copy of a directory the server only reads; it relies on Chroma
  not rewriting its files while it answers queries.
- A swap needs disk for a full copy of the index; the old copy's Chroma client is closed
  and its directory deleted once it has drained.

>>> live = LiveIndex(Settings(index_dir=Path("/srv/idx")), open_retriever)  # doctest: +SKIP
>>> await live.open()  # doctest: +SKIP
>>> async with live.use() as generation:  # doctest: +SKIP
...     packet = await generation.retriever.retrieve(request)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

from tutorgraph.config import Settings
from tutorgraph.errors import SourceUnavailableError
from tutorgraph.index.local import LocalIndex
from tutorgraph.index.service import OpenRetriever
from tutorgraph.models.request import RetrievalRequest
from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph.stores.manifest import MANIFEST_FILE

__all__ = [
    "Generation",
    "LiveIndex",
    "RetrieverOpener",
    "generation_dir",
    "pointer_file",
    "resolve_active_dir",
]

log = logging.getLogger(__name__)

# Settings -> (retriever, index); `SharedModels.open_retriever` in production.
RetrieverOpener = Callable[[Settings], OpenRetriever]
_WARM_UP_QUERY = "Why is 3/4 bigger than 2/3?"
# How long a replaced generation may keep serving requests that started on it.
DRAIN_TIMEOUT_S = 60.0


def pointer_file(index_dir: Path) -> Path:
    """`<INDEX_DIR>.current`: the path of the generation the server should open."""
    return index_dir.with_name(index_dir.name + ".current")


def generation_dir(index_dir: Path, job_id: str) -> Path:
    """`<INDEX_DIR>.gen-<job_id>`: where ingest job `job_id` builds its index."""
    return index_dir.with_name(f"{index_dir.name}.gen-{job_id}")


def _is_index(directory: Path) -> bool:
    return (directory / MANIFEST_FILE).is_file()


def resolve_active_dir(index_dir: Path) -> Path:
    """The directory to serve: the pointer's target when it holds an index, else `index_dir`
    (blocking: reads the pointer file)."""
    index_dir = index_dir.absolute()
    pointer = pointer_file(index_dir)
    try:
        text = pointer.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return index_dir
    target = Path(text)
    if not target.is_absolute():
        target = index_dir.parent / target
    if text and _is_index(target):
        base_manifest = index_dir / MANIFEST_FILE
        if base_manifest.is_file() and base_manifest.stat().st_mtime > pointer.stat().st_mtime:
            log.warning(
                "%s was ingested after the HTTP ingest that wrote %s; serving %s. Delete the "
                "pointer file to serve %s again.",
                index_dir,
                pointer,
                target,
                index_dir,
            )
        return target
    log.warning("ignoring %s: %r holds no index; serving %s", pointer, text, index_dir)
    return index_dir


async def _warm_up(retriever: HybridRetriever) -> None:
    """One retrieval through every stage before a generation serves: the first touch of
    each store costs over a second (files paged in, lazy loads), which would otherwise land
    on the first caller or fail the first `/readyz` probe."""
    request = RetrievalRequest(query=_WARM_UP_QUERY, rerank=True, max_context_tokens=200)
    try:
        await retriever.retrieve(request)
    except Exception as exc:  # a source that is down now degrades requests; not fatal here
        log.warning("warming up the index failed: %s: %s", type(exc).__name__, exc)


def _write_pointer(index_dir: Path, target: Path) -> None:
    """Point `<index_dir>.current` at `target`: whole or not at all, and on disk."""
    pointer = pointer_file(index_dir)
    tmp = pointer.with_name(pointer.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        fh.write(str(target) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, pointer)


@dataclass(eq=False)
class Generation:
    """One opened index directory and the requests currently using it."""

    directory: Path
    retriever: HybridRetriever
    index: LocalIndex
    users: int = 0
    idle: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.idle.set()

    async def aclose(self) -> None:
        await self.retriever.aclose()
        await self.index.aclose()


class LiveIndex:
    """Holds the generation requests are served from, and swaps it for a new one.

    The constructor does no I/O; `open()` opens the active directory (blocking work in a
    thread) and `aclose()` closes every generation still open.
    """

    def __init__(self, settings: Settings, opener: RetrieverOpener) -> None:
        self._settings = settings
        self._opener = opener
        self._base = settings.index_dir.absolute()
        self._current: Generation | None = None
        self._draining: set[Generation] = set()
        self._building: set[Path] = set()
        self._swap_lock = asyncio.Lock()
        self._cleanups: set[asyncio.Task[None]] = set()

    @property
    def base_dir(self) -> Path:
        """`INDEX_DIR`, absolute: the first generation, and the name the others derive from."""
        return self._base

    @property
    def current(self) -> Generation | None:
        return self._current

    async def open(self) -> None:
        """Open the active directory (the pointer's, else `INDEX_DIR`) and tidy leftovers."""
        directory = await asyncio.to_thread(resolve_active_dir, self._base)
        self._current = await self._open_generation(directory)
        # Leftovers of jobs that a crash or a restart interrupted.
        await asyncio.to_thread(self._remove_stale, {directory})

    async def _open_generation(self, directory: Path) -> Generation:
        settings = self._settings.model_copy(update={"index_dir": directory})
        served = await asyncio.to_thread(self._opener, settings)
        await _warm_up(served.retriever)
        return Generation(directory, served.retriever, served.index)

    @contextlib.asynccontextmanager
    async def use(self) -> AsyncIterator[Generation]:
        """The current generation, held until the block ends (a swap waits for it to close)."""
        generation = self._current
        if generation is None:
            raise SourceUnavailableError("the index is not open (the server is starting up)")
        generation.users += 1
        generation.idle.clear()
        try:
            yield generation
        finally:
            generation.users -= 1
            if generation.users == 0:
                generation.idle.set()

    def reserve(self, directory: Path) -> None:
        """Mark a directory as being built, so that clean-up leaves it alone."""
        self._building.add(directory)

    def release(self, directory: Path) -> None:
        self._building.discard(directory)

    async def swap(self, directory: Path) -> Generation:
        """Open `directory`, make it the live generation, and retire the old one.

        Raises (and changes nothing) when the new directory cannot be opened or the pointer
        cannot be written. Swaps are serialised by a lock.
        """
        async with self._swap_lock:
            new = await self._open_generation(directory)
            try:
                # Synchronous on purpose (a few bytes and an fsync): no cancellation can
                # fall between the pointer on disk and the reference in memory.
                _write_pointer(self._base, directory)
            except OSError:
                await new.aclose()
                raise
            old, self._current = self._current, new
            self._building.discard(directory)
        if old is not None:
            self._draining.add(old)
            task = asyncio.create_task(self._retire(old))
            self._cleanups.add(task)
            task.add_done_callback(self._cleanups.discard)
        log.info("now serving the index at %s", directory)
        return new

    async def _retire(self, old: Generation) -> None:
        """Close `old` once its last request is done, then delete the unused generations."""
        try:
            await asyncio.wait_for(old.idle.wait(), timeout=DRAIN_TIMEOUT_S)
        except TimeoutError:
            log.warning(
                "closing %s with %d request(s) still on it after %.0fs",
                old.directory,
                old.users,
                DRAIN_TIMEOUT_S,
            )
        try:
            await old.aclose()
        except Exception:
            log.exception("closing the old index at %s failed", old.directory)
        finally:
            self._draining.discard(old)
        await asyncio.to_thread(self._remove_stale, self._in_use())

    def _in_use(self) -> set[Path]:
        keep = {g.directory for g in self._draining} | set(self._building)
        if self._current is not None:
            keep.add(self._current.directory)
        return keep

    def _remove_stale(self, keep: set[Path]) -> None:
        """Delete `<INDEX_DIR>.gen-*` directories not in `keep` (never `INDEX_DIR` itself)."""
        parent = self._base.parent
        if not parent.is_dir():
            return
        prefix = f"{self._base.name}.gen-"
        for path in parent.iterdir():
            if path.name.startswith(prefix) and path.is_dir() and path not in keep:
                log.info("removing unused index generation %s", path)
                shutil.rmtree(path, ignore_errors=True)

    async def aclose(self) -> None:
        """Close every open generation (waiting for no request: the server has stopped)."""
        for task in list(self._cleanups):
            task.cancel()
        for task in list(self._cleanups):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        generations = [*self._draining, *([self._current] if self._current else [])]
        self._current = None
        self._draining.clear()
        for generation in generations:
            try:
                await generation.aclose()
            except Exception:
                log.exception("closing the index at %s failed", generation.directory)
