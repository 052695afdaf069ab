"""The HTTP API's own response models (the request and packet come from `tutorgraph.models`).

>>> ErrorResponse(error=ErrorBody(code="not_found", message="no such route")).model_dump()
{'error': {'code': 'not_found', 'message': 'no such route', 'details': {}}}
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

from tutorgraph_client.models.curriculum import Concept, Document, Misconception
from tutorgraph_client.models.request import STORE_SOURCES

__all__ = [
    "BreakerState",
    "ConceptMatchOut",
    "ConceptSearchResponse",
    "DependencyState",
    "DependencyStatus",
    "ErrorBody",
    "ErrorResponse",
    "Health",
    "IngestJobOut",
    "IngestJobReport",
    "JobStatus",
    "LinkedDocumentOut",
    "MisconceptionOut",
    "MisconceptionsResponse",
    "PrerequisitePathOut",
    "PrerequisitesResponse",
    "Readiness",
    "TeachingResponse",
]


class ErrorBody(BaseModel):
    """What went wrong: a stable `code`, a readable `message`, and structured `details`."""

    code: str = Field(
        description="A stable, machine-readable error code (not_found, invalid_request, "
        "unauthenticated, rate_limited, source_unavailable, ...): branch on this.",
        examples=["concept_not_found"],
    )
    message: str = Field(
        description="A readable explanation for a developer; its wording may change.",
        examples=["unknown concept id: ccss:9.ZZ.Z.9"],
    )
    details: dict[str, Any] = Field(
        default_factory=dict,
        description="Structured facts about the error (for a 422, `errors`: one entry per "
        "invalid field with its `loc`, `msg` and `type`); empty when there are none.",
    )


class ErrorResponse(BaseModel):
    """Every error response has this shape: `{"error": {"code", "message", "details"}}`."""

    error: ErrorBody = Field(description="What went wrong.")


class ConceptMatchOut(BaseModel):
    """A concept matched by name or standard code; `score` is relative to the best (0-1]."""

    concept: Concept = Field(description="The matching concept.")
    score: float = Field(
        description="How well it matches, relative to the best match (which scores 1)."
    )
    exact: bool = Field(description="True when the text was this concept's code or id.")


class ConceptSearchResponse(BaseModel):
    """The concepts whose name or code matches a search text, best first."""

    query: str = Field(description="The search text, as searched (stripped).")
    results: list[ConceptMatchOut] = Field(description="The matches, best first.")


class PrerequisitePathOut(BaseModel):
    """A chain ending at the concept: `path[0]` comes first; `relations[i]` joins i to i+1."""

    path: list[str] = Field(
        description="Concept ids, foundations first; the last is the concept asked about."
    )
    relations: list[str] = Field(
        description="The edge between each step and the next (builds_towards, relates_to, "
        "prepares_for, aligned_with); one fewer than the ids in `path`."
    )
    depth: int = Field(description="How many prerequisite edges the chain has.")


class PrerequisitesResponse(BaseModel):
    """The prerequisite chains that end at a concept, with the concepts they name."""

    concept_id: str = Field(description="The concept asked about.")
    depth: int = Field(description="The largest number of edges followed back (1 or 2).")
    paths: list[PrerequisitePathOut] = Field(description="Each chain ending at the concept.")
    concepts: list[Concept] = Field(
        description="Every concept named in `paths`, so a client can show names without more calls."
    )


class MisconceptionOut(BaseModel):
    """A misconception of the concept; `relevance` is its full-text match to `q` (0 without).

    A standard's misconceptions are those of the Eedi constructs aligned with it: `via` names
    the construct it came through and `alignment_score` that alignment's cosine (both null
    for a misconception linked to the concept itself)."""

    misconception: Misconception = Field(description="The misconception.")
    relevance: float = Field(
        description="Its full-text match to the request's `q` (higher is closer); 0 without `q`."
    )
    via: str | None = Field(
        default=None,
        description="The concept it came through (an Eedi construct aligned with the standard "
        "asked about); null when it is linked to the concept itself.",
        examples=["eedi:construct:428"],
    )
    alignment_score: float | None = Field(
        default=None,
        description="The cosine of the aligned_with edge it came through; null without `via`.",
    )


class MisconceptionsResponse(BaseModel):
    """The known misconceptions of a concept, most relevant first."""

    concept_id: str = Field(description="The concept asked about.")
    query: str | None = Field(
        description="The text they were ordered by (the request's `q`), or null."
    )
    misconceptions: list[MisconceptionOut] = Field(
        description="The misconceptions, most relevant first; then the concept's own, then those "
        "of the best aligned constructs first; then by id. Each is listed once."
    )


class LinkedDocumentOut(BaseModel):
    """A lesson or practice item of the concept; `via` names the aligned concept it came
    through (null for the concept's own)."""

    document: Document = Field(description="The explanation, worked example or practice item.")
    via: str | None = Field(
        default=None,
        description="The construct or section it came through, aligned with the standard "
        "asked about; null when it is the concept's own (aligned to it by id).",
    )


class TeachingResponse(BaseModel):
    """What the graph holds to teach a concept: its lessons (explanations, then worked
    examples), its practice and its misconceptions; the concept's own first, written for its
    grade, then those of the concepts aligned with it."""

    concept: Concept = Field(description="The concept asked about.")
    lessons: list[LinkedDocumentOut] = Field(
        description="Explanations, then worked examples: its own first."
    )
    practice: list[LinkedDocumentOut] = Field(
        description="Exercises and questions (answers in the text): its own first."
    )
    misconceptions: list[MisconceptionOut] = Field(
        description="Its misconceptions, its own first, then those of aligned constructs."
    )


class Health(BaseModel):
    """The process is up and answering."""

    status: Literal["ok"] = Field(default="ok", description="Always `ok`.")


DependencyStatus = Literal["ok", "off", "failed"]


class BreakerState(BaseModel):
    """A dependency's circuit breaker: `closed` (calls go through), `open` (calls skip it
    at once until `retry_in_s` has passed; then one call probes it) or `half_open` (one call
    is probing it; the others still skip it).

    >>> BreakerState(state="open", failures=3, retry_in_s=8.2).retry_in_s
    8.2
    """

    state: Literal["closed", "open", "half_open"] = Field(
        description="closed: calls go through; open: calls skip the dependency at once; "
        "half_open: one call is probing it."
    )
    failures: int = Field(description="Failures (or timeouts) in a row.")
    retry_in_s: float | None = Field(
        default=None,
        description="Seconds until a call may probe it again (open only; 0: the next call "
        "probes it).",
    )
    last_failure: str | None = Field(
        default=None, description="Why its last call failed, or null since it answered."
    )


class DependencyState(BaseModel):
    """One dependency: `ok` (it answered its probe, or is loaded), `off` (not configured on
    this server: optional parts only, such as the reranker; packets say what they lack) or
    `failed` (configured but not answering or not loaded: the server log says why).

    >>> DependencyState(state="off", detail="reranking turned off").ok
    True
    >>> DependencyState.model_validate({"ok": False}).state  # a server without `state`
    'failed'
    """

    state: DependencyStatus = Field(
        description="ok: working; off: not configured on this server (optional parts "
        "only); failed: configured but not working."
    )
    detail: str | None = Field(
        default=None,
        description="What it is (a model or generation name), or why it is off or failed.",
    )
    latency_ms: float | None = Field(
        default=None, description="How long its probe took, for the probed stores; else null."
    )
    breaker: BreakerState | None = Field(
        default=None,
        description="Its circuit breaker, for a dependency that has one (the stores, the "
        "OpenAI refiner, the answer model); an open one makes the dependency `failed` "
        "without a probe.",
    )

    @model_validator(mode="before")
    @classmethod
    def _state_from_ok(cls, data: Any) -> Any:
        # A server from before `state` sent only `ok`.
        if isinstance(data, dict) and "state" not in data and "ok" in data:
            return {**data, "state": "ok" if data["ok"] else "failed"}
        return data

    @computed_field(  # type: ignore[prop-decorator]
        description="False only when the dependency failed (`state` failed); an optional "
        "part that is off is not a fault. Kept for clients that read `ok`: prefer `state`."
    )
    @property
    def ok(self) -> bool:
        return self.state != "failed"


class Readiness(BaseModel):
    """`ready`: every store answers; `degraded`: retrieval works without some sources;
    `damaged` (HTTP 503): a part of the index failed its integrity check (`problems` says
    which and how to repair it); `unavailable` (HTTP 503): no source can answer. Optional
    parts that are off (a reranker not configured) leave it `ready`. The index is named by
    its generation, never by a path (the route needs no key)."""

    status: Literal["ready", "degraded", "damaged", "unavailable"] = Field(
        description="ready and degraded answer 200 (keep the server in rotation); damaged "
        "and unavailable answer 503."
    )
    generation: str | None = Field(
        description="The index generation served (000001, ...), or null when none is."
    )
    stale: str | None = Field(
        default=None,
        description="Why the newest generation on disk is not the one served; null when it is.",
    )
    problems: list[str] = Field(
        default_factory=list,
        description="Integrity problems of the served index, each with how to repair it.",
    )
    dependencies: dict[str, DependencyState] = Field(
        description="Each part by name: index, embedder, the stores "
        f"{', '.join(STORE_SOURCES)} (probed with a tiny query), and the optional reranker, "
        "ranker and refiner."
    )


JobStatus = Literal["queued", "validating", "ingesting", "activating", "succeeded", "failed"]


class IngestJobReport(BaseModel):
    """What a finished ingest did (as `tutorgraph ingest` prints it)."""

    added: int = Field(description="Searchable items new to the index.")
    updated: int = Field(description="Items whose text or metadata changed.")
    unchanged: int = Field(description="Items already indexed as they are.")
    pruned: int = Field(description="Items removed because the bundle no longer has them.")
    rejected: int = Field(
        default=0,
        description="Bad records left out (the valid ones were ingested; a pruning job with "
        "a bad record fails instead), as `tutorgraph ingest` counts them.",
    )
    rejected_records: list[str] = Field(
        default_factory=list,
        description="The first 100 rejected records, one `file:line: reason` each, as "
        "`tutorgraph ingest` prints them.",
        examples=[["concepts.jsonl:7: concept 'my:c': name has 600 characters, at most 500"]],
    )
    counts: dict[str, int] = Field(
        description="Records in the new index by type (concepts, prerequisites, "
        "misconceptions, documents) and searchable `items`."
    )
    seconds: float = Field(description="How long the ingest took.")


class IngestJobOut(BaseModel):
    """An ingest job: its state, and on success the report and the generation now served."""

    model_config = ConfigDict(extra="forbid")

    job_id: str = Field(
        description="The job's id, for GET /v1/ingest/{job_id}.", examples=["3f9c2a7be01d4c56"]
    )
    status: JobStatus = Field(
        description="queued, validating, ingesting, activating, then succeeded or failed."
    )
    prune: bool = Field(description="Whether records missing from the bundle are removed.")
    created_at: datetime = Field(description="When the upload was accepted.")
    started_at: datetime | None = Field(default=None, description="When the job started.")
    finished_at: datetime | None = Field(
        default=None, description="When it succeeded or failed; null while it runs."
    )
    upload_bytes: int = Field(description="The size of the uploaded archive.")
    report: IngestJobReport | None = Field(
        default=None, description="What the ingest did; set once it succeeded."
    )
    generation: str | None = Field(
        default=None, description="The index generation the job made live; set on success."
    )
    error: ErrorBody | None = Field(
        default=None,
        description="Why it failed (nothing changed in the served index); null otherwise.",
    )
