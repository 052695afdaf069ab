"""Regenerate every result, table, figure and number of the paper from the raw data.

    .venv/bin/python scripts/reproduce_paper.py                 # the full run (about 2 h here)
    .venv/bin/python scripts/reproduce_paper.py --quick         # small samples (minutes)

Phases, each skipped when its output exists for the same settings, so an interrupted run
resumes (the ablation phase also resumes inside itself, unit by unit):

1. index      the bundled curriculum (`data/curriculum`; `--quick`: a small slice of it)
              ingested into a work index -> `bundle.json`
2. ablations  `tutorgraph.eval.ablation.run_ablations` over `--data` -> `ablations.jsonl`
3. latency    warm per-stage latency of every configuration -> `latency.json`
4. scale      the x1/x2/x4 sweep -> `scale.json`
5. render     `paper/tables/*`, `paper/figures/*.png` and `paper/paper.md`
6. pdf        `latexmk -pdf paper.tex` when latexmk is installed (else skipped, and said)

Results go to `results/paper/` (`--quick`: `results/paper-quick/`), work files (indexes,
trained models) to `build/paper-work/` (`build/paper-quick-work/`). The full run renders
into `paper/`; a quick run into `build/paper-quick/`, so it never overwrites the paper.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PHASES = ("index", "ablations", "latency", "scale", "render", "pdf")
# Quick runs: small samples everywhere (the ablation runner picks its own with quick=True).
QUICK_SLICE = {"misconceptions": 200, "documents": 200, "exercises": 600, "concepts": 200}
QUICK_QUERIES = 30
WARMUP = 10
BANK_EVERY_S = 60.0  # how often a running phase writes its time so far to phases.json


def _args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--quick", action="store_true", help="small samples everywhere (minutes)")
    p.add_argument(
        "--data",
        type=Path,
        default=REPO.parent / "shared" / "data",
        help="the raw datasets (default: ../shared/data)",
    )
    p.add_argument(
        "--bundle",
        type=Path,
        default=REPO / "data" / "curriculum",
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


def grid_names() -> list[str]:
    from tutorgraph.eval.harness.configs import ablation_grid

    return [c.name for c in ablation_grid()]


def grid_missing(ablations: Path) -> set[str]:
    """The configurations of today's grid that the ablation summary has no row for."""
    seen = set()
    with ablations.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                seen.add(json.loads(line).get("config"))
    return set(grid_names()) - seen


class PhaseClock:
    """A phase's time, added to `phases.json` every `BANK_EVERY_S` and at its end, so a run
    that is killed (a session's end) still leaves the time it spent on record."""

    def __init__(self, run: Run, name: str, settings: dict[str, Any]) -> None:
        self.run, self.name, self.settings = run, name, settings
        self.started = self.unbanked = time.perf_counter()

    def bank(self, *, complete: bool = False, final: bool = False) -> float:
        """Record the time not yet recorded (now, if `final` or a while has passed); returns
        the seconds since this clock started."""
        now = time.perf_counter()
        if final or now - self.unbanked >= BANK_EVERY_S:
            self.run.record(self.name, now - self.unbanked, self.settings, complete)
            self.unbanked = now
        return now - self.started


class Run:
    """Paths, settings and the per-phase bookkeeping (`phases.json`) of one reproduction."""

    def __init__(self, args: argparse.Namespace) -> None:
        tag = "paper-quick" if args.quick else "paper"
        self.quick: bool = args.quick
        self.data: Path = args.data
        self.source_bundle: Path = args.bundle
        self.results: Path = args.results or REPO / "results" / tag
        self.out: Path = args.out or (
            REPO / "build" / "paper-quick" if args.quick else REPO / "paper"
        )
        self.work: Path = args.work or REPO / "build" / f"{tag}-work"
        self.index: Path = args.index or self.work / "index"
        self.bundle: Path = self.work / "bundle" if args.quick else args.bundle
        self.phases = [x.strip() for x in args.phases.split(",") if x.strip()]
        self.force = {x.strip() for x in args.force.split(",") if x.strip()}
        unknown = (set(self.phases) | self.force) - set(PHASES)
        if unknown:
            raise SystemExit(f"unknown phase(s): {', '.join(sorted(unknown))}")
        self.results.mkdir(parents=True, exist_ok=True)
        self.work.mkdir(parents=True, exist_ok=True)

    def settings(self, **extra: Any) -> dict[str, Any]:
        return {"quick": self.quick, **extra}

    def done(self, name: str, output: Path, settings: dict[str, Any]) -> bool:
        """True when `output` exists and was written with these settings."""
        if name in self.force or not output.is_file():
            return False
        if output.suffix == ".json":
            return bool(json.loads(output.read_text(encoding="utf-8")).get("settings") == settings)
        entry = self._phases().get(name, {})
        return bool(entry.get("complete") and entry.get("settings") == settings)

    def _phases(self) -> dict[str, Any]:
        path = self.results / "phases.json"
        return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}

    def record(self, name: str, seconds: float, settings: dict[str, Any], complete: bool) -> None:
        phases = self._phases()
        entry = phases.get(name, {})
        # Time adds up over resumed runs; a finished run's settings are what it was run with.
        if entry.get("settings") != settings:
            entry = {}
        entry = {
            "seconds": round(float(entry.get("seconds", 0.0)) + seconds, 1),
            "settings": settings,
            "complete": complete,
        }
        phases[name] = entry
        ordered = {k: phases[k] for k in PHASES if k in phases}
        write_json(self.results / "phases.json", ordered)


