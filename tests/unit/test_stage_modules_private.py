"""Stage modules are private (`retrieval/stages/_route.py`): code outside the stages package
reaches a stage through `tutorgraph.retrieval.stages`, whose public names are the stage
classes. Import-linter guards the packages (`private_modules` contract); this scan covers the
tests and research's scripts, which are no package."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.unit.test_cli_plugin_seam import imported_modules

from tutorgraph.retrieval import stages

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
STAGES_DIR = ROOT / "src" / "tutorgraph" / "retrieval" / "stages"


def _private_stage_imports(path: Path) -> list[str]:
    return sorted(
        m
        for m in imported_modules(path.read_text(encoding="utf-8"))
        if m.startswith("tutorgraph.retrieval.stages._")
    )


def test_nothing_outside_the_stages_package_imports_a_stage_module() -> None:
    found = {
        str(path.relative_to(ROOT)): bad
        for folder in ("src", "tests", "research", "scripts")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if STAGES_DIR not in path.parents
        and not {"build", ".venv", "__pycache__"} & set(path.relative_to(ROOT).parts)
        and (bad := _private_stage_imports(path))
    }
    assert found == {}


def test_every_stage_module_is_private_and_its_stage_is_exported() -> None:
    modules = sorted(p.stem for p in STAGES_DIR.glob("*.py") if p.stem != "__init__")
    assert modules and all(m.startswith("_") for m in modules)
    assert {s.__name__ for s in stages.STAGES} <= set(stages.__all__)
    assert {s.__module__.rsplit(".", 1)[-1] for s in stages.STAGES} == set(modules)
