"""The generated lists the paper inputs (LaTeX itemize and Markdown list): the findings,
what each trained or optional component gains and costs, and what was not measured.

>>> tex, md = findings(Ablations([]))
>>> md.splitlines()[1]
'- No ablation results yet.'
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from tutorgraph_research.report._format import (
    HEADER,
    QUERY_TYPE_LABELS,
    TASK_TITLES,
    fmt_ci,
    fmt_int,
    fmt_ms,
    metric_label,
)
from tutorgraph_research.report._inputs import (
    REFERENCE,
    Ablations,
    Results,
    latency_ok,
    not_measured_reason,
)
from tutorgraph_research.report._table import tex_escape

__all__ = ["findings", "gain_cost", "not_measured"]


def _paired_text(row: dict[str, Any] | None) -> str | None:
    """`-0.012 [-0.030, +0.004], n = 1,000: the interval includes 0` for a row's paired
    difference from the reference (None without one)."""
    paired = row.get("paired") if row else None
    if not paired:
        return None
    lo, hi = paired["ci95"]
    verdict = "includes 0" if lo <= 0 <= hi else "excludes 0"
    return (
        f"{fmt_ci(paired['diff'], paired['ci95'], signed=True)} "
        f"(paired, n = {fmt_int(paired['n'])}; the interval {verdict})"
    )


def findings(ab: Ablations) -> tuple[str, str]:
    """Generated sentences (LaTeX itemize, Markdown list), per task: the default, the
    graph's removal (paired) and the query type where it costs most and least, and two
    prerequisite hops against one."""
    items: list[str] = []
    for task in ab.tasks:
        metric = ab.primary(task)
        ref = ab.get(task, REFERENCE, metric)
        if ref is None:
            continue
        label = metric_label(metric)
        text = (
            f"{TASK_TITLES.get(task, task)} ({label}, n = {fmt_int(ref['n'])}): the default "
            f"{fmt_ci(ref['value'], ref.get('ci95'))}"
        )
        nog = ab.get(task, "sources=no-graph", metric)
        if nog is not None:
            text += f"; without the graph {fmt_ci(nog['value'], nog.get('ci95'))}"
            if paired := _paired_text(nog):
                text += f", a difference of {paired}"
            deltas = []
            for qtype in sorted(ab.query_types[task]):
                b, g = (
                    ab.get(task, REFERENCE, metric, qtype),
                    ab.get(task, "sources=no-graph", metric, qtype),
                )
                if b is not None and g is not None:
                    deltas.append((b["value"] - g["value"], qtype, b["n"]))
            if len(deltas) > 1:
                hi, lo = max(deltas), min(deltas)
                text += (
                    f". By query type, the graph adds most to "
                    f"{QUERY_TYPE_LABELS.get(hi[1], hi[1])} queries ({hi[0]:+.3f}, "
                    f"n = {fmt_int(hi[2])}) and least to {QUERY_TYPE_LABELS.get(lo[1], lo[1])} "
                    f"queries ({lo[0]:+.3f}, n = {fmt_int(lo[2])})"
                )
        one, two = ab.get(task, "hops=1", metric), ab.get(task, "hops=2", metric)
        if one is not None and two is not None:
            overlap = _overlap(one.get("ci95"), two.get("ci95"))
            text += (
                f". Two prerequisite hops instead of one: {fmt_ci(two['value'], two.get('ci95'))}"
                f" against {fmt_ci(one['value'], one.get('ci95'))}, "
                f"{two['value'] - one['value']:+.3f} (the intervals "
                f"{'overlap' if overlap else 'do not overlap'})"
            )
        items.append(text + ".")
    return _itemize(items or ["No ablation results yet."], "ablations.jsonl")


# What the gain-and-cost list reads: (configuration that turns the component off or on,
# what it is, whether the configuration removes it, the latency stage it costs).
_COMPONENTS = (
    ("ranker=off", "the learned final score", True, "rank"),
    ("diagnosis=off", "the diagnosis (bug rules)", True, "diagnose"),
    ("reranker=domain-int8", "the fold-trained reranker (int8)", False, "rerank"),
    ("reranker=domain", "the fold-trained reranker (fp32)", False, "rerank"),
    ("merge=0.85", "the near-duplicate merge at 0.85", False, "merge"),
    ("merge=0.95", "the near-duplicate merge at 0.95", False, "merge"),
)


def gain_cost(ab: Ablations, lat: dict[str, Any]) -> tuple[str, str]:
    """Generated sentences on what each trained or optional component gains (the paired
    difference it makes on Eedi and on seen and unseen constructs) and costs (its stage's
    latency where it ran), including where it does not help."""
    task = "eedi-misconceptions"
    metric = ab.primary(task)
    items: list[str] = []
    for config, what, removes, stage in _COMPONENTS:
        row = ab.get(task, config, metric)
        if row is None or not row.get("paired"):
            if (task, config) in ab.not_measured:
                items.append(f"{what}: not measured ({ab.not_measured[(task, config)]}).")
            continue
        paired = row["paired"]
        # The gain of having the component: minus the change of turning it off.
        sign = -1.0 if removes else 1.0
        # (+ 0.0: no "-0.000" when a component changes nothing)
        lo, hi = sorted((sign * paired["ci95"][0] + 0.0, sign * paired["ci95"][1] + 0.0))
        gain = {"diff": sign * paired["diff"] + 0.0, "ci95": [lo, hi], "n": paired["n"]}
        text = f"{what[0].upper()}{what[1:]}: {metric_label(metric)} "
        text += f"{_paired_text({'paired': gain})}"
        with_it, without = (REFERENCE, config) if removes else (config, REFERENCE)
        parts = []
        for subset in ("seen construct", "unseen construct"):
            a, b = (
                ab.get(task, with_it, metric, subset=subset),
                ab.get(task, without, metric, subset=subset),
            )
            if a is not None and b is not None:
                parts.append(f"{a['value'] - b['value']:+.3f} on {subset}s (n = {fmt_int(a['n'])})")
        if parts:
            text += "; " + " and ".join(parts)
        text += f". Cost: {_stage_cost(lat, config if not removes else REFERENCE, stage)}."
        items.append(text)
    return _itemize(items or ["No results for the trained components yet."], "ablations.jsonl")


def _stage_cost(lat: dict[str, Any], config: str, stage: str) -> str:
    """The stage's p50/p95 where it ran, from the latency results (the diagnosis and the
    learned ranker: on the student messages, which carry the answer and the context)."""
    rows = [r for r in latency_ok(lat) if r["config"] == config]
    diagnosis = lat.get("diagnosis") or {}
    if stage in ("rank", "diagnose") and diagnosis.get("status") == "ok":
        rows = [diagnosis["row"]]
    for r in rows:
        ran = (r.get("ran_ms") or {}).get(stage) or {}
        if ran.get("n"):
            return (
                f"the {stage} stage takes {fmt_ms(ran['p50'])} ms at the median and "
                f"{fmt_ms(ran['p95'])} ms at p95 where it ran ({ran['n']} of "
                f"{r['n_queries']} timed queries)"
            )
    return f"the {stage} stage was not timed"


def _itemize(items: list[str], src: str) -> tuple[str, str]:
    tex = "\\begin{itemize}\n" + "".join(f"\\item {tex_escape(i)}\n" for i in items)
    tex += "\\end{itemize}\n"
    md = "".join(f"- {i}\n" for i in items)
    head = HEADER.format(src=src)
    return f"% {head}\n{tex}", f"<!-- {head} -->\n{md}"


def not_measured(res: Results, ab: Ablations) -> tuple[str, str]:
    """Generated list (LaTeX itemize, Markdown list) of everything not measured, with why."""
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for (task, config), reason in ab.not_measured.items():
        groups[(config, reason)].append(task)
    items = [
        f"{config} in the ablations ({', '.join(tasks)}): {reason}"
        for (config, reason), tasks in sorted(groups.items())
    ]
    for r in res.latency.get("rows", []):
        if r.get("status") != "ok":
            items.append(
                f"{r['config']} in the latency harness: {not_measured_reason(r['status'])}"
            )
    for what, why in sorted(res.latency.get("not_measured", {}).items()):
        items.append(f"{what} latency: {not_measured_reason(why)}")
    if not items:
        items = ["Everything in the tables was measured."]
    head = HEADER.format(src="ablations.jsonl and latency.json")
    # Sloppy: reasons name long identifiers (environment variables) that cannot hyphenate.
    tex = "\\begingroup\\sloppy\n\\begin{itemize}\n"
    tex += "".join(f"\\item {tex_escape(i)}\n" for i in items)
    tex += "\\end{itemize}\n\\endgroup\n"
    md = "".join(f"- {i}\n" for i in items)
    return f"% {head}\n{tex}", f"<!-- {head} -->\n{md}"


def _overlap(a: Sequence[float] | None, b: Sequence[float] | None) -> bool:
    if not a or not b:
        return True
    return a[0] <= b[1] and b[0] <= a[1]
