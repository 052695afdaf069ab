"""RetrievalRequest: the defaults and rules of the design 8a table, and clear rejections."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from tutorgraph.errors import InvalidRequestError, TutorGraphError, UnknownConceptError
from tutorgraph_client.models.packet import TIMING_KEYS, ReasoningPacket
from tutorgraph_client.models.request import MAX_QUERY_CHARS, RetrievalRequest

pytestmark = pytest.mark.unit


def test_defaults_follow_the_design_table() -> None:
    req = RetrievalRequest(query="why is 3/4 bigger than 2/3?")
    assert req.model_dump() == {
        "problem": None,
        "correct_answer": None,
        "query": "why is 3/4 bigger than 2/3?",
        "n_results": 10,
        "retrieval_profile": None,  # "index default": resolved from the manifest (auto)
        "semantic_weight": None,
        "fusion": "rrf",
        "sources": ["vector", "lexical", "graph"],
        "concept_ids": [],
        "student_answer": None,
        "grade": None,
        "use_refinement": True,
        "rerank": None,
        "graph_scope": None,
        "prerequisite_hops": None,  # the query type's graph plan
        "max_context_tokens": 1500,
        "near_duplicate_threshold": None,  # the index's (off unless its ingest set one)
        "lessons": None,  # the server's lesson_slots
        "local_context": [],
        "conversation": [],  # the query is read alone
        "debug": False,
    }


def test_query_is_stripped_and_bounds_apply_after_stripping() -> None:
    assert RetrievalRequest(query="  3/4 + 1/4 \n").query == "3/4 + 1/4"
    exact = "x" * MAX_QUERY_CHARS
    assert RetrievalRequest(query=f"  {exact}  ").query == exact
    assert MAX_QUERY_CHARS == 2000


def _reject(**fields: Any) -> ValidationError:
    with pytest.raises(ValidationError) as info:
        RetrievalRequest.model_validate({"query": "fractions", **fields})
    return info.value


@pytest.mark.parametrize(
    ("fields", "where", "words"),
    [
        ({"query": ""}, "query", "at least 1 character"),
        ({"query": "   \n\t "}, "query", "at least 1 character"),
        ({"query": "x" * (MAX_QUERY_CHARS + 1)}, "query", "at most 2000 characters"),
        ({"n_results": 0}, "n_results", "greater than or equal to 1"),
        ({"n_results": 51}, "n_results", "less than or equal to 50"),
        ({"semantic_weight": -0.01}, "semantic_weight", "greater than or equal to 0"),
        ({"semantic_weight": 1.5}, "semantic_weight", "less than or equal to 1"),
        ({"sources": []}, "sources", "at least 1 item"),
        ({"sources": ["vector", "web"]}, "sources.1", "'vector', 'lexical', 'graph' or 'local'"),
        ({"fusion": "borda"}, "fusion", "'rrf' or 'weighted'"),
        ({"retrieval_profile": "fast"}, "retrieval_profile", "'auto'"),
        ({"student_answer": "x" * 501}, "student_answer", "at most 500 characters"),
        ({"max_context_tokens": -1}, "max_context_tokens", "greater than or equal to 0"),
        ({"max_context_tokens": 8001}, "max_context_tokens", "less than or equal to 8000"),
        ({"prerequisite_hops": -1}, "prerequisite_hops", "greater than or equal to 0"),
        ({"prerequisite_hops": 3}, "prerequisite_hops", "less than or equal to 2"),
        ({"top_k": 5}, "top_k", "Extra inputs are not permitted"),
        # Switches take JSON booleans only: 0, "no" or "false" is a mistake, not a default.
        ({"debug": 0}, "debug", "valid boolean"),
        ({"rerank": "false"}, "rerank", "valid boolean"),
    ],
)
def test_bad_requests_are_rejected_naming_the_field(
    fields: dict[str, Any], where: str, words: str
) -> None:
    err = _reject(**fields)
    locs = {".".join(str(p) for p in e["loc"]): e["msg"] for e in err.errors()}
    assert where in locs, locs
    assert words in locs[where]


@pytest.mark.parametrize("n", [1, 50])
def test_n_results_bounds_are_inclusive(n: int) -> None:
    assert RetrievalRequest(query="q", n_results=n).n_results == n


@pytest.mark.parametrize("w", [0.0, 1.0])
def test_semantic_weight_bounds_are_inclusive(w: float) -> None:
    assert RetrievalRequest(query="q", semantic_weight=w).semantic_weight == w


def test_sources_and_concepts_are_canonical() -> None:
    req = RetrievalRequest(
        query="q",
        sources=["graph", "vector", "graph"],
        concept_ids=[" ccss:6.NS.A.1 ", "ccss:6.NS.A.1", "", "eedi:construct:1428"],
    )
    # Equal requests give equal packets: one order, no repeats.
    assert req.sources == ["vector", "graph"]
    assert req.concept_ids == ["ccss:6.NS.A.1", "eedi:construct:1428"]


def test_unknown_concept_error_names_the_ids() -> None:
    err = UnknownConceptError(["ccss:9.ZZ.Z.9", "eedi:construct:0"])
    assert isinstance(err, InvalidRequestError) and isinstance(err, TutorGraphError)
    assert err.code == "unknown_concept"
    assert "ccss:9.ZZ.Z.9" in err.message and "eedi:construct:0" in err.message
    assert err.details == {"unknown_concept_ids": ["ccss:9.ZZ.Z.9", "eedi:construct:0"]}


def test_packet_defaults_always_carry_degraded_sources_and_reranker() -> None:
    packet = ReasoningPacket(query="q", timings_ms=dict.fromkeys(TIMING_KEYS, 0.0))
    data = packet.model_dump(mode="json")
    assert data["degraded_sources"] == []
    assert data["reranker"] == {"applied": False, "model": None, "reason": None}
    assert data["ranker"] == {"applied": False, "model": None, "reason": None, "proposed": 0}
    assert data["graph_context"] == {"concepts": [], "prerequisites": [], "misconceptions": []}
    assert data["diagnosis"] == [] and data["answer_check"] is None
    assert data["conflicts"] == [] and data["concepts"] == []
    assert list(data["timings_ms"]) == [
        "refine", "embed", "link", "vector", "lexical", "graph", "local", "merge", "fuse", "rerank",
        "rank", "diagnose", "lessons", "total",
    ]  # fmt: skip


def test_a_problem_stands_for_a_missing_query() -> None:
    req = RetrievalRequest(problem=" 10 - 4 / 2 ", student_answer="3")
    assert req.query == "10 - 4 / 2" and req.problem == "10 - 4 / 2"
    with pytest.raises(ValidationError, match="or give a problem"):
        RetrievalRequest(student_answer="3")
