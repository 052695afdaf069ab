"""Merge (one hit per content, provenance kept) and RRF fusion, on hand-built candidates."""

from __future__ import annotations

import pytest

from tutorgraph.retrieval.candidates import Candidate
from tutorgraph.retrieval.fusion import RRF_K, fuse, rrf_score
from tutorgraph.retrieval.merge import merge_candidates
from tutorgraph.stores.items import content_hash
from tutorgraph.stores.protocols import IndexItem

pytestmark = pytest.mark.unit

ALL = {"vector": 1.0, "lexical": 1.0, "graph": 1.0}


def cand(
    id_: str,
    text: str,
    rank: int,
    score: float = 1.0,
    *,
    kind: str = "misconception",
    title: str = "",
    path: tuple[str, ...] | None = None,
) -> Candidate:
    item = IndexItem(id=id_, kind=kind, title=title, text=text, concept_ids=())  # type: ignore[arg-type]
    return Candidate(item, score, rank, path)


SAME = "Does not know that to factorise a quadratic, you need two numbers that add to b"


def test_same_text_from_two_sources_and_ids_becomes_one_hit_with_all_provenance() -> None:
    merged = merge_candidates(
        {
            "vector": [cand("eedi:misconception:2068", SAME, 5, 0.71)],
            # Same content up to case and whitespace: normalised before hashing.
            "lexical": [cand("eedi:misconception:2142", "  " + SAME.upper() + "\n", 2, 9.5)],
        }
    )
    assert len(merged) == 1
    hit = merged[0]
    assert hit.ids == ["eedi:misconception:2068", "eedi:misconception:2142"]
    assert hit.found_by == ["vector", "lexical"]
    assert hit.source_ranks == {"vector": 5, "lexical": 2}
    assert hit.source_scores == {"vector": 0.71, "lexical": 9.5}
    assert hit.key == content_hash(SAME)
    # Best copy: the lower rank wins.
    assert hit.best.item.id == "eedi:misconception:2142"


def test_best_copy_ties_break_by_id_whatever_the_input_order() -> None:
    a = cand("eedi:misconception:2142", SAME, 3)
    b = cand("eedi:misconception:2068", SAME, 3)
    one = merge_candidates({"vector": [a], "graph": [b]})
    two = merge_candidates({"vector": [b], "graph": [a]})
    assert one[0].best.item.id == two[0].best.item.id == "eedi:misconception:2068"
    assert one[0].found_by == two[0].found_by == ["vector", "graph"]


def test_duplicates_within_one_source_keep_the_best_rank_and_its_score() -> None:
    hit = merge_candidates(
        {
            "vector": [
                cand("m:1", SAME, 4, 0.8),
                cand("m:2", SAME, 5, 0.8),
                cand("m:3", SAME, 1, 0.9),
            ]
        }
    )[0]
    assert hit.ids == ["m:1", "m:2", "m:3"]
    assert hit.source_ranks == {"vector": 1}
    assert hit.source_scores == {"vector": 0.9}
    assert hit.best.item.id == "m:3"


def test_different_titles_are_different_content() -> None:
    merged = merge_candidates(
        {
            "vector": [
                cand("d:1", "Add the ones first.", 1, kind="explanation", title="Add"),
                cand("d:2", "Add the ones first.", 2, kind="explanation", title="Subtract"),
            ]
        }
    )
    assert len(merged) == 2


def test_shortest_graph_path_is_kept_and_order_is_by_content_key() -> None:
    merged = merge_candidates(
        {
            "vector": [cand("m:1", "alpha", 1), cand("m:2", "beta", 2)],
            "graph": [
                cand("m:1", "alpha", 2, path=("c:3", "c:2", "c:1", "m:1")),
                cand("m:1", "alpha", 3, path=("c:1", "m:1")),
            ],
        }
    )
    by_id = {next(iter(h.ids)): h for h in merged}
    assert by_id["m:1"].graph_path == ("c:1", "m:1")
    assert by_id["m:1"].source_ranks == {"vector": 1, "graph": 2}
    assert by_id["m:2"].graph_path is None
    assert [h.key for h in merged] == sorted(h.key for h in merged)


def test_rrf_arithmetic_k60_one_based_ranks() -> None:
    assert RRF_K == 60
    assert rrf_score({"vector": 1}, ALL) == pytest.approx(1 / 61)
    assert rrf_score({"vector": 1, "lexical": 3}, ALL) == pytest.approx(1 / 61 + 1 / 63)
    assert rrf_score({"vector": 2, "lexical": 1, "graph": 10}, ALL) == pytest.approx(
        1 / 62 + 1 / 61 + 1 / 70
    )
    # Weighted contributions; an unweighted source counts nothing; k is a parameter.
    assert rrf_score({"vector": 1, "graph": 1}, {"vector": 0.5, "graph": 2.0}) == pytest.approx(
        0.5 / 61 + 2.0 / 61
    )
    assert rrf_score({"lexical": 4}, {"vector": 1.0}) == 0.0
    assert rrf_score({"vector": 1}, ALL, k=0) == 1.0


def test_rrf_fusion_orders_by_score_then_id() -> None:
    merged = merge_candidates(
        {
            "vector": [cand("m:b", "bbb", 1), cand("m:a", "aaa", 2), cand("m:c", "ccc", 3)],
            "lexical": [cand("m:a", "aaa", 1), cand("m:b", "bbb", 2)],
        }
    )
    fused = [(f.hit, f.score) for f in fuse(merged, ALL, "rrf")]
    # m:a and m:b both score 1/61 + 1/62: the tie breaks by id.
    assert [(h.best.item.id, round(s, 12)) for h, s in fused] == [
        ("m:a", round(1 / 62 + 1 / 61, 12)),
        ("m:b", round(1 / 61 + 1 / 62, 12)),
        ("m:c", round(1 / 63, 12)),
    ]
    # Same input in another order, same output.
    again = [(f.hit, f.score) for f in fuse(list(reversed(merged)), ALL, "rrf")]
    assert [(h.best.item.id, s) for h, s in again] == [(h.best.item.id, s) for h, s in fused]
