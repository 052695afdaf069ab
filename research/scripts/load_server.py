"""The server under load for `load_test.py` and `hostile_load.py`: `tutorgraph serve` on a
free loopback port with one read key and the rate limit off, its readiness, its memory
(the process tree's RSS, from /proc) and its stop.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

# research/scripts/ is first on sys.path (the scripts that import this run from it).
from load_locust import RETRIEVE

__all__ = [
    "PeakRss",
    "Server",
    "rerank_applied",
    "start_server",
    "stop_server",
    "tree_rss_mib",
    "wait_ready",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def tutorgraph_command() -> list[str]:
    script = Path(sys.executable).with_name("tutorgraph")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "from tutorgraph.cli.app import main; main()"]


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def log_tail(self, n: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""


def start_server(args: argparse.Namespace, key: str, log: Path) -> Server:
    from tutorgraph.api.auth import key_entry

    port = free_port()
    env = dict(os.environ)
    env.update(
        TUTORGRAPH_API_KEYS=key_entry(key, "read"),
        TUTORGRAPH_RATE_LIMIT_PER_MINUTE="0",
        TOKENIZERS_PARALLELISM="false",
    )
    env.setdefault("HF_HUB_OFFLINE", "1")
    command = [
        *tutorgraph_command(),
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--index-dir",
        str(args.index_dir),
        "--workers",
        str(args.workers),
        "--log-level",
        "warning",
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    return Server(f"http://127.0.0.1:{port}", process, log)


def tree_rss_mib(pid: int) -> float:
    """Resident memory of `pid` and its descendants (uvicorn's workers), from /proc."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parents[int(stat.parent.name)] = int(fields[1])
        except (OSError, IndexError, ValueError):
            continue
    tree, frontier = {pid}, [pid]
    while frontier:
        parent = frontier.pop()
        children = [p for p, pp in parents.items() if pp == parent and p not in tree]
        tree.update(children)
        frontier.extend(children)
    kib = 0
    for p in tree:
        try:
            status = Path(f"/proc/{p}/status").read_text()
            kib += int(status.split("VmRSS:")[1].split()[0])
        except (OSError, IndexError, ValueError):
            continue
    return round(kib / 1024, 1)


class PeakRss:
    """The largest `tree_rss_mib` seen every 0.25 s while the block runs."""

    def __init__(self, pid: int) -> None:
        self._pid, self.peak, self._stop = pid, 0.0, threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(0.25):
            self.peak = max(self.peak, tree_rss_mib(self._pid))

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def wait_ready(server: Server, timeout_s: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise SystemExit(
                f"tutorgraph serve exited with {server.process.returncode}:\n{server.log_tail()}"
            )
        try:
            resp = httpx.get(server.url + "/readyz", timeout=30)
            if resp.status_code == 200:
                body: dict[str, Any] = resp.json()
                return body
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"tutorgraph serve was not ready within {timeout_s:g}s:\n{server.log_tail()}")


def stop_server(server: Server) -> None:
    if server.process.poll() is not None:
        return
    server.process.send_signal(signal.SIGTERM)
    try:
        server.process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()


def rerank_applied(server: Server, key: str, query: str) -> bool:
    """Whether the server reranks a `"rerank": true` request (a reranker is loaded)."""
    resp = httpx.post(
        server.url + RETRIEVE,
        json={"query": query, "rerank": True},
        headers={"X-API-Key": key},
        timeout=120,
    )
    resp.raise_for_status()
    return bool(resp.json()["reranker"]["applied"])
