"""`tutorgraph bench`: the benchmarks of design section 8."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from tutorgraph.cli._common import (
    console,
    default_subjects,
    fail_on_errors,
    load_settings,
    open_retriever,
    progress_bars,
)
from tutorgraph.config import BUNDLED_RERANKER
from tutorgraph.diagnosis import diagnose as diagnose_module
from tutorgraph.errors import ConfigurationError
from tutorgraph.eval.tasks.eedi_bench import EediBenchmarkSpec, run_eedi_benchmark
from tutorgraph.ingest.eedi import read_eedi_questions
from tutorgraph.retrieval.factory import make_embedder

__all__ = ["register"]


def _question_ids(path: Path | None) -> frozenset[int]:
    """The question ids of an Eedi-format CSV (`--exclude`); none without one."""
    return frozenset(q.question_id for q in read_eedi_questions(path)) if path else frozenset()


bench_app = typer.Typer(help="Benchmarks (design section 8).", no_args_is_help=True)


@bench_app.command("eedi")
def eedi_cmd(
    train: Annotated[Path, typer.Option(help="Eedi train.csv (the development file).")],
    misconceptions: Annotated[Path, typer.Option(help="misconception_mapping.csv.")],
    out: Annotated[Path, typer.Option(help="Where to write results.json.")] = Path("results.json"),
    test: Annotated[
        Path | None, typer.Option(help="Held-out test file; without it, k-fold CV on --train.")
    ] = None,
    subjects: Annotated[
        Path | None,
        typer.Option(help="Eedi subject_metadata.csv (default: ../eedi-subjects/ beside it)."),
    ] = None,
    folds: Annotated[int, typer.Option(help="Folds: fold = int(QuestionId) % folds.")] = 5,
    configs: Annotated[str, typer.Option(help="Comma-separated globs over config names.")] = "*",
    limit: Annotated[int | None, typer.Option(help="At most this many pairs (quick runs).")] = None,
    rerank_depth: Annotated[
        int, typer.Option(help="Fused candidates the reranker scores.", min=1, max=100)
    ] = 30,
    messages: Annotated[
        Path | None,
        typer.Option(
            help="Score these free-text student messages (data/benchmarks/student_messages"
            ".jsonl) instead of the Eedi query texts, each in the fold that holds it out."
        ),
    ] = None,
    exclude: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            dir_okay=False,
            help="CSV with a QuestionId column: the questions read while writing the bug "
            "rules; `/diagnosis` rows add their paired difference over the other questions.",
        ),
    ] = None,
    per_item: Annotated[
        bool,
        typer.Option(
            help="Keep each item's MAP@25 in the results, to compare two runs pair by pair "
            "(scripts/paired_runs.py)."
        ),
    ] = False,
    tuned_folds: Annotated[
        Path | None,
        typer.Option(
            file_okay=False,
            help="Folder of fold encoders (`train-embedder --leave-out K/N --out DIR/foldK`, "
            "one per fold): the learned rankers read their scores, cross-fitted.",
        ),
    ] = None,
) -> None:
    """Eedi misconception retrieval: MAP@25 and Recall@25 per configuration, with 95%
    intervals and the paired difference from the first stage."""
    settings = load_settings()
    if subjects is None:
        subjects = default_subjects(misconceptions)
    spec = EediBenchmarkSpec(
        train=train,
        misconceptions=misconceptions,
        test=test,
        subjects=subjects,
        folds=folds,
        configs=configs,
        limit=limit,
        rerank_depth=rerank_depth,
        messages=messages,
        read_questions=_question_ids(exclude),
        per_item=per_item,
        tuned_folds=tuned_folds,
    )
    embedder = make_embedder(settings)
    with fail_on_errors(), progress_bars() as bars:
        task = bars.add_task("eedi retrievals", total=None)
        results = asyncio.run(
            run_eedi_benchmark(
                spec,
                embedder,
                progress=lambda done, total: bars.update(task, completed=done, total=total),
                status=lambda line: bars.update(task, description=line),
            )
        )
    out.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    table = Table(title=f"eedi -> {out}")
    table.add_column("config", no_wrap=True)
    for column in ("MAP@25 [95%]", "Recall@25", "vs first stage [95%]", "n"):
        table.add_column(column)
    for name, row in results.items():
        if name.startswith("_"):
            continue
        if row["map@25"] is None:
            table.add_row(name, row["status"], "", "", "0")
            continue
        ci = row.get("map@25_ci95")
        diff = row.get("paired_diff")
        table.add_row(
            name,
            f"{row['map@25']:.4f}" + (f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else ""),
            f"{row['recall@25']:.4f}",
            f"{diff['mean']:+.4f} [{diff['ci95'][0]:+.3f}, {diff['ci95'][1]:+.3f}]" if diff else "",
            str(row["n"]),
        )
    console.print(table)


def register(app: typer.Typer) -> None:
    app.add_typer(bench_app, name="bench")


@bench_app.command("latency")
def latency_cmd(
    questions: Annotated[
        Path, typer.Option(help="Eedi train.csv whose question texts are the query set.")
    ],
    n: Annotated[int, typer.Option(help="How many queries.")] = 200,
    out: Annotated[Path | None, typer.Option(help="Also write the report as JSON.")] = None,
    index_dir: Annotated[Path | None, typer.Option(help="Index folder.")] = None,
    rerank_depths: Annotated[
        str, typer.Option(help="Depths at which to time the reranker alone ('' to skip).")
    ] = "10,30,50",
    construct: Annotated[
        bool,
        typer.Option(
            help="Send each question's construct as concept_ids, as an app that knows the "
            "question does (the learned ranker runs only then)."
        ),
    ] = True,
) -> None:
    """Warm per-stage latency (p50/p95/p99) of retrieval on the local index, then the
    reranker alone at several depths (pairs per second, peak memory)."""
    from tutorgraph.eval.tasks.latency import measure_latency, measure_rerank_latency
    from tutorgraph.ingest.eedi import eedi_construct_id, eedi_query_text, read_eedi_questions
    from tutorgraph.models.request import RetrievalRequest
    from tutorgraph.retrieval.reranker import CrossEncoderReranker

    settings = load_settings(index_dir)
    with fail_on_errors():
        qs = read_eedi_questions(questions)
        try:
            depths = [int(d) for d in rerank_depths.split(",") if d.strip()]
        except ValueError:
            raise typer.BadParameter(f"--rerank-depths {rerank_depths!r}: integers") from None
        wrong = [(q, x) for q in qs for x in sorted(q.answers) if x != q.correct_answer]
        picked = wrong[:: max(1, len(wrong) // n)][:n]
        queries = [eedi_query_text(q, x) for q, x in picked]
        served = open_retriever(settings)
        retriever = served.retriever
        requests = [
            RetrievalRequest(
                query=text, concept_ids=[eedi_construct_id(q.construct_id)] if construct else []
            )
            for text, (q, _) in zip(queries, picked, strict=True)
        ]

        async def run(bars: Progress) -> dict[str, Any]:
            try:
                task = bars.add_task("queries", total=len(queries))
                report = await measure_latency(
                    retriever,
                    requests,
                    progress=lambda done, _total: bars.update(task, completed=done),
                )
                reranker = retriever.reranker
                if depths and isinstance(reranker, CrossEncoderReranker):
                    task = bars.add_task("reranker alone", total=len(queries) * len(depths))
                    report["rerank"] = await measure_rerank_latency(
                        retriever,
                        reranker,
                        queries,
                        depths=depths,
                        progress=lambda done, _total: bars.update(task, completed=done),
                    )
                return report
            finally:
                await served.aclose()

        with progress_bars() as bars:
            report = asyncio.run(run(bars))
    table = Table("stage", "p50 ms", "p95 ms", "p99 ms", title=f"latency, {len(queries)} queries")
    for stage, row in report["stages_ms"].items():
        table.add_row(stage, f"{row['p50']:.1f}", f"{row['p95']:.1f}", f"{row['p99']:.1f}")
    console.print(table)
    if "rerank" in report:
        rr = report["rerank"]
        table = Table(
            "depth", "p50 ms", "p95 ms", "pairs/s", title=f"reranker {rr['backend']}: {rr['model']}"
        )
        for depth, row in rr["depths_ms"].items():
            table.add_row(depth, f"{row['p50']:.1f}", f"{row['p95']:.1f}", f"{row['pairs_per_s']}")
        console.print(table)
        console.print(
            f"cached repeat (depth 30) p50 {rr['repeat_depth30_ms']['p50']} ms; "
            f"peak RSS {rr['peak_rss_mb']} MB",
            highlight=False,
        )
    hw = report["hardware"]
    console.print(f"{hw['cpu']}, {hw['cores']} cores, torch {hw['torch']}", highlight=False)
    if out:
        out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


@bench_app.command("diagnosis")
def diagnosis_cmd(
    train: Annotated[
        Path,
        typer.Option(
            exists=True, dir_okay=False, help="Eedi train.csv: every labelled wrong answer."
        ),
    ],
    folds: Annotated[int, typer.Option(help="Report per fold: int(QuestionId) % folds.")] = 5,
    exclude: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            dir_okay=False,
            help="CSV with a QuestionId column: the questions read while writing the rules; "
            "the `held out` row scores the others.",
        ),
    ] = None,
    out: Annotated[Path | None, typer.Option(help="Also write the report as JSON.")] = None,
) -> None:
    """Coverage (pairs where a bug rule fires) and precision (firing rules whose
    misconception is the labelled one) of the diagnosis, overall, per fold and per rule.
    Its effect on MAP@25 is `bench eedi` with the `/diagnosis` configurations."""
    from tutorgraph.eval.tasks.diagnosis import diagnosis_report
    from tutorgraph.ingest.eedi import read_eedi_questions

    with fail_on_errors():
        report = diagnosis_report(
            read_eedi_questions(train), folds=folds, read=_question_ids(exclude)
        )
    table = Table(
        "part", "pairs", "problem read", "fired", "coverage", "precision", title="diagnosis"
    )
    parts = [("all", report), ("held out", report["held_out"])]
    for name, row in [*parts, *((f"fold {k}", r) for k, r in report["by_fold"].items())]:
        table.add_row(
            name,
            str(row["pairs"]),
            str(row["problem_read"]),
            str(row["fired"]),
            f"{row['coverage'] or 0:.3f}",
            "-" if row["precision"] is None else f"{row['precision']:.3f}",
        )
    console.print(table)
    rules = Table("rule", "fired", "right", title="per rule")
    for rule, row in report["by_rule"].items():
        rules.add_row(rule, str(row["fired"]), str(row["right"]))
    console.print(rules)
    ms = report["ms_per_pair"]
    console.print(
        f"read and diagnose per pair: p50 {ms['p50']} ms, p95 {ms['p95']} ms, max {ms['max']} ms",
        highlight=False,
    )
    if out:
        out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


@bench_app.command("refine")
def refine_cmd(
    queries: Annotated[Path, typer.Argument(help="Query set with expected extractions.")] = Path(
        "tests/data/refiner_queries.jsonl"
    ),
    repeats: Annotated[int, typer.Option(min=1, help="Timed passes over the set.")] = 20,
    out: Annotated[Path | None, typer.Option(help="Also write the report as JSON.")] = None,
    index_dir: Annotated[Path | None, typer.Option(help="Index folder.")] = None,
) -> None:
    """Extraction accuracy and warm latency of the configured refiner on a query set."""
    from tutorgraph.eval.tasks.refinement import evaluate_refiner
    from tutorgraph.index.service import open_index
    from tutorgraph.retrieval.factory import RetrieverSetup, build_refiner

    settings = load_settings(index_dir)
    with fail_on_errors():
        index = open_index(settings)
        refiner = build_refiner(RetrieverSetup.from_settings(settings), index)
        assert refiner is not None  # the setup of settings always refines

        async def run() -> dict[str, Any]:
            try:
                return await evaluate_refiner(refiner, queries, repeats=repeats)
            finally:
                await refiner.aclose()
                await index.aclose()

        report = asyncio.run(run())
    table = Table("field", "accuracy", title=f"{report['refiner']} refiner, {report['n']} queries")
    for field, acc in report["accuracy"].items():
        table.add_row(field, f"{acc:.3f}")
    table.add_row("all fields", f"{report['all_fields']:.3f}")
    for split, acc in report["accuracy_by_split"].items():
        table.add_row(f"{split} split, all fields", f"{acc:.3f}")
    console.print(table)
    lat = report["latency_ms"]
    console.print(
        f"refine latency over {report['timed_calls']} warm calls: p50 {lat['p50']} ms, "
        f"p95 {lat['p95']} ms",
        highlight=False,
    )
    for miss in report["misses"]:
        console.print(f"[yellow]miss[/] {miss['id']}: {', '.join(miss['fields'])}")
    if out:
        out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


@bench_app.command("reader")
def reader_cmd(
    messages: Annotated[Path, typer.Argument(help="Labelled messages (JSON Lines).")] = Path(
        "data/benchmarks/reader_messages.jsonl"
    ),
    out: Annotated[Path | None, typer.Option(help="Also write the report as JSON.")] = None,
    show_misses: Annotated[int, typer.Option(help="Dev misses to print.")] = 0,
) -> None:
    """How well the math-message reader reads labelled student messages: problem read,
    answer read, diagnosis fired where a rule applies, per split (dev / heldout phrasings),
    with 95% bootstrap intervals, and the reader's warm time per message."""
    from tutorgraph.diagnosis.diagnose import LINKS_FILE, Diagnoser, read_links
    from tutorgraph.eval.tasks.reader_messages import read_reader_messages, run_reader_benchmark

    load_settings()
    with fail_on_errors():
        rows = read_reader_messages(messages)
        links = read_links(Path(diagnose_module.__file__).parent / LINKS_FILE)
        report = run_reader_benchmark(rows, Diagnoser(links))
    table = Table("messages", "n", "problem read", "answer read", "diagnosis fired", "missing said")
    for name, group in report["groups"].items():

        def cell(metric: str, group: dict[str, Any] = group) -> str:
            if metric not in group:
                return "-"
            m = group[metric]
            return f"{m['mean']:.3f} [{m['ci95'][0]:.2f}, {m['ci95'][1]:.2f}] n={m['n']}"

        table.add_row(
            name,
            str(group["n"]),
            *(cell(k) for k in ("problem_read", "answer_read", "diagnosis_fired", "missing_said")),
        )
    console.print(table)
    before = Table("messages", "problem read", "answer read", "diagnosis fired", title="before")
    for name, group in report["groups"].items():
        before.add_row(
            name,
            *(
                f"{group[k]['mean']:.3f}" if k in group else "-"
                for k in ("before_problem_read", "before_answer_read", "before_diagnosis_fired")
            ),
        )
    console.print(before)
    ms = report["reader_ms"]
    console.print(
        f"reader: p50 {ms['p50']} ms, p95 {ms['p95']} ms, max {ms['max']} ms over "
        f"{ms['calls']} warm calls",
        highlight=False,
    )
    for miss in report["dev_misses"][:show_misses]:
        console.print(f"[yellow]miss[/] {miss['failed']}: {escape(miss['text'])}", highlight=False)
    if out:
        out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


