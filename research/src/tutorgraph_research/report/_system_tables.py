"""The tables about the system rather than the ablations: the bundled data, latency by
stage and by configuration, the scale sweep and the reproduction's phases."""

from __future__ import annotations

from typing import Any

from tutorgraph_research.report._format import fmt_int, fmt_ms
from tutorgraph_research.report._inputs import describe_config, latency_ok, not_measured_reason
from tutorgraph_research.report._table import Cell, Note, Table

__all__ = [
    "data_table",
    "empty_table",
    "hardware_line",
    "latency_configs",
    "latency_stages",
    "phases_table",
    "scale_fit_table",
    "scale_table",
]


def empty_table(name: str, caption: str) -> Table:
    return Table(name, caption, ["Result"], [["not run"]], source="no results file")


def hardware_line(hw: dict[str, Any]) -> str:
    if not hw:
        return "hardware not recorded"
    return (
        f"{hw.get('cpu', '?')}, {hw.get('cores', '?')} cores, Python {hw.get('python', '?')}, "
        f"torch {hw.get('torch', '?')}, onnxruntime {hw.get('onnxruntime', '?')}"
    )


def _pcts(p: dict[str, float]) -> list[Cell]:
    return [fmt_ms(p["p50"]), fmt_ms(p["p95"]), fmt_ms(p["p99"])]


def _not_measured_cells(reason: str) -> list[Cell]:
    return [Note("not measured", reason), "", ""]


def _merge_and_diagnosis_rows(
    lat: dict[str, Any], ok: list[dict[str, Any]]
) -> list[list[Cell] | str]:
    """The merge stage of every configuration with the near-duplicate merge on, and the
    diagnosis on student messages over those it ran on."""
    rows: list[list[Cell] | str] = [
        "Near-duplicate merge on; the diagnosis and the learned ranker on student messages"
    ]
    merged = [r for r in ok if r["config_detail"].get("near_duplicate_threshold") is not None]
    for r in merged:
        threshold = r["config_detail"]["near_duplicate_threshold"]
        rows.append([f"merge at {threshold:.2f} ({r['config']})", *_pcts(r["stages_ms"]["merge"])])
    if not merged:
        rows.append(
            [
                "merge, near-duplicate merge on",
                *_not_measured_cells("no configuration with the near-duplicate merge was timed"),
            ]
        )
    diagnosis = lat.get("diagnosis")
    if not diagnosis:  # results from before the diagnosis was timed
        return rows
    if diagnosis["status"] != "ok":
        reason = not_measured_reason(str(diagnosis["status"]))
        rows.append(["diagnose", *_not_measured_cells(reason)])
        return rows
    row = diagnosis["row"]
    # The messages carry their question's construct, so the learned ranker runs on them too.
    for stage, why in (
        ("diagnose", "no message gave the diagnosis an answer"),
        ("rank", "no message reached the learned ranker"),
    ):
        ran = row["ran_ms"][stage]
        label = f"{stage} where it ran, {ran['n']} of {row['n_queries']} ({row['config']})"
        rows.append([label, *(_pcts(ran) if ran["n"] else _not_measured_cells(why))])
    rows.append([f"total, the same {row['n_queries']} messages", *_pcts(row["stages_ms"]["total"])])
    return rows


