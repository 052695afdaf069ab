"""The optional LLM refiner: GPT-4o-mini (or any OpenAI-compatible server) with structured output.

It is used only when a key or a base URL is configured. Every failure (a timeout, an HTTP
error, a refusal, an answer that does not fit the schema) falls back to the local refiner,
and the `RefinedQuery` says why in `fallback_reason`. Good answers are cached (LRU) on the
normalised query.

>>> client = AsyncOpenAI(api_key="sk-...", max_retries=0)  # doctest: +SKIP
>>> refiner = OpenAIRefiner(client, LocalRefiner(index.graph))  # doctest: +SKIP
>>> (await refiner.refine("i got 2/6 for 1/2+1/4")).refiner  # doctest: +SKIP
'openai'
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import openai
from cachetools import LRUCache
from openai import AsyncOpenAI
from openai.types.chat import ChatCompletionMessageParam
from openai.types.shared_params import ResponseFormatJSONSchema
from pydantic import BaseModel, ConfigDict, ValidationError

from tutorgraph.mathtext.spans import canonical_math
from tutorgraph.models.refined_query import RefinedQuery
from tutorgraph.refinement.local import LocalRefiner

__all__ = ["DEFAULT_REFINER_MODEL", "OpenAIRefiner"]

log = logging.getLogger(__name__)

DEFAULT_REFINER_MODEL = "gpt-4o-mini"
# How many curriculum concepts the prompt offers the model to choose key concepts from.
CONTEXT_CONCEPTS = 8

_SYSTEM = """You turn a math student's message into search input for a curriculum index.
Return JSON only, matching the schema:
- optimized_query: the message rewritten as a clear, self-contained search query (fix
  spelling, keep every number and expression, no answer to the question).
- math_expressions: each math expression in the message as plain text (1/2 + 1/4, x^2,
  2x + 3 = 7); convert LaTeX and Unicode (\\frac{1}{2} and ½ are 1/2).
- key_concepts: ids of the listed curriculum concepts the message is about (may be empty);
  use only ids from the list.
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


class _Fallback(Exception):
    """Why the model's answer was not used."""


def _cache_key(query: str, student_answer: str | None) -> tuple[str, str]:
    return " ".join(query.casefold().split()), " ".join((student_answer or "").split())


class OpenAIRefiner:
    """Refines with a chat model; the injected client is closed by `aclose()`."""

    name = "openai"

    def __init__(
        self,
        client: AsyncOpenAI,
        fallback: LocalRefiner,
        *,
        model: str = DEFAULT_REFINER_MODEL,
        timeout_s: float = 1.5,
        cache_size: int = 1024,
    ) -> None:
        if timeout_s <= 0:
            raise ValueError("timeout_s must be positive")
        self._client = client
        self._fallback = fallback
        self._model = model
        self._timeout_s = timeout_s
        self._caches = cache_size > 0
        self._cache: LRUCache[tuple[str, str], RefinedQuery] = LRUCache(maxsize=max(cache_size, 1))
        self.requests = 0  # calls that reached the server (for tests and metrics)

    async def refine(self, query: str, *, student_answer: str | None = None) -> RefinedQuery:
        key = _cache_key(query, student_answer)
        if (hit := self._cache.get(key)) is not None:
            return hit.model_copy(update={"original_query": query})
        local = await self._fallback.refine(query, student_answer=student_answer)
        context = await self._context(query, local)
        try:
            answer = await self._ask(query, context)
        except _Fallback as why:
            log.warning("openai refiner fell back to the local one: %s", why)
            return local.model_copy(update={"fallback_reason": str(why)})
        refined = self._merge(query, answer, local, set(context), student_answer)
        if self._caches:
            self._cache[key] = refined
        return refined

    async def aclose(self) -> None:
        await self._client.close()

    async def _context(self, query: str, local: RefinedQuery) -> dict[str, str]:
        """Concept id -> name: what the local refiner found, then the best name matches."""
        concepts = await self._fallback.candidate_concepts(query, k=CONTEXT_CONCEPTS)
        found = {c.id: c.name for c in concepts}
        return {cid: found.get(cid, cid) for cid in local.key_concepts} | found

    async def _ask(self, query: str, context: dict[str, str]) -> _Answer:
        listing = "\n".join(f"- {cid}: {name}" for cid, name in context.items()) or "(none)"
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
            raise _Fallback(f"openai: no answer within {self._timeout_s:g} s") from exc
        except openai.AuthenticationError as exc:
            raise _Fallback("openai: the API key is missing or was rejected") from exc
        except openai.APIStatusError as exc:
            raise _Fallback(f"openai: HTTP {exc.status_code}") from exc
        except openai.APIError as exc:
            raise _Fallback(f"openai: {type(exc).__name__}") from exc
        if not response.choices:
            raise _Fallback("openai: the answer had no choices")
        message = response.choices[0].message
        if message.refusal:
            raise _Fallback("openai: the model refused")
        try:
            return _Answer.model_validate_json(message.content or "")
        except ValidationError as exc:
            raise _Fallback(f"openai: invalid answer ({exc.error_count()} schema errors)") from exc

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
