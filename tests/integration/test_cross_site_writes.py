"""Issue 46 against a real `tutorgraph serve` over real HTTP: the default keyless loopback
server that a web page could once replace the index of.

- A cross-site write (a `text/plain` `POST /v1/ingest?prune=true` with a foreign `Origin`,
  or any body with `Sec-Fetch-Site: cross-site`) is refused with a 4xx and the index is
  unchanged; so is a same-origin body of a CORS-safelisted type (415).
- An archive made by the real `tar -czf b.tar.gz -C dir .` (`./`-rooted) ingests.
- An HTTP ingest while another process holds the index's writer lock (as `tutorgraph
  ingest` does) is a 409 before the upload is read, never a 202 and a failed job.
- A request head over the limit is a 431, a head that does not arrive in time is a 408, and
  the server keeps serving.
- A malformed `TUTORGRAPH_*` variable is one line and exit code 2.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.conftest import LC_DIR
from tests.contract.chroma_server import free_port
from tests.integration.test_api_serve import Server, _stop, _wait_until_up

from tutorgraph.index.generations import generations, live_generation
from tutorgraph.index.layout import IndexLayout, load_catalogue
from tutorgraph.ingest.bundle import write_bundle
from tutorgraph.ingest.learning_commons import load_learning_commons
from tutorgraph.models.records import SourceRecords
from tutorgraph_client.models.curriculum import Concept

pytestmark = pytest.mark.integration

RunCli = Callable[..., subprocess.CompletedProcess[str]]
EVIL = "https://evil.example"
HEADER_LIMIT = 8192
HEADER_TIMEOUT_S = 2.0
PLANTED = "test:planted-concept-"
ADDED = "test:dot-rooted-concept"


def _concept(concept_id: str, name: str) -> Concept:
    return Concept(
        id=concept_id,
        name=name,
        description=f"{name}: a concept only this test's bundle holds",
        kind="standard",
        source="test",
        license="CC-BY-4.0",
    )


def _tar_with_the_tar_command(bundle: Path, out: Path) -> bytes:
    """`tar -czf out -C bundle .`: the usual command, whose entries all start with `./`."""
    subprocess.run(["tar", "-czf", str(out), "-C", str(bundle), "."], check=True)
    names = subprocess.run(
        ["tar", "-tzf", str(out)], check=True, capture_output=True, text=True
    ).stdout.split()
    assert names[0] == "./" and all(n.startswith("./") for n in names), names
    return out.read_bytes()


@pytest.fixture(scope="module")
def server(
    run_cli: RunCli,
    start_cli: Callable[..., subprocess.Popen[str]],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Server]:
    """Keyless, on the loopback, as `tutorgraph serve` starts by default, over the Learning
    Commons slice (35 records) ingested by the CLI."""
    root = tmp_path_factory.mktemp("cross-site")
    write_bundle(load_learning_commons(LC_DIR), root / "bundle")
    index = root / "index"
    proc = run_cli("ingest", str(root / "bundle"), "--index-dir", str(index))
    assert proc.returncode == 0, proc.stderr
    port = free_port()
    server = Server(
        f"http://127.0.0.1:{port}",
        start_cli(
            "serve",
            "--port",
            str(port),
            "--index-dir",
            str(index),
            "--log-level",
            "warning",
            TUTORGRAPH_RERANKER_MODEL="",
            TUTORGRAPH_MAX_HEADER_BYTES=str(HEADER_LIMIT),
            TUTORGRAPH_HEADER_TIMEOUT_S=str(HEADER_TIMEOUT_S),
        ),
        index,
    )
    try:
        _wait_until_up(server)
        yield server
    finally:
        err = _stop(server)
        assert "Traceback" not in err, err


def _error(resp: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert list(body) == ["error"] and body["error"]["code"] == code, body
    return dict(body["error"])


def _index_state(index: Path) -> tuple[bytes, bytes, list[str], int]:
    """CURRENT, the live manifest, every generation and the live catalogue's concept count."""
    live = live_generation(index)
    assert live is not None
    concepts = len(load_catalogue(IndexLayout.live(index)).concepts)
    return (
        (index / "CURRENT").read_bytes(),
        (live / "manifest.json").read_bytes(),
        [g.name for g in generations(index)],
        concepts,
    )


