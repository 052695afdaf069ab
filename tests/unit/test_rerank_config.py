"""Reranker options and query truncation (no models); the benchmark's rerank config names
are tested with the research package (research/tests/unit/test_bench_configs.py)."""

from __future__ import annotations

import pytest

from tutorgraph.embedding.reranker import RerankerOptions, _head_tail
from tutorgraph.errors import ConfigurationError
from tutorgraph.training.cross_encoder import TrainingConfig

pytestmark = pytest.mark.unit


def test_head_tail_keeps_both_ends() -> None:
    assert _head_tail(list(range(10)), 4) == [0, 1, 8, 9]
    assert _head_tail(list(range(10)), 5) == [0, 1, 2, 8, 9]
    assert _head_tail([1, 2], 4) == [1, 2]


@pytest.mark.parametrize(
    "kw",
    [
        {"max_length": 8},
        {"max_length": 1024},
        {"max_length": 64, "query_max_tokens": 64},
        {"batch_size": 0},
        {"cache_size": -1},
    ],
)
def test_bad_reranker_options_are_refused(kw: dict[str, int]) -> None:
    with pytest.raises(ConfigurationError):
        RerankerOptions(**kw)


@pytest.mark.parametrize(
    "kw",
    [{"epochs": 0}, {"negatives": 0, "random_negatives": 0}, {"layers": 0}, {"batch_size": 1}],
)
def test_bad_training_configs_are_refused(kw: dict[str, float]) -> None:
    with pytest.raises(ConfigurationError):
        TrainingConfig(**kw)  # type: ignore[arg-type]
