"""Imports run downward and in no cycle: the contracts of `[tool.importlinter]` in
pyproject.toml (the product's layers, the research package's, and that the product never
imports research), checked by import-linter, and the strongly connected components of the
product's module graph (imports inside functions count too). The research package's own
graph is checked in research/tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).parents[2]


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


def import_cycles(*packages: str) -> list[list[str]]:
    """The modules of `packages` that import themselves through others, one sorted list per
    cycle (imports inside functions count too)."""
    import grimp
    import networkx as nx

    graph = grimp.build_graph(*packages, cache_dir=None)
    edges = nx.DiGraph(
        (module, imported)
        for module in graph.modules
        for imported in graph.find_modules_directly_imported_by(module)
    )
    return [sorted(c) for c in nx.strongly_connected_components(edges) if len(c) > 1]


def test_no_module_imports_itself_through_others() -> None:
    assert import_cycles("tutorgraph") == []
