"""The auto router: every signal class, the profile rules, the labelled set's accuracy."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from tutorgraph.retrieval.router import PROFILES, analyse, resolve_route

pytestmark = pytest.mark.unit

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.mark.parametrize(
    ("query", "signal"),
    [
        ('"equivalent fractions"', "quoted_phrase"),
        ("fraction -> decimal", "symbols"),
        ("a::b", "symbols"),
        ("least_common_multiple", "code_case"),
        ("simplifyFraction", "code_case"),
        ("what does 6.NS.A.1 say", "standard_code"),
        ("HSA-REI.B.4", "standard_code"),
        ("eedi:misconception:1287", "identifier"),
        ("ZeroDivisionError: division by zero", "error_string"),
        ("Math ERROR 1/0", "error_string"),
        ("ratio tables", "short"),
        ("0.75", "numbers"),
        ("why does a negative times a negative give a positive", "question_words"),
        ("explain the order of operations to a sixth grader", "long_sentence"),
        ("I really don't understand slope, can you help me", "conversational"),
        ("2x + 3 = 7", "math_expression"),
        ("simplify \\frac{12}{18}", "math_expression"),
        ("3/4 + 1/8", "math_expression"),
    ],
)
def test_each_signal_class_is_detected(query: str, signal: str) -> None:
    assert signal in analyse(query).signals


@pytest.mark.parametrize(
    ("query", "profile"),
    [
        ("6.NS.A.1", "exact"),  # lexical only
        ("2x + 3 = 7", "exact"),  # a bare expression
        ("what does it mean for two fractions to be equivalent", "semantic"),
        ("i got 2/6 for 1/2 + 1/4 why is it wrong", "balanced"),  # mixed signals
    ],
)
def test_profile_rules(query: str, profile: str) -> None:
    assert analyse(query).profile == profile


@pytest.mark.parametrize(
    ("query", "query_type"),
    [
        ("what are the prerequisites for solving quadratic equations", "prerequisite"),
        ("my answer to 3 - (-5) was -2, what did I do wrong", "misconception"),
        ("give me more problems like 3/4 ÷ 1/2", "similar_problems"),
        ("how do you find the area of a triangle", "concept_lookup"),
    ],
)
def test_query_types(query: str, query_type: str) -> None:
    assert analyse(query).query_type == query_type


def _accuracy(path: Path) -> tuple[float, float, Counter[tuple[str, str]]]:
    rows = [json.loads(line) for line in path.open(encoding="utf-8")]
    confusion: Counter[tuple[str, str]] = Counter()
    profile_ok = type_ok = 0
    for row in rows:
        got = analyse(row["query"])
        confusion[(row["profile"], got.profile)] += 1
        profile_ok += got.profile == row["profile"]
        type_ok += got.query_type == row["query_type"]
    return profile_ok / len(rows), type_ok / len(rows), confusion


def test_labelled_set_is_large_enough_and_drawn_from_the_data() -> None:
    rows = [json.loads(line) for line in (DATA / "routing_queries.jsonl").open()]
    assert len(rows) >= 100
    drawn = [r for r in rows if r["origin"] != "written"]
    assert len(drawn) / len(rows) >= 0.30
    assert {r["profile"] for r in rows} == {"exact", "balanced", "semantic"}


def test_router_meets_the_accuracy_bar_on_the_labelled_set() -> None:
    profile_acc, _, confusion = _accuracy(DATA / "routing_queries.jsonl")
    assert profile_acc >= 0.90, confusion


def test_semantic_weight_overrides_every_profile() -> None:
    route = resolve_route(
        query="6.NS.A.1",
        retrieval_profile="semantic",
        semantic_weight=0.35,
        graph_scope=None,
        rerank=None,
    )
    assert route.profile.name == "semantic" and route.semantic_weight == 0.35


def test_request_beats_index_default_and_index_default_beats_auto() -> None:
    common = {"query": "6.NS.A.1", "semantic_weight": None, "graph_scope": None, "rerank": None}
    by_default = resolve_route(retrieval_profile=None, default_profile="semantic", **common)
    assert by_default.profile.name == "semantic"
    by_request = resolve_route(retrieval_profile="exact", default_profile="semantic", **common)
    assert by_request.profile.name == "exact"
    index_weight = resolve_route(
        retrieval_profile=None, default_profile="auto", default_semantic_weight=0.9, **common
    )
    assert index_weight.semantic_weight == 0.9


def test_profiles_weigh_lexical_as_the_design_says() -> None:
    assert 1 - PROFILES["exact"].semantic_weight == pytest.approx(0.8)
    assert 1 - PROFILES["balanced"].semantic_weight == pytest.approx(0.5)
    assert 1 - PROFILES["semantic"].semantic_weight == pytest.approx(0.2)


def test_request_switches_win_over_the_profile_defaults() -> None:
    route = resolve_route(
        query="x", retrieval_profile="exact", semantic_weight=None, graph_scope=True, rerank=True
    )
    assert route.graph_scope is True and route.rerank is True
