"""`tutorgraph serve` as a real process on a free loopback port, driven over real HTTP.

Two servers start side by side (their model loading overlaps): one over a copy of the
session index with API keys made by `tutorgraph keys hash`, and one whose Neo4j URI points
at a closed port, so the real Neo4j driver fails and the graph source is degraded.
"""

from __future__ import annotations

import asyncio
import io
import shutil
import signal
import subprocess
import tarfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.contract.chroma_server import free_port

from tutorgraph.index.generations import generations, live_generation

pytestmark = pytest.mark.integration

QUERY = "why is 1/2 + 1/4 not 2/6"
RATE = 40
START_TIMEOUT_S = 300
# The Neo4j-less server's breaker cool-down: long enough for a burst to finish inside it.
NO_GRAPH_COOLDOWN_S = 8.0


def live_name(index_dir: Path) -> str:
    generation = live_generation(index_dir)
    assert generation is not None
    return generation.name


@dataclass
class Server:
    url: str
    process: subprocess.Popen[str]
    index_dir: Path

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return httpx.get(self.url + path, timeout=120, **kw)

    def post(self, path: str, **kw: Any) -> httpx.Response:
        return httpx.post(self.url + path, timeout=120, **kw)


def serve_on_loopback(start_cli: Any, index_dir: Path, **env: str) -> Server:
    """`tutorgraph serve` started (not yet up) on a free loopback port over `index_dir`,
    quiet but for warnings, with `env` (`TUTORGRAPH_*` settings) in its environment."""
    port = free_port()
    process = start_cli(
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--index-dir",
        str(index_dir),
        "--log-level",
        "warning",
        **env,
    )
    return Server(f"http://127.0.0.1:{port}", process, index_dir)


def _wait_until_up(server: Server) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            _, err = server.process.communicate()
            pytest.fail(f"tutorgraph serve exited with {server.process.returncode}:\n{err}")
        try:
            if server.get("/healthz").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.5)
    server.process.kill()
    pytest.fail("tutorgraph serve did not come up")


def _stop(server: Server) -> str:
    """SIGTERM, as a process manager stops it; returns stderr. The shutdown must be clean."""
    server.process.send_signal(signal.SIGTERM)
    try:
        _, err = server.process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        server.process.kill()
        _, err = server.process.communicate()
        pytest.fail(f"tutorgraph serve did not stop on SIGTERM:\n{err}")
    return err


@dataclass
class Keys:
    read: str
    admin: str
    limited: str


@pytest.fixture(scope="module")
def keys(run_cli) -> tuple[Keys, str]:  # type: ignore[no-untyped-def]
    """Three keys and their TUTORGRAPH_API_KEYS entries, made by `tutorgraph keys hash`."""
    made = Keys("serve-read-key-0123456789", "serve-admin-key-0123456789", "serve-limited-0123")
    entries = []
    for key, role in ((made.read, "read"), (made.admin, "admin"), (made.limited, "read")):
        proc = run_cli("keys", "hash", key, "--role", role)
        assert proc.returncode == 0, proc.stderr
        entries.append(proc.stdout.strip())
    return made, ",".join(entries)


@pytest.fixture(scope="module")
def servers(  # type: ignore[no-untyped-def]
    start_cli, session_index, keys, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, Server]]:
    # A copy: an ingest job through this server must never touch the session index.
    index_dir = tmp_path_factory.mktemp("serve") / "index"
    shutil.copytree(session_index[0], index_dir)
    _, entries = keys
    common = {"TUTORGRAPH_RERANKER_MODEL": "", "TUTORGRAPH_MAX_BODY_BYTES": "4096"}
    started: list[Server] = []
    try:
        port = free_port()
        main = Server(
            f"http://127.0.0.1:{port}",
            start_cli(
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--index-dir",
                str(index_dir),
                "--log-level",
                "warning",
                TUTORGRAPH_API_KEYS=entries,
                TUTORGRAPH_RATE_LIMIT_PER_MINUTE=str(RATE),
                **common,
            ),
            index_dir,
        )
        started.append(main)
        port = free_port()
        no_graph = Server(
            f"http://127.0.0.1:{port}",
            start_cli(
                "serve",
                "--port",
                str(port),
                "--index-dir",
                str(session_index[0]),
                "--log-level",
                "warning",
                TUTORGRAPH_NEO4J_URI=f"bolt://127.0.0.1:{free_port()}",
                TUTORGRAPH_NEO4J_PASSWORD="x",
                TUTORGRAPH_SOURCE_TIMEOUT_S="5",
                TUTORGRAPH_BREAKER_COOLDOWN_S=str(NO_GRAPH_COOLDOWN_S),
                **common,
            ),
            session_index[0],
        )
        started.append(no_graph)
        for server in started:
            _wait_until_up(server)
        yield main, no_graph
    finally:
        for n, server in enumerate(started):
            if server.process.poll() is None:
                err = _stop(server)
                # uvicorn shuts down gracefully, then re-raises the signal it caught.
                assert server.process.returncode in (0, -signal.SIGTERM), err
                # (The Neo4j-less server logs each degraded source's failure with its trace.)
                assert n > 0 or "Traceback" not in err, err
                # Its driver's retries are not logged one warning each (issue 59): the
                # graph's breaker logs each change of state once.
                assert "will be retried" not in err, err[-3000:]