def _bolt_rows(
    lat: dict[str, Any], ok: list[dict[str, Any]]
) -> tuple[list[list[Cell] | str], list[str]]:
    """The graph stage and the total, embedded and on the Bolt server (ArcadeDB standing in
    for Neo4j), and a note on the server; nothing for results from before it was timed."""
    bolt = lat.get("bolt_graph")
    if not bolt:
        return [], []
    rows: list[list[Cell] | str] = [
        "Graph stage: embedded vs a Bolt server (ArcadeDB standing in for Neo4j; Neo4j "
        "itself was never run)"
    ]
    embedded = next((r for r in ok if r["config"] == bolt["config"]), None)
    if embedded is not None:
        rows.append(["graph, embedded (NetworkX)", *_pcts(embedded["stages_ms"]["graph"])])
    if bolt["status"] != "ok":
        reason = not_measured_reason(str(bolt["status"]))
        rows.append(["graph, Bolt (ArcadeDB)", *_not_measured_cells(reason)])
        return rows, []
    stages = bolt["row"]["stages_ms"]
    rows.append(["graph, Bolt (ArcadeDB)", *_pcts(stages["graph"])])
    if embedded is not None:
        rows.append(["total, embedded", *_pcts(embedded["stages_ms"]["total"])])
    rows.append(["total, Bolt (ArcadeDB)", *_pcts(stages["total"])])
    note = (
        f"Bolt server: {bolt['agent']}, standing in for Neo4j (never run), on the same "
        f"machine over loopback; the index's catalogue loaded into it in {bolt['load_s']} s; "
        f"{bolt['row']['warmup']} warm-up queries before timing (the JVM compiles its hot "
        "paths first)."
    )
    return rows, [note]


def latency_stages(lat: dict[str, Any]) -> Table:
    from tutorgraph_research.tasks.latency import LATENCY_STAGES

    ok = latency_ok(lat)
    if not ok:
        return empty_table("latency-stages", "Latency by stage: not run.")
    row = next((r for r in ok if r["config"] == lat.get("reference")), ok[0])
    stages = row["stages_ms"]
    ran = row.get("ran_ms") or {}
    n = row["n_queries"]

    def label(stage: str) -> str:
        k = ran.get(stage, {}).get("n", n)
        return stage if k == n else f"{stage} (ran on {k} of {n})"

    rows: list[list[Cell] | str] = [
        [label(s), *_pcts(stages[s])] for s in LATENCY_STAGES if s in stages
    ]
    rows += _merge_and_diagnosis_rows(lat, ok)
    bolt_rows, notes = _bolt_rows(lat, ok)
    rows += bolt_rows
    q = lat.get("queries", {})
    then = [
        "the merge with the near-duplicate merge on",
        "the diagnosis over the student messages it ran on",
    ]
    if bolt_rows:
        then.append("the graph stage on a Bolt server (ArcadeDB standing in for Neo4j)")
    return Table(
        "latency-stages",
        f"Warm latency of the {row['config']} configuration by stage of timings_ms (a stage "
        "that did not run on a query counts 0 ms), plus serialising the packet and the "
        f"caller's wall time (ms; {q.get('n', '?')} queries after {q.get('warmup', '?')} "
        f"warm-up queries, one at a time); then {', '.join(then[:-1])} and {then[-1]}. "
        f"{hardware_line(lat.get('hardware', {}))}.",
        ["Stage", "p50", "p95", "p99"],
        rows,
        source="latency.json",
        notes=notes,
    )


_CONFIG_STAGES = (
    "refine",
    "embed",
    "vector",
    "lexical",
    "graph",
    "merge",
    "rerank",
    "rank",
    "serialise",
)


def _config_row(label: str, st: dict[str, Any]) -> list[Cell]:
    # Results from before a stage existed show a dash for it.
    return [
        label,
        *(fmt_ms(st[s]["p50"]) if s in st else "–" for s in _CONFIG_STAGES),
        *_pcts(st["total"]),
    ]


def latency_configs(lat: dict[str, Any]) -> Table:
    rows: list[list[Cell] | str] = []
    for r in lat.get("rows", []):
        if r.get("status") != "ok":
            reason = not_measured_reason(str(r.get("status", "")))
            rows.append(
                [
                    describe_config(r["config"]),
                    *[Note("not measured", reason)],
                    *[""] * (len(_CONFIG_STAGES) + 2),
                ]
            )
            continue
        rows.append(_config_row(describe_config(r["config"]), r["stages_ms"]))
    if not rows:
        return empty_table("latency-configs", "Latency by configuration: not run.")
    bolt = lat.get("bolt_graph") or {}
    if bolt.get("status") == "ok":
        label = f"{bolt['config']}, graph on Bolt"
        rows.append(_config_row(label, bolt["row"]["stages_ms"]))
    for what, why in sorted(lat.get("not_measured", {}).items()):
        rows.append(
            [
                what,
                Note("not measured", not_measured_reason(str(why))),
                *[""] * (len(_CONFIG_STAGES) + 2),
            ]
        )
    return Table(
        "latency-configs",
        "Warm latency per configuration: p50 of each stage, and p50/p95/p99 of the whole "
        "retrieval (total), in ms; the graph on Bolt is ArcadeDB's server standing in for "
        f"Neo4j, which was never run. {hardware_line(lat.get('hardware', {}))}.",
        ["Configuration", *_CONFIG_STAGES, "total p50", "p95", "p99"],
        rows,
        source="latency.json",
        wide=True,
    )


