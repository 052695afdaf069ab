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

    original_query: str = Field(description="The message as the caller sent it.")
    optimized_query: str = Field(
        description="What the vector and lexical searches receive (spelling corrected, math "
        "written out)."
    )
    math_expressions: list[str] = Field(
        default_factory=list,
        description="The math in the message, as canonical plain text: `1/2 + 1/4`, `x^2`, "
        "`2x + 3 = 7`.",
    )
    key_concepts: list[str] = Field(
        default_factory=list,
        description="Curriculum concept ids the refiner recognised (its reading only).",
    )
    search_terms: list[str] = Field(
        default_factory=list, description="The key words the refiner picked out."
    )
    student_answer: str | None = Field(
        default=None, description="The answer the student stated, as read from the message."
    )
    problem: str | None = Field(
        default=None,
        description='The problem the student worked on, as read from the message ("7 - 2 × 3").',
    )
    refiner: RefinerName = Field(
        description="Which refiner answered: local (rules) or openai (a language model)."
    )
    fallback_reason: str | None = Field(
        default=None,
        description="Why the configured refiner was not the one that answered (e.g. a timeout).",
    )
