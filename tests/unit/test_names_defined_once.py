"""The source names, the profile names and the taxonomy names are each one `Literal` of the
client's models; every other list of them (the engine's tables, checks, help texts and the
API schema) is derived from it, and no module spells a list of them again."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

import pytest
from typer.testing import CliRunner

from tutorgraph.cli.app import app
from tutorgraph.errors import ConfigurationError
from tutorgraph.index.pipeline import IngestOptions
from tutorgraph.linking import TAXONOMIES
from tutorgraph.retrieval.router import PROFILES
from tutorgraph.stores.breaker import BREAKER_SOURCES
from tutorgraph_client.models.hit import HitSource
from tutorgraph_client.models.packet_info import TAXONOMY_NAMES, LinkedConcept, Taxonomy
from tutorgraph_client.models.request import (
    ALL_SOURCES,
    CONCRETE_PROFILES,
    RETRIEVAL_PROFILES,
    STORE_SOURCES,
    RetrievalRequest,
)

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
# Where a list of the names may be written: the definitions, and the learned ranker's feature
# order (a trained model's, typed by the definition).
DEFINED = {
    "clients/python/src/tutorgraph_client/models/request.py",
    "clients/python/src/tutorgraph_client/models/packet_info.py",
    "src/tutorgraph/ranking/model.py",
}


def test_the_tuples_are_their_literals() -> None:
    assert STORE_SOURCES == ("vector", "lexical", "graph")
    assert (*STORE_SOURCES, "local") == ALL_SOURCES
    assert ("auto", *CONCRETE_PROFILES) == RETRIEVAL_PROFILES
    assert TAXONOMY_NAMES == get_args(Taxonomy) == ("common-core", "eedi", "openstax")
    assert get_args(HitSource)[: len(ALL_SOURCES)] == ALL_SOURCES


def test_the_engine_s_tables_cover_each_name_in_order() -> None:
    assert tuple(PROFILES) == CONCRETE_PROFILES
    assert tuple(TAXONOMIES) == TAXONOMY_NAMES
    assert BREAKER_SOURCES == STORE_SOURCES


def test_the_schema_and_the_checks_list_the_names() -> None:
    request = RetrievalRequest.model_json_schema()["properties"]
    assert request["retrieval_profile"]["anyOf"][0]["enum"] == list(RETRIEVAL_PROFILES)
    assert request["sources"]["items"]["enum"] == list(ALL_SOURCES)
    taxonomy = LinkedConcept.model_json_schema()["properties"]["taxonomy"]
    assert taxonomy["enum"] == list(TAXONOMY_NAMES)
    with pytest.raises(ConfigurationError, match=", ".join(RETRIEVAL_PROFILES)):
        IngestOptions(default_retrieval_profile="fastest").check()
    for command, names in (("query", RETRIEVAL_PROFILES), ("ingest", RETRIEVAL_PROFILES)):
        shown = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "400"}).output
        assert ", ".join(names) in " ".join(shown.split()), command


def _lists(names: tuple[str, ...]) -> re.Pattern[str]:
    # Three of the names, quoted, one after another: a list of them written out (two may be
    # an example's output, or a mapping's value and the next key).
    one = rf"""["'](?:{"|".join(re.escape(n) for n in names)})["']"""
    return re.compile(rf"{one}\s*,\s*{one}\s*,\s*{one}")


@pytest.mark.parametrize(
    "names",
    [STORE_SOURCES, RETRIEVAL_PROFILES, TAXONOMY_NAMES],
    ids=["sources", "profiles", "taxonomies"],
)
def test_no_module_writes_a_list_of_the_names_again(names: tuple[str, ...]) -> None:
    pattern = _lists(names)
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("src", "clients/python/src", "research/src")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if str(path.relative_to(ROOT)) not in DEFINED
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if pattern.search(line)
    ]
    assert found == []
