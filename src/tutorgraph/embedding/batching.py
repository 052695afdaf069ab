"""Micro-batching: concurrent requests share one model call.

Under load, many requests each embed one short query, or rerank one short candidate list.
One forward pass over a batch costs far less than as many small passes (and one call at a
time keeps the model's own threads from fighting), so a `MicroBatcher` queues the work of
concurrent callers for up to `max_wait_ms` (or until `max_batch` units are waiting) and
runs it together in a worker thread. `MicroBatchingEmbedder` and `MicroBatchingReranker`
put one in front of a model.

>>> batched = MicroBatchingEmbedder(embedder, max_batch=32, max_wait_ms=2.0)  # doctest: +SKIP
>>> vectors = await batched.aembed(["why is 3/4 bigger than 2/3?"])  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.embedding.reranker import Reranker

__all__ = [
    "AsyncEmbedder",
    "AsyncReranker",
    "BatchReranker",
    "MicroBatcher",
    "MicroBatchingEmbedder",
    "MicroBatchingReranker",
    "embed_async",
    "rerank_async",
]

In = TypeVar("In")
Out = TypeVar("Out")


@runtime_checkable
class AsyncEmbedder(Protocol):
    """An embedder with a native async call (it batches or does its own I/O)."""

    async def aembed(self, texts: list[str]) -> npt.NDArray[np.float32]: ...


@runtime_checkable
class AsyncReranker(Protocol):
    """A reranker with a native async call."""

    async def ascore(self, query: str, texts: Sequence[str]) -> list[float]: ...


@runtime_checkable
class BatchReranker(Protocol):
    """A reranker that scores several requests' candidates in one call."""

    def score_many(self, requests: Sequence[tuple[str, Sequence[str]]]) -> list[list[float]]: ...


async def embed_async(embedder: Embedder, texts: list[str]) -> npt.NDArray[np.float32]:
    """Embed off the event loop: the embedder's own `aembed` when it has one."""
    if isinstance(embedder, AsyncEmbedder):
        return await embedder.aembed(texts)
    return await asyncio.to_thread(embedder.embed, texts)


async def rerank_async(reranker: Reranker, query: str, texts: Sequence[str]) -> list[float]:
    """Score off the event loop: the reranker's own `ascore` when it has one."""
    if isinstance(reranker, AsyncReranker):
        return await reranker.ascore(query, texts)
    return await asyncio.to_thread(reranker.score, query, texts)


class MicroBatcher(Generic[In, Out]):
    """Runs `run_batch` (blocking, in a thread) over the units of concurrent `submit` calls.

    `size` says how much of `max_batch` a unit uses (texts, pairs); a full batch goes at
    once, a partial one after `max_wait_ms`. A failure reaches every caller of its batch.
    """

    def __init__(
        self,
        run_batch: Callable[[list[In]], Sequence[Out]],
        *,
        max_batch: int,
        max_wait_ms: float,
        size: Callable[[In], int] = lambda _: 1,
    ) -> None:
        if max_batch < 1 or max_wait_ms < 0:
            raise ValueError("max_batch must be >= 1 and max_wait_ms >= 0")
        self._run_batch = run_batch
        self._max_batch = max_batch
        self._max_wait_s = max_wait_ms / 1000.0
        self._size = size
        self._pending: list[tuple[In, asyncio.Future[Out]]] = []
        self._pending_size = 0
        self._tasks: set[asyncio.Task[None]] = set()  # strong refs until each batch is done
        self._timer_set = False
        self.model_calls = 0  # how many batches reached the model (for tests and metrics)

    async def submit(self, unit: In) -> Out:
        future: asyncio.Future[Out] = asyncio.get_running_loop().create_future()
        self._pending.append((unit, future))
        self._pending_size += self._size(unit)
        if self._pending_size >= self._max_batch:
            self._spawn(self._run(self._take()))  # full: no reason to wait
        elif not self._timer_set:
            self._timer_set = True
            self._spawn(self._timed())
        return await future

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _take(self) -> list[tuple[In, asyncio.Future[Out]]]:
        batch, self._pending, self._pending_size = self._pending, [], 0
        return batch

    async def _timed(self) -> None:
        await asyncio.sleep(self._max_wait_s)
        self._timer_set = False
        await self._run(self._take())

    async def _run(self, batch: list[tuple[In, asyncio.Future[Out]]]) -> None:
        # A caller that gave up while it waited (its source timed out) costs nothing.
        batch = [(unit, future) for unit, future in batch if not future.done()]
        if not batch:
            return
        self.model_calls += 1
        try:
            outs = await asyncio.to_thread(self._run_batch, [unit for unit, _ in batch])
        except Exception as exc:
            for _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            return
        for (_, future), out in zip(batch, outs, strict=True):
            if not future.done():  # a caller that gave up (a timeout) is skipped
                future.set_result(out)


class MicroBatchingEmbedder:
    """Wraps an `Embedder`; `embed` and `count_tokens` pass through unchanged."""

    def __init__(self, inner: Embedder, *, max_batch: int = 32, max_wait_ms: float = 2.0) -> None:
        self._inner = inner
        self._batcher: MicroBatcher[list[str], npt.NDArray[np.float32]] = MicroBatcher(
            self._embed_groups, max_batch=max_batch, max_wait_ms=max_wait_ms, size=len
        )

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def model_calls(self) -> int:
        return self._batcher.model_calls

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        return self._inner.embed(texts)

    def count_tokens(self, text: str) -> int:
        return self._inner.count_tokens(text)

    async def aembed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        return await self._batcher.submit(texts)

    def _embed_groups(self, groups: list[list[str]]) -> list[npt.NDArray[np.float32]]:
        vectors = self._inner.embed([t for g in groups for t in g])
        bounds = np.cumsum([0, *(len(g) for g in groups)])
        return [vectors[a:b] for a, b in itertools.pairwise(bounds)]


class MicroBatchingReranker:
    """Wraps a `Reranker`; concurrent `ascore` calls share one `score_many` call.

    `max_batch` counts (query, text) pairs: about four requests at the default depth of 30.
    """

    def __init__(self, inner: Reranker, *, max_batch: int = 128, max_wait_ms: float = 2.0) -> None:
        self._inner = inner
        self._batcher: MicroBatcher[tuple[str, Sequence[str]], list[float]] = MicroBatcher(
            self._score_many,
            max_batch=max_batch,
            max_wait_ms=max_wait_ms,
            size=lambda unit: len(unit[1]),
        )

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def model_calls(self) -> int:
        return self._batcher.model_calls

    def load(self) -> None:
        self._inner.load()

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        return self._inner.score(query, texts)

    async def ascore(self, query: str, texts: Sequence[str]) -> list[float]:
        return await self._batcher.submit((query, texts))

    def _score_many(self, requests: list[tuple[str, Sequence[str]]]) -> list[list[float]]:
        if isinstance(self._inner, BatchReranker):
            return self._inner.score_many(requests)
        return [self._inner.score(q, texts) for q, texts in requests]
