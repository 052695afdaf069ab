"""Issue 59, item 5: `tutorgraph serve` under hostile clients, over real sockets.

One server (API keys on, a 2 s body deadline, at most 300 connections, at most 5 failed key
checks a minute) over a copy of the Learning Commons index:

- Hundreds of connections that declare a body and send 3 bytes are answered 408 once the
  body deadline passes, and `/healthz` answers meanwhile (they once held a descriptor each
  until the process had none left). Connections past the bound are answered 503 at once.
- An upload that stalls holds the index's writer lock only until the body deadline: then a
  second upload is accepted and its job succeeds.
- A `Host` that is not the loopback's nor in ALLOWED_HOSTS is a 421 (DNS rebinding).
- `/ui` carries a strict Content-Security-Policy, every answer nosniff and DENY framing.
- `X-Forwarded-For` from the loopback does not make a new client of each guess.

The failed-key test spends the limit of 127.0.0.1; every other request that carries a key
comes from 127.0.0.2 (the whole of 127.0.0.0/8 is the loopback), so the order of the tests
does not matter.
"""

from __future__ import annotations

import json
import selectors
import shutil
import socket
import subprocess
import tarfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from tests.integration.test_api_serve import Server, _stop, _wait_until_up, serve_on_loopback

from tutorgraph.api.auth import key_entry
from tutorgraph.index.generations import live_generation

pytestmark = pytest.mark.integration

BODY_TIMEOUT_S = 2.0
MAX_CONNECTIONS = 300
AUTH_FAILURES = 5
# Time allowed beyond a deadline on a busy 2-core runner.
SLACK_S = 4.0
ADMIN = "hostile-clients-admin-key-0123"
READ = "hostile-clients-read-key-0123"
ALLOWED = "tutor.example.org"
ELSEWHERE = "127.0.0.2"  # a loopback address of its own for the failed-key limit


@pytest.fixture(scope="module")
def server(
    start_cli: Callable[..., subprocess.Popen[str]],
    lc_index: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Server]:
    index_dir = tmp_path_factory.mktemp("hostile") / "index"
    shutil.copytree(lc_index, index_dir)  # an ingest here must not touch the shared one
    served = serve_on_loopback(
        start_cli,
        index_dir,
        TUTORGRAPH_API_KEYS=f"{key_entry(ADMIN, 'admin')},{key_entry(READ, 'read')}",
        TUTORGRAPH_RERANKER_MODEL="",
        TUTORGRAPH_BODY_TIMEOUT_S=str(BODY_TIMEOUT_S),
        TUTORGRAPH_MAX_CONNECTIONS=str(MAX_CONNECTIONS),
        TUTORGRAPH_AUTH_FAILURES_PER_MINUTE=str(AUTH_FAILURES),
        TUTORGRAPH_ALLOWED_HOSTS=ALLOWED,
    )
    try:
        _wait_until_up(served)
        yield served
    finally:
        if served.process.poll() is None:
            err = _stop(served)
            assert "Traceback" not in err, err


def _port(server: Server) -> int:
    return int(server.url.rsplit(":", 1)[1])


def _client(server: Server) -> httpx.Client:
    """A client whose connections come from `ELSEWHERE`."""
    return httpx.Client(
        base_url=server.url,
        timeout=60,
        transport=httpx.HTTPTransport(local_address=ELSEWHERE),
    )


def _connect(server: Server) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((ELSEWHERE, 0))
    sock.connect(("127.0.0.1", _port(server)))
    return sock


def _stalled(server: Server, path: str, headers: str = "", sent: bytes = b'{"q') -> socket.socket:
    """A connection whose request declares a 100-byte body and sends only `sent` of it."""
    sock = _connect(server)
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{_port(server)}\r\n{headers}"
        "Content-Length: 100\r\n\r\n"
    )
    sock.sendall(head.encode() + sent)
    return sock


def _answers(socks: list[socket.socket], wait_s: float) -> list[bytes]:
    """What the server sent on each socket until it closed it, or until `wait_s` passed."""
    data = {sock: b"" for sock in socks}
    with selectors.DefaultSelector() as selector:
        for sock in socks:
            selector.register(sock, selectors.EVENT_READ)
        deadline = time.monotonic() + wait_s
        while selector.get_map() and (left := deadline - time.monotonic()) > 0:
            for key, _ in selector.select(left):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    chunk = sock.recv(65536)
                except ConnectionResetError:
                    chunk = b""
                data[sock] += chunk
                if not chunk:
                    selector.unregister(sock)
    return [data[sock] for sock in socks]


def _status(answer: bytes) -> int | None:
    line = answer.split(b"\r\n", 1)[0].split()
    return int(line[1]) if len(line) > 1 and line[1].isdigit() else None


def _envelope_code(answer: bytes) -> str:
    body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
    return str(body["error"]["code"])


def test_stalled_bodies_are_answered_408_and_the_server_keeps_answering(
    server: Server,
) -> None:
    started = time.monotonic()
    stalled = [_stalled(server, "/v1/retrieve") for _ in range(250)]
    try:
        # Held for now, but the server answers everyone else.
        health = httpx.get(server.url + "/healthz", timeout=10)
        assert health.status_code == 200
        answers = _answers(stalled, BODY_TIMEOUT_S + SLACK_S)
        elapsed = time.monotonic() - started
    finally:
        for sock in stalled:
            sock.close()
    statuses = [_status(a) for a in answers]
    assert statuses == [408] * len(stalled), sorted(set(map(str, statuses)))
    assert _envelope_code(answers[0]) == "request_timeout"
    assert BODY_TIMEOUT_S * 0.9 <= elapsed <= BODY_TIMEOUT_S + SLACK_S, elapsed
    assert httpx.get(server.url + "/healthz", timeout=10).status_code == 200


