"""Labelled-example memory: which targets do the most similar labelled questions show?

Each labelled example (an Eedi question with one wrong answer, and its misconception) is kept
as an embedding. For a query, a candidate target gets the highest similarity of any example
that shows it, and its share of a soft vote (weights `exp((sim - 1) / temperature)`) over all
examples. In the prototype this vote was the strongest zero-shot signal (MAP@25 0.321 alone;
without it the combined score fell from 0.357 to 0.318, docs/decisions/issue15-ranker-probes.md).

As with the graph prior, `exclude=` leaves out one group's examples, so that a training row
never votes for itself.

>>> memory = ExampleMemory(vectors, targets=["m1", "m2"], groups=["q1", "q2"])  # doctest: +SKIP
>>> memory.features(query_vector, ["m1", "m2"])  # doctest: +SKIP
{'example_max_sim': [0.91, 0.42], 'example_vote': [0.97, 0.03]}
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tutorgraph.errors import ConfigurationError

__all__ = ["EXAMPLE_FEATURES", "ExampleMemory"]

EXAMPLE_FEATURES = ("example_max_sim", "example_vote")
VOTE_TEMPERATURE = 0.05


class ExampleMemory:
    """Embeddings of labelled examples with their targets and groups."""

    def __init__(
        self,
        vectors: npt.NDArray[np.float32],
        targets: Sequence[str],
        groups: Sequence[str],
        *,
        temperature: float = VOTE_TEMPERATURE,
    ) -> None:
        if not len(vectors) == len(targets) == len(groups):
            raise ConfigurationError("example vectors, targets and groups must have one length")
        if temperature <= 0:
            raise ConfigurationError("the vote temperature must be > 0")
        self.vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self.targets = list(targets)
        self.groups = list(groups)
        self.temperature = temperature
        # Dense target ids, so that one np.maximum.at pass scores every target.
        self._table: dict[str, int] = {t: i for i, t in enumerate(dict.fromkeys(self.targets))}
        self._target_ids = np.array([self._table[t] for t in self.targets], dtype=np.int64)
        self._groups = np.array(self.groups, dtype=object)

    def __len__(self) -> int:
        return len(self.targets)

    def row(self, target: str) -> int | None:
        """The row of `target` in `scores`' arrays (None: no example shows it)."""
        return self._table.get(target)

    def scores(
        self, query: npt.NDArray[np.float32], *, exclude: str | None = None
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Per target an example shows (rows: `row`), the highest similarity and the vote."""
        n_targets = len(self._table)
        best = np.full(n_targets, -1.0)
        vote = np.zeros(n_targets)
        if len(self):
            sims = self.vectors @ np.asarray(query, dtype=np.float32).reshape(-1)
            keep = self._groups != exclude if exclude is not None else np.ones(len(self), bool)
            ids, s = self._target_ids[keep], sims[keep].astype(np.float64)
            np.maximum.at(best, ids, s)
            np.add.at(vote, ids, np.exp((s - 1.0) / self.temperature))
            total = vote.sum()
            if total > 0:
                vote /= total
        return best, vote

    def features(
        self,
        query: npt.NDArray[np.float32],
        candidates: Sequence[str],
        *,
        exclude: str | None = None,
    ) -> dict[str, list[float]]:
        """`EXAMPLE_FEATURES` of each candidate for one L2-normalised query vector."""
        table = self._table
        best, vote = self.scores(query, exclude=exclude)
        out: dict[str, list[float]] = {name: [] for name in EXAMPLE_FEATURES}
        for m in candidates:
            i = table.get(m)
            out["example_max_sim"].append(round(float(best[i]), 6) if i is not None else -1.0)
            out["example_vote"].append(round(float(vote[i]), 6) if i is not None else 0.0)
        return out

    def save(self, path: Path) -> None:
        """fp16 vectors, targets and groups in one `.npz`."""
        np.savez_compressed(
            path,
            vectors=self.vectors.astype(np.float16),
            targets=np.array(self.targets, dtype=str),
            groups=np.array(self.groups, dtype=str),
            temperature=np.array(self.temperature),
        )

    @classmethod
    def load(cls, path: Path) -> ExampleMemory:
        with np.load(path, allow_pickle=False) as data:
            return cls(
                data["vectors"].astype(np.float32),
                [str(t) for t in data["targets"]],
                [str(g) for g in data["groups"]],
                temperature=float(data["temperature"]),
            )
