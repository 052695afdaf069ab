"""Safe defaults of the real `tutorgraph` processes (issue 30): `serve` refuses an anonymous
non-loopback address unless TUTORGRAPH_ALLOW_ANONYMOUS=1 allows it, and `keys hash` without
a terminal makes a new key (or hashes the piped one)."""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.conftest import cli_command, cli_env
from tests.contract.chroma_server import free_port
from tests.integration.test_api_serve import Server, _stop, _wait_until_up

from tutorgraph.api.auth import ApiKeys, key_entry

pytestmark = pytest.mark.integration

RunCli = Callable[..., subprocess.CompletedProcess[str]]
REFUSED = "refusing to serve on {host} (not a loopback address) with TUTORGRAPH_API_KEYS empty"


@pytest.fixture(scope="module")
def tiny_index(lc_index: Path) -> Path:
    """The Learning Commons slice alone (35 records), ingested by the CLI (read only here)."""
    return lc_index


@pytest.mark.parametrize("host", ["0.0.0.0", "::"])
def test_serve_refuses_an_anonymous_public_address_before_anything_loads(
    run_cli: RunCli, tmp_path: Path, host: str
) -> None:
    # No index at all: the refusal comes first, so nothing was opened or loaded.
    missing = str(tmp_path / "none")
    started = time.monotonic()
    proc = run_cli("serve", "--host", host, "--port", str(free_port()), "--index-dir", missing)
    elapsed = time.monotonic() - started
    assert proc.returncode == 2, proc.stderr
    assert (
        REFUSED.format(host=host) in proc.stderr and "TUTORGRAPH_ALLOW_ANONYMOUS=1" in proc.stderr
    )
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert elapsed < 60, elapsed  # about a second here; loading the models takes longer
    # An explicit "no" is no different from unset.
    proc = run_cli(
        "serve",
        "--host",
        host,
        "--port",
        "1",
        "--index-dir",
        missing,
        TUTORGRAPH_ALLOW_ANONYMOUS="false",
    )
    assert proc.returncode == 2 and REFUSED.format(host=host) in proc.stderr


def test_keys_lift_the_refusal(run_cli: RunCli, tmp_path: Path) -> None:
    """With keys the bind is allowed: start-up goes on to open the index (absent here)."""
    proc = run_cli(
        "serve",
        "--host",
        "0.0.0.0",
        "--port",
        "1",
        "--index-dir",
        str(tmp_path / "none"),
        TUTORGRAPH_API_KEYS=key_entry("a-key-for-the-bind-test", "admin"),
    )
    assert proc.returncode == 2 and "no tutorgraph index" in proc.stderr, proc.stderr
    assert "refusing to serve" not in proc.stderr


def test_allow_anonymous_serves_on_every_interface_with_a_warning(
    start_cli: Callable[..., subprocess.Popen[str]], tiny_index: Path
) -> None:
    port = free_port()
    server = Server(
        f"http://127.0.0.1:{port}",
        start_cli(
            "serve",
            "--host",
            "0.0.0.0",
            "--port",
            str(port),
            "--index-dir",
            str(tiny_index),
            "--log-level",
            "warning",
            TUTORGRAPH_ALLOW_ANONYMOUS="1",
            TUTORGRAPH_RERANKER_MODEL="",
        ),
        tiny_index,
    )
    try:
        _wait_until_up(server)
        # Anonymous, as allowed: no key needed.
        resp = server.post("/v1/retrieve", json={"query": "equivalent fractions"})
        assert resp.status_code == 200 and resp.json()["results"], resp.text
    finally:
        err = _stop(server)
    assert "warning: serving on 0.0.0.0 with no API keys" in err, err
    assert "Traceback" not in err


# -- keys hash without a terminal ------------------------------------------------------------

_NEW_KEY = re.compile(r"new API key \(keep it secret; only its hash is configured\): (\S+)")


def _keys_hash(
    *args: str, stdin: int | None = None, text_in: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*cli_command(), "keys", "hash", *args],
        stdin=stdin,
        input=text_in,
        env=cli_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("role", ["read", "admin"])
def test_keys_hash_with_no_terminal_makes_a_new_key(role: str) -> None:
    proc = _keys_hash("--role", role, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    entry = proc.stdout.strip()
    assert re.fullmatch(rf"sha256:[0-9a-f]{{64}}:{role}", entry), proc.stdout
    found = _NEW_KEY.search(proc.stderr)
    assert found is not None, proc.stderr
    key = found.group(1)
    assert len(key) >= 40  # secrets.token_urlsafe(32): 43 characters
    assert ApiKeys.parse(entry).authenticate(key).role == role
    # Another run, another key.
    again = _NEW_KEY.search(_keys_hash(stdin=subprocess.DEVNULL).stderr)
    assert again is not None and again.group(1) != key


def test_keys_hash_hashes_a_piped_key() -> None:
    proc = _keys_hash("--role", "admin", text_in="piped-key-0123456789\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == key_entry("piped-key-0123456789", "admin")
    assert "new API key" not in proc.stderr
    assert ApiKeys.parse(proc.stdout.strip()).authenticate("piped-key-0123456789").role == "admin"
    # A blank line is more likely an unset variable (`echo "$KEY" |`) than a wish for a new key.
    blank = _keys_hash(text_in="\n")
    assert blank.returncode == 2 and "must not be empty" in blank.stderr
    assert not blank.stdout.strip()
