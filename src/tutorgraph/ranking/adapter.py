"""A query adapter: a linear map on the frozen query embedding, learnt from labelled pairs.

The documents keep the vectors the index holds; only the query moves. Trained with a softmax
over every target's embedding (all 2,587 Eedi misconceptions, not a batch's few), so each
step sees every negative, and pulled towards the identity so that targets no example shows
keep their zero-shot similarity. On the Eedi development file (5-fold) it scores MAP@25
0.359 alone against 0.184 for the zero-shot cosine (docs/decisions/issue15-ranker-probes.md).

>>> adapter = QueryAdapter.fit(queries, labels, target_vectors)  # doctest: +SKIP
>>> scores = adapter.similarities(query_vectors, target_vectors)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tutorgraph.errors import ConfigurationError

__all__ = ["AdapterConfig", "QueryAdapter"]

Matrix = npt.NDArray[np.float32]


@dataclass(frozen=True)
class AdapterConfig:
    """The recipe (values measured by the issue 15 probes: docs/decisions/)."""

    temperature: float = 0.05
    identity_l2: float = 1e-3
    steps: int = 300
    learning_rate: float = 1e-3
    seed: int = 0

    def __post_init__(self) -> None:
        if self.temperature <= 0 or self.learning_rate <= 0 or self.steps < 1:
            raise ConfigurationError("adapter temperature, learning rate and steps must be > 0")
        if self.identity_l2 < 0:
            raise ConfigurationError("adapter identity_l2 must be >= 0")


def _normalise(x: Matrix) -> Matrix:
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    out: Matrix = (x / np.maximum(norms, 1e-12)).astype(np.float32)
    return out


class QueryAdapter:
    """`normalise(q @ W)`; `W` starts at, and is held near, the identity."""

    def __init__(self, weights: Matrix, config: AdapterConfig | None = None) -> None:
        if weights.ndim != 2 or weights.shape[0] != weights.shape[1]:
            raise ConfigurationError(f"adapter weights must be square, got {weights.shape}")
        self.weights = weights.astype(np.float32)
        self.config = config or AdapterConfig()

    @property
    def dim(self) -> int:
        return int(self.weights.shape[0])

    @classmethod
    def fit(
        cls,
        queries: Matrix,
        labels: Sequence[int],
        targets: Matrix,
        config: AdapterConfig | None = None,
    ) -> QueryAdapter:
        """Learn `W` so that each query's own target wins a softmax over all `targets`.

        `queries` (n x d) and `targets` (m x d) are L2-normalised embeddings; `labels[i]` is
        the row of `targets` that query `i` shows.
        """
        import torch

        cfg = config or AdapterConfig()
        if len(queries) != len(labels) or not len(queries):
            raise ConfigurationError("the adapter needs one label per query, and some queries")
        if queries.shape[1] != targets.shape[1]:
            raise ConfigurationError("queries and targets must share their dimension")
        torch.manual_seed(cfg.seed)
        q = torch.from_numpy(np.ascontiguousarray(queries, dtype=np.float32))
        t = torch.from_numpy(np.ascontiguousarray(targets, dtype=np.float32))
        y = torch.tensor(list(labels), dtype=torch.long)
        eye = torch.eye(q.shape[1])
        w = torch.nn.Parameter(eye.clone())
        optimiser = torch.optim.Adam([w], lr=cfg.learning_rate)
        for _ in range(cfg.steps):
            z = torch.nn.functional.normalize(q @ w, dim=1)
            loss = torch.nn.functional.cross_entropy(z @ t.T / cfg.temperature, y)
            loss = loss + cfg.identity_l2 * ((w - eye) ** 2).sum()
            optimiser.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimiser.step()
        return cls(w.detach().numpy().astype(np.float32), cfg)

    def transform(self, queries: Matrix) -> Matrix:
        """The adapted, L2-normalised query vectors."""
        if queries.shape[-1] != self.dim:
            raise ConfigurationError(
                f"query vectors have {queries.shape[-1]} dimensions, the adapter {self.dim}"
            )
        return _normalise(np.atleast_2d(queries).astype(np.float32) @ self.weights)

    def similarities(self, queries: Matrix, targets: Matrix) -> Matrix:
        """Cosine of each adapted query with each target (n x m)."""
        # asarray: no copy of the (float32) targets per call, only a transposed view.
        return self.transform(queries) @ np.asarray(targets, dtype=np.float32).T

    def save(self, path: Path) -> None:
        """`W` as .npy and the recipe beside it (`<path>.json`)."""
        import json

        np.save(path, self.weights.astype(np.float32))
        path.with_suffix(".json").write_text(json.dumps(asdict(self.config), sort_keys=True))

    @classmethod
    def load(cls, path: Path) -> QueryAdapter:
        import json

        config = AdapterConfig(**json.loads(path.with_suffix(".json").read_text()))
        return cls(np.load(path).astype(np.float32), config)
