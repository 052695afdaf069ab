"""The API documents itself: the OpenAPI schema the app serves describes every field and
parameter, has an example for every route, and carries no doctest text (the models'
docstrings keep their doctests; `tutorgraph.api.openapi` strips them from the schema)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.unit.api_fakes import FakeOpener

from tutorgraph.api import create_app
from tutorgraph.api.openapi import strip_doctests
from tutorgraph.config import Settings

pytestmark = pytest.mark.unit

# The share of schema properties that must carry a description (all of them do today).
MIN_DESCRIBED = 1.0
_METHODS = {"get", "post", "put", "patch", "delete"}
# Served outside the schema (include_in_schema=False), listed so that none slips in.
_UNDOCUMENTED_PREFIXES = ("/docs", "/redoc", "/ui", "/openapi", "/docs-assets")


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    # `create_app` does no I/O and its routes do not depend on the index: no lifespan needed.
    index_dir = tmp_path_factory.mktemp("openapi") / "index"
    return create_app(Settings(index_dir=index_dir), opener=FakeOpener()).openapi()


def _properties(node: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every property of every object schema under `node`, nested ones included."""
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            for name, prop in props.items():
                yield f"{where}.{name}", prop
                yield from _properties(prop, f"{where}.{name}")
        for key, value in node.items():
            if key != "properties":
                yield from _properties(value, where)
    elif isinstance(node, list):
        for value in node:
            yield from _properties(value, where)


def _operations(schema: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in schema["paths"].items():
        if path.startswith(_UNDOCUMENTED_PREFIXES):
            continue
        for method, op in item.items():
            if method in _METHODS:
                yield path, method, op


def _has_example(node: dict[str, Any]) -> bool:
    return bool(node.get("example") is not None or node.get("examples"))


def _parameter_has_example(param: dict[str, Any]) -> bool:
    return _has_example(param) or _has_example(param.get("schema", {}))


def _examples(op: dict[str, Any]) -> int:
    """How many examples an operation shows: its parameters', its body's, its responses'."""
    found = sum(_parameter_has_example(p) for p in op.get("parameters", []))
    for media in op.get("requestBody", {}).get("content", {}).values():
        found += _has_example(media)
    for response in op.get("responses", {}).values():
        for media in response.get("content", {}).values():
            found += _has_example(media)
    return found


def test_every_schema_property_has_a_description(schema: dict[str, Any]) -> None:
    props = list(_properties(schema["components"]["schemas"], "#"))
    missing = sorted(where for where, prop in props if not str(prop.get("description", "")).strip())
    described = len(props) - len(missing)
    share = described / len(props)
    print(f"\ndescribed schema properties: {described}/{len(props)} ({share:.1%})")
    assert len(props) > 200, "the schema lost its models?"
    assert share >= MIN_DESCRIBED, f"{len(missing)} without a description:\n" + "\n".join(missing)


def test_every_parameter_has_a_description_and_an_example(schema: dict[str, Any]) -> None:
    bare, no_example = [], []
    for path, method, op in _operations(schema):
        for param in op.get("parameters", []):
            label = f"{method.upper()} {path} {param['in']}:{param['name']}"
            if not (param.get("description") or param.get("schema", {}).get("description")):
                bare.append(label)
            if not _parameter_has_example(param):
                no_example.append(label)
    assert bare == [], f"parameters without a description: {bare}"
    assert no_example == [], f"parameters without an example: {no_example}"


def test_every_route_has_an_example(schema: dict[str, Any]) -> None:
    counts = {f"{m.upper()} {p}": _examples(op) for p, m, op in _operations(schema)}
    print(f"\nroutes with an example: {sum(n > 0 for n in counts.values())}/{len(counts)}")
    assert len(counts) >= 11, counts
    assert [route for route, n in counts.items() if n == 0] == []
    # A JSON body shows named examples: a stated wrong answer and a word problem at least.
    for path in ("/v1/retrieve", "/v1/answer"):
        body = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        values = [e["value"] for e in body["examples"].values()]
        assert any(v.get("student_answer") and v.get("problem") for v in values), path
        assert any(v.get("grade") == "3" and "apples" in v["query"] for v in values), path


def test_the_schema_carries_no_doctest_text(schema: dict[str, Any]) -> None:
    text = json.dumps(schema)
    assert ">>>" not in text
    assert "doctest" not in text.lower()
    # ...while the docstrings it came from keep theirs.
    from tutorgraph_client.models.request import RetrievalRequest

    assert RetrievalRequest.__doc__ is not None and ">>>" in RetrievalRequest.__doc__
    described = schema["components"]["schemas"]["RetrievalRequest"]["description"]
    assert described == "What a caller asks for."


def test_readyz_documents_the_state_of_each_dependency(schema: dict[str, Any]) -> None:
    state = schema["components"]["schemas"]["DependencyState"]["properties"]["state"]
    assert state["enum"] == ["ok", "off", "failed"]


def test_strip_doctests_drops_each_block_and_keeps_the_prose() -> None:
    text = (
        "A packet.\n\n"
        ">>> p = ReasoningPacket(query='q',\n"
        "...                     timings_ms={})  # doctest: +SKIP\n"
        ">>> p.query\n"
        "'q'\n"
        "\n"
        "More prose.\n"
        "    >>> indented()\n"
        "    1\n"
    )
    assert strip_doctests(text) == "A packet.\n\nMore prose."
    assert strip_doctests("No example here.") == "No example here."


def test_the_schema_is_built_once(tmp_path: Path) -> None:
    app = create_app(Settings(index_dir=tmp_path / "index"), opener=FakeOpener())
    assert app.openapi() is app.openapi()
