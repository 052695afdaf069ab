"""`tutorgraph bench teaching` (ordering a packet's teaching content) and `tutorgraph bench
linking` (linking to Common Core standards): the curriculum's content, on its bundle.

e.g. `tutorgraph bench linking --limit 50 --out results/linking_bench.json`
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import Progress
from rich.table import Table

from tutorgraph.cli.plugin import (
    console,
    fail_on_errors,
    load_settings,
    open_retriever,
    progress_bars,
)
from tutorgraph.config import BUNDLED_RERANKER
from tutorgraph.errors import ConfigurationError
from tutorgraph_research.cli.options import BundleIndexDirOption

__all__ = ["MATHFISH_CSV", "linking_cmd", "teaching_cmd"]


def teaching_cmd(
    index_dir: BundleIndexDirOption = None,
    curriculum: Annotated[
        Path, typer.Option(help="The bundle whose exercises are the items.")
    ] = Path("data/curriculum"),
    reranker: Annotated[
        list[str] | None,
        typer.Option(
            help="A cross-encoder to order the packet with (a folder, or "
            f"{BUNDLED_RERANKER}); repeat for several. Each is compared with the first stage."
        ),
    ] = None,
    lessons: Annotated[
        list[int] | None,
        typer.Option(
            min=0,
            max=10,
            help="Lessons the packet carries (the request's `lessons`); repeat for "
            "several first-stage rows, the first being the baseline. Default: the setting.",
        ),
    ] = None,
    dev: Annotated[
        bool,
        typer.Option(
            "--dev", help="Items from the development sections (the four fifths not held out)."
        ),
    ] = False,
    per_section: Annotated[int, typer.Option(min=1, help="Exercises per section.")] = 8,
    out: Annotated[Path, typer.Option(help="Where to write the report.")] = Path(
        "results/teaching_bench.json"
    ),
) -> None:
    """Teaching-content ordering: for an OpenStax exercise of a held-out section, nDCG@10 of
    the packet's explanations, worked examples and exercises (2: its subsection's
    explanations and worked examples, 1: the rest of its section) and how often its
    subsection's lesson comes first; each --lessons row and --reranker against the first row,
    paired. Choose settings with --dev, then report them on the held-out sections."""
    from tutorgraph.ingest.bundle import load_trusted
    from tutorgraph_research.harness.provenance import git_commit, hardware
    from tutorgraph_research.tasks.teaching import (
        TeachingConfig,
        run_teaching_benchmark,
        teaching_items,
    )

    settings = load_settings(index_dir)
    with fail_on_errors():
        items = teaching_items(
            load_trusted(curriculum).documents, per_section=per_section, held_out=not dev
        )
        first = open_retriever(settings)
        rows: list[int | None] = list(lessons) if lessons else [None]
        served = [
            (f"lessons={n}" if n is not None else "first-stage", first, False, n) for n in rows
        ]
        for name in reranker or []:
            opened = open_retriever(settings.model_copy(update={"reranker_model": name}))
            if opened.retriever.reranker is None:
                raise ConfigurationError(f"reranker {name!r} could not be loaded")
            served.append((f"rerank:{name}", opened, True, None))

        async def run(bars: Progress) -> dict[str, Any]:
            try:
                task = bars.add_task("packets", total=len(items) * len(served))
                return await run_teaching_benchmark(
                    [TeachingConfig(n, s.retriever, r, lessons=k) for n, s, r, k in served],
                    items,
                    progress=lambda done, _total: bars.update(task, completed=done),
                )
            finally:
                for s in {id(s): s for _, s, _, _ in served}.values():
                    await s.aclose()

        with progress_bars() as bars:
            report = asyncio.run(run(bars))
    report["_meta"] = {
        "items": len(items),
        "sections": len({i.section for i in items}),
        "per_section": per_section,
        "split": "dev" if dev else "held-out",
        "lesson_slots_setting": settings.lesson_slots,
        "index_dir": str(settings.index_dir),
        "rerank_depth": settings.rerank_depth,
        "git_commit": git_commit(),
        "hardware": hardware(),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    table = Table("configuration", "nDCG@10", "lesson first", title=f"teaching order -> {out}")
    for name, row in report.items():
        if name != "_meta":
            table.add_row(name, f"{row['ndcg@10']:.3f}", f"{row['first_is_subsection']:.3f}")
    console.print(table)


MATHFISH_CSV = Path("../shared/data/mathfish/generated_problems_teacher_annotations.csv")


def linking_cmd(
    mathfish: Annotated[
        Path, typer.Option(help="MathFish generated_problems_teacher_annotations.csv.")
    ] = MATHFISH_CSV,
    messages: Annotated[
        Path, typer.Option(help="Tutoring messages with their accepted standards (JSON Lines).")
    ] = Path("data/benchmarks/tutoring_messages.jsonl"),
    word_problems: Annotated[
        Path, typer.Option(help="K-8 word problems with their accepted standards (JSON Lines).")
    ] = Path("data/benchmarks/word_problems.jsonl"),
    curriculum: Annotated[
        Path, typer.Option(help="The bundle whose standards the dense baseline searches.")
    ] = Path("data/curriculum"),
    index_dir: BundleIndexDirOption = None,
    out: Annotated[Path, typer.Option(help="Where to write the report.")] = Path(
        "results/linking_bench.json"
    ),
    limit: Annotated[
        int | None, typer.Option(min=1, help="At most this many items per data set.")
    ] = None,
) -> None:
    """Concept linking to Common Core (MathFish, tutoring messages, word problems): hit@1/3/5/10
    of the accepted standard, exact and per cluster, for the packet, an untrained dense search
    of the standards' descriptions and the concept linker (cards, dense and lexical), with 95%
    intervals and paired differences."""
    from tutorgraph.ingest.bundle import load_trusted
    from tutorgraph.linking import ConceptLinker, build_cards
    from tutorgraph.retrieval.factory import load_standards_model
    from tutorgraph_research.harness.provenance import git_commit, hardware
    from tutorgraph_research.tasks.standards_data import (
        MESSAGES,
        WORD_PROBLEMS,
        read_mathfish,
        read_messages,
        read_standards,
    )
    from tutorgraph_research.tasks.standards_linking import (
        BASELINE,
        METRICS,
        SYSTEMS,
        DenseStandardSearch,
        run_linking_benchmark,
    )

    settings = load_settings(index_dir)
    with fail_on_errors():
        concepts = curriculum / "concepts.jsonl"
        if not concepts.is_file():
            raise ConfigurationError(f"{concepts}: no such file (--curriculum is a bundle)")
        standards = read_standards(concepts)
        known = {s.id for s in standards}
        sets, skipped = [], {}
        paths = {"mathfish": mathfish, MESSAGES: messages, WORD_PROBLEMS: word_problems}
        for name, path in paths.items():
            if path.is_file() and name == "mathfish":
                sets.append(read_mathfish(path, known))
            elif path.is_file():
                sets.append(read_messages(path, known, name))
            else:
                why = f"{path} is not there" + (
                    " (MathFish comes with ../shared/data/mathfish; name it with --mathfish)"
                    if name == "mathfish"
                    else ""
                )
                skipped[name] = {"status": "skipped", "reason": why}
                console.print(f"[yellow]skipped[/] {name}: {why}", highlight=False)
        if not sets:
            raise ConfigurationError(
                "nothing to score: none of --mathfish, --messages, --word-problems exists"
            )
        served = open_retriever(settings)
        dense = DenseStandardSearch(served.retriever.embedder, standards)
        records = load_trusted(curriculum, documents=False)
        linker = ConceptLinker.build(build_cards(records.concepts), served.retriever.embedder)
        # The linker as served: with the standards model the settings name, if it loads.
        model = load_standards_model(settings).value
        if model is not None:
            linker = linker.with_model(model)

        async def run(bars: Progress) -> dict[str, Any]:
            try:
                task = bars.add_task("packets", total=None)
                return await run_linking_benchmark(
                    sets,
                    served.retriever,
                    dense,
                    linker=linker,
                    limit=limit,
                    progress=lambda done, total: bars.update(task, completed=done, total=total),
                )
            finally:
                await served.aclose()

        with progress_bars() as bars:
            report = asyncio.run(run(bars))
    for name, data in report["datasets"].items():
        data["status"] = "ok"
        data["path"] = str(paths[name])
    report["datasets"].update(skipped)
    report["bundle_heldout"] = {
        "status": "skipped",
        "reason": "no document of the bundle names a ccss: standard (its items link to Eedi "
        "constructs and OpenStax sections), so it holds no item with an accepted standard",
    }
    report["_meta"] = {
        "curriculum": str(curriculum),
        "index_dir": str(settings.index_dir),
        "embedder": settings.embedding_model,
        "standards_searched": len(standards),
        "baseline": BASELINE,
        "metrics": list(METRICS),
        "bootstrap": {"resamples": 1000, "seed": 0, "level": 0.95},
        "limit": limit,
        "git_commit": git_commit(),
        "hardware": hardware(),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    # One line per row (a table would be cut to the 80 columns of a pipe).
    console.print(f"linking to Common Core: mean [95% interval] -> {out}", highlight=False)

    def cell(row: dict[str, Any], sign: str = "") -> str:
        lo, hi = row["ci95"]
        return f"{row['mean']:{sign}.3f} [{lo:{sign}.2f}, {hi:{sign}.2f}]"

    for data_name in report["systems"][BASELINE]:
        for subset, base_row in report["systems"][BASELINE][data_name].items():
            if base_row["n"] == 0:
                continue
            for system in SYSTEMS:
                row = report["systems"][system][data_name][subset]
                parts = [f"{data_name}/{subset}".ljust(36), system.ljust(19), f"n={row['n']:<4}"]
                parts += [f"{m} {cell(row[m])}" for m in ("hit@1", "hit@5", "hit@10")]
                parts.append(f"cluster hit@10 {cell(row['cluster_hit@10'])}")
                if "paired" in row:
                    parts.append(f"hit@10 vs {BASELINE} {cell(row['paired']['hit@10'], '+')}")
                console.print("  ".join(parts), highlight=False)
