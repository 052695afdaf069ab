"""The client's retry and error logic on scripted responses (httpx.MockTransport; logic only:
tests/integration/test_client.py runs it against the real served app)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import httpx
import pytest

from tutorgraph.errors import (
    APITimeoutError,
    RateLimitedError,
    ServerError,
    SourceUnavailableError,
)
from tutorgraph_client import AsyncTutorGraph

pytestmark = pytest.mark.unit

CONCEPTS = {"query": "x", "results": []}


def _error(status: int, code: str, headers: dict[str, str] | None = None) -> httpx.Response:
    body = {"error": {"code": code, "message": code, "details": {}}}
    return httpx.Response(status, json=body, headers=headers)


def _client(script: list[httpx.Response], seen: list[float], **kw: object) -> AsyncTutorGraph:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(time.monotonic())
        assert request.headers["X-API-Key"] == "k"
        return script.pop(0)

    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    return AsyncTutorGraph("http://tg", api_key="k", http_client=http, **kw)  # type: ignore[arg-type]


def _run(make: Callable[[], AsyncTutorGraph]) -> object:
    async def go() -> object:
        return await make().concepts("x")

    return asyncio.run(go())


def test_429_and_503_are_retried_honouring_retry_after() -> None:
    seen: list[float] = []
    script = [
        _error(429, "rate_limited", {"Retry-After": "0.3"}),
        _error(503, "source_unavailable"),
        httpx.Response(200, json=CONCEPTS),
    ]
    result = _run(lambda: _client(script, seen, backoff_s=0.05))
    assert result.query == "x"  # type: ignore[attr-defined]
    assert len(seen) == 3
    assert seen[1] - seen[0] >= 0.3  # Retry-After
    assert 0.1 <= seen[2] - seen[1] < 0.3  # back-off: 0.05 * 2**1


def test_retries_run_out_into_the_library_error() -> None:
    seen: list[float] = []
    script = [_error(503, "source_unavailable")] * 3
    with pytest.raises(SourceUnavailableError) as info:
        _run(lambda: _client(script, seen, max_retries=2, backoff_s=0.0))
    assert len(seen) == 3 and info.value.status_code == 503
    script = [_error(429, "rate_limited", {"Retry-After": "7"})]
    with pytest.raises(RateLimitedError) as limited:
        _run(lambda: _client(script, [], max_retries=0))
    assert limited.value.retry_after == 7.0


def test_other_errors_are_not_retried_and_unknown_ones_stay_typed() -> None:
    seen: list[float] = []
    with pytest.raises(ServerError) as info:
        _run(lambda: _client([httpx.Response(500, text="<html>")], seen))
    assert len(seen) == 1 and info.value.status_code == 500


def test_a_timeout_is_api_timeout_error() -> None:
    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    async def go() -> None:
        http = httpx.AsyncClient(transport=httpx.MockTransport(slow))
        await AsyncTutorGraph("http://tg", http_client=http, timeout=0.5).concepts("x")

    with pytest.raises(APITimeoutError, match=r"no answer within 0\.5 s"):
        asyncio.run(go())


def test_an_ingest_is_retried_on_429_only() -> None:
    job = {
        "job_id": "j1",
        "status": "queued",
        "prune": False,
        "created_at": "2026-11-25T16:00:00Z",
        "upload_bytes": 3,
    }

    async def ingest(script: list[httpx.Response], seen: list[float]) -> object:
        return await _client(script, seen, backoff_s=0.0).ingest(b"tar")

    seen: list[float] = []
    limited = [_error(429, "rate_limited", {"Retry-After": "0"}), httpx.Response(202, json=job)]
    assert asyncio.run(ingest(limited, seen)).job_id == "j1"  # type: ignore[attr-defined]
    assert len(seen) == 2
    seen.clear()
    with pytest.raises(SourceUnavailableError):
        asyncio.run(ingest([_error(503, "source_unavailable")], seen))
    assert len(seen) == 1  # a job the server may have taken is not sent again
