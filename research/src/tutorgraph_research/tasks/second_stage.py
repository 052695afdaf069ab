"""The cross-encoder's row (issue 33): its score as a feature over the learned ranker's lists.

The input is `bench eedi --rankings`: per Eedi pair, the shipped pipeline's first 30
misconception hits with the learned ranker's scores, each list made by the fold's ranker that
never saw the pair's question. Per fold K of `int(QuestionId) % folds`:

1. a cross-encoder is fine-tuned on the pairs of the other folds: the positive is the labelled
   misconception, the hard negatives that pair's own out-of-fold list (the candidates the
   shipped pipeline gives it) or, with `negatives`, another cross-fitted list (such as the
   fine-tuned bi-encoders' best, `tuned_negatives`);
2. it scores the first `depth` hits of fold K's pairs: every pair's scores come from a
   cross-encoder that never saw its question.

A LambdaRank second stage, fitted per fold on the other folds' pairs, reorders the first
`depth` hits twice: from the ranker's [score, rank] alone (`stage2`), and with the
cross-encoder's [score, rank, gap to the best] too (`stage2+cross`). The paired difference
of the two is the cross-encoder's effect in the learned ranker; each is also paired with the
ranker's own order (`ranker`).

>>> lists = read_rankings(Path("rankings.jsonl"), "default/construct")  # doctest: +SKIP
>>> report = await cross_encoder_row(lists, misconceptions, work=Path("ce"))  # doctest: +SKIP
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tutorgraph.embedding.reranker import ONNX_FILES, CrossEncoderReranker, RerankerOptions
from tutorgraph.errors import ConfigurationError
from tutorgraph.ranking.combiner import Combiner, TrainingGroup
from tutorgraph.ranking.metrics import average_precision_at_k
from tutorgraph.ranking.tuned import tuned_features
from tutorgraph.training.cross_encoder import TRAINING_RECORD, TrainingConfig
from tutorgraph.training.crossfit_encoders import FoldEncoders
from tutorgraph.training.eedi import fit_and_export
from tutorgraph.training.mining import TrainingGroup as PairGroup
from tutorgraph.training.ranker import LabelledQuery
from tutorgraph_research.harness.provenance import git_commit, hardware
from tutorgraph_research.harness.results import bootstrap_ci

__all__ = [
    "STAGE2_FEATURES",
    "RankedPair",
    "cross_encoder_row",
    "read_rankings",
    "train_fold_cross_encoders",
    "tuned_negatives",
]

K = 25
# The second stage's features: the ranker's, then the cross-encoder's.
RANKER_FEATURES = ("ranker_score", "ranker_rank")
CROSS_FEATURES = ("cross_score", "cross_rank", "cross_gap")
STAGE2_FEATURES = RANKER_FEATURES + CROSS_FEATURES
# Hard negatives per training pair: the first non-target hits of its out-of-fold list.
HARD_POOL = 10
_GRAPH = ONNX_FILES["onnx-int8"]


@dataclass(frozen=True)
class RankedPair:
    """One pair's out-of-fold list: (misconception id, learned score) in packet order."""

    item: str
    question: int
    query: str
    target: str
    hits: tuple[tuple[str, float], ...]

    def fold(self, folds: int) -> int:
        return self.question % folds


def read_rankings(path: Path, config: str) -> list[RankedPair]:
    """The lists of one configuration from a `bench eedi --rankings` file."""
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        row = json.loads(line)
        if row["config"] != config:
            continue
        if any(s is None for _, s in row["hits"]):
            raise ConfigurationError(f"{path}:{n}: a hit without a learned score")
        out.append(
            RankedPair(
                row["item"],
                int(row["question"]),
                row["query"],
                row["target"],
                tuple((h, float(s)) for h, s in row["hits"]),
            )
        )
    if not out:
        raise ConfigurationError(f"{path} holds no list of {config!r}")
    return out


def _rows(pair: RankedPair, depth: int, cross: Sequence[float] | None) -> list[list[float]]:
    """The second stage's feature rows of the first `depth` hits."""
    head = pair.hits[:depth]
    rows = [[s, float(r)] for r, (_, s) in enumerate(head, start=1)]
    if cross is not None:
        # Score, rank and gap to the best: what the ranker reads of the tuned encoder.
        parts = tuned_features(np.asarray(cross, dtype=np.float32), list(range(len(cross))))
        for row, part in zip(rows, parts, strict=True):
            row += part
    return rows


