"""The one exception tree of tutorgraph.

Every error the library raises on purpose derives from `TutorGraphError`; the HTTP layer
maps these classes (and its own, in `tutorgraph.api.errors`) to status codes in one handler.

    TutorGraphError
    ├── ConfigurationError          settings, models or files that cannot be used
    ├── InvalidRequestError         a request the library refuses (422)
    │   └── UnknownConceptError     concept ids the graph does not hold
    ├── BundleError                 bad records in a curriculum bundle
    ├── StoreError                  a store failed; adapters chain the driver's error
    │   ├── IndexNotFoundError      no index in the folder
    │   ├── EmbedderMismatchError   an index built with another embedder
    │   ├── IndexBusyError          another process is writing the index (409)
    │   ├── IndexDamagedError       an index file that fails its integrity check (503)
    │   ├── DiskFullError           the index's disk has no room for a new generation
    │   └── SourceUnavailableError  no retrieval source could answer
    └── StageFailedError            a required pipeline stage failed (a bug; 500)

>>> try:
...     raise UnknownConceptError(["ccss:9.ZZ.Z.9"])
... except TutorGraphError as exc:
...     print(exc.code)
unknown_concept
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "APIConnectionError",
    "APITimeoutError",
    "AuthenticationError",
    "BundleError",
    "BundleRecordError",
    "ConceptNotFoundError",
    "ConfigurationError",
    "ConflictError",
    "CrossSiteRequestError",
    "DiskFullError",
    "EmbedderMismatchError",
    "IndexBusyError",
    "IndexDamagedError",
    "IndexNotFoundError",
    "InvalidRequestError",
    "JobNotFoundError",
    "NotFoundError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "RateLimitedError",
    "ServerError",
    "SourceUnavailableError",
    "StageFailedError",
    "StoreError",
    "TutorGraphError",
    "UnknownConceptError",
    "error_from_wire",
]


class TutorGraphError(Exception):
    """Base class of every error tutorgraph raises on purpose."""

    code = "tutorgraph_error"
    # The HTTP status, when the error came over HTTP (`tutorgraph_client`), else None.
    status_code: int | None = None

    def __init__(self, message: str, *, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = details or {}


class ConfigurationError(TutorGraphError):
    """Settings or arguments that cannot work together."""

    code = "configuration_error"


class InvalidRequestError(TutorGraphError):
    """A retrieval request that breaks the contract (design section 8a)."""

    code = "invalid_request"


class UnknownConceptError(InvalidRequestError):
    """A request named concept ids that the index does not hold."""

    code = "unknown_concept"

    def __init__(self, concept_ids: list[str]) -> None:
        super().__init__(
            f"unknown concept id(s): {', '.join(concept_ids)}",
            details={"unknown_concept_ids": concept_ids},
        )
        self.concept_ids = concept_ids


@dataclass(frozen=True)
class BundleRecordError:
    """One bad record of a bundle: where it is and why it was rejected."""

    file: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"


class BundleError(TutorGraphError):
    """A curriculum bundle that is missing, unreadable or holds invalid records."""

    code = "invalid_bundle"

    def __init__(self, message: str, *, errors: list[BundleRecordError] | None = None) -> None:
        errs = errors or []
        super().__init__(message, details={"errors": [str(e) for e in errs[:100]]})
        self.errors = errs


class StoreError(TutorGraphError):
    """A store failed to read or write."""

    code = "store_error"


class IndexNotFoundError(StoreError):
    """No index exists at the configured location."""

    code = "index_not_found"

    def __init__(self, index_dir: Path) -> None:
        super().__init__(
            f"no tutorgraph index at {index_dir}; run `tutorgraph ingest data/curriculum` first",
            details={"index_dir": str(index_dir)},
        )


class EmbedderMismatchError(StoreError):
    """The index was built with another embedder than the one configured."""

    code = "embedder_mismatch"


class IndexBusyError(StoreError):
    """Another writer holds the index's lock (an ingest, a repair); readers are never
    refused. `details["holder"]` says who, when the holder wrote it down."""

    code = "index_busy"


class IndexDamagedError(StoreError):
    """A part of the index failed its integrity check; the message names the part and the
    fix (`tutorgraph doctor --repair`, or a re-ingest)."""

    code = "index_damaged"


class DiskFullError(StoreError):
    """The index's disk filled up while a writer built a generation (the half-built one is
    removed; the live one is untouched), or a store could not open for want of space.
    `details` holds `needed_mb` and `free_mb` when known."""

    code = "disk_full"


class SourceUnavailableError(StoreError):
    """No retrieval source could answer at all."""

    code = "source_unavailable"


# -- errors of the HTTP API: the server raises them, the client (`tutorgraph_client`) too --


class StageFailedError(TutorGraphError):
    """A required stage of the request pipeline failed on an error it did not raise on purpose
    (a bug); `details["stage"]` names the stage."""

    code = "stage_failed"

    def __init__(self, stage: str, cause: BaseException) -> None:
        super().__init__(
            f"the {stage} stage failed: {type(cause).__name__}", details={"stage": stage}
        )
        self.stage = stage


class AuthenticationError(TutorGraphError):
    """A request without an API key, or with a key that is not configured (401)."""

    code = "unauthenticated"


class PermissionDeniedError(TutorGraphError):
    """A valid key whose role does not allow the route, e.g. a read key on ingest (403)."""

    code = "permission_denied"


class CrossSiteRequestError(PermissionDeniedError):
    """A write from a web page of another site (its `Origin` or `Sec-Fetch-Site` says so)
    whose origin is not in `TUTORGRAPH_CORS_ORIGINS` (403)."""

    code = "cross_site_request"


class NotFoundError(TutorGraphError):
    """Something the request names does not exist (404)."""

    code = "not_found"


class ConceptNotFoundError(NotFoundError):
    """A concept id in a URL that the graph does not hold (404)."""

    code = "concept_not_found"

    def __init__(self, concept_id: str) -> None:
        super().__init__(f"unknown concept id: {concept_id}", details={"concept_id": concept_id})
        self.concept_id = concept_id


class JobNotFoundError(NotFoundError):
    """An ingest job id this server does not know (jobs live in memory only) (404)."""

    code = "job_not_found"

    def __init__(self, job_id: str) -> None:
        super().__init__(f"unknown ingest job: {job_id}", details={"job_id": job_id})
        self.job_id = job_id


class ConflictError(TutorGraphError):
    """A request the server cannot take in its current state, e.g. a second ingest job (409)."""

    code = "conflict"


class PayloadTooLargeError(TutorGraphError):
    """A request body (or an unpacked bundle) over the configured size limit (413)."""

    code = "payload_too_large"

    def __init__(self, limit_bytes: int, what: str = "request body") -> None:
        super().__init__(
            f"{what} is larger than the limit of {limit_bytes:,} bytes",
            details={"limit_bytes": limit_bytes},
        )
        self.limit_bytes = limit_bytes


class RateLimitedError(TutorGraphError):
    """Too many requests for one API key; `retry_after` seconds until one is allowed (429)."""

    code = "rate_limited"

    def __init__(self, retry_after: float) -> None:
        super().__init__(
            "rate limit exceeded; retry later",
            details={"retry_after_s": round(retry_after, 3)},
        )
        self.retry_after = retry_after


# -- errors only a client sees --


class APIConnectionError(TutorGraphError):
    """The server could not be reached, or the connection broke."""

    code = "connection_error"


class APITimeoutError(APIConnectionError):
    """The server did not answer within the client's timeout."""

    code = "timeout"


class ServerError(TutorGraphError):
    """The server failed (a 5xx whose error code this library does not know)."""

    code = "internal_error"


def _by_code(cls: type[TutorGraphError]) -> dict[str, type[TutorGraphError]]:
    out = {cls.code: cls}
    for sub in cls.__subclasses__():
        out.update(_by_code(sub))
    return out


def error_from_wire(
    status: int, code: str, message: str, details: dict[str, Any] | None = None
) -> TutorGraphError:
    """The library error an API error body stands for (`{"error": {"code", ...}}`).

    >>> e = error_from_wire(422, "unknown_concept", "unknown concept id(s): x", {})
    >>> type(e).__name__, e.status_code
    ('UnknownConceptError', 422)
    """
    cls = _by_code(TutorGraphError).get(code)
    if cls is None:
        cls = ServerError if status >= 500 else TutorGraphError
    # Built without the subclass's own constructor: the wire gives message and details.
    exc = cls.__new__(cls)
    TutorGraphError.__init__(exc, message, details=details)
    exc.status_code = status
    if isinstance(exc, RateLimitedError):
        exc.retry_after = float((details or {}).get("retry_after_s", 1.0))
    return exc
