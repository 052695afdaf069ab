"""The Docker image's install, run without Docker (issue 46: the image ran `pip install .`,
so `serve` exited 2 in it and in compose).

The Dockerfile is read, not copied out by hand: its `COPY` sources go into a fresh folder,
its `pip install` commands run there in a fresh virtual environment, and its `CMD` (under
`sh`, with the image's `ENV`) starts `tutorgraph serve` from that environment over a small
index; `/healthz` must answer, and so must the image's `HEALTHCHECK` command. Two departures
from the image, both said here: the torch wheel comes from pip's configured sources instead
of the CPU index the Dockerfile names (this machine reaches only PyPI; the CPU wheel is on its
disk), and the server listens on a free port rather than 8000.

Slow (several minutes: a fresh environment installs chromadb, onnxruntime, torch, ...), so
CI's `-m "not slow"` leaves it out: `pytest -m slow tests/integration/test_docker_install.py`.
The Dockerfile's install line itself is checked on every run by `tests/unit/test_compose.py`.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from tests.conftest import LC_DIR, REPO
from tests.contract.chroma_server import free_port
from tests.unit.test_compose import (
    _dockerfile_env,
    _dockerfile_instructions,
    _pip_installs,
    _serve_cmd,
)

from tutorgraph.api.auth import key_entry
from tutorgraph.ingest.bundle import write_bundle
from tutorgraph.ingest.learning_commons import load_learning_commons

pytestmark = [pytest.mark.integration, pytest.mark.slow]

KEY = "docker-install-test-key-0123456789"
INSTALL_TIMEOUT_S = 1800
START_TIMEOUT_S = 300


def _copy_build_context(app: Path) -> None:
    """What the Dockerfile's `COPY` lines put in its WORKDIR, from this checkout (a folder's
    contents go into the destination, as Docker copies them)."""
    app.mkdir()
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for word, rest in _dockerfile_instructions():
        if word != "COPY":
            continue
        *sources, dest = shlex.split(rest)
        target = app / dest
        for source in sources:
            path = REPO / source
            if path.is_dir():
                shutil.copytree(path, target, ignore=skip, dirs_exist_ok=True)
            elif dest.endswith("/"):
                target.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target / path.name)
            else:
                shutil.copy2(path, target)


def _local_pip(argv: list[str], venv: Path) -> list[str]:
    """A Dockerfile `pip install ...` for the fresh environment, without `--index-url`."""
    out = [str(venv / "bin" / "python"), "-m", "pip"]
    args = iter(argv[1:])
    for arg in args:
        if arg == "--index-url":
            next(args)
        elif not arg.startswith("--index-url="):
            out.append(arg)
    return out


def _timed(
    label: str,
    timings: dict[str, float],
    argv: list[str],
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 600,
) -> None:
    started = time.monotonic()
    proc = subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    timings[label] = round(time.monotonic() - started, 1)
    assert proc.returncode == 0, (
        f"{label}: {shlex.join(argv)}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    )


def test_the_images_install_command_gives_a_working_serve(tmp_path: Path) -> None:
    timings: dict[str, float] = {}
    started = time.monotonic()
    app, venv, index = tmp_path / "app", tmp_path / "venv", tmp_path / "index"
    _copy_build_context(app)
    assert (app / "pyproject.toml").is_file() and (app / "src" / "tutorgraph").is_dir()

    image_env = _dockerfile_env()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUTORGRAPH_")}
    env.update(image_env)
    # The image installs without a cache; here pip's cache only saves downloads.
    env.pop("PIP_NO_CACHE_DIR", None)
    _timed("venv", timings, [sys.executable, "-m", "venv", str(venv)])
    installs = _pip_installs()
    assert any(".[server]" in argv for argv in installs), installs
    for n, argv in enumerate(installs):
        _timed(
            f"pip install {n + 1}",
            timings,
            _local_pip(argv, venv),
            cwd=app,
            env=env,
            timeout=INSTALL_TIMEOUT_S,
        )
    tutorgraph = venv / "bin" / "tutorgraph"
    assert tutorgraph.is_file()

    # A small index (35 records) built by the fresh environment's own CLI; the CMD then
    # finds an index in the volume and goes straight to `serve`.
    bundle = tmp_path / "bundle"
    write_bundle(load_learning_commons(LC_DIR), bundle)
    env.update(TUTORGRAPH_INDEX_DIR=str(index), PATH=f"{venv / 'bin'}:{env.get('PATH', '')}")
    _timed(
        "ingest",
        timings,
        [str(tutorgraph), "ingest", str(bundle)],
        cwd=tmp_path,
        env=env,
        timeout=600,
    )

    port = free_port()
    cmd = _serve_cmd()
    assert cmd[:2] == ["sh", "-c"] and "--port 8000" in cmd[2]
    cmd = [*cmd[:2], cmd[2].replace("--port 8000", f"--port {port}")]
    env["TUTORGRAPH_API_KEYS"] = key_entry(KEY, "admin")  # 0.0.0.0 without keys is refused
    t0 = time.monotonic()
    server = subprocess.Popen(
        cmd, cwd=app, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if server.poll() is not None:
                out, err = server.communicate()
                pytest.fail(f"serve exited with {server.returncode}:\n{out}\n{err}")
            try:
                if httpx.get(f"{base}/healthz", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "serve did not come up"
            time.sleep(0.5)
        timings["serve up"] = round(time.monotonic() - t0, 1)
        assert httpx.get(f"{base}/readyz", timeout=30).json()["status"] in ("ready", "degraded")
        packet = httpx.post(
            f"{base}/v1/retrieve",
            json={"query": "equivalent fractions"},
            headers={"X-API-Key": KEY},
            timeout=120,
        )
        assert packet.status_code == 200 and packet.json()["results"], packet.text
        # The image's HEALTHCHECK command, run by the fresh environment's python.
        check = next(rest for word, rest in _dockerfile_instructions() if word == "HEALTHCHECK")
        probe = shlex.split(check.split(" CMD ", 1)[1])  # the shell form
        assert probe[0] == "python" and "127.0.0.1:8000" in probe[-1]
        probe = [str(venv / "bin" / "python"), *probe[1:-1], probe[-1].replace(":8000", f":{port}")]
        assert subprocess.run(probe, env=env, timeout=60, check=False).returncode == 0
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            _, err = server.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            _, err = server.communicate()
    assert "Traceback" not in err, err
    timings["total"] = round(time.monotonic() - started, 1)
    print(f"\nfresh-venv install and serve, seconds: {timings}")