@pytest.fixture(scope="module")
def server(servers: tuple[Server, Server]) -> Server:
    return servers[0]


@pytest.fixture(scope="module")
def keyset(keys: tuple[Keys, str]) -> Keys:
    return keys[0]


def _error(resp: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert list(body) == ["error"] and body["error"]["code"] == code, body
    assert "Traceback" not in resp.text
    return dict(body["error"])


def test_health_readiness_metrics_and_openapi_need_no_key(server: Server) -> None:
    assert server.get("/healthz").json() == {"status": "ok"}
    ready = server.get("/readyz").json()
    assert ready["status"] == "ready" and ready["generation"] == live_name(server.index_dir)
    # Turned off for this server: off by configuration, which is no fault.
    assert ready["dependencies"]["reranker"]["state"] == "off"
    assert ready["dependencies"]["reranker"]["ok"] is True
    metrics = server.get("/metrics")
    assert metrics.headers["content-type"].startswith("text/plain; version=0.0.4")
    assert "tutorgraph_http_requests_total" in metrics.text
    paths = server.get("/openapi.json").json()["paths"]
    assert "/v1/retrieve" in paths and "/v1/ingest/{job_id}" in paths


def test_retrieve_over_real_http(server: Server, keyset: Keys) -> None:
    resp = server.post("/v1/retrieve", json={"query": QUERY}, headers={"X-API-Key": keyset.read})
    assert resp.status_code == 200, resp.text
    packet = resp.json()
    assert packet["results"] and packet["degraded_sources"] == []
    assert packet["reranker"]["applied"] is False
    assert "TUTORGRAPH_RERANKER_MODEL is empty" in packet["reranker"]["reason"]


def test_a_dialogue_over_real_http(server: Server, keyset: Keys) -> None:
    """Issue 63: the student's bare answer is checked against the tutor's latest question,
    never against the tutor's own numbers, and the packet says which turns it read."""
    h = {"X-API-Key": keyset.read}
    conversation = [
        {"role": "tutor", "text": "Let's practise multiplication. What is 7 x 6?"},
        {"role": "student", "text": "48?"},
        {"role": "tutor", "text": "Not quite. 7 x 5 = 35, so add one more 7. What is 7 x 6?"},
    ]
    body = {"query": "41?", "conversation": conversation}
    resp = server.post("/v1/retrieve", json=body, headers=h)
    assert resp.status_code == 200, resp.text
    packet = resp.json()
    check = packet["answer_check"]
    assert (check["problem"], check["student_answer"], check["correct"]) == ("7 × 6", "41", False)
    assert check["correct_answer"] == "42"
    dialogue = packet["dialogue"]
    assert {k: dialogue[k] for k in ("turns", "problem_turn", "student_answer_turn")} == {
        "turns": 3,
        "problem_turn": 0,  # the second question is a hint on the first
        "student_answer_turn": 3,
    }
    assert dialogue["topic"] == "carried" and dialogue["topic_standard"].startswith("ccss:")
    assert not packet["no_match"]
    alone = server.post("/v1/retrieve", json={"query": "41?"}, headers=h).json()
    assert alone["dialogue"] is None and alone["answer_check"]["problem"] is None
    too_many = {"query": "q", "conversation": [{"role": "student", "text": "ok"}] * 51}
    err = _error(server.post("/v1/retrieve", json=too_many, headers=h), 422, "invalid_request")
    assert "conversation has 51 turns, at most 50" in err["message"]


def test_auth_errors(server: Server, keyset: Keys) -> None:
    _error(server.post("/v1/retrieve", json={"query": QUERY}), 401, "unauthenticated")
    wrong = {"X-API-Key": keyset.read + "x"}
    _error(
        server.post("/v1/retrieve", json={"query": QUERY}, headers=wrong), 401, "unauthenticated"
    )
    read = {"X-API-Key": keyset.read}
    _error(server.post("/v1/ingest", content=b"x", headers=read), 403, "permission_denied")


def test_concepts_and_request_errors(server: Server, keyset: Keys) -> None:
    h = {"X-API-Key": keyset.read}
    found = server.get("/v1/concepts", params={"q": "fractions"}, headers=h).json()["results"]
    assert found
    cid = found[0]["concept"]["id"]
    assert server.get(f"/v1/concepts/{cid}", headers=h).json()["id"] == cid
    pre = server.get(f"/v1/concepts/{cid}/prerequisites", params={"depth": 2}, headers=h)
    assert pre.status_code == 200 and pre.json()["depth"] == 2
    mis = server.get(f"/v1/concepts/{cid}/misconceptions", headers=h)
    assert mis.status_code == 200 and mis.json()["concept_id"] == cid
    _error(server.get("/v1/concepts/ccss:9.ZZ.Z.9", headers=h), 404, "concept_not_found")
    _error(server.post("/v1/retrieve", json={"query": ""}, headers=h), 422, "invalid_request")
    _error(
        server.post(
            "/v1/retrieve", json={"query": "q", "concept_ids": ["ccss:9.ZZ.Z.9"]}, headers=h
        ),
        422,
        "unknown_concept",
    )
    big = {"query": "q", "student_answer": "z" * 8000}
    err = _error(server.post("/v1/retrieve", json=big, headers=h), 413, "payload_too_large")
    assert err["details"] == {"limit_bytes": 4096}
    _error(server.get("/nowhere", headers=h), 404, "not_found")


def test_the_rate_limit_through_the_server(server: Server, keyset: Keys) -> None:
    h = {"X-API-Key": keyset.limited}
    answered = 0
    with httpx.Client(base_url=server.url, timeout=60) as client:
        for _ in range(3 * RATE):
            resp = client.get("/v1/concepts/ccss:9.ZZ.Z.9", headers=h)
            if resp.status_code != 404:  # an unknown id: answered, and counted
                break
            answered += 1
    assert answered == RATE  # a moving window of a minute
    _error(resp, 429, "rate_limited")
    assert 50 < int(resp.headers["retry-after"]) <= 60  # when the first leaves the window
    ok = server.get("/v1/concepts/ccss:9.ZZ.Z.9", headers={"X-API-Key": keyset.read})
    assert ok.status_code == 404  # other keys are not limited by this one


def test_an_ingest_job_that_fails_validation_leaves_the_server_as_it_was(
    server: Server, keyset: Keys, slice_bundle: Path
) -> None:
    admin = {"X-API-Key": keyset.admin, "Content-Type": "application/gzip"}
    before = server.get("/readyz").json()
    # A pruning ingest with a bad record is refused whole (without `prune` the good records
    # go in and the bad one is listed, as the CLI does: test_api_ingest_jobs.py).
    resp = server.post(
        "/v1/ingest",
        content=_bundle_with_bad_line(slice_bundle),
        headers=admin,
        params={"prune": "true"},
    )
    assert resp.status_code == 202, resp.text
    job_id = resp.json()["job_id"]
    deadline = time.monotonic() + 300
    while True:
        job = server.get(f"/v1/ingest/{job_id}", headers=admin).json()
        if job["status"] in ("succeeded", "failed"):
            break
        assert time.monotonic() < deadline, job
        time.sleep(0.5)
    assert job["status"] == "failed" and job["error"]["code"] == "invalid_bundle"
    assert any(e.startswith("misconceptions.jsonl:") for e in job["error"]["details"]["errors"])
    after = server.get("/readyz").json()
    assert (after["status"], after["generation"]) == (before["status"], before["generation"])
    # No new generation: the live index was left alone.
    assert [g.name for g in generations(server.index_dir)] == [before["generation"]]


def _bundle_with_bad_line(bundle: Path) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for path in sorted(bundle.iterdir()):
            data = path.read_bytes()
            if path.name == "misconceptions.jsonl":
                data += b'{"id": "ccss:broken", "kind": "not-a-kind"}\n'
            info = tarfile.TarInfo(f"curriculum/{path.name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def test_neo4j_down_degrades_the_graph_and_graph_only_is_503(
    servers: tuple[Server, Server],
) -> None:
    _, no_graph = servers  # auth off on this one
    resp = no_graph.post("/v1/retrieve", json={"query": QUERY})
    assert resp.status_code == 200, resp.text
    assert resp.json()["degraded_sources"] == ["graph"] and resp.json()["results"]
    # Graph only, seeded by a concept id (without seeds the graph has nothing to look up,
    # and answers "nothing" without asking Neo4j): no source can answer.
    graph_only = {"query": QUERY, "sources": ["graph"], "concept_ids": ["ccss:6.NS.A.1"]}
    unavailable = no_graph.post("/v1/retrieve", json=graph_only)
    err = _error(unavailable, 503, "source_unavailable")
    assert err["details"] == {"degraded_sources": ["graph"]}
    # Waiting may cure it: the answer says how long (`api.errors.UNAVAILABLE_RETRY_AFTER_S`).
    assert unavailable.headers.get("retry-after") == "5"
    concept = no_graph.get("/v1/concepts/ccss:6.NS.A.1")
    _error(concept, 503, "source_unavailable")
    assert concept.headers.get("retry-after") == "5"
    ready = no_graph.get("/readyz")
    assert ready.status_code == 200 and ready.json()["status"] == "degraded"
    assert ready.json()["dependencies"]["graph"]["ok"] is False
    # A copy of the live index cannot isolate a Neo4j database: HTTP ingest says so.
    _error(no_graph.post("/v1/ingest", content=b"x"), 409, "conflict")
    metrics = no_graph.get("/metrics").text
    assert 'tutorgraph_degraded_sources_total{source="graph"} 1' in metrics


def _burst(server: Server, n: int) -> list[dict[str, Any]]:
    async def go() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server.url, timeout=120) as client:
            posts = (
                client.post("/v1/retrieve", json={"query": f"{QUERY} ({i})", "debug": True})
                for i in range(n)
            )
            return list(await asyncio.gather(*posts))

    replies = asyncio.run(go())
    assert all(r.status_code == 200 for r in replies), [r.text[:200] for r in replies]
    return [r.json() for r in replies]


