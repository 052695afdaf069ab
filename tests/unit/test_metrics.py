"""Ranking metrics (AP@k, recall@k, MRR, cosine MAP); the Eedi benchmark's misconception
ranking is tested with the research package (research/tests/unit/test_bench_configs.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tutorgraph.ranking.metrics import (
    average_precision_at_k,
    cosine_map_at_k,
    recall_at_k,
    reciprocal_rank,
)

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("ranked", "relevant", "k", "ap"),
    [
        (["m1"], {"m1"}, 25, 1.0),
        (["m3", "m1"], {"m1"}, 25, 0.5),
        (["m3", "m4", "m1"], {"m1"}, 25, 1 / 3),
        (["m3", "m4", "m1"], {"m1"}, 2, 0.0),  # beyond k counts nothing
        ([], {"m1"}, 25, 0.0),
        (["m1"], set(), 25, 0.0),
        # Two relevant: precision at each relevant hit, over min(|relevant|, k).
        (["a", "x", "b"], {"a", "b"}, 25, (1 / 1 + 2 / 3) / 2),
        (["x", "a", "b"], {"a", "b"}, 1, 0.0),
        (["a", "b"], {"a", "b", "c"}, 2, (1 + 1) / 2),
    ],
)
def test_average_precision_at_k(ranked: list[str], relevant: set[str], k: int, ap: float) -> None:
    assert average_precision_at_k(ranked, relevant, k) == pytest.approx(ap)


def test_map_at_25_of_single_target_is_reciprocal_rank_within_25() -> None:
    ranked = [f"m{i}" for i in range(40)]
    for pos in (0, 4, 24, 25, 39):
        target = {f"m{pos}"}
        expected = 1 / (pos + 1) if pos < 25 else 0.0
        assert average_precision_at_k(ranked, target, 25) == pytest.approx(expected)
        assert reciprocal_rank(ranked, target) == pytest.approx(1 / (pos + 1))


@pytest.mark.parametrize(
    ("ranked", "relevant", "k", "recall"),
    [
        (["m3", "m1"], {"m1"}, 1, 0.0),
        (["m3", "m1"], {"m1"}, 2, 1.0),
        (["a", "x", "b"], {"a", "b", "c", "d"}, 3, 0.5),
        (["a", "a"], {"a"}, 25, 1.0),
        (["a"], set(), 25, 0.0),
    ],
)
def test_recall_at_k(ranked: list[str], relevant: set[str], k: int, recall: float) -> None:
    assert recall_at_k(ranked, relevant, k) == pytest.approx(recall)


def test_reciprocal_rank_absent_is_zero() -> None:
    assert reciprocal_rank(["a", "b"], {"z"}) == 0.0
    assert reciprocal_rank([], {"z"}) == 0.0


def test_cosine_map_ranks_every_target_by_its_dot_product() -> None:
    targets = np.eye(3, dtype=np.float32)
    queries = np.array([[0.9, 0.1, 0.0], [0.6, 0.0, 0.4]], dtype=np.float32)
    # The first query's gold is its best target; the second's ("c") comes second.
    assert cosine_map_at_k(queries, targets, ["a", "b", "c"], ["a", "c"]) == pytest.approx(0.75)
    assert cosine_map_at_k(queries, targets, ["a", "b", "c"], ["b", "b"], k=1) == 0.0
