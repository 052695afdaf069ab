"""Ranking metrics for single-target retrieval tasks.

>>> average_precision_at_k(["m3", "m1"], {"m1"}, k=25)
0.5
>>> recall_at_k(["m3", "m1"], {"m1"}, k=1)
0.0
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["average_precision_at_k", "cosine_map_at_k", "recall_at_k", "reciprocal_rank"]


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


def cosine_map_at_k(
    queries: npt.NDArray[np.float32],
    targets: npt.NDArray[np.float32],
    ids: Sequence[str],
    gold: Sequence[str],
    k: int = 25,
) -> float:
    """MAP@k of ranking every target (`targets`, in the order of `ids`) by its dot product
    with each query vector, whose relevant target is `gold`'s."""
    top = np.argsort(-(queries @ targets.T), axis=1, kind="stable")[:, :k]
    return float(
        np.mean(
            [
                average_precision_at_k([ids[i] for i in row], {g}, k)
                for row, g in zip(top, gold, strict=True)
            ]
        )
    )


def recall_at_k(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    if not relevant:
        return 0.0
    return len(set(ranked[:k]) & relevant) / len(relevant)


def reciprocal_rank(ranked: Sequence[str], relevant: set[str]) -> float:
    for i, item in enumerate(ranked, start=1):
        if item in relevant:
            return 1.0 / i
    return 0.0
