"""The one exception tree of tutorgraph.

Every error the library raises on purpose derives from `TutorGraphError`. The whole tree,
with the HTTP status each answers with (a unit test checks this drawing against the classes):

    TutorGraphError
    ├── ConfigurationError              settings, models or files that cannot be used
    ├── InvalidRequestError             a request the library refuses (422)
    │   └── UnknownConceptError         concept ids the graph does not hold (422)
    ├── BundleError                     bad records in a curriculum bundle (422)
    ├── StoreError                      a store failed; adapters chain the driver's error
    │   ├── IndexNotFoundError          no index in the folder
    │   ├── EmbedderMismatchError       an index built with another embedder
    │   ├── IndexBusyError              another process is writing the index (409)
    │   ├── IndexDamagedError           an index file that fails its integrity check (503)
    │   ├── DiskFullError               the index's disk has no room (507)
    │   └── SourceUnavailableError      no retrieval source could answer (503)
    ├── StageFailedError                a required pipeline stage failed (a bug; 500)
    └── APIError                        talking to the HTTP API failed
        ├── HTTPStatusError             an error answer; `status_code` says which
        │   ├── AuthenticationError     no API key, or an unknown one (401)
        │   ├── PermissionDeniedError   the key's role does not allow the route (403)
        │   │   └── CrossSiteRequestError   a write from another site's page (403)
        │   ├── NotFoundError           what the request names does not exist (404)
        │   │   ├── ConceptNotFoundError    a concept id in a URL (404)
        │   │   └── JobNotFoundError        an ingest job id (404)
        │   ├── RequestTimeoutError     a request body that did not arrive in time (408)
        │   ├── ConflictError           not in the server's current state (409)
        │   ├── PayloadTooLargeError    a body over the size limit (413)
        │   ├── MisdirectedRequestError a Host name the server does not answer to (421)
        │   ├── RateLimitedError        too many requests for the key (429)
        │   └── ServerError             a 5xx whose code this library does not know
        └── APIConnectionError          no answer: the server could not be reached
            └── APITimeoutError         no answer within the client's timeout

The HTTP layer (`tutorgraph.api.errors`) maps these classes to status codes in one handler:
an `HTTPStatusError` answers with its `status_code`, the engine's errors with the status
drawn beside them (500 when none is). A client (`tutorgraph_client`) raises the class an
error body's `code` names, whichever branch it is on, with the answer's `status_code` set;
an error body with a code it does not know is a `ServerError` (5xx) or an `HTTPStatusError`.
Catch `HTTPStatusError` for the answers only HTTP gives (401, 403, 404, 408, 409, 413, 421,
429), `APIError` for those and a server that could not be reached.

>>> try:
...     raise UnknownConceptError(["ccss:9.ZZ.Z.9"])
... except TutorGraphError as exc:
...     print(exc.code)
unknown_concept
>>> issubclass(RateLimitedError, HTTPStatusError), RateLimitedError.status_code
(True, 429)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "APIConnectionError",
    "APIError",
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
    "HTTPStatusError",
    "IndexBusyError",
    "IndexDamagedError",
    "IndexNotFoundError",
    "InvalidRequestError",
    "JobNotFoundError",
    "MisdirectedRequestError",
    "NotFoundError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "RateLimitedError",
    "RequestTimeoutError",
    "ServerError",
    "SourceUnavailableError",
    "StageFailedError",
    "StoreError",
    "TutorGraphError",
    "UnknownConceptError",
    "error_from_wire",
    "failure_cause",
    "failure_reason",
]


class TutorGraphError(Exception):
    """Base class of every error tutorgraph raises on purpose."""

    code = "tutorgraph_error"
    # The HTTP status: the answer's, when the error came over HTTP (`tutorgraph_client`);
    # an `HTTPStatusError`'s own otherwise; else None.
    status_code: int | None = None

    def __init__(self, message: str, *, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = details or {}


def failure_cause(exc: BaseException, timeout_s: float | None = None) -> str:
    """Why a call failed, on one line that names no host or credential: `no answer within
    <timeout_s> s` for a timeout, else the exception's type, with a `TutorGraphError`'s
    `details["cause"]` in brackets (the stores' adapters put the driver's error type there,
    never its message, which can carry a host or a password).

    >>> failure_cause(TimeoutError(), 2.0)
    'no answer within 2 s'
    >>> down = StoreError("bolt://neo4j:7687 refused", details={"cause": "ServiceUnavailable"})
    >>> failure_cause(down)
    'StoreError (ServiceUnavailable)'
    """
    if isinstance(exc, TimeoutError) and timeout_s is not None:
        return f"no answer within {timeout_s:g} s"
    cause = exc.details.get("cause") if isinstance(exc, TutorGraphError) else None
    return f"{type(exc).__name__}" + (f" ({cause})" if cause else "")


def failure_reason(what: str, why: BaseException | str, *, timeout_s: float | None = None) -> str:
    """The one format of every failure a packet, an answer or an error names:
    `<what> failed: <why>`. `what` is the part that failed (a stage, a source, a model);
    `why` is the exception (`failure_cause`, with `timeout_s` for a timeout) or the reason
    in words (a circuit breaker's refusal).

    >>> failure_reason("link", RuntimeError("boom"))
    'link failed: RuntimeError'
    >>> failure_reason("vector", TimeoutError(), timeout_s=2.0)
    'vector failed: no answer within 2 s'
    >>> failure_reason("graph", "circuit breaker open after 3 failures in a row")
    'graph failed: circuit breaker open after 3 failures in a row'
    """
    cause = why if isinstance(why, str) else failure_cause(why, timeout_s)
    return f"{what} failed: {cause}"


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
        super().__init__(failure_reason(f"the {stage} stage", cause), details={"stage": stage})
        self.stage = stage


class APIError(TutorGraphError):
    """Talking to the HTTP API failed: an error answer (`HTTPStatusError`), or none at all
    (`APIConnectionError`)."""

    code = "api_error"


class HTTPStatusError(APIError):
    """An error answer of the HTTP API that only HTTP gives (a key, a route, a limit);
    `status_code` is the status it answers with (the server) or answered with (a client)."""

    code = "http_error"
    status_code: int = 500


class AuthenticationError(HTTPStatusError):
    """A request without an API key, or with a key that is not configured (401)."""

    code = "unauthenticated"
    status_code = 401


class PermissionDeniedError(HTTPStatusError):
    """A valid key whose role does not allow the route, e.g. a read key on ingest (403)."""

    code = "permission_denied"
    status_code = 403


class CrossSiteRequestError(PermissionDeniedError):
    """A write from a web page of another site (its `Origin` or `Sec-Fetch-Site` says so)
    whose origin is not in `TUTORGRAPH_CORS_ORIGINS` (403)."""

    code = "cross_site_request"


class NotFoundError(HTTPStatusError):
    """Something the request names does not exist (404)."""

    code = "not_found"
    status_code = 404


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


class RequestTimeoutError(HTTPStatusError):
    """A request body that stopped coming, or came too slowly (`TUTORGRAPH_BODY_TIMEOUT_S`),
    so the server gave up on it (408)."""

    code = "request_timeout"
    status_code = 408


class ConflictError(HTTPStatusError):
    """A request the server cannot take in its current state, e.g. a second ingest job (409)."""

    code = "conflict"
    status_code = 409


class PayloadTooLargeError(HTTPStatusError):
    """A request body (or an unpacked bundle) over the configured size limit (413)."""

    code = "payload_too_large"
    status_code = 413

    def __init__(self, limit_bytes: int, what: str = "request body") -> None:
        super().__init__(
            f"{what} is larger than the limit of {limit_bytes:,} bytes",
            details={"limit_bytes": limit_bytes},
        )
        self.limit_bytes = limit_bytes


class MisdirectedRequestError(HTTPStatusError):
    """A request whose `Host` names a host this server does not answer to (421): what a web
    page that rebound its own name to the server's address sends (DNS rebinding). The
    server's `TUTORGRAPH_ALLOWED_HOSTS` lists the names it answers to besides the loopback's."""

    code = "misdirected_request"
    status_code = 421


class RateLimitedError(HTTPStatusError):
    """Too many requests for one API key; `retry_after` seconds until one is allowed (429)."""

    code = "rate_limited"
    status_code = 429

    def __init__(self, retry_after: float) -> None:
        super().__init__(
            "rate limit exceeded; retry later",
            details={"retry_after_s": round(retry_after, 3)},
        )
        self.retry_after = retry_after


class ServerError(HTTPStatusError):
    """The server failed (a 5xx whose error code this library does not know)."""

    code = "internal_error"
    status_code = 500


# -- errors only a client sees --


class APIConnectionError(APIError):
    """The server could not be reached, or the connection broke."""

    code = "connection_error"


class APITimeoutError(APIConnectionError):
    """The server did not answer within the client's timeout."""

    code = "timeout"


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
    # A code this library does not know, or a category's (the server's `http_error` for a
    # route it has not, say): the category the status falls in.
    if cls is None or cls in (APIError, HTTPStatusError):
        cls = ServerError if status >= 500 else HTTPStatusError
    # Built without the subclass's own constructor: the wire gives message and details.
    exc = cls.__new__(cls)
    TutorGraphError.__init__(exc, message, details=details)
    exc.status_code = status
    if isinstance(exc, RateLimitedError):
        exc.retry_after = float((details or {}).get("retry_after_s", 1.0))
    return exc