@bench_app.command("routing")
def routing_cmd(
    queries: Annotated[Path, typer.Argument(help="Labelled JSON Lines file.")] = Path(
        "tests/data/routing_queries.jsonl"
    ),
    out: Annotated[Path | None, typer.Option(help="Also write the report as JSON.")] = None,
) -> None:
    """Accuracy and confusion matrices of the auto router on a labelled query set."""
    from tutorgraph.eval.tasks.routing import evaluate_routing

    load_settings()
    with fail_on_errors():
        report = evaluate_routing(queries)
    for key in ("profile", "query_type"):
        m = report[key]
        table = Table("label \\ routed", *m["labels"], title=f"{key}: accuracy {m['accuracy']:.3f}")
        for label, row in zip(m["labels"], m["confusion"], strict=True):
            table.add_row(label, *(str(n) for n in row))
        console.print(table)
    for miss in report["misses"]:
        console.print(
            f"line {miss['line']}: profile {miss['profile'][0]}->{miss['profile'][1]}, type "
            f"{miss['query_type'][0]}->{miss['query_type'][1]}: {miss['query']}",
            highlight=False,
        )
    console.print(f"{report['n']} queries from {queries}", highlight=False)
    if out:
        out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


@bench_app.command("teaching")
def teaching_cmd(
    index_dir: Annotated[
        Path | None, typer.Option(help="Index folder (`tutorgraph ingest` of --curriculum).")
    ] = None,
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
    per_section: Annotated[int, typer.Option(min=1, help="Exercises per held-out section.")] = 8,
    out: Annotated[Path, typer.Option(help="Where to write the report.")] = Path(
        "results/teaching_bench.json"
    ),
) -> None:
    """Teaching-content ordering: for an OpenStax exercise of a held-out section, nDCG@10 of
    the packet's explanations, worked examples and exercises (2: its subsection's
    explanations and worked examples, 1: the rest of its section) and how often its
    subsection's lesson comes first; the first stage against each --reranker, paired."""
    from tutorgraph.eval.harness.provenance import git_commit, hardware
    from tutorgraph.eval.tasks.teaching import (
        TeachingConfig,
        run_teaching_benchmark,
        teaching_items,
    )
    from tutorgraph.ingest.bundle import load_trusted

    settings = load_settings(index_dir)
    with fail_on_errors():
        items = teaching_items(load_trusted(curriculum).documents, per_section=per_section)
        served = [("first-stage", open_retriever(settings), False)]
        for name in reranker or []:
            opened = open_retriever(settings.model_copy(update={"reranker_model": name}))
            if opened.retriever.reranker is None:
                raise ConfigurationError(f"reranker {name!r} could not be loaded")
            served.append((f"rerank:{name}", opened, True))

        async def run(bars: Progress) -> dict[str, Any]:
            try:
                task = bars.add_task("packets", total=len(items) * len(served))
                return await run_teaching_benchmark(
                    [TeachingConfig(n, s.retriever, r) for n, s, r in served],
                    items,
                    progress=lambda done, _total: bars.update(task, completed=done),
                )
            finally:
                for _, s, _ in served:
                    await s.aclose()

        with progress_bars() as bars:
            report = asyncio.run(run(bars))
    report["_meta"] = {
        "items": len(items),
        "sections": len({i.section for i in items}),
        "per_section": per_section,
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


@bench_app.command("linking")
def linking_cmd(
    mathfish: Annotated[
        Path, typer.Option(help="MathFish generated_problems_teacher_annotations.csv.")
    ] = MATHFISH_CSV,
    messages: Annotated[
        Path, typer.Option(help="Tutoring messages with their accepted standards (JSON Lines).")
    ] = Path("data/benchmarks/tutoring_messages.jsonl"),
    curriculum: Annotated[
        Path, typer.Option(help="The bundle whose standards the dense baseline searches.")
    ] = Path("data/curriculum"),
    index_dir: Annotated[
        Path | None, typer.Option(help="Index folder (`tutorgraph ingest` of --curriculum).")
    ] = None,
    out: Annotated[Path, typer.Option(help="Where to write the report.")] = Path(
        "results/linking_bench.json"
    ),
    limit: Annotated[
        int | None, typer.Option(min=1, help="At most this many items per data set.")
    ] = None,
) -> None:
    """Concept linking to Common Core: hit@1/5/10 of the accepted standard, exact and per
    cluster, for the packet, an untrained dense search of the standards' descriptions and the
    concept linker (cards, dense and lexical), with 95% intervals and paired differences."""
    from tutorgraph.eval.harness.provenance import git_commit, hardware
    from tutorgraph.eval.tasks.standards_data import read_mathfish, read_messages, read_standards
    from tutorgraph.eval.tasks.standards_linking import (
        BASELINE,
        METRICS,
        SYSTEMS,
        DenseStandardSearch,
        run_linking_benchmark,
    )
    from tutorgraph.ingest.bundle import load_trusted
    from tutorgraph.linking import ConceptLinker, build_cards

    settings = load_settings(index_dir)
    with fail_on_errors():
        concepts = curriculum / "concepts.jsonl"
        if not concepts.is_file():
            raise ConfigurationError(f"{concepts}: no such file (--curriculum is a bundle)")
        standards = read_standards(concepts)
        known = {s.id for s in standards}
        sets, skipped = [], {}
        for name, path, read in (
            ("mathfish", mathfish, read_mathfish),
            ("tutoring_messages", messages, read_messages),
        ):
            if path.is_file():
                sets.append(read(path, known))
            else:
                why = f"{path} is not there" + (
                    " (MathFish comes with ../shared/data/mathfish; name it with --mathfish)"
                    if name == "mathfish"
                    else ""
                )
                skipped[name] = {"status": "skipped", "reason": why}
                console.print(f"[yellow]skipped[/] {name}: {why}", highlight=False)
        if not sets:
            raise ConfigurationError("nothing to score: neither --mathfish nor --messages exists")
        served = open_retriever(settings)
        dense = DenseStandardSearch(served.retriever.embedder, standards)
        records = load_trusted(curriculum, documents=False)
        linker = ConceptLinker.build(build_cards(records.concepts), served.retriever.embedder)

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
        data["path"] = str(mathfish if name == "mathfish" else messages)
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
