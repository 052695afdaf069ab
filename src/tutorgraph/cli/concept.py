"""`tutorgraph concept ID`: one concept of the curriculum graph, for a person (or as JSON).

What the graph holds about it: its name, taxonomy and description; its chain both ways (what
it builds on, what builds on it); what it is aligned with; its misconceptions; its lessons
(explanations, worked examples) and its practice (exercises, questions). A Common Core
K-8 standard has its own lesson, worked examples, practice and (K-5) misconceptions, written
for its grade (`data/teaching`, shown whole); more come through the Eedi constructs and
OpenStax sections aligned with it, and each says which (`retrieval/concepts.py`, the lookup
`GET /v1/concepts/{id}/misconceptions` answers from too).

It reads the graph alone (the index's catalogue, or Neo4j when configured): no vectors, no
BM25, no model.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

import typer
from rich.markup import escape

from tutorgraph.cli._common import (
    console,
    err_console,
    fail_on_errors,
    load_settings,
    loading,
    snippet,
)
from tutorgraph.cli.options import IndexDirOption
from tutorgraph.index.service import open_graph
from tutorgraph.linking.cards import taxonomy_of
from tutorgraph.retrieval.concepts import (
    ChainStep,
    ConceptView,
    LinkedDocument,
    concept_view,
)
from tutorgraph.stores.protocols import GraphStore
from tutorgraph_client.models.curriculum import Concept

__all__ = ["concept_cmd", "register"]

# Lines a section lists before "… N more" (the JSON lists everything it read).
SHOWN = 8


def concept_cmd(
    concept_id: Annotated[
        str, typer.Argument(help="A concept id: ccss:5.NF.A.1, eedi:construct:428, ...")
    ],
    depth: Annotated[
        int, typer.Option(min=1, max=2, help="Hops of the chain each way (1 or 2).")
    ] = 2,
    documents: Annotated[
        int, typer.Option(min=1, max=100, help="Lessons, and practice items, to read.")
    ] = 5,
    query: Annotated[
        str | None,
        typer.Option("--query", "-q", help="Order the misconceptions by relevance to this text."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object on stdout.")
    ] = False,
    index_dir: IndexDirOption = None,
) -> None:
    """Show a concept: its chain both ways, misconceptions, lessons and practice."""
    settings = load_settings(index_dir)
    text = query.strip() if query and query.strip() else None

    async def look_up() -> ConceptView | str:
        """The view, or the one line that says the id is unknown."""
        with loading(quiet=as_json) as say:
            say("reading the curriculum graph")
            opened = await asyncio.to_thread(open_graph, settings)
            async with opened:
                say(f"looking up {concept_id}")
                view = await concept_view(
                    opened.graph, concept_id, depth=depth, documents=documents, query=text
                )
                if view is None:
                    return f"unknown concept id: {concept_id}" + await _did_you_mean(
                        opened.graph, concept_id
                    )
                return view

    with fail_on_errors():
        view = asyncio.run(look_up())
    if isinstance(view, str):
        err_console.print(f"[bold red]error[/]: {escape(view)}", highlight=False)
        raise typer.Exit(2)
    if as_json:
        typer.echo(json.dumps(view_json(view), ensure_ascii=False))
    else:
        print_view(view)


async def _did_you_mean(graph: GraphStore, concept_id: str) -> str:
    """For text that is not an id (`adding fractions`), the concepts whose names match it
    best, as ` (did you mean ...?)`; nothing for an id, or when nothing matches."""
    if ":" in concept_id:
        return ""
    matches = await graph.search_concepts(concept_id, 3)
    near = [m.concept.id for m in matches]
    return f" (did you mean {' or '.join(near)}?)" if near else ""


def _taxonomy(concept: Concept) -> str:
    taxonomy = taxonomy_of(concept) or concept.id.split(":", 1)[0]
    grade = f", grade {concept.grade}" if concept.grade else ""
    return f"{taxonomy} {concept.kind}{grade}"


def _name(view: ConceptView, cid: str) -> str:
    """An id and its name (once, when the name is the id's code, as a standard's is)."""
    concept = view.names.get(cid)
    if concept is None or cid.endswith(concept.name):
        about = concept.description if concept is not None else ""
        return escape(cid + (f": {snippet(about, 70)}" if about else ""))
    return escape(f"{cid} {concept.name}")


def _more(shown: int, total: int) -> None:
    if total > shown:
        console.print(f"  [dim]… {total - shown} more[/]", highlight=False)


def _chain(view: ConceptView, title: str, steps: list[ChainStep]) -> None:
    console.print(f"[bold]{title}[/] ({len(steps)})", highlight=False)
    if not steps:
        console.print("  [dim]none in the graph[/]")
    for s in steps[:SHOWN]:
        through = "" if s.depth == 1 else f" [dim](via {escape(s.next_id)})[/]"
        console.print(f"  {s.depth}. {_name(view, s.concept_id)} [cyan]{s.relation}[/]{through}")
    _more(SHOWN, len(steps))


def _documents(title: str, docs: list[LinkedDocument]) -> None:
    console.print(f"[bold]{title}[/] ({len(docs)} read)", highlight=False)
    if not docs:
        console.print("  [dim]none in the graph[/]")
    for d in docs[:SHOWN]:
        doc = d.document
        via = f" [dim](via {escape(d.via)})[/]" if d.via else ""
        grade = f" [dim]grade {escape(doc.grade)}[/]" if doc.grade else ""
        if d.via is None and doc.grade:
            # The concept's own teaching, written for its grade: shown whole, to teach from.
            body = "\n".join(f"    {escape(line)}" for line in doc.text.splitlines() if line)
            console.print(
                f"  [magenta]{doc.kind}[/] [dim]{escape(doc.id)}[/]{grade}\n"
                f"    [bold]{escape(doc.title)}[/]\n{body}",
                highlight=False,
            )
            continue
        head = f"{doc.title}: " if doc.title else ""
        console.print(
            f"  [magenta]{doc.kind}[/] [dim]{escape(doc.id)}[/]{via}{grade}\n"
            f"    {escape(snippet(head + doc.text, 110))}",
            highlight=False,
        )
    _more(SHOWN, len(docs))


def print_view(view: ConceptView) -> None:
    c = view.concept
    console.rule(f"[bold]{escape(c.id)}[/]")
    console.print(f"[bold]{escape(c.name)}[/] [dim]({escape(_taxonomy(c))})[/]", highlight=False)
    if c.description:
        console.print(escape(c.description), highlight=False)
    _chain(view, "builds on", view.prerequisites)
    _chain(view, "leads to", view.builds_on_it)
    if view.aligned:
        standard = c.kind == "standard"
        title = "taught by (aligned with it)" if standard else "aligned with the standard"
        console.print(f"[bold]{title}[/] ({len(view.aligned)})", highlight=False)
        for a in view.aligned[:SHOWN]:
            score = f" {a.score:.2f}" if a.score is not None else ""
            console.print(f"  {_name(view, a.concept_id)} [dim]({a.method}{score})[/]")
        _more(SHOWN, len(view.aligned))
    mis = view.misconceptions
    own = sum(m.via is None for m in mis)
    through = ""
    if own < len(mis):
        through = ", through the constructs aligned with it"
        if own:
            through = f", {own} its own, the rest{through.removeprefix(',')}"
    console.print(f"[bold]misconceptions[/] ({len(mis)}{through})", highlight=False)
    if not mis:
        console.print("  [dim]none in the graph[/]")
    for m in mis[:SHOWN]:
        via = f" [dim](via {escape(m.via)})[/]" if m.via else ""
        score = f" [dim]relevance {m.relevance:.2f}[/]" if m.relevance else ""
        console.print(
            f"  [dim]{escape(m.misconception.id)}[/] {escape(m.misconception.text)}{via}{score}",
            highlight=False,
        )
        if m.misconception.description:
            console.print(f"    {escape(m.misconception.description)}", highlight=False)
        for ex in m.misconception.examples[:1]:
            console.print(
                f"    [dim]e.g.[/] {escape(ex.problem)} -> {escape(ex.wrong_answer)} "
                f"[dim](right: {escape(ex.right_answer)})[/]",
                highlight=False,
            )
    _more(SHOWN, len(mis))
    _documents("lessons", view.lessons)
    _documents("practice", view.practice)


def _step_json(view: ConceptView, s: ChainStep) -> dict[str, Any]:
    named = view.names.get(s.concept_id)
    return {
        "id": s.concept_id,
        "name": named.name if named else None,
        "relation": s.relation,
        "depth": s.depth,
        "next_id": s.next_id,
    }


def view_json(view: ConceptView) -> dict[str, Any]:
    """The view as JSON: every list it read, with names and the concept each came through."""

    def doc(d: LinkedDocument) -> dict[str, Any]:
        return {"document": d.document.model_dump(mode="json"), "via": d.via}

    return {
        "concept": view.concept.model_dump(mode="json"),
        "taxonomy": taxonomy_of(view.concept),
        "prerequisites": [_step_json(view, s) for s in view.prerequisites],
        "builds_on_it": [_step_json(view, s) for s in view.builds_on_it],
        "aligned": [
            {
                "id": a.concept_id,
                "name": view.names[a.concept_id].name if a.concept_id in view.names else None,
                "score": a.score,
                "method": a.method,
            }
            for a in view.aligned
        ],
        "misconceptions": [
            {
                "misconception": m.misconception.model_dump(mode="json"),
                "relevance": m.relevance,
                "via": m.via,
                "alignment_score": m.alignment_score,
            }
            for m in view.misconceptions
        ],
        "lessons": [doc(d) for d in view.lessons],
        "practice": [doc(d) for d in view.practice],
    }


def register(app: typer.Typer) -> None:
    app.command("concept")(concept_cmd)
