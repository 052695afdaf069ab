"""`tutorgraph query`: one request against the local index, printed for people or as JSON."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError
from rich.panel import Panel
from rich.table import Table

from tutorgraph.cli._common import (
    console,
    err_console,
    fail_on_errors,
    load_settings,
    open_retriever,
)
from tutorgraph.models.packet import ReasoningPacket
from tutorgraph.models.request import RetrievalRequest

__all__ = ["register"]


def query_cmd(
    text: Annotated[str, typer.Argument(help="The student's or tutor's question.")],
    n_results: Annotated[int, typer.Option("--n-results", "-n", help="Hits to return.")] = 10,
    concept_id: Annotated[
        list[str] | None, typer.Option("--concept-id", help="A concept the student is on.")
    ] = None,
    source: Annotated[
        list[str] | None, typer.Option("--source", help="vector, lexical or graph (repeat).")
    ] = None,
    student_answer: Annotated[str | None, typer.Option(help="The student's answer.")] = None,
    debug: Annotated[bool, typer.Option(help="Include the debug block.")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print exactly the packet JSON on stdout.")
    ] = False,
    index_dir: Annotated[Path | None, typer.Option(help="Index folder.")] = None,
) -> None:
    """Retrieve a ReasoningPacket for a question."""
    settings = load_settings(index_dir)
    fields: dict[str, object] = {
        "query": text,
        "n_results": n_results,
        "concept_ids": concept_id or [],
        "student_answer": student_answer,
        "debug": debug,
    }
    if source:
        fields["sources"] = source
    try:
        request = RetrievalRequest.model_validate(fields)
    except ValidationError as exc:
        for err in exc.errors():
            where = ".".join(str(p) for p in err["loc"])
            err_console.print(f"[bold red]invalid request[/]: {where}: {err['msg']}")
        raise typer.Exit(2) from None
    with fail_on_errors():
        retriever, index = open_retriever(settings)
        try:
            packet = asyncio.run(retriever.retrieve(request))
        finally:
            asyncio.run(index.aclose())
    if as_json:
        typer.echo(packet.model_dump_json())
    else:
        print_packet(packet)


def print_packet(packet: ReasoningPacket) -> None:
    table = Table(title=f"[bold]{packet.query}", show_lines=True, expand=True)
    table.add_column("#", justify="right", width=3)
    table.add_column("kind", width=14)
    table.add_column("hit", ratio=1)
    table.add_column("found by", width=14)
    table.add_column("score", justify="right", width=8)
    for hit in packet.results:
        body = f"[dim]{hit.id}[/]\n"
        if hit.title:
            body += f"[bold]{hit.title}[/]\n"
        body += hit.text if len(hit.text) <= 300 else hit.text[:300] + "…"
        if hit.graph_path:
            body += f"\n[cyan]graph: {' → '.join(hit.graph_path)}[/]"
        table.add_row(str(hit.rank), hit.kind, body, ", ".join(hit.found_by), f"{hit.score:.4f}")
    console.print(table)
    gc = packet.graph_context
    if gc.concepts or gc.prerequisites:
        lines = [f"[bold]{c['id']}[/] {c['name']} ({c['seed']})" for c in gc.concepts]
        lines += [f"prerequisite: {' → '.join(p)}" for p in gc.prerequisites[:10]]
        if len(gc.prerequisites) > 10:
            lines.append(f"… {len(gc.prerequisites) - 10} more prerequisite paths")
        lines.append(f"{len(gc.misconceptions)} known misconception(s) of these concepts")
        console.print(Panel("\n".join(lines), title="graph context"))
    timings = "  ".join(f"{k} {v:.1f}" for k, v in packet.timings_ms.items())
    console.print(f"[dim]timings ms: {timings}[/]")
    console.print(
        f"[dim]{packet.total_results} candidates (vector {packet.vector_count}, lexical "
        f"{packet.lexical_count}, graph {packet.graph_count}); reranker: "
        f"{'applied' if packet.reranker.applied else packet.reranker.reason}[/]"
    )
    if packet.degraded_sources:
        console.print(f"[yellow]degraded sources: {', '.join(packet.degraded_sources)}[/]")


def register(app: typer.Typer) -> None:
    app.command("query")(query_cmd)