def _ap(pair: RankedPair, head_order: Sequence[int], depth: int) -> float:
    """AP@25 of the list with its first `depth` hits in `head_order`."""
    ids = [pair.hits[i][0] for i in head_order] + [h for h, _ in pair.hits[depth:]]
    return average_precision_at_k(ids, {pair.target}, K)


def _stage2(
    pairs: Sequence[RankedPair],
    folds: int,
    depth: int,
    cross: Mapping[str, Sequence[float]] | None,
) -> dict[str, float]:
    """Per pair, AP@25 after a second stage fitted on the other folds' pairs."""
    names = STAGE2_FEATURES if cross is not None else RANKER_FEATURES
    rows = {p.item: _rows(p, depth, cross[p.item] if cross else None) for p in pairs}
    out: dict[str, float] = {}
    for k in range(folds):
        # Combiner.fit drops the lists whose head misses the target.
        train = [
            TrainingGroup(rows[p.item], [int(h == p.target) for h, _ in p.hits[:depth]])
            for p in pairs
            if p.fold(folds) != k
        ]
        model = Combiner.fit(train, names)
        for p in pairs:
            if p.fold(folds) == k:
                scores = model.score(rows[p.item])
                order = sorted(range(len(scores)), key=lambda i: -scores[i])
                out[p.item] = _ap(p, order, depth)
    return out


def _paired(before: Mapping[str, float], after: Mapping[str, float]) -> dict[str, Any]:
    items = sorted(before)
    diffs = [after[i] - before[i] for i in items]
    low, high = bootstrap_ci(diffs)
    return {
        "mean": round(float(np.mean(diffs)), 6),
        "ci95": [low, high],
        "changed_items": sum(d != 0 for d in diffs),
    }


def tuned_negatives(
    pairs: Sequence[RankedPair],
    encoders: FoldEncoders,
    misconceptions: Mapping[str, str],
) -> dict[str, list[str]]:
    """Per pair, the fold encoders' best misconceptions that are not its label (`HARD_POOL`),
    each pair scored by the encoder that left its question out."""
    ids = sorted(misconceptions)
    queries = [LabelledQuery(str(p.question), p.query, p.target) for p in pairs]
    scores = encoders.scores(queries, [misconceptions[i] for i in ids])
    out = {}
    for p, row in zip(pairs, scores, strict=True):
        best = [ids[i] for i in np.argsort(-row, kind="stable")[: HARD_POOL + 1]]
        out[p.item] = [i for i in best if i != p.target][:HARD_POOL]
    return out


async def train_fold_cross_encoders(
    pairs: Sequence[RankedPair],
    misconceptions: Mapping[str, str],
    *,
    work: Path,
    folds: int = 5,
    training: TrainingConfig | None = None,
    base_model: Callable[[int], str] | str,
    negatives: Mapping[str, Sequence[str]] | None = None,
    say: Callable[[str], None] = lambda _line: None,
) -> list[dict[str, Any]]:
    """Cross-encoder K, for every fold K, trained on the pairs of the other folds into
    `work/fold<K>` (a finished one is kept and reused); what each was trained on.
    `negatives`: each pair's hard negatives (misconception ids), instead of the first
    non-target hits of its own list."""
    cfg = training or TrainingConfig()

    def hard(p: RankedPair) -> list[str]:
        if negatives is not None:
            return list(negatives[p.item])
        return [h for h, _ in p.hits if h != p.target][:HARD_POOL]

    trained: list[dict[str, Any]] = []
    for k in range(folds):
        model_dir = work / f"fold{k}"
        base = base_model(k) if callable(base_model) else base_model
        if (model_dir / _GRAPH).is_file():
            record = json.loads((model_dir / TRAINING_RECORD).read_text(encoding="utf-8"))
            trained.append({"fold": k, "reused": str(model_dir), "training": record})
            continue
        groups = [
            PairGroup(p.query, misconceptions[p.target], tuple(misconceptions[h] for h in hard(p)))
            for p in pairs
            if p.fold(folds) != k
        ]
        say(f"fold {k}: training a cross-encoder on {len(groups)} pairs from {base}")

        def step(s: int, t: int, loss: float, k: int = k) -> None:
            if s % 50 == 0 or s == t:
                say(f"fold {k}: step {s}/{t}, loss {loss:.3f}")

        result = await fit_and_export(
            groups, model_dir, cfg, base_model=base, enforce_gates=False, progress=step
        )
        trained.append(
            {
                "fold": k,
                "base_model": base,
                "groups": len(groups),
                "steps": result.steps,
                "train_seconds": round(result.seconds, 1),
                "final_loss": round(result.final_loss, 4),
                "gates": result.gates.to_json() if result.gates else None,
            }
        )
    return trained


