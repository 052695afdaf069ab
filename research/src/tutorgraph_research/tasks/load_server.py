"""The server under load for `tutorgraph bench load` (`load_test`) and
research/scripts/hostile_load.py: `tutorgraph serve` on a free loopback port with one read
key and the rate limit off, its readiness, its memory (each process's RSS, from /proc) and
its stop.

With `--workers 1` the server is one process; with more, uvicorn's supervisor (the process
started here) spawns that many worker processes, each with its own models, and
multiprocessing may add a resource tracker: `process_roles` tells them apart.

>>> server = start_server(Path(".tutorgraph"), 2, key, log)  # doctest: +SKIP
>>> ready = wait_ready(server, 300)  # doctest: +SKIP
>>> process_rss_mib(server.process.pid)  # doctest: +SKIP
{4711: 81.2, 4715: 702.5, 4716: 699.8}
"""

from __future__ import annotations

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

from tutorgraph_research.tasks.load_locust import RETRIEVE, LoadTestError

__all__ = [
    "PeakRss",
    "Server",
    "parents",
    "process_roles",
    "process_rss_mib",
    "process_tree",
    "rerank_applied",
    "rss_mib",
    "settle",
    "start_server",
    "stop_server",
    "tree_rss_mib",
    "wait_ready",
]

PROC = Path("/proc")


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


def start_server(index_dir: Path, workers: int, key: str, log: Path) -> Server:
    """`tutorgraph serve --workers N` over `index_dir` on a free loopback port, `key` its only
    (read) key, no rate limit, its output to `log`; every other setting from the
    `TUTORGRAPH_*` environment."""
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
        str(index_dir),
        "--workers",
        str(workers),
        "--log-level",
        "warning",
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    return Server(f"http://127.0.0.1:{port}", process, log)


# -- memory, from /proc -------------------------------------------------------------------------


def parents(proc: Path = PROC) -> dict[int, int]:
    """Every process's parent pid, from /proc/PID/stat."""
    found: dict[int, int] = {}
    for stat in proc.glob("[0-9]*/stat"):
        try:
            # The command name (in parentheses) may hold spaces: the fields follow its ")".
            fields = stat.read_text().rsplit(")", 1)[1].split()
            found[int(stat.parent.name)] = int(fields[1])
        except (OSError, IndexError, ValueError):
            continue
    return found


def process_tree(pid: int, proc: Path = PROC) -> list[int]:
    """`pid` and its descendants (uvicorn's workers), `pid` first, the rest in order."""
    parent_of = parents(proc)
    tree, frontier = {pid}, [pid]
    while frontier:
        parent = frontier.pop()
        children = [p for p, pp in parent_of.items() if pp == parent and p not in tree]
        tree.update(children)
        frontier.extend(children)
    return [pid, *sorted(tree - {pid})]


def rss_mib(pid: int, proc: Path = PROC) -> float | None:
    """The resident memory of one process (`VmRSS`), or None once it is gone."""
    try:
        status = (proc / str(pid) / "status").read_text()
        return round(int(status.split("VmRSS:")[1].split()[0]) / 1024, 1)
    except (OSError, IndexError, ValueError):
        return None


def process_rss_mib(pid: int, proc: Path = PROC) -> dict[int, float]:
    """The RSS of `pid` and of each of its descendants, by pid (`pid` first)."""
    rss = {p: rss_mib(p, proc) for p in process_tree(pid, proc)}
    return {p: mib for p, mib in rss.items() if mib is not None}


def tree_rss_mib(pid: int, proc: Path = PROC) -> float:
    """Resident memory of `pid` and its descendants together."""
    return round(sum(process_rss_mib(pid, proc).values()), 1)


def process_roles(pid: int, workers: int, proc: Path = PROC) -> dict[int, str]:
    """Each process of the server's tree named: `"worker"` (serves requests), `"parent"`
    (uvicorn's supervisor, with more than one worker) or `"helper"` (multiprocessing's
    resource tracker, or anything a worker starts). With one worker the server is one
    process: the worker."""
    if workers == 1:
        return {p: "worker" if p == pid else "helper" for p in process_tree(pid, proc)}
    parent_of = parents(proc)
    roles: dict[int, str] = {}
    for p in process_tree(pid, proc):
        if p == pid:
            roles[p] = "parent"
            continue
        try:
            cmdline = (proc / str(p) / "cmdline").read_bytes()
        except OSError:
            continue
        # uvicorn spawns its workers from the supervisor itself.
        worker = parent_of.get(p) == pid and b"resource_tracker" not in cmdline
        roles[p] = "worker" if worker else "helper"
    return roles


def settle(pid: int, workers: int, timeout_s: float, *, interval_s: float = 1.0) -> None:
    """Wait (at most `timeout_s`) until the server has its `workers` worker processes and
    none of their RSS moved by more than 2 MiB in `interval_s`: every worker has loaded its
    models (a worker still starting takes no connection, so `/readyz` alone does not say)."""
    deadline = time.monotonic() + timeout_s
    before: dict[int, float] = {}
    while time.monotonic() < deadline:
        roles = process_roles(pid, workers)
        now = {p: mib for p, mib in process_rss_mib(pid).items() if roles.get(p) == "worker"}
        steady = now.keys() == before.keys() and all(abs(now[p] - before[p]) <= 2.0 for p in now)
        if len(now) == workers and steady:
            return
        before = now
        time.sleep(interval_s)


class PeakRss:
    """The largest RSS seen every 0.25 s while the block runs: of the process tree together
    (`peak`) and of each process (`peaks`, by pid)."""

    def __init__(self, pid: int) -> None:
        self._pid, self.peak, self._stop = pid, 0.0, threading.Event()
        self.peaks: dict[int, float] = {}
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(0.25):
            rss = process_rss_mib(self._pid)
            self.peak = max(self.peak, round(sum(rss.values()), 1))
            for p, mib in rss.items():
                self.peaks[p] = max(self.peaks.get(p, 0.0), mib)

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


# -- readiness, stop ------------------------------------------------------------------------------


def wait_ready(server: Server, timeout_s: float) -> dict[str, Any]:
    """The body of the server's first 200 from `/readyz`; `LoadTestError` if it exits or
    is not ready within `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise LoadTestError(
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
    raise LoadTestError(
        f"tutorgraph serve was not ready within {timeout_s:g}s:\n{server.log_tail()}"
    )


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
