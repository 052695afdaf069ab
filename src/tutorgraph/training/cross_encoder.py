"""Fine-tune a cross-encoder reranker from bi-encoder (MiniLM) weights on mined groups.

Pointwise binary cross-entropy (positives weighted by the negatives per positive), or a
listwise softmax over each group. Each group gives its positive (label 1), `negatives` hard
negatives sampled afresh each epoch from the mined pool, and `random_negatives` drawn from
all labels (easy ones). Batches are length-bucketed so that a CPU step pads little. A share
of the groups is held out: the epoch with the best held-out MAP@25 is kept, and the model is
written only if it passes its gates (`training.gates`). Works on CPU; uses CUDA when present.

>>> cfg = TrainingConfig(epochs=1.0)
>>> result = fit_cross_encoder(groups, base_model, out_dir, cfg)  # doctest: +SKIP
"""

from __future__ import annotations

import json
import math
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from tutorgraph.embedding.reranker import EncodedPair, RerankerOptions, encode_pairs, pad_batch
from tutorgraph.errors import ConfigurationError
from tutorgraph.training.gates import GateReport, TrainingRefused, base_rate_loss
from tutorgraph.training.mining import TrainingGroup

__all__ = ["TRAINING_RECORD", "TrainingConfig", "TrainingResult", "fit_cross_encoder"]

TRAINING_RECORD = "training.json"
# (step, total steps, running loss)
StepProgress = Callable[[int, int, float], None]


@dataclass(frozen=True)
class TrainingConfig:
    """The recipe; its values are written into the model's training record."""

    # Picked on fold 0 of the Eedi development file (see the issue 4 note): 3 layers and
    # 1.5e-4 learnt most in the CPU budget; 5e-4 and the listwise loss did not learn.
    epochs: float = 1.0
    learning_rate: float = 1.5e-4
    warmup_ratio: float = 0.1
    weight_decay: float = 0.01
    batch_size: int = 32
    negatives: int = 3
    random_negatives: int = 1
    # bce: pointwise, each pair on its own; listwise: softmax over a group, positive first.
    loss: Literal["bce", "listwise"] = "bce"
    # bce: weight positives by the negatives per positive (else a constant wins cheaply).
    pos_weight: bool = True
    # Groups held out (by a hash of the query) to pick the epoch and to check the gates.
    validation_share: float = 0.1
    layers: int | None = 3
    max_length: int = 128
    query_max_tokens: int = 64
    seed: int = 13

    def __post_init__(self) -> None:
        if self.epochs <= 0 or self.learning_rate <= 0 or self.batch_size < 2:
            raise ConfigurationError("epochs and learning_rate must be > 0, batch_size >= 2")
        if self.negatives < 0 or self.random_negatives < 0:
            raise ConfigurationError("negative counts must be >= 0")
        if self.negatives + self.random_negatives == 0:
            raise ConfigurationError("training needs at least one negative per positive")
        if self.layers is not None and self.layers < 1:
            raise ConfigurationError("layers must be >= 1")
        if not 0.0 <= self.validation_share < 1.0:
            raise ConfigurationError("validation_share must be in [0, 1)")
        RerankerOptions(max_length=self.max_length, query_max_tokens=self.query_max_tokens)

    @property
    def options(self) -> RerankerOptions:
        return RerankerOptions(max_length=self.max_length, query_max_tokens=self.query_max_tokens)


@dataclass
class TrainingResult:
    model_dir: Path
    steps: int
    examples_per_epoch: int
    seconds: float
    device: str
    final_loss: float
    record: dict[str, Any] = field(default_factory=dict)
    gates: GateReport | None = None


Example = tuple[EncodedPair, float]


def _epoch_groups(
    groups: Sequence[TrainingGroup],
    randoms: Sequence[Sequence[str]],
    encoded: dict[tuple[str, str], EncodedPair],
    negatives: int,
    rng: random.Random,
) -> list[list[Example]]:
    """One epoch: per group its positive first, a fresh sample of hard negatives, randoms."""
    out: list[list[Example]] = []
    for g, picks in zip(groups, randoms, strict=True):
        hard = list(g.hard_negatives)
        chosen = rng.sample(hard, min(negatives, len(hard))) + list(picks)
        out.append(
            [(encoded[(g.query, g.positive)], 1.0)]
            + [(encoded[(g.query, t)], 0.0) for t in chosen if t != g.positive]
        )
    return out