def _size_label(size: dict[str, Any]) -> str:
    """`x4 (4.00)`; a size that ran out of real exercises is `all` of them, with its ratio."""
    name = f"x{size['factor']}" if size["ratio"] >= size["factor"] else "all"
    return f"{name} ({size['ratio']:.2f})"


def scale_table(scale: dict[str, Any]) -> Table:
    sizes = scale.get("sizes", [])
    if not sizes:
        return empty_table("scale", "Scale sweep: not run.")
    rows: list[list[Cell] | str] = []
    for s in sizes:
        c = s["counts"]
        st = s["stages_ms"]["wall"]
        rows.append(
            [
                _size_label(s),
                fmt_int(c["documents"]),
                fmt_int(c["exercises"]),
                fmt_int(c["items"]),
                f"{s['build_s']:.1f}",
                f"{s['disk_mb']:.0f}",
                f"{s['rss_loaded_mb']:.0f}",
                f"{s['rss_peak_mb']:.0f}",
                fmt_ms(st["p50"]),
                fmt_ms(st["p95"]),
                fmt_ms(st["p99"]),
            ]
        )
    first = sizes[0]["counts"]
    return Table(
        "scale",
        "Scale sweep: the indexed corpus grows from the bundle without exercises (x1) by "
        "adding real OpenStax exercises (ratio = documents relative to x1; all = every real "
        "exercise, fewer than the size asked for). Every size holds "
        f"the same {fmt_int(first['concepts'])} concepts, {fmt_int(first['misconceptions'])} "
        f"misconceptions and {fmt_int(first['prerequisites'])} prerequisite edges. Build: store "
        "build with stored vectors reused (no embedding). Memory: a fresh process per size. "
        f"Latency: end-to-end wall time of the {scale.get('config', 'best')} configuration, "
        f"{sizes[0]['n_queries']} queries, warm; {hardware_line(scale.get('hardware', {}))}.",
        [
            "Size",
            "Documents",
            "Exercises",
            "Items",
            "Build s",
            "Disk MB",
            "RSS MB",
            "Peak RSS MB",
            "p50 ms",
            "p95 ms",
            "p99 ms",
        ],
        rows,
        source="scale.json",
        wide=True,
    )


def _fit_cells(fit: dict[str, Any], unit: str) -> list[Cell]:
    def num(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.2f}"

    return [
        num(fit["exponent"]),
        num(fit["r2"]),
        f"{round(fit['per_1000'], 3) + 0.0:.3f} {unit}",  # no "-0.000"
        num(fit["linear_r2"]),
    ]


