"""`tutorgraph bench latency`: warm per-stage retrieval latency on the local index, and the
reranker alone at several depths.

e.g. `tutorgraph bench latency --questions train.csv --n 50 --out latency.json`
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
    IndexDirOption,
    console,
    fail_on_errors,
    load_settings,
    open_retriever,
    progress_bars,
)
from tutorgraph_research.cli.options import JsonReportOption

__all__ = ["WARMUP", "latency_cmd"]

# Untimed requests first, on pairs that are not timed.
WARMUP = 10


def latency_cmd(
    questions: Annotated[
        Path, typer.Option(help="Eedi train.csv whose question texts are the query set.")
    ],
    n: Annotated[int, typer.Option(help="How many queries.")] = 200,
    out: JsonReportOption = None,
    index_dir: IndexDirOption = None,
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
    micro_batch: Annotated[
        bool,
        typer.Option(
            help="Put the server's micro-batchers in front of the models, as `serve` does "
            "(concurrent calls share a model call)."
        ),
    ] = False,
) -> None:
    """Warm per-stage latency (p50/p95/p99) of retrieval on the local index, then the
    reranker alone at several depths (pairs per second, peak memory)."""
    from tutorgraph.embedding.reranker import CrossEncoderReranker
    from tutorgraph.ingest.eedi import eedi_construct_id, eedi_query_text, read_eedi_questions
    from tutorgraph.retrieval.factory import load_models
    from tutorgraph_client.models.request import RetrievalRequest
    from tutorgraph_research.tasks.latency import measure_latency, measure_rerank_latency

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
        # Warm up on other pairs: the stores remember repeated searches.
        timed = {(q.question_id, x) for q, x in picked}
        spare = [(q, x) for q, x in wrong if (q.question_id, x) not in timed][:WARMUP]
        served = open_retriever(
            settings, load_models(settings, micro_batch=True) if micro_batch else None
        )
        retriever = served.retriever
        requests = [
            RetrievalRequest(
                query=text, concept_ids=[eedi_construct_id(q.construct_id)] if construct else []
            )
            for text, (q, _) in zip(queries, picked, strict=True)
        ]
        warm = [
            RetrievalRequest(
                query=eedi_query_text(q, x),
                concept_ids=[eedi_construct_id(q.construct_id)] if construct else [],
            )
            for q, x in spare
        ]

        async def run(bars: Progress) -> dict[str, Any]:
            try:
                task = bars.add_task("queries", total=len(queries))
                report = await measure_latency(
                    retriever,
                    requests,
                    warmup=WARMUP,
                    warmup_queries=warm,
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
    console.print(
        f"CPU {report['cpu_ms_per_request']} ms a request (every thread): at least "
        f"{report['cpu_floor_ms']} ms of wall time with every core on it",
        highlight=False,
    )
    hw = report["hardware"]
    console.print(f"{hw['cpu']}, {hw['cores']} cores, torch {hw['torch']}", highlight=False)
    if out:
        out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
