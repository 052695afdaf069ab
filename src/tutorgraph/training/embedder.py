"""Fine-tune the MiniLM bi-encoder for misconception retrieval (issue 33's recipe).

Each labelled wrong answer is a query (in the forms the pipeline reads: the worksheet with
the construct's names, the worksheet, what the student states; one drawn per epoch) and its
misconception's name the document. The loss is MultipleNegativesRankingLoss over the batch's
positives and one hard negative per query, drawn afresh each epoch from the misconceptions
labelled under the same construct or subject and from the base model's nearest neighbours
(never the query's own). A batch's other copies of a query's own misconception are masked,
not counted as negatives.

A share of the questions is held out (by a hash of the question, so no question is on both
sides). The model is written only if it passes its gates on them: its loss below the base
model's, and its MAP@25 (cosine over every misconception) above the base model's. It is
written with its ONNX exports (fp32, int8), the misconceptions' vectors in `embeddings/`
(keyed by the model's fingerprint, so no query pays to embed them), and `training.json`.
Works on the CPU; uses CUDA when present.

>>> result = fit_embedder(examples, targets, "sentence-transformers/all-MiniLM-L6-v2",
...     Path("models/eedi-embedder"), EmbedderTrainingConfig(epochs=1))  # doctest: +SKIP
"""

from __future__ import annotations

import json
import math
import random
import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.embedder import resolve_model_path
from tutorgraph.embedding.onnx_embedder import export_transformer
from tutorgraph.embedding.stored_vectors import StoredVectors, model_fingerprint
from tutorgraph.errors import ConfigurationError
from tutorgraph.ranking.metrics import cosine_map_at_k
from tutorgraph.ranking.tuned import TUNED_GRAPH
from tutorgraph.training.cross_encoder import TRAINING_RECORD
from tutorgraph.training.gates import EmbedderGates, TrainingRefused
from tutorgraph.training.onnx_export import quantize_int8
from tutorgraph.training.ranker import inner_fold

__all__ = [
    "EmbedderExample",
    "EmbedderTrainingConfig",
    "EmbedderTrainingResult",
    "fit_embedder",
]

# (step, total steps, running loss)
StepProgress = Callable[[int, int, float], None]
Matrix = npt.NDArray[np.float32]
_NEIGHBOURS = 10


@dataclass(frozen=True)
class EmbedderTrainingConfig:
    """The recipe; its values are written into `training.json`."""

    epochs: float = 4.0
    learning_rate: float = 2e-5
    warmup_ratio: float = 0.1
    weight_decay: float = 0.01
    batch_size: int = 64
    max_length: int = 256
    # Cosine similarities are multiplied by this before the softmax (sentence-transformers'
    # MultipleNegativesRankingLoss default).
    scale: float = 20.0
    hard_negatives: bool = True
    # Questions held out (by a hash of the question) for the gates.
    validation_share: float = 0.1
    seed: int = 13

    def __post_init__(self) -> None:
        if self.epochs <= 0 or self.learning_rate <= 0 or self.batch_size < 2:
            raise ConfigurationError("epochs and learning_rate must be > 0, batch_size >= 2")
        if not 0.0 < self.validation_share < 1.0:
            raise ConfigurationError("validation_share must be in (0, 1)")
        if self.max_length < 8 or self.scale <= 0:
            raise ConfigurationError("max_length must be >= 8 and scale > 0")


@dataclass(frozen=True)
class EmbedderExample:
    """One labelled wrong answer: its question (the hold-out unit), the query forms, its
    misconception, and the concepts whose other misconceptions make hard negatives."""

    group: str
    queries: tuple[str, ...]
    target: str
    concept_ids: tuple[str, ...] = ()


@dataclass
class EmbedderTrainingResult:
    out_dir: Path
    steps: int
    seconds: float
    device: str
    final_loss: float
    gates: EmbedderGates
    record: dict[str, Any] = field(default_factory=dict)


def _held_out(group: str, share: float) -> bool:
    return inner_fold(group, 1000) < share * 1000