def write_json(path: Path, data: Any) -> None:
    """Write atomically: a killed run leaves the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)


# -- phases ----------------------------------------------------------------------------------


async def phase_index(
    run: Run, embedder: Any, say: Callable[[str], None], tick: Callable[[int, int], None]
) -> dict[str, Any]:
    from tutorgraph.eval.tasks.scale import bundle_counts, sample_records
    from tutorgraph.index.pipeline import IngestOptions, ingest_bundle
    from tutorgraph.ingest.bundle import bundle_hash, read_bundle, write_bundle

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
    from tutorgraph.embedding.cached_embedder import CachingEmbedder
    from tutorgraph.eval.ablation import AblationSpec, run_ablations
    from tutorgraph.eval.tasks.scale import vectors_from_index

    if not run.data.is_dir():
        raise SystemExit(f"data folder not found: {run.data} (pass --data)")
    # The runner keeps its item scores beside `out` (large: every item of every
    # configuration), so it writes into the work folder; the tidy summary is copied over.
    work = run.work / "ablations"
    out = work / "ablations.jsonl"
    if "ablations" in run.force:  # start over rather than resume
        shutil.rmtree(work, ignore_errors=True)
    spec = AblationSpec(data=run.data, out=out, work=work / "models", quick=run.quick)

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
    from tutorgraph.eval.harness.configs import ablation_grid
    from tutorgraph.eval.tasks.latency import (
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
    )


async def phase_scale(
    run: Run,
    embedder: Any,
    settings: dict[str, Any],
    say: Callable[[str], None],
    tick: Callable[[int, int], None],
) -> dict[str, Any]:
    from tutorgraph.eval.tasks.scale import ScaleSpec, run_scale_sweep

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
    from tutorgraph.eval.report import render_all

    paper_tex = REPO / "paper" / "paper.tex"
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


# -- driver ------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    args = _args(argv)
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

    from tutorgraph.config import DEFAULT_EMBEDDING_MODEL
    from tutorgraph.embedding.embedder import SentenceTransformerEmbedder
    from tutorgraph.ingest.bundle import bundle_hash
    from tutorgraph.stores.manifest import Manifest

    run = Run(args)
    console = Console(stderr=True, soft_wrap=True)
    embedder = SentenceTransformerEmbedder(DEFAULT_EMBEDDING_MODEL)
    mode = "quick" if run.quick else "full"
    console.print(
        f"[bold]reproduce_paper[/] ({mode}): results {run.results}, out {run.out}, work {run.work}",
        highlight=False,
    )
    started = time.perf_counter()
    timings: list[tuple[str, str]] = []
    last_line = [""]

    source_hash = bundle_hash(run.source_bundle)
    index_settings = run.settings(bundle_hash=source_hash, slice=QUICK_SLICE if run.quick else None)
    n_queries = QUICK_QUERIES if run.quick else None

    def index_ready() -> bool:
        manifest = Manifest.read(run.index) if (run.index / "manifest.json").is_file() else None
        return (
            manifest is not None
            and run.bundle.is_dir()
            and manifest.bundle_hash == bundle_hash(run.bundle)
        )

    plan: list[tuple[str, Path, dict[str, Any]]] = [
        ("index", run.results / "bundle.json", index_settings),
        ("ablations", run.results / "ablations.jsonl", run.settings(data=run.data.name)),
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
            run.settings(index=index_settings, queries=n_queries, warmup=WARMUP),
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
        t = time.perf_counter()
        written = phase_render(run)
        timings.append(("render", f"{time.perf_counter() - t:.1f} s, {len(written)} files"))
        console.print(f"[green]render[/]: {len(written)} files under {run.out}", highlight=False)
    if "pdf" in run.phases:
        t = time.perf_counter()
        what = phase_pdf(run)
        timings.append(("pdf", f"{time.perf_counter() - t:.1f} s: {what}"))
        console.print(f"[green]pdf[/]: {what}", highlight=False)

    console.print("\n[bold]phase times[/]", highlight=False)
    for name, text in timings:
        console.print(f"  {name:10} {text}", highlight=False)
    console.print(f"  {'total':10} {(time.perf_counter() - started) / 60:.1f} min", highlight=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
