"""The results files the paper is rendered from."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tutorgraph_research.report._format import (
    PRIMARY_METRIC,
    TASK_TITLES,
    fmt_ci,
    fmt_int,
    metrics_in_order,
)
from tutorgraph_research.report._table import Cell, Note

# The configuration every ablation row is compared with: the shipped default.
REFERENCE = "default"

# -- loading -----------------------------------------------------------------------------------


@dataclass
class Results:
    """Everything a results folder holds (empty where a file is absent)."""

    folder: Path
    ablations: list[dict[str, Any]] = field(default_factory=list)
    latency: dict[str, Any] = field(default_factory=dict)
    scale: dict[str, Any] = field(default_factory=dict)
    bundle: dict[str, Any] = field(default_factory=dict)
    phases: dict[str, Any] = field(default_factory=dict)


def load_results(folder: Path) -> Results:
    """Read a results folder; absent files stay empty (their tables say "not run")."""

    def read_json(name: str) -> dict[str, Any]:
        path = folder / name
        if not path.is_file():
            return {}
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return data

    rows: list[dict[str, Any]] = []
    path = folder / "ablations.jsonl"
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                continue  # a torn last line of a killed run
    return Results(
        folder,
        ablations=rows,
        latency=read_json("latency.json"),
        scale=read_json("scale.json"),
        bundle=read_json("bundle.json"),
        phases=read_json("phases.json"),
    )


class Ablations:
    """Index of the ablation rows: (task, config, metric, fold, query_type, subset) -> row."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows: dict[tuple[str, str, str, str, str, str], dict[str, Any]] = {}
        self.not_measured: dict[tuple[str, str], str] = {}
        self.factor: dict[str, str] = {}
        tasks: list[str] = []
        configs: list[str] = []
        self.metrics: dict[str, set[str]] = defaultdict(set)
        self.query_types: dict[str, set[str]] = defaultdict(set)
        self.subsets: dict[str, set[str]] = defaultdict(set)
        for r in rows:
            task, config = str(r["task"]), str(r["config"])
            if task not in tasks:
                tasks.append(task)
            if config not in configs:
                configs.append(config)
            if r.get("factor"):
                self.factor[config] = str(r["factor"])
            status = str(r.get("status") or "ok")
            if status != "ok":
                self.not_measured[(task, config)] = not_measured_reason(status)
                continue
            metric = str(r["metric"])
            self.metrics[task].add(metric)
            qtype = str(r.get("query_type", "all"))
            if qtype != "all":
                self.query_types[task].add(qtype)
            subset = str(r.get("subset", "all"))
            if subset != "all":
                self.subsets[task].add(subset)
            key = (task, config, metric, str(r.get("fold", "all")), qtype, subset)
            self.rows[key] = r
        order = {t: i for i, t in enumerate(TASK_TITLES)}
        self.tasks = sorted(tasks, key=lambda t: (order.get(t, len(order)), t))
        self.configs = _grid_order(configs)

    def get(
        self, task: str, config: str, metric: str, qtype: str = "all", subset: str = "all"
    ) -> dict[str, Any] | None:
        return self.rows.get((task, config, metric, "all", qtype, subset))

    def cell(
        self, task: str, config: str, metric: str, qtype: str = "all", subset: str = "all"
    ) -> Cell:
        row = self.get(task, config, metric, qtype, subset)
        if row is not None and row.get("value") is not None:
            return fmt_ci(row["value"], row.get("ci95"))
        if (task, config) in self.not_measured:
            return Note("not measured", self.not_measured[(task, config)])
        return "–"

    def has(self, task: str, config: str) -> bool:
        return (task, config) in self.not_measured or any(
            self.get(task, config, m) is not None for m in self.metrics[task]
        )

    def primary(self, task: str) -> str:
        metric = PRIMARY_METRIC.get(task)
        if metric in self.metrics[task]:
            return str(metric)
        ordered = metrics_in_order(self.metrics[task])
        return ordered[0] if ordered else ""

    def n(self, task: str, config: str, qtype: str = "all", subset: str = "all") -> str:
        for metric in metrics_in_order(self.metrics[task]):
            row = self.get(task, config, metric, qtype, subset)
            if row is not None:
                return fmt_int(row["n"])
        return "–"


def _grid_order(configs: Sequence[str]) -> list[str]:
    from tutorgraph_research.harness.configs import ablation_grid

    grid = [c.name for c in ablation_grid()]
    known = [c for c in grid if c in configs]
    return known + sorted(set(configs) - set(known))


def describe_config(config: str) -> str:
    return f"{REFERENCE} (reference)" if config == REFERENCE else config


def not_measured_reason(status: str) -> str:
    """The reason of a "not measured: <reason>" status, on one line."""
    text = (
        status.split(":", 1)[1] if status.startswith("not measured") and ":" in status else status
    )
    if "huggingface.co" in text or "couldn't connect" in text.lower():
        # The hub client's message runs to several sentences; its gist is this.
        text = text.split("OSError", 1)[0].rstrip(" :(") + ": no model hub here and no local copy"
    return " ".join(text.split())


def latency_ok(lat: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in lat.get("rows", []) if r.get("status") == "ok"]
