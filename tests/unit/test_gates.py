"""The reranker's gates: a collapsed model is refused, a learning one passes."""

from __future__ import annotations

import math

import pytest

from tutorgraph.training.gates import (
    MIN_SPREAD,
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


def test_average_precision_counts_only_the_top_25() -> None:
    assert average_precision(1) == 1.0
    assert average_precision(4) == 0.25
    assert average_precision(26) == 0.0
