"""Routing, fusion, scoping, context and the debug block on a real index (ChromaDB + MiniLM)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tutorgraph.cli.app import app
from tutorgraph_client.models.packet import ReasoningPacket, teaching_first
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration

CONSTRUCT = "eedi:construct:1428"
DEBUG_FIELDS = {
    "retrieval_profile_effective",
    "semantic_weight_effective",
    "auto_signals_detected",
    "query_type",
    "candidates",
    "fusion",
    "graph_scoped",
    "source_agreement",
}


def _retrieve(retriever, **fields) -> ReasoningPacket:  # type: ignore[no-untyped-def]
    return asyncio.run(retriever.retrieve(RetrievalRequest(**fields)))


def test_a_standard_code_routes_exact_and_finds_that_standard_first(retriever) -> None:  # type: ignore[no-untyped-def]
    packet = _retrieve(retriever, query="6.NS.A.1", debug=True)
    assert packet.debug is not None
    assert packet.debug["retrieval_profile_effective"] == "exact"
    assert "standard_code" in packet.debug["auto_signals_detected"]
    assert packet.results[0].id == "ccss:6.NS.A.1"
    assert set(packet.results[0].found_by) >= {"lexical", "graph"}


def test_the_debug_block_reports_every_decision(retriever) -> None:  # type: ignore[no-untyped-def]
    packet = _retrieve(
        retriever,
        query="why do students think you add the numerators and the denominators?",
        concept_ids=[CONSTRUCT],
        debug=True,
    )
    debug = packet.debug
    assert debug is not None and set(debug) >= DEBUG_FIELDS
    assert debug["retrieval_profile_effective"] == "semantic"
    assert debug["query_type"] == "misconception"
    assert debug["semantic_weight_effective"] == 0.8
    assert debug["fusion"]["weights"]["lexical"] == pytest.approx(0.2)
    assert debug["graph_scoped"] is True and CONSTRUCT in debug["graph_scope"]
    assert set(debug["candidates"]) == {"vector", "lexical", "graph"}
    for pair, value in debug["source_agreement"].items():
        assert 0.0 <= value <= 1.0, pair


def test_without_debug_the_block_is_null_but_provenance_stays(retriever) -> None:  # type: ignore[no-untyped-def]
    packet = _retrieve(retriever, query="ratio tables")
    assert packet.debug is None
    assert packet.reranker.applied is False and packet.degraded_sources == []
    for hit in packet.results:
        assert sum(hit.source_contributions.values()) == pytest.approx(hit.fused_score)
        if "graph" in hit.found_by:
            assert hit.graph_path


def test_semantic_weight_overrides_the_profile(retriever) -> None:  # type: ignore[no-untyped-def]
    packet = _retrieve(
        retriever, query="6.NS.A.1", retrieval_profile="exact", semantic_weight=1.0, debug=True
    )
    assert packet.debug is not None
    assert packet.debug["semantic_weight_effective"] == 1.0
    # With all dense weight, lexical-only hits contribute nothing.
    for hit in packet.results:
        assert hit.source_contributions.get("lexical", 0.0) == 0.0


@pytest.mark.parametrize("fusion", ["rrf", "weighted"])
def test_both_fusions_give_identical_packets_for_identical_requests(retriever, fusion: str) -> None:  # type: ignore[no-untyped-def]
    fields = {"query": "what is a unit rate?", "fusion": fusion, "concept_ids": ["ccss:6.RP.A.2"]}
    one, two = _retrieve(retriever, **fields), _retrieve(retriever, **fields)
    assert one.model_dump(exclude={"timings_ms"}) == two.model_dump(exclude={"timings_ms"})
    # One scale but for the best lesson, placed second when no teaching led (`with_teaching`).
    lesson = one.lessons[0].id if one.lessons else None
    scores = [h.score for h in one.results if not (h.rank == 2 and h.id == lesson)]
    assert scores == sorted(scores, reverse=True)


def test_prerequisite_questions_walk_two_hops(retriever) -> None:  # type: ignore[no-untyped-def]
    packet = _retrieve(
        retriever,
        query="what should students know before this standard?",
        concept_ids=["ccss:6.RP.A.3.c"],
        debug=True,
    )
    assert packet.debug is not None and packet.debug["query_type"] == "prerequisite"
    assert packet.graph_context.prerequisites
    paths = packet.graph_context.prerequisites
    # The real progression 6.RP.A.1 -> 6.RP.A.2 -> 6.RP.A.3.c, two hops with its path.
    assert ["ccss:6.RP.A.1", "ccss:6.RP.A.2", "ccss:6.RP.A.3.c"] in paths
    assert {len(p) for p in paths} <= {2, 3}
    assert packet.graph_context.misconceptions == []  # not this query type's search


@pytest.mark.parametrize(("hops", "lengths"), [(0, set()), (1, {2}), (2, {2, 3})])
def test_a_request_can_fix_the_prerequisite_hops(retriever, hops: int, lengths: set[int]) -> None:  # type: ignore[no-untyped-def]
    packet = _retrieve(
        retriever,
        query="what should students know before this standard?",
        concept_ids=["ccss:6.RP.A.3.c"],
        prerequisite_hops=hops,
        debug=True,
    )
    assert packet.debug is not None and packet.debug["query_type"] == "prerequisite"
    assert packet.debug["graph_plan"]["prerequisite_depth"] == hops
    assert {len(p) for p in packet.graph_context.prerequisites} == lengths


@pytest.mark.parametrize("budget", [40, 80, 200, 1500])
def test_context_is_grouped_tagged_and_within_the_token_budget(
    retriever, embedder, budget: int
) -> None:  # type: ignore[no-untyped-def]
    packet = _retrieve(
        retriever,
        query="factorise x^2 + 5x + 6",
        concept_ids=[CONSTRUCT],
        max_context_tokens=budget,
    )
    assert packet.context
    assert embedder.count_tokens(packet.context) <= budget
    # What the packet knows comes first, in at most half the budget (issue 62, part 5).
    assert packet.context.startswith("## About this message\nTopic: Common Core ")
    # Best first, lessons and results alternating (teaching first, issue 47).
    order = teaching_first(packet.lessons, packet.results)
    tagged = [h.id for h in order if f"[{h.id}]" in packet.context]
    assert not tagged or tagged[0] == order[0].id
    if budget >= 80:  # 40 tokens hold the topic, and no item's shortest cut after it
        assert tagged


def test_zero_context_budget_gives_an_empty_context(retriever) -> None:  # type: ignore[no-untyped-def]
    assert _retrieve(retriever, query="ratio", max_context_tokens=0).context == ""


def test_query_file_prints_one_packet_per_line_and_reports_bad_lines(
    cli_with_loaded_model: CliRunner, session_index: tuple[Path, object], tmp_path: Path
) -> None:
    requests = tmp_path / "requests.jsonl"
    requests.write_text(
        "\n".join(
            [
                json.dumps({"query": "what is a ratio?"}),
                json.dumps({"query": "6.NS.A.1", "retrieval_profile": "exact", "n_results": 3}),
                json.dumps({"query": "x", "semantic_weight": 1.5}),
                "not json",
            ]
        )
        + "\n"
    )
    result = cli_with_loaded_model.invoke(
        app, ["query", "--file", str(requests), "--index-dir", str(session_index[0])]
    )
    assert result.exit_code == 1
    packets = [json.loads(line) for line in result.stdout.splitlines()]
    assert [p["query"] for p in packets] == ["what is a ratio?", "6.NS.A.1"]
    assert len(packets[1]["results"]) == 3
    assert f"{requests}:3: semantic_weight" in result.stderr
    assert f"{requests}:4:" in result.stderr


def test_query_cli_flags_reach_the_request(
    cli_with_loaded_model: CliRunner, session_index: tuple[Path, object]
) -> None:
    result = cli_with_loaded_model.invoke(
        app,
        [
            "query",
            "what is a ratio?",
            "--profile",
            "balanced",
            "--fusion",
            "weighted",
            "--sources",
            "vector,graph",
            "--no-graph-scope",
            "--debug",
            "--json",
            "--index-dir",
            str(session_index[0]),
        ],
    )
    assert result.exit_code == 0, result.stderr
    packet = json.loads(result.stdout)
    assert packet["debug"]["retrieval_profile_effective"] == "balanced"
    assert packet["debug"]["fusion"]["method"] == "weighted"
    assert packet["debug"]["graph_scoped"] is False
    assert packet["lexical_count"] == 0
    assert all("lexical" not in h["found_by"] for h in packet["results"])


def test_query_cli_rejects_an_out_of_range_semantic_weight(
    cli_with_loaded_model: CliRunner, session_index: tuple[Path, object]
) -> None:
    result = cli_with_loaded_model.invoke(
        app,
        ["query", "ratio", "--semantic-weight", "1.5", "--index-dir", str(session_index[0])],
    )
    assert result.exit_code == 2
    assert "semantic_weight" in result.stderr and "less than or equal to 1" in result.stderr
