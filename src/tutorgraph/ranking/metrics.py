"""Ranking metrics for single-target retrieval tasks.

>>> average_precision_at_k(["m3", "m1"], {"m1"}, k=25)
0.5
>>> recall_at_k(["m3", "m1"], {"m1"}, k=1)
0.0
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["average_precision_at_k", "recall_at_k", "reciprocal_rank"]


def average_precision_at_k(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    """AP@k as in the Eedi competition (MAP@25): precision at each relevant hit, / min(|rel|, k)."""
    if not relevant:
        return 0.0
    hits = 0
    total = 0.0
    for i, item in enumerate(ranked[:k], start=1):
        if item in relevant:
            hits += 1
            total += hits / i
    return total / min(len(relevant), k)


def recall_at_k(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    if not relevant:
        return 0.0
    return len(set(ranked[:k]) & relevant) / len(relevant)


def reciprocal_rank(ranked: Sequence[str], relevant: set[str]) -> float:
    for i, item in enumerate(ranked, start=1):
        if item in relevant:
            return 1.0 / i
    return 0.0
