"""Fine-tuned encoders for the learned ranker's training: cross-fitted by question folds.

The ranker's combiner learns how far to trust the fine-tuned encoder's cosine from its
training rows, so those must hold the cosine of an encoder that never saw the row's
question (a leaked version scored dev CV 0.43 and held-out 0.34 in the issue's probe).
`tutorgraph train-embedder --leave-out K/N` trains encoder K without the questions of fold
K (`int(QuestionId) % N == K`, as `bench eedi` folds them); a question of fold K is scored by
encoder K. `bench eedi` serves fold K's ranker with encoder K as well (trained on exactly
that fold's training questions), and a ranker for every question with an encoder trained
on all of them.

>>> folds = load_fold_encoders(Path("models/folds"))  # doctest: +SKIP
>>> tuned = TunedEncoders(serving, "models/eedi-embedder/model", folds)  # doctest: +SKIP
>>> training = tuned.training(misconception_texts)  # doctest: +SKIP
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.embedding.onnx_embedder import OnnxEmbedder
from tutorgraph.errors import ConfigurationError
from tutorgraph.ingest.eedi import eedi_fold
from tutorgraph.ranking.examples import ExampleMemory
from tutorgraph.ranking.tuned import TUNED_GRAPH, TunedQuery, TunedText
from tutorgraph.training.cross_encoder import TRAINING_RECORD
from tutorgraph.training.ranker import LabelledQuery, TunedTraining

__all__ = [
    "FoldEncoders",
    "TunedEncoders",
    "copy_serving_encoder",
    "fold_model_dir",
    "load_fold_encoders",
]

Matrix = npt.NDArray[np.float32]


class FoldEncoders:
    """Encoder K scores the questions whose id is K modulo the number of encoders. Vectors
    are cached per encoder (the same questions are scored again in every outer fold)."""

    def __init__(self, encoders: Sequence[Embedder]) -> None:
        if len(encoders) < 2:
            raise ConfigurationError("cross-fitting needs at least two fold encoders")
        self.encoders = list(encoders)
        self._targets: dict[tuple[int, tuple[str, ...]], Matrix] = {}
        self._queries: list[dict[str, npt.NDArray[np.float32]]] = [{} for _ in encoders]

    def fold_of(self, group: str) -> int:
        try:
            return eedi_fold(int(group), len(self.encoders))
        except ValueError:
            raise ConfigurationError(
                f"question {group!r}: fold encoders need numeric ids"
            ) from None

    def vectors(self, k: int, texts: Sequence[str]) -> Matrix:
        """Encoder `k`'s vectors of `texts` (cached by text)."""
        cache = self._queries[k]
        missing = list(dict.fromkeys(t for t in texts if t not in cache))
        if missing:
            cache.update(zip(missing, self.encoders[k].embed(missing), strict=True))
        return np.stack([cache[t] for t in texts]) if texts else np.empty((0, 0), np.float32)

    def scores(self, queries: Sequence[LabelledQuery], target_texts: Sequence[str]) -> Matrix:
        """Each query's cosine with every target, by the encoder of its question's fold."""
        return np.stack([q.scores for q in self.queries(queries, target_texts)])

    def queries(
        self,
        queries: Sequence[LabelledQuery],
        target_texts: Sequence[str],
        *,
        examples: bool = False,
    ) -> list[TunedQuery]:
        """Each query under the encoder of its question's fold; with `examples`, with that
        encoder's memory of every query of `queries` (each row leaves its own question out
        when the ranker reads it, as with the zero-shot memory)."""
        by_fold: dict[int, list[int]] = {}
        for n, q in enumerate(queries):
            by_fold.setdefault(self.fold_of(q.group), []).append(n)
        out: list[TunedQuery | None] = [None] * len(queries)
        for k, rows in sorted(by_fold.items()):
            key = (k, tuple(target_texts))
            if key not in self._targets:
                self._targets[key] = self.encoders[k].embed(list(target_texts))
            memory = None
            if examples:
                memory = ExampleMemory(
                    self.vectors(k, [q.text for q in queries]),
                    [q.target for q in queries],
                    [q.group for q in queries],
                )
            vectors = self.vectors(k, [queries[n].text for n in rows])
            scores = vectors @ self._targets[key].T
            for n, vector, row in zip(rows, vectors, scores, strict=True):
                out[n] = TunedQuery(row, vector, memory)
        return [q for q in out if q is not None]


