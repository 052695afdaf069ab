"""`tutorgraph bench refine`, `reader` and `routing`: how a query is read before retrieval
(the refiner's extraction, the math-message reader, the auto router), each on a labelled set.

e.g. `tutorgraph bench routing tests/data/routing_queries.jsonl`
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from tutorgraph.cli.plugin import IndexDirOption, console, fail_on_errors, load_settings
from tutorgraph.diagnosis import diagnose as diagnose_module
from tutorgraph_research.cli.options import JsonReportOption

__all__ = ["reader_cmd", "refine_cmd", "routing_cmd"]


def refine_cmd(
    queries: Annotated[Path, typer.Argument(help="Query set with expected extractions.")] = Path(
        "tests/data/refiner_queries.jsonl"
    ),
    repeats: Annotated[int, typer.Option(min=1, help="Timed passes over the set.")] = 20,
    out: JsonReportOption = None,
    index_dir: IndexDirOption = None,
) -> None:
    """Extraction accuracy and warm latency of the configured refiner on a query set."""
    from tutorgraph.index.service import open_index
    from tutorgraph.retrieval.factory import build_refiner
    from tutorgraph.retrieval.retriever_config import RetrieverConfig
    from tutorgraph_research.tasks.refinement import evaluate_refiner

    settings = load_settings(index_dir)
    with fail_on_errors():
        index = open_index(settings)
        refiner = build_refiner(RetrieverConfig.from_settings(settings), index)
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


def reader_cmd(
    messages: Annotated[Path, typer.Argument(help="Labelled messages (JSON Lines).")] = Path(
        "data/benchmarks/reader_messages.jsonl"
    ),
    out: JsonReportOption = None,
    show_misses: Annotated[int, typer.Option(help="Dev misses to print.")] = 0,
) -> None:
    """How well the math-message reader reads labelled student messages: problem read,
    answer read, diagnosis fired where a rule applies, per split (dev / heldout phrasings),
    with 95% bootstrap intervals, and the reader's warm time per message."""
    from tutorgraph.diagnosis.diagnose import LINKS_FILE, Diagnoser, read_links
    from tutorgraph_research.tasks.reader_messages import read_reader_messages, run_reader_benchmark

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


def routing_cmd(
    queries: Annotated[Path, typer.Argument(help="Labelled JSON Lines file.")] = Path(
        "tests/data/routing_queries.jsonl"
    ),
    out: JsonReportOption = None,
) -> None:
    """Accuracy and confusion matrices of the auto router on a labelled query set."""
    from tutorgraph_research.tasks.routing import evaluate_routing

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
