"""Training the concept linker's standards model (`linking/standards_model.py`).

Examples come from three places, each labelled with a Common Core standard of the bundle:

* generated problems (`problems/`): word problems and bare exercises per standard;
* the bundle's own links: Eedi questions and OpenStax exercises whose construct or section
  is `aligned_with` a standard (at most `PER_ALIGNED` items each, the solution cut off);
* every standard's card text (its description and its cluster's), so that a standard with
  no generator is still a class.

Half the examples carry a grade and half do not (a grade one or two above the standard's
now and then: a grade-6 student reviews grade-4 fractions), so one model serves both. The
fit is a full-batch softmax regression with L2, by Adam, in numpy: a few minutes on two
cores for ~11,000 rows.

>>> examples = bundle_examples(records)  # doctest: +SKIP
>>> model = fit_standard_model(examples, embed, classes, embedder="all-MiniLM-L6-v2")
... # doctest: +SKIP
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.linking.cards import build_cards
from tutorgraph.linking.standards_model import StandardModel
from tutorgraph.models.records import SourceRecords
from tutorgraph.problems import Problem, generate
from tutorgraph.retrieval.facts import request_facts
from tutorgraph_client.models.grade import GRADES, Grade, standard_grade
from tutorgraph_client.models.request import MAX_QUERY_CHARS, RetrievalRequest

__all__ = [
    "LinkerExample",
    "bundle_examples",
    "fit_standard_model",
    "problem_examples",
    "standard_classes",
    "story_tags",
    "train_linker",
]

PER_ALIGNED = 30
# Problems drawn from each generator, embedding batch, and full-batch Adam steps.
PER_GENERATOR = 20
EMBED_BATCH = 256
EPOCHS = 150
_SOLUTION = re.compile(r"\n?\s*Solution:.*", re.S)
Embed = Callable[[Sequence[str]], npt.NDArray[np.float32]]


@dataclass(frozen=True)
class LinkerExample:
    """A text labelled with its standard; `group` is what cross-validation holds out
    together (a generator, an aligned concept, a card)."""

    text: str
    standard: str
    group: str
    weight: float = 1.0


def standard_classes(records: SourceRecords) -> tuple[str, ...]:
    """The classes: every Common Core standard of the bundle, in id order."""
    return tuple(c.concept_id for c in build_cards(records.concepts) if c.taxonomy == "common-core")


def problem_examples(problems: Sequence[Problem]) -> list[LinkerExample]:
    """One example per generated problem, grouped by its generator."""
    return [LinkerExample(p.text, p.standard, f"gen:{p.generator}") for p in problems]


def bundle_examples(records: SourceRecords, seed: int = 0) -> list[LinkerExample]:
    """Card texts, and the items of constructs and sections aligned with a standard."""
    out = [
        LinkerExample(c.text, c.concept_id, f"card:{c.concept_id}")
        for c in build_cards(records.concepts)
        if c.taxonomy == "common-core"
    ]
    aligned: dict[str, list[str]] = defaultdict(list)
    for edge in records.prerequisites:
        if edge.relation == "aligned_with" and edge.prerequisite_id.startswith("ccss:"):
            aligned[edge.concept_id].append(edge.prerequisite_id)
    items: dict[str, list[str]] = defaultdict(list)
    for doc in records.documents:
        if doc.kind in {"question", "exercise"}:
            for concept in doc.concept_ids:
                if concept in aligned:
                    items[concept].append(_SOLUTION.sub("", doc.text).strip())
    rng = random.Random(seed)
    for concept in sorted(items):
        texts = sorted(t for t in set(items[concept]) if t)
        rng.shuffle(texts)
        # An item aligned with two standards counts half for each.
        weight = 1.0 / len(aligned[concept])
        out += [
            LinkerExample(t, std, f"aligned:{concept}", weight)
            for t in texts[:PER_ALIGNED]
            for std in aligned[concept]
        ]
    return out


def story_tags(text: str) -> frozenset[str]:
    """The story's tags of a text, read exactly as serving reads them: the request's facts
    (a story is read only where the message reader finds no problem)."""
    story = request_facts(RetrievalRequest(query=text[:MAX_QUERY_CHARS]), None).story
    return story.tags() if story is not None else frozenset()


def _grades(standards: Sequence[str], rng: random.Random) -> list[Grade | None]:
    """The grade an app would send for each example's student (see the module's docstring)."""
    out: list[Grade | None] = []
    for std in standards:
        grade = standard_grade(std)
        if grade is not None and grade != "HS" and rng.random() < 0.2:
            grade = GRADES[min(GRADES.index(grade) + rng.choice((1, 2)), len(GRADES) - 1)]
        out.append(grade)
    return out


def fit_standard_model(
    examples: Sequence[LinkerExample],
    embed: Embed,
    classes: Sequence[str],
    *,
    embedder: str,
    l2: float = 1e-4,
    epochs: int = EPOCHS,
    learning_rate: float = 0.05,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> StandardModel:
    """Fit the softmax regression (deterministic for the same inputs and seed)."""
    index = {c: i for i, c in enumerate(classes)}
    kept = [e for e in examples if e.standard in index]
    if not kept:
        raise ValueError("no example is labelled with one of the classes")
    texts = [e.text for e in kept]
    vectors = np.asarray(embed(texts), dtype=np.float32)
    dim = vectors.shape[1]
    shell = StandardModel(
        tuple(classes), np.zeros((0, 0), np.float32), np.zeros(0, np.float32), dim, embedder
    )
    rng = random.Random(seed)
    labels = [e.standard for e in kept]
    # Half the examples carry a grade, half do not (one model serves both requests).
    grades = [g if rng.random() < 0.5 else None for g in _grades(labels, rng)]
    x = shell.features(vectors, texts, grades, [story_tags(t) for t in texts])
    y = np.array([index[s] for s in labels], dtype=np.int64)
    w = np.array([e.weight for e in kept], dtype=np.float32)
    weights, bias = _softmax_regression(x, y, w, len(classes), l2, epochs, learning_rate, progress)
    return StandardModel(tuple(classes), weights, bias, dim, embedder)


def _softmax_regression(
    x: npt.NDArray[np.float32],
    y: npt.NDArray[np.int64],
    sample_weight: npt.NDArray[np.float32],
    n_classes: int,
    l2: float,
    epochs: int,
    learning_rate: float,
    progress: Callable[[int, int], None] | None,
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Weighted cross-entropy plus `l2` x the squared weights, minimised by full-batch Adam."""
    n, d = x.shape
    weights = np.zeros((d, n_classes), dtype=np.float32)
    bias = np.zeros(n_classes, dtype=np.float32)
    moments = [
        np.zeros_like(weights),
        np.zeros_like(weights),
        np.zeros_like(bias),
        np.zeros_like(bias),
    ]
    total = float(sample_weight.sum())
    onehot = np.zeros((n, n_classes), dtype=np.float32)
    onehot[np.arange(n), y] = 1.0
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    for step in range(1, epochs + 1):
        logits = x @ weights + bias
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        grad_logits = (probs - onehot) * (sample_weight[:, None] / total)
        grads = (x.T @ grad_logits + 2 * l2 * weights, grad_logits.sum(axis=0))
        for k, (param, grad) in enumerate(zip((weights, bias), grads, strict=True)):
            m, v = moments[2 * k], moments[2 * k + 1]
            m *= beta1
            m += (1 - beta1) * grad
            v *= beta2
            v += (1 - beta2) * grad * grad
            param -= (
                learning_rate * (m / (1 - beta1**step)) / (np.sqrt(v / (1 - beta2**step)) + eps)
            )
        if progress is not None:
            progress(step, epochs)
    return weights, bias


