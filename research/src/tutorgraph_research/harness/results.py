"""Tidy research results: scored items, bootstrap intervals and resumable JSON Lines files.

A benchmark scores *items* (one query each) under a named configuration. Items are
appended to an items file as each (task, config, fold) unit finishes, so an interrupted
run resumes at the next unit. `summary_rows` turns items into tidy rows, one per
(metric, fold or "all", query type or "all"), with a 95% bootstrap interval on the mean.

>>> item = ItemScore("concept-linking", "hybrid", 0, "q1", "procedural", {"mrr": 0.5})
>>> [r["value"] for r in summary_rows([item], factor="sources")][:1]
[0.5]
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

__all__ = [
    "SUBSET_FLAGS",
    "ItemScore",
    "JsonlFile",
    "PartScores",
    "UnitKey",
    "bootstrap_ci",
    "mean_cell",
    "paired_by_config",
    "paired_parts",
    "summary_rows",
]

# (task, config, fold): the unit a run records as done.
UnitKey = tuple[str, str, int]


@dataclass(frozen=True)
class ItemScore:
    """One query scored under one configuration; `metrics` maps metric name to value."""

    task: str
    config: str
    fold: int
    item: str
    query_type: str
    metrics: dict[str, float]

    @property
    def unit(self) -> UnitKey:
        return (self.task, self.config, self.fold)

    @classmethod
    def from_json(cls, row: dict[str, Any]) -> ItemScore:
        return cls(
            row["task"],
            row["config"],
            int(row["fold"]),
            str(row["item"]),
            row["query_type"],
            {k: float(v) for k, v in row["metrics"].items()},
        )


def bootstrap_ci(
    values: Sequence[float], *, resamples: int = 1000, seed: int = 0, level: float = 0.95
) -> tuple[float, float]:
    """Percentile bootstrap interval for the mean of `values` (deterministic for a seed).

    >>> bootstrap_ci([1.0, 1.0, 1.0])
    (1.0, 1.0)
    """
    if not values:
        raise ValueError("bootstrap_ci needs at least one value")
    arr = np.asarray(values, dtype=np.float64)
    rng = np.random.default_rng(seed)
    means = arr[rng.integers(0, len(arr), size=(resamples, len(arr)))].mean(axis=1)
    tail = (1.0 - level) / 2.0
    lo, hi = np.quantile(means, [tail, 1.0 - tail])
    return round(float(lo), 6), round(float(hi), 6)


def mean_cell(values: Sequence[float]) -> dict[str, Any]:
    """The mean of `values` (4 places) with its 95% bootstrap interval and their count.

    >>> mean_cell([1.0, 0.0])["mean"], mean_cell([1.0, 0.0])["n"]
    (0.5, 2)
    """
    lo, hi = bootstrap_ci(values)
    return {"mean": round(float(np.mean(values)), 4), "ci95": [lo, hi], "n": len(values)}


class PartScores(Protocol):
    """One scored item of a benchmark that judges each item in parts (a message, a turn)."""

    @property
    def id(self) -> str: ...

    @property
    def parts(self) -> Mapping[str, float]: ...


def paired_parts(
    before: Sequence[PartScores], after: Sequence[PartScores]
) -> dict[str, dict[str, Any]]:
    """Per part, the mean of `after - before` over the items both score, with a 95%
    bootstrap interval (`mean_cell`): the same items, so the interval is of the change
    itself."""
    first = {s.id: s for s in before}
    diffs: dict[str, list[float]] = defaultdict(list)
    for s in after:
        b = first.get(s.id)
        if b is None:
            continue
        for part, value in s.parts.items():
            if part in b.parts:
                diffs[part].append(value - b.parts[part])
    return {part: mean_cell(vals) for part, vals in sorted(diffs.items())}


def paired_by_config(
    base: dict[tuple[str, str], float],
    other: dict[tuple[str, str], float],
    configs: Sequence[str],
    names: tuple[str, str],
) -> dict[str, dict[str, Any]]:
    """Per configuration, two runs' scores of the same (config, item) pairs: each run's mean
    (keyed by `names`), the paired difference (other - base), its 95% bootstrap interval and
    how many pairs changed.

    >>> paired_by_config({("c", "1"): 0.5}, {("c", "1"): 1.0}, ["c"], ("a", "b"))["c"]["diff"]
    0.5
    """
    report: dict[str, dict[str, Any]] = {}
    for config in configs:
        keys = sorted(k for k in base if k[0] == config)
        before = [base[k] for k in keys]
        after = [other[k] for k in keys]
        diff = [a - b for a, b in zip(after, before, strict=True)]
        report[config] = {
            "n": len(keys),
            names[0]: round(statistics.fmean(before), 6),
            names[1]: round(statistics.fmean(after), 6),
            "diff": round(statistics.fmean(diff), 6),
            "diff_ci95": list(bootstrap_ci(diff)),
            "pairs_changed": sum(abs(d) > 1e-9 for d in diff),
        }
    return report


# Item metrics that say which subset an item is in (1.0 or 0.0), not how well it did: each
# splits the other metrics into a "seen <what>" and an "unseen <what>" subset.
SUBSET_FLAGS = {"seen_construct": "construct", "seen_misconception": "misconception"}


def summary_rows(
    items: Iterable[ItemScore],
    *,
    factor: str | None = None,
    seed: int = 0,
    resamples: int = 1000,
    extra: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Tidy rows for every (task, config, metric) in `items`: over all folds, per fold, per
    query type, and per subset (`SUBSET_FLAGS`: e.g. "unseen construct", the items whose
    construct no training question of their fold has), each with its mean, n and 95%
    bootstrap interval. Rows that are not a subset have `subset` "all".

    `factor` names the ablation factor the configuration varies; `extra` (git commit,
    hardware) is copied into every row.
    """
    groups: dict[tuple[str, str, str, str, str, str], list[float]] = defaultdict(list)
    for it in items:
        subsets = [
            f"{'seen' if it.metrics[flag] else 'unseen'} {what}"
            for flag, what in SUBSET_FLAGS.items()
            if flag in it.metrics
        ]
        for metric, value in it.metrics.items():
            for fold in ("all", str(it.fold)):
                groups[(it.task, it.config, metric, fold, "all", "all")].append(value)
            groups[(it.task, it.config, metric, "all", it.query_type, "all")].append(value)
            if metric not in SUBSET_FLAGS:
                for subset in subsets:
                    groups[(it.task, it.config, metric, "all", "all", subset)].append(value)
    rows = []
    for (task, config, metric, fold, qtype, subset), values in sorted(groups.items()):
        lo, hi = bootstrap_ci(values, resamples=resamples, seed=seed)
        rows.append(
            {
                "task": task,
                "config": config,
                "factor": factor,
                "metric": metric,
                "value": round(float(np.mean(values)), 6),
                "ci95": [lo, hi],
                "n": len(values),
                "fold": fold if fold == "all" else int(fold),
                "query_type": qtype,
                "subset": subset,
                "seed": seed,
                "status": "ok",
                **(extra or {}),
            }
        )
    return rows


class JsonlFile:
    """An append-only JSON Lines file; a torn last line (a killed run) is ignored on read.

    >>> f = JsonlFile(Path("results/items.jsonl"))  # doctest: +SKIP
    >>> f.append([asdict(item)])  # doctest: +SKIP
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> list[dict[str, Any]]:
        if not self.path.is_file():
            return []
        rows = []
        with self.path.open(encoding="utf-8") as fh:
            for line in fh:
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError:
                    continue  # only a write cut short by a kill leaves a bad line
        return rows

    def append(self, rows: Iterable[dict[str, Any]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows)
        with self.path.open("a+", encoding="utf-8") as fh:
            if fh.tell() > 0:
                fh.seek(fh.tell() - 1)
                if fh.read(1) != "\n":
                    text = "\n" + text  # end a torn line so the next row starts clean
            fh.write(text)
            fh.flush()

    def items(self) -> list[ItemScore]:
        return [ItemScore.from_json(r) for r in self.read()]

    def append_items(self, items: Iterable[ItemScore]) -> None:
        self.append(asdict(i) for i in items)
