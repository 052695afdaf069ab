"""Every table of the paper, the not-measured list, the findings and `numbers.tex`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tutorgraph.eval.report._format import (
    HEADER,
    HEADLINE_CONFIGS,
    QUERY_TYPE_LABELS,
    SUBSETS,
    TASK_TITLES,
    fmt_ci,
    fmt_int,
    fmt_ms,
    metric_label,
    metrics_in_order,
    write_if_changed,
)
from tutorgraph.eval.report._inputs import (
    REFERENCE,
    Ablations,
    Results,
    describe_config,
    latency_ok,
    load_results,
    not_measured_reason,
)
from tutorgraph.eval.report._system_tables import (
    data_table,
    empty_table,
    latency_configs,
    latency_stages,
    phases_table,
    scale_fit_table,
    scale_table,
)
from tutorgraph.eval.report._table import Cell, Table, tex_escape

# -- tables ------------------------------------------------------------------------------------


def _paired_cell(ab: Ablations, task: str, config: str, metric: str) -> Cell:
    """The configuration's paired difference from the reference on `metric`, or "" for the
    reference itself (and for rows recorded without one)."""
    row = ab.get(task, config, metric)
    paired = row.get("paired") if row else None
    if not paired:
        return ""
    return fmt_ci(paired["diff"], paired["ci95"], signed=True)


def _headline(ab: Ablations) -> Table:
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


def _hops_table(ab: Ablations) -> Table:
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


def _ablation_table(ab: Ablations, task: str) -> Table:
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


def _subsets_table(ab: Ablations) -> Table:
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


def _by_query_type(ab: Ablations) -> Table:
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


def _findings(ab: Ablations) -> tuple[str, str]:
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


def _gain_cost(ab: Ablations, lat: dict[str, Any]) -> tuple[str, str]:
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


def _not_measured(res: Results, ab: Ablations) -> tuple[str, str]:
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


def _numbers(res: Results, ab: Ablations) -> dict[str, str]:
    """Every number the prose names, as macro name -> text."""
    lat, scale, bundle = res.latency, res.scale, res.bundle
    hw = lat.get("hardware") or scale.get("hardware") or {}
    out = {
        "HwCPU": str(hw.get("cpu", "n/a")),
        "HwCores": str(hw.get("cores", "n/a")),
        "HwTorch": str(hw.get("torch", "n/a")),
        "HwOrt": str(hw.get("onnxruntime", "n/a")),
        "HwPython": str(hw.get("python", "n/a")),
        "NLatencyQueries": str(lat.get("queries", {}).get("n", "n/a")),
        "NWarmupQueries": str(lat.get("queries", {}).get("warmup", "n/a")),
        "RerankDepth": str(lat.get("rerank_depth", "n/a")),
    }
    for name, key in (("Default", REFERENCE), ("Rerank", "reranker=domain-int8")):
        row = next((r for r in latency_ok(lat) if r["config"] == key), None)
        for p, word in (("p50", "Pfifty"), ("p95", "Pninetyfive"), ("p99", "Pninetynine")):
            out[f"Lat{name}{word}"] = fmt_ms(row["stages_ms"]["total"][p]) if row else "n/a"
    counts = bundle.get("counts", {})
    for key in ("concepts", "documents", "exercises", "misconceptions", "prerequisites", "items"):
        out[f"Bundle{key.capitalize()}"] = fmt_int(counts[key]) if key in counts else "n/a"
    ingest = bundle.get("ingest", {})
    # Only an ingest that embedded every item measures the full build.
    full = ingest.get("items") and ingest.get("embedded") == ingest.get("items")
    out["IngestMinutes"] = f"{ingest['seconds'] / 60:.1f}" if full else "n/a"
    sizes = scale.get("sizes", [])
    out["ScaleMaxRatio"] = f"{sizes[-1]['ratio']:.2f}" if sizes else "n/a"
    commits = sorted({str(r.get("git_commit")) for r in res.ablations if r.get("git_commit")})
    out["GitCommit"] = ", ".join(c[:12] for c in commits) if commits else "n/a"
    phases = {k: p for k, p in res.phases.items() if k != "runs"}
    run_ids = {p.get("run_id") for p in phases.values()}
    sitting = res.phases.get("runs", {}).get(next(iter(run_ids)), {}) if len(run_ids) == 1 else {}
    one = sitting and not any(p.get("earlier_seconds") for p in phases.values())
    out["ReproMinutes"] = f"{sitting['wall_seconds'] / 60:.0f}" if one else "n/a"
    out["ReproRunId"] = str(next(iter(run_ids))) if one else "several runs"
    per_fold = (phases.get("ablations", {}).get("settings") or {}).get("per_fold") or {}
    out["PerFoldSample"] = (
        ", ".join(f"{n} items per fold of {t}" for t, n in sorted(per_fold.items()))
        if per_fold
        else "every item"
    )
    out["DefaultConfig"] = _default_config_text(res.ablations)
    out["NTasks"] = str(len(ab.tasks))
    out["NConfigs"] = str(len(ab.configs))
    return out


def _default_config_text(rows: list[dict[str, Any]]) -> str:
    """The shipped default in words, from the results (else from `configs.DEFAULT`)."""
    from tutorgraph.eval.harness.configs import DEFAULT

    detail = next(
        (
            r["config_detail"]
            for r in rows
            if r.get("config") == REFERENCE and r.get("config_detail")
        ),
        DEFAULT.describe(),
    )
    scope = {None: "by profile", True: "on", False: "off"}[detail["graph_scope"]]
    return (
        f"sources {' + '.join(detail['sources'])}, {detail['profile'] or 'auto'} profile, "
        f"{detail['fusion']} fusion, graph scoping {scope}, "
        f"{_hops_text(detail.get('hops'))}, refiner {detail['refiner']}, "
        f"reranker {detail['reranker']}, learned final score "
        f"{'on' if detail.get('ranker') else 'off'}, diagnosis "
        f"{'on' if detail.get('diagnosis') else 'off'}, near-duplicate merge "
        f"{'off' if detail.get('near_duplicate_threshold') is None else 'on'}"
    )


def _hops_text(hops: int | None) -> str:
    if hops is None:
        return "prerequisite hops by query type"
    return f"{hops} prerequisite hop{'' if hops == 1 else 's'}"


def _numbers_tex(numbers: dict[str, str]) -> str:
    head = f"% {HEADER.format(src='the results files')}\n"
    return head + "".join(
        f"\\newcommand{{\\{k}}}{{{tex_escape(v)}}}\n" for k, v in sorted(numbers.items())
    )


def build_tables(res: Results) -> list[Table]:
    """Every table of the paper, in order."""
    ab = Ablations(res.ablations)
    tables = [data_table(res.bundle), _headline(ab)]
    tables += [_ablation_table(ab, t) for t in ab.tasks]
    tables += [
        _subsets_table(ab),
        _hops_table(ab),
        _by_query_type(ab),
        latency_stages(res.latency),
        latency_configs(res.latency),
        scale_table(res.scale),
        scale_fit_table(res.scale),
        phases_table(res.phases),
    ]
    return tables


def render_tables(results: Path, out: Path) -> list[Path]:
    """Write `<name>.tex` and `<name>.md` for every table, plus `numbers.tex`,
    `findings.tex|md` and `ablation-tables.tex|md` (which inputs the per-task tables)."""
    res = load_results(results)
    ab = Ablations(res.ablations)
    written = []
    tables = build_tables(res)
    for t in tables:
        written.append(write_if_changed(out / f"{t.name}.tex", t.latex()))
        written.append(write_if_changed(out / f"{t.name}.md", t.markdown()))
    per_task = [t.name for t in tables if t.name.startswith("ablation-")]
    head = HEADER.format(src="ablations.jsonl")
    tex = f"% {head}\n" + "".join(f"\\input{{tables/{n}}}\n" for n in per_task)
    md = f"<!-- {head} -->\n" + "\n".join(
        (out / f"{n}.md").read_text(encoding="utf-8") for n in per_task
    )
    if not per_task:
        tex += "No per-task ablation results yet.\n"
        md += "No per-task ablation results yet.\n"
    written.append(write_if_changed(out / "ablation-tables.tex", tex))
    written.append(write_if_changed(out / "ablation-tables.md", md))
    ntex, nmd = _not_measured(res, ab)
    written.append(write_if_changed(out / "not-measured.tex", ntex))
    written.append(write_if_changed(out / "not-measured.md", nmd))
    ftex, fmd = _findings(ab)
    written.append(write_if_changed(out / "findings.tex", ftex))
    written.append(write_if_changed(out / "findings.md", fmd))
    gtex, gmd = _gain_cost(ab, res.latency)
    written.append(write_if_changed(out / "gain-cost.tex", gtex))
    written.append(write_if_changed(out / "gain-cost.md", gmd))
    written.append(write_if_changed(out / "numbers.tex", _numbers_tex(_numbers(res, ab))))
    return written
