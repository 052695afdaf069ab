"""The research package's imports: no cycle through `tutorgraph_research` and the product it
builds on (imports inside functions count too), and never one from the product up into
research (the commands reach the CLI only through the `tutorgraph.cli` entry points). Its
layers (`cli`, `reproduce`, `ablation | report`, `tasks`, `harness`) are contracts of
`[tool.importlinter]`, which the product's `test_layering.py` runs."""

from __future__ import annotations

import pytest
from tests.unit.test_layering import import_cycles

pytestmark = pytest.mark.unit

PACKAGES = ("tutorgraph", "tutorgraph_research")


def test_no_module_imports_itself_through_others() -> None:
    assert import_cycles(*PACKAGES) == []


def test_the_product_never_imports_the_research_code() -> None:
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
