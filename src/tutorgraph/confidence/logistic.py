"""A small L2-regularised logistic regression: fitted by Newton's method on standardised
features, so that its output is a probability calibrated on the data it was fitted on.

>>> import numpy as np
>>> x = np.array([[0.0], [1.0], [2.0], [3.0]]); y = np.array([0, 0, 1, 1])
>>> m = Logistic.fit(x, y, l2=0.1)
>>> m.probability(np.array([3.0])) > 0.5 > m.probability(np.array([0.0]))
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["Logistic"]

Array = npt.NDArray[np.float64]


def _sigmoid(z: Array) -> Array:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0))), dtype=np.float64)


@dataclass(frozen=True)
class Logistic:
    """P(y = 1 | x) = sigmoid(w · (x - mean) / scale + bias)."""

    weights: Array
    bias: float
    mean: Array
    scale: Array

    @classmethod
    def fit(
        cls,
        x: npt.ArrayLike,
        y: npt.ArrayLike,
        *,
        l2: float = 1.0,
        sample_weight: npt.ArrayLike | None = None,
        iterations: int = 50,
    ) -> Logistic:
        """Fit on rows `x` and 0/1 labels `y` (`l2` penalises the weights, not the bias)."""
        xs = np.asarray(x, dtype=np.float64)
        ys = np.asarray(y, dtype=np.float64)
        if xs.ndim != 2 or len(xs) != len(ys) or not len(ys):
            raise ValueError("x must be a non-empty 2-D array with one label per row")
        if not 0 < ys.sum() < len(ys):
            raise ValueError("both labels are needed to fit a logistic regression")
        sw = np.ones(len(ys)) if sample_weight is None else np.asarray(sample_weight, float)
        mean = xs.mean(axis=0)
        scale = xs.std(axis=0)
        scale[scale < 1e-9] = 1.0
        z = np.hstack([(xs - mean) / scale, np.ones((len(xs), 1))])
        theta = np.zeros(z.shape[1])
        penalty = np.full(z.shape[1], l2)
        penalty[-1] = 0.0
        for _ in range(iterations):
            p = _sigmoid(z @ theta)
            grad = z.T @ (sw * (p - ys)) + penalty * theta
            hess = (z * (sw * p * (1 - p))[:, None]).T @ z + np.diag(penalty + 1e-9)
            step = np.linalg.solve(hess, grad)
            theta -= step
            if float(np.abs(step).max()) < 1e-8:
                break
        return cls(theta[:-1].copy(), float(theta[-1]), mean, scale)

    def probabilities(self, x: npt.ArrayLike) -> Array:
        """P(y = 1) for each row of `x`."""
        xs = np.atleast_2d(np.asarray(x, dtype=np.float64))
        return _sigmoid(((xs - self.mean) / self.scale) @ self.weights + self.bias)

    def probability(self, x: npt.ArrayLike) -> float:
        """P(y = 1) for one row."""
        return float(self.probabilities(x)[0])

    def to_dict(self) -> dict[str, Any]:
        return {
            "weights": [round(float(v), 8) for v in self.weights],
            "bias": round(self.bias, 8),
            "mean": [round(float(v), 8) for v in self.mean],
            "scale": [round(float(v), 8) for v in self.scale],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Logistic:
        weights = np.asarray(data["weights"], dtype=np.float64)
        mean = np.asarray(data["mean"], dtype=np.float64)
        scale = np.asarray(data["scale"], dtype=np.float64)
        if not (weights.shape == mean.shape == scale.shape) or weights.ndim != 1:
            raise ValueError("weights, mean and scale must be vectors of one length")
        return cls(weights, float(data["bias"]), mean, scale)
