"""What `POST /v1/answer` returns: the packet, and the cited answer or why there is none."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest

__all__ = ["AnswerRequest", "AnswerResponse", "AnswerResult"]


class AnswerRequest(RetrievalRequest):
    """A retrieval request, answered too; `stream` (the default) sends Server-Sent Events,
    otherwise one JSON `AnswerResponse`."""

    stream: StrictBool = Field(
        default=True,
        description="true: Server-Sent Events (packet, delta..., done); false: one JSON "
        "AnswerResponse.",
    )


class AnswerResult(BaseModel):
    """How an answer attempt ended. `answer` is null on any failure, and `reason` says why;
    an answer is never made up: without a model, or without context, there is none."""

    model_config = ConfigDict(extra="forbid")

    answer: str | None = Field(
        default=None,
        description="The answer for the tutor, citing packet ids in brackets; null when none "
        "could be written (then `reason` says why).",
    )
    reason: str | None = Field(
        default=None,
        description="Why there is no answer (no answer model configured, `not sure: ...` when "
        "the packet matched nothing, no context, the model failed); null when there is one.",
    )
    citations: list[str] = Field(
        default_factory=list,
        description="The ids cited that the packet's context holds, in order of first citation.",
    )
    removed_citations: list[str] = Field(
        default_factory=list,
        description="Ids cited that the context does not hold: removed from the text.",
    )
    model: str | None = Field(default=None, description="The answer model used, if any.")
    prompt_version: str = Field(description="The version of the answer prompt.")
    answer_ms: float = Field(default=0.0, description="How long the answer took to write.")


class AnswerResponse(AnswerResult):
    """The packet the answer was written from, with the answer."""

    packet: ReasoningPacket = Field(description="The packet the answer was written from.")
