"""The retrieval request (design section 8a)."""

from __future__ import annotations

from typing import Any, Literal, get_args

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

from tutorgraph_client.models.conversation import (
    MAX_CONVERSATION_CHARS,
    MAX_TURNS,
    Turn,
    check_conversation,
)
from tutorgraph_client.models.grade import Grade, normalize_grade

__all__ = [
    "ALL_SOURCES",
    "CONCRETE_PROFILES",
    "MAX_LOCAL_CHARS",
    "MAX_LOCAL_DOCUMENTS",
    "MAX_QUERY_CHARS",
    "RETRIEVAL_PROFILES",
    "STORE_SOURCES",
    "ConcreteProfile",
    "Fusion",
    "LocalDocument",
    "RetrievalProfile",
    "RetrievalRequest",
    "SourceName",
    "StoreSource",
    "Turn",
]

MAX_QUERY_CHARS = 2000
MAX_PROBLEM_CHARS = 2000

# Each name is written once, in its `Literal`; the tuples, the engine's checks and the help
# texts are derived from it.
# The index's stores: the sources a request searches by default.
StoreSource = Literal["vector", "lexical", "graph"]
# `local`: the request's own `local_context`, searched in memory whenever it is given.
SourceName = Literal[StoreSource, "local"]
# The profiles that set the weights; `auto` chooses one of them per question.
ConcreteProfile = Literal["exact", "balanced", "semantic"]
RetrievalProfile = Literal["auto", ConcreteProfile]
Fusion = Literal["rrf", "weighted"]
STORE_SOURCES: tuple[StoreSource, ...] = get_args(StoreSource)
# Every source, in the order packets list them.
ALL_SOURCES: tuple[SourceName, ...] = get_args(SourceName)
CONCRETE_PROFILES: tuple[ConcreteProfile, ...] = get_args(ConcreteProfile)
RETRIEVAL_PROFILES: tuple[RetrievalProfile, ...] = get_args(RetrievalProfile)
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

    id: str = Field(
        description="Your name for it, 1-100 characters, unique in the request; its hit's id "
        "is `local:<id>`.",
        examples=["lesson-3"],
    )
    text: str = Field(
        description="The text to search, 1-2,000 characters.",
        examples=["Compare fractions by writing them with a common denominator."],
    )
    title: str = Field(default="", description="A title, at most 200 characters.")
    kind: Literal["explanation", "worked_example", "exercise", "question"] = Field(
        default="explanation", description="What sort of text it is."
    )

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

    problem: str | None = Field(
        default=None,
        max_length=MAX_PROBLEM_CHARS,
        description="The problem the student worked on (an expression or the question "
        "text), when the app knows it: the diagnosis reads it. Stands for `query` when that "
        "is empty.",
        examples=["3 + 4 x 2"],
    )
    correct_answer: str | None = Field(
        default=None,
        max_length=500,
        description="The problem's correct answer, when the app knows it. The diagnosis "
        "computes its own; one that differs means the problem was misread, and nothing is "
        "diagnosed.",
        examples=["11"],
    )
    query: str = Field(
        default="",
        max_length=MAX_QUERY_CHARS,
        validate_default=True,
        description="The student's message or the tutor's question, 1-2,000 characters. "
        "Required unless `problem` is given.",
        examples=["I got 3 + 4 x 2 = 14"],
    )
    n_results: int = Field(
        default=10, ge=1, le=50, description="How many hits `results` holds at most."
    )
    retrieval_profile: RetrievalProfile | None = Field(
        default=None,
        description="How to weigh exact words against meaning: "
        f"{', '.join(CONCRETE_PROFILES)}, or auto (chosen per question). Null: the index's "
        "default (auto).",
    )
    semantic_weight: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="The weight of the meaning-based (vector) search against the word-based "
        "one, 0-1; overrides the profile. Null: the profile's.",
    )
    fusion: Fusion = Field(
        default="rrf",
        description="How the sources' lists are merged: rrf (by rank) or weighted (by "
        "normalised score).",
    )
    sources: list[SourceName] = Field(
        default_factory=lambda: list[SourceName](STORE_SOURCES),
        min_length=1,
        description=f"The stores to search ({', '.join(STORE_SOURCES)}). `local_context` is "
        'searched whenever it is given; `["local"]` searches it alone.',
    )
    concept_ids: list[str] = Field(
        default_factory=list,
        max_length=50,
        description="Concepts the app knows the question is about (ccss:6.NS.A.1, ...): they "
        "seed the graph search and lead `concepts`. Unknown ids are a 422.",
    )
    student_answer: str | None = Field(
        default=None,
        max_length=500,
        description="The student's answer, when the app knows it; wins over an answer read "
        "from the message.",
        examples=["14"],
    )
    grade: Grade | None = Field(
        default=None,
        description='The student\'s grade, when the app knows it: K, 1-8 or HS ("grade 3", '
        "3, kindergarten and 9-12 are read too). A hint for choosing concepts, never a filter.",
        examples=["3"],
    )
    use_refinement: StrictBool = Field(
        default=True,
        description="Read the message first (math, the student's answer, spelling); false "
        "searches the text as it is.",
    )
    rerank: StrictBool | None = Field(
        default=None,
        description="Rerank the hits with the cross-encoder (when the server has one). "
        "Null: the profile's choice.",
    )
    graph_scope: StrictBool | None = Field(
        default=None,
        description="Boost vector and word hits on the concepts the graph search found "
        "(nothing is removed). Null: the profile's choice.",
    )
    prerequisite_hops: int | None = Field(
        default=None,
        ge=0,
        le=2,
        description="How many prerequisite edges the graph search follows, 0-2. Null: the "
        "question's plan (1 for a concept lookup, 2 for a prerequisite question, else 0).",
    )
    max_context_tokens: int = Field(
        default=1500,
        ge=0,
        le=8000,
        description="The token budget of the packet's prompt-ready `context` (0: none).",
    )
    near_duplicate_threshold: float | None = Field(
        default=None,
        ge=0.5,
        le=1.0,
        description="Merge hits whose stored vectors reach this cosine into the better one "
        "(0.5-1). Null: the index's threshold (off unless its ingest set one).",
    )
    lessons: int | None = Field(
        default=None,
        ge=0,
        le=10,
        description="How many explanations and worked examples nearest the message the "
        "packet carries as `lessons`, 0-10 (0: none). Null: the server's setting (4).",
    )
    local_context: list[LocalDocument] = Field(
        default_factory=list,
        max_length=MAX_LOCAL_DOCUMENTS,
        description="Your own short documents (the lesson page, a teacher's hint), at most "
        "20, searched for this request only as the source `local`; never stored.",
    )
    conversation: list[Turn] = Field(
        default_factory=list,
        description="The dialogue's turns before this one, oldest first (`query` stays the "
        f"student's latest turn): at most {MAX_TURNS} turns of 1-2,000 characters each, "
        f"{MAX_CONVERSATION_CHARS:,} in all. The problem, the student's answer and the topic "
        "are read from them (the packet's `dialogue`); empty: the query is read alone.",
        examples=[[{"role": "tutor", "text": "What is 7 x 6?"}]],
    )
    debug: StrictBool = Field(
        default=False, description="Add the `debug` block (per-stage details) to the packet."
    )

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

    @field_validator("conversation", mode="before")
    @classmethod
    def _conversation_limits(cls, v: object) -> object:
        return check_conversation(v)

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
