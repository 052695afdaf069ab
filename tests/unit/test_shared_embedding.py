"""The shared query embedding under cancellation, and the app's answer to a stray
`CancelledError` (issue 46, finding 1; the real-server burst is in
`tests/integration/test_source_timeouts.py`)."""

from __future__ import annotations

import asyncio

import httpx
import numpy as np
import pytest
from fastapi import FastAPI

from tutorgraph.api.errors import install_error_handlers
from tutorgraph.errors import SourceUnavailableError
from tutorgraph.retrieval.state import RequestState, await_shared
from tutorgraph.stores.guard import guarded

pytestmark = pytest.mark.unit


def test_a_cancelled_await_leaves_the_shared_embedding_for_the_other_stages() -> None:
    async def main() -> None:
        async def embed() -> np.ndarray:
            await asyncio.sleep(0.05)
            return np.ones(3, dtype=np.float32)

        state = RequestState.__new__(RequestState)
        state.query_vector = asyncio.create_task(embed())
        # One source gives up on it (its timeout); the others still get the vector.
        assert await guarded("vector", state.query_embedding(), timeout_s=0.001) is None
        assert not state.query_vector.cancelled()
        assert (await state.query_embedding()).tolist() == [1.0, 1.0, 1.0]

    asyncio.run(main())


def test_a_failed_or_cancelled_shared_task_is_an_ordinary_error() -> None:
    async def main() -> None:
        async def boom() -> int:
            raise RuntimeError("model crashed")

        failed = asyncio.create_task(boom())
        with pytest.raises(SourceUnavailableError, match="model crashed"):
            await await_shared(failed, "query embedding")
        cancelled = asyncio.create_task(asyncio.sleep(10))
        await asyncio.sleep(0)
        cancelled.cancel()
        with pytest.raises(SourceUnavailableError, match="was cancelled"):
            await await_shared(cancelled, "query embedding")
        # Its own cancellation still cancels the caller.
        slow = asyncio.create_task(asyncio.sleep(10))
        caller = asyncio.create_task(await_shared(slow, "query embedding"))
        await asyncio.sleep(0)
        caller.cancel()
        with pytest.raises(asyncio.CancelledError):
            await caller
        assert not slow.cancelled()
        slow.cancel()

    asyncio.run(main())


def test_a_stray_cancelled_error_is_a_json_503_not_a_plain_500() -> None:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/cancelled")
    async def cancelled() -> None:
        task = asyncio.create_task(asyncio.sleep(10))
        await asyncio.sleep(0)
        task.cancel()
        await task  # raises CancelledError in a request that nobody cancelled

    async def main() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            return await client.get("/cancelled")

    resp = asyncio.run(main())
    assert resp.status_code == 503
    assert resp.json()["error"]["code"] == "request_interrupted"
