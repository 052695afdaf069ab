"""A real OpenAI-compatible HTTP server on a free loopback port, for the refiner's tests.

It serves `POST /v1/chat/completions` with the wire format the `openai` client parses, and
its behaviour (a good structured answer, a slow one, a malformed one, a refusal, an HTTP
error, none at all: `hang` holds every request until the mode changes) is switched per test.
It records every request body it receives, as it arrives.

A streamed request (`"stream": true`, as the answerer sends) is answered in
`chat.completion.chunk` Server-Sent Events with text that cites the first two ids of the
prompt's context (`bad_citation` adds one the context does not hold), a few characters a
chunk so that citations arrive split across chunks.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

import uvicorn
from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response, StreamingResponse

Mode = Literal[
    "valid", "slow", "malformed", "off_schema", "refusal", "unauthorised", "bad_citation", "hang"
]
_OFFERED = re.compile(r"^- (\S+): ", re.M)
_CONTEXT_ID = re.compile(r"^\[(\S+)\]", re.M)
BOGUS_ID = "eedi:misconception:999999"


@dataclass
class LocalOpenAI:
    base_url: str
    mode: Mode = "valid"
    delay_s: float = 3.0
    requests: list[dict[str, Any]] = field(default_factory=list)

    def reset(self, mode: Mode) -> None:
        self.mode = mode
        self.requests.clear()


def _answer(body: dict[str, Any]) -> dict[str, Any]:
    """A structured answer built from the prompt: the first offered concept and a bogus one."""
    prompt = body["messages"][-1]["content"]
    offered = _OFFERED.findall(prompt)
    return {
        "optimized_query": "adding fractions with unlike denominators 1/2 + 1/4",
        "math_expressions": ["1/2+1/4", "2/6"],
        "key_concepts": [*offered[:1], "ccss:NOT.A.CODE"],
        "search_terms": ["adding fractions", "unlike denominators"],
        "student_answer": "2/6",
    }


def _completion(body: dict[str, Any], content: str | None, refusal: str | None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-local",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "local"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": refusal},
                "finish_reason": "stop",
                "logprobs": None,
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
    }


def _answer_text(body: dict[str, Any], mode: Mode) -> str:
    ids = _CONTEXT_ID.findall(body["messages"][-1]["content"])[:2]
    text = "The student most likely compares the denominators instead of the fractions"
    text += "".join(f" [{i}]" for i in ids[:1]) + ". Rewrite both over a common denominator"
    text += "".join(f" [{i}]" for i in ids[1:2]) + "."
    if mode == "bad_citation":
        text += f" Try a number line [{BOGUS_ID}]."
    return text


def _chunk(body: dict[str, Any], delta: dict[str, Any], finish: str | None = None) -> str:
    chunk = {
        "id": "chatcmpl-local",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": body.get("model", "local"),
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}],
    }
    return f"data: {json.dumps(chunk)}\n\n"


async def _stream(server: LocalOpenAI, body: dict[str, Any]) -> AsyncIterator[str]:
    yield _chunk(body, {"role": "assistant", "content": ""})
    if server.mode == "refusal":
        yield _chunk(body, {"refusal": "I can't help with that."}, "stop")
    else:
        text = _answer_text(body, server.mode)
        for start in range(0, len(text), 7):
            if server.mode == "slow":
                await asyncio.sleep(server.delay_s / 10)
            yield _chunk(body, {"content": text[start : start + 7]})
        yield _chunk(body, {}, "stop")
    yield "data: [DONE]\n\n"


def _app(server: LocalOpenAI) -> FastAPI:
    app = FastAPI()

    @app.post("/v1/chat/completions")
    async def chat(body: dict[str, Any]) -> Response:
        server.requests.append(body)
        # A server that accepted the request and never answers, until the test's thread
        # switches the mode (an asyncio.Event belongs to this server's loop, not that thread).
        while server.mode == "hang":  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        mode = server.mode
        if mode == "unauthorised":
            error = {"error": {"message": "Incorrect API key", "type": "invalid_request_error"}}
            return JSONResponse(error, status_code=401)
        if body.get("stream"):
            return StreamingResponse(_stream(server, body), media_type="text/event-stream")
        if mode == "slow":
            await asyncio.sleep(server.delay_s)
        if mode == "refusal":
            return JSONResponse(_completion(body, None, "I can't help with that."))
        if mode == "malformed":
            return JSONResponse(_completion(body, '{"optimized_query": "unterminated', None))
        if mode == "off_schema":
            content = json.dumps({"optimized_query": 7, "extra": True})
            return JSONResponse(_completion(body, content, None))
        return JSONResponse(_completion(body, json.dumps(_answer(body)), None))

    return app


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(app: Any, *, start_timeout_s: float = 20.0) -> Iterator[str]:
    """Run an ASGI app with uvicorn in a thread on a free loopback port; yields its URL."""
    port = _free_port()
    uv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout_s
    while not uv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the app did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        uv.should_exit = True
        thread.join(timeout=30)


@contextmanager
def local_openai_server() -> Iterator[LocalOpenAI]:
    server = LocalOpenAI(base_url="")
    with serving(_app(server)) as url:
        server.base_url = f"{url}/v1"
        try:
            yield server
        finally:
            server.mode = "valid"  # releases held requests, so that uvicorn can stop
