"""The training gates: a collapsed reranker is refused, a learning one passes; the embedder's
gates share the record and the refusal."""

from __future__ import annotations

import math

import pytest

from tutorgraph.training.gates import (
    MIN_SPREAD,
    EmbedderGates,
    GateReport,
    TrainingRefused,
    average_precision,
    base_rate_loss,
)

pytestmark = pytest.mark.unit


def test_base_rate_loss_is_the_best_constant_predictions_loss() -> None:
    # Unweighted, one positive in five: the entropy of 0.2.
    assert base_rate_loss(0.2) == pytest.approx(-(0.2 * math.log(0.2) + 0.8 * math.log(0.8)))
    # Positives weighted by the negatives per positive: the constant is 0.5.
    assert base_rate_loss(0.2, 4.0) == pytest.approx(2 * 0.8 * math.log(2))
    with pytest.raises(ValueError):
        base_rate_loss(1.0)


def test_the_first_releases_collapse_is_refused_on_every_gate() -> None:
    # Scores within 0.003 of each other, the positive not on top, the loss at the base rate.
    scores = [[0.2027, 0.2035, 0.2030, 0.2031]] * 10
    report = GateReport.measure(0.492, base_rate_loss(0.2), scores, [2] * 10)
    assert not report.passed
    assert len(report.reasons) == 3
    assert report.spread < MIN_SPREAD
    assert report.inner_map == pytest.approx(0.25) and report.first_stage_map == 0.5
    error = TrainingRefused(report)
    assert "training refused" in error.message and error.report is report


def test_a_model_that_learnt_passes() -> None:
    scores = [[2.0, -1.0, 0.5, -0.3]] * 5 + [[0.1, 0.9, -1.0, -2.0]] * 5
    report = GateReport.measure(0.2, base_rate_loss(0.2, 4.0), scores, [3] * 10)
    assert report.passed, report.reasons
    assert report.inner_map == pytest.approx(0.75)
    record = report.to_json()
    assert record["passed"] is True and record["reasons"] == []
    assert list(record)[-4:] == ["loss_margin", "min_spread", "passed", "reasons"]


def test_the_embedders_gates_share_the_record_and_the_refusal() -> None:
    worse = EmbedderGates(base_loss=1.0, loss=1.2, base_map=0.3, map=0.25, held_out=7)
    assert not worse.passed and len(worse.reasons) == 2
    error = TrainingRefused(worse, "embedder")
    assert error.message.startswith("training refused to write the embedder: held-out loss")
    assert error.report is worse
    better = EmbedderGates(base_loss=1.0, loss=0.81234567, base_map=0.3, map=0.4, held_out=7)
    record = better.to_json()
    assert list(record) == ["base_loss", "loss", "base_map", "map", "held_out", "passed", "reasons"]
    assert record["loss"] == 0.81235 and record["passed"] is True


def test_average_precision_counts_only_the_top_25() -> None:
    assert average_precision(1) == 1.0
    assert average_precision(4) == 0.25
    assert average_precision(26) == 0.0
