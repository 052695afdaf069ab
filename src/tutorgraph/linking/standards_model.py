"""A learned prior over Common Core standards, read from what a request already has.

The card search (`linker.py`) matches a message's words against a standard's description.
A word problem shares few words with its standard ("Liam has 8 keys and adds 3 more" and
"Add and subtract within 20"), so this model reads what the words imply instead: the
query's MiniLM vector (computed once per request for the searches), the structure of its
mathematics (`structure.structure_of`: operations, number kinds and sizes; plus the kinds
of number it writes, its units and whether it states an equation) and the student's grade
when the app gives it. It is a softmax regression over the standards, trained on generated
problems and the bundle's own aligned items (`tutorgraph train-linker`,
`training/linker.py`); the linker adds `weight` x its log-probability (floored) to each
card's score. One product of a 1 x ~440 row with a ~440 x ~600 matrix: well under a
millisecond.

>>> model = StandardModel.load(path)  # doctest: +SKIP
>>> probs = np.exp(model.log_proba(vector, "6 boxes of 7 crayons, how many crayons?", "3"))
... # doctest: +SKIP
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tutorgraph.errors import ConfigurationError
from tutorgraph.linking.structure import structure_of
from tutorgraph_client.models.grade import GRADES, Grade, standard_grade

__all__ = [
    "MODEL_FILE",
    "STORY_TAGS",
    "TAGS",
    "StandardModel",
    "cluster_log_proba",
    "tag_vector",
    "text_tags",
]

MODEL_FILE = "standards.npz"
FORMAT = 2

# Number and unit tags a message can carry beside `structure_of`'s.
_NUM = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?")
_PATTERNS: dict[str, re.Pattern[str]] = {
    "n:fraction": re.compile(r"\b\d{1,4}\s*/\s*\d{1,4}\b|\\frac"),
    "n:mixed": re.compile(r"\b\d+\s+\d{1,3}/\d{1,3}\b"),
    "n:decimal": re.compile(r"\d\.\d"),
    "n:negative": re.compile(r"(?:^|[\s(=+×*÷/])[-−]\s?\d|\bnegative\b"),
    "n:percent": re.compile(r"%|\bpercent"),
    "n:money": re.compile(r"\$|\bcents?\b|\bdollars?\b|£|€"),
    "n:variable": re.compile(r"\b\d*[a-z]\s*[=+\-×*/^]|\b[xyn]\b|[=+\-]\s*\d*[xyn]\b"),
    "n:equals": re.compile(r"="),
    "n:exponent": re.compile(r"\^|²|³|\bsquared\b|\bcubed\b|\bpower\b|\bexponent"),
    "n:root": re.compile(r"√|\bsquare root|\bcube root"),
    "n:coordinate": re.compile(r"\(\s*-?\d+(?:\.\d+)?\s*,\s*-?\d+(?:\.\d+)?\s*\)"),
    "u:length": re.compile(
        r"\b(?:cm|mm|km|m|meters?|metres?|inch(?:es)?|in\.|feet|foot|ft|yards?|miles?)\b"
    ),
    "u:mass": re.compile(r"\b(?:g|kg|grams?|kilograms?|pounds?|lbs?|ounces?|oz)\b"),
    "u:volume": re.compile(
        r"\b(?:l|ml|liters?|litres?|milliliters?|cups?|gallons?|quarts?|pints?)\b"
    ),
    "u:time": re.compile(r"\b(?:seconds?|minutes?|hours?|days?|weeks?|a\.m\.|p\.m\.|am|pm)\b"),
    "u:area": re.compile(r"\bsquare (?:units?|feet|meters?|inches|cm|centimeters?)\b|\bsq\b"),
    "u:cubic": re.compile(r"\bcubic\b|\bcubes?\b"),
    "q:each": re.compile(r"\beach\b|\bevery\b|\bper\b"),
    "q:more": re.compile(r"\bhow many more\b|\bhow many fewer\b|\bhow much more\b"),
    "q:left": re.compile(r"\bleft\b|\bremain"),
    "q:total": re.compile(r"\bin all\b|\baltogether\b|\btotal\b"),
}
_SIZES = (5, 10, 20, 100, 1000, 1_000_000)
_COUNTS = (0, 1, 2, 3)
_STRUCTURE = (
    "op:add", "op:subtract", "op:multiply", "op:divide", "num:fraction", "num:decimal",
    "num:percent", "num:negative", "task:statistics", "task:ratio", "task:equation",
    "task:geometry", "task:money", "task:time", "task:word-problem",
    "size:10", "size:20", "size:100", "size:1000",
)  # fmt: skip
# What the story reader (`refinement/story.py`, read once into the request's facts) says
# of a word problem: its operation and which quantity it asks for. The caller passes them.
STORY_TAGS = (
    "story", "story:add", "story:subtract", "story:compare", "story:multiply", "story:divide",
    "unknown:result", "unknown:change", "unknown:start", "unknown:difference", "unknown:bigger",
    "unknown:smaller", "unknown:product", "unknown:size", "unknown:groups", "unknown:factor",
)  # fmt: skip
TAGS: tuple[str, ...] = (
    _STRUCTURE
    + tuple(_PATTERNS)
    + tuple(f"n:max<={s}" for s in _SIZES)
    + ("n:max>big",)
    + tuple(f"n:count={c}" for c in _COUNTS)
    + ("n:count>3",)
    + STORY_TAGS
)
_TAG_INDEX = {t: i for i, t in enumerate(TAGS)}


def text_tags(text: str) -> frozenset[str]:
    """The structural, number and unit tags of a message (each one of `TAGS`)."""
    low = text.lower()
    tags = set(structure_of(text)) & set(_STRUCTURE)
    tags.update(tag for tag, pattern in _PATTERNS.items() if pattern.search(low))
    numbers = [abs(float(m.group().replace(",", ""))) for m in _NUM.finditer(text)][:50]
    count = len(numbers)
    tags.add(f"n:count={count}" if count <= _COUNTS[-1] else "n:count>3")
    if numbers:
        top = max(numbers)
        tags.add(next((f"n:max<={s}" for s in _SIZES if top <= s), "n:max>big"))
    return frozenset(tags)


def tag_vector(text: str, extra: frozenset[str] = frozenset()) -> npt.NDArray[np.float32]:
    """`text_tags` and the `extra` tags the caller read (its story's) as a 0/1 row over
    `TAGS` (an extra tag outside `TAGS` is ignored)."""
    row = np.zeros(len(TAGS), dtype=np.float32)
    row[[_TAG_INDEX[t] for t in text_tags(text) | extra if t in _TAG_INDEX]] = 1.0
    return row


def cluster_log_proba(
    log_proba: npt.NDArray[np.float32], clusters: npt.NDArray[np.float32]
) -> npt.NDArray[np.float32]:
    """The log-probability of each cluster: `clusters` is a classes x clusters 0/1 matrix,
    and a cluster's mass is the sum over its classes (rows of `log_proba` are kept)."""
    mass = np.exp(log_proba) @ clusters
    out: npt.NDArray[np.float32] = np.log(np.maximum(mass, 1e-30)).astype(np.float32)
    return out


def grade_vector(grade: Grade | None) -> npt.NDArray[np.float32]:
    """A one-hot row over the grades, plus a last column for "not given"."""
    row = np.zeros(len(GRADES) + 1, dtype=np.float32)
    row[GRADES.index(grade) if grade is not None else len(GRADES)] = 1.0
    return row


@dataclass(frozen=True)
class StandardModel:
    """Softmax regression over standards: `weights` (features x classes) and `bias`.

    The features are the embedding (`dim` columns), `TAGS`, then the grade one-hot.
    `embedder` names the embedding space it was trained in (a model trained over another
    embedder's vectors is refused at load, as a ranker is).
    """

    classes: tuple[str, ...]
    weights: npt.NDArray[np.float32]
    bias: npt.NDArray[np.float32]
    dim: int
    embedder: str
    tags: tuple[str, ...] = TAGS
    _grade_of_class: npt.NDArray[np.int64] | None = field(default=None, repr=False, compare=False)

    def features(
        self,
        vectors: npt.NDArray[np.float32],
        texts: Sequence[str],
        grades: Sequence[Grade | None],
        extra: Sequence[frozenset[str]] | None = None,
    ) -> npt.NDArray[np.float32]:
        """The feature rows of a batch (`extra`: each text's story tags)."""
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(texts), self.dim)
        more = extra if extra is not None else [frozenset()] * len(texts)
        tags = (
            np.stack([tag_vector(t, e) for t, e in zip(texts, more, strict=True)])
            if texts
            else np.zeros((0, len(TAGS)))
        )
        grade = np.stack([grade_vector(g) for g in grades]) if grades else np.zeros((0, 11))
        return np.hstack([vectors, tags, grade]).astype(np.float32)

    def log_proba(
        self,
        vector: npt.NDArray[np.float32],
        text: str,
        grade: Grade | None = None,
        extra: frozenset[str] = frozenset(),
    ) -> npt.NDArray[np.float32]:
        """The log-probability of every class (in `classes` order) for one message."""
        row: npt.NDArray[np.float32] = self.log_proba_batch(
            vector[None, :], [text], [grade], [extra]
        )[0]
        return row

    def log_proba_batch(
        self,
        vectors: npt.NDArray[np.float32],
        texts: Sequence[str],
        grades: Sequence[Grade | None],
        extra: Sequence[frozenset[str]] | None = None,
    ) -> npt.NDArray[np.float32]:
        """`log_proba` of a batch, one row per text."""
        logits = self.features(vectors, texts, grades, extra) @ self.weights + self.bias
        logits = logits - logits.max(axis=1, keepdims=True)
        out: npt.NDArray[np.float32] = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        return out.astype(np.float32)

    def grade_distribution(self, log_proba: npt.NDArray[np.float32]) -> dict[Grade, float]:
        """The probability of each grade: the sum over its standards."""
        if self._grade_of_class is None:
            # Each class's grade level (a class with no grade: the extra last bin).
            levels = [
                GRADES.index(g) if (g := standard_grade(c)) is not None else len(GRADES)
                for c in self.classes
            ]
            object.__setattr__(self, "_grade_of_class", np.array(levels, dtype=np.int64))
        assert self._grade_of_class is not None
        mass = np.bincount(
            self._grade_of_class, weights=np.exp(log_proba), minlength=len(GRADES) + 1
        )
        return {g: float(mass[k]) for k, g in enumerate(GRADES)}

    def save(self, path: Path) -> None:
        """Write the model (float16 weights) as one `.npz` file."""
        meta = {"format": FORMAT, "embedder": self.embedder, "dim": self.dim, "tags": self.tags}
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            np.savez_compressed(
                f,
                weights=self.weights.astype(np.float16),
                bias=self.bias.astype(np.float32),
                classes=np.array(self.classes),
                meta=np.array(json.dumps(meta)),
            )

    @classmethod
    def load(cls, path: Path) -> StandardModel:
        """Read a model `save` wrote; ConfigurationError when it is missing or unreadable."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                classes = tuple(str(c) for c in data["classes"])
                weights = data["weights"].astype(np.float32)
                bias = data["bias"].astype(np.float32)
        except (OSError, KeyError, ValueError) as exc:
            raise ConfigurationError(f"standards model {path}: {exc}") from exc
        if meta.get("format") != FORMAT or tuple(meta.get("tags", ())) != TAGS:
            raise ConfigurationError(
                f"standards model {path}: written for other features; retrain it "
                "(tutorgraph train-linker)"
            )
        expected = (int(meta["dim"]) + len(TAGS) + len(GRADES) + 1, len(classes))
        if weights.shape != expected or bias.shape != (len(classes),):
            raise ConfigurationError(f"standards model {path}: weights of shape {weights.shape}")
        return cls(classes, weights, bias, int(meta["dim"]), str(meta["embedder"]))
