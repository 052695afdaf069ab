"""The retrieval request (design section 8a)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

__all__ = [
    "ALL_SOURCES",
    "MAX_QUERY_CHARS",
    "Fusion",
    "RetrievalProfile",
    "RetrievalRequest",
    "SourceName",
]

MAX_QUERY_CHARS = 2000
MAX_PROBLEM_CHARS = 2000

SourceName = Literal["vector", "lexical", "graph"]
RetrievalProfile = Literal["auto", "exact", "balanced", "semantic"]
Fusion = Literal["rrf", "weighted"]
ALL_SOURCES: tuple[SourceName, ...] = ("vector", "lexical", "graph")


class RetrievalRequest(BaseModel):
    """What a caller asks for.

    >>> RetrievalRequest(query="  why is 3/4 bigger than 2/3? ").query
    'why is 3/4 bigger than 2/3?'
    >>> RetrievalRequest(problem="10 - 4 / 2", student_answer="3").query
    '10 - 4 / 2'
    """

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    # The problem the student worked on (an expression or the question text) and its
    # correct answer, when the app knows them: the diagnosis reads them.
    problem: str | None = Field(default=None, max_length=MAX_PROBLEM_CHARS)
    correct_answer: str | None = Field(default=None, max_length=500)
    # Required unless `problem` is given, which then stands for it.
    query: str = Field(default="", max_length=MAX_QUERY_CHARS, validate_default=True)
    n_results: int = Field(default=10, ge=1, le=50)
    retrieval_profile: RetrievalProfile | None = None
    semantic_weight: float | None = Field(default=None, ge=0.0, le=1.0)
    fusion: Fusion = "rrf"
    sources: list[SourceName] = Field(default_factory=lambda: list(ALL_SOURCES), min_length=1)
    concept_ids: list[str] = Field(default_factory=list, max_length=50)
    student_answer: str | None = Field(default=None, max_length=500)
    use_refinement: StrictBool = True
    rerank: StrictBool | None = None
    graph_scope: StrictBool | None = None
    # None: the query type's graph plan (1 hop for a concept lookup, 2 for a prerequisite one).
    prerequisite_hops: int | None = Field(default=None, ge=0, le=2)
    max_context_tokens: int = Field(default=1500, ge=0, le=8000)
    # Hits of a content kind whose stored vectors reach this cosine are merged into the
    # better one; None: the index's threshold (0.85 unless its ingest set another).
    near_duplicate_threshold: float | None = Field(default=None, ge=0.5, le=1.0)
    debug: StrictBool = False

    @field_validator("query")
    @classmethod
    def _query_or_problem(cls, v: str, info: ValidationInfo) -> str:
        if v:
            return v
        if info.data.get("problem"):
            return str(info.data["problem"])
        raise PydanticCustomError(
            "string_too_short",
            "String should have at least 1 character (or give a problem)",
            {"min_length": 1},
        )

    @field_validator("sources")
    @classmethod
    def _dedupe_sources(cls, v: list[SourceName]) -> list[SourceName]:
        # Keep a canonical order so that equal requests give equal packets.
        return [s for s in ALL_SOURCES if s in v]

    @field_validator("concept_ids")
    @classmethod
    def _dedupe_concepts(cls, v: list[str]) -> list[str]:
        return list(dict.fromkeys(x.strip() for x in v if x.strip()))