def test_neo4j_down_costs_once_then_its_breaker_skips_it_until_one_probe(
    servers: tuple[Server, Server],
) -> None:
    # Issue 59: with Neo4j down every request waited for the graph's timeout (5 s here).
    _, no_graph = servers
    timeout_ms = 5000
    _burst(no_graph, 8)  # the requests in flight fail it more than 3 times in a row
    graph = no_graph.get("/readyz").json()["dependencies"]["graph"]
    assert graph["state"] == "failed" and graph["breaker"]["state"] == "open", graph
    failures = graph["breaker"]["failures"]
    assert failures >= 3

    # Open: 8 clients at once, none waits for the graph; each packet says why it is missing.
    for packet in _burst(no_graph, 8):
        assert packet["degraded_sources"] == ["graph"] and packet["results"]
        reason = packet["degraded_reasons"]["graph"]
        assert reason.startswith("graph failed: circuit breaker open after"), reason
        assert packet["timings_ms"]["total"] < timeout_ms / 2, packet["debug"]
    graph = no_graph.get("/readyz").json()["dependencies"]["graph"]
    assert graph["detail"].startswith("graph failed: circuit breaker open"), graph  # no probe
    assert graph["breaker"]["failures"] == failures and graph["breaker"]["retry_in_s"] > 0

    # The cool-down over, exactly one call probes it (and fails: it is still down).
    time.sleep(graph["breaker"]["retry_in_s"] + 0.3)
    _burst(no_graph, 8)
    graph = no_graph.get("/readyz").json()["dependencies"]["graph"]
    assert graph["breaker"]["state"] == "open", graph
    assert graph["breaker"]["failures"] == failures + 1, graph


