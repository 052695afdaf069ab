"""Cross-validation of the linker's standards model (issue 48, `linking/standards_model.py`).

The model is trained on generated problems (`tutorgraph.problems`) and the
bundle's aligned items and cards (`tutorgraph.training.linker`). It is judged three ways,
each paired against the card search alone on the same items:

* **held-out generators**: five folds by generator name (`stable_fold`), each model trained
  without the generators of its fold (so it cannot just learn their templates), scored on
  their problems;
* **hand-written problems and tutoring messages**: a model trained on every generator,
  scored on `data/benchmarks/word_problems.jsonl` and `tutoring_messages.jsonl`, whose
  held-out third is read only for the final report;
* **MathFish**: never trained or tuned on; reported beside the others.

Each is scored with the grade given (the labelled standard's grade, as an app would send
its student's) and without. The fusion weights (`weight`, `grade_weight`) are chosen on
the generator folds and the dev thirds only.

>>> fused_rank_hits(np.array([[0.1, 0.3]]), [{0}], ks=(1,))  # doctest: +NORMALIZE_WHITESPACE
{'hit@1': [0.0]}
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tutorgraph.linking.linker import MODEL_FLOOR, ConceptLinker
from tutorgraph.linking.standards_model import StandardModel, cluster_log_proba
from tutorgraph.training.linker import LinkerExample, story_tags
from tutorgraph_client.models.grade import Grade
from tutorgraph_research.harness.folds import stable_fold
from tutorgraph_research.harness.results import bootstrap_ci

__all__ = [
    "EvalItem",
    "cluster_hits",
    "cluster_log_p",
    "embed_cached",
    "fuse",
    "fused_rank_hits",
    "paired_cell",
]

KS = (1, 3, 10)
FOLDS = 5


@dataclass(frozen=True)
class EvalItem:
    """A text to link, its accepted standards, its grade, its data set and split."""

    id: str
    text: str
    standards: tuple[str, ...]
    grade: Grade | None
    dataset: str
    split: str


def embed_cached(
    embed: Callable[[list[str]], npt.NDArray[np.float32]], texts: Sequence[str], cache: Path
) -> npt.NDArray[np.float32]:
    """`embed(texts)`, reading and adding to an `.npz` cache keyed by each text's sha1."""
    keys = [hashlib.sha1(t.encode("utf-8")).hexdigest() for t in texts]
    stored: dict[str, npt.NDArray[np.float32]] = {}
    if cache.exists():
        with np.load(cache) as data:
            # Each `data[...]` reads the array from the file again: read each once.
            keys_read, vectors_read = data["keys"], data["vectors"]
        stored = {str(k): vectors_read[i] for i, k in enumerate(keys_read)}
    todo = sorted({k: t for k, t in zip(keys, texts, strict=True) if k not in stored}.items())
    if todo:
        vectors = embed([t for _, t in todo])
        stored.update({k: vectors[i] for i, (k, _) in enumerate(todo)})
        cache.parent.mkdir(parents=True, exist_ok=True)
        names = sorted(stored)
        np.savez(cache, keys=np.array(names), vectors=np.stack([stored[k] for k in names]))
    return np.stack([stored[k] for k in keys]).astype(np.float32)


def cluster_log_p(
    log_p: npt.NDArray[np.float32], cluster_index: npt.NDArray[np.int64]
) -> npt.NDArray[np.float32]:
    """Each standard's cluster's log-probability (as the served linker sums it)."""
    onehot = np.zeros((len(cluster_index), int(cluster_index.max()) + 1), dtype=np.float32)
    onehot[np.arange(len(cluster_index)), cluster_index] = 1.0
    return cluster_log_proba(log_p, onehot)[:, cluster_index]


def fuse(
    base: npt.NDArray[np.float32],
    log_p: npt.NDArray[np.float32] | None,
    penalties: npt.NDArray[np.float32],
    weight: float,
    grade_weight: float,
    *,
    cluster_log: npt.NDArray[np.float32] | None = None,
    cluster_weight: float = 0.0,
    floor: float = MODEL_FLOOR,
) -> npt.NDArray[np.float32]:
    """The linker's Common Core scores for a batch (as `ConceptLinker._with_prior`)."""
    out = base - grade_weight * penalties
    if log_p is not None and weight:
        out = out + weight * np.maximum(log_p, floor)
    if cluster_log is not None and cluster_weight:
        out = out + cluster_weight * np.maximum(cluster_log, floor)
    return out.astype(np.float32)


def fused_rank_hits(
    scores: npt.NDArray[np.float32], accepted: Sequence[set[int]], ks: Sequence[int] = KS
) -> dict[str, list[float]]:
    """hit@k per item: an accepted column among the k best scores (ties by column)."""
    order = np.argsort(-scores, axis=1, kind="stable")[:, : max(ks)]
    return {
        f"hit@{k}": [
            float(bool(set(order[i, :k].tolist()) & accepted[i])) for i in range(len(order))
        ]
        for k in ks
    }


def cluster_hits(
    scores: npt.NDArray[np.float32],
    accepted: Sequence[set[str]],
    clusters: Sequence[str],
    ks: Sequence[int] = KS,
) -> dict[str, list[float]]:
    """cluster_hit@k per item: a standard among the k best shares an accepted cluster."""
    order = np.argsort(-scores, axis=1, kind="stable")[:, : max(ks)]
    out: dict[str, list[float]] = {}
    for k in ks:
        out[f"cluster_hit@{k}"] = [
            float(bool({clusters[j] for j in order[i, :k]} & accepted[i]))
            for i in range(len(order))
        ]
    return out


def paired_cell(before: Sequence[float], after: Sequence[float]) -> dict[str, Any]:
    """Means, and the paired change with its 95% bootstrap interval."""
    diff = [a - b for a, b in zip(after, before, strict=True)]
    return {
        "n": len(diff),
        "before": round(float(np.mean(before)), 4) if diff else None,
        "after": round(float(np.mean(after)), 4) if diff else None,
        "delta": round(float(np.mean(diff)), 4) if diff else None,
        "ci95": bootstrap_ci(diff) if diff else None,
    }


def generator_fold(example: LinkerExample, folds: int = FOLDS) -> int | None:
    """The fold of a generated example (by its generator); None for the bundle's own."""
    return stable_fold(example.group, folds) if example.group.startswith("gen:") else None


def base_scores(
    linker: ConceptLinker, texts: Sequence[str], vectors: npt.NDArray[np.float32]
) -> npt.NDArray[np.float32]:
    """The card search's Common Core scores, one row per text."""
    return np.stack(
        [linker.standard_scores(t, v, prior=False) for t, v in zip(texts, vectors, strict=True)]
    )


def model_log_p(
    model: StandardModel,
    vectors: npt.NDArray[np.float32],
    texts: Sequence[str],
    grades: Sequence[Grade | None],
    order: npt.NDArray[np.int64],
) -> npt.NDArray[np.float32]:
    """The model's log-probabilities for a batch, columns in the linker's standard order."""
    extra = [story_tags(t) for t in texts]
    return model.log_proba_batch(vectors, texts, grades, extra)[:, order]
