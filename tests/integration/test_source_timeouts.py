"""A source timeout degrades a packet, never fails the request (issue 46, finding 1).

Every stage awaits one shared query-embedding task. A source's timeout used to cancel that
task for all of them, and the link stage then raised `CancelledError`, a `BaseException` no
handler saw: uvicorn answered a plain-text 500. Here `tutorgraph serve` runs on a loopback
port over the session index with a tiny source timeout, and a burst of 12 requests (4 at
the request size limits) gets no 5xx: each reply is a packet (naming what degraded) or the
JSON error envelope. A server whose timeout is too short for anything still starts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest
from tests.integration.test_api_serve import Server, _stop, _wait_until_up, serve_on_loopback
from tests.integration.test_hostile_requests import HOSTILE

pytestmark = pytest.mark.integration

ORDINARY = [
    {"query": "why is 1/2 + 1/4 not 2/6"},
    {"query": "how do I find the area of a triangle"},
    {"query": "what is 9 squared? I got 18"},
    {"query": "solve 2x + 3 = 11", "student_answer": "7"},
    {"query": "what is a prime number"},
    {"query": "how do I compare 0.5 and 0.45"},
    {"query": "explain slope", "lessons": 2},
    {"query": "why do we flip the fraction when dividing"},
]


def _serve(start_cli, session_index, timeout_s: str) -> Server:  # type: ignore[no-untyped-def]
    return serve_on_loopback(
        start_cli,
        session_index[0],
        TUTORGRAPH_RERANKER_MODEL="",
        TUTORGRAPH_SOURCE_TIMEOUT_S=timeout_s,
    )


@pytest.fixture(scope="module")
def server(start_cli, session_index) -> Iterator[Server]:  # type: ignore[no-untyped-def]
    server = _serve(start_cli, session_index, "0.1")
    try:
        _wait_until_up(server)
        yield server
    finally:
        if server.process.poll() is None:
            _stop(server)


def _no_5xx(replies: list[httpx.Response]) -> None:
    for resp in replies:
        assert resp.headers["content-type"].startswith("application/json"), resp.text[:200]
        assert resp.status_code < 500, resp.text[:300]


async def _burst(url: str) -> list[httpx.Response]:
    async with httpx.AsyncClient(base_url=url, timeout=120) as client:
        bodies = [*HOSTILE, *ORDINARY]
        return list(await asyncio.gather(*(client.post("/v1/retrieve", json=b) for b in bodies)))


def test_a_burst_under_a_tiny_source_timeout_gets_packets_not_500s(server: Server) -> None:
    replies = asyncio.run(_burst(server.url))
    assert len(replies) == 12
    _no_5xx(replies)
    # Which sources the timeout cut off depends on the machine's speed; each packet says.
    assert all(isinstance(r.json()["degraded_sources"], list) for r in replies)
    # The server is still whole: an ordinary request afterwards is answered.
    after = server.post("/v1/retrieve", json=ORDINARY[0])
    assert after.status_code == 200, after.text[:300]
    assert server.process.poll() is None


def test_a_timeout_too_short_for_any_source_still_starts_and_answers_json(
    start_cli,  # type: ignore[no-untyped-def]
    session_index,
) -> None:
    # The warm-up used to die on the cancelled embedding, and the server with it.
    server = _serve(start_cli, session_index, "0.001")
    try:
        _wait_until_up(server)
        assert server.get("/healthz").status_code == 200
        replies = asyncio.run(_burst(server.url))
        for resp in replies:
            assert resp.headers["content-type"].startswith("application/json"), resp.text[:200]
            # Nothing answering in time is a 503 envelope; a degraded packet otherwise.
            assert resp.status_code in (200, 503), resp.text[:300]
            if resp.status_code == 503:
                assert resp.json()["error"]["code"] == "source_unavailable"
            else:
                assert resp.json()["degraded_sources"], resp.text[:300]
    finally:
        if server.process.poll() is None:
            _stop(server)
