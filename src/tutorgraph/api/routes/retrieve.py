"""`POST /v1/retrieve`: a `RetrievalRequest` in, a `ReasoningPacket` out.

A source that fails or times out gives a 200 whose packet lists it in `degraded_sources`;
only when no requested source answers at all is it a 503.

>>> httpx.post(f"{base}/v1/retrieve", json={"query": "why is 3/4 > 2/3?"},
...            headers={"X-API-Key": key}).json()["results"][0]["kind"]  # doctest: +SKIP
'explanation'
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Response

from tutorgraph.api.deps import GenerationDep, StateDep, require_read
from tutorgraph.api.errors import ERROR_RESPONSES
from tutorgraph.api.openapi import PACKET_EXAMPLE, RETRIEVE_EXAMPLES
from tutorgraph_client.models.api import ErrorResponse
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest

__all__ = ["router"]

router = APIRouter(
    prefix="/v1",
    tags=["retrieval"],
    dependencies=[Depends(require_read)],
    responses=ERROR_RESPONSES,
)

_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The packet (a source that failed is named in `degraded_sources`)",
        "content": {"application/json": {"example": PACKET_EXAMPLE}},
    },
    503: {"model": ErrorResponse, "description": "No requested source could answer"},
}


@router.post(
    "/retrieve",
    response_model=ReasoningPacket,
    responses=_RESPONSES,
    summary="Retrieve a ReasoningPacket for a question",
)
async def retrieve(
    request: Annotated[RetrievalRequest, Body(openapi_examples=RETRIEVE_EXAMPLES)],
    generation: GenerationDep,
    state: StateDep,
) -> Response:
    packet = await generation.retriever.retrieve(request)
    state.metrics.observe_packet(packet)
    # Serialised once by pydantic-core; the packet is already a validated model.
    return Response(packet.model_dump_json(), media_type="application/json")
