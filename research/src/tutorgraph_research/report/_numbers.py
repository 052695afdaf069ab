"""`numbers.tex`: every number the prose names, as a `\\newcommand` macro.

>>> print(numbers_tex({"NTasks": "4"}).splitlines()[1])
\\newcommand{\\NTasks}{4}
"""

from __future__ import annotations

from typing import Any

from tutorgraph_research.report._format import HEADER, fmt_int, fmt_ms
from tutorgraph_research.report._inputs import REFERENCE, Ablations, Results, latency_ok
from tutorgraph_research.report._table import tex_escape

__all__ = ["numbers", "numbers_tex"]


def numbers(res: Results, ab: Ablations) -> dict[str, str]:
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
    from tutorgraph_research.harness.configs import DEFAULT

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


def numbers_tex(numbers: dict[str, str]) -> str:
    head = f"% {HEADER.format(src='the results files')}\n"
    return head + "".join(
        f"\\newcommand{{\\{k}}}{{{tex_escape(v)}}}\n" for k, v in sorted(numbers.items())
    )
