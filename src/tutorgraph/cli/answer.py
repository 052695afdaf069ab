"""`tutorgraph answer`: retrieve a packet, then stream a cited answer for the tutor.

The answer model is the OpenAI-compatible one of `TUTORGRAPH_OPENAI_BASE_URL` /
`OPENAI_API_KEY` (`TUTORGRAPH_ANSWER_MODEL`). Without one, or when it fails, it prints the
packet and says why there is no answer; it never makes one up.
"""

from __future__ import annotations

import asyncio
import sys
from functools import partial
from typing import Annotated

import typer
from pydantic import ValidationError

from tutorgraph.cli._common import (
    err_console,
    fail_on_errors,
    load_settings,
    loading,
    open_retriever,
    refuse_damaged,
)
from tutorgraph.cli.options import (
    ConceptOption,
    ConversationOption,
    GradeOption,
    IndexDirOption,
    LocalContextOption,
    StudentAnswerOption,
)
from tutorgraph.cli.query import print_packet, read_json_list, request_errors
from tutorgraph.retrieval.ranker_runtime import may_be_scored
from tutorgraph.synthesis.answerer import (
    Delta,
    answer_unavailable,
    build_answerer,
    no_answer,
)
from tutorgraph_client.models.answer import AnswerRequest, AnswerResponse, AnswerResult
from tutorgraph_client.models.packet import ReasoningPacket

__all__ = ["register"]


def answer_cmd(
    text: Annotated[str, typer.Argument(help="The student's or tutor's question.")],
    n_results: Annotated[int, typer.Option("--n-results", "-n", help="Hits to retrieve.")] = 10,
    concept: ConceptOption = None,
    student_answer: StudentAnswerOption = None,
    problem: Annotated[str | None, typer.Option(help="The problem the student worked on.")] = None,
    grade: GradeOption = None,
    local_context: LocalContextOption = None,
    conversation: ConversationOption = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one AnswerResponse JSON instead of streaming.")
    ] = False,
    index_dir: IndexDirOption = None,
) -> None:
    """Retrieve a packet for TEXT and stream an answer that cites only its context."""
    settings = load_settings(index_dir)
    try:
        request = AnswerRequest.model_validate(
            {
                "query": text,
                "n_results": n_results,
                "concept_ids": concept or [],
                "student_answer": student_answer,
                "problem": problem,
                "grade": grade,
                "local_context": read_json_list(local_context, "--local-context")
                if local_context
                else [],
                "conversation": read_json_list(conversation, "--conversation")
                if conversation
                else [],
                "stream": not as_json,
            }
        )
    except ValidationError as exc:
        for line in request_errors(exc):
            err_console.print(f"[bold red]invalid request[/]: {line}", highlight=False)
        raise typer.Exit(2) from None
    unavailable = answer_unavailable(settings)
    streamed = False

    async def run() -> tuple[ReasoningPacket, AnswerResult]:
        nonlocal streamed
        # The status line (stderr, a terminal only) ends before the answer streams.
        with loading(quiet=as_json) as say:
            say("checking the index")
            defer = not may_be_scored(request)  # no ranker may score it: none is loaded
            served = await asyncio.to_thread(
                partial(open_retriever, settings, status=say, defer_ranker=defer)
            )
            try:
                refuse_damaged(served.index)
                say("retrieving")
                packet = await served.retriever.retrieve(request)
            except BaseException:
                await served.aclose()
                raise
        async with served:
            if unavailable is not None:
                return packet, no_answer(unavailable)
            answerer = build_answerer(settings)
            try:
                result: AnswerResult | None = None
                async for event in answerer.stream(packet, request.conversation):
                    if isinstance(event, Delta):
                        if request.stream:
                            sys.stdout.write(event.text)
                            sys.stdout.flush()
                            streamed = True
                    else:
                        result = event
                assert result is not None
                return packet, result
            finally:
                await answerer.aclose()

    with fail_on_errors():
        packet, result = asyncio.run(run())
    if as_json:
        typer.echo(AnswerResponse(packet=packet, **result.model_dump()).model_dump_json())
        return
    if result.answer is None:
        if streamed:
            sys.stdout.write("\n")
            err_console.print("[yellow]the answer above was cut off: discard it[/]")
        print_packet(packet)
        err_console.print(f"[yellow]no answer[/]: {result.reason}", highlight=False)
        return
    sys.stdout.write("\n")
    cited = ", ".join(result.citations) or "none"
    err_console.print(f"[dim]cited: {cited}[/]", highlight=False)
    if result.removed_citations:
        err_console.print(
            f"[yellow]removed citations not in the packet[/]: "
            f"{', '.join(result.removed_citations)}",
            highlight=False,
        )


def register(app: typer.Typer) -> None:
    app.command("answer")(answer_cmd)
