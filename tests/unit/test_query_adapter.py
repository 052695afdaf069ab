"""The query adapter learns a map that the identity lacks, and round-trips through a file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tutorgraph.errors import ConfigurationError
from tutorgraph.ranking.adapter import AdapterConfig, QueryAdapter

pytestmark = pytest.mark.unit


def unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def toy(seed: int = 0) -> tuple[np.ndarray, list[int], np.ndarray]:
    """Queries that sit near a fixed permutation of their target's vector, not near it."""
    rng = np.random.default_rng(seed)
    targets = unit(rng.normal(size=(20, 16)))
    labels = [i % 20 for i in range(200)]
    perm = rng.permutation(16)
    queries = unit(targets[labels][:, perm] + 0.3 * rng.normal(size=(200, 16)))
    return queries, labels, targets


def accuracy(scores: np.ndarray, labels: list[int]) -> float:
    return float(np.mean(scores.argmax(axis=1) == np.array(labels)))


def test_the_adapter_learns_what_the_zero_shot_cosine_misses() -> None:
    queries, labels, targets = toy()
    adapter = QueryAdapter.fit(
        queries, labels, targets, AdapterConfig(steps=200, learning_rate=0.01)
    )
    test_q, test_labels, _ = toy(seed=0)
    assert accuracy(test_q @ targets.T, test_labels) < 0.3
    assert accuracy(adapter.similarities(test_q, targets), test_labels) > 0.9


def test_a_strong_identity_pull_keeps_the_zero_shot_order() -> None:
    queries, labels, targets = toy()
    adapter = QueryAdapter.fit(queries, labels, targets, AdapterConfig(steps=50, identity_l2=1e3))
    assert np.allclose(adapter.weights, np.eye(16), atol=1e-2)


def test_save_and_load(tmp_path: Path) -> None:
    queries, labels, targets = toy()
    adapter = QueryAdapter.fit(queries, labels, targets, AdapterConfig(steps=5))
    adapter.save(tmp_path / "adapter.npy")
    again = QueryAdapter.load(tmp_path / "adapter.npy")
    assert again.config == adapter.config
    assert np.array_equal(
        again.similarities(queries, targets), adapter.similarities(queries, targets)
    )


def test_bad_shapes_are_refused() -> None:
    queries, labels, targets = toy()
    with pytest.raises(ConfigurationError):
        QueryAdapter.fit(queries, labels[:-1], targets)
    with pytest.raises(ConfigurationError):
        QueryAdapter(np.eye(16, dtype=np.float32)).transform(np.ones((1, 8), dtype=np.float32))
