"""The answerer: an OpenAI-compatible chat model writes a cited answer from a packet.

It streams: `stream(packet)` yields `Delta`s of checked text, then one `AnswerResult`. On
any failure (no context, a timeout, an HTTP error, a refusal, no text) the result has
`answer: None` and a reason; text already streamed is then to be discarded. A packet that
matched nothing (`no_match`) is not sent to the model: the result is `answer: None` with
the reason `not sure: <no_match_reason>`, what an app should tell its user. A model that
timed out or failed (a refusal or no text is an answer) `BREAKER_FAILURES` times in a row is
not asked for the cool-down: its circuit breaker answers `answer: None` at once, then lets one
request probe it.

>>> answerer = OpenAIAnswerer(AsyncOpenAI(base_url="http://127.0.0.1:8080/v1"), model="m")
... # doctest: +SKIP
>>> result = await collect(answerer, packet)  # doctest: +SKIP
>>> result.citations  # doctest: +SKIP
['eedi:misconception:1667']
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from tutorgraph.config import Settings
from tutorgraph.errors import ConfigurationError, failure_cause, failure_reason
from tutorgraph.extras import require
from tutorgraph.retrieval.factory import openai_unavailable
from tutorgraph.stores.breaker import CircuitBreaker
from tutorgraph.synthesis.citations import CitationFilter, citable_ids
from tutorgraph.synthesis.prompt import PROMPT_VERSION, answer_messages
from tutorgraph_client.models.answer import AnswerResult
from tutorgraph_client.models.conversation import Turn
from tutorgraph_client.models.packet import ReasoningPacket

if TYPE_CHECKING:
    from openai import AsyncOpenAI

__all__ = [
    "Answerer",
    "Delta",
    "OpenAIAnswerer",
    "answer_unavailable",
    "build_answerer",
    "collect",
    "no_answer",
    "not_sure",
]

log = logging.getLogger(__name__)

# What a failure names (`failure_reason`): "the answer model failed: HTTP 502".
_MODEL = "the answer model"


@dataclass(frozen=True)
class Delta:
    """A piece of the answer's text, its citations already checked."""

    text: str


class Answerer(Protocol):
    """Writes a cited answer from a packet, streamed."""

    @property
    def model(self) -> str: ...

    @property
    def breaker(self) -> CircuitBreaker | None:
        """The model's circuit breaker (`/readyz`), or None without one."""
        ...

    def stream(
        self, packet: ReasoningPacket, conversation: Sequence[Turn] = ()
    ) -> AsyncIterator[Delta | AnswerResult]:
        """The answer to the packet's message, read as the next turn of `conversation` (the
        request's turns before it; the prompt shows the latest)."""
        ...

    async def aclose(self) -> None: ...


class _Refused(Exception):
    pass


def not_sure(packet: ReasoningPacket) -> str:
    """Why a packet that matched nothing gets no answer: "not sure: " and its reason."""
    return f"not sure: {packet.no_match_reason or 'nothing in the curriculum matched'}"


def no_answer(
    reason: str, *, model: str | None = None, started: float | None = None
) -> AnswerResult:
    """A result without an answer, saying why."""
    ms = round((time.perf_counter() - started) * 1000.0, 3) if started is not None else 0.0
    return AnswerResult(reason=reason, model=model, prompt_version=PROMPT_VERSION, answer_ms=ms)


