"""A real Bolt server for the graph-store contract suite and the Bolt integration tests:
ArcadeDB (the `arcadedb-embedded` dev extra bundles a Java runtime and the server and Bolt
jars), on free loopback ports, in a folder of the caller's, with its database created over
the HTTP API. It answers the official `neo4j` driver as "Neo4j/5.26.0 compatible (ArcadeDB
...)", over Bolt 5.4.

The research package starts the same server for its Bolt benchmarks at run time
(`tutorgraph_research.harness.bolt_server`); the product's tests never import research, and
research's code cannot import these tests (they are no installed package), so each keeps its
launcher. A change to ArcadeDB's flags belongs in both.

>>> with arcadedb_server(Path("/tmp/arcadedb")) as server:  # doctest: +SKIP
...     print(server.uri, server.http_url)
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from tests.contract.chroma_server import free_port

__all__ = ["BoltServer", "arcadedb_home", "arcadedb_server"]

USER = "root"
PASSWORD = "tutorgraph-test"  # ArcadeDB wants 8 characters or more
DATABASE = "neo4j"


@dataclass(frozen=True)
class BoltServer:
    uri: str
    user: str
    password: str
    database: str
    http_url: str
    process: subprocess.Popen[bytes]


def arcadedb_home() -> Path:
    """The installed `arcadedb_embedded` package folder (its `jre/` and `jars/`)."""
    import arcadedb_embedded  # the dev extra

    return Path(arcadedb_embedded.__file__).parent


@contextmanager
def arcadedb_server(
    root: Path,
    *,
    start_timeout_s: float = 90.0,
    heap: str = "1g",
    ports: tuple[int, int] | None = None,
) -> Iterator[BoltServer]:
    """Start ArcadeDB with the Bolt plugin under `root` and create the database (kept when a
    server ran there before); stop the process at the end. `ports` (Bolt, HTTP) restarts a
    server where clients expect it. Raises RuntimeError when it cannot start (no usable
    Java)."""
    root = root.resolve()
    home = arcadedb_home()
    java = home / "jre" / "bin" / "java"
    bolt, http = ports or (free_port(), free_port())
    https = free_port()
    log = (root / "server.log").open("ab")
    proc = subprocess.Popen(
        [
            str(java),
            f"-Xmx{heap}",
            "-cp",
            str(home / "jars" / "*"),
            f"-Darcadedb.server.rootPath={root}",
            f"-Darcadedb.server.rootPassword={PASSWORD}",
            "-Darcadedb.server.plugins=Bolt:com.arcadedb.bolt.BoltProtocolPlugin",
            "-Darcadedb.bolt.host=127.0.0.1",
            f"-Darcadedb.bolt.port={bolt}",
            "-Darcadedb.server.httpIncomingHost=127.0.0.1",
            f"-Darcadedb.server.httpIncomingPort={http}",
            f"-Darcadedb.server.httpsIncomingPort={https}",
            "com.arcadedb.server.ArcadeDBServer",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        # ArcadeDB writes its java.util.logging files to ./log: keep them under root.
        cwd=root,
    )
    http_url = f"http://127.0.0.1:{http}"
    auth = (USER, PASSWORD)
    try:
        deadline = time.monotonic() + start_timeout_s
        while True:
            if proc.poll() is not None:
                tail = (root / "server.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"ArcadeDB exited with {proc.returncode}: {tail}")
            try:
                if httpx.get(f"{http_url}/api/v1/ready", timeout=1).is_success:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"ArcadeDB did not answer within {start_timeout_s:.0f} s")
            time.sleep(0.3)
        exists = httpx.get(f"{http_url}/api/v1/exists/{DATABASE}", auth=auth, timeout=30)
        if not (exists.is_success and exists.json().get("result") is True):
            created = httpx.post(
                f"{http_url}/api/v1/server",
                json={"command": f"create database {DATABASE}"},
                auth=auth,
                timeout=60,
            )
            created.raise_for_status()
        yield BoltServer(f"bolt://127.0.0.1:{bolt}", USER, PASSWORD, DATABASE, http_url, proc)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
