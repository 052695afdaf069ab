"""The phases of a reproduction: index, ablations, latency, scale, render and pdf."""

from __future__ import annotations

import asyncio
import gc
import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tutorgraph_research.reproduce.run import (
    PAPER_PER_FOLD,
    QUICK_QUERIES,
    QUICK_SLICE,
    WARMUP,
    Run,
    write_json,
)

__all__ = [
    "phase_ablations",
    "phase_index",
    "phase_latency",
    "phase_pdf",
    "phase_render",
    "phase_scale",
]


async def phase_index(
    run: Run, embedder: Any, say: Callable[[str], None], tick: Callable[[int, int], None]
) -> dict[str, Any]:
    from tutorgraph.index.pipeline import IngestOptions, ingest_bundle
    from tutorgraph.ingest.bundle import bundle_hash, read_bundle, write_bundle
    from tutorgraph_research.tasks.scale import bundle_counts, sample_records

    if run.quick:
        say("index: writing the quick slice of the bundle")
        records = await asyncio.to_thread(read_bundle, run.source_bundle)
        records = sample_records(records, **QUICK_SLICE)
        await asyncio.to_thread(write_bundle, records, run.bundle)
    records = await asyncio.to_thread(read_bundle, run.bundle)
    say(f"index: ingesting {run.bundle} into {run.index}")

    def on_progress(stage: str, done: int, total: int) -> None:
        say(f"index: {stage}")
        tick(done, total)

    report = await ingest_bundle(
        run.bundle, run.index, embedder, IngestOptions(progress=on_progress)
    )
    by_source: dict[str, dict[str, Any]] = {}
    for kind, rows in (
        ("concepts", records.concepts),
        ("documents", records.documents),
        ("misconceptions", records.misconceptions),
    ):
        for r in rows:
            entry = by_source.setdefault(r.source, {"licenses": []})
            entry[kind] = entry.get(kind, 0) + 1
            if r.license not in entry["licenses"]:
                entry["licenses"] = sorted([*entry["licenses"], r.license])
    kinds: dict[str, int] = {}
    for d in records.documents:
        kinds[d.kind] = kinds.get(d.kind, 0) + 1
    relations: dict[str, int] = {}
    for p in records.prerequisites:
        relations[f"{p.source}:{p.relation}"] = relations.get(f"{p.source}:{p.relation}", 0) + 1
    return {
        "bundle_hash": bundle_hash(run.bundle),
        "counts": bundle_counts(records),
        "by_source": dict(sorted(by_source.items())),
        "documents_by_kind": dict(sorted(kinds.items())),
        "prerequisites_by_source": dict(sorted(relations.items())),
        "ingest": {
            "seconds": round(report.seconds, 1),
            "embedded": report.embedded,
            "unchanged": report.unchanged,
            "items": report.counts.get("items", 0),
            "rejected": len(report.rejected),
        },
    }


async def phase_ablations(
    run: Run, embedder: Any, say: Callable[[str], None], tick: Callable[[int, int], None]
) -> None:
    from tutorgraph_research.ablation import AblationSpec, run_ablations
    from tutorgraph_research.harness.cached_embedder import CachingEmbedder
    from tutorgraph_research.tasks.scale import vectors_from_index

    if not run.data.is_dir():
        raise SystemExit(f"data folder not found: {run.data} (pass --data)")
    # The runner keeps its item scores beside `out` (large: every item of every
    # configuration), so it writes into the work folder; the tidy summary is copied over.
    work = run.work / "ablations"
    out = work / "ablations.jsonl"
    if "ablations" in run.force:  # start over rather than resume
        shutil.rmtree(work, ignore_errors=True)
    spec = AblationSpec(
        data=run.data,
        out=out,
        work=work / "models",
        quick=run.quick,
        per_fold={} if run.quick else PAPER_PER_FOLD,
    )

    def progress(task: str, done: int, total: int) -> None:
        say(f"ablations: {task}")
        tick(done, total)

    def status(task: str, line: str) -> None:
        say(f"ablations: {task}: {line}")

    # The bundle index already holds a vector for every OpenStax and Eedi text (same model,
    # same text): the tasks reuse them instead of embedding ~30k texts again.
    known = await asyncio.to_thread(vectors_from_index, run.index)
    say(f"ablations: {len(known)} vectors reused from {run.index}")
    await run_ablations(spec, CachingEmbedder(embedder, known), progress=progress, status=status)
    if not out.is_file():
        raise SystemExit(f"the ablation runner wrote no {out}")
    tmp = run.results / "ablations.jsonl.tmp"
    shutil.copyfile(out, tmp)
    tmp.replace(run.results / "ablations.jsonl")


async def phase_latency(
    run: Run, embedder: Any, tick: Callable[[int, int], None]
) -> dict[str, Any]:
    from tutorgraph.config import Settings
    from tutorgraph_research.harness.configs import ablation_grid
    from tutorgraph_research.tasks.latency import (
        LATENCY_QUERIES,
        WARMUP_QUERIES,
        load_query_set,
        run_latency_harness,
    )

    queries = load_query_set(LATENCY_QUERIES, limit=QUICK_QUERIES if run.quick else None)
    warmup = [q.query for q in load_query_set(WARMUP_QUERIES)][:WARMUP]
    # The ablations leave a large heap: collect it now, not in the middle of a timed query.
    gc.collect()
    return await run_latency_harness(
        run.index,
        ablation_grid(),
        queries,
        warmup,
        settings=Settings(),
        embedder=embedder,
        progress=tick,
        bolt_work=run.work / "latency-bolt",
    )


async def phase_scale(
    run: Run,
    embedder: Any,
    settings: dict[str, Any],
    say: Callable[[str], None],
    tick: Callable[[int, int], None],
) -> dict[str, Any]:
    from tutorgraph_research.tasks.scale import ScaleSpec, run_scale_sweep

    work = run.work / "scale"
    marker = work / "settings.json"
    # Sizes measured under other settings (or a forced redo) are not resumed.
    if work.exists() and (
        "scale" in run.force
        or not marker.is_file()
        or json.loads(marker.read_text(encoding="utf-8")) != settings
    ):
        shutil.rmtree(work)
    write_json(marker, settings)
    spec = ScaleSpec(
        bundle=run.bundle,
        work=work,
        vectors_from=run.index,
        n_queries=QUICK_QUERIES if run.quick else None,
        warmup=WARMUP,
    )
    return await run_scale_sweep(spec, embedder, status=say, progress=tick)


def phase_render(run: Run) -> list[Path]:
    from tutorgraph_research.report import render_all

    paper_tex = Path("paper") / "paper.tex"
    if run.out.resolve() != paper_tex.parent.resolve():
        run.out.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(paper_tex, run.out / "paper.tex")
    return render_all(run.results, run.out, paper_tex=run.out / "paper.tex")


def phase_pdf(run: Run) -> str:
    latexmk = shutil.which("latexmk")
    if latexmk is None:
        return (
            "skipped: latexmk is not installed (apt-get install texlive-latex-recommended latexmk)"
        )
    done = subprocess.run(
        [latexmk, "-pdf", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
        cwd=run.out,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"latexmk failed:\n{done.stdout[-3000:]}")
    return f"built {run.out / 'paper.pdf'}"