def _buckets(
    units: list[list[Example]], per_batch: int, rng: random.Random
) -> list[list[list[Example]]]:
    """Shuffle, sort by length inside windows of 50 batches, then shuffle the batches."""
    rng.shuffle(units)
    window = per_batch * 50
    batches: list[list[list[Example]]] = []
    for start in range(0, len(units), window):
        chunk = sorted(units[start : start + window], key=lambda u: max(len(e[0][0]) for e in u))
        batches += [chunk[i : i + per_batch] for i in range(0, len(chunk), per_batch)]
    rng.shuffle(batches)
    return batches


def _held_out(groups: Sequence[TrainingGroup], share: float) -> tuple[list[TrainingGroup], ...]:
    """(training, held-out) groups split by a hash of the query; all groups on both sides
    when either side would be empty (tiny runs: the record says so)."""
    cut = int(share * 1000)
    held = [g for g in groups if _bucket(g.query) < cut]
    train = [g for g in groups if _bucket(g.query) >= cut]
    if not held or not train:
        both = list(groups)
        return both, both
    return train, held


def _bucket(text: str) -> int:
    import hashlib

    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16) % 1000


def _first_position(group: TrainingGroup) -> int:
    """The positive's position in the first stage's order of the group's candidates."""
    last = 1 + len(group.hard_negatives)
    rank = group.positive_rank
    return last if rank is None else min(rank, last)


