"""A real `chroma run` server on a free loopback port, for the vector-store contract suite."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

__all__ = ["ChromaServer", "chroma_server", "free_port"]


@dataclass(frozen=True)
class ChromaServer:
    host: str
    port: int
    process: subprocess.Popen[bytes]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _chroma_cli() -> str:
    beside = Path(sys.executable).with_name("chroma")
    found = str(beside) if beside.is_file() else shutil.which("chroma")
    if not found:
        raise RuntimeError("the `chroma` CLI (from the chromadb package) is not installed")
    return found


@contextmanager
def chroma_server(
    path: Path, *, port: int | None = None, start_timeout_s: float = 60.0
) -> Iterator[ChromaServer]:
    """Start `chroma run --path PATH` on loopback and wait until its heartbeat answers."""
    port = port or free_port()
    proc = subprocess.Popen(
        [_chroma_cli(), "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + start_timeout_s
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"chroma run exited with {proc.returncode}")
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1).is_success:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"chroma run did not answer within {start_timeout_s:.0f} s")
            time.sleep(0.2)
        yield ChromaServer("127.0.0.1", port, proc)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