def scale_fit_table(scale: dict[str, Any]) -> Table:
    """Each stage's p50, the build time, the index on disk and memory fitted against the
    indexed items of the scale sweep (`scale.json`'s `fits`).

    >>> scale_fit_table({}).rows
    [['not run']]
    """
    from tutorgraph_research.tasks.latency import LATENCY_STAGES
    from tutorgraph_research.tasks.scale import scale_fits

    # Results written before the sweep recorded its fits: fit them here, the same way.
    fits = scale.get("fits") or scale_fits(scale.get("sizes", []))
    if not fits:
        return empty_table("scale-fit", "Growth with corpus size: not run (under two sizes).")
    stages = fits["stages_p50_ms"]
    rows: list[list[Cell] | str] = ["p50 latency by stage of timings_ms"]
    rows += [[s, *_fit_cells(stages[s], "ms")] for s in LATENCY_STAGES if s in stages]
    rows.append("Build, disk and memory")
    for key, label, unit in (
        ("build_s", "build", "s"),
        ("disk_mb", "index on disk", "MB"),
        ("rss_loaded_mb", "RSS after load", "MB"),
        ("rss_peak_mb", "peak RSS", "MB"),
    ):
        rows.append([label, *_fit_cells(fits[key], unit)])
    items = fits["items"]
    return Table(
        "scale-fit",
        f"Growth with corpus size: least-squares fits over the {len(items)} sizes of the scale "
        f"sweep ({fmt_int(items[0])} to {fmt_int(items[-1])} indexed items). Exponent b: the "
        "slope of log value on log items, so the value grows as items to the power b (0 = "
        "flat, 1 = linear; n/a where a stage took 0 ms), with its R2; and the straight line's "
        "slope per 1,000 items with its R2 (n/a: the value did not change). Only documents "
        "grow, so per 1,000 items is per 1,000 documents. Latency of the "
        f"{scale.get('config', 'best')} configuration; {hardware_line(scale.get('hardware', {}))}.",
        ["Quantity", "Exponent b", "R2 (log-log)", "Per 1,000 items", "R2 (linear)"],
        rows,
        source="scale.json",
    )


def data_table(bundle: dict[str, Any]) -> Table:
    by_source = bundle.get("by_source", {})
    if not by_source:
        return empty_table("data", "The bundled curriculum: not built.")
    rows: list[list[Cell] | str] = []
    for source, c in sorted(by_source.items()):
        rows.append(
            [
                source,
                ", ".join(c.get("licenses", [])),
                fmt_int(c.get("concepts", 0)),
                fmt_int(c.get("documents", 0)),
                fmt_int(c.get("misconceptions", 0)),
            ]
        )
    counts = bundle.get("counts", {})
    kinds = bundle.get("documents_by_kind", {})
    kinds_text = ", ".join(f"{fmt_int(n)} {k.replace('_', ' ')}s" for k, n in sorted(kinds.items()))
    return Table(
        "data",
        f"The bundled curriculum by source (records carry their own license). Documents: "
        f"{kinds_text}; {fmt_int(counts.get('prerequisites', 0))} prerequisite edges.",
        ["Source", "License", "Concepts", "Documents", "Misconceptions"],
        rows,
        align="llrrr",
        source="bundle.json",
    )


# The reproduction's phases in run order, as `reproduce.run.PHASES` (the report may
# not import the reproduction, which imports the report).
_PHASES = ("index", "ablations", "latency", "scale", "render", "pdf")


def phases_table(phases: dict[str, Any]) -> Table:
    """Minutes per phase in the invocation that finished it, and in earlier ones cut short."""
    names = [n for n in _PHASES if n in phases]
    rows: list[list[Cell] | str] = []
    for name in names:
        p = phases[name]
        rows.append(
            [
                name,
                f"{float(p.get('seconds', 0.0)) / 60:.1f}",
                f"{float(p.get('earlier_seconds', 0.0)) / 60:.1f}",
                "yes" if p.get("complete") else "no",
                str(p.get("run_id", "–")),
            ]
        )
    if not rows:
        return empty_table("phases", "Reproduction time by phase: not recorded.")
    run_ids = {phases[n].get("run_id") for n in names}
    runs = phases.get("runs", {})
    one = len(run_ids) == 1 and not any(phases[n].get("earlier_seconds") for n in names)
    wall = runs.get(next(iter(run_ids)), {}).get("wall_seconds") if one else None
    total = sum(float(phases[n].get("seconds", 0.0)) for n in names)
    rows.append(
        [
            "all phases",
            f"{total / 60:.1f}",
            "",
            "",
            f"wall {float(wall) / 60:.1f} min, one sitting" if wall else "several runs",
        ]
    )
    return Table(
        "phases",
        "Reproduction time by phase on the machine named above: minutes in the run that "
        "finished the phase, and in earlier runs cut short.",
        ["Phase", "Minutes", "Earlier", "Complete", "Run"],
        rows,
        align="lrrll",
        source="phases.json",
    )