def _wait_for_job(server: Server, job_id: str, timeout_s: float = 300) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        job = server.get(f"/v1/ingest/{job_id}").json()
        if job["status"] in ("succeeded", "failed"):
            return dict(job)
        assert time.monotonic() < deadline, job
        time.sleep(0.25)


def test_a_cross_site_ingest_is_refused_and_the_index_is_unchanged(
    server: Server, tmp_path: Path
) -> None:
    planted = tmp_path / "planted"
    write_bundle(
        SourceRecords(concepts=[_concept(f"{PLANTED}{n}", f"Planted {n}") for n in range(3)]),
        planted,
    )
    archive = _tar_with_the_tar_command(planted, tmp_path / "planted.tar.gz")
    before = _index_state(server.index_dir)
    assert before[3] > 3

    def ingest(headers: dict[str, str]) -> httpx.Response:
        return server.post("/v1/ingest?prune=true", content=archive, headers=headers)

    # The attack as reported: a page's simple POST (no preflight), text/plain, its Origin.
    attack = {"Content-Type": "text/plain;charset=UTF-8", "Origin": EVIL}
    err = _error(ingest(attack), 403, "cross_site_request")
    assert "TUTORGRAPH_CORS_ORIGINS" in err["message"]
    # What a current browser adds; and each header alone, whatever the body's type.
    refused = [
        {**attack, "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"},
        {"Content-Type": "application/gzip", "Origin": EVIL},
        {"Content-Type": "application/gzip", "Sec-Fetch-Site": "cross-site"},
        {"Content-Type": "application/gzip", "Sec-Fetch-Site": "same-site"},
        {"Content-Type": "application/octet-stream", "Origin": "null"},  # a sandboxed page
        # The same host on another port is another origin.
        {"Content-Type": "application/gzip", "Origin": "http://127.0.0.1:1"},
    ]
    for headers in refused:
        _error(ingest(headers), 403, "cross_site_request")
    # From this server's own origin, a type a form or a simple fetch can send is a 415.
    own = server.url
    for content_type in (
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json",
    ):
        headers = {"Content-Type": content_type, "Origin": own, "Sec-Fetch-Site": "same-origin"}
        _error(ingest(headers), 415, "unsupported_media_type")
    # Reads from another page are not writes: still answered (CORS decides what it may see).
    read = server.post("/v1/retrieve", json={"query": "fractions"}, headers={"Origin": EVIL})
    assert read.status_code == 200, read.text
    time.sleep(0.5)  # nothing was started in the background either
    assert _index_state(server.index_dir) == before
    assert server.get(f"/v1/concepts/{PLANTED}0").status_code == 404
    assert server.get("/readyz").json()["generation"] == before[0].decode().strip()