def fit_embedder(
    examples: Sequence[EmbedderExample],
    targets: Mapping[str, str],
    base_model: str,
    out_dir: Path,
    cfg: EmbedderTrainingConfig,
    *,
    record: Mapping[str, Any] | None = None,
    progress: StepProgress | None = None,
    enforce_gates: bool = True,
) -> EmbedderTrainingResult:
    """Fine-tune `base_model` on `examples` (their targets' texts in `targets`) and write it
    to `out_dir` (`model/`, `model/onnx/`, `embeddings/`, `training.json`). Blocking."""
    import torch
    from sentence_transformers import SentenceTransformer

    usable = [e for e in examples if e.target in targets and e.queries]
    held = [e for e in usable if _held_out(e.group, cfg.validation_share)]
    train = [e for e in usable if not _held_out(e.group, cfg.validation_share)]
    if not held or not train:
        raise ConfigurationError(
            f"{len(usable)} usable examples: too few to hold out {cfg.validation_share:.0%}"
            " of the questions and train on the rest"
        )
    started = time.perf_counter()
    rng = random.Random(cfg.seed)
    torch.manual_seed(cfg.seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = SentenceTransformer(resolve_model_path(base_model), device=device)
    model.max_seq_length = cfg.max_length
    model.eval()  # the base model is measured without dropout
    ids = sorted(targets)
    texts = [targets[t] for t in ids]

    def encode(batch: Sequence[str]) -> Matrix:
        out = model.encode(list(batch), batch_size=64, normalize_embeddings=True)
        return np.asarray(out, dtype=np.float32)

    base_vectors = encode(texts)
    base_map = _held_out_map(encode, held, ids, base_vectors)
    base_loss = _held_out_loss(model, held, targets, cfg)
    pools = _negative_pools(train, encode, ids, base_vectors) if cfg.hard_negatives else {}

    per_epoch = math.ceil(len(train) / cfg.batch_size)
    total = max(1, round(per_epoch * cfg.epochs))
    optimizer = torch.optim.AdamW(
        model.parameters(), lr=cfg.learning_rate, weight_decay=cfg.weight_decay
    )
    warmup = max(1, round(cfg.warmup_ratio * total))
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer,
        lambda s: min((s + 1) / warmup, max(0.0, (total - s) / max(1, total - warmup))),
    )
    model.train()
    step, running = 0, float("nan")
    while step < total:
        order = list(train)
        rng.shuffle(order)
        for start in range(0, len(order), cfg.batch_size):
            if step >= total:
                break
            batch = order[start : start + cfg.batch_size]
            if len(batch) < 2:
                continue
            queries = [rng.choice(e.queries) for e in batch]
            negatives = [_negative(e, pools, ids, rng) for e in batch]
            loss = _loss(model, queries, batch, negatives, targets, cfg.scale)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            step += 1
            value = float(loss.detach())
            running = value if math.isnan(running) else 0.9 * running + 0.1 * value
            if progress:
                progress(step, total, running)
    model.eval()
    vectors = encode(texts)
    gates = EmbedderGates(
        base_loss=base_loss,
        loss=_held_out_loss(model, held, targets, cfg),
        base_map=base_map,
        map=_held_out_map(encode, held, ids, vectors),
        held_out=len(held),
    )
    if enforce_gates and not gates.passed:
        raise TrainingRefused(gates, "embedder")
    seconds = time.perf_counter() - started
    result = EmbedderTrainingResult(out_dir, step, seconds, device, running, gates)
    result.record = _write(model, texts, vectors, out_dir, cfg, result, record or {})
    return result


def _negative_pools(
    train: Sequence[EmbedderExample],
    encode: Callable[[Sequence[str]], Matrix],
    ids: Sequence[str],
    vectors: Matrix,
) -> dict[int, list[str]]:
    """Per training example (by `id`): the misconceptions labelled under its concepts and
    the base model's nearest to its first query form, without its own."""
    by_concept: dict[str, set[str]] = defaultdict(set)
    for e in train:
        for c in e.concept_ids:
            by_concept[c].add(e.target)
    queries = encode([e.queries[0] for e in train])
    near = np.argsort(-(queries @ vectors.T), axis=1)[:, : _NEIGHBOURS + 1]
    pools: dict[int, list[str]] = {}
    for n, e in enumerate(train):
        related = {t for c in e.concept_ids for t in by_concept[c]}
        related.update(ids[i] for i in near[n])
        related.discard(e.target)
        pools[id(e)] = sorted(related)
    return pools


def _negative(
    e: EmbedderExample, pools: Mapping[int, list[str]], ids: Sequence[str], rng: random.Random
) -> str:
    pool = pools.get(id(e))
    if pool:
        return rng.choice(pool)
    while True:  # a random misconception: the recipe without hard negatives
        pick = rng.choice(ids)
        if pick != e.target:
            return pick


