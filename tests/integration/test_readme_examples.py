"""Every Python block of the README's quickstart and "Use it from your app" sections, run as
written in a fresh interpreter against the served app (and, in process, the session index)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from tests.integration.api_support import READ
from tests.integration.test_client import Served, served  # noqa: F401 - the fixture

pytestmark = pytest.mark.integration

README = Path(__file__).resolve().parents[2] / "README.md"


def _blocks() -> list[str]:
    text = README.read_text(encoding="utf-8")
    blocks: list[str] = []
    for title in ("## Five-minute quickstart", "## Use it from your app"):
        section = text.split(title, 1)[1].split("\n## ", 1)[0]
        blocks += re.findall(r"```python\n(.*?)```", section, re.S)
    return blocks


def test_the_section_has_its_examples() -> None:
    assert len(_blocks()) == 6


@pytest.mark.parametrize("n", range(6))
def test_each_example_runs(n: int, served: Served, session_index) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    served.answer_model.reset("valid")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUTORGRAPH_")}
    env.update(
        TUTORGRAPH_URL=served.url,
        TUTORGRAPH_API_KEY=READ,
        TUTORGRAPH_INDEX_DIR=str(session_index[0]),
        TUTORGRAPH_SOURCE_TIMEOUT_S="60",
        HF_HUB_OFFLINE="1",
    )
    out = subprocess.run(
        [sys.executable, "-c", _blocks()[n]],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip(), "the example printed nothing"
    if n == 1:
        assert "cited: ['" in out.stdout  # the served app's answer model answered
