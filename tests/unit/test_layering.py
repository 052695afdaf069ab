"""Imports run downward and in no cycle: the layers of `[tool.importlinter]` in pyproject.toml,
checked by import-linter, and the module graph's strongly connected components, both over
the whole import graph of `tutorgraph` and `tutorgraph_research` (imports inside functions
count too); the product never imports the research code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).parents[2]
PACKAGES = ("tutorgraph", "tutorgraph_research")


def test_no_import_runs_from_a_lower_layer_to_a_higher_one() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run(
        [str(lint), "--no-cache", "pyproject.toml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_no_module_imports_itself_through_others() -> None:
    """No import cycle between modules (imports inside functions count too)."""
    import grimp
    import networkx as nx

    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    edges = nx.DiGraph(
        (module, imported)
        for module in graph.modules
        for imported in graph.find_modules_directly_imported_by(module)
    )
    cycles = [sorted(c) for c in nx.strongly_connected_components(edges) if len(c) > 1]
    assert cycles == []


def test_the_product_never_imports_the_research_code() -> None:
    """`tutorgraph` (the wheel) imports nothing of `tutorgraph_research`; the research
    commands reach the CLI only through the `tutorgraph.cli` entry points."""
    import grimp

    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    product = {m for m in graph.modules if m.split(".")[0] == "tutorgraph"}
    research = {m for m in graph.modules if m.split(".")[0] == "tutorgraph_research"}
    assert "tutorgraph.cli.app" in product
    assert "tutorgraph_research.cli.bench" in research
    upward = sorted(
        (m, i) for m in product for i in graph.find_modules_directly_imported_by(m) if i in research
    )
    assert upward == []
