"""The scope model: is a message school math the curriculum covers, and how far can each
slot of its packet be trusted.

Four small logistic regressions, each calibrated on messages a teacher judged (fitted by
`research/scripts/train_scope.py`; design 8a):

* `in_scope`: P(the message is K-12 math in English that the curriculum covers), from the
  query embedding the pipeline already made and a few character counts (nothing of the
  index, so that it holds for any index over the same embedder). Below `threshold` the
  packet says `no_match` (`off_topic`), unless the message reads as another language and
  as maths, which the English model cannot read (`not_english`; `retrieval/no_match.py`).
* `concept`: P(the first Common Core concept is an accepted standard): the packet's
  `confidence`.
* `teach`: P(the teach slot carries an explanation or worked example of an accepted section).
* `misconceptions`: for a stated answer, P(the slot carries an accepted misconception).

A model fitted over one embedder's vectors is refused for another's, as the ranker is.

>>> model = ScopeModel.load(Path("scope.json"))  # doctest: +SKIP
>>> model.in_scope(signals) < model.threshold  # the app should say "I'm not sure"  # doctest: +SKIP
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tutorgraph.confidence.logistic import Logistic
from tutorgraph.errors import ConfigurationError

__all__ = ["SCOPE_MODEL_FILE", "ScopeModel", "ScopeSignals"]

SCOPE_MODEL_FILE = "scope.json"
_FORMAT = 1
_OPERATOR = re.compile(r"[=+*/^<>%$\\]|\d\s*[-x×÷]\s*\d")


@dataclass(frozen=True)
class ScopeSignals:
    """What the scope model reads of one request, gathered by the pipeline's scope stage."""

    text: str
    vector: npt.NDArray[np.float32]
    concept_cosine: float = 0.0
    concept_score: float = 0.0
    concept_margin: float = 0.0
    lesson_cosine: float = 0.0
    lesson_mean: float = 0.0
    stated_answer: bool = False
    diagnosed: bool = False
    misconception_score: float = 0.0

    def text_features(self) -> list[float]:
        """Digits, operators and letters outside ASCII (other scripts, accents)."""
        letters = [c for c in self.text if c.isalpha()]
        foreign = sum(not c.isascii() for c in letters) / len(letters) if letters else 0.0
        return [
            float(any(c.isdigit() for c in self.text)),
            float(bool(_OPERATOR.search(self.text))),
            foreign,
            min(len(self.text.split()), 40) / 40.0,
        ]

    def scope_row(self) -> npt.NDArray[np.float64]:
        # The message alone, nothing of the index: an index without the Common Core cards
        # (a user's own bundle) must not move a greeting into scope.
        vector = np.asarray(self.vector, dtype=np.float64).ravel()
        return np.concatenate([vector, self.text_features()])

    def concept_row(self, in_scope: float) -> list[float]:
        return [in_scope, self.concept_score, self.concept_margin, self.concept_cosine]

    def teach_row(self, in_scope: float) -> list[float]:
        return [in_scope, self.lesson_cosine, self.lesson_mean, self.concept_cosine]

    def misconception_row(self, in_scope: float) -> list[float]:
        return [in_scope, float(self.diagnosed), self.misconception_score]


@dataclass(frozen=True)
class ScopeModel:
    """The four calibrated models over one embedder's vectors (see the module's docstring)."""

    embedder: str
    scope: Logistic
    threshold: float
    concept: Logistic
    teach: Logistic
    misconceptions: Logistic | None = None
    info: dict[str, Any] = field(default_factory=dict)

    def in_scope(self, signals: ScopeSignals) -> float:
        return self.scope.probability(signals.scope_row())

    def concept_confidence(self, signals: ScopeSignals, in_scope: float) -> float:
        return self.concept.probability(signals.concept_row(in_scope))

    def teach_confidence(self, signals: ScopeSignals, in_scope: float) -> float:
        return self.teach.probability(signals.teach_row(in_scope))

    def misconception_confidence(self, signals: ScopeSignals, in_scope: float) -> float | None:
        if self.misconceptions is None or not signals.stated_answer:
            return None
        return self.misconceptions.probability(signals.misconception_row(in_scope))

    def save(self, path: Path) -> None:
        data = {
            "format": _FORMAT,
            "embedder": self.embedder,
            "threshold": self.threshold,
            "scope": self.scope.to_dict(),
            "concept": self.concept.to_dict(),
            "teach": self.teach.to_dict(),
            "misconceptions": self.misconceptions.to_dict() if self.misconceptions else None,
            "info": self.info,
        }
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> ScopeModel:
        """Read a model `save` wrote; `ConfigurationError` names what is wrong with it."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") != _FORMAT:
                raise ValueError(f"format {data.get('format')!r}, expected {_FORMAT}")
            return cls(
                embedder=str(data["embedder"]),
                scope=Logistic.from_dict(data["scope"]),
                threshold=float(data["threshold"]),
                concept=Logistic.from_dict(data["concept"]),
                teach=Logistic.from_dict(data["teach"]),
                misconceptions=(
                    Logistic.from_dict(data["misconceptions"]) if data["misconceptions"] else None
                ),
                info=dict(data.get("info") or {}),
            )
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ConfigurationError(f"scope model {path}: {exc}") from exc
