"""Cross-taxonomy alignment: the similarity edge rule on fixed vectors, and issue 31's
judged sample of its edges (tests/data/alignment_judgments.jsonl, judged by reading both
sides), since replaced in the bundle by the judged alignment (issue 61)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tutorgraph.ingest.bundle import load_trusted
from tutorgraph.linking.alignment import METHODS, alignments
from tutorgraph.linking.cards import ConceptCard

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
JUDGED = ROOT / "tests" / "data" / "alignment_judgments.jsonl"


def _card(cid: str, taxonomy: str) -> ConceptCard:
    return ConceptCard(cid, taxonomy, cid, cid)


def test_edges_need_both_methods_by_default() -> None:
    cards = [
        _card("ccss:a", "common-core"),
        _card("ccss:b", "common-core"),
        _card("eedi:construct:1", "eedi"),  # card and items point at a
        _card("eedi:construct:2", "eedi"),  # card at a, items at b
        _card("openstax:section:m1", "openstax"),  # too far from both
    ]
    vectors = np.array(
        [[1, 0, 0], [0, 1, 0], [0.9, 0.1, 0], [0.95, 0, 0.3], [0, 0, 1]], dtype=np.float32
    )
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    items = {
        "eedi:construct:1": np.array([[1, 0, 0], [0.8, 0.2, 0]], dtype=np.float32),
        "eedi:construct:2": np.array([[0, 1, 0]], dtype=np.float32),
    }
    shipped = alignments(cards, vectors, items)
    assert [(e.prerequisite_id, e.concept_id, e.method) for e in shipped] == [
        ("ccss:a", "eedi:construct:1", "item-and-card-similarity")
    ]
    assert shipped[0].relation == "aligned_with" and shipped[0].score == pytest.approx(
        0.9939, abs=1e-4
    )
    every = alignments(cards, vectors, items, methods=METHODS)
    assert {(e.prerequisite_id, e.concept_id, e.method) for e in every} == {
        ("ccss:a", "eedi:construct:1", "item-and-card-similarity"),
        ("ccss:a", "eedi:construct:2", "card-similarity"),
        ("ccss:b", "eedi:construct:2", "item-similarity"),
    }


def test_the_judged_sample_matches_the_reported_precision_and_gave_way_to_judging() -> None:
    """Issue 31's sample of the similarity edges, as judged then. Since issue 61 the bundle's
    edges of these concepts are judged ones (`judged:*`), which `align-bundle` keeps in place
    of similarity edges: every sampled concept now carries judged edges, or the judges found
    no standard for it."""
    rows = [json.loads(line) for line in JUDGED.read_text().splitlines()]
    assert len(rows) >= 60 and all(isinstance(r["correct"], bool) for r in rows)
    assert all(r["note"] for r in rows if not r["correct"])  # every "wrong" says why
    edges = [
        p
        for p in load_trusted(ROOT / "data" / "curriculum", documents=False).prerequisites
        if p.relation == "aligned_with"
    ]
    assert all((p.method or "").startswith("judged:") for p in edges)
    judged = {p.concept_id for p in edges}
    outside = {
        json.loads(line)["concept_id"]
        for line in (ROOT / "data/teaching/reviews/not_in_common_core.jsonl").open()
    }
    assert {r["concept_id"] for r in rows} <= judged | outside
    reported = json.loads((ROOT / "results" / "alignment_precision.json").read_text())
    for method in METHODS:
        sampled = [r for r in rows if r["method"] == method]
        assert reported[method]["n"] == len(sampled)
        assert reported[method]["correct"] == sum(r["correct"] for r in sampled)
