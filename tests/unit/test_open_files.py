"""A process out of file descriptors (issue 59, item 5): reading the index's pointer then is
not damage, so nobody is sent to `doctor --repair`; and `serve` fits its connection bound to
the open-file limit. Each runs in a child process whose limit is lowered for real."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit


def _child(code: str, *args: str) -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def test_a_pointer_unreadable_for_want_of_descriptors_is_not_damage(tmp_path: Path) -> None:
    (tmp_path / "generations" / "000001").mkdir(parents=True)
    (tmp_path / "CURRENT").write_text("000001\n")
    out = _child(
        """
        import json, os, resource, sys
        from pathlib import Path
        from tutorgraph.errors import IndexDamagedError
        from tutorgraph.index.generations import live_generation

        index = Path(sys.argv[1])
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
        held = []
        try:
            while True:
                held.append(os.open(os.devnull, os.O_RDONLY))
        except OSError:
            pass
        try:
            live_generation(index)
        except Exception as exc:
            result = {"type": type(exc).__name__, "message": str(exc),
                      "damage": isinstance(exc, IndexDamagedError)}
        for fd in held:
            os.close(fd)
        result["after"] = live_generation(index).name
        print(json.dumps(result))
        """,
        str(tmp_path),
    )
    assert out["type"] == "StoreError" and out["damage"] is False, out
    message = str(out["message"])
    assert "doctor --repair" not in message
    assert "too many open files" in message and "the index is not damaged" in message
    assert "ulimit -n" in message
    assert out["after"] == "000001"  # with descriptors again, the same pointer reads fine


def test_serve_raises_the_open_file_limit_or_fits_its_connections_to_it() -> None:
    out = _child(
        """
        import json, resource
        from tutorgraph.cli.serve import FD_RESERVE, fit_open_files

        resource.setrlimit(resource.RLIMIT_NOFILE, (300, 1024))
        raised = fit_open_files(100)
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        fitted = fit_open_files(1000)
        print(json.dumps({"raised": raised, "soft": soft, "fitted": fitted,
                          "reserve": FD_RESERVE}))
        """
    )
    reserve = int(str(out["reserve"]))
    assert out["raised"] == [100, None]
    assert out["soft"] == 2 * 100 + reserve  # raised as far as needed, no further
    count, warning = out["fitted"]  # type: ignore[misc]
    assert count == (1024 - reserve) // 2
    assert "ulimit -n" in warning and "TUTORGRAPH_MAX_CONNECTIONS=1000" in warning