def test_a_dot_rooted_archive_ingests_after_the_cli_writer_is_done(
    server: Server, tmp_path: Path
) -> None:
    """While another process holds the writer lock (as `tutorgraph ingest` does), an upload
    is a 409 at once; once it lets go, the `./`-rooted archive the `tar` command made is
    accepted from the server's own origin and ingested."""
    bundle = tmp_path / "bundle"
    write_bundle(SourceRecords(concepts=[_concept(ADDED, "Dot-rooted")]), bundle)
    archive = _tar_with_the_tar_command(bundle, tmp_path / "b.tar.gz")
    headers = {
        "Content-Type": "application/gzip",
        "Origin": server.url,
        "Sec-Fetch-Site": "same-origin",
    }
    before = _index_state(server.index_dir)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import sys
                from pathlib import Path
                from tutorgraph.index.lock import WriterLock
                with WriterLock(Path({str(server.index_dir)!r}), "tutorgraph ingest bundle"):
                    print("held", flush=True)
                    sys.stdin.readline()
                """
            ),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        started = time.monotonic()
        err = _error(server.post("/v1/ingest", content=archive, headers=headers), 409, "index_busy")
        assert time.monotonic() - started < 5
        assert "tutorgraph ingest bundle" in err["message"]
        assert str(server.index_dir) not in json.dumps(err)
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(timeout=30)
    assert _index_state(server.index_dir) == before

    resp = server.post("/v1/ingest", content=archive, headers=headers)
    assert resp.status_code == 202, resp.text
    job = _wait_for_job(server, resp.json()["job_id"])
    assert job["status"] == "succeeded", job
    assert job["report"]["added"] == 1 and job["report"]["pruned"] == 0
    assert server.get(f"/v1/concepts/{ADDED}").json()["name"] == "Dot-rooted"
    assert server.get("/readyz").json()["generation"] == job["generation"]


def _raw_request(port: int, data: bytes, *, timeout_s: float = 10) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout_s) as sock:
        # The server may close before it has read everything.
        with contextlib.suppress(OSError):
            sock.sendall(data)
        try:
            return sock.recv(4096)
        except OSError:
            return b""


def test_request_heads_are_bounded_in_size_and_time(server: Server) -> None:
    port = int(server.url.rsplit(":", 1)[1])
    head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    ok = _raw_request(port, head + b"X-Small: " + b"a" * (HEADER_LIMIT // 2) + b"\r\n\r\n")
    assert ok.startswith(b"HTTP/1.1 200 "), ok[:100]
    # Over the limit, in one piece (a single read) or far over it (many reads).
    for size in (2 * HEADER_LIMIT, 4 << 20):
        reply = _raw_request(port, head + b"X-Big: " + b"a" * size + b"\r\n\r\n")
        assert reply.startswith(b"HTTP/1.1 431 "), (size, reply[:100])

    # A head sent a line at a time, never finished: closed with a 408 at the deadline.
    with socket.create_connection(("127.0.0.1", port), timeout=0.2) as sock:
        started = time.monotonic()
        sock.sendall(head)
        reply = b""
        while time.monotonic() - started < 10 * HEADER_TIMEOUT_S:
            try:
                sock.sendall(b"X-Slow: a\r\n")
                chunk = sock.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                break
            if not chunk:
                break
            reply += chunk
        elapsed = time.monotonic() - started
    assert reply.startswith(b"HTTP/1.1 408 "), reply[:100]
    assert HEADER_TIMEOUT_S - 0.5 < elapsed < HEADER_TIMEOUT_S + 3, elapsed
    # A connection that sends nothing is closed too.
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        started = time.monotonic()
        assert sock.recv(100) == b""
        assert time.monotonic() - started < HEADER_TIMEOUT_S + 3
    assert server.get("/healthz").status_code == 200


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("TUTORGRAPH_RERANK_DEPTH", "many"),
        ("TUTORGRAPH_ALLOW_ANONYMOUS", "perhaps"),
        ("TUTORGRAPH_MAX_HEADER_BYTES", "999"),
    ],
)
def test_a_malformed_setting_is_one_line_for_serve(
    run_cli: RunCli, tmp_path: Path, variable: str, value: str
) -> None:
    proc = run_cli(
        "serve", "--port", str(free_port()), "--index-dir", str(tmp_path), **{variable: value}
    )
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert re.match(rf"error: {variable}: ", lines[0]), lines
    assert value not in lines[0]  # never the value: it may be a secret


def test_a_malformed_setting_is_one_line_for_query(run_cli: RunCli, tmp_path: Path) -> None:
    proc = run_cli(
        "query", "fractions", "--index-dir", str(tmp_path), TUTORGRAPH_RERANK_DEPTH="many"
    )
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert lines == [
        "error: TUTORGRAPH_RERANK_DEPTH: Input should be a valid integer, unable "
        "to parse string as an integer"
    ], proc.stderr
