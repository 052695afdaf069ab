"""Imports run downward: a low package never imports a higher one (read from the source
with `ast`, so lazy imports inside functions count too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

SRC = Path(__file__).parents[2] / "src" / "tutorgraph"
PIPELINE = {"retrieval", "ranking", "eval", "api", "cli", "training"}
# package -> the tutorgraph packages it must not import
FORBIDDEN = {
    "mathtext": {p.name for p in SRC.iterdir() if p.is_dir()} - {"mathtext"},
    "models": PIPELINE | {"ingest", "stores", "refinement", "diagnosis", "embedding"},
    "embedding": PIPELINE | {"ingest", "stores", "refinement", "diagnosis"},
    "stores": PIPELINE | {"ingest", "refinement", "diagnosis"},
    "ingest": PIPELINE | {"refinement", "diagnosis"},
    "refinement": PIPELINE | {"ingest", "diagnosis"},
    "diagnosis": PIPELINE | {"ingest", "refinement", "stores"},
}

# Known exception: opening an index reads its bundle with `ingest.bundle` (issue 17 puts
# building and opening an index behind one port).
ALLOWED = {("stores/local_index.py", "ingest")}


def _imported_packages(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = (
            [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else [a.name for a in node.names]
            if isinstance(node, ast.Import)
            else []
        )
        for name in names:
            parts = name.split(".")
            if parts[0] == "tutorgraph" and len(parts) > 1:
                out.add(parts[1])
    return out


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_low_package_imports_nothing_above_it(package: str) -> None:
    wrong = {
        f"{path.relative_to(SRC)} imports tutorgraph.{p}"
        for path in (SRC / package).rglob("*.py")
        for p in _imported_packages(path) & FORBIDDEN[package]
        if (str(path.relative_to(SRC)), p) not in ALLOWED
    }
    assert not wrong, sorted(wrong)
