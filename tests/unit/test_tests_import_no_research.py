"""The product's tests import nothing of the research package: they test the wheel, which
never imports research, and they run without it. Research's tests live in research/tests (and
may use the product's test helpers, not the other way round)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

REPO = Path(__file__).resolve().parents[2]
RESEARCH = "tutorgraph_research"


def _research(name: str | None) -> bool:
    return name is not None and (name == RESEARCH or name.startswith(RESEARCH + "."))


def research_imports(source: str) -> list[int]:
    """The lines of `source` that import the research package: `import`, `from ... import`,
    or `__import__` / `importlib.import_module` of a literal name.

    >>> research_imports("import os\\nfrom tutorgraph_research.tasks import eedi")
    [2]
    """
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            hit = any(_research(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            hit = node.level == 0 and _research(node.module)
        elif isinstance(node, ast.Call):
            f = node.func
            name = (
                f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            )
            first = node.args[0] if node.args else None
            hit = (
                name in {"__import__", "import_module"}
                and isinstance(first, ast.Constant)
                and isinstance(first.value, str)
                and _research(first.value)
            )
        else:
            continue
        if hit:
            lines.append(node.lineno)
    return sorted(lines)


def test_the_product_tests_import_nothing_of_research() -> None:
    files = [REPO / "conftest.py", *sorted((REPO / "tests").rglob("*.py"))]
    assert len(files) > 50  # the tree was found
    found = [
        f"{path.relative_to(REPO)}:{line}"
        for path in files
        for line in research_imports(path.read_text(encoding="utf-8"))
    ]
    assert found == []


@pytest.mark.parametrize(
    "source",
    [
        "import tutorgraph_research",
        "import json, tutorgraph_research.tasks.eedi as e",
        "from tutorgraph_research.harness.bolt_server import arcadedb_server",
        "def f():\n    from tutorgraph_research import ablation",
        "__import__('tutorgraph_research.ablation')",
        "importlib.import_module('tutorgraph_research.tasks')",
    ],
)
def test_each_way_of_importing_research_is_found(source: str) -> None:
    assert research_imports(source) != []


@pytest.mark.parametrize(
    "source",
    ["import tutorgraph", "from tutorgraph_researcher import x", "x = 'tutorgraph_research'"],
)
def test_what_is_not_an_import_of_research_is_not_found(source: str) -> None:
    assert research_imports(source) == []
