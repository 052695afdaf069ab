"""Two runs' scores of the same items, paired per configuration (the probes' tables)."""

from __future__ import annotations

import pytest

from tutorgraph_research.harness.results import bootstrap_ci, paired_by_config

pytestmark = pytest.mark.unit


def test_each_configuration_pairs_its_own_items() -> None:
    base = {("a", "1"): 0.5, ("a", "2"): 1.0, ("b", "1"): 0.0}
    other = {("a", "1"): 0.5, ("a", "2"): 0.0, ("b", "1"): 1.0, ("c", "1"): 1.0}
    report = paired_by_config(base, other, ["a", "b"], ("before", "after"))
    assert list(report) == ["a", "b"]  # a configuration not asked for is left out
    assert report["a"] == {
        "n": 2,
        "before": 0.75,
        "after": 0.25,
        "diff": -0.5,
        "diff_ci95": list(bootstrap_ci([0.0, -1.0])),
        "pairs_changed": 1,
    }
    assert report["b"]["diff"] == 1.0 and report["b"]["pairs_changed"] == 1
