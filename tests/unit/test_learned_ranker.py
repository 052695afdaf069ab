"""The learned ranker's parts together: proposals, feature rows, save and load."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from tutorgraph.errors import ConfigurationError
from tutorgraph.ranking.adapter import QueryAdapter
from tutorgraph.ranking.combiner import Combiner, CombinerConfig, TrainingGroup
from tutorgraph.ranking.examples import ExampleMemory
from tutorgraph.ranking.model import FEATURES, CandidateSignals, LearnedRanker
from tutorgraph.ranking.prior import LabelledExample, LinkPrior

pytestmark = pytest.mark.unit

TARGETS = [f"m{i}" for i in range(6)]


def ranker(with_combiner: bool = True) -> LearnedRanker:
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(6, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    examples = [LabelledExample(f"q{i}", TARGETS[i % 3], ("c1",)) for i in range(6)]
    base = LearnedRanker(
        prior=LinkPrior.build(examples, {"c1": ["s1"]}),
        examples=ExampleMemory(
            vectors[[0, 1, 2, 0, 1, 2]], [e.target for e in examples], [e.group for e in examples]
        ),
        adapter=QueryAdapter(np.eye(8, dtype=np.float32)),
        target_ids=TARGETS,
        target_vectors=vectors,
        combiner=None,
        info={"embedder": "toy"},
    )
    if not with_combiner:
        return base
    groups = []
    for n in range(40):
        target = TARGETS[n % 6]
        rows = base.features(vectors[n % 6], ["c1"], [CandidateSignals(t) for t in TARGETS])
        groups.append(TrainingGroup(rows, [int(t == target) for t in TARGETS]))
    return base.with_combiner(Combiner.fit(groups, FEATURES, CombinerConfig(n_estimators=10)))


def test_rows_follow_features_and_missing_signals_are_nan() -> None:
    r = ranker(with_combiner=False)
    q = r.target_vectors[4]
    rows = r.features(
        q,
        ["c1"],
        [CandidateSignals("m4", {"vector": 2}, {"vector": 0.8}, 0.1), CandidateSignals("unknown")],
    )
    assert all(len(row) == len(FEATURES) for row in rows)
    row = dict(zip(FEATURES, rows[0], strict=True))
    assert row["vector_rrank"] == 0.5 and row["graph_rrank"] == 0.0
    assert math.isnan(row["lexical_score"]) and math.isnan(row["rerank_score"])
    assert row["cosine"] == pytest.approx(1.0, abs=1e-5)
    assert math.isnan(dict(zip(FEATURES, rows[1], strict=True))["adapter_sim"])


def test_proposals_hold_the_adapters_best_and_the_linked_targets() -> None:
    r = ranker(with_combiner=False)
    proposed = r.propose(r.target_vectors[5], ["c1"], k=3)
    assert proposed[0] == "m5"  # the adapter's best first
    assert {"m0", "m1", "m2"} <= set(proposed)  # every target linked to c1
    assert len(proposed) == len(set(proposed))


def test_save_and_load_give_the_same_scores(tmp_path: Path) -> None:
    r = ranker()
    r.save(tmp_path)
    again = LearnedRanker.load(tmp_path)
    assert again.embedder == "toy"
    signals = [CandidateSignals(t) for t in TARGETS]
    q = r.target_vectors[1]
    assert r.combiner is not None and again.combiner is not None
    a = r.combiner.score(r.features(q, ["c1"], signals))
    b = again.combiner.score(again.features(q, ["c1"], signals))
    assert np.allclose(a, b, atol=1e-2)  # the vectors are stored as fp16


def test_a_missing_directory_is_a_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError):
        LearnedRanker.load(tmp_path / "nothing")
