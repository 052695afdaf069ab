"""The diagnosis benchmark's report (`tasks.diagnosis`): coverage and precision per fold and
per bug rule, over the Eedi development questions the rules were written from."""

from __future__ import annotations

import pytest
from tests.unit.test_diagnosis import EEDI_CASES, QUESTIONS

from tutorgraph.ingest.eedi import read_eedi_questions
from tutorgraph_research.tasks.diagnosis import diagnosis_report

pytestmark = pytest.mark.unit


def test_the_report_counts_coverage_and_precision_per_fold_and_rule() -> None:
    questions = read_eedi_questions(QUESTIONS)
    report = diagnosis_report(questions, folds=5)
    pairs = sum(
        1
        for q in questions
        for x, m in q.misconception_ids.items()
        if m is not None and x != q.correct_answer
    )
    assert report["pairs"] == pairs == sum(f["pairs"] for f in report["by_fold"].values())
    assert report["problem_read"] >= len({q for q, _, _ in EEDI_CASES})
    assert report["held_out"]["pairs"] == pairs  # nothing excluded
    every = {q.question_id for q in questions}
    assert diagnosis_report(questions, read=every)["held_out"]["pairs"] == 0
    ms = report["ms_per_pair"]
    assert 0 < ms["p50"] <= ms["p95"] <= ms["max"]
    # Every labelled case of EEDI_CASES fires and names its label.
    assert report["fired"] >= len({(q, x) for q, x, _ in EEDI_CASES})
    assert report["coverage"] == round(report["fired"] / pairs, 4)
    by_rule = report["by_rule"]
    assert sum(r["fired"] for r in by_rule.values()) == report["findings"]
    assert report["precision"] == round(
        sum(r["right"] for r in by_rule.values()) / report["findings"], 4
    )
    assert by_rule["fraction_add_across"]["precision"] == 1.0
