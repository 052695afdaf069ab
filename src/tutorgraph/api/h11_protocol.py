"""The HTTP/1.1 protocol `tutorgraph serve` runs: uvicorn's h11 parser, with deadlines for
each request's head and body, and a bound on open connections.

uvicorn picks httptools when it is installed (chromadb's `uvicorn[standard]` brings it), and
httptools bounds neither the size of a request's head nor the time it may take to arrive: a
64 MiB header was accepted, and a client that sends one header byte every few seconds holds
its connection for ever. h11 bounds only a head that arrives in pieces
(`h11_max_incomplete_event_size`; one read of the socket, up to 256 KiB, is parsed whole), so
this protocol:

- refuses, 431, any head longer than that limit however it arrives;
- closes a connection whose head is not complete within `head_timeout_s` of its start (or
  of the end of the previous response on a kept-alive connection): with a 408 if part of a
  head came, silently if nothing did;
- closes a connection whose request body goes `body_timeout_s` without a byte, or is not
  whole within `body_timeout_s` plus a second per `MIN_BODY_BYTES_PER_S` bytes received
  (a trickle), with a 408 (JSON, the API's envelope) unless a response was already sent.
  uvicorn has no body deadline: 20,000 connections that each declared a body and sent 3
  bytes were held until the process ran out of file descriptors. Time the server itself
  keeps the client waiting (reading paused while the app is busy, `Expect: 100-continue`
  not yet answered) does not count. The app sees the client gone (`http.disconnect`), so an
  upload holding the index's writer lock lets go of it;
- answers a connection made while `max_connections` are open with a 503 at once and
  closes it. uvicorn's `limit_concurrency` answers 503 only once a request head arrives,
  so a flood of silent connections still held a descriptor each until the head deadline.

`serve` calls `configure` (which also sets the variables that worker processes of `serve
--workers N`, importing this module afresh, read).

>>> configure(head_timeout_s=10, body_timeout_s=10, max_connections=1000)  # doctest: +SKIP
>>> uvicorn.run(app, http=GuardedH11Protocol, h11_max_incomplete_event_size=32768)
... # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import time

import h11
from h11._connection import DEFAULT_MAX_INCOMPLETE_EVENT_SIZE
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = [
    "BODY_TIMEOUT_ENV",
    "BUSY_RETRY_AFTER_S",
    "HEADER_TIMEOUT_ENV",
    "MAX_CONNECTIONS_ENV",
    "MIN_BODY_BYTES_PER_S",
    "GuardedH11Protocol",
    "configure",
]

log = logging.getLogger(__name__)

HEADER_TIMEOUT_ENV = "TUTORGRAPH_HEADER_TIMEOUT_S"
BODY_TIMEOUT_ENV = "TUTORGRAPH_BODY_TIMEOUT_S"
MAX_CONNECTIONS_ENV = "TUTORGRAPH_MAX_CONNECTIONS"
_DEFAULT_TIMEOUT_S = 10.0
_DEFAULT_MAX_CONNECTIONS = 1000
# The slowest body that is not a trickle: each KiB received extends its deadline a second.
MIN_BODY_BYTES_PER_S = 1024
# A refused connection is read (and dropped) this long after its 503, so that the client
# reads the answer rather than a reset; past twice the limit it is closed at once instead.
_LINGER_S = 1.0
# What a refused client is told to wait.
BUSY_RETRY_AFTER_S = 1
# At most one warning about refused connections per this many seconds.
_REFUSAL_LOG_EVERY_S = 10.0


def _plain(status: bytes, body: bytes) -> bytes:
    return (
        b"HTTP/1.1 %s\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"x-content-type-options: nosniff\r\nconnection: close\r\n"
        b"content-length: %d\r\n\r\n%s" % (status, len(body), body)
    )


def _envelope(status: bytes, code: str, message: str, extra: bytes = b"") -> bytes:
    """A response in the API's error envelope (`api/errors.py`), written by the protocol."""
    body = json.dumps({"error": {"code": code, "message": message, "details": {}}}).encode()
    return (
        b"HTTP/1.1 %s\r\ncontent-type: application/json\r\n"
        b"x-content-type-options: nosniff\r\n%sconnection: close\r\n"
        b"content-length: %d\r\n\r\n%s" % (status, extra, len(body), body)
    )


_HEAD_TIMEOUT_RESPONSE = _plain(
    b"408 Request Timeout", b"the request head did not arrive in time\n"
)
_TOO_LARGE_RESPONSE = _plain(
    b"431 Request Header Fields Too Large", b"the request head is too large\n"
)
_BUSY_RESPONSE = _envelope(
    b"503 Service Unavailable",
    "too_many_connections",
    "the server has as many connections open as it allows; retry later",
    b"retry-after: %d\r\n" % BUSY_RETRY_AFTER_S,
)
# The blank line that ends a head, as h11 finds it.
_HEAD_END = re.compile(rb"\n\r?\n")


