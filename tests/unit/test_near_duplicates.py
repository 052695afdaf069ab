"""The near-duplicate merge's rules, on hand-made hits and vectors (logic only; the real
store and index are exercised in tests/integration/test_near_duplicates_index.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tutorgraph.retrieval.near_duplicates import merge_near_duplicates
from tutorgraph_client.models.packet import Hit, HitKind, HitSource

pytestmark = pytest.mark.unit


def _hit(id_: str, kind: HitKind = "exercise", found_by: list[HitSource] | None = None) -> Hit:
    return Hit(
        id=id_,
        ids=[id_],
        kind=kind,
        text=id_,
        score=1.0,
        rank=0,
        found_by=found_by or ["vector"],
        fused_score=1.0,
    )


def _vec(*xs: float) -> np.ndarray:
    return np.asarray(xs, dtype=np.float32)


def test_a_near_duplicate_folds_into_the_better_hit_with_its_ids_and_sources() -> None:
    hits = [_hit("a"), _hit("b", found_by=["lexical"]), _hit("c")]
    # b is a near-copy of a (cosine 0.99); c is not (cosine 0).
    vectors = {"a": _vec(1, 0), "b": _vec(0.99, 0.141), "c": _vec(0, 1)}
    kept, folded = merge_near_duplicates(hits, vectors, 0.85)
    assert [h.id for h in kept] == ["a", "c"] and folded == 1
    a = kept[0]
    assert a.ids == ["a", "b"]
    assert a.corroborated_by is not None
    assert a.corroborated_by.sources == ["vector", "lexical"]
    dup = a.corroborated_by.near_duplicates[0]
    assert (dup.id, dup.found_by) == ("b", ["lexical"]) and dup.similarity == pytest.approx(
        0.99, abs=1e-3
    )
    assert kept[1].corroborated_by is None


def test_the_threshold_decides_and_vectors_need_not_be_unit_length() -> None:
    hits = [_hit("a"), _hit("b")]
    vectors = {"a": _vec(2, 0), "b": _vec(3, 3)}  # cosine 0.707
    assert len(merge_near_duplicates(hits, vectors, 0.7)[0]) == 1
    assert len(merge_near_duplicates([_hit("a"), _hit("b")], vectors, 0.75)[0]) == 2


def test_labels_and_other_kinds_never_merge() -> None:
    same = {"a": _vec(1, 0), "b": _vec(1, 0)}
    for kind in ("misconception", "concept"):
        kept, folded = merge_near_duplicates([_hit("a", kind), _hit("b", kind)], same, 0.85)
        assert folded == 0 and len(kept) == 2
    kept, _ = merge_near_duplicates([_hit("a", "exercise"), _hit("b", "explanation")], same, 0.85)
    assert len(kept) == 2


def test_a_hit_without_a_vector_is_kept_as_it_is() -> None:
    kept, folded = merge_near_duplicates([_hit("a"), _hit("b")], {"a": _vec(1, 0)}, 0.85)
    assert [h.id for h in kept] == ["a", "b"] and folded == 0


def test_a_duplicate_joins_the_most_similar_kept_hit() -> None:
    hits = [_hit("a"), _hit("b"), _hit("c")]
    vectors = {"a": _vec(1, 0), "b": _vec(0, 1), "c": _vec(0.5, 0.866)}  # c: 0.5 to a, 0.87 to b
    kept, _ = merge_near_duplicates(hits, vectors, 0.85)
    assert [h.ids for h in kept] == [["a"], ["b", "c"]]
