"""`POST /v1/answer`: retrieve the packet, then a cited answer for the tutor from its context.

Streamed as Server-Sent Events by default: `event: packet` (the ReasoningPacket), then
`event: delta` (`{"text": ...}`, checked text) as the model writes, then `event: done`
(the `AnswerResult`: the answer, its citations, the removed ones; or `answer: null` and a
reason, after which streamed text is to be discarded). With `"stream": false`, one JSON
`AnswerResponse`. Without an answer model, or when it fails, the packet still comes, with
`answer: null` and the reason; a packet that matched nothing (`no_match`) is not sent to the
model (`answer: null`, reason `not sure: <no_match_reason>`). A request's `conversation` is
read by the retrieval, and its latest turns are shown to the model beside the context.

>>> httpx.post(f"{base}/v1/answer", json={"query": "why is 3/4 > 2/3?", "stream": False},
...            headers={"X-API-Key": key}).json()["citations"]  # doctest: +SKIP
['eedi:misconception:1667']
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Response
from fastapi.sse import EventSourceResponse, format_sse_event

from tutorgraph.api.deps import AppState, GenerationDep, StateDep, require_read
from tutorgraph.api.errors import ERROR_RESPONSES
from tutorgraph.api.openapi import ANSWER_EXAMPLES
from tutorgraph.synthesis.answerer import Delta, collect, no_answer
from tutorgraph_client.models.answer import AnswerRequest, AnswerResponse, AnswerResult
from tutorgraph_client.models.api import ErrorResponse
from tutorgraph_client.models.conversation import Turn
from tutorgraph_client.models.packet import ReasoningPacket

__all__ = ["router"]

router = APIRouter(
    prefix="/v1",
    tags=["answer"],
    dependencies=[Depends(require_read)],
    responses=ERROR_RESPONSES,
)

_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "Server-Sent Events (packet, delta..., done), or with `stream: false` "
        "one AnswerResponse",
        "content": {"text/event-stream": {"schema": {"type": "string"}}},
    },
    503: {"model": ErrorResponse, "description": "No requested source could answer"},
}


async def _events(
    state: AppState, packet: ReasoningPacket, conversation: list[Turn]
) -> AsyncIterator[bytes]:
    yield format_sse_event(event="packet", data_str=packet.model_dump_json())
    if state.answerer is None:
        result = no_answer(state.answerer_unavailable)
        state.metrics.observe_answer(result)
        yield format_sse_event(event="done", data_str=result.model_dump_json())
        return
    async for event in state.answerer.stream(packet, conversation):
        if isinstance(event, Delta):
            yield format_sse_event(event="delta", data_str=json.dumps({"text": event.text}))
        else:
            state.metrics.observe_answer(event)
            yield format_sse_event(event="done", data_str=event.model_dump_json())


@router.post(
    "/answer",
    response_model=AnswerResponse,
    responses=_RESPONSES,
    summary="Retrieve a packet and answer from it, with checked citations",
)
async def answer(
    request: Annotated[AnswerRequest, Body(openapi_examples=ANSWER_EXAMPLES)],
    generation: GenerationDep,
    state: StateDep,
) -> Response:
    packet = await generation.retriever.retrieve(request)
    state.metrics.observe_packet(packet)
    if request.stream:
        return EventSourceResponse(
            _events(state, packet, request.conversation),
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
    result: AnswerResult = (
        await collect(state.answerer, packet, request.conversation)
        if state.answerer is not None
        else no_answer(state.answerer_unavailable)
    )
    state.metrics.observe_answer(result)
    body = AnswerResponse(packet=packet, **result.model_dump())
    return Response(body.model_dump_json(), media_type="application/json")
