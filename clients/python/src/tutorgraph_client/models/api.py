"""The HTTP API's own response models (the request and packet come from `tutorgraph.models`).

>>> ErrorResponse(error=ErrorBody(code="not_found", message="no such route")).model_dump()
{'error': {'code': 'not_found', 'message': 'no such route', 'details': {}}}
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tutorgraph_client.models.curriculum import Concept, Misconception

__all__ = [
    "ConceptMatchOut",
    "ConceptSearchResponse",
    "DependencyState",
    "ErrorBody",
    "ErrorResponse",
    "Health",
    "IngestJobOut",
    "IngestJobReport",
    "JobStatus",
    "MisconceptionOut",
    "MisconceptionsResponse",
    "PrerequisitePathOut",
    "PrerequisitesResponse",
    "Readiness",
]


class ErrorBody(BaseModel):
    """What went wrong: a stable `code`, a readable `message`, and structured `details`."""

    code: str
    message: str
    details: dict[str, Any] = Field(default_factory=dict)


class ErrorResponse(BaseModel):
    """Every error response has this shape: `{"error": {"code", "message", "details"}}`."""

    error: ErrorBody


class ConceptMatchOut(BaseModel):
    """A concept matched by name or standard code; `score` is relative to the best (0-1]."""

    concept: Concept
    score: float
    exact: bool


class ConceptSearchResponse(BaseModel):
    query: str
    results: list[ConceptMatchOut]


class PrerequisitePathOut(BaseModel):
    """A chain ending at the concept: `path[0]` comes first; `relations[i]` joins i to i+1."""

    path: list[str]
    relations: list[str]
    depth: int


class PrerequisitesResponse(BaseModel):
    concept_id: str
    depth: int
    paths: list[PrerequisitePathOut]
    # Every concept named in `paths`, so a client can show names without more calls.
    concepts: list[Concept]


class MisconceptionOut(BaseModel):
    """A misconception of the concept; `relevance` is its full-text match to `q` (0 without)."""

    misconception: Misconception
    relevance: float


class MisconceptionsResponse(BaseModel):
    concept_id: str
    query: str | None
    misconceptions: list[MisconceptionOut]


class Health(BaseModel):
    status: Literal["ok"] = "ok"


class DependencyState(BaseModel):
    """One dependency: whether it answered a probe, in how long, and why not."""

    ok: bool
    detail: str | None = None
    latency_ms: float | None = None


class Readiness(BaseModel):
    """`ready`: every dependency answers; `degraded`: retrieval works without some sources;
    `damaged` (HTTP 503): a part of the index failed its integrity check (`problems` says
    which and how to repair it); `unavailable` (HTTP 503): no source can answer. The index is
    named by its generation, never by a path (the route needs no key)."""

    status: Literal["ready", "degraded", "damaged", "unavailable"]
    generation: str | None
    # Why the newest generation on disk is not the one served (None when it is).
    stale: str | None = None
    problems: list[str] = Field(default_factory=list)
    dependencies: dict[str, DependencyState]


JobStatus = Literal["queued", "validating", "ingesting", "activating", "succeeded", "failed"]


class IngestJobReport(BaseModel):
    """What a finished ingest did (as `tutorgraph ingest` prints it)."""

    added: int
    updated: int
    unchanged: int
    pruned: int
    counts: dict[str, int]
    seconds: float


class IngestJobOut(BaseModel):
    """An ingest job: its state, and on success the report and the generation now served."""

    model_config = ConfigDict(extra="forbid")

    job_id: str
    status: JobStatus
    prune: bool
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    upload_bytes: int
    report: IngestJobReport | None = None
    # The index generation the job made live.
    generation: str | None = None
    error: ErrorBody | None = None
