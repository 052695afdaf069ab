"""Quality gates a trained model must pass before it is written: the reranker's
(`GateReport`, issue 15) and the fine-tuned embedder's (`EmbedderGates`), both `Gates`, and
the one error that refuses either (`TrainingRefused`).

The bundled reranker of the first release collapsed: its loss ended at the always-predict-
the-base-rate level and its scores within a query spread by about 0.003. Three checks catch
that, each measured and recorded in `training.json`:

* the final training loss is clearly below the loss of a constant prediction;
* the scores within a held-out group spread far more than a collapsed model's;
* MAP@25 over the held-out groups beats the first stage's order of the same candidates.

>>> r = GateReport(final_loss=0.3, base_rate_loss=0.5, spread=0.8, inner_map=0.5,
...                first_stage_map=0.4, groups=10)
>>> r.passed, r.reasons
(True, [])
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from tutorgraph.errors import ConfigurationError

__all__ = [
    "LOSS_MARGIN",
    "MIN_SPREAD",
    "EmbedderGates",
    "GateReport",
    "Gates",
    "TrainingRefused",
    "average_precision",
    "base_rate_loss",
]

# "Clearly below": at most 90% of the constant predictor's loss.
LOSS_MARGIN = 0.9
# Ten times the collapsed model's within-query standard deviation (0.003).
MIN_SPREAD = 0.03
_K = 25


@dataclass(frozen=True)
class Gates(ABC):
    """A trained model's held-out checks: a frozen dataclass of what was measured, whose
    `reasons` name each failed gate (none: it passed); `to_json` is what `training.json`
    records, with the thresholds of `limits()` beside the measures.

    >>> EmbedderGates(base_loss=1.0, loss=0.5, base_map=0.2, map=0.3, held_out=9).passed
    True
    """

    @property
    @abstractmethod
    def reasons(self) -> list[str]:
        """Why the model fails, one line per failed gate (empty when it passes)."""

    @property
    def passed(self) -> bool:
        return not self.reasons

    def limits(self) -> dict[str, float]:
        """The thresholds the record keeps beside the measures."""
        return {}

    def to_json(self) -> dict[str, Any]:
        return {
            **{k: round(v, 5) if isinstance(v, float) else v for k, v in asdict(self).items()},
            **self.limits(),
            "passed": self.passed,
            "reasons": self.reasons,
        }


class TrainingRefused(ConfigurationError):
    """A trained model failed its gates; nothing was written. `report` says by how much.

    >>> report = EmbedderGates(base_loss=1.0, loss=1.5, base_map=0.2, map=0.3, held_out=9)
    >>> TrainingRefused(report, "embedder").message
    "training refused to write the embedder: held-out loss 1.5000 is not below the base's 1.0000"
    """

    def __init__(self, report: Gates, model: str = "model") -> None:
        super().__init__(f"training refused to write the {model}: " + "; ".join(report.reasons))
        self.report = report


def base_rate_loss(positive_share: float, pos_weight: float = 1.0) -> float:
    """The (weighted) binary cross-entropy of the best constant prediction.

    >>> round(base_rate_loss(0.2), 3)  # one positive in five
    0.5
    """
    if not 0.0 < positive_share < 1.0:
        raise ValueError("positive_share must be in (0, 1)")
    wp, n = pos_weight * positive_share, 1.0 - positive_share
    q = wp / (wp + n)  # the constant that minimises the weighted loss
    return -(wp * math.log(q) + n * math.log(1.0 - q))


def average_precision(position: int) -> float:
    """AP@25 of a single relevant item at a 1-based position."""
    return 1.0 / position if position <= _K else 0.0


@dataclass(frozen=True)
class GateReport(Gates):
    """The reranker's gates (see the module)."""

    final_loss: float
    base_rate_loss: float
    # Mean within-group standard deviation of the scores on the held-out groups.
    spread: float
    # MAP@25 of the model's and of the first stage's order of the held-out candidates.
    inner_map: float
    first_stage_map: float
    groups: int

    @classmethod
    def measure(
        cls,
        final_loss: float,
        base_loss: float,
        scores: Sequence[Sequence[float]],
        first_positions: Sequence[int],
    ) -> GateReport:
        """From each held-out group's scores (positive first) and the positive's position
        in the first stage's order of the same candidates."""
        if not scores:
            raise ValueError("the gates need at least one held-out group")
        spreads, model_aps = [], []
        for group in scores:
            mean = sum(group) / len(group)
            spreads.append(math.sqrt(sum((s - mean) ** 2 for s in group) / len(group)))
            model_aps.append(average_precision(1 + sum(s > group[0] for s in group[1:])))
        return cls(
            final_loss=final_loss,
            base_rate_loss=base_loss,
            spread=sum(spreads) / len(spreads),
            inner_map=sum(model_aps) / len(model_aps),
            first_stage_map=sum(average_precision(p) for p in first_positions)
            / len(first_positions),
            groups=len(scores),
        )

    @property
    def reasons(self) -> list[str]:
        out = []
        if self.final_loss >= LOSS_MARGIN * self.base_rate_loss:
            out.append(
                f"final loss {self.final_loss:.4f} is not clearly below the constant "
                f"prediction's {self.base_rate_loss:.4f}"
            )
        if self.spread < MIN_SPREAD:
            out.append(f"within-query score spread {self.spread:.4f} < {MIN_SPREAD}")
        if self.inner_map <= self.first_stage_map:
            out.append(
                f"held-out MAP@25 {self.inner_map:.4f} does not beat the first stage's "
                f"{self.first_stage_map:.4f}"
            )
        return out

    def limits(self) -> dict[str, float]:
        return {"loss_margin": LOSS_MARGIN, "min_spread": MIN_SPREAD}


@dataclass(frozen=True)
class EmbedderGates(Gates):
    """The fine-tuned embedder's gates, base model against trained model on the held-out
    questions: a lower loss and a higher MAP@25."""

    base_loss: float
    loss: float
    base_map: float
    map: float
    held_out: int

    @property
    def reasons(self) -> list[str]:
        out = []
        if not self.loss < self.base_loss:
            out.append(
                f"held-out loss {self.loss:.4f} is not below the base's {self.base_loss:.4f}"
            )
        if not self.map > self.base_map:
            out.append(
                f"held-out MAP@25 {self.map:.4f} does not beat the base's {self.base_map:.4f}"
            )
        return out
