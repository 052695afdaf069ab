"""The tables about the system rather than the ablations: the bundled data, latency by
stage and by configuration, the scale sweep and the reproduction's phases."""

from __future__ import annotations

from typing import Any

from tutorgraph.eval.report._format import fmt_int, fmt_ms
from tutorgraph.eval.report._inputs import describe_config, latency_ok, not_measured_reason
from tutorgraph.eval.report._table import Cell, Note, Table

__all__ = [
    "data_table",
    "empty_table",
    "hardware_line",
    "latency_configs",
    "latency_stages",
    "phases_table",
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


def latency_stages(lat: dict[str, Any]) -> Table:
    from tutorgraph.eval.tasks.latency import LATENCY_STAGES

    ok = latency_ok(lat)
    if not ok:
        return empty_table("latency-stages", "Latency by stage: not run.")
    row = next((r for r in ok if r["config"] == "best"), ok[0])
    stages = row["stages_ms"]
    rows: list[list[Cell] | str] = [
        [s, fmt_ms(stages[s]["p50"]), fmt_ms(stages[s]["p95"]), fmt_ms(stages[s]["p99"])]
        for s in LATENCY_STAGES
        if s in stages
    ]
    q = lat.get("queries", {})
    return Table(
        "latency-stages",
        f"Warm latency of the {row['config']} configuration by stage of timings_ms, plus "
        f"serialising the packet and the caller's wall time (ms; {q.get('n', '?')} queries "
        f"after {q.get('warmup', '?')} warm-up queries, one at a time; "
        f"{hardware_line(lat.get('hardware', {}))}).",
        ["Stage", "p50", "p95", "p99"],
        rows,
        source="latency.json",
    )


_CONFIG_STAGES = ("refine", "embed", "vector", "lexical", "graph", "rerank", "serialise")


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
        st = r["stages_ms"]
        rows.append(
            [
                describe_config(r["config"]),
                *(fmt_ms(st[s]["p50"]) for s in _CONFIG_STAGES),
                fmt_ms(st["total"]["p50"]),
                fmt_ms(st["total"]["p95"]),
                fmt_ms(st["total"]["p99"]),
            ]
        )
    if not rows:
        return empty_table("latency-configs", "Latency by configuration: not run.")
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
        "retrieval (total), in ms.",
        ["Configuration", *(f"{s} p50" for s in _CONFIG_STAGES), "total p50", "p95", "p99"],
        rows,
        source="latency.json",
        wide=True,
    )


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
                f"x{s['factor']} ({s['ratio']:.2f})",
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
        "adding real OpenStax exercises (ratio = documents relative to x1). Every size holds "
        f"the same {fmt_int(first['concepts'])} concepts, {fmt_int(first['misconceptions'])} "
        f"misconceptions and {fmt_int(first['prerequisites'])} prerequisite edges. Build: store "
        "build with stored vectors reused (no embedding). Memory: a fresh process per size. "
        f"Latency: end-to-end wall time of the best configuration, "
        f"{sizes[0]['n_queries']} queries, warm.",
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


def phases_table(phases: dict[str, Any]) -> Table:
    rows: list[list[Cell] | str] = []
    total = 0.0
    order = ("index", "ablations", "latency", "scale")
    for name in sorted(phases, key=lambda n: (order.index(n) if n in order else len(order), n)):
        p = phases[name]
        seconds = float(p.get("seconds", 0.0))
        total += seconds
        rows.append([name, f"{seconds / 60:.1f}", "yes" if p.get("complete") else "no"])
    if not rows:
        return empty_table("phases", "Reproduction time by phase: not recorded.")
    rows.append(["all phases", f"{total / 60:.1f}", ""])
    return Table(
        "phases",
        "Reproduction time by phase on the machine named above (minutes, summed over "
        "resumed runs).",
        ["Phase", "Minutes", "Complete"],
        rows,
        align="lrl",
        source="phases.json",
    )
