"""What `POST /v1/answer` returns: the packet, and the cited answer or why there is none."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest

__all__ = ["AnswerRequest", "AnswerResponse", "AnswerResult"]


class AnswerRequest(RetrievalRequest):
    """A retrieval request, answered too; `stream` (the default) sends Server-Sent Events,
    otherwise one JSON `AnswerResponse`."""

    stream: StrictBool = True


class AnswerResult(BaseModel):
    """How an answer attempt ended. `answer` is null on any failure, and `reason` says why;
    an answer is never made up: without a model, or without context, there is none."""

    model_config = ConfigDict(extra="forbid")

    answer: str | None = None
    reason: str | None = None
    # Ids cited that the packet's context holds, in order of first citation.
    citations: list[str] = Field(default_factory=list)
    # Ids cited that it does not: removed from the text.
    removed_citations: list[str] = Field(default_factory=list)
    model: str | None = None
    prompt_version: str
    answer_ms: float = 0.0


class AnswerResponse(AnswerResult):
    """The packet the answer was written from, with the answer."""

    packet: ReasoningPacket