@dataclass(frozen=True)
class TunedEncoders:
    """The encoder a ranker will be served with (its weights at `model`) and the fold
    encoders that score its training queries."""

    serving: Embedder
    model: str
    folds: FoldEncoders

    def training(self, target_texts: Sequence[str]) -> TunedTraining:
        """The ranker's tuned part over `target_texts` (in its target order), with the
        cross-fitted training queries and the serving encoder's memory of them."""
        part = TunedText(self.serving.embed(list(target_texts)), self.model, self.serving)
        return TunedTraining(
            part,
            lambda queries, examples: self.folds.queries(queries, target_texts, examples=examples),
            self.memory,
        )

    def memory(self, queries: Sequence[LabelledQuery]) -> ExampleMemory:
        """The labelled queries under the serving encoder (in a CV it is one of the fold
        encoders: their cache serves it)."""
        texts = [q.text for q in queries]
        fold = next((k for k, e in enumerate(self.folds.encoders) if e is self.serving), None)
        vectors = self.serving.embed(texts) if fold is None else self.folds.vectors(fold, texts)
        return ExampleMemory(vectors, [q.target for q in queries], [q.group for q in queries])


def copy_serving_encoder(output: Path, dest: Path) -> OnnxEmbedder:
    """Copy what serving the encoder of a `train-embedder` output takes into `dest/model`
    (its configs, tokenizer and int8 graph, not its weights) with its training record, and
    load it from there (blocking)."""
    model = output / "model"
    if not (model / TUNED_GRAPH).is_file():
        raise ConfigurationError(f"{model} has no {TUNED_GRAPH}: not a train-embedder output")
    shutil.rmtree(dest / "model", ignore_errors=True)
    # Not the weights, the fp32 graph or the base model's card (the record says what it is).
    skip = shutil.ignore_patterns("*.safetensors", "*.bin", "model.onnx", "README.md")
    shutil.copytree(model, dest / "model", ignore=skip)
    if (output / TRAINING_RECORD).is_file():
        shutil.copy2(output / TRAINING_RECORD, dest / TRAINING_RECORD)
    encoder = OnnxEmbedder(str(dest / "model"), graph=TUNED_GRAPH)
    encoder.load()
    return encoder


def fold_model_dir(folder: Path, fold: int) -> Path:
    """Where `train-embedder --leave-out K/N --out <folder>/fold<K>` put encoder K."""
    return folder / f"fold{fold}" / "model"


def load_fold_encoders(folder: Path, folds: int | None = None) -> FoldEncoders:
    """The `folds` encoders under `folder` (None: as many as fold 0's record says), each
    checked to have left out its own fold (blocking: loads every model)."""
    if folds is None:
        folds = int(_record(folder, 0).get("left_out_fold", {}).get("folds", 0))
    encoders = []
    for k in range(folds):
        record = _record(folder, k)
        record_file = folder / f"fold{k}" / TRAINING_RECORD
        if record.get("left_out_fold") != {"fold": k, "folds": folds}:
            raise ConfigurationError(
                f"{record_file} was not trained with --leave-out {k}/{folds} "
                f"(it says {record.get('left_out_fold')})"
            )
        encoder = OnnxEmbedder(str(fold_model_dir(folder, k)), graph=TUNED_GRAPH)
        encoder.load()
        encoders.append(encoder)
    return FoldEncoders(encoders)


def _record(folder: Path, fold: int) -> dict[str, Any]:
    record_file = folder / f"fold{fold}" / TRAINING_RECORD
    try:
        record = json.loads(record_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigurationError(f"fold encoder {fold}: cannot read {record_file}: {exc}") from exc
    if not isinstance(record, dict):
        raise ConfigurationError(f"{record_file} is not a training record")
    return record
