"""Python clients for a tutorgraph server: `AsyncTutorGraph` and `TutorGraph` (sync), on httpx.

They send and return the server's own pydantic models, retry 429 and 503 answers with
back-off (honouring `Retry-After`), and raise the library's errors (`tutorgraph_client.errors`)
for error bodies: an unknown concept is an `UnknownConceptError`, a rate limit that
outlasts the retries a `RateLimitedError`, an unreachable server an `APIConnectionError`.

>>> async with AsyncTutorGraph("http://127.0.0.1:8000", api_key="...") as tg:
...     packet = await tg.retrieve("why is 3/4 bigger than 2/3?")
...     packet.results[0].id
... # doctest: +SKIP
>>> with TutorGraph("http://127.0.0.1:8000", api_key="...") as tg:
...     for event in tg.answer_stream("why is 3/4 bigger than 2/3?"):
...         print(event if isinstance(event, str) else type(event).__name__)
... # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

import httpx
from httpx_sse import aconnect_sse
from pydantic import BaseModel

from tutorgraph_client.errors import (
    APIConnectionError,
    APITimeoutError,
    TutorGraphError,
    error_from_wire,
)
from tutorgraph_client.models.answer import AnswerRequest, AnswerResponse, AnswerResult
from tutorgraph_client.models.api import (
    ConceptSearchResponse,
    IngestJobOut,
    MisconceptionsResponse,
    PrerequisitesResponse,
    TeachingResponse,
)
from tutorgraph_client.models.curriculum import Concept
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest

__all__ = ["AnswerEvent", "AsyncTutorGraph", "TutorGraph"]

M = TypeVar("M", bound=BaseModel)
# What `answer_stream` yields: the packet, then pieces of text, then the result.
AnswerEvent = ReasoningPacket | str | AnswerResult

API_KEY_HEADER = "X-API-Key"
_RETRY_STATUSES = frozenset({429, 503})
_FINISHED = frozenset({"succeeded", "failed"})


def _request(model: type[M], query: str | M | Mapping[str, Any], fields: dict[str, Any]) -> M:
    if isinstance(query, model):
        return query.model_copy(update=fields) if fields else query
    if isinstance(query, str):
        return model.model_validate({"query": query, **fields})
    return model.model_validate({**dict(query), **fields})


def _error(response: httpx.Response) -> TutorGraphError:
    try:
        body = response.json()["error"]
        code, message, details = body["code"], body["message"], body.get("details") or {}
    except (ValueError, KeyError, TypeError):
        code, message, details = "http_error", f"HTTP {response.status_code}", {}
    exc = error_from_wire(response.status_code, code, message, details)
    if response.status_code == 429 and "Retry-After" in response.headers:
        exc.retry_after = _retry_after(response, 1.0)  # type: ignore[attr-defined]
    return exc


def _retry_after(response: httpx.Response, default: float) -> float:
    try:
        return max(0.0, float(response.headers["Retry-After"]))
    except (KeyError, ValueError):
        return default


def _answer_event(name: str, data: str) -> AnswerEvent:
    if name == "packet":
        return ReasoningPacket.model_validate_json(data)
    if name == "delta":
        return str(json.loads(data)["text"])
    return AnswerResult.model_validate_json(data)


class _Base:
    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        timeout: float,
        max_retries: int,
        backoff_s: float,
    ) -> None:
        if max_retries < 0 or backoff_s < 0:
            raise ValueError("max_retries and backoff_s must be >= 0")
        self._base_url = base_url.rstrip("/")
        self._headers = {API_KEY_HEADER: api_key} if api_key else {}
        self._timeout = timeout
        self._max_retries = max_retries
        self._backoff_s = backoff_s

    def _delay(self, attempt: int, response: httpx.Response | None) -> float:
        """Seconds before retry `attempt` (0-based): `Retry-After`, else exponential."""
        default = self._backoff_s * 2**attempt
        return _retry_after(response, default) if response is not None else default


class AsyncTutorGraph(_Base):
    """An async client. Use `async with`, or call `aclose()`; `http_client` may be given
    (for example with an `httpx.ASGITransport`), and is then not closed by the client.

    >>> tg = AsyncTutorGraph("http://127.0.0.1:8000", api_key="...", max_retries=3)
    """

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:8000",
        *,
        api_key: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        backoff_s: float = 0.5,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        super().__init__(base_url, api_key, timeout, max_retries, backoff_s)
        self._owns = http_client is None
        self._http = http_client or httpx.AsyncClient(timeout=timeout)

    async def __aenter__(self) -> AsyncTutorGraph:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._owns:
            await self._http.aclose()

    async def _send(
        self,
        method: str,
        path: str,
        *,
        retry_on: frozenset[int] = _RETRY_STATUSES,
        headers: Mapping[str, str] | None = None,
        **kw: Any,
    ) -> httpx.Response:
        attempt = 0
        while True:
            try:
                response = await self._http.request(
                    method,
                    self._base_url + path,
                    headers={**self._headers, **(headers or {})},
                    timeout=self._timeout,
                    **kw,
                )
            except httpx.TimeoutException as exc:
                raise APITimeoutError(
                    f"{method} {path}: no answer within {self._timeout:g} s"
                ) from exc
            except httpx.TransportError as exc:
                raise APIConnectionError(f"{method} {path}: {type(exc).__name__}: {exc}") from exc
            if response.status_code < 400:
                return response
            if response.status_code in retry_on and attempt < self._max_retries:
                await asyncio.sleep(self._delay(attempt, response))
                attempt += 1
                continue
            raise _error(response)

    async def _get(self, path: str, model: type[M], **params: Any) -> M:
        return model.model_validate_json((await self._send("GET", path, params=params)).content)

    async def retrieve(
        self, query: str | RetrievalRequest | Mapping[str, Any], **fields: Any
    ) -> ReasoningPacket:
        """`POST /v1/retrieve`: a question (or a request, or its fields) in, a packet out. In
        a tutoring dialogue, send the student's latest turn with the turns before it:
        `retrieve("12?", conversation=[{"role": "tutor", "text": "What is 7 + 6?"}])`."""
        request = _request(RetrievalRequest, query, fields)
        body = request.model_dump(mode="json", exclude_defaults=True)
        response = await self._send("POST", "/v1/retrieve", json=body)
        return ReasoningPacket.model_validate_json(response.content)

    async def answer(
        self, query: str | AnswerRequest | Mapping[str, Any], **fields: Any
    ) -> AnswerResponse:
        """`POST /v1/answer` as one JSON response: the packet and the cited answer (or
        `answer: None` and the reason)."""
        request = _request(AnswerRequest, query, {**fields, "stream": False})
        body = request.model_dump(mode="json", exclude_defaults=True) | {"stream": False}
        response = await self._send("POST", "/v1/answer", json=body)
        return AnswerResponse.model_validate_json(response.content)

    async def answer_stream(
        self, query: str | AnswerRequest | Mapping[str, Any], **fields: Any
    ) -> AsyncIterator[AnswerEvent]:
        """`POST /v1/answer`, streamed: the packet, then the answer's text in pieces, then
        the `AnswerResult` (on `answer: None`, discard the text)."""
        request = _request(AnswerRequest, query, fields)
        body = request.model_dump(mode="json", exclude_defaults=True) | {"stream": True}
        url = self._base_url + "/v1/answer"
        try:
            # A copy: httpx-sse adds its Accept header to the dict it is given.
            headers = dict(self._headers)
            async with aconnect_sse(
                self._http, "POST", url, json=body, headers=headers, timeout=self._timeout
            ) as source:
                response = source.response
                if response.status_code >= 400:
                    await response.aread()
                    raise _error(response)
                async for event in source.aiter_sse():
                    yield _answer_event(event.event, event.data)
        except httpx.TimeoutException as exc:
            raise APITimeoutError(f"POST /v1/answer: no answer within {self._timeout:g} s") from exc
        except httpx.TransportError as exc:
            raise APIConnectionError(f"POST /v1/answer: {type(exc).__name__}: {exc}") from exc

    async def concepts(self, q: str, *, limit: int = 10) -> ConceptSearchResponse:
        """`GET /v1/concepts?q=`: concepts matching a name or a standard code."""
        return await self._get("/v1/concepts", ConceptSearchResponse, q=q, limit=limit)

    async def concept(self, concept_id: str) -> Concept:
        return await self._get(f"/v1/concepts/{concept_id}", Concept)

    async def prerequisites(self, concept_id: str, *, depth: int = 1) -> PrerequisitesResponse:
        path = f"/v1/concepts/{concept_id}/prerequisites"
        return await self._get(path, PrerequisitesResponse, depth=depth)

    async def misconceptions(self, concept_id: str) -> MisconceptionsResponse:
        return await self._get(f"/v1/concepts/{concept_id}/misconceptions", MisconceptionsResponse)

    async def teaching(self, concept_id: str, *, limit: int = 10) -> TeachingResponse:
        """`GET /v1/concepts/{id}/teaching`: its lessons, worked examples, practice and
        misconceptions, its own (written for its grade) first."""
        path = f"/v1/concepts/{concept_id}/teaching"
        return await self._get(path, TeachingResponse, limit=limit)

    async def ingest(self, bundle: bytes | Path, *, prune: bool = False) -> IngestJobOut:
        """`POST /v1/ingest` (admin key): a `.tar.gz` of bundle files; returns the job. Only a
        429 is retried (a job the server took is never sent twice)."""
        data = await asyncio.to_thread(bundle.read_bytes) if isinstance(bundle, Path) else bundle
        response = await self._send(
            "POST",
            "/v1/ingest",
            retry_on=frozenset({429}),
            content=data,
            params={"prune": str(prune).lower()},
            headers={"Content-Type": "application/gzip"},
        )
        return IngestJobOut.model_validate_json(response.content)

    async def job(self, job_id: str) -> IngestJobOut:
        return await self._get(f"/v1/ingest/{job_id}", IngestJobOut)

    async def wait_for_job(
        self, job_id: str, *, poll_s: float = 1.0, timeout_s: float = 3600.0
    ) -> IngestJobOut:
        """Poll the job until it has finished (succeeded or failed)."""
        deadline = time.monotonic() + timeout_s
        while (job := await self.job(job_id)).status not in _FINISHED:
            if time.monotonic() > deadline:
                raise APITimeoutError(
                    f"ingest job {job_id} still {job.status} after {timeout_s:g} s"
                )
            await asyncio.sleep(poll_s)
        return job


class TutorGraph:
    """The blocking client: the same calls as `AsyncTutorGraph`, run on a private event loop.
    Use `with`, or call `close()`.

    >>> with TutorGraph("http://127.0.0.1:8000", api_key="...") as tg:
    ...     tg.retrieve("why is 3/4 bigger than 2/3?").results[0].kind
    ... # doctest: +SKIP
    'concept'
    """

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:8000",
        *,
        api_key: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        backoff_s: float = 0.5,
    ) -> None:
        self._runner = asyncio.Runner()
        # httpx makes no connection until the first request, which runs on this loop.
        self._client = AsyncTutorGraph(
            base_url,
            api_key=api_key,
            timeout=timeout,
            max_retries=max_retries,
            backoff_s=backoff_s,
        )

    def __enter__(self) -> TutorGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._runner.run(self._client.aclose())
        self._runner.close()

    def retrieve(
        self, query: str | RetrievalRequest | Mapping[str, Any], **fields: Any
    ) -> ReasoningPacket:
        return self._runner.run(self._client.retrieve(query, **fields))

    def answer(
        self, query: str | AnswerRequest | Mapping[str, Any], **fields: Any
    ) -> AnswerResponse:
        return self._runner.run(self._client.answer(query, **fields))

    def answer_stream(
        self, query: str | AnswerRequest | Mapping[str, Any], **fields: Any
    ) -> Iterator[AnswerEvent]:
        events = self._client.answer_stream(query, **fields)

        async def step() -> AnswerEvent | None:
            return await anext(events, None)

        while (event := self._runner.run(step())) is not None:
            yield event

    def concepts(self, q: str, *, limit: int = 10) -> ConceptSearchResponse:
        return self._runner.run(self._client.concepts(q, limit=limit))

    def concept(self, concept_id: str) -> Concept:
        return self._runner.run(self._client.concept(concept_id))

    def prerequisites(self, concept_id: str, *, depth: int = 1) -> PrerequisitesResponse:
        return self._runner.run(self._client.prerequisites(concept_id, depth=depth))

    def misconceptions(self, concept_id: str) -> MisconceptionsResponse:
        return self._runner.run(self._client.misconceptions(concept_id))

    def teaching(self, concept_id: str, *, limit: int = 10) -> TeachingResponse:
        """`GET /v1/concepts/{id}/teaching` (see `AsyncTutorGraph.teaching`).

        >>> tg.teaching("ccss:2.NBT.B.5").lessons[0].document.kind  # doctest: +SKIP
        'explanation'
        """
        return self._runner.run(self._client.teaching(concept_id, limit=limit))

    def ingest(self, bundle: bytes | Path, *, prune: bool = False) -> IngestJobOut:
        return self._runner.run(self._client.ingest(bundle, prune=prune))

    def job(self, job_id: str) -> IngestJobOut:
        return self._runner.run(self._client.job(job_id))

    def wait_for_job(
        self, job_id: str, *, poll_s: float = 1.0, timeout_s: float = 3600.0
    ) -> IngestJobOut:
        return self._runner.run(
            self._client.wait_for_job(job_id, poll_s=poll_s, timeout_s=timeout_s)
        )
