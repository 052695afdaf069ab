"""The one place where errors become HTTP responses: `{"error": {"code", "message", "details"}}`.

An `HTTPStatusError` (401, 403, 404, 408, 409, 413, 421, 429; the tree is drawn in
`tutorgraph_client.errors`) answers with its own `status_code`; `STATUS_BY_ERROR` maps the
engine's errors to theirs (first match wins, so subclasses come before their bases).
Pydantic validation errors are reshaped into the same envelope (422), Starlette's own HTTP
errors (unknown route, wrong method, body too large) too, and anything unexpected is a 500
that names no exception and carries no stack trace (the trace goes to the server log). A
`CancelledError` that is not the request's own cancellation (a `BaseException`, which no
handler sees) becomes the same envelope's 503 instead of the server's plain-text 500
(`CancelledRequestMiddleware`). A 429, and a 503 that waiting may cure, carry `Retry-After`
(`retry_after_s`, the one place its value comes from).

>>> from tutorgraph.errors import UnknownConceptError
>>> status_for(ConceptNotFoundError("ccss:9.ZZ.Z.9"))
404
>>> status_for(UnknownConceptError(["ccss:9.ZZ.Z.9"]))
422
"""

from __future__ import annotations

import asyncio
import logging
import math
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tutorgraph.errors import (
    AuthenticationError,
    BundleError,
    ConceptNotFoundError,
    ConflictError,
    DiskFullError,
    HTTPStatusError,
    IndexBusyError,
    IndexDamagedError,
    InvalidRequestError,
    JobNotFoundError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RateLimitedError,
    RequestTimeoutError,
    SourceUnavailableError,
    TutorGraphError,
)
from tutorgraph_client.models.api import ErrorBody, ErrorResponse

__all__ = [
    "ERROR_RESPONSES",
    "LIMIT_SCOPE_KEY",
    "STATUS_BY_ERROR",
    "UNAVAILABLE_RETRY_AFTER_S",
    "AuthenticationError",
    "CancelledRequestMiddleware",
    "ConceptNotFoundError",
    "ConflictError",
    "JobNotFoundError",
    "NotFoundError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "RateLimitedError",
    "error_response",
    "install_error_handlers",
    "retry_after_s",
    "status_for",
]

log = logging.getLogger(__name__)


# Where `BodyLimitMiddleware` leaves the request's body limit, for the 413 details.
LIMIT_SCOPE_KEY = "tutorgraph.max_body_bytes"

# The engine's errors; an `HTTPStatusError` carries its own status.
STATUS_BY_ERROR: tuple[tuple[type[TutorGraphError], int], ...] = (
    (IndexBusyError, 409),
    (InvalidRequestError, 422),  # UnknownConceptError too: ids in a request body
    (BundleError, 422),
    (RateLimitedError, 429),
    (DiskFullError, 507),  # Insufficient Storage: the index's disk, not the request
    # Only when no source at all could answer; a degraded answer is a 200.
    (SourceUnavailableError, 503),
    (IndexDamagedError, 503),
)

_HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    408: RequestTimeoutError.code,
    413: "payload_too_large",
    415: "unsupported_media_type",
}

# The `Retry-After` (seconds) of a 503 that waiting may cure: no source could answer, or the
# request was interrupted. One place, so that a known cool-down (a circuit breaker's) can be
# wired in here, in `retry_after_s`.
UNAVAILABLE_RETRY_AFTER_S = 5

# For the OpenAPI schema: every route documents the envelope for the errors it can give.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorResponse, "description": description}
    for status, description in (
        (400, "Malformed body (not UTF-8, or not JSON)"),
        (401, "Missing or invalid API key"),
        (403, "The key's role does not allow this route"),
        (413, "Request body too large"),
        (422, "Invalid request"),
        (429, "Rate limit exceeded (see Retry-After)"),
        (500, "Internal error (no details are given)"),
    )
}


