"""Exact search over stored vectors: nearest first, ties by id, whatever the row order."""

from __future__ import annotations

import numpy as np
import pytest

from tutorgraph.stores.exact_vectors import ExactVectors
from tutorgraph.stores.protocols import IndexItem

pytestmark = pytest.mark.unit


def _item(i: str) -> IndexItem:
    return IndexItem(i, "exercise", "", f"text {i}")


def test_the_nearest_come_first_and_ties_break_by_id_in_any_row_order() -> None:
    rows = {"c": [1.0, 0.0], "a": [1.0, 0.0], "b": [0.0, 1.0], "d": [0.6, 0.8]}
    query = np.array([1.0, 0.0], dtype=np.float32)
    orders = [list(rows), list(reversed(rows))]
    found = []
    for order in orders:
        exact = ExactVectors([_item(i) for i in order], np.array([rows[i] for i in order]))
        found.append([(h.item.id, h.score) for h in exact.search(query, 3)])
    assert found[0] == found[1] == [("a", 1.0), ("c", 1.0), ("d", 0.6)]


def test_rows_are_normalised_and_k_is_bounded() -> None:
    exact = ExactVectors([_item("x"), _item("y")], np.array([[3.0, 4.0], [0.0, 2.0]]))
    assert [h.score for h in exact.search(np.array([0.0, 1.0], np.float32), 10)] == [1.0, 0.8]
    assert exact.search(np.array([0.0, 1.0], np.float32), 0) == []


def test_items_and_vectors_must_pair() -> None:
    with pytest.raises(ValueError, match="2 items but 1 vectors"):
        ExactVectors([_item("x"), _item("y")], np.ones((1, 2), np.float32))
