"""The optional LLM refiner: GPT-4o-mini (or any OpenAI-compatible server) with structured output.

It is used only when a key or a base URL is configured. Every failure (a timeout, an HTTP
error, a refusal, an answer that does not fit the schema) falls back to the local refiner,
and the `RefinedQuery` says why in `fallback_reason`. Good answers are cached (LRU) on the
normalised query. A server that timed out or failed `BREAKER_FAILURES` times in a row (a
refusal or an answer off the schema is an answer) is not asked for the cool-down: its circuit
breaker sends the message to the local refiner at once, then lets one message probe it.

The prompt lists curriculum concepts to choose `key_concepts` among, each with its name and
description (a standard's name is only its code, `4.NF.B.3.b`). With `candidates` (the
factory passes `LinkerCandidates`: the index's concept linker over the message) they are the
linker's best in each taxonomy, as the link stage links the message for the packet's
`concepts` and the graph's seeds (issue 47; it links again, with the refined query's
embedding); without one, the local refiner's concepts and the best concept-name matches.
The refiner runs before the pipeline embeds the refined query, so the linker's candidates
cost one embedding of the message (tens of milliseconds beside a chat model's hundreds; none
for a cached query). The model's `key_concepts` seed nothing: they are its reading, reported
in the packet's `refined_query`.

>>> client = AsyncOpenAI(api_key="sk-...", max_retries=0)  # doctest: +SKIP
>>> refiner = OpenAIRefiner(client, LocalRefiner(index.graph),
...     candidates=LinkerCandidates(index.linker, embedder))  # doctest: +SKIP
>>> (await refiner.refine("i got 2/6 for 1/2+1/4")).refiner  # doctest: +SKIP
'openai'
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import openai
from cachetools import LRUCache
from openai import AsyncOpenAI
from openai.types.chat import ChatCompletionMessageParam
from openai.types.shared_params import ResponseFormatJSONSchema
from pydantic import BaseModel, ConfigDict, ValidationError

from tutorgraph.config import CHAT_MODEL, REFINER_CACHE_SIZE, REFINER_TIMEOUT_S
from tutorgraph.embedding.batching import embed_async
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.errors import failure_cause, failure_reason
from tutorgraph.mathtext.spans import canonical_math, plain_text
from tutorgraph.refinement.local import LocalRefiner
from tutorgraph.stores.breaker import CircuitBreaker
from tutorgraph.stores.protocols import ConceptLinks
from tutorgraph_client.models.refined_query import RefinedQuery

__all__ = [
    "DEFAULT_REFINER_MODEL",
    "ConceptChoice",
    "ConceptSource",
    "LinkerCandidates",
    "OpenAIRefiner",
]

log = logging.getLogger(__name__)

# What its fallback reasons name: "openai failed: HTTP 502", "openai: the model refused".
_NAME = "openai"

DEFAULT_REFINER_MODEL = CHAT_MODEL
# How many curriculum concepts the prompt offers the model to choose key concepts from:
# without a linker, in all; with one, per taxonomy.
CONTEXT_CONCEPTS = 8
LINKED_CANDIDATES = 4
# A description in the prompt is cut to this many characters.
DESCRIPTION_CHARS = 200

_SYSTEM = """You turn a math student's message into search input for a curriculum index.
Return JSON only, matching the schema:
- optimized_query: the message rewritten as a clear, self-contained search query (fix
  spelling, keep every number and expression, no answer to the question).
- math_expressions: each math expression in the message as plain text (1/2 + 1/4, x^2,
  2x + 3 = 7); convert LaTeX and Unicode (\\frac{1}{2} and ½ are 1/2).
- key_concepts: ids of the listed curriculum concepts the message is about, best first (may
  be empty); use only ids from the list, chosen by their descriptions.
