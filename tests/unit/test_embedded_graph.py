"""The embedded graph store on the real slices: prerequisites, misconceptions, concept search."""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import pytest

from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.embedded_graph import EmbeddedGraphStore
from tutorgraph.stores.protocols import PrerequisitePath

pytestmark = pytest.mark.unit

TRAIN = Path(__file__).resolve().parents[1] / "data" / "eedi" / "train.csv"
BT = "builds_towards"
RT = "relates_to"


@pytest.fixture(scope="module")
def graph(full_slice_records: SourceRecords) -> EmbeddedGraphStore:
    return EmbeddedGraphStore(full_slice_records)


def _labels_by_construct() -> dict[str, set[str]]:
    """construct id -> misconceptions its questions' wrong answers reveal, read from the CSV."""
    out: dict[str, set[str]] = defaultdict(set)
    with TRAIN.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            for letter in "ABCD":
                mid = row[f"Misconception{letter}Id"].strip()
                if mid and letter != row["CorrectAnswer"]:
                    out[f"eedi:construct:{row['ConstructId']}"].add(
                        f"eedi:misconception:{int(float(mid))}"
                    )
    return out


async def test_prerequisite_chain_depth_1(graph: EmbeddedGraphStore) -> None:
    # Progressions: 6.RP.A.2 -> 6.RP.A.3.b and 6.RP.A.3.a -> 6.RP.A.3.b (buildsTowards).
    assert await graph.prerequisite_chains(["ccss:6.RP.A.3.b"], depth=1) == [
        PrerequisitePath(("ccss:6.RP.A.2", "ccss:6.RP.A.3.b"), (BT,)),
        PrerequisitePath(("ccss:6.RP.A.3.a", "ccss:6.RP.A.3.b"), (BT,)),
    ]


async def test_prerequisite_chain_depth_2_keeps_the_paths(graph: EmbeddedGraphStore) -> None:
    # 6.RP.A.1 builds towards both 6.RP.A.2 and 6.RP.A.3.a: two distinct two-hop paths.
    paths = await graph.prerequisite_chains(["ccss:6.RP.A.3.b"], depth=2)
    assert paths == [
        PrerequisitePath(("ccss:6.RP.A.2", "ccss:6.RP.A.3.b"), (BT,)),
        PrerequisitePath(("ccss:6.RP.A.3.a", "ccss:6.RP.A.3.b"), (BT,)),
        PrerequisitePath(("ccss:6.RP.A.1", "ccss:6.RP.A.2", "ccss:6.RP.A.3.b"), (BT, BT)),
        PrerequisitePath(("ccss:6.RP.A.1", "ccss:6.RP.A.3.a", "ccss:6.RP.A.3.b"), (BT, BT)),
    ]
    assert [p.depth for p in paths] == [1, 1, 2, 2]
    assert all(p.path[-1] == "ccss:6.RP.A.3.b" for p in paths)


async def test_prerequisite_chains_do_not_loop_on_relates_to_cycles(
    graph: EmbeddedGraphStore,
) -> None:
    # 6.NS.C.6.b and 6.NS.C.6.c relate to each other (both directions).
    paths = await graph.prerequisite_chains(["ccss:6.NS.C.6.b"], depth=2)
    assert [(p.path, p.relations) for p in paths] == [
        (("ccss:6.NS.C.6.a", "ccss:6.NS.C.6.b"), (BT,)),
        (("ccss:6.NS.C.6.c", "ccss:6.NS.C.6.b"), (RT,)),
        (("ccss:6.NS.C.5", "ccss:6.NS.C.6.a", "ccss:6.NS.C.6.b"), (BT, BT)),
        (("ccss:6.NS.C.6.a", "ccss:6.NS.C.6.c", "ccss:6.NS.C.6.b"), (BT, RT)),
    ]
    for p in paths:
        assert len(set(p.path)) == len(p.path)


