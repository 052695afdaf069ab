"""Pure ASGI middleware: request metrics and request body limits.

Pure ASGI (not `BaseHTTPMiddleware`) so that streamed bodies stay streamed and nothing is
buffered on the way.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tutorgraph.api.errors import LIMIT_SCOPE_KEY, PayloadTooLargeError, error_response
from tutorgraph.api.metrics import ApiMetrics

__all__ = ["BodyLimitMiddleware", "MetricsMiddleware"]


class _BodyTooLarge(HTTPException):
    """Raised from `receive` once a streamed body passes its limit.

    An `HTTPException` because FastAPI passes those through body parsing untouched (anything
    else becomes a 400 there); the one error handler turns it into the 413 envelope.
    """

    def __init__(self) -> None:
        super().__init__(status_code=413, detail="request body too large")


class BodyLimitMiddleware:
    """Refuse request bodies over a limit chosen by path: a declared `Content-Length` over
    it is answered 413 at once; a body streamed without one is cut off once it passes it."""

    def __init__(self, app: ASGIApp, limit_for: Callable[[str], int]) -> None:
        self.app = app
        self._limit_for = limit_for

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self._limit_for(scope["path"])
        scope[LIMIT_SCOPE_KEY] = limit
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            exc = PayloadTooLargeError(limit)
            response = error_response(413, exc.code, exc.message, exc.details)
            await response(scope, receive, send)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _BodyTooLarge()
            return message

        await self.app(scope, limited_receive, send)


class MetricsMiddleware:
    """Count every HTTP request by method, route template and status, and time it.

    The route template (`/v1/concepts/{concept_id}`), not the raw path, keeps the number of
    series bounded; a path no route matched is counted as `<unmatched>`.
    """

    def __init__(self, app: ASGIApp, metrics: ApiMetrics) -> None:
        self.app = app
        self._metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # unless a response starts: an exception escaping is a 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        self._metrics.in_flight.inc()
        try:
            await self.app(scope, receive, send_status)
        finally:
            self._metrics.in_flight.dec()
            route = scope.get("route")
            template = getattr(route, "path", None) or "<unmatched>"
            self._metrics.observe_request(
                scope["method"], template, status, time.perf_counter() - started
            )
