"""`tutorgraph query`: one request against the local index, printed for people or as JSON."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError
from rich.markup import escape
from rich.panel import Panel
from rich.rule import Rule

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


def _snippet(text: str, limit: int = 240) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def print_packet(packet: ReasoningPacket) -> None:
    """A readable packet: one block per hit, then the graph context and the timings."""
    console.print(Rule(f"[bold]{escape(packet.query)}"))
    for hit in packet.results:
        merged = f" (+{len(hit.ids) - 1} merged)" if len(hit.ids) > 1 else ""
        console.print(
            f"[bold]{hit.rank:>2}.[/] [magenta]{hit.kind}[/] [dim]{hit.id}{merged}[/]  "
            f"found by [cyan]{' + '.join(hit.found_by)}[/]  score {hit.score:.4f}",
            highlight=False,
        )
        if hit.title:
            console.print(f"    [bold]{escape(hit.title)}[/]", highlight=False)
        console.print(f"    {escape(_snippet(hit.text))}", highlight=False)
        if hit.graph_path and len(hit.graph_path) > 1:
            console.print(f"    [cyan]graph: {' → '.join(hit.graph_path)}[/]", highlight=False)
    gc = packet.graph_context
    if gc.concepts or gc.prerequisites:
        lines = [f"[bold]{c['id']}[/] {escape(c['name'])} ({c['seed']})" for c in gc.concepts]
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