def fit_cross_encoder(
    groups: Sequence[TrainingGroup],
    base_model: str | Path,
    out_dir: Path,
    cfg: TrainingConfig,
    *,
    record: dict[str, Any] | None = None,
    progress: StepProgress | None = None,
    enforce_gates: bool = True,
) -> TrainingResult:
    """Train and save a one-logit sequence classifier (HF format) plus `training.json`.

    Raises `TrainingRefused` (and writes nothing) when the model fails its gates, unless
    `enforce_gates` is False (benchmarks measure whatever was learnt; the record says).
    """
    import numpy as np
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer
    from transformers.utils import logging as hf_logging

    if not groups:
        raise ConfigurationError("no training groups: the training file gave no labelled pairs")
    started = time.perf_counter()
    hf_logging.set_verbosity_error()  # type: ignore[no-untyped-call]
    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
    rng = random.Random(cfg.seed)
    torch.manual_seed(cfg.seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cpu":
        torch.set_num_threads(os.cpu_count() or 1)

    tokenizer = AutoTokenizer.from_pretrained(str(base_model))
    model = AutoModelForSequenceClassification.from_pretrained(str(base_model), num_labels=1)
    if cfg.layers is not None:
        # Keep the lower layers: a shallower, faster model (truncation as distillation-lite).
        encoder = model.base_model.encoder
        if cfg.layers > len(encoder.layer):
            raise ConfigurationError(f"the base model has only {len(encoder.layer)} layers")
        encoder.layer = encoder.layer[: cfg.layers]
        model.config.num_hidden_layers = cfg.layers
    model.to(device)

    groups, held = _held_out(groups, cfg.validation_share)
    all_texts = sorted({g.positive for g in groups} | {t for g in groups for t in g.hard_negatives})
    encoded: dict[tuple[str, str], EncodedPair] = {}
    options = cfg.options
    extra_rng = random.Random(cfg.seed + 1)
    epochs = math.ceil(cfg.epochs)
    randoms: list[list[str]] = []
    for g in groups:
        texts = [g.positive, *g.hard_negatives]
        # Pre-draw every epoch's random negatives so that all pairs are encoded once.
        picks = [extra_rng.choice(all_texts) for _ in range(cfg.random_negatives * epochs)]
        randoms.append(picks)
        texts += picks
        for pair_text, enc in zip(
            texts, encode_pairs(tokenizer, g.query, texts, options), strict=True
        ):
            encoded[(g.query, pair_text)] = enc

    group_size = 1 + cfg.negatives + cfg.random_negatives
    per_epoch = len(groups) * group_size
    # bce: units are pairs, `batch_size` a step; listwise: units are whole groups.
    per_batch = cfg.batch_size if cfg.loss == "bce" else max(1, cfg.batch_size // group_size)
    units_per_epoch = per_epoch if cfg.loss == "bce" else len(groups)
    total_steps = max(1, math.ceil(units_per_epoch * cfg.epochs / per_batch))
    warmup = int(total_steps * cfg.warmup_ratio)
    no_decay = ("bias", "LayerNorm.weight")
    params = [
        {
            "params": [p for n, p in model.named_parameters() if not n.endswith(no_decay)],
            "weight_decay": cfg.weight_decay,
        },
        {
            "params": [p for n, p in model.named_parameters() if n.endswith(no_decay)],
            "weight_decay": 0.0,
        },
    ]
    optimiser = torch.optim.AdamW(params, lr=cfg.learning_rate)
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimiser,
        lambda s: (
            (s + 1) / max(1, warmup)
            if s < warmup
            else max(0.0, (total_steps - s) / max(1, total_steps - warmup))
        ),
    )
    weight = float(group_size - 1) if cfg.pos_weight else 1.0
    bce = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor(weight, device=device))
    base_loss = (
        base_rate_loss(1.0 / group_size, weight) if cfg.loss == "bce" else math.log(group_size)
    )
    pad = tokenizer.pad_token_id or 0
    held_pairs = [
        encode_pairs(tokenizer, g.query, [g.positive, *g.hard_negatives], options) for g in held
    ]
    first_positions = [_first_position(g) for g in held]

    def held_out_scores() -> list[list[float]]:
        model.eval()
        out = []
        with torch.no_grad():
            for pairs in held_pairs:
                arrays = pad_batch(list(pairs), pad)
                feed = {k: torch.from_numpy(v).to(device) for k, v in arrays.items()}
                out.append([float(x) for x in model(**feed).logits.view(-1).cpu()])
        model.train()
        return out

    best: tuple[float, int, dict[str, Any]] | None = None
    epoch_maps: list[float] = []
    model.train()
    step, running = 0, 0.0
    for epoch in range(epochs):
        lo, hi = epoch * cfg.random_negatives, (epoch + 1) * cfg.random_negatives
        drawn = _epoch_groups(groups, [r[lo:hi] for r in randoms], encoded, cfg.negatives, rng)
        units = [[e] for g in drawn for e in g] if cfg.loss == "bce" else drawn
        for batch in _buckets(units, per_batch, rng):
            if step >= total_steps:
                break
            flat = [e for unit in batch for e in unit]
            arrays = pad_batch([e for e, _ in flat], pad)
            feed = {k: torch.from_numpy(v).to(device) for k, v in arrays.items()}
            logits = model(**feed).logits.view(-1)
            if cfg.loss == "bce":
                labels = torch.tensor([y for _, y in flat], dtype=torch.float32, device=device)
                loss = bce(logits, labels)
            else:
                # Softmax over each group (positive at column 0); short groups are masked.
                width = max(len(u) for u in batch)
                table = torch.full((len(batch), width), -1e4, device=device)
                at = 0
                for row, unit in enumerate(batch):
                    table[row, : len(unit)] = logits[at : at + len(unit)]
                    at += len(unit)
                target = torch.zeros(len(batch), dtype=torch.long, device=device)
                loss = torch.nn.functional.cross_entropy(table, target)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimiser.step()
            scheduler.step()
            optimiser.zero_grad(set_to_none=True)
            step += 1
            running = float(loss.item()) if step == 1 else 0.98 * running + 0.02 * loss.item()
            if progress:
                progress(step, total_steps, running)
        report = GateReport.measure(running, base_loss, held_out_scores(), first_positions)
        epoch_maps.append(round(report.inner_map, 5))
        if best is None or report.inner_map > best[0]:
            state = {k: v.detach().clone() for k, v in model.state_dict().items()}
            best = (report.inner_map, epoch, state)

    assert best is not None  # at least one epoch ran
    model.load_state_dict(best[2])
    gates = GateReport.measure(running, base_loss, held_out_scores(), first_positions)
    if enforce_gates and not gates.passed:
        raise TrainingRefused(gates)
    out_dir.mkdir(parents=True, exist_ok=True)
    model.eval()
    model.save_pretrained(str(out_dir))
    tokenizer.save_pretrained(str(out_dir))
    seconds = time.perf_counter() - started
    full_record = {
        **(record or {}),
        # The name only: no path of the training machine.
        "base_model": Path(base_model).name,
        "config": asdict(cfg),
        "groups": len(groups),
        "held_out_groups": len(held) if held is not groups else "the training groups",
        "epoch_held_out_map@25": epoch_maps,
        "kept_epoch": best[1] + 1,
        "gates": gates.to_json(),
        "examples_per_epoch": per_epoch,
        "steps": step,
        "device": device,
        "seconds": round(seconds, 1),
        "final_loss": round(running, 5),
        "torch": torch.__version__,
        "numpy": np.__version__,
    }
    (out_dir / TRAINING_RECORD).write_text(json.dumps(full_record, indent=2, sort_keys=True) + "\n")
    return TrainingResult(out_dir, step, per_epoch, seconds, device, running, full_record, gates)