- search_terms: the important words and phrases for a keyword search.
- student_answer: the answer the student says they gave, or null."""

_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "optimized_query": {"type": "string"},
        "math_expressions": {"type": "array", "items": {"type": "string"}},
        "key_concepts": {"type": "array", "items": {"type": "string"}},
        "search_terms": {"type": "array", "items": {"type": "string"}},
        "student_answer": {"type": ["string", "null"]},
    },
    "required": [
        "optimized_query",
        "math_expressions",
        "key_concepts",
        "search_terms",
        "student_answer",
    ],
    "additionalProperties": False,
}
_RESPONSE_FORMAT: ResponseFormatJSONSchema = {
    "type": "json_schema",
    "json_schema": {"name": "refined_query", "strict": True, "schema": _SCHEMA},
}


class _Answer(BaseModel):
    """What the model must return (the schema above, checked again on our side)."""

    model_config = ConfigDict(extra="forbid")

    optimized_query: str
    math_expressions: list[str]
    key_concepts: list[str]
    search_terms: list[str]
    student_answer: str | None


@dataclass(frozen=True)
class ConceptChoice:
    """A concept the prompt offers: its id, name and description."""

    id: str
    name: str
    description: str = ""

    def line(self) -> str:
        """`- id: name — description` (the description cut to `DESCRIPTION_CHARS`)."""
        text = " ".join(self.description.split())
        if len(text) > DESCRIPTION_CHARS:
            text = text[: DESCRIPTION_CHARS - 1].rstrip() + "…"
        if not text or text == self.name:
            return f"- {self.id}: {self.name}"
        return f"- {self.id}: {self.name} — {text}"


# The concepts a message may be about, for the prompt (`LinkerCandidates`).
ConceptSource = Callable[[str], Awaitable[list[ConceptChoice]]]


class LinkerCandidates:
    """The concept linker's best `per_taxonomy` concepts of each taxonomy for a message,
    linked as the link stage links it (the message's embedding, cosine plus BM25 over the
    concept cards); embedding and linking run off the event loop."""

    def __init__(
        self, linker: ConceptLinks, embedder: Embedder, *, per_taxonomy: int = LINKED_CANDIDATES
    ) -> None:
        self._linker = linker
        self._embedder = embedder
        self._per_taxonomy = per_taxonomy

    async def __call__(self, query: str) -> list[ConceptChoice]:
        text = plain_text(query)
        vector = (await embed_async(self._embedder, [text]))[0]
        found = await asyncio.to_thread(self._linker.link, text, self._per_taxonomy, vector)
        return [
            ConceptChoice(c.concept_id, c.name, c.description)
            for concepts in found.values()
            for c in concepts[: self._per_taxonomy]
        ]


class _Fallback(Exception):
    """Why the model's answer was not used (`cause`; `str()` is the reason the packet
    gives); `down`: the server did not answer (a timeout, an HTTP or network error), which
    counts against its circuit breaker and is a failure (`failure_reason`)."""

    def __init__(self, cause: str, *, down: bool = False) -> None:
        super().__init__(failure_reason(_NAME, cause) if down else f"{_NAME}: {cause}")
        self.cause = cause
        self.down = down


def _cache_key(query: str, student_answer: str | None) -> tuple[str, str]:
    return " ".join(query.casefold().split()), " ".join((student_answer or "").split())


class OpenAIRefiner:
    """Refines with a chat model; the injected client is closed by `aclose()`."""

    name = _NAME

    def __init__(
        self,
        client: AsyncOpenAI,
        fallback: LocalRefiner,
        *,
        model: str = DEFAULT_REFINER_MODEL,
        timeout_s: float = REFINER_TIMEOUT_S,
        cache_size: int = REFINER_CACHE_SIZE,
        candidates: ConceptSource | None = None,
        breaker: CircuitBreaker | None = None,
    ) -> None:
        """`candidates` lists the concepts the prompt offers (the linker's, `LinkerCandidates`);
        without it, or when it fails, the local refiner's and the best name matches.
        `breaker` skips a server that is down (None: always asked)."""
        if timeout_s <= 0:
            raise ValueError("timeout_s must be positive")
        self._client = client
        self._fallback = fallback
        self._candidates = candidates
        self._breaker = breaker
        self._model = model
        self._timeout_s = timeout_s
        self._caches = cache_size > 0
        self._cache: LRUCache[tuple[str, str], RefinedQuery] = LRUCache(maxsize=max(cache_size, 1))
        self.requests = 0  # calls that reached the server (for tests and metrics)

    async def refine(self, query: str, *, student_answer: str | None = None) -> RefinedQuery:
        key = _cache_key(query, student_answer)
        if (hit := self._cache.get(key)) is not None:
            return hit.model_copy(update={"original_query": query})
        breaker = self._breaker
        ticket = breaker.admit() if breaker is not None else None
        if breaker is not None and ticket is None:
            # Not asked: no linking for its prompt either.
            local = await self._fallback.refine(query, student_answer=student_answer)
            reason = failure_reason(_NAME, breaker.refusal())
            return local.model_copy(update={"fallback_reason": reason})
        settled = False
        try:
            local, linked = await asyncio.gather(
                self._fallback.refine(query, student_answer=student_answer), self._linked(query)
            )
            context = linked or await self._context(query, local)
            try:
                answer = await self._ask(query, context)
            except _Fallback as why:
                loud = True
                if breaker is not None and ticket is not None:
                    settled = True
                    if why.down:
                        loud = breaker.failed(ticket, why.cause)
                    else:
                        breaker.succeeded(ticket)  # it answered, if not usefully
                log.log(
                    logging.WARNING if loud else logging.DEBUG,
                    "openai refiner fell back to the local one: %s",
                    why,
                )
                return local.model_copy(update={"fallback_reason": str(why)})
            if breaker is not None and ticket is not None:
                settled = True
                breaker.succeeded(ticket)
        finally:
            if breaker is not None and ticket is not None and not settled:
                breaker.abandoned(ticket)
        refined = self._merge(query, answer, local, set(context), student_answer)
        if self._caches:
            self._cache[key] = refined
        return refined

    async def aclose(self) -> None:
        await self._client.close()

    async def _linked(self, query: str) -> dict[str, ConceptChoice] | None:
        """Concept id -> choice from `candidates`, or None without one or when it fails (a
        linker or embedder error, or no answer within the refiner's timeout)."""
        if self._candidates is None:
            return None
        try:
            found = await asyncio.wait_for(self._candidates(query), self._timeout_s)
        except Exception as exc:  # the prompt then offers the name matches
            log.warning("the linker's candidates are missing from the prompt: %r", exc)
            return None
        return {c.id: c for c in found}

    async def _context(self, query: str, local: RefinedQuery) -> dict[str, ConceptChoice]:
        """Concept id -> choice: what the local refiner found, then the best name matches."""
        concepts = await self._fallback.candidate_concepts(query, k=CONTEXT_CONCEPTS)
        found = {c.id: ConceptChoice(c.id, c.name, c.description) for c in concepts}
        return {cid: found.get(cid, ConceptChoice(cid, cid)) for cid in local.key_concepts} | found

    async def _ask(self, query: str, context: dict[str, ConceptChoice]) -> _Answer:
        listing = "\n".join(c.line() for c in context.values()) or "(none)"
        messages: list[ChatCompletionMessageParam] = [
            {"role": "system", "content": _SYSTEM},
            {
                "role": "user",
                "content": f"Curriculum concepts:\n{listing}\n\nStudent message:\n{query}",
            },
        ]
        self.requests += 1
        try:
            # The client's own timeout covers the HTTP call; wait_for also bounds retries.
            response = await asyncio.wait_for(
                self._client.chat.completions.create(
                    model=self._model,
                    messages=messages,
                    response_format=_RESPONSE_FORMAT,
                    temperature=0,
                    timeout=self._timeout_s,
                ),
                timeout=self._timeout_s,
            )
        except (TimeoutError, openai.APITimeoutError) as exc:
            # The client's timeout is its own class: both are "no answer within ... s".
            why = failure_cause(TimeoutError(), self._timeout_s)
            raise _Fallback(why, down=True) from exc
        except openai.AuthenticationError as exc:
            raise _Fallback("the API key is missing or was rejected", down=True) from exc
        except openai.APIStatusError as exc:
            raise _Fallback(f"HTTP {exc.status_code}", down=True) from exc
        except openai.APIError as exc:
            raise _Fallback(failure_cause(exc), down=True) from exc
        if not response.choices:
            raise _Fallback("the answer had no choices")
        message = response.choices[0].message
        if message.refusal:
            raise _Fallback("the model refused")
        try:
            return _Answer.model_validate_json(message.content or "")
        except ValidationError as exc:
            raise _Fallback(f"invalid answer ({exc.error_count()} schema errors)") from exc

    @staticmethod
    def _merge(
        query: str,
        answer: _Answer,
        local: RefinedQuery,
        offered: set[str],
        student_answer: str | None,
    ) -> RefinedQuery:
        """The model's answer, kept to concepts the prompt offered; gaps filled locally."""
        return RefinedQuery(
            original_query=query,
            optimized_query=" ".join(answer.optimized_query.split()) or local.optimized_query,
            math_expressions=list(
                dict.fromkeys(canonical_math(m) for m in answer.math_expressions if m.strip())
            ),
            key_concepts=list(dict.fromkeys(c for c in answer.key_concepts if c in offered)),
            search_terms=list(dict.fromkeys(t.strip() for t in answer.search_terms if t.strip())),
            # A request's answer always wins; the local refiner has it in canonical form.
            student_answer=local.student_answer if student_answer else answer.student_answer,
            refiner="openai",
        )
