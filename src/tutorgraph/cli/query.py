"""`tutorgraph query`: one request against the local index, printed for people or as JSON."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

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
    loading,
    open_retriever,
    refuse_damaged,
    snippet,
)
from tutorgraph.cli.options import (
    ConceptOption,
    ConversationOption,
    GradeOption,
    IndexDirOption,
    LocalContextOption,
    StudentAnswerOption,
)
from tutorgraph.config import Settings
from tutorgraph.errors import TutorGraphError
from tutorgraph.retrieval.ranker_runtime import may_be_scored
from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph_client.models.packet import (
    DialogueInfo,
    Hit,
    HitSource,
    ReasoningPacket,
    SlotHit,
)
from tutorgraph_client.models.request import RETRIEVAL_PROFILES, STORE_SOURCES, RetrievalRequest

__all__ = ["register"]

T = TypeVar("T")


def request_errors(exc: ValidationError) -> list[str]:
    """Each validation error of a request as `field: message`."""
    return [f"{'.'.join(str(p) for p in e['loc']) or 'request'}: {e['msg']}" for e in exc.errors()]


def query_cmd(
    text: Annotated[
        str | None, typer.Argument(help="The student's or tutor's question (or use --file).")
    ] = None,
    n_results: Annotated[int, typer.Option("--n-results", "-n", help="Hits to return.")] = 10,
    profile: Annotated[
        str | None,
        typer.Option(help=f"One of {', '.join(RETRIEVAL_PROFILES)} (default: the index's)."),
    ] = None,
    semantic_weight: Annotated[
        float | None, typer.Option(help="Dense weight in [0, 1]; overrides the profile.")
    ] = None,
    fusion: Annotated[str, typer.Option(help="rrf or weighted.")] = "rrf",
    sources: Annotated[
        list[str] | None,
        typer.Option(
            "--sources", "--source", help=f"{', '.join(STORE_SOURCES)} (repeat or comma)."
        ),
    ] = None,
    concept: ConceptOption = None,
    student_answer: StudentAnswerOption = None,
    problem: Annotated[
        str | None,
        typer.Option(help="The problem the student worked on (stands for the query if none)."),
    ] = None,
    correct_answer: Annotated[str | None, typer.Option(help="The problem's answer.")] = None,
    grade: GradeOption = None,
    rerank: Annotated[
        bool | None, typer.Option("--rerank/--no-rerank", help="Default: the profile's.")
    ] = None,
    refine: Annotated[
        bool,
        typer.Option("--refine/--no-refine", help="Refine the query first (the local refiner)."),
    ] = True,
    graph_scope: Annotated[
        bool | None,
        typer.Option("--graph-scope/--no-graph-scope", help="Default: the profile's."),
    ] = None,
    max_context_tokens: Annotated[int, typer.Option(help="Budget of packet.context.")] = 1500,
    near_duplicate_threshold: Annotated[
        float | None,
        typer.Option(help="Cosine in [0.5, 1] at which near-duplicate hits merge (the index's)."),
    ] = None,
    local_context: LocalContextOption = None,
    conversation: ConversationOption = None,
    debug: Annotated[bool, typer.Option(help="Include the debug block.")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print exactly the packet JSON on stdout.")
    ] = False,
    file: Annotated[
        Path | None,
        typer.Option(help="JSON Lines of requests; prints one packet JSON per line."),
    ] = None,
    index_dir: IndexDirOption = None,
) -> None:
    """Retrieve a ReasoningPacket for a question (or for every request in --file)."""
    settings = load_settings(index_dir)
    if (text is None and problem is None) == (file is None):
        err_console.print(
            "[bold red]invalid request[/]: give either a query (or --problem) or --file"
        )
        raise typer.Exit(2)
    defaults: dict[str, object] = {
        "n_results": n_results,
        "fusion": fusion,
        "concept_ids": concept or [],
        "student_answer": student_answer,
        "problem": problem,
        "correct_answer": correct_answer,
        "grade": grade,
        "use_refinement": refine,
        "max_context_tokens": max_context_tokens,
        "debug": debug,
    }
    optional = {
        "retrieval_profile": profile,
        "semantic_weight": semantic_weight,
        "rerank": rerank,
        "graph_scope": graph_scope,
        "near_duplicate_threshold": near_duplicate_threshold,
        "local_context": read_json_list(local_context, "--local-context")
        if local_context
        else None,
        "conversation": read_json_list(conversation, "--conversation") if conversation else None,
        "sources": [s.strip() for item in sources for s in item.split(",")] if sources else None,
    }
    defaults.update({k: v for k, v in optional.items() if v is not None})
    if file is not None:
        _run_file(file, defaults, settings)
        return
    try:
        request = RetrievalRequest.model_validate({**defaults, "query": text or ""})
    except ValidationError as exc:
        for line in request_errors(exc):
            err_console.print(f"[bold red]invalid request[/]: {line}", highlight=False)
        raise typer.Exit(2) from None

    # The status line (stderr, a terminal only) lasts until the packet is ready to print.
    with fail_on_errors(), loading(quiet=as_json) as say:

        async def answer(retriever: HybridRetriever) -> ReasoningPacket:
            say("retrieving")
            return await retriever.retrieve(request)

        # A request no learned ranker may score leaves it unloaded (one that may: it loads
        # beside the index, as always).
        packet = _with_retriever(settings, answer, say, defer_ranker=not may_be_scored(request))
    if as_json:
        typer.echo(packet.model_dump_json())
    else:
        print_packet(packet)


def read_json_list(path: Path, option: str) -> list[Any]:
    """The JSON list of an option's file: the documents of `--local-context`, the turns of
    `--conversation` (checked later, with the request)."""
    try:
        items = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise typer.BadParameter(f"{path}: {exc}", param_hint=option) from None
    if not isinstance(items, list):
        raise typer.BadParameter(f"{path}: not a JSON list", param_hint=option)
    return items


def _run_file(path: Path, defaults: dict[str, object], settings: Settings) -> None:
    """Batch mode: each line is a request (its fields win over the flags); one packet a line."""
    if not path.is_file():
        err_console.print(f"[bold red]error[/]: no such file {path}")
        raise typer.Exit(2)
    bad = 0

    async def run_all(retriever: HybridRetriever) -> None:
        nonlocal bad
        with path.open(encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    fields = json.loads(line)
                    if not isinstance(fields, dict):
                        raise ValueError("a request must be a JSON object")
                    request = RetrievalRequest.model_validate({**defaults, **fields})
                    packet = await retriever.retrieve(request)
                except ValidationError as exc:
                    reason = "; ".join(request_errors(exc))
                except (ValueError, TutorGraphError) as exc:
                    reason = str(exc)
                else:
                    typer.echo(packet.model_dump_json())
                    continue
                bad += 1
                err_console.print(f"[red]{path}:{lineno}[/]: {reason}", highlight=False)

    with fail_on_errors():
        _with_retriever(settings, run_all)
    if bad:
        raise typer.Exit(1)


def _with_retriever(
    settings: Settings,
    job: Callable[[HybridRetriever], Awaitable[T]],
    status: Callable[[str], None] | None = None,
    *,
    defer_ranker: bool = True,
) -> T:
    """Open the retriever, run `job` and close everything, all in one event loop (the
    OpenAI refiner's HTTP client must be closed in the loop that used it); `status` is told
    what loads. With `defer_ranker` (a file of requests, or one no ranker may score) the
    learned ranker loads only when a request needs it."""
    if status is not None:
        status("checking the index")
    served = open_retriever(settings, status=status, defer_ranker=defer_ranker)

    async def run() -> T:
        async with served:
            refuse_damaged(served.index)
            return await job(served.retriever)

    return asyncio.run(run())


def request_fusion(debug: dict[str, Any]) -> str:
    fusion = debug["fusion"]
    return f"{fusion['method']} fusion" + (" + graph scope" if debug["graph_scoped"] else "")


_MATCH_NAMES: dict[HitSource, str] = {
    "vector": "semantic",
    "lexical": "lexical",
    "graph": "graph",
    "local": "local context",
    "diagnosis": "diagnosis",
    "ranker": "the ranker's proposal",
    "generator": "generated",
}


def _matched(hit: Hit) -> str:
    """How a hit was matched, in words a tutor reads: lexical, semantic, graph or several."""
    return " + ".join(_MATCH_NAMES[s] for s in hit.found_by)


def _grade(packet: ReasoningPacket) -> str:
    """The grade the linker used, for the concepts panel's title."""
    g = packet.grade
    if g.source == "request":
        return f" (grade {g.grade}, given)"
    if g.source == "inferred" and g.probability is not None:
        return f" (reads as grades {g.band}, {g.probability:.0%})"
    return ""


# Linked concepts per taxonomy, and steps of a chain, the panel lists.
CONCEPTS_SHOWN = 5
CHAIN_SHOWN = 6


def _step(relation: str, depth: int) -> str:
    return "teaches" if relation == "aligned_with" else f"builds on ({depth} back)"


def _label(cid: str, name: str) -> str:
    """An id and its name, once when the name is the id's code (a standard's)."""
    return escape(cid if cid.endswith(name) else f"{cid} {name}")


def _verdict(packet: ReasoningPacket) -> str:
    """The line an app acts on first: no match, or how sure the packet is."""
    if packet.no_match:
        return f"[bold yellow]not sure[/]: {escape(packet.no_match_reason or '')}"
    if packet.confidence is None:
        return f"[dim]confidence: none ({escape(packet.scope.reason or 'no scope model')})[/]"
    slots = packet.slots
    parts = [f"first concept right {packet.confidence:.0%}"]
    if slots.teach.confidence is not None:
        parts.append(f"teaching on target {slots.teach.confidence:.0%}")
    if slots.misconceptions.confidence is not None:
        parts.append(f"misconception found {slots.misconceptions.confidence:.0%}")
    return f"[bold]confidence[/]: {', '.join(parts)} (in scope {packet.scope.in_scope:.0%})"


def _came_from(hit: SlotHit) -> str:
    """Where a slot's hit came from, and its grade, in a tutor's words."""
    where = (
        f"from {hit.standard.removeprefix('ccss:')}"
        if hit.via == "standard" and hit.standard
        else "near the message"
    )
    return f"{where}, grade {hit.grade}" if hit.grade else where


# What one misconception of the slot claims: its own role and confidence, never the slot's.
_ROLES = {
    "reproduces_answer": "reproduces the student's answer",
    "possible": "possible: does not reproduce the answer",
    "topic_error": "a common error of the topic",
}


def _print_misconceptions(packet: ReasoningPacket) -> None:
    slot = packet.slots.misconceptions
    if not slot.hits:
        if slot.empty_reason:
            console.print(f"[dim]misconceptions: {escape(slot.empty_reason)}[/]", highlight=False)
        return
    lines = []
    for i, h in enumerate(slot.hits, start=1):
        claim = _ROLES.get(h.role or "", "")
        if h.confidence is not None:
            claim += f" ({h.confidence:.0%})"
        lines.append(f"[bold]{i}.[/] {escape(snippet(h.text, 90))}\n    [dim]{escape(claim)}[/]")
    console.print(Panel("\n".join(lines), title="misconceptions (each with its own claim)"))


def _dialogue_line(d: DialogueInfo) -> str:
    """What the packet read of the dialogue, in one line."""
    parts = [f"dialogue: {d.turns} earlier turns, topic {d.topic}"]
    if d.topic_standard:
        parts[0] += f" (session: {d.topic_standard})"
    if d.problem is not None:
        parts.append(f"problem {d.problem} from turn {d.problem_turn}")
    if d.student_answer_turn is not None:
        parts.append(f"answer from turn {d.student_answer_turn}")
    parts += [
        name for name, on in (("help request", d.help_request), ("chit-chat", d.chit_chat)) if on
    ]
    return " | ".join(parts)


def print_packet(packet: ReasoningPacket) -> None:
    """A readable packet: one block per hit, then the graph context and the timings."""
    console.print(Rule(f"[bold]{escape(packet.query)}"))
    console.print(_verdict(packet), highlight=False)
    if (rq := packet.refined_query) is not None:
        parts = [f"searched as: {rq.optimized_query}"]
        if rq.problem:
            parts.append(f"problem: {rq.problem}")
        elif rq.math_expressions:
            parts.append(f"math: {', '.join(rq.math_expressions)}")
        if rq.student_answer:
            parts.append(f"student answer: {rq.student_answer}")
        if rq.key_concepts:
            parts.append(f"concepts: {', '.join(rq.key_concepts)}")
        if rq.fallback_reason:
            parts.append(f"fallback: {rq.fallback_reason}")
        console.print(f"[dim]{escape(' | '.join(parts))} ({rq.refiner} refiner)[/]")
    if (dialogue := packet.dialogue) is not None:
        console.print(f"[dim]{escape(_dialogue_line(dialogue))}[/]", highlight=False)
    if (check := packet.answer_check) is not None and check.missing:
        console.print(
            f"[bold]diagnosis[/]: not tried, the message gives no {' and no '.join(check.missing)}"
            + (
                f" (read: {escape(check.problem or check.student_answer or '')})"
                if (check.problem or check.student_answer)
                else ""
            ),
            highlight=False,
        )
    elif check is not None:
        verdict = "right" if check.correct else f"wrong (the answer is {check.correct_answer})"
        answer = escape(check.student_answer or "")
        console.print(
            f"[bold]diagnosis[/]: {escape(check.problem or '')}: the student's {answer} is "
            f"{verdict}",
            highlight=False,
        )
        for finding in packet.diagnosis:
            console.print(
                f"  [bold]{finding.misconception_id}[/] ({finding.rule}): "
                f"{escape(finding.explanation)}",
                highlight=False,
            )
    for hit in packet.results:
        merged = f" (+{len(hit.ids) - 1} merged)" if len(hit.ids) > 1 else ""
        console.print(
            f"[bold]{hit.rank:>2}.[/] [magenta]{hit.kind}[/] [dim]{hit.id}{merged}[/]  "
            f"matched [cyan]{_matched(hit)}[/]  score {hit.score:.4f}",
            highlight=False,
        )
        if hit.title:
            console.print(f"    [bold]{escape(hit.title)}[/]", highlight=False)
        console.print(f"    {escape(snippet(hit.text))}", highlight=False)
        if hit.graph_path and len(hit.graph_path) > 1:
            console.print(f"    [cyan]graph: {' → '.join(hit.graph_path)}[/]", highlight=False)
        if hit.corroborated_by:
            dups = ", ".join(
                f"{d.id} ({d.similarity:.2f})" for d in hit.corroborated_by.near_duplicates
            )
            console.print(
                f"    [dim]near-duplicates: {dups}; found by "
                f"{', '.join(hit.corroborated_by.sources)}[/]",
                highlight=False,
            )
    if packet.slots.teach.hits:
        lines = [
            f"[bold]{i}.[/] [magenta]{h.kind}[/] {escape(h.title)} [dim]({_came_from(h)})[/]\n"
            f"    {escape(snippet(h.text, 90))}"
            for i, h in enumerate(packet.slots.teach.hits, start=1)
        ]
        console.print(Panel("\n".join(lines), title="lessons (the teach slot)"))
    elif packet.slots.teach.empty_reason:
        console.print(f"[dim]teach slot empty: {escape(packet.slots.teach.empty_reason)}[/]")
    _print_misconceptions(packet)
    for name in ("teach", "practice", "misconceptions"):
        if (note := getattr(packet.slots, name).note) is not None:
            console.print(f"[yellow]{name}: {escape(note)}[/]", highlight=False)
    if packet.concepts:
        lines = []
        shown: dict[str, int] = {}
        for linked in packet.concepts:
            shown[linked.taxonomy] = shown.get(linked.taxonomy, 0) + 1
            if shown[linked.taxonomy] > CONCEPTS_SHOWN:
                continue
            about = f": {escape(snippet(linked.description, 90))}" if linked.description else ""
            lines.append(
                f"[bold]{linked.taxonomy}[/] {_label(linked.id, linked.name)}{about}"
                + (" (yours)" if linked.evidence.get("caller") else f" ({linked.score:.3f})")
            )
            # The nearest first, so that a cut list keeps them.
            steps = sorted(linked.prerequisites, key=lambda p: p.depth)
            lines += [
                f"    [cyan]{_step(p.relation, p.depth)}: {_label(p.id, p.name)}"
                + (f": {escape(snippet(p.description, 70))}" if p.description else "")
                + "[/]"
                for p in steps[:CHAIN_SHOWN]
            ]
            if len(steps) > CHAIN_SHOWN:
                lines.append(f"    [cyan]… {len(steps) - CHAIN_SHOWN} more it builds on[/]")
        console.print(Panel("\n".join(lines), title=f"what the message is about{_grade(packet)}"))
    gc = packet.graph_context
    if gc.concepts or gc.prerequisites:
        lines = [f"[bold]{c['id']}[/] {escape(c['name'])} ({c['seed']})" for c in gc.concepts]
        lines += [f"prerequisite: {' → '.join(p)}" for p in gc.prerequisites[:10]]
        if len(gc.prerequisites) > 10:
            lines.append(f"… {len(gc.prerequisites) - 10} more prerequisite paths")
        lines.append(f"{len(gc.misconceptions)} known misconception(s) of these concepts")
        console.print(Panel("\n".join(lines), title="graph context"))
    if packet.debug:
        d = packet.debug
        console.print(
            f"[dim]route: {d['retrieval_profile_effective']} (requested "
            f"{d['retrieval_profile_requested']}), semantic weight "
            f"{d['semantic_weight_effective']}, {d['query_type']}, {request_fusion(d)}, "
            f"signals: {', '.join(d['auto_signals_detected']) or 'none'}[/]",
            highlight=False,
        )
    timings = "  ".join(f"{k} {v:.1f}" for k, v in packet.timings_ms.items())
    console.print(f"[dim]timings ms: {timings}[/]")
    console.print(
        f"[dim]{packet.total_results} candidates (vector {packet.vector_count}, lexical "
        f"{packet.lexical_count}, graph {packet.graph_count}); reranker: "
        f"{'applied' if packet.reranker.applied else packet.reranker.reason}[/]"
    )
    for c in packet.conflicts:
        if c.kind == "factual":
            answers = "; ".join(f"{i}: {escape(snippet(a, 60))}" for i, a in c.answers.items())
            line = f"conflict: {answers} (preferred {c.preferred})"
        else:
            stale = ", ".join(f"{s.source} {s.updated_at or 'unversioned'}" for s in c.superseded)
            line = f"stale copy of {c.ids[0]} replaced by {c.preferred}: {stale}"
        console.print(f"[yellow]{line}[/]", highlight=False)
    if packet.degraded_sources:
        why = packet.degraded_reasons
        named = ", ".join(f"{s} ({why[s]})" if s in why else s for s in packet.degraded_sources)
        console.print(f"[yellow]degraded sources: {escape(named)}[/]", highlight=False)
    for note in packet.degraded_stages.values():
        console.print(f"[yellow]degraded: {escape(note)}[/]", highlight=False)


def register(app: typer.Typer) -> None:
    app.command("query")(query_cmd)
