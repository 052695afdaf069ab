"""The paper's figures (matplotlib, Agg; byte-stable PNGs)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from pathlib import Path
from typing import Any

from tutorgraph_client.models.packet import TIMING_KEYS
from tutorgraph_research.report._format import metric_label
from tutorgraph_research.report._inputs import REFERENCE, Ablations, latency_ok, load_results

# The pipeline figure: (stage, `timings_ms` key or "" for none, column), left to right.
PIPELINE = (
    ("request", "", 0),
    ("refine", "refine", 1),
    ("embed", "embed", 2),
    ("vector search\n(Chroma,\nMiniLM)", "vector", 3),
    ("lexical search\n(BM25)", "lexical", 3),
    ("graph search\n(prerequisites,\nmisconceptions)", "graph", 3),
    ("merge\n(content\nhash)", "merge", 4),
    ("fuse\n(weighted\nor RRF)", "fuse", 5),
    ("rerank\n(cross-\nencoder)", "rerank", 6),
    ("Reasoning-\nPacket", "", 7),
)

# -- figures -----------------------------------------------------------------------------------


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(
        {
            "font.family": "DejaVu Sans",
            "font.size": 8,
            "svg.hashsalt": "tutorgraph",
            "path.simplify": True,
        }
    )
    return plt


def _save(fig: Any, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    # No Software/date metadata: the same data gives the same bytes.
    fig.savefig(path, dpi=150, metadata={"Software": None}, bbox_inches="tight")
    fig.clf()
    import matplotlib.pyplot as plt

    plt.close(fig)
    return path


def _pipeline_figure(path: Path) -> Path:
    plt = _pyplot()
    from matplotlib.patches import FancyBboxPatch

    fig, ax = plt.subplots(figsize=(9.0, 2.6))
    ax.set_axis_off()
    width, height = 1.2, 0.66
    pos: dict[str, tuple[float, float]] = {}
    stacks: dict[int, list[str]] = defaultdict(list)
    for name, _, col in PIPELINE:
        stacks[col].append(name)
    for col, names in stacks.items():
        for i, name in enumerate(names):
            y = (len(names) - 1) / 2 - i
            pos[name] = (col * 1.45, y * 0.85)
    for name, key, _ in PIPELINE:
        x, y = pos[name]
        colour = "#dbe9f6" if key else "#eeeeee"
        ax.add_patch(
            FancyBboxPatch(
                (x - width / 2, y - height / 2),
                width,
                height,
                boxstyle="round,pad=0.02",
                facecolor=colour,
                edgecolor="#335577",
                linewidth=0.8,
            )
        )
        ax.text(x, y, name, ha="center", va="center", fontsize=6)
    cols = sorted(stacks)
    for a, b in itertools.pairwise(cols):
        for src in stacks[a]:
            for dst in stacks[b]:
                (x0, y0), (x1, y1) = pos[src], pos[dst]
                ax.annotate(
                    "",
                    xy=(x1 - width / 2, y1),
                    xytext=(x0 + width / 2, y0),
                    arrowprops={"arrowstyle": "->", "color": "#335577", "lw": 0.7},
                )
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    ax.set_xlim(min(xs) - 0.7, max(xs) + 0.7)
    ax.set_ylim(min(ys) - 0.5, max(ys) + 0.5)
    return _save(fig, path)


def _ablation_figure(ab: Ablations, path: Path) -> Path:
    plt = _pyplot()
    tasks = [t for t in ab.tasks if ab.primary(t)] or [""]
    configs = ab.configs
    fig, axes = plt.subplots(
        1, len(tasks), figsize=(2.6 * len(tasks), 0.8 + 0.2 * max(len(configs), 4)), squeeze=False
    )
    ys = list(range(len(configs)))[::-1]
    for n, (ax, task) in enumerate(zip(axes[0], tasks, strict=True)):
        if not task:
            ax.text(0.5, 0.5, "no ablation results yet", ha="center", va="center")
            ax.set_axis_off()
            continue
        metric = ab.primary(task)
        for y, c in zip(ys, configs, strict=True):
            row = ab.get(task, c, metric)
            if row is None or row.get("value") is None:
                label = "not measured" if (task, c) in ab.not_measured else "not run"
                ax.text(0.01, y, label, va="center", fontsize=6, color="#777777")
                continue
            lo, hi = row.get("ci95") or (row["value"], row["value"])
            colour = "#335577" if c == REFERENCE else "#88a8c8"
            ax.barh(y, row["value"], color=colour, height=0.7)
            ax.errorbar(
                row["value"],
                y,
                xerr=[[row["value"] - lo], [hi - row["value"]]],
                fmt="none",
                ecolor="black",
                elinewidth=0.7,
                capsize=1.5,
            )
        ax.set_yticks(ys)
        ax.set_yticklabels(configs if n == 0 else [""] * len(configs), fontsize=6)
        ax.set_ylim(-0.7, len(configs) - 0.3)
        ax.set_title(f"{task}\n{metric_label(metric)}, n = {ab.n(task, REFERENCE)}", fontsize=7)
        ax.set_xlim(0, 1)
        ax.grid(axis="x", linewidth=0.3)
    fig.tight_layout()
    return _save(fig, path)


def _latency_figure(lat: dict[str, Any], path: Path) -> Path:
    plt = _pyplot()
    ok = latency_ok(lat)
    fig, ax = plt.subplots(figsize=(6.5, 0.25 * max(len(ok) + 1, 4) + 1.2))
    if not ok:
        ax.text(0.5, 0.5, "latency not run", ha="center", va="center")
        ax.set_axis_off()
        return _save(fig, path)
    from tutorgraph_research.report._system_tables import hardware_line

    # Every stage of `timings_ms` but the local context (never in this query set) and the
    # total, then serialising the packet.
    stages = (*(s for s in TIMING_KEYS if s not in ("local", "total")), "serialise")
    bars = [(r["config"], r["stages_ms"]) for r in ok]
    bolt = lat.get("bolt_graph") or {}
    if bolt.get("status") == "ok":
        bars.append((f"{bolt['config']}, graph on ArcadeDB (Bolt)", bolt["row"]["stages_ms"]))

    def p50(st: dict[str, Any], stage: str) -> float:
        # Results from before a stage existed count it 0.
        return float(st.get(stage, {}).get("p50", 0.0))

    colours = plt.get_cmap("tab20")
    ys = list(range(len(bars)))[::-1]
    for i, stage in enumerate(stages):
        ax.barh(
            ys,
            [p50(st, stage) for _, st in bars],
            left=[sum(p50(st, s) for s in stages[:i]) for _, st in bars],
            # tab20's ten dark shades first, so neighbouring stages never share a hue.
            color=colours(2 * i % 20 + 2 * i // 20),
            label=stage,
            height=0.7,
        )
    ax.set_yticks(ys)
    ax.set_yticklabels([name for name, _ in bars], fontsize=6)
    ax.set_title(
        "p50 ms per stage (the three searches run concurrently)\n"
        f"{hardware_line(lat.get('hardware', {}))}",
        fontsize=6,
    )
    ax.legend(fontsize=6, ncol=6, loc="upper center", bbox_to_anchor=(0.5, -0.12), frameon=False)
    ax.grid(axis="x", linewidth=0.3)
    fig.tight_layout()
    return _save(fig, path)


def _scale_figure(scale: dict[str, Any], path: Path) -> Path:
    from tutorgraph_research.tasks.latency import LATENCY_STAGES
    from tutorgraph_research.tasks.scale import scale_fits

    plt = _pyplot()
    from matplotlib.ticker import NullLocator

    sizes = scale.get("sizes", [])
    # The stage panel's legend takes the fourth cell.
    fig, ((a, b), (c, key)) = plt.subplots(2, 2, figsize=(6.5, 4.8))
    key.set_axis_off()
    if not sizes:
        for ax in (a, b, c):
            ax.text(0.5, 0.5, "scale sweep not run", ha="center", va="center")
            ax.set_axis_off()
        return _save(fig, path)
    items = [s["counts"]["items"] for s in sizes]
    for p, style in (("p50", "o-"), ("p95", "s--"), ("p99", "^:")):
        a.plot(items, [s["stages_ms"]["wall"][p] for s in sizes], style, label=p, linewidth=1)
    a.set_xlabel("indexed items")
    a.set_ylabel("end-to-end latency (ms)")
    a.legend(fontsize=6)
    a.grid(linewidth=0.3)
    b.plot(items, [s["rss_loaded_mb"] for s in sizes], "o-", label="RSS after load", linewidth=1)
    b.plot(items, [s["rss_peak_mb"] for s in sizes], "s--", label="peak RSS", linewidth=1)
    b.plot(items, [s["disk_mb"] for s in sizes], "^:", label="index on disk", linewidth=1)
    b.set_xlabel("indexed items")
    b.set_ylabel("MB")
    b.legend(fontsize=6)
    b.grid(linewidth=0.3)
    for ax in (a, b):
        ax.set_ylim(bottom=0)
    # Each stage's growth on log-log axes, its fitted exponent in the legend. Stages under
    # 0.1 ms at some size (did not run, or timer noise) are left out, and so is `total`,
    # which is `wall` less serialising.
    fits = (scale.get("fits") or scale_fits(sizes)).get("stages_p50_ms", {})
    for stage in LATENCY_STAGES:
        p50 = [s["stages_ms"].get(stage, {}).get("p50", 0.0) for s in sizes]
        if stage in fits and min(p50) >= 0.1 and stage != "total":
            c.plot(items, p50, "o-", label=f"{stage} b={fits[stage]['exponent']:.2f}", ms=2)
    c.set_xscale("log")
    c.set_yscale("log")
    c.xaxis.set_minor_locator(NullLocator())
    c.set_xticks(items, [f"{n / 1000:.1f}k" for n in items], fontsize=5)
    c.set_xlabel("indexed items (log)")
    c.set_ylabel("p50 ms by stage (log)")
    if c.lines:  # one size has no fit to show
        key.legend(*c.get_legend_handles_labels(), fontsize=6, loc="center left")
    c.grid(linewidth=0.3, which="both")
    fig.tight_layout()
    return _save(fig, path)


def render_figures(results: Path, out: Path) -> list[Path]:
    """Write `pipeline.png`, `ablation.png`, `latency.png` and `scale.png` into `out`."""
    res = load_results(results)
    return [
        _pipeline_figure(out / "pipeline.png"),
        _ablation_figure(Ablations(res.ablations), out / "ablation.png"),
        _latency_figure(res.latency, out / "latency.png"),
        _scale_figure(res.scale, out / "scale.png"),
    ]