async def cross_encoder_row(
    pairs: Sequence[RankedPair],
    misconceptions: Mapping[str, str],
    *,
    work: Path,
    folds: int = 5,
    depth: int = 20,
    training: TrainingConfig | None = None,
    base_model: Callable[[int], str] | str,
    negatives: Mapping[str, Sequence[str]] | None = None,
    say: Callable[[str], None] = lambda _line: None,
) -> dict[str, Any]:
    """Train the fold cross-encoders (`train_fold_cross_encoders`), score every list with
    its fold's and measure the second stages; returns the report (see the module)."""
    cfg = training or TrainingConfig()
    if not 2 <= depth <= 30:
        raise ConfigurationError("depth must be in [2, 30]")
    unknown = {h for p in pairs for h, _ in p.hits} - set(misconceptions)
    if unknown:
        raise ConfigurationError(f"{len(unknown)} hit ids are not in the misconception list")
    trained = await train_fold_cross_encoders(
        pairs,
        misconceptions,
        work=work,
        folds=folds,
        training=cfg,
        base_model=base_model,
        negatives=negatives,
        say=say,
    )
    cross: dict[str, list[float]] = {}
    latency_ms: list[float] = []
    for k in range(folds):
        model_dir = work / f"fold{k}"
        options = RerankerOptions(
            max_length=cfg.max_length, query_max_tokens=cfg.query_max_tokens, cache_size=0
        )
        reranker = CrossEncoderReranker(model_dir, backend="onnx-int8", options=options)
        reranker.load()
        mine = [p for p in pairs if p.fold(folds) == k]
        say(f"fold {k}: scoring {len(mine)} lists at depth {depth}")
        for p in mine:
            texts = [misconceptions[h] for h, _ in p.hits[:depth]]
            started = time.perf_counter()
            cross[p.item] = reranker.score(p.query, texts)
            latency_ms.append((time.perf_counter() - started) * 1000)
    ranker = {p.item: _ap(p, range(min(depth, len(p.hits))), depth) for p in pairs}
    alone = {
        p.item: _ap(p, sorted(range(len(cross[p.item])), key=lambda i: -cross[p.item][i]), depth)
        for p in pairs
    }
    say("fitting the second stages")
    stage2 = _stage2(pairs, folds, depth, None)
    with_cross = _stage2(pairs, folds, depth, cross)
    rows = {"ranker": ranker, "cross_alone": alone, "stage2": stage2, "stage2+cross": with_cross}

    def row(values: Mapping[str, float]) -> dict[str, Any]:
        v = [values[p.item] for p in pairs]
        low, high = bootstrap_ci(v)
        return {"map@25": round(float(np.mean(v)), 6), "ci95": [low, high], "n": len(v)}

    return {
        "rows": {name: row(v) for name, v in rows.items()},
        "paired": {
            "stage2+cross - stage2": _paired(stage2, with_cross),
            "stage2+cross - ranker": _paired(ranker, with_cross),
            "stage2 - ranker": _paired(ranker, stage2),
        },
        "cross_encoder_ms_per_list": {
            "p50": round(float(np.percentile(latency_ms, 50)), 2),
            "p95": round(float(np.percentile(latency_ms, 95)), 2),
            "note": f"int8 ONNX, {depth} pairs per list, one list at a time, no cache",
        },
        "_meta": {
            "depth": depth,
            "folds": folds,
            "hard_pool": HARD_POOL,
            "negatives": "given" if negatives is not None else "each pair's own list",
            "training": asdict(cfg),
            "cross_encoders": trained,
            "hardware": hardware(),
            "git_commit": git_commit(),
        },
    }
