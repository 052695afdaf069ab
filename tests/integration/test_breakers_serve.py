"""A dependency that hangs costs once (issue 59, item 3): `tutorgraph serve` as a real process
whose Neo4j URI points at a socket that accepts connections and never answers, and whose
OpenAI-compatible refiner (a real local server) holds every request it gets.

With the circuit breakers, the requests in flight when a dependency stops answering pay its
timeout; then the breaker opens and, until its cool-down ends, no request waits for it (the
packet names the source with the breaker's reason, the dependency sees no call, `/readyz`
shows the open breaker); then exactly one call probes it, and a probe that succeeds closes it.
Counters on the dependencies' side say how many calls reached them.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.integration.local_openai import LocalOpenAI, local_openai_server
from tests.integration.test_api_serve import Server, _stop, _wait_until_up, serve_on_loopback

pytestmark = pytest.mark.integration

TIMEOUT_S = 2.0
REFINER_TIMEOUT_S = 1.5
# Long enough for a burst of requests to finish inside it on a busy 2-core machine.
COOLDOWN_S = 8.0
CLIENTS = 8


class SilentBolt:
    """A TCP server on a free loopback port that accepts every connection and never sends a
    byte (a Neo4j that hangs); `accepted` counts the connections the driver opened."""

    def __init__(self) -> None:
        self._sock = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._sock.getsockname()[1])
        self.accepted = 0
        self._held: list[socket.socket] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return  # closed
            self.accepted += 1
            self._held.append(conn)

    def close(self) -> None:
        self._sock.close()
        for conn in self._held:
            conn.close()


@pytest.fixture(scope="module")
def served(start_cli, session_index) -> Iterator[tuple[Server, SilentBolt, LocalOpenAI]]:  # type: ignore[no-untyped-def]
    bolt = SilentBolt()
    with local_openai_server() as openai:
        server = serve_on_loopback(
            start_cli,
            session_index[0],
            TUTORGRAPH_NEO4J_URI=f"bolt://127.0.0.1:{bolt.port}",
            TUTORGRAPH_NEO4J_PASSWORD="x",
            TUTORGRAPH_OPENAI_BASE_URL=openai.base_url,
            TUTORGRAPH_RERANKER_MODEL="",
            TUTORGRAPH_SOURCE_TIMEOUT_S=str(TIMEOUT_S),
            TUTORGRAPH_REFINER_TIMEOUT_S=str(REFINER_TIMEOUT_S),
            TUTORGRAPH_BREAKER_FAILURES="3",
            TUTORGRAPH_BREAKER_COOLDOWN_S=str(COOLDOWN_S),
        )
        try:
            _wait_until_up(server)
            yield server, bolt, openai
        finally:
            if server.process.poll() is None:
                _stop(server)
            bolt.close()


def _burst(server: Server, queries: list[str]) -> list[dict[str, Any]]:
    """`queries` sent at once, one client each; every reply must be a packet."""

    async def go() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server.url, timeout=120) as client:
            return list(
                await asyncio.gather(
                    *(
                        client.post("/v1/retrieve", json={"query": q, "debug": True})
                        for q in queries
                    )
                )
            )

    replies = asyncio.run(go())
    for resp in replies:
        assert resp.status_code == 200, resp.text[:300]
    return [r.json() for r in replies]


def _dependency(server: Server, name: str) -> dict[str, Any]:
    body = server.get("/readyz").json()
    return dict(body["dependencies"][name])


def _queries(tag: str) -> list[str]:
    # Distinct texts: the OpenAI refiner caches its answers by query.
    return [f"why is 1/{n + 2} + 1/4 not 2/{n + 6} ({tag})" for n in range(CLIENTS)]


def test_a_hung_graph_costs_one_timeout_then_is_skipped_until_one_probe(
    served: tuple[Server, SilentBolt, LocalOpenAI],
) -> None:
    server, bolt, _ = served
    # The requests in flight when the graph hangs pay its timeout (the warm-up may already
    # have); together they fail it far more than 3 times in a row: it opens.
    for packet in _burst(server, _queries("trip")):
        assert packet["degraded_sources"] == ["graph"] and packet["results"]
    graph = _dependency(server, "graph")
    assert graph["state"] == "failed" and graph["breaker"]["state"] == "open", graph
    assert graph["breaker"]["retry_in_s"] > 0
    accepted, failures = bolt.accepted, graph["breaker"]["failures"]
    assert accepted >= 3

    # Open: no request waits for the graph, none reaches it, each packet says why.
    for packet in _burst(server, _queries("open")):
        assert packet["degraded_sources"] == ["graph"] and packet["results"]
        reason = packet["degraded_reasons"]["graph"]
        assert reason.startswith("graph failed: circuit breaker open after"), reason
        # Past the timeout only if a stage waited for it (stages_ms says which).
        assert packet["timings_ms"]["total"] < TIMEOUT_S * 1000 / 2, packet["debug"]
    assert bolt.accepted == accepted
    graph = _dependency(server, "graph")  # no probe either: the breaker refuses it
    assert graph["detail"].startswith("graph failed: circuit breaker open after"), graph
    assert graph["breaker"]["failures"] == failures and bolt.accepted == accepted

    # The cool-down over, one call (of one of the next requests) probes it; it still hangs.
    time.sleep(graph["breaker"]["retry_in_s"] + 0.3)
    for packet in _burst(server, _queries("probe")):
        assert packet["degraded_sources"] == ["graph"] and packet["results"]
    assert bolt.accepted == accepted + 1
    graph = _dependency(server, "graph")
    assert graph["breaker"]["state"] == "open" and graph["breaker"]["failures"] == failures + 1


def test_a_hung_refiner_costs_its_timeout_once_then_the_local_refiner_answers_at_once(
    served: tuple[Server, SilentBolt, LocalOpenAI],
) -> None:
    server, _, openai = served
    openai.reset("hang")
    try:
        # Each request in flight waits for the refiner's timeout, then falls back.
        for packet in _burst(server, _queries("refiner trip")):
            refined = packet["refined_query"]
            assert refined["refiner"] == "local"
            want = f"openai failed: no answer within {REFINER_TIMEOUT_S:g} s"
            assert refined["fallback_reason"] == want
        asked = len(openai.requests)
        assert asked == CLIENTS
        refiner = _dependency(server, "refiner")
        assert refiner["state"] == "failed" and refiner["breaker"]["state"] == "open", refiner

        # Open: the local refiner answers at once, and the server is not asked.
        for packet in _burst(server, _queries("refiner open")):
            reason = packet["refined_query"]["fallback_reason"]
            assert reason.startswith("openai failed: circuit breaker open"), reason
            assert packet["timings_ms"]["refine"] < REFINER_TIMEOUT_S * 1000 / 2
        assert len(openai.requests) == asked
        retry_in_s = _dependency(server, "refiner")["breaker"]["retry_in_s"]
    finally:
        openai.reset("valid")

    # The server answers again: after the cool-down one message probes it and closes it.
    time.sleep(retry_in_s + 0.3)
    (packet,) = _burst(server, ["how do I add 2/3 and 1/6"])
    assert packet["refined_query"]["refiner"] == "openai" and len(openai.requests) == 1
    refiner = _dependency(server, "refiner")
    assert refiner["state"] == "ok" and refiner["breaker"]["state"] == "closed", refiner
