"""Pure ASGI middleware: request metrics, request body limits, the refusal of cross-site
writes, and the limit on failed API key checks.

Pure ASGI (not `BaseHTTPMiddleware`) so that streamed bodies stay streamed and nothing is
buffered on the way.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tutorgraph.api.auth import API_KEY_HEADER
from tutorgraph.api.errors import (
    LIMIT_SCOPE_KEY,
    PayloadTooLargeError,
    error_response,
    retry_after_s,
)
from tutorgraph.api.metrics import ApiMetrics
from tutorgraph.api.rate_limit import RateLimiter
from tutorgraph.errors import CrossSiteRequestError, RateLimitedError

__all__ = [
    "SAFE_METHODS",
    "AuthFailureLimitMiddleware",
    "BodyLimitMiddleware",
    "CrossSiteWriteMiddleware",
    "MetricsMiddleware",
    "cross_site_reason",
]

# Methods that change nothing; every other one may write.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


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


def _host_port(netloc: str, scheme: str) -> tuple[str, int] | None:
    """`host[:port]` as (lower-case host, port), the port defaulting by `scheme`."""
    try:
        parts = urlsplit(f"//{netloc}")
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not host:
        return None
    return host.lower(), port if port is not None else _DEFAULT_PORTS.get(scheme, -1)


def _same_origin(origin: str, host_header: str | None) -> bool:
    """Whether `Origin` names the host and port the request was sent to (its `Host`)."""
    if host_header is None:
        return False
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    if parts.scheme not in _DEFAULT_PORTS or parts.path not in ("", "/"):
        return False
    ours = _host_port(parts.netloc, parts.scheme)
    return ours is not None and ours == _host_port(host_header, parts.scheme)


def cross_site_reason(headers: Headers, allowed_origins: Collection[str]) -> str | None:
    """Why a write with these headers came from another site's page, or None.

    A browser names the page that sent a request in `Origin` (on every cross-origin request
    and every POST) and, since 2020, says how it relates to the target in `Sec-Fetch-Site`.
    A write is refused when `Sec-Fetch-Site` is `cross-site` or `same-site`, or when `Origin`
    names another host or port than the request's `Host` (or is `null`), unless that origin
    is listed in `allowed_origins` (`TUTORGRAPH_CORS_ORIGINS`; its `*` lets any page read,
    never write). A client that is not a browser sends neither header and is not affected.

    >>> here = {"host": "127.0.0.1:8000"}
    >>> cross_site_reason(Headers({**here, "origin": "https://evil.example"}), [])
    'Origin https://evil.example is not this server (127.0.0.1:8000)'
    >>> cross_site_reason(Headers({**here, "origin": "http://127.0.0.1:8000"}), [])
    >>> cross_site_reason(Headers({"sec-fetch-site": "same-site"}), [])
    'Sec-Fetch-Site: same-site'
    """
    origin = headers.get("origin")
    if origin is not None and origin.strip().rstrip("/").lower() in allowed_origins:
        return None
    site = headers.get("sec-fetch-site", "").strip().lower()
    if site in ("cross-site", "same-site"):
        return f"Sec-Fetch-Site: {site}"
    if origin is not None and not _same_origin(origin.strip(), headers.get("host")):
        return f"Origin {origin[:200]} is not this server ({headers.get('host', '?')[:200]})"
    return None


class CrossSiteWriteMiddleware:
    """Refuse, 403 `cross_site_request`, a write (`is_write(method, path)`) that another site's
    page sent (`cross_site_reason`), before any handler runs or its body is read.

    A page can send a "simple" POST (`text/plain`, a form, a body without a type) to any
    address with no CORS preflight, so without this a web page open on a machine that runs
    a keyless loopback server could replace its index.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        allowed_origins: Collection[str],
        is_write: Callable[[str, str], bool],
    ) -> None:
        self.app = app
        self._allowed = frozenset(o.strip().rstrip("/").lower() for o in allowed_origins)
        self._is_write = is_write

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self._is_write(scope["method"], scope["path"]):
            reason = cross_site_reason(Headers(scope=scope), self._allowed)
            if reason is not None:
                exc = CrossSiteRequestError(
                    f"refused a write from another site's page ({reason}); to allow a web "
                    "page to write, list its origin in TUTORGRAPH_CORS_ORIGINS",
                    details={"reason": reason},
                )
                response = error_response(403, exc.code, exc.message, exc.details)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class AuthFailureLimitMiddleware:
    """At most `limiter`'s budget of failed API key checks per client address in any minute.

    A request to a path that checks keys (`checks_key(path)`) that carries an `X-API-Key` and
    is answered 401 spends one of its client's failures; once they are spent, every such
    request from that client is answered 429 (with `Retry-After`) before its key is even
    checked, until the oldest failure leaves the window, so a right guess is refused as well.
    Requests without a key, and paths that check none (`/healthz`, `/metrics`, the docs),
    are never refused here.
    """

    def __init__(
        self, app: ASGIApp, limiter: RateLimiter, checks_key: Callable[[str], bool]
    ) -> None:
        self.app = app
        self._limiter = limiter
        self._checks_key = checks_key

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or not self._limiter.enabled
            or not self._checks_key(scope["path"])
            or not Headers(scope=scope).get(API_KEY_HEADER)
        ):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        bucket = f"auth-failures:{client[0] if client else 'unknown'}"
        retry_after = await self._limiter.exhausted(bucket)
        if retry_after is not None:
            exc = RateLimitedError(retry_after)
            response = error_response(
                429,
                exc.code,
                "too many failed API key checks from this address; retry later",
                exc.details,
                {"Retry-After": str(retry_after_s(exc))},
            )
            await response(scope, receive, send)
            return
        status = 0

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        await self.app(scope, receive, send_status)
        if status == 401:
            await self._limiter.spend(bucket)
