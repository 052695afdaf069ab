"""The host names the server answers to: a guard against DNS rebinding.

A web page at `http://evil.example:8000` can point its own name at 127.0.0.1 once it has
loaded (DNS rebinding); the browser then lets it read and write a server on the loopback as
its own origin, so neither CORS nor the refusal of cross-site writes stops it, and a keyless
loopback server would let it replace the index. What gives it away is the `Host` it sends:
its own name. So a request whose `Host` is not localhost, 127.0.0.1, [::1], the address
`serve` binds, or a name in `TUTORGRAPH_ALLOWED_HOSTS` is answered 421
`misdirected_request`, whatever its port. A request with no `Host` (HTTP/1.0) is let
through: every browser sends one.

Starlette's `TrustedHostMiddleware` does the matching too, but answers a plain-text 400
outside the API's error envelope, refuses a request without `Host`, and redirects to `www.`
names; this one is a few lines.

>>> hosts = AllowedHosts.parse("tutor.example.org, *.lan")
>>> [hosts.allows(h) for h in ("localhost:8000", "[::1]", "a.lan", "evil.example", None)]
[True, True, True, False, True]
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from tutorgraph.api.errors import error_response
from tutorgraph.errors import MisdirectedRequestError

__all__ = ["LOOPBACK_NAMES", "AllowedHosts", "AllowedHostsMiddleware", "host_name"]

# Always answered to: what a local client types, and what a rebound page cannot send.
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
# Binding these means every interface: no client names the server by them.
_WILDCARDS = frozenset({"0.0.0.0", "::"})


def host_name(value: str) -> str | None:
    """The host of a `Host` header or an address (`name[:port]`, `[v6][:port]`, a bare v6
    address), lower-case, without brackets or a trailing dot; None when malformed.

    >>> host_name("Tutor.Example.org.:8443"), host_name("[::1]:80"), host_name("::1")
    ('tutor.example.org', '::1', '::1')
    >>> host_name("a b"), host_name("x:notaport")
    (None, None)
    """
    text = value.strip()
    if not text or any(c.isspace() or c in "/?#@\\" for c in text):
        return None
    try:
        return str(ipaddress.ip_address(text.removeprefix("[").removesuffix("]")))
    except ValueError:
        pass
    try:
        parts = urlsplit(f"//{text}")
        host, _ = parts.hostname, parts.port  # `port` raises on a bad one
    except ValueError:
        return None
    if not host:
        return None
    return host.rstrip(".") or None


@dataclass(frozen=True)
class AllowedHosts:
    """Exact names (and IP addresses) and `*.`-suffixes; `any_host` for `*`."""

    names: frozenset[str]
    suffixes: tuple[str, ...] = ()
    any_host: bool = False

    @classmethod
    def parse(cls, listed: str, *extra: str) -> AllowedHosts:
        """The loopback's names, `extra` (the bound address; a wildcard one is skipped) and
        the comma-separated `listed` (`TUTORGRAPH_ALLOWED_HOSTS`); a malformed entry is
        skipped."""
        names = set(LOOPBACK_NAMES)
        suffixes: list[str] = []
        any_host = False
        for entry in [*listed.split(","), *extra]:
            entry = entry.strip().lower()
            if entry == "*":
                any_host = True
            elif entry.startswith("*."):
                name = host_name(entry[2:])
                if name:
                    suffixes.append("." + name)
            elif entry:
                name = host_name(entry)
                if name and name not in _WILDCARDS:
                    names.add(name)
        return cls(frozenset(names), tuple(suffixes), any_host)

    def allows(self, host_header: str | None) -> bool:
        """Whether a request with this `Host` is answered (None: the request sent none)."""
        if host_header is None or self.any_host:
            return True
        name = host_name(host_header)
        if name is None:
            return False
        return name in self.names or name.endswith(self.suffixes)


class AllowedHostsMiddleware:
    """Answer 421 `misdirected_request` to a request whose `Host` the server does not answer
    to (`AllowedHosts`), before anything else reads it."""

    def __init__(self, app: ASGIApp, hosts: AllowedHosts) -> None:
        self.app = app
        self._hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            host = Headers(scope=scope).get("host")
            if not self._hosts.allows(host):
                shown = (host or "")[:200]
                exc = MisdirectedRequestError(
                    f"this server does not answer to the host {shown!r}; if clients reach "
                    "it by that name, list it in TUTORGRAPH_ALLOWED_HOSTS",
                    details={"host": shown},
                )
                response = error_response(421, exc.code, exc.message, exc.details)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