def test_serve_refuses_to_start_without_an_index_or_with_bad_keys(
    run_cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    proc = run_cli("serve", "--port", str(free_port()), "--index-dir", str(tmp_path / "none"))
    assert proc.returncode == 2
    assert "no tutorgraph index" in proc.stderr and "Traceback" not in proc.stderr
    proc = run_cli("serve", "--port", str(free_port()), TUTORGRAPH_API_KEYS="sha256:abc:read")
    assert proc.returncode == 2
    assert "TUTORGRAPH_API_KEYS entry 1" in proc.stderr and "Traceback" not in proc.stderr


def test_keys_hash_makes_an_entry(run_cli) -> None:  # type: ignore[no-untyped-def]
    proc = run_cli("keys", "hash", "abc", "--role", "admin")
    assert proc.stdout.strip() == (
        "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad:admin"
    )
    assert proc.returncode == 0 and not proc.stderr.strip()


def _chromium() -> str | None:
    return next(
        (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p),
        None,
    )


def _headless(tmp_path: Path, *, budget_ms: int, size: str) -> list[str]:
    """Headless Chromium with every host but the loopback unresolvable (offline but for the
    server), `budget_ms` of virtual time for the page's scripts, and a profile of its own."""
    return [
        str(_chromium()),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        f"--virtual-time-budget={budget_ms}",
        f"--window-size={size}",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]


@pytest.mark.skipif(
    _chromium() is None, reason="no headless Chromium (Debian: apt install chromium)"
)
def test_swagger_ui_renders_its_operations_offline(server: Server, tmp_path: Path) -> None:
    """`/docs` (and `/redoc`) in headless Chromium with every host but the server
    unresolvable: the pages must render the operations from packaged assets, not a CDN."""
    shot = tmp_path / "docs.png"
    common = _headless(tmp_path, budget_ms=15000, size="1280,1600")

    def rendered(path: str) -> str:
        """The page's DOM once its scripts ran."""
        return subprocess.run(
            [*common, "--dump-dom", server.url + path],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout

    dom = rendered("/docs")
    subprocess.run(
        [*common, f"--screenshot={shot}", server.url + "/docs"],
        capture_output=True,
        timeout=120,
        check=True,
    )
    # Rendered by Swagger UI's JavaScript: absent from the HTML the server sends.
    assert "opblock-summary-path" not in server.get("/docs").text
    for path in ("/v1/retrieve", "/healthz", "/v1/ingest"):
        assert f'data-path="{path}"' in dom, path
    assert shot.stat().st_size > 20_000  # a rendered page, not a blank one
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Retrieve a ReasoningPacket for a question" in rendered("/redoc")


def test_two_workers_share_metrics_and_rate_limits(  # type: ignore[no-untyped-def]
    start_cli, session_index, tmp_path: Path
) -> None:
    """`serve --workers 2`: every worker's requests are counted once, whichever worker
    answers `/metrics` (prometheus-client's multiprocess mode), and the workers share one
    rate limit (a SQLite file `serve` makes for them)."""
    port = free_port()
    shared = tmp_path / "metrics"
    shared.mkdir()
    server = Server(
        f"http://127.0.0.1:{port}",
        start_cli(
            "serve",
            "--port",
            str(port),
            "--workers",
            "2",
            "--index-dir",
            str(session_index[0]),
            "--log-level",
            "warning",
            TUTORGRAPH_RERANKER_MODEL="",
            TUTORGRAPH_RATE_LIMIT_PER_MINUTE="20",
            PROMETHEUS_MULTIPROC_DIR=str(shared),
        ),
        session_index[0],
    )
    try:
        _wait_until_up(server)
        n = 60
        seen = set()
        for _ in range(n):
            # A new connection each time, so that both workers take requests.
            assert server.get("/healthz", headers={"Connection": "close"}).status_code == 200
        for _ in range(8):
            text = server.get("/metrics", headers={"Connection": "close"}).text
            seen.add(
                next(
                    float(x.rsplit(" ", 1)[1])
                    for x in text.splitlines()
                    if x.startswith('tutorgraph_http_requests_total{method="GET",route="/healthz"')
                    and 'status="200"' in x
                )
            )
        # One total (each process alone would show about half), at least the n made here.
        assert len(seen) == 1 and seen.pop() >= n
        writers = {f.stem.rsplit("_", 1)[-1] for f in shared.glob("counter_*.db")}
        assert len(writers) == 2, f"both workers wrote samples: {sorted(writers)}"
        # The rate limit is shared: 20 a minute in all, not 20 per worker.
        codes = [
            server.get("/v1/concepts/ccss:6.NS.A.1", headers={"Connection": "close"}).status_code
            for _ in range(40)
        ]
        assert codes.count(200) == 20 and codes.count(429) == 20
    finally:
        _stop(server)
