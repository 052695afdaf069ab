"""The tables of the ablations: the headline, one per task, seen and unseen constructs,
prerequisite hops and results by query type (the system's tables are `_system_tables`).

>>> headline(Ablations(load_results(Path("results/paper")).ablations)).name  # doctest: +SKIP
'headline'
"""

from __future__ import annotations

from tutorgraph_research.report._format import (
    HEADLINE_CONFIGS,
    QUERY_TYPE_LABELS,
    SUBSETS,
    TASK_TITLES,
    fmt_ci,
    metric_label,
    metrics_in_order,
)
from tutorgraph_research.report._inputs import REFERENCE, Ablations, describe_config
from tutorgraph_research.report._system_tables import empty_table
from tutorgraph_research.report._table import Cell, Table

__all__ = ["ablation_table", "by_query_type", "headline", "hops_table", "subsets_table"]


def _paired_cell(ab: Ablations, task: str, config: str, metric: str) -> Cell:
    """The configuration's paired difference from the reference on `metric`, or "" for the
    reference itself (and for rows recorded without one)."""
    row = ab.get(task, config, metric)
    paired = row.get("paired") if row else None
    if not paired:
        return ""
    return fmt_ci(paired["diff"], paired["ci95"], signed=True)


def headline(ab: Ablations) -> Table:
    task = "eedi-misconceptions" if "eedi-misconceptions" in ab.tasks else (ab.tasks or [""])[0]
    metrics = metrics_in_order(ab.metrics[task])
    primary = ab.primary(task)
    rows: list[list[Cell] | str] = [
        [
            describe_config(c),
            *(ab.cell(task, c, m) for m in metrics),
            _paired_cell(ab, task, c, primary),
            ab.n(task, c),
        ]
        for c in HEADLINE_CONFIGS
        if ab.has(task, c)
    ]
    if not rows:
        return empty_table("headline", "Headline results: no ablation results yet.")
    return Table(
        "headline",
        f"{TASK_TITLES.get(task, task)}: the shipped default and the main one-factor changes "
        "(mean over all folds with 95% bootstrap interval; paired = the mean per-item "
        f"difference from the default on {metric_label(primary)}, with its interval; "
        "n = scored items).",
        [
            "Configuration",
            *(metric_label(m) for m in metrics),
            f"paired {metric_label(primary)}",
            "n",
        ],
        rows,
        source="ablations.jsonl",
        wide=True,
    )


HOPS_CONFIGS = (
    (REFERENCE, "by query type"),
    ("hops=0", "0 hops"),
    ("hops=1", "1 hop"),
    ("hops=2", "2 hops"),
)


def hops_table(ab: Ablations) -> Table:
    """Each task's primary metric as the prerequisite traversal goes 0, 1 or 2 hops deep."""
    shown = [(c, label) for c, label in HOPS_CONFIGS if any(ab.has(t, c) for t in ab.tasks)]
    if not any(c.startswith("hops=") for c, _ in shown):
        return empty_table("hops", "Prerequisite hops: no results for the hops factor yet.")
    rows: list[list[Cell] | str] = [
        [
            TASK_TITLES.get(t, t),
            metric_label(ab.primary(t)),
            *(ab.cell(t, c, ab.primary(t)) if ab.has(t, c) else "" for c, _ in shown),
        ]
        for t in ab.tasks
    ]
    return Table(
        "hops",
        "Prerequisite traversal depth: each task's primary metric (all folds; 95% bootstrap "
        "intervals) with the query type's plan (1 hop for a concept lookup, 2 for a "
        "prerequisite question) and with the depth fixed at 0, 1 or 2 hops.",
        ["Task", "Metric", *(label for _, label in shown)],
        rows,
        align="ll" + "r" * len(shown),
        source="ablations.jsonl",
        wide=True,
    )


def ablation_table(ab: Ablations, task: str) -> Table:
    metrics = metrics_in_order(ab.metrics[task])
    primary = ab.primary(task)
    rows: list[list[Cell] | str] = []
    last_factor = None
    for c in ab.configs:
        if not ab.has(task, c):
            continue
        factor = ab.factor.get(c, c.split("=", 1)[0] if "=" in c else REFERENCE)
        if factor != last_factor and last_factor is not None:
            rows.append(f"factor: {factor}")
        last_factor = factor
        rows.append(
            [
                describe_config(c),
                *(ab.cell(task, c, m) for m in metrics),
                _paired_cell(ab, task, c, primary),
                ab.n(task, c),
            ]
        )
    return Table(
        f"ablation-{task}",
        f"{TASK_TITLES.get(task, task)}: one factor changed at a time from the shipped "
        "default (all folds; 95% bootstrap intervals; paired = mean per-item difference "
        f"from the default on {metric_label(primary)}).",
        ["Configuration", *(metric_label(m) for m in metrics), "paired", "n"],
        rows,
        source="ablations.jsonl",
        wide=True,
    )


def subsets_table(ab: Ablations) -> Table:
    """The primary metric on the items whose construct (misconception) the fold's training
    questions hold and on those they do not, for every configuration of a task that has
    these subsets."""
    rows: list[list[Cell] | str] = []
    for task in ab.tasks:
        subsets = [x for x in SUBSETS if x in ab.subsets[task]]
        if not subsets:
            continue
        metric = ab.primary(task)
        rows.append(f"{TASK_TITLES.get(task, task)} ({metric_label(metric)})")
        rows.append(["n", *(ab.n(task, REFERENCE, subset=x) for x in subsets)])
        rows += [
            [describe_config(c), *(ab.cell(task, c, metric, subset=x) for x in subsets)]
            for c in ab.configs
            if ab.get(task, c, metric) is not None
        ]
    if not rows:
        return empty_table("seen-unseen", "Seen and unseen constructs: no results yet.")
    return Table(
        "seen-unseen",
        "Seen and unseen: each configuration on the items whose construct (misconception) "
        "some training question of their fold has, and on those no training question has "
        "(all folds; 95% bootstrap intervals).",
        ["Configuration", *SUBSETS],
        rows,
        source="ablations.jsonl",
        wide=True,
    )


def by_query_type(ab: Ablations) -> Table:
    rows: list[list[Cell] | str] = []
    for task in ab.tasks:
        metric = ab.primary(task)
        types = sorted(ab.query_types[task])
        if not types or not ab.has(task, REFERENCE):
            continue
        rows.append(f"{TASK_TITLES.get(task, task)} ({metric_label(metric)})")
        for qtype in types:
            best = ab.get(task, REFERENCE, metric, qtype)
            nog = ab.get(task, "sources=no-graph", metric, qtype)
            delta = "–"
            if best is not None and nog is not None:
                delta = f"{best['value'] - nog['value']:+.3f}"
            rows.append(
                [
                    QUERY_TYPE_LABELS.get(qtype, qtype),
                    ab.n(task, REFERENCE, qtype),
                    ab.cell(task, REFERENCE, metric, qtype),
                    ab.cell(task, "sources=no-graph", metric, qtype),
                    delta,
                ]
            )
    if not rows:
        return empty_table("by-query-type", "Results by query type: no ablation results yet.")
    return Table(
        "by-query-type",
        "Where the graph helps and where it does not: each task's primary metric by the "
        "router's query type, for the shipped default and for it without the graph "
        "source (delta = default minus no-graph; 95% bootstrap intervals).",
        ["Query type", "n", REFERENCE, "no graph", "delta"],
        rows,
        source="ablations.jsonl",
    )
