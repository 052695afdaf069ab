"""Headers that tell a browser how to treat every response: never sniff a type
(`X-Content-Type-Options: nosniff`), never frame a page (`X-Frame-Options: DENY`), and, for
the packet explorer (`/ui`), a Content-Security-Policy that lets it load nothing but its own
script, style and API.

The explorer is plain HTML, CSS and JavaScript from this server, sets every packet string as
text, and styles elements through the CSSOM (never a `style` attribute), so the policy needs
no `unsafe-inline`. `/docs` and `/redoc` are left without one: Swagger UI and ReDoc start
from an inline script.

>>> app.add_middleware(SecurityHeadersMiddleware, csp_paths=frozenset({"/ui"}))
... # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Collection

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CONTENT_SECURITY_POLICY", "EVERY_RESPONSE", "SecurityHeadersMiddleware"]

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
EVERY_RESPONSE = {"x-content-type-options": "nosniff", "x-frame-options": "DENY"}


class SecurityHeadersMiddleware:
    """Add `EVERY_RESPONSE` to every HTTP response, and `CONTENT_SECURITY_POLICY` to those
    of the paths in `csp_paths`; a header a route set itself is kept."""

    def __init__(self, app: ASGIApp, csp_paths: Collection[str]) -> None:
        self.app = app
        self._csp_paths = frozenset(csp_paths)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = dict(EVERY_RESPONSE)
        if scope["path"] in self._csp_paths:
            extra["content-security-policy"] = CONTENT_SECURITY_POLICY

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in extra.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
