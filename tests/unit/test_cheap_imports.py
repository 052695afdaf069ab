"""Importing the package or its error tree loads no heavy dependency (the exports load on
first use); timing is measured with `python -X importtime`, not asserted here."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.unit

HEAVY = ("openai", "neo4j", "chromadb", "torch", "bm25s", "networkx", "fastapi", "pydantic")


@pytest.mark.parametrize("module", ["tutorgraph", "tutorgraph.errors"])
def test_importing_loads_no_heavy_dependency(module: str) -> None:
    code = f"import sys, {module}; print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "[]"


def test_the_exports_still_load_on_first_use() -> None:
    import tutorgraph

    assert tutorgraph.RetrievalRequest(query="what is 3/4 of 12?").query
    assert issubclass(tutorgraph.StoreError, tutorgraph.TutorGraphError)
    assert set(tutorgraph.__all__) <= set(dir(tutorgraph))
    with pytest.raises(AttributeError):
        _ = tutorgraph.nothing_here  # type: ignore[attr-defined]
