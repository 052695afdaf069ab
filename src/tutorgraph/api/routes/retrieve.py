"""`POST /v1/retrieve`: a `RetrievalRequest` in, a `ReasoningPacket` out.

A source that fails or times out gives a 200 whose packet lists it in `degraded_sources`;
only when no requested source answers at all is it a 503.

>>> httpx.post(f"{base}/v1/retrieve", json={"query": "why is 3/4 > 2/3?"},
...            headers={"X-API-Key": key}).json()["results"][0]["kind"]  # doctest: +SKIP
'explanation'
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Response

from tutorgraph.api.deps import GenerationDep, StateDep, require_read
from tutorgraph.api.errors import ERROR_RESPONSES
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

_UNAVAILABLE: dict[int | str, dict[str, Any]] = {
    503: {"model": ErrorResponse, "description": "No requested source could answer"}
}


@router.post(
    "/retrieve",
    response_model=ReasoningPacket,
    responses=_UNAVAILABLE,
    summary="Retrieve a ReasoningPacket for a question",
)
async def retrieve(
    request: RetrievalRequest, generation: GenerationDep, state: StateDep
) -> Response:
    packet = await generation.retriever.retrieve(request)
    state.metrics.observe_packet(packet)
    # Serialised once by pydantic-core; the packet is already a validated model.
    return Response(packet.model_dump_json(), media_type="application/json")