def _env_number(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return value if value > 0 else default


def configure(*, head_timeout_s: float, body_timeout_s: float, max_connections: int) -> None:
    """Set the protocol's deadlines and connection bound, in this process and (through the
    environment) in the worker processes it starts."""
    GuardedH11Protocol.head_timeout_s = head_timeout_s
    GuardedH11Protocol.body_timeout_s = body_timeout_s
    GuardedH11Protocol.max_connections = max_connections
    os.environ[HEADER_TIMEOUT_ENV] = str(head_timeout_s)
    os.environ[BODY_TIMEOUT_ENV] = str(body_timeout_s)
    os.environ[MAX_CONNECTIONS_ENV] = str(max_connections)


def _body_timeout_response(timeout_s: float) -> bytes:
    return _envelope(
        b"408 Request Timeout",
        "request_timeout",
        f"the request body stopped coming (nothing for {timeout_s:g} s), or came slower "
        f"than {MIN_BODY_BYTES_PER_S} bytes a second",
    )


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, with deadlines for a request's head and body and a bound on
    open connections."""

    head_timeout_s: float = _env_number(HEADER_TIMEOUT_ENV, _DEFAULT_TIMEOUT_S)
    body_timeout_s: float = _env_number(BODY_TIMEOUT_ENV, _DEFAULT_TIMEOUT_S)
    max_connections: int = int(_env_number(MAX_CONNECTIONS_ENV, _DEFAULT_MAX_CONNECTIONS))

    _last_refusal_log = 0.0

    _head_deadline: asyncio.TimerHandle | None = None
    _body_deadline: asyncio.TimerHandle | None = None
    _refused = False
    _received = 0
    # The body being awaited: when it started (or the server last kept it waiting), the
    # bytes received by then, and when the last byte came.
    _body_start = 0.0
    _body_start_bytes = 0
    _body_last = 0.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            self._refuse()
            return
        self._watch()

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # read and dropped until the client closes (`_refuse`)
        if self.conn.their_state is h11.IDLE and self._head_too_large(data):
            self._stop_watching()
            self.transport.write(_TOO_LARGE_RESPONSE)
            self.transport.close()
            return
        self._received += len(data)
        self._body_last = time.monotonic()
        super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_watching()
        super().connection_lost(exc)

    # -- the connection bound ---------------------------------------------------------------

    def _refuse(self) -> None:
        """Answer 503 and close: at once past twice the limit, else once the client closes
        (or `_LINGER_S` later), so that it reads the answer rather than a reset."""
        self._refused = True
        now = time.monotonic()
        cls = type(self)
        if now - cls._last_refusal_log >= _REFUSAL_LOG_EVERY_S:
            cls._last_refusal_log = now
            log.warning(
                "refusing new connections: %d open, the limit is %d (TUTORGRAPH_MAX_CONNECTIONS)",
                len(self.connections) - 1,
                self.max_connections,
            )
        self.transport.write(_BUSY_RESPONSE)
        if len(self.connections) > 2 * self.max_connections or not self.transport.can_write_eof():
            self.transport.close()
            return
        self.transport.write_eof()
        self._body_deadline = self.loop.call_later(_LINGER_S, self.transport.close)

    # -- the deadlines ----------------------------------------------------------------------

    def _watch(self) -> None:
        """Arm the head deadline while the connection waits for a head, the body deadline
        while it waits for a body; disarm each once its part came."""
        state = self.conn.their_state
        if self.transport.is_closing():
            self._stop_watching()
            return
        if state is not h11.IDLE:
            self._stop_head()
        elif self._head_deadline is None:
            self._head_deadline = self.loop.call_later(self.head_timeout_s, self._head_late)
        if state is not h11.SEND_BODY:
            self._stop_body()
        elif self._body_deadline is None:
            self._body_start = self._body_last = time.monotonic()
            self._body_start_bytes = self._received
            self._body_deadline = self.loop.call_later(self.body_timeout_s, self._body_late)

    def _stop_head(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _stop_body(self) -> None:
        if self._body_deadline is not None:
            self._body_deadline.cancel()
            self._body_deadline = None

    def _stop_watching(self) -> None:
        self._stop_head()
        self._stop_body()

    def _head_too_large(self, data: bytes) -> bool:
        """Whether the head being received (what is buffered, then `data`) has passed the
        limit without ending."""
        limit = self.config.h11_max_incomplete_event_size or DEFAULT_MAX_INCOMPLETE_EVENT_SIZE
        buffered = self.conn.trailing_data[0]
        if len(buffered) + len(data) <= limit:
            return False
        return _HEAD_END.search((buffered + data)[: limit + 4]) is None

    def _head_late(self) -> None:
        self._head_deadline = None
        if self.conn.their_state is not h11.IDLE or self.transport.is_closing():
            return
        if self.conn.trailing_data[0]:  # part of a head came: say why it is closed
            self.transport.write(_HEAD_TIMEOUT_RESPONSE)
        self.transport.close()

    def _body_due(self) -> float:
        """When the body being received is late: `body_timeout_s` after its last byte, or
        after it started plus a second per `MIN_BODY_BYTES_PER_S` bytes, whichever is first."""
        credit = (self._received - self._body_start_bytes) / MIN_BODY_BYTES_PER_S
        return min(
            self._body_last + self.body_timeout_s,
            self._body_start + self.body_timeout_s + credit,
        )

    def _body_late(self) -> None:
        self._body_deadline = None
        if self.conn.their_state is not h11.SEND_BODY or self.transport.is_closing():
            return
        now = time.monotonic()
        cycle = self.cycle
        if cycle is not None and cycle.waiting_for_100_continue:
            # The app has not asked for the body yet: the client is right to wait.
            self._body_start = self._body_last = now
            self._body_start_bytes = self._received
        elif self.flow.read_paused:
            self._body_last = now  # the server is not reading: no fault of the client's
        due = self._body_due()
        if due > now:
            self._body_deadline = self.loop.call_later(due - now, self._body_late)
            return
        if cycle is None or not cycle.response_started:
            self.transport.write(_body_timeout_response(self.body_timeout_s))
        if cycle is not None:
            # The app's `receive` says the client is gone (an upload lets go of its lock),
            # and whatever it sends now is dropped.
            cycle.disconnected = True
            cycle.message_event.set()
        self.transport.close()