def retry_after_s(exc: TutorGraphError) -> int | None:
    """The `Retry-After` of the answer to `exc`, in whole seconds, or None for none.

    >>> retry_after_s(RateLimitedError(0.2)), retry_after_s(SourceUnavailableError("down"))
    (1, 5)
    """
    if isinstance(exc, RateLimitedError):
        return max(1, math.ceil(exc.retry_after))
    if isinstance(exc, SourceUnavailableError):
        return UNAVAILABLE_RETRY_AFTER_S
    return None


def status_for(exc: TutorGraphError) -> int:
    """The HTTP status of a library error (500 for anything not mapped)."""
    if isinstance(exc, HTTPStatusError):
        return exc.status_code
    for cls, status in STATUS_BY_ERROR:
        if isinstance(exc, cls):
            return status
    return 500


def error_response(
    status: int,
    code: str,
    message: str,
    details: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    body = ErrorResponse(error=ErrorBody(code=code, message=message, details=details or {}))
    return JSONResponse(body.model_dump(mode="json"), status_code=status, headers=headers)


def _tutorgraph_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, TutorGraphError)
    status = status_for(exc)
    headers: dict[str, str] = {}
    retry_after = retry_after_s(exc)
    if retry_after is not None:
        headers["Retry-After"] = str(retry_after)
    if isinstance(exc, AuthenticationError):
        headers["WWW-Authenticate"] = 'APIKey realm="tutorgraph", header="X-API-Key"'
    details = exc.details
    if status >= 500 and not isinstance(exc, (SourceUnavailableError, IndexDamagedError)):
        # A server-side failure: the message says what failed; details may name internals.
        log.error("%s %s failed: %s: %s", request.method, request.url.path, exc.code, exc)
        details = {}
    return error_response(status, exc.code, exc.message, details, headers or None)


def _validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = [
        {
            "loc": [str(p) for p in err.get("loc", ())],
            "msg": str(err.get("msg", "")),
            "type": str(err.get("type", "")),
        }
        for err in exc.errors()
    ]
    first = errors[0] if errors else {"loc": [], "msg": "invalid request"}
    where = ".".join(first["loc"]) or "request"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return error_response(
        422, InvalidRequestError.code, f"{where}: {first['msg']}{more}", {"errors": errors}
    )


def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = _HTTP_CODES.get(exc.status_code, "http_error")
    message = exc.detail if isinstance(exc.detail, str) else "HTTP error"
    details: dict[str, Any] = {}
    if exc.status_code == 413:
        message = "request body too large"
        limit = request.scope.get(LIMIT_SCOPE_KEY)
        if isinstance(limit, int):
            details["limit_bytes"] = limit
    return error_response(exc.status_code, code, message, details, dict(exc.headers or {}))


def _client_gone(request: Request, _exc: Exception) -> JSONResponse:
    # The client went away, or its body was given up on (`h11_protocol`: 408): no one reads
    # this answer, and it is no fault of the server's worth a trace.
    log.info(
        "%s %s: the client went away before its body was read", request.method, request.url.path
    )
    return error_response(400, "bad_request", "the client went away before its body was read")


def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    # Logged with its trace here; the client learns only that it was our fault.
    log.error("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(500, "internal_error", "internal server error")


class CancelledRequestMiddleware:
    """Answers the JSON 503 envelope for a request whose handler raised a `CancelledError`
    while its own task was not being cancelled (say, a shared task that something else
    cancelled). A real cancellation (the client went away, shutdown) and a response already
    started propagate as they are.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if started or (task is not None and task.cancelling()):
                raise
            log.exception("%s %s was cancelled from within", scope["method"], scope["path"])
            response = error_response(
                503,
                "request_interrupted",
                "the request was interrupted; try again",
                headers={"Retry-After": str(UNAVAILABLE_RETRY_AFTER_S)},
            )
            await response(scope, receive, send)


def install_error_handlers(app: FastAPI) -> None:
    """Register the handlers on `app` (called once by `create_app`, before any middleware,
    so that `CancelledRequestMiddleware` sits innermost, next to the routes)."""
    app.add_middleware(CancelledRequestMiddleware)
    app.add_exception_handler(TutorGraphError, _tutorgraph_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(ClientDisconnect, _client_gone)
    app.add_exception_handler(Exception, _unexpected)