def _loss(
    model: Any,
    queries: Sequence[str],
    batch: Sequence[EmbedderExample],
    negatives: Sequence[str],
    targets: Mapping[str, str],
    scale: float,
) -> Any:
    """MultipleNegativesRankingLoss over the positives and the hard negatives, with the
    batch's other copies of a query's own misconception masked out."""
    import torch

    def embed(texts: Sequence[str]) -> Any:
        # `preprocess` since sentence-transformers 6 (`tokenize` before, now deprecated).
        features = getattr(model, "preprocess", model.tokenize)(list(texts))
        features = {
            k: v.to(model.device) if isinstance(v, torch.Tensor) else v for k, v in features.items()
        }
        out = model(features)["sentence_embedding"]
        return torch.nn.functional.normalize(out, dim=-1)

    docs = [targets[e.target] for e in batch] + [targets[n] for n in negatives]
    doc_ids = [e.target for e in batch] + list(negatives)
    scores = embed(queries) @ embed(docs).T * scale
    same = torch.tensor(
        [[d == e.target for d in doc_ids] for e in batch], device=scores.device, dtype=torch.bool
    )
    own = torch.zeros_like(same)
    own[range(len(batch)), range(len(batch))] = True
    scores = scores.masked_fill(same & ~own, float("-inf"))
    labels = torch.arange(len(batch), device=scores.device)
    return torch.nn.functional.cross_entropy(scores, labels)


def _held_out_loss(
    model: Any,
    held: Sequence[EmbedderExample],
    targets: Mapping[str, str],
    cfg: EmbedderTrainingConfig,
) -> float:
    """The loss over the held-out examples in fixed batches, each query in its first form,
    with a fixed random negative: the same batches for the base and the trained model."""
    import torch

    rng = random.Random(cfg.seed)
    ids = sorted(targets)
    negatives = [_negative(e, {}, ids, rng) for e in held]
    losses, weights = [], []
    with torch.no_grad():
        for start in range(0, len(held), cfg.batch_size):
            batch = held[start : start + cfg.batch_size]
            if len(batch) < 2:
                continue
            queries = [e.queries[0] for e in batch]
            negs = negatives[start : start + cfg.batch_size]
            losses.append(float(_loss(model, queries, batch, negs, targets, cfg.scale)))
            weights.append(len(batch))
    return float(np.average(losses, weights=weights)) if losses else float("nan")


def _held_out_map(
    encode: Callable[[Sequence[str]], Matrix],
    held: Sequence[EmbedderExample],
    ids: Sequence[str],
    vectors: Matrix,
) -> float:
    """MAP@25 of the cosine over every misconception (`vectors`, in the order of `ids`),
    each held-out query in each form."""
    queries = [(q, e.target) for e in held for q in e.queries]
    return cosine_map_at_k(
        encode([q for q, _ in queries]), vectors, ids, [target for _, target in queries]
    )


def _write(
    model: Any,
    texts: Sequence[str],
    vectors: Matrix,
    out_dir: Path,
    cfg: EmbedderTrainingConfig,
    result: EmbedderTrainingResult,
    record: Mapping[str, Any],
) -> dict[str, Any]:
    """The model, its ONNX exports, the targets' vectors and the training record."""
    model_dir = out_dir / "model"
    model.save(str(model_dir))
    fp32 = model_dir / "onnx" / "model.onnx"
    export_transformer(model_dir, fp32)
    quantize_int8(fp32, model_dir / TUNED_GRAPH, per_channel=True)
    fingerprint = model_fingerprint(str(model_dir))
    assert fingerprint is not None  # a local folder always has one
    StoredVectors.write(
        out_dir / "embeddings", texts, vectors, model=out_dir.name, fingerprint=fingerprint
    )
    full = {
        **record,
        "task": "eedi-misconception-retrieval",
        "recipe": asdict(cfg),
        "loss": "MultipleNegativesRankingLoss (in-batch, one hard negative, own target masked)",
        "steps": result.steps,
        "seconds": round(result.seconds, 1),
        "device": result.device,
        "final_loss": round(result.final_loss, 5),
        "gates": result.gates.to_json(),
        "targets": len(texts),
        "fingerprint": fingerprint,
    }
    (out_dir / TRAINING_RECORD).write_text(json.dumps(full, indent=2, sort_keys=True) + "\n")
    return full
