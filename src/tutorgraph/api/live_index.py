"""The index generation the server answers from, and how it follows a newer one.

Every writer (an HTTP ingest job, `tutorgraph ingest` from a shell, `tutorgraph doctor
--repair`) builds a new generation inside `INDEX_DIR` under the index's writer lock and makes
it live by replacing the pointer file `INDEX_DIR/CURRENT` (`tutorgraph.index.generations`).
The server follows that pointer:

- An HTTP ingest job calls `swap()` as soon as its generation is live.
- A watcher task reads the pointer every `INDEX_RELOAD_S` seconds (2 by default; 0 turns it
  off) and swaps to a generation someone else made live, such as a CLI ingest.
- A swap opens the new generation (in a worker thread, over the same models), warms it up,
  then moves the app's reference under a lock. Requests hold the generation they started on
  (`use()`), so a swap never pulls an index from under a running request; the old one is
  closed once its last request is done (or after a drain timeout), which releases its
  reader's hold so the next writer may delete it.
- Every generation is opened first in a child process (`index/vector_check.py`): one whose
  vector store would crash the process is opened with that source damaged, never in this
  process. When the newer generation cannot be opened, or fails its integrity check while
  the served one passes, the server keeps serving the one it has and `/readyz` says so
  (`stale`, naming generations, never paths). `stale` is cleared once the pointer names the
  served generation again (a repair fixed it) or a newer one is served.
- At start-up a pointer that names no generation (missing or garbled) does not stop the
  server: it answers `/healthz`, `/readyz` reports the damage (503), and the watcher serves
  the generation the pointer names once it is fixed.
- A vector store that could not open for want of disk space (not damage) is opened again
  every `REOPEN_S` seconds while the pointer stays put.

Limits, honestly: Neo4j and a Chroma server are shared, live resources that a generation
cannot isolate: HTTP ingest is refused when either is configured (use `tutorgraph ingest`).
With `serve --workers N` each worker follows the pointer on its own.

>>> live = LiveIndex(Settings(index_dir=Path("/srv/idx")), open_retriever)  # doctest: +SKIP
>>> await live.open()  # doctest: +SKIP
>>> async with live.use() as generation:  # doctest: +SKIP
...     packet = await generation.retriever.retrieve(request)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tutorgraph.config import Settings
from tutorgraph.errors import IndexDamagedError, SourceUnavailableError, TutorGraphError
from tutorgraph.index.generations import generation_name, live_generation
from tutorgraph.index.local import LocalIndex
from tutorgraph.index.service import OpenRetriever
from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph_client.models.request import RetrievalRequest

__all__ = ["Generation", "LiveIndex", "RetrieverOpener", "scrub_paths"]

log = logging.getLogger(__name__)

# Settings -> (retriever, index); `SharedModels.open_retriever` in production.
RetrieverOpener = Callable[[Settings], OpenRetriever]
_WARM_UP_QUERY = "Why is 3/4 bigger than 2/3?"
# How long a replaced generation may keep serving requests that started on it.
DRAIN_TIMEOUT_S = 60.0
# How often a generation whose vector store could not open (a full disk) is opened again.
REOPEN_S = 30.0
# An absolute path of two or more parts (not the path of a URL).
_ABSOLUTE_PATH = re.compile(r"(?<![\w:/.])/(?:[\w.\-]+/)+[\w.\-]*")


def scrub_paths(text: str, index_dir: Path) -> str:
    """`text` without file-system paths (what `/readyz` shows any caller): the index folder
    becomes `INDEX_DIR`, any other absolute path `<path>`."""
    for spelled in {str(index_dir.resolve()), str(index_dir.absolute()), str(index_dir)}:
        if spelled not in ("", ".", "/"):
            text = text.replace(spelled, "INDEX_DIR")
    return _ABSOLUTE_PATH.sub("<path>", text)


async def _warm_up(retriever: HybridRetriever) -> None:
    """One retrieval through every stage before a generation serves: the first touch of
    each store costs over a second (files paged in, lazy loads), which would otherwise land
    on the first caller or fail the first `/readyz` probe."""
    request = RetrievalRequest(query=_WARM_UP_QUERY, rerank=True, max_context_tokens=200)
    try:
        await retriever.retrieve(request)
    except Exception as exc:  # a source that is down now degrades requests; not fatal here
        log.warning("warming up the index failed: %s: %s", type(exc).__name__, exc)


@dataclass(eq=False)
class Generation:
    """One opened index generation and the requests currently using it."""

    name: str
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
    """Holds the generation requests are served from, and swaps it for a newer one.

    The constructor does no I/O; `open()` opens the live generation (blocking work in a
    thread) and starts the watcher; `aclose()` stops it and closes every generation.
    """

    def __init__(self, settings: Settings, opener: RetrieverOpener) -> None:
        self._settings = settings
        self._opener = opener
        self._current: Generation | None = None
        self._draining: set[Generation] = set()
        self._swap_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        # Why the newest generation on disk is not served (None when it is), and its name.
        self._stale: str | None = None
        self._refused: str | None = None
        # Why no generation could be opened at start-up (None once one is served).
        self._startup: str | None = None
        self._reopen_at = 0.0

    @property
    def stale(self) -> str | None:
        """Why the generation the pointer names is not the one served (None when it is), in
        one line without paths."""
        return self._stale

    @stale.setter
    def stale(self, value: str | None) -> None:
        self._stale = None if value is None else scrub_paths(value, self._settings.index_dir)

    @property
    def startup_problem(self) -> str | None:
        """Why the server serves no generation yet (a pointer that names none), or None."""
        return self._startup

    @property
    def current(self) -> Generation | None:
        return self._current

    async def open(self) -> None:
        """Open the live generation and start following the pointer. A pointer that names no
        generation leaves the server up without one (`startup_problem`, `/readyz` 503)."""
        try:
            self._current = await self._open_generation()
        except IndexDamagedError as exc:
            self._startup = scrub_paths(exc.message, self._settings.index_dir)
            self.stale = exc.message
            log.warning("serving no index generation: %s", self._startup)
        if self._settings.index_reload_s > 0:
            self._spawn(self._watch(self._settings.index_reload_s))

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _open_generation(self) -> Generation:
        served = await asyncio.to_thread(self._opener, self._settings)
        for problem in served.index.problems:  # /readyz reports them too
            log.error("index generation %s is damaged: %s", served.index.generation, problem)
        if served.index.unavailable:
            self._reopen_at = time.monotonic() + REOPEN_S
        await _warm_up(served.retriever)
        return Generation(served.index.generation, served.retriever, served.index)

    async def _newest(self) -> str | None:
        """The name of the generation the pointer names now (None: no index)."""
        path = await asyncio.to_thread(live_generation, self._settings.index_dir)
        return None if path is None else generation_name(path)

    async def _watch(self, every_s: float) -> None:
        while True:
            await asyncio.sleep(every_s)
            try:
                await self._follow()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # reported by /readyz; the old generation keeps serving
                message = exc.message if isinstance(exc, TutorGraphError) else str(exc)
                self.stale = f"{type(exc).__name__}: {message}"
                log.warning("cannot follow the index's newer generation: %s", self.stale)

    async def _follow(self) -> None:
        """One look at the pointer: swap to a newer generation, clear `stale` once the
        pointer names the served one again, open again a store a full disk kept shut."""
        newest = await self._newest()
        current = self._current.name if self._current else None
        if newest is None:
            if current is not None:
                self.stale = "the index's pointer names no generation now (an empty index)"
            return
        if newest == current:
            assert self._current is not None
            self.stale = self._refused = None  # the pointer was fixed, or never moved
            if self._current.index.unavailable and time.monotonic() >= self._reopen_at:
                await self.swap(reopen=True)
            return
        # A generation refused once is tried again only when the pointer moves on.
        if newest != self._refused:
            await self.swap()

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

    async def swap(self, *, reopen: bool = False) -> Generation:
        """Serve the generation the pointer names now, and retire the old one.

        Raises (and changes nothing) when it cannot be opened. Swaps are serialised; a swap
        to the generation already served does nothing, unless `reopen` (its vector store
        could not open for want of disk space: it is opened again, and served when it
        opens).
        """
        async with self._swap_lock:
            current = self._current
            if current is not None and await self._newest() == current.name and not reopen:
                self.stale = None
                return current
            try:
                new = await self._open_generation()
            except TutorGraphError as exc:
                self.stale = exc.message
                with contextlib.suppress(TutorGraphError):
                    self._refused = await self._newest()
                raise
            if reopen and current is not None and (new.index.unavailable or new.index.problems):
                await new.aclose()  # still shut: keep the one being served
                return current
            if new.index.problems and current is not None and not current.index.problems:
                # An intact generation keeps serving rather than a damaged newer one.
                await new.aclose()
                self.stale = f"generation {new.name} is damaged: {new.index.problems[0]}"
                self._refused = new.name
                raise IndexDamagedError(self.stale or "")
            old, self._current = self._current, new
            self.stale = self._refused = self._startup = None
        if old is not None:
            self._draining.add(old)
            self._spawn(self._retire(old))
        log.info("now serving index generation %s", new.name)
        return new

    async def _retire(self, old: Generation) -> None:
        """Close `old` once its last request is done (its reader hold goes with it)."""
        try:
            await asyncio.wait_for(old.idle.wait(), timeout=DRAIN_TIMEOUT_S)
        except TimeoutError:
            log.warning(
                "closing generation %s with %d request(s) still on it after %.0fs",
                old.name,
                old.users,
                DRAIN_TIMEOUT_S,
            )
        try:
            await old.aclose()
        except Exception:
            log.exception("closing index generation %s failed", old.name)
        finally:
            self._draining.discard(old)

    async def aclose(self) -> None:
        """Stop the watcher and close every open generation (the server has stopped)."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        generations = [*self._draining, *([self._current] if self._current else [])]
        self._current = None
        self._draining.clear()
        for generation in generations:
            try:
                await generation.aclose()
            except Exception:
                log.exception("closing index generation %s failed", generation.name)
