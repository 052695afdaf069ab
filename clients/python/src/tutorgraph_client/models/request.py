"""The retrieval request (design section 8a)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from tutorgraph_client.models.grade import Grade, normalize_grade

__all__ = [
    "ALL_SOURCES",
    "MAX_LOCAL_CHARS",
    "MAX_LOCAL_DOCUMENTS",
    "MAX_QUERY_CHARS",
    "STORE_SOURCES",
    "Fusion",
    "LocalDocument",
    "RetrievalProfile",
    "RetrievalRequest",
    "SourceName",
]

MAX_QUERY_CHARS = 2000
MAX_PROBLEM_CHARS = 2000

# `local`: the request's own `local_context`, searched in memory whenever it is given.
SourceName = Literal["vector", "lexical", "graph", "local"]
RetrievalProfile = Literal["auto", "exact", "balanced", "semantic"]
Fusion = Literal["rrf", "weighted"]
# The sources a request searches by default: the index's stores.
STORE_SOURCES: tuple[SourceName, ...] = ("vector", "lexical", "graph")
# Every source, in the order packets list them.
ALL_SOURCES: tuple[SourceName, ...] = (*STORE_SOURCES, "local")
MAX_LOCAL_DOCUMENTS = 20
MAX_LOCAL_CHARS = 2000
_MAX_LOCAL_ID = 100


class LocalDocument(BaseModel):
    """A short document of the caller's (the lesson page, a teacher's hint), searched for
    one request only and never stored. Its hit's id is `local:<id>`.

    >>> LocalDocument(id="lesson-3", text="Compare fractions by a common denominator.").kind
    'explanation'
    """

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    id: str
    text: str
    title: str = ""
    kind: Literal["explanation", "worked_example", "exercise", "question"] = "explanation"

    @model_validator(mode="before")
    @classmethod
    def _named_limits(cls, data: Any) -> Any:
        # Checked here so that each message names the document (pydantic's own would only
        # give its position).
        if not isinstance(data, dict):
            return data
        name = data.get("id")
        if not isinstance(name, str) or not 0 < len(name.strip()) <= _MAX_LOCAL_ID:
            raise ValueError(f"a local document needs an id of 1-{_MAX_LOCAL_ID} characters")
        for field, limit in (("text", MAX_LOCAL_CHARS), ("title", 200)):
            value = data.get(field, "")
            if not isinstance(value, str):
                raise ValueError(f"local document {name!r}: {field} must be a string")
            if len(value) > limit:
                raise ValueError(
                    f"local document {name!r}: {field} has {len(value)} characters, at most {limit}"
                )
        if not str(data.get("text", "")).strip():
            raise ValueError(f"local document {name!r}: text is empty")
        return data


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
    # The stores to search; the local context is searched whenever it is given, and
    # `["local"]` searches it alone.
    sources: list[SourceName] = Field(default_factory=lambda: list(STORE_SOURCES), min_length=1)
    concept_ids: list[str] = Field(default_factory=list, max_length=50)
    student_answer: str | None = Field(default=None, max_length=500)
    # The student's grade when the app knows it ("K", "1"-"8", "HS"; "grade 3", 3 and 10 are
    # read too): the concept linker's prior, never a filter.
    grade: Grade | None = None
    use_refinement: StrictBool = True
    rerank: StrictBool | None = None
    graph_scope: StrictBool | None = None
    # None: the query type's graph plan (1 hop for a concept lookup, 2 for a prerequisite one).
    prerequisite_hops: int | None = Field(default=None, ge=0, le=2)
    max_context_tokens: int = Field(default=1500, ge=0, le=8000)
    # Hits of a content kind whose stored vectors reach this cosine are merged into the
    # better one; None: the index's threshold (off unless its ingest set one).
    near_duplicate_threshold: float | None = Field(default=None, ge=0.5, le=1.0)
    # How many explanations and worked examples nearest the message the packet carries as
    # `lessons` (0: none); None: the server's `lesson_slots`.
    lessons: int | None = Field(default=None, ge=0, le=10)
    # The caller's own documents, searched in memory as the source `local`.
    local_context: list[LocalDocument] = Field(default_factory=list, max_length=MAX_LOCAL_DOCUMENTS)
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

    @field_validator("grade", mode="before")
    @classmethod
    def _normalize_grade(cls, v: object) -> object:
        return None if v is None or v == "" else normalize_grade(v)

    @field_validator("sources")
    @classmethod
    def _dedupe_sources(cls, v: list[SourceName]) -> list[SourceName]:
        # Keep a canonical order so that equal requests give equal packets.
        return [s for s in ALL_SOURCES if s in v]

    @field_validator("local_context")
    @classmethod
    def _unique_local_ids(cls, v: list[LocalDocument]) -> list[LocalDocument]:
        seen: set[str] = set()
        for doc in v:
            if doc.id in seen:
                raise ValueError(f"local document {doc.id!r}: the id is used twice")
            seen.add(doc.id)
        return v

    @model_validator(mode="after")
    def _local_needs_context(self) -> RetrievalRequest:
        if self.sources == ["local"] and not self.local_context:
            raise ValueError("sources names only 'local', but local_context is empty")
        return self

    @field_validator("concept_ids")
    @classmethod
    def _dedupe_concepts(cls, v: list[str]) -> list[str]:
        return list(dict.fromkeys(x.strip() for x in v if x.strip()))
