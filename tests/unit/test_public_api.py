"""The package's public face: every name of `tutorgraph.__all__` resolves to the object its
module defines, the names are written once (`_EXPORTS`) and the type checkers' imports
name the same ones, from the same modules."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import tutorgraph

pytestmark = pytest.mark.unit


def type_checking_imports() -> dict[str, str]:
    """Name -> module of the imports under `if TYPE_CHECKING:` in `tutorgraph/__init__.py`."""
    tree = ast.parse(Path(tutorgraph.__file__).read_text(encoding="utf-8"))
    block = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
    )
    out: dict[str, str] = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom) and node.module is not None
        for alias in node.names:
            # `X as X`: what marks a re-export for a strict type checker.
            assert alias.asname == alias.name, f"import {alias.name} as {alias.name}"
            out[alias.name] = node.module
    return out


def test_the_type_checking_imports_agree_with_the_exports() -> None:
    assert type_checking_imports() == tutorgraph._EXPORTS


def test_all_is_the_exports() -> None:
    assert tutorgraph.__all__ == sorted(tutorgraph._EXPORTS)
    assert set(tutorgraph.__all__) <= set(dir(tutorgraph))


@pytest.mark.parametrize("name", tutorgraph.__all__)
def test_every_exported_name_resolves(name: str) -> None:
    value = getattr(tutorgraph, name)
    assert value is getattr(importlib.import_module(tutorgraph._EXPORTS[name]), name)
    assert getattr(value, "__name__", name) == name


def test_the_doors_and_the_packets_info_models_are_exported() -> None:
    assert {"open_retriever", "build_retriever", "HybridRetriever"} <= set(tutorgraph.__all__)
    from tutorgraph_client.models import packet

    # Every one: a new info model of the packet is exported with the others.
    infos = {name for name in packet.__all__ if name.endswith("Info")}
    assert {"RankerInfo", "RerankerInfo"} <= infos <= set(tutorgraph.__all__)