class OpenAIAnswerer:
    """An `Answerer` over the chat completions API of the injected client (OpenAI or any
    compatible server); `timeout_s` bounds the whole answer, first token to last; `breaker`
    skips a model that is down (None: always asked)."""

    def __init__(
        self,
        client: AsyncOpenAI,
        *,
        model: str,
        timeout_s: float,
        max_tokens: int = 600,
        breaker: CircuitBreaker | None = None,
    ) -> None:
        self._client = client
        self._model = model
        self._timeout_s = timeout_s
        self._max_tokens = max_tokens
        self._breaker = breaker

    @property
    def model(self) -> str:
        return self._model

    @property
    def breaker(self) -> CircuitBreaker | None:
        return self._breaker

    async def aclose(self) -> None:
        await self._client.close()

    async def stream(
        self, packet: ReasoningPacket, conversation: Sequence[Turn] = ()
    ) -> AsyncIterator[Delta | AnswerResult]:
        import openai

        started = time.perf_counter()
        if packet.no_match:
            # Nothing matched: the model would answer from its own knowledge, or not at all.
            yield no_answer(not_sure(packet), model=self._model)
            return
        if not packet.context.strip():
            yield no_answer("the packet has no context to answer from", model=self._model)
            return
        breaker = self._breaker
        ticket = breaker.admit() if breaker is not None else None
        if breaker is not None and ticket is None:
            yield no_answer(failure_reason(_MODEL, breaker.refusal()), model=self._model)
            return
        checked = CitationFilter(citable_ids(packet))
        parts: list[str] = []
        reason: str | None = None
        # Why the model did not answer (a refusal or an empty answer is an answer).
        down: str | None = None
        settled = False
        loud = True  # whether this failure is logged here (else its breaker logged a change)
        try:
            try:
                async with asyncio.timeout(self._timeout_s):
                    async for piece in self._pieces(packet, conversation):
                        if text := checked.feed(piece):
                            parts.append(text)
                            yield Delta(text)
                if text := checked.finish():
                    parts.append(text)
                    yield Delta(text)
            except TimeoutError as exc:
                down = failure_cause(exc, self._timeout_s)
            except _Refused as exc:
                reason = f"the model refused: {exc}"
            except openai.APIStatusError as exc:
                down = f"HTTP {exc.status_code}"
            except openai.APIError as exc:
                down = failure_cause(exc)
            if down is not None:
                reason = failure_reason(_MODEL, down)
            if breaker is not None and ticket is not None:
                settled = True
                if down is not None:
                    loud = breaker.failed(ticket, down)
                else:
                    breaker.succeeded(ticket)
        finally:
            # A stream its reader closed (the client left) says nothing of the model.
            if breaker is not None and ticket is not None and not settled:
                breaker.abandoned(ticket)
        answer = "".join(parts).strip()
        if reason is None and not answer:
            reason = "the model returned no text"
        if reason is not None:
            log.log(logging.WARNING if loud else logging.DEBUG, "no answer: %s", reason)
            yield no_answer(reason, model=self._model, started=started)
            return
        yield AnswerResult(
            answer=answer,
            citations=checked.cited,
            removed_citations=checked.removed,
            model=self._model,
            prompt_version=PROMPT_VERSION,
            answer_ms=round((time.perf_counter() - started) * 1000.0, 3),
        )

    async def _pieces(
        self, packet: ReasoningPacket, conversation: Sequence[Turn]
    ) -> AsyncIterator[str]:
        stream = await self._client.chat.completions.create(
            model=self._model,
            messages=answer_messages(packet, conversation),
            stream=True,
            temperature=0,
            max_tokens=self._max_tokens,
        )
        try:
            async for chunk in stream:
                if not chunk.choices:
                    continue
                delta = chunk.choices[0].delta
                if delta.refusal:
                    raise _Refused(delta.refusal)
                if delta.content:
                    yield delta.content
        finally:
            await stream.close()


async def collect(
    answerer: Answerer, packet: ReasoningPacket, conversation: Sequence[Turn] = ()
) -> AnswerResult:
    """The whole answer at once (the non-streaming form)."""
    result: AnswerResult | None = None
    async for event in answerer.stream(packet, conversation):
        if isinstance(event, AnswerResult):
            result = event
    assert result is not None  # every stream ends with one
    return result


def answer_unavailable(settings: Settings) -> str | None:
    """Why no answer model is configured, or None when one is."""
    reason = openai_unavailable(settings)
    return None if reason is None else f"no answer model: {reason}"


def build_answerer(settings: Settings) -> OpenAIAnswerer:
    """The configured answerer (no I/O); raises `ConfigurationError` when none is."""
    if (reason := answer_unavailable(settings)) is not None:
        raise ConfigurationError(reason)
    require("openai", "openai", "answers")
    from openai import AsyncOpenAI

    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
    client = AsyncOpenAI(
        api_key=key or "no-key",  # a local server may need none; the client insists
        base_url=settings.openai_base_url,
        timeout=settings.answer_timeout_s,
        max_retries=0,
    )
    breaker = CircuitBreaker(
        "answer", failures=settings.breaker_failures, cooldown_s=settings.breaker_cooldown_s
    )
    return OpenAIAnswerer(
        client, model=settings.answer_model, timeout_s=settings.answer_timeout_s, breaker=breaker
    )
