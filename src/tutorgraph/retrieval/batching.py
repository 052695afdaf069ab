"""Micro-batching of query embeddings: concurrent requests share one model call.

Under load, many requests each embed one short query. One forward pass over a batch costs
far less than as many single passes, so `MicroBatchingEmbedder.aembed` queues the texts
of concurrent callers for up to `max_wait_ms` (or until `max_batch` texts are waiting) and
embeds them together in a worker thread.

>>> batched = MicroBatchingEmbedder(embedder, max_batch=32, max_wait_ms=2.0)  # doctest: +SKIP
>>> vectors = await batched.aembed(["why is 3/4 bigger than 2/3?"])  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from tutorgraph.retrieval.embedder import Embedder

__all__ = ["AsyncEmbedder", "MicroBatchingEmbedder", "embed_async"]

_Waiting = list[tuple[list[str], "asyncio.Future[npt.NDArray[np.float32]]"]]


@runtime_checkable
class AsyncEmbedder(Protocol):
    """An embedder with a native async call (it batches or does its own I/O)."""

    async def aembed(self, texts: list[str]) -> npt.NDArray[np.float32]: ...


async def embed_async(embedder: Embedder, texts: list[str]) -> npt.NDArray[np.float32]:
    """Embed off the event loop: the embedder's own `aembed` when it has one."""
    if isinstance(embedder, AsyncEmbedder):
        return await embedder.aembed(texts)
    return await asyncio.to_thread(embedder.embed, texts)


class MicroBatchingEmbedder:
    """Wraps an `Embedder`; `embed` and `count_tokens` pass through unchanged."""

    def __init__(self, inner: Embedder, *, max_batch: int = 32, max_wait_ms: float = 2.0) -> None:
        if max_batch < 1 or max_wait_ms < 0:
            raise ValueError("max_batch must be >= 1 and max_wait_ms >= 0")
        self._inner = inner
        self._max_batch = max_batch
        self._max_wait_s = max_wait_ms / 1000.0
        self._pending: _Waiting = []
        self._tasks: set[asyncio.Task[None]] = set()  # strong refs until each batch is done
        self._timer_set = False
        self.model_calls = 0  # how many batches reached the model (for tests and metrics)

    @property
    def name(self) -> str:
        return self._inner.name

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        return self._inner.embed(texts)

    def count_tokens(self, text: str) -> int:
        return self._inner.count_tokens(text)

    async def aembed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        future: asyncio.Future[npt.NDArray[np.float32]] = asyncio.get_running_loop().create_future()
        self._pending.append((texts, future))
        if sum(len(t) for t, _ in self._pending) >= self._max_batch:
            self._spawn(self._run(self._take()))  # full: no reason to wait
        elif not self._timer_set:
            self._timer_set = True
            self._spawn(self._timed())
        return await future

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _take(self) -> _Waiting:
        batch, self._pending = self._pending, []
        return batch

    async def _timed(self) -> None:
        await asyncio.sleep(self._max_wait_s)
        self._timer_set = False
        await self._run(self._take())

    async def _run(self, batch: _Waiting) -> None:
        if not batch:
            return
        texts = [t for texts, _ in batch for t in texts]
        self.model_calls += 1
        try:
            vectors = await asyncio.to_thread(self._inner.embed, texts)
        except Exception as exc:
            for _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            return
        start = 0
        for texts_, future in batch:
            if not future.done():  # a caller that gave up (a timeout) is skipped
                future.set_result(vectors[start : start + len(texts_)])
            start += len(texts_)
