"""The labelled-example memory: nearest example per target, the soft vote, leaving a group out."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tutorgraph.ranking.examples import ExampleMemory

pytestmark = pytest.mark.unit


def vec(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def memory() -> ExampleMemory:
    vectors = np.stack([vec(1, 0, 0), vec(0.9, 0.1, 0), vec(0, 1, 0), vec(0, 0, 1)])
    return ExampleMemory(vectors, ["m1", "m1", "m2", "m3"], ["q1", "q2", "q3", "q1"])


def test_nearest_example_and_vote() -> None:
    f = memory().features(vec(1, 0, 0), ["m1", "m2", "m3", "unseen"])
    assert f["example_max_sim"][:3] == [1.0, 0.0, 0.0]
    assert f["example_max_sim"][3] == -1.0
    assert f["example_vote"][0] > 0.99
    assert sum(f["example_vote"]) == pytest.approx(1.0, abs=1e-5)
    assert f["example_vote"][3] == 0.0


def test_a_group_left_out_never_votes() -> None:
    f = memory().features(vec(1, 0, 0), ["m1", "m3"], exclude="q1")
    # q1's m1 example (sim 1.0) and its m3 example are gone; q2's m1 example remains
    assert f["example_max_sim"][0] == pytest.approx(float(vec(0.9, 0.1, 0)[0]), abs=1e-5)
    assert f["example_max_sim"][1] == -1.0
    assert f["example_vote"][1] == 0.0


def test_save_and_load(tmp_path: Path) -> None:
    m = memory()
    m.save(tmp_path / "examples.npz")
    again = ExampleMemory.load(tmp_path / "examples.npz")
    q = vec(0.5, 0.5, 0.1)
    # fp16 storage: the same within 1e-3
    a, b = m.features(q, ["m1", "m2", "m3"]), again.features(q, ["m1", "m2", "m3"])
    assert np.allclose(a["example_max_sim"], b["example_max_sim"], atol=1e-3)
    assert again.groups == m.groups and again.targets == m.targets
