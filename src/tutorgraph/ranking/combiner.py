"""The learned final score: a LightGBM LambdaRank model over named per-hit features.

Trained per query group (one request's candidates, the labelled target marked 1), it scores
a packet's hits; `contributions` splits each score into per-feature parts (SHAP values, as
LightGBM computes them), which the packet's debug block shows.

>>> model = Combiner.fit(groups, feature_names=("fused_score", "concept_share"))  # doctest: +SKIP
>>> model.score([[0.03, 0.5], [0.02, 0.0]])  # doctest: +SKIP
[1.7, -0.4]
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tutorgraph.errors import ConfigurationError

__all__ = ["Combiner", "CombinerConfig", "TrainingGroup"]


@dataclass(frozen=True)
class TrainingGroup:
    """One query's candidates: a feature row each, and which of them is relevant (1)."""

    rows: list[list[float]]
    labels: list[int]


@dataclass(frozen=True)
class CombinerConfig:
    """LightGBM LambdaRank settings (the prototype's; docs/decisions/issue15-ranker-probes.md)."""

    n_estimators: int = 300
    learning_rate: float = 0.05
    num_leaves: int = 31
    min_child_samples: int = 20
    seed: int = 13

    def __post_init__(self) -> None:
        if self.n_estimators < 1 or self.learning_rate <= 0 or self.num_leaves < 2:
            raise ConfigurationError("combiner: n_estimators >= 1, learning_rate > 0, leaves >= 2")


# What LightGBM imports, when it finds them, for its scikit-learn and pandas integrations.
# A booster scoring numpy rows uses neither; scikit-learn imports SciPy's stats, and the two
# cost two to three seconds of a one-shot query's first score.
_INTEGRATIONS = ("sklearn", "pandas")


def _lightgbm_for_scoring() -> Any:
    """`lightgbm`, imported without the integrations no process has imported yet: while it
    imports, they are marked absent (`sys.modules[name] = None`, which LightGBM's own
    fallback for a missing package catches), and unmarked after, so a later import of them
    works. LightGBM then offers no scikit-learn estimators in this process; tutorgraph
    trains and scores with `lgb.train` and `Booster` only."""
    if "lightgbm" in sys.modules:
        import lightgbm

        return lightgbm
    absent = [name for name in _INTEGRATIONS if name not in sys.modules]
    for name in absent:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        import lightgbm
    finally:
        for name in absent:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]
    return lightgbm


class Combiner:
    """A trained LambdaRank booster and the names of the features it reads, in order."""

    MODEL_FILE = "combiner.txt"
    META_FILE = "combiner.json"

    def __init__(
        self,
        booster: Any,
        feature_names: Sequence[str],
        config: CombinerConfig,
        *,
        model_file: Path | None = None,
    ) -> None:
        # Loaded from `model_file` on first use when None: importing LightGBM (which imports
        # scikit-learn and SciPy) costs over a second, and most requests never score.
        self._booster = booster
        self._model_file = model_file
        self._lock = threading.Lock()
        self.feature_names = tuple(feature_names)
        self.config = config

    def warm(self) -> None:
        """Load the booster now (a server does at start-up; otherwise the first score does)."""
        self._model()

    def _model(self) -> Any:
        with self._lock:
            if self._booster is None:
                lgb = _lightgbm_for_scoring()
                try:
                    self._booster = lgb.Booster(model_file=str(self._model_file))
                except (OSError, lgb.basic.LightGBMError) as exc:
                    raise ConfigurationError(
                        f"cannot load the combiner {self._model_file}: {exc}"
                    ) from exc
            return self._booster

    @classmethod
    def fit(
        cls,
        groups: Sequence[TrainingGroup],
        feature_names: Sequence[str],
        config: CombinerConfig | None = None,
    ) -> Combiner:
        """Train on groups that hold a relevant candidate (others teach a ranker nothing)."""
        import lightgbm as lgb

        cfg = config or CombinerConfig()
        useful = [g for g in groups if any(g.labels) and len(g.rows) > 1]
        if not useful:
            raise ConfigurationError("the combiner needs groups with a relevant candidate")
        width = len(feature_names)
        if any(len(r) != width for g in useful for r in g.rows):
            raise ConfigurationError(f"every feature row must have {width} values")
        x = np.array([r for g in useful for r in g.rows], dtype=np.float64)
        y = np.array([v for g in useful for v in g.labels], dtype=np.int32)
        dataset = lgb.Dataset(
            x, y, group=[len(g.rows) for g in useful], feature_name=list(feature_names)
        )
        params = {
            "objective": "lambdarank",
            "learning_rate": cfg.learning_rate,
            "num_leaves": cfg.num_leaves,
            "min_child_samples": cfg.min_child_samples,
            "seed": cfg.seed,
            "deterministic": True,
            "num_threads": 1,
            "verbose": -1,
        }
        booster = lgb.train(params, dataset, num_boost_round=cfg.n_estimators)
        return cls(booster, feature_names, cfg)

    def _matrix(self, rows: Sequence[Sequence[float]]) -> npt.NDArray[np.float64]:
        x = np.asarray(rows, dtype=np.float64).reshape(len(rows), -1)
        if len(rows) and x.shape[1] != len(self.feature_names):
            raise ConfigurationError(
                f"the combiner reads {len(self.feature_names)} features, got {x.shape[1]}"
            )
        return x

    def score(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """One score per row (higher is better; a ranking score, not a probability)."""
        if not rows:
            return []
        out = self._model().predict(self._matrix(rows), num_threads=1)
        return [round(float(v), 6) for v in out]

    def contributions(self, rows: Sequence[Sequence[float]]) -> list[dict[str, float]]:
        """Per row, each feature's part of its score, plus `bias` (they sum to the score)."""
        if not rows:
            return []
        parts = self._model().predict(self._matrix(rows), pred_contrib=True, num_threads=1)
        names = [*self.feature_names, "bias"]
        return [{n: round(float(v), 6) for n, v in zip(names, row, strict=True)} for row in parts]

    def save(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self._model().save_model(str(directory / self.MODEL_FILE))
        meta = {"feature_names": list(self.feature_names), "config": asdict(self.config)}
        (directory / self.META_FILE).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")

    @classmethod
    def load(cls, directory: Path) -> Combiner:
        """The saved combiner; its booster is read on first use (or `warm()`)."""
        model_file = directory / cls.MODEL_FILE
        try:
            meta = json.loads((directory / cls.META_FILE).read_text(encoding="utf-8"))
            if not model_file.is_file():
                raise FileNotFoundError(f"no {model_file}")
            config = CombinerConfig(**meta["config"])
            names = meta["feature_names"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ConfigurationError(f"cannot load the combiner in {directory}: {exc}") from exc
        return cls(None, names, config, model_file=model_file)
