"""RRF by hand, weighted fusion with min-max normalisation, best-scoring copies, ties."""

from __future__ import annotations

import pytest

from tutorgraph.retrieval.candidates import Candidate
from tutorgraph.retrieval.fusion import GRAPH_WEIGHT, fuse, source_weights
from tutorgraph.retrieval.merge import merge_candidates
from tutorgraph.stores.protocols import IndexItem

pytestmark = pytest.mark.unit


def cand(id_: str, text: str, rank: int, score: float) -> Candidate:
    return Candidate(IndexItem(id=id_, kind="explanation", title="", text=text), score, rank)


def test_rrf_matches_a_hand_computed_example_with_an_item_in_several_lists() -> None:
    merged = merge_candidates(
        {
            "vector": [cand("a", "alpha", 1, 0.9), cand("b", "beta", 2, 0.8)],
            "lexical": [cand("b", "beta", 1, 7.0), cand("c", "gamma", 2, 3.0)],
            "graph": [cand("a", "alpha", 3, 1.0)],
        }
    )
    weights = {"vector": 0.5, "lexical": 0.5, "graph": 0.5}
    fused = {f.hit.best.item.id: f for f in fuse(merged, weights, "rrf")}
    # a: 0.5/61 (vector rank 1) + 0.5/63 (graph rank 3); b: 0.5/62 + 0.5/61; c: 0.5/62
    assert fused["a"].score == pytest.approx(0.5 / 61 + 0.5 / 63)
    assert fused["b"].score == pytest.approx(0.5 / 62 + 0.5 / 61)
    assert fused["c"].score == pytest.approx(0.5 / 62)
    assert fused["b"].contributions == pytest.approx({"vector": 0.5 / 62, "lexical": 0.5 / 61})
    order = [f.hit.best.item.id for f in fuse(merged, weights, "rrf")]
    assert order == ["b", "a", "c"]


def test_weighted_fusion_normalises_each_source_then_weighs() -> None:
    merged = merge_candidates(
        {
            "vector": [cand("a", "alpha", 1, 0.9), cand("b", "beta", 2, 0.5)],
            "lexical": [cand("b", "beta", 1, 12.0), cand("c", "gamma", 2, 4.0)],
        }
    )
    w = 0.7
    fused = {f.hit.best.item.id: f for f in fuse(merged, source_weights(w), "weighted")}
    # vector: a -> 1, b -> 0; lexical: b -> 1, c -> 0
    assert fused["a"].score == pytest.approx(w * 1.0)
    assert fused["b"].score == pytest.approx(w * 0.0 + (1 - w) * 1.0)
    assert fused["c"].score == pytest.approx(0.0)
    assert fused["b"].contributions == pytest.approx({"vector": 0.0, "lexical": 1 - w})


def test_weighted_fusion_graph_rule_adds_a_fixed_weight() -> None:
    merged = merge_candidates(
        {
            "vector": [cand("a", "alpha", 1, 0.8), cand("b", "beta", 2, 0.8)],
            "graph": [cand("b", "beta", 1, 1.0)],
        }
    )
    fused = fuse(merged, source_weights(0.5), "weighted")
    # Equal similarity (both normalise to 1); the graph's vote decides.
    assert fused[0].hit.best.item.id == "b"
    assert fused[0].score == pytest.approx(0.5 + GRAPH_WEIGHT)


def test_a_merged_hit_keeps_its_best_scoring_copy() -> None:
    same = "Thinks a fraction with a bigger denominator is bigger"
    merged = merge_candidates(
        {
            "vector": [cand("m:9", same, 1, 0.9), cand("m:1", same, 5, 0.5)],
            "graph": [cand("m:1", same, 9, 1.0)],
        }
    )
    (fused,) = fuse(merged, {"vector": 0.5, "lexical": 0.5, "graph": 0.5}, "rrf")
    # m:9 alone: 0.5/61 = 0.00820; m:1 alone: 0.5/65 + 0.5/69 = 0.01494 -> m:1 is kept
    assert fused.hit.best.item.id == "m:1"
    assert fused.hit.ids == ["m:1", "m:9"]


@pytest.mark.parametrize("method", ["rrf", "weighted"])
def test_ties_break_by_id_and_identical_input_gives_identical_output(method: str) -> None:
    results = {
        "vector": [cand("z", "zeta", 1, 0.5), cand("y", "eta", 1, 0.5)],
        "lexical": [cand("x", "theta", 1, 2.0)],
    }
    weights = {"vector": 0.5, "lexical": 0.5, "graph": 0.5}
    one = fuse(merge_candidates(results), weights, method)  # type: ignore[arg-type]
    two = fuse(merge_candidates(dict(reversed(results.items()))), weights, method)  # type: ignore[arg-type]
    assert [(f.hit.best.item.id, f.score) for f in one] == [
        (f.hit.best.item.id, f.score) for f in two
    ]
    tied = [f.hit.best.item.id for f in one if f.score == one[0].score]
    assert tied == sorted(tied)
