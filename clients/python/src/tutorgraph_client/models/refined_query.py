"""The refiner's output, carried in `packet.refined_query` (design section 8a)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["RefinedQuery", "RefinerName"]

RefinerName = Literal["local", "openai"]


class RefinedQuery(BaseModel):
    """Structured search input made from a student's question.

    >>> RefinedQuery(original_query="i got 2/6", optimized_query="i got 2/6",
    ...              math_expressions=["2/6"], student_answer="2/6", refiner="local").refiner
    'local'
    """

    model_config = ConfigDict(extra="forbid")

    original_query: str
    # What the vector and lexical searches receive.
    optimized_query: str
    # Canonical plain text: `1/2 + 1/4`, `x^2`, `2x + 3 = 7`.
    math_expressions: list[str] = Field(default_factory=list)
    # Curriculum concept ids the refiner recognised; they seed the graph search.
    key_concepts: list[str] = Field(default_factory=list)
    search_terms: list[str] = Field(default_factory=list)
    student_answer: str | None = None
    # The problem the student worked on, as the math-message reader read it ("7 - 2 × 3").
    problem: str | None = None
    refiner: RefinerName
    # Why the configured refiner was not the one that answered (e.g. a timeout).
    fallback_reason: str | None = None
