"""Every item's BM25 score at once: the scores a top-k search ranks, zeros for the rest."""

from __future__ import annotations

import numpy as np
import pytest

from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.protocols import IndexItem

pytestmark = pytest.mark.unit

ITEMS = [
    IndexItem("a", "concept", "", "add fractions with unlike denominators"),
    IndexItem("b", "concept", "", "multiply fractions by whole numbers"),
    IndexItem("c", "concept", "", "area of a rectangle"),
    IndexItem("d", "concept", "", "equivalent fractions"),
]


def test_score_all_gives_each_item_its_search_score_in_item_order() -> None:
    index = BM25Index.build(ITEMS)
    scores = index.score_all("adding fractions")
    assert scores.dtype == np.float32 and len(scores) == len(ITEMS)
    found = {h.item.id: h.score for h in index.search_sync("adding fractions", len(ITEMS))}
    assert found and "c" not in found
    for item, score in zip(ITEMS, scores, strict=True):
        assert score == pytest.approx(found.get(item.id, 0.0), abs=1e-6)


def test_a_query_of_unknown_words_scores_nothing() -> None:
    assert not BM25Index.build(ITEMS).score_all("zebra quokka").any()
