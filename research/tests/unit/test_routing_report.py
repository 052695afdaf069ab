"""The routing benchmark's report (`tasks.routing`): confusion matrices over the labelled
routing queries, each query counted once; a malformed line is named by file and line."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.fixtures import DATA

from tutorgraph.errors import ConfigurationError
from tutorgraph_research.tasks.routing import evaluate_routing

pytestmark = pytest.mark.unit


def test_routing_report_counts_every_query_once(tmp_path: Path) -> None:
    report = evaluate_routing(DATA / "routing_queries.jsonl")
    n = report["n"]
    assert n == sum(sum(row) for row in report["profile"]["confusion"])
    assert n == sum(sum(row) for row in report["query_type"]["confusion"])
    assert report["profile"]["accuracy"] >= 0.90
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"query": "x"}\n')
    with pytest.raises(ConfigurationError, match=r"bad\.jsonl:1"):
        evaluate_routing(bad)
