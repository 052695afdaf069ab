"""Regenerate every result, table, figure and number of the paper from the raw data.

    .venv/bin/python research/scripts/reproduce_paper.py          # the full run (about 2 h here)
    .venv/bin/python research/scripts/reproduce_paper.py --quick  # small samples (minutes)

(`research/scripts/reproduce_paper.py` runs `main` from the checkout's root.)

Phases, each skipped when its output exists for the same settings, so an interrupted run
resumes (the ablation phase also resumes inside itself, unit by unit). Every phase records
in `phases.json` the `run_id` of the invocation that finished it and its minutes, so a run
in one sitting shows one `run_id` throughout, with its wall time under `runs`:

1. index      the bundled curriculum (`data/curriculum`; `--quick`: a small slice of it)
              ingested into a work index, from its stored vectors -> `bundle.json`
2. ablations  `tutorgraph_research.ablation.run_ablations` over `--data`, one factor at a time
              around the shipped default; fold models trained on each fold's training
              data; the full run scores a stable sample of items per fold of three tasks
              (`PAPER_PER_FOLD`) -> `ablations.jsonl`
3. latency    warm per-stage latency of every configuration, and the graph stage over
              Bolt (ArcadeDB standing in for Neo4j) -> `latency.json`
4. scale      the x1/x2/x4 sweep and all real documents, with a fit per stage -> `scale.json`
5. render     `paper/tables/*`, `paper/figures/*.png` and `paper/paper.md`
6. pdf        `latexmk -pdf paper.tex` when latexmk is installed (else skipped, and said)

Results go to `results/paper/` (`--quick`: `results/paper-quick/`), work files (indexes,
trained models) to `build/paper-work/` (`build/paper-quick-work/`). The full run renders
into `paper/`; a quick run into `build/paper-quick/`, so it never overwrites the paper.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from pathlib import Path
from typing import Any

from tutorgraph_research.reproduce.phases import (
    phase_ablations,
    phase_index,
    phase_latency,
    phase_pdf,
    phase_render,
    phase_scale,
)
from tutorgraph_research.reproduce.run import (
    PAPER_PER_FOLD,
    PHASES,
    QUICK_QUERIES,
    QUICK_SLICE,
    WARMUP,
    PhaseClock,
    Run,
    grid_missing,
    grid_names,
    write_json,
)

__all__ = ["main", "parse_args"]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--quick", action="store_true", help="small samples everywhere (minutes)")
    p.add_argument(
        "--data",
        type=Path,
        default=Path("../shared/data"),
        help="the raw datasets (default: ../shared/data)",
    )
    p.add_argument(
        "--bundle",
        type=Path,
        default=Path("data/curriculum"),
        help="the curriculum bundle to index (default: data/curriculum)",
    )
    p.add_argument(
        "--results",
        type=Path,
        default=None,
        help="results folder (default: results/paper or results/paper-quick)",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        help="where tables, figures, paper.md and the PDF go (default: paper/, "
        "or build/paper-quick with --quick)",
    )
    p.add_argument(
        "--work",
        type=Path,
        default=None,
        help="work folder: indexes, models (default: build/paper-work or build/paper-quick-work)",
    )
    p.add_argument(
        "--index",
        type=Path,
        default=None,
        help="index folder to build or update (default: <work>/index); an existing "
        "index of the same bundle is reused without re-embedding",
    )
    p.add_argument(
        "--phases",
        default=",".join(PHASES),
        help=f"comma-separated phases to run (default: all of {','.join(PHASES)})",
    )
    p.add_argument(
        "--force", default="", help="comma-separated phases to redo even when their output exists"
    )
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # No model hub here; never let a library try, and keep tokenizers from forking threads.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    import logging

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    import bm25s  # noqa: F401 - it sets its logger to DEBUG on import; quiet it after that

    logging.getLogger("bm25s").setLevel(logging.WARNING)
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from tutorgraph.config import Settings
    from tutorgraph.index.generations import live_generation
    from tutorgraph.ingest.bundle import bundle_hash
    from tutorgraph.retrieval.factory import make_embedder
    from tutorgraph.stores.manifest import Manifest
    from tutorgraph_research.harness.configs import DEFAULT
    from tutorgraph_research.tasks.scale import SCALE_FACTORS

    run = Run(args)
    console = Console(stderr=True, soft_wrap=True)
    # The shipped embedder (ONNX Runtime unless TUTORGRAPH_EMBEDDER_BACKEND says otherwise):
    # the bundle's stored vectors are its vectors, so the index phase embeds nothing.
    embedder = make_embedder(Settings())
    mode = "quick" if run.quick else "full"
    console.print(
        f"[bold]reproduce_paper[/] ({mode}, run {run.run_id}): results {run.results}, "
        f"out {run.out}, work {run.work}",
        highlight=False,
    )
    started = time.perf_counter()
    timings: list[tuple[str, str]] = []
    last_line = [""]

    source_hash = bundle_hash(run.source_bundle)
    index_settings = run.settings(bundle_hash=source_hash, slice=QUICK_SLICE if run.quick else None)
    n_queries = QUICK_QUERIES if run.quick else None

    def index_ready() -> bool:
        live = live_generation(run.index)
        manifest = Manifest.read(live) if live is not None else None
        return (
            manifest is not None
            and run.bundle.is_dir()
            and manifest.bundle_hash == bundle_hash(run.bundle)
        )

    plan: list[tuple[str, Path, dict[str, Any]]] = [
        ("index", run.results / "bundle.json", index_settings),
        (
            "ablations",
            run.results / "ablations.jsonl",
            run.settings(data=run.data.name, per_fold=None if run.quick else PAPER_PER_FOLD),
        ),
        (
            "latency",
            run.results / "latency.json",
            run.settings(
                index=index_settings, queries=n_queries, warmup=WARMUP, configs=grid_names()
            ),
        ),
        (
            "scale",
            run.results / "scale.json",
            run.settings(
                index=index_settings,
                queries=n_queries,
                warmup=WARMUP,
                factors=list(SCALE_FACTORS),
                config=DEFAULT.name,
            ),
        ),
    ]
    needs_index = any(
        name in run.phases and not run.done(name, out, s)
        for name, out, s in plan
        if name in ("latency", "scale")
    )

    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    ) as bars:
        for name, output, settings in plan:
            if name not in run.phases:
                continue
            skip = run.done(name, output, settings)
            if name == "index" and skip and needs_index and not index_ready():
                skip = False  # the results are there, but a later phase needs the index itself
            if name == "ablations" and skip and grid_missing(output):
                skip = False  # the grid has grown: the resumed runner scores only what is new
            if skip:
                timings.append((name, "done before (skipped)"))
                console.print(f"[green]{name}[/]: done before, skipped", highlight=False)
                continue
            task = bars.add_task(name, total=None)
            clock = PhaseClock(run, name, settings)

            def say(line: str, task: Any = task, clock: PhaseClock = clock) -> None:
                bars.update(task, description=line[:100])
                if not console.is_terminal and line != last_line[0]:
                    # No live bars in a log or a pipe: a line per change of phase instead.
                    last_line[0] = line
                    console.print(f"  {line}", highlight=False)
                clock.bank()

            def tick(done: int, total: int, task: Any = task, clock: PhaseClock = clock) -> None:
                bars.update(task, completed=done, total=total)
                clock.bank()

            complete = False
            try:
                if name == "index":
                    report = asyncio.run(phase_index(run, embedder, say, tick))
                    write_json(output, {**report, "settings": settings})
                elif name == "ablations":
                    asyncio.run(phase_ablations(run, embedder, say, tick))
                elif name == "latency":
                    say("latency: loading the index and the rerankers")
                    report = asyncio.run(phase_latency(run, embedder, tick))
                    write_json(output, {**report, "settings": settings})
                elif name == "scale":
                    report = asyncio.run(phase_scale(run, embedder, settings, say, tick))
                    write_json(output, {**report, "settings": settings})
                complete = True
            finally:
                seconds = clock.bank(complete=complete, final=True)
                bars.update(task, description=f"{name}: {'done' if complete else 'stopped'}")
            timings.append((name, f"{seconds / 60:.1f} min"))

    if "render" in run.phases:
        clock = PhaseClock(run, "render", run.settings())
        written = phase_render(run)
        seconds = clock.bank(complete=True, final=True)
        timings.append(("render", f"{seconds:.1f} s, {len(written)} files"))
        console.print(f"[green]render[/]: {len(written)} files under {run.out}", highlight=False)
    if "pdf" in run.phases:
        clock = PhaseClock(run, "pdf", run.settings())
        what = phase_pdf(run)
        seconds = clock.bank(complete=True, final=True)
        timings.append(("pdf", f"{seconds:.1f} s: {what}"))
        console.print(f"[green]pdf[/]: {what}", highlight=False)

    console.print(f"\n[bold]phase times[/] (run {run.run_id})", highlight=False)
    for name, text in timings:
        console.print(f"  {name:10} {text}", highlight=False)
    console.print(f"  {'total':10} {(time.perf_counter() - started) / 60:.1f} min", highlight=False)
    return 0
