"""The HTTP/1.1 protocol `tutorgraph serve` runs: uvicorn's h11 parser, with a deadline for
each request's head.

uvicorn picks httptools when it is installed (chromadb's `uvicorn[standard]` brings it), and
httptools bounds neither the size of a request's head nor the time it may take to arrive: a
64 MiB header was accepted, and a client that sends one header byte every few seconds holds
its connection for ever. h11 bounds only a head that arrives in pieces
(`h11_max_incomplete_event_size`; one read of the socket, up to 256 KiB, is parsed whole), so
this protocol refuses, 431, any head longer than that limit however it arrives, and closes a
connection whose head is not complete within `head_timeout_s` of its start (or of the end of
the previous response on a kept-alive connection): with a 408 if part of a head came,
silently if nothing did.

`serve` sets `head_timeout_s` (`TUTORGRAPH_HEADER_TIMEOUT_S`) on the class; worker processes
(`serve --workers N`) import this module afresh and read the same variable.

>>> uvicorn.run(app, http=HeadTimeoutH11Protocol, h11_max_incomplete_event_size=32768)
... # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import os
import re

import h11
from h11._connection import DEFAULT_MAX_INCOMPLETE_EVENT_SIZE
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HEADER_TIMEOUT_ENV", "HeadTimeoutH11Protocol"]

HEADER_TIMEOUT_ENV = "TUTORGRAPH_HEADER_TIMEOUT_S"
_DEFAULT_HEADER_TIMEOUT_S = 10.0
_TIMEOUT_BODY = b"the request head did not arrive in time\n"
_TIMEOUT_RESPONSE = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(_TIMEOUT_BODY), _TIMEOUT_BODY)
)


_TOO_LARGE_BODY = b"the request head is too large\n"
_TOO_LARGE_RESPONSE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
    b"content-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
    b"content-length: %d\r\n\r\n%s" % (len(_TOO_LARGE_BODY), _TOO_LARGE_BODY)
)
# The blank line that ends a head, as h11 finds it.
_HEAD_END = re.compile(rb"\n\r?\n")


def _env_timeout() -> float:
    try:
        value = float(os.environ.get(HEADER_TIMEOUT_ENV, _DEFAULT_HEADER_TIMEOUT_S))
    except ValueError:
        return _DEFAULT_HEADER_TIMEOUT_S
    return value if value > 0 else _DEFAULT_HEADER_TIMEOUT_S


class HeadTimeoutH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request head is late."""

    head_timeout_s: float = _env_timeout()

    _head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._watch_head()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE and self._head_too_large(data):
            self._stop_watching()
            self.transport.write(_TOO_LARGE_RESPONSE)
            self.transport.close()
            return
        super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        self._watch_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_watching()
        super().connection_lost(exc)

    def _head_too_large(self, data: bytes) -> bool:
        """Whether the head being received (what is buffered, then `data`) has passed the
        limit without ending."""
        limit = self.config.h11_max_incomplete_event_size or DEFAULT_MAX_INCOMPLETE_EVENT_SIZE
        buffered = self.conn.trailing_data[0]
        if len(buffered) + len(data) <= limit:
            return False
        return _HEAD_END.search((buffered + data)[: limit + 4]) is None

    def _watch_head(self) -> None:
        """Arm the deadline while the connection waits for a head; disarm it once one came."""
        if self.conn.their_state is not h11.IDLE or self.transport.is_closing():
            self._stop_watching()
        elif self._head_deadline is None:
            self._head_deadline = self.loop.call_later(self.head_timeout_s, self._head_late)

    def _stop_watching(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_late(self) -> None:
        self._head_deadline = None
        if self.conn.their_state is not h11.IDLE or self.transport.is_closing():
            return
        if self.conn.trailing_data[0]:  # part of a head came: say why it is closed
            self.transport.write(_TIMEOUT_RESPONSE)
        self.transport.close()