def test_connections_past_the_bound_are_refused_at_once(server: Server) -> None:
    opened = [_connect(server) for _ in range(MAX_CONNECTIONS + 100)]
    try:
        # Silent connections: only a refused one hears anything before the head deadline,
        # and it is closed at once.
        answers = _answers(opened, 1.0)
    finally:
        for sock in opened:
            sock.close()
    refused = [a for a in answers if a]
    assert len(refused) >= 95, len(refused)  # 100, or more if other clients hold some
    assert {_status(a) for a in refused} == {503}
    assert _envelope_code(refused[0]) == "too_many_connections"
    assert b"\r\nretry-after: 1\r\n" in refused[0].lower()
    deadline = time.monotonic() + SLACK_S
    while True:  # the refused ones close as soon as their client does
        try:
            if httpx.get(server.url + "/healthz", timeout=5).status_code == 200:
                break
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "the server did not answer again"
        time.sleep(0.1)


def _bundle_archive(folder: Path, out: Path) -> bytes:
    with tarfile.open(out, "w:gz") as tar:
        for path in sorted(folder.iterdir()):
            tar.add(path, arcname=path.name)
    return out.read_bytes()


def test_a_stalled_upload_lets_go_of_the_writer_lock_at_the_deadline(
    server: Server, lc_bundle: Path, tmp_path: Path
) -> None:
    archive = _bundle_archive(lc_bundle, tmp_path / "bundle.tar.gz")
    admin = {"X-API-Key": ADMIN, "Content-Type": "application/gzip"}
    stalled = _stalled(
        server,
        "/v1/ingest",
        f"X-API-Key: {ADMIN}\r\nContent-Type: application/gzip\r\n",
        sent=b"\x1f\x8b",
    )
    started = time.monotonic()
    try:
        with _client(server) as client:
            time.sleep(0.5)  # the lock is taken before the body is read
            # The stalled upload holds the lock: a second one is refused while it does.
            busy = client.post("/v1/ingest", content=archive, headers=admin)
            assert busy.status_code == 409, busy.text
            assert busy.json()["error"]["code"] == "index_busy"
            [answer] = _answers([stalled], BODY_TIMEOUT_S + SLACK_S)
            assert _status(answer) == 408, answer[:200]
            accepted = None
            while time.monotonic() - started < BODY_TIMEOUT_S + SLACK_S:
                accepted = client.post("/v1/ingest", content=archive, headers=admin)
                if accepted.status_code == 202:
                    break
                time.sleep(0.2)
            assert accepted is not None and accepted.status_code == 202, accepted.text
            job_url = accepted.headers["location"]
            deadline = time.monotonic() + 120
            while (job := client.get(job_url, headers=admin).json())["status"] not in (
                "succeeded",
                "failed",
            ):
                assert time.monotonic() < deadline, job
                time.sleep(0.3)
    finally:
        stalled.close()
    assert job["status"] == "succeeded", job


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1.nip.io"])
def test_a_host_the_server_does_not_answer_to_is_421(server: Server, host: str) -> None:
    """What a page that rebound its DNS name to 127.0.0.1 sends: its own name."""
    header = {"Host": host.format(port=_port(server))}
    before = live_generation(server.index_dir)
    with _client(server) as client:
        for resp in (
            client.get("/healthz", headers=header),
            client.get("/ui", headers=header),
            client.post("/v1/retrieve", json={"query": "fractions"}, headers=header),
            client.post(
                "/v1/ingest?prune=true",
                content=b"\x1f\x8b",
                headers={**header, "X-API-Key": ADMIN, "Content-Type": "application/gzip"},
            ),
        ):
            assert resp.status_code == 421, resp.text
            error = resp.json()["error"]
            assert error["code"] == "misdirected_request"
            assert "TUTORGRAPH_ALLOWED_HOSTS" in error["message"]
    assert live_generation(server.index_dir) == before


def test_the_loopback_names_and_the_allowed_hosts_are_answered(server: Server) -> None:
    port = _port(server)
    with _client(server) as client:
        for host in (
            f"127.0.0.1:{port}",
            f"localhost:{port}",
            f"[::1]:{port}",
            "localhost",
            ALLOWED,
            f"Tutor.Example.org:{port}",
        ):
            resp = client.get("/healthz", headers={"Host": host})
            assert resp.status_code == 200, (host, resp.text)


def test_the_page_and_every_answer_carry_the_security_headers(server: Server) -> None:
    page = httpx.get(server.url + "/ui", timeout=30)
    assert page.status_code == 200
    csp = page.headers["content-security-policy"]
    for directive in ("default-src 'none'", "script-src 'self'", "frame-ancestors 'none'"):
        assert directive in csp, csp
    assert "unsafe-inline" not in csp
    for path in ("/ui", "/ui/assets/explorer.js", "/healthz", "/v1/retrieve", "/nowhere"):
        resp = httpx.get(server.url + path, timeout=30)
        assert resp.headers["x-content-type-options"] == "nosniff", path
        assert resp.headers["x-frame-options"] == "DENY", path


def test_x_forwarded_for_does_not_dodge_the_failed_key_limit(server: Server) -> None:
    """From 127.0.0.1, which uvicorn believed by default: each guess named another client."""
    codes = []
    with httpx.Client(base_url=server.url, timeout=60) as client:
        for n in range(AUTH_FAILURES + 1):
            resp = client.get(
                "/v1/concepts",
                params={"q": "fractions"},
                headers={"X-API-Key": f"guess-{n}", "X-Forwarded-For": f"203.0.113.{n + 1}"},
            )
            codes.append(resp.status_code)
    assert codes == [401] * AUTH_FAILURES + [429], codes
