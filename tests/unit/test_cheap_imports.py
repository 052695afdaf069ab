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


EXTRAS = ("neo4j", "openai", "fastapi", "uvicorn")
# The embedded pipeline end to end: the CLI, the index, the composition root.
CORE = ("tutorgraph.cli.app", "tutorgraph.index.service", "tutorgraph.retrieval.factory")


def extras_loaded_by(modules: tuple[str, ...]) -> str:
    """The server extras (`EXTRAS`) that importing `modules` loads, in a fresh interpreter."""
    code = f"import sys; [__import__(m) for m in {modules!r}]; " + (
        f"print(sorted(m for m in {EXTRAS!r} if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return out.stdout.strip()


def test_the_embedded_pipeline_needs_no_server_extra() -> None:
    assert extras_loaded_by(CORE) == "[]"


def test_a_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from tutorgraph.config import Settings
    from tutorgraph.errors import ConfigurationError
    from tutorgraph.extras import require
    from tutorgraph.index import service

    require("json", "server", "x")  # present: nothing happens
    with pytest.raises(ConfigurationError, match=r"pip install 'tutorgraph\[server\]'"):
        require("tutorgraph_no_such_module", "server", "tutorgraph serve")
    monkeypatch.setattr("tutorgraph.extras.find_spec", lambda name: None)
    with pytest.raises(ConfigurationError, match=r"tutorgraph\[neo4j\]") as info:
        service.graph_store(Settings(neo4j_uri="neo4j://localhost:7687"))
    assert info.value.details == {"extra": "neo4j"}


# What a model is: the packages that hold one, and the ranker's runtime.
MODELS = (
    "tutorgraph.ranking",
    "tutorgraph.linking",
    "tutorgraph.confidence",
    "tutorgraph.embedding",
    "tutorgraph.diagnosis",
    "tutorgraph.retrieval.ranker_runtime",
    "onnxruntime",
    "lightgbm",
)


def test_the_runner_and_the_state_import_no_model() -> None:
    """The generic runner (`retrieval/pipeline.py`) and the state it carries know stages and
    fields only; what a stage does, and with which model, is the stage's."""
    modules = ("tutorgraph.retrieval.pipeline", "tutorgraph.retrieval.state")
    code = f"import sys; [__import__(m) for m in {modules!r}]; " + (
        f"print(sorted(m for m in sys.modules if m.startswith({MODELS!r})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "[]"
