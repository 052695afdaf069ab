"""The lexical index's query weights (issue 47, "noise must not decide matches"): a number
in a query can count less than a word. Real bm25s over a few items."""

from __future__ import annotations

import pytest

import tutorgraph.stores.tokenize as tokenize_module
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.protocols import IndexItem
from tutorgraph.stores.tokenize import query_weights

pytestmark = pytest.mark.unit

ITEMS = [
    IndexItem("sys", "exercise", "Systems", "Solve 3x + 2y = 11 for y."),
    IndexItem("lin", "explanation", "Linear equations", "To solve a linear equation in x, undo."),
    IndexItem("frac", "exercise", "Fractions", "Add the fractions and simplify."),
    IndexItem("eleven", "exercise", "Counting", "Count to 11 and 11 again."),
]


def test_numbers_weigh_number_weight_and_words_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokenize_module, "NUMBER_WEIGHT", 0.25)
    assert query_weights(["solve", "11", "2.5", "x", "/"]) == [1.0, 0.25, 0.25, 1.0, 1.0]


def test_the_weighted_score_is_bm25s_score_when_every_weight_is_one() -> None:
    index = BM25Index.build(ITEMS)
    tokens = ["solve", "linear", "11", "11"]
    plain = dict(index._weighted_top(tokens, [1.0] * 4, len(ITEMS)))
    docs, scores = index._retriever.retrieve([tokens], k=len(ITEMS), show_progress=False)
    assert plain == pytest.approx(
        {int(d): float(s) for d, s in zip(docs[0], scores[0], strict=True)}
    )


def test_a_down_weighted_number_no_longer_decides_the_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    index = BM25Index.build(ITEMS)
    query = "how do I solve a linear equation 11"
    shipped = [h.item.id for h in index.search_sync(query, 4)]
    monkeypatch.setattr(tokenize_module, "NUMBER_WEIGHT", 0.0)
    weighted = index.search_sync(query, 4)
    assert [h.item.id for h in weighted][:1] == ["lin"]
    assert "eleven" not in [h.item.id for h in weighted]  # matched on the number alone
    assert "eleven" in shipped  # the shipped weight (1.0) still matches it
    scores = [h.score for h in weighted]
    assert scores == sorted(scores, reverse=True) and all(s > 0 for s in scores)