def train_linker(
    records: SourceRecords,
    embedder: Embedder,
    *,
    per_generator: int = PER_GENERATOR,
    epochs: int = EPOCHS,
    seed: int = 0,
    progress: Callable[[str, int, int], None] | None = None,
) -> StandardModel:
    """The standards model for a bundle: its generated problems, aligned items and cards,
    embedded by `embedder` (blocking; minutes on two cores, most of it embedding).

    `progress(stage, done, total)` hears "embed" and "fit" steps.
    """
    examples = problem_examples(generate(per_generator, seed)) + bundle_examples(records, seed)
    texts = sorted({e.text for e in examples})
    vectors: dict[str, npt.NDArray[np.float32]] = {}
    for start in range(0, len(texts), EMBED_BATCH):
        batch = texts[start : start + EMBED_BATCH]
        vectors.update(zip(batch, embedder.embed(batch), strict=True))
        if progress is not None:
            progress("embed", min(start + EMBED_BATCH, len(texts)), len(texts))
    return fit_standard_model(
        examples,
        lambda ts: np.stack([vectors[t] for t in ts]),
        standard_classes(records),
        embedder=embedder.name,
        epochs=epochs,
        seed=seed,
        progress=(lambda d, t: progress("fit", d, t)) if progress is not None else None,
    )