async def test_prerequisite_chains_bounds_and_unknown_ids(graph: EmbeddedGraphStore) -> None:
    assert await graph.prerequisite_chains(["ccss:6.RP.A.1"], depth=2) == []  # a root
    assert await graph.prerequisite_chains(["ccss:9.ZZ.Z.9"], depth=1) == []
    for depth in (0, 3):
        with pytest.raises(ValueError, match=r"depth must be 1\.\.2"):
            await graph.prerequisite_chains(["ccss:6.RP.A.3.b"], depth=depth)


async def test_misconceptions_of_match_the_labels_in_train_csv(graph: EmbeddedGraphStore) -> None:
    labels = _labels_by_construct()
    got = await graph.misconceptions_of(["eedi:construct:1428"])
    ids = [link.misconception.id for link in got]
    assert set(ids) == labels["eedi:construct:1428"]
    assert {"eedi:misconception:2142", "eedi:misconception:2068"} <= set(ids)
    assert all(link.concept_id == "eedi:construct:1428" for link in got)
    assert ids == sorted(ids)
    assert all(link.relevance == 0.0 for link in got)  # no query, no relevance

    # 1535 is revealed under two constructs: listed once per construct asked for.
    both = await graph.misconceptions_of(["eedi:construct:1614", "eedi:construct:1428"])
    assert [
        (link.misconception.id, link.concept_id)
        for link in both
        if link.misconception.id == "eedi:misconception:1535"
    ] == [
        ("eedi:misconception:1535", "eedi:construct:1428"),
        ("eedi:misconception:1535", "eedi:construct:1614"),
    ]
    assert len(both) == len(labels["eedi:construct:1428"]) + len(labels["eedi:construct:1614"])
    assert await graph.misconceptions_of(["ccss:6.NS.A.1", "nope:x"]) == []


async def test_misconceptions_of_scores_relevance_to_the_query(
    graph: EmbeddedGraphStore,
) -> None:
    links = await graph.misconceptions_of(
        ["eedi:construct:1428"], "factorise: two numbers that multiply and add"
    )
    rel = {link.misconception.id: link.relevance for link in links}
    assert set(rel) == _labels_by_construct()["eedi:construct:1428"]
    # 2142 ("... find two numbers that add to give ... and multiply to give ...") matches best;
    # 2068 has the same text, so the same relevance.
    best = max(rel.values())
    assert best > 0
    assert rel["eedi:misconception:2142"] == rel["eedi:misconception:2068"] == best


async def test_search_concepts_exact_standard_code_ranks_first(graph: EmbeddedGraphStore) -> None:
    matches = await graph.search_concepts("How do I solve 6.NS.A.1 word problems with ratios?", 5)
    assert matches[0].concept.id == "ccss:6.NS.A.1"
    assert matches[0].score == 1.0
    assert all(m.score <= 1.0 for m in matches)
    # The code wins even against a query whose words describe another standard.
    matches = await graph.search_concepts(
        "unit rate a/b associated with a ratio a:b (6.NS.C.7.d)", 3
    )
    assert matches[0].concept.id == "ccss:6.NS.C.7.d"
    assert "ccss:6.RP.A.2" in [m.concept.id for m in matches]
    lower = await graph.search_concepts("hsf-if.b.6", 1)
    assert [m.concept.id for m in lower] == ["ccss:HSF-IF.B.6"]


async def test_search_concepts_by_text(graph: EmbeddedGraphStore) -> None:
    matches = await graph.search_concepts("factorise a quadratic expression", 3)
    assert matches[0].concept.id == "eedi:construct:1428"
    assert matches[0].score == 1.0
    assert [m.score for m in matches] == sorted((m.score for m in matches), reverse=True)


async def test_get_and_unknown_concepts(graph: EmbeddedGraphStore) -> None:
    got = await graph.get_concepts(["ccss:6.NS.A.1", "nope:1", "eedi:construct:1428"])
    assert [c.id for c in got] == ["ccss:6.NS.A.1", "eedi:construct:1428"]
    assert await graph.unknown_concepts(["ccss:6.NS.A.1", "nope:1", "eedi:misconception:2142"]) == [
        "nope:1",
        "eedi:misconception:2142",  # a misconception is not a concept
    ]
