"""What a packet reports beside its hits (design section 8a): the concepts the request linked
to, with their prerequisite chains, the graph context, and what each model stage did: the
reranker, the ranker, the diagnosis and its answer check, the scope model, the grade and the
language.

>>> RankerInfo().applied
False
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from tutorgraph_client.models.grade import Band, Grade

__all__ = [
    "TAXONOMY_NAMES",
    "AnswerCheck",
    "ChainStep",
    "DiagnosisFinding",
    "GradeInfo",
    "GraphContext",
    "LanguageInfo",
    "LinkedConcept",
    "RankerInfo",
    "RerankerInfo",
    "ScopeInfo",
    "Taxonomy",
]

# The taxonomies a concept is linked in: Common Core standards, Eedi constructs, OpenStax
# sections (the engine's `linking/cards.py` gives each one's id prefix).
Taxonomy = Literal["common-core", "eedi", "openstax"]
TAXONOMY_NAMES: tuple[Taxonomy, ...] = get_args(Taxonomy)


class ChainStep(BaseModel):
    """A concept on the prerequisite chain of a linked concept, `depth` edges before it;
    `relation` is the edge it leaves by (`aligned_with`: the standard a construct or section
    teaches, whose own prerequisites follow)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="The concept's id.")
    name: str = Field(description="Its name (a standard's code).")
    description: str = Field(default="", description="What it is about.")
    depth: int = Field(description="How many edges before the linked concept it comes.")
    relation: str = Field(
        description="The edge it leaves by (builds_towards, ...; aligned_with: the standard "
        "a construct or section teaches)."
    )


class LinkedConcept(BaseModel):
    """A concept the request is about, in one taxonomy (Common Core, Eedi or OpenStax):
    from the caller's `concept_ids` (`evidence: {"caller": true}`, no score), else named by
    the concept linker (its fused score; its dense and lexical ranks, cosine, BM25 and
    structural overlap). The first concept of each taxonomy carries its prerequisite chain
    (foundations first)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="The concept's id.", examples=["ccss:3.OA.A.3"])
    taxonomy: Taxonomy = Field(description=f"One of {', '.join(TAXONOMY_NAMES)}.")
    name: str = Field(description="Its name (a standard's code).")
    description: str = Field(default="", description="What it is about.")
    score: float | None = Field(
        default=None,
        description="The linker's fused score (higher is better); null for the caller's own "
        "concept_ids.",
    )
    evidence: dict[str, Any] = Field(
        default_factory=dict,
        description="Why it was chosen: `caller: true` for the request's concept_ids, else the "
        "linker's cosine, dense_rank, bm25, lexical_rank and structure.",
    )
    prerequisites: list[ChainStep] = Field(
        default_factory=list,
        description="Its prerequisite chain, foundations first (the first concept of each "
        "taxonomy only).",
    )


class GraphContext(BaseModel):
    """The graph neighbourhood of the request: matched concepts, prerequisites, misconceptions."""

    model_config = ConfigDict(extra="forbid")

    concepts: list[dict[str, Any]] = Field(
        default_factory=list,
        description="The graph's seed concepts: id, name, kind, seed (request, code, linked, "
        "text or evidence) and weight.",
    )
    prerequisites: list[list[str]] = Field(
        default_factory=list, description="Prerequisite paths of concept ids, foundations first."
    )
    misconceptions: list[dict[str, Any]] = Field(
        default_factory=list, description="Misconceptions linked to those concepts."
    )


class RerankerInfo(BaseModel):
    """Whether the cross-encoder ran, and why not when it did not."""

    model_config = ConfigDict(extra="forbid")

    applied: bool = Field(default=False, description="Whether the hits were reranked.")
    model: str | None = Field(default=None, description="The reranker model, when it ran.")
    reason: str | None = Field(
        default=None, description="Why it did not run (turned off, not asked for, ...)."
    )


class RankerInfo(BaseModel):
    """Whether the learned final score ran, why not, and how many misconceptions it added
    that no source had found (`proposed`: such hits have `found_by: ["ranker"]`)."""

    model_config = ConfigDict(extra="forbid")

    applied: bool = Field(
        default=False, description="Whether the learned ranker scored the misconceptions."
    )
    model: str | None = Field(default=None, description="The ranker model, when it ran.")
    reason: str | None = Field(default=None, description="Why it did not run.")
    proposed: int = Field(
        default=0, description="Misconceptions it added that no source had found."
    )


class DiagnosisFinding(BaseModel):
    """A bug rule that reproduces the student's answer, and the misconception it names."""

    model_config = ConfigDict(extra="forbid")

    misconception_id: str = Field(description="The misconception the rule names.")
    rule: str = Field(description="The bug rule's name.")
    reproduced_answer: str = Field(
        description="The answer the rule computes, which is the student's."
    )
    explanation: str = Field(
        description="How the error gives that answer, in words a tutor can use."
    )


class AnswerCheck(BaseModel):
    """The problem and the student's answer the diagnosis read, and whether it is right. A
    message about an answer that says too little is not guessed at: `missing` names what it
    did not say (`problem`, `answer`) and `correct` is null."""

    model_config = ConfigDict(extra="forbid")

    problem: str | None = Field(default=None, description="The problem as read.")
    student_answer: str | None = Field(default=None, description="The student's answer as read.")
    correct: bool | None = Field(
        default=None,
        description="Whether the answer is right; null when the problem or answer is missing, "
        "or (in a dialogue) when the problem is one the rules cannot judge.",
    )
    correct_answer: str | None = Field(
        default=None, description="The answer the diagnosis computed, when it could."
    )
    missing: list[Literal["problem", "answer"]] = Field(
        default_factory=list,
        description="What the message did not say, so nothing was diagnosed: problem, answer.",
    )


class ScopeInfo(BaseModel):
    """Whether the scope model ran (why not, when it did not) and what it said:
    `in_scope` is the calibrated probability that the message is school math the
    curriculum covers (`confidence/scope.py`)."""

    model_config = ConfigDict(extra="forbid")

    applied: bool = Field(default=False, description="Whether the scope model ran.")
    model: str | None = Field(default=None, description="The scope model, when it ran.")
    reason: str | None = Field(default=None, description="Why it did not run.")
    in_scope: float | None = Field(
        default=None,
        description="The calibrated probability that the message is school math the "
        "curriculum covers.",
    )
    threshold: float | None = Field(
        default=None,
        description='Below it, the packet says `no_match` ("off_topic"; "not_english" for '
        "a message in another language that reads as maths).",
    )


class GradeInfo(BaseModel):
    """The student's grade as the linker used it: the request's (`source` "request"), or
    the band the standards model reads from the message (`source` "inferred", with the
    model's probability for that band); null fields when neither is known.

    >>> GradeInfo(grade="3", band="3-5", source="request").band
    '3-5'
    """

    model_config = ConfigDict(extra="forbid")

    grade: Grade | None = Field(
        default=None, description="The request's grade (K, 1-8, HS), when it gave one."
    )
    band: Band | None = Field(default=None, description="The grade band: K-2, 3-5, 6-8 or HS.")
    source: Literal["request", "inferred"] | None = Field(
        default=None,
        description="request: the request's grade; inferred: read from the message.",
    )
    probability: float | None = Field(
        default=None, description="inferred only: the model's probability for that band."
    )


class LanguageInfo(BaseModel):
    """The message's language as the refiner read it. Only English is supported: a message
    read as another language (`english` false, `detected` its ISO 639-1 code when known) is
    not spell-corrected into English words, `note` says what that means for the packet, and
    the packet is flagged (`no_match_reason` `not_english`, or `off_topic` when neither the
    scope model nor the maths signals that survive the language read it as maths)."""

    model_config = ConfigDict(extra="forbid")

    english: bool = Field(default=True, description="Whether the message reads as English.")
    detected: str | None = Field(
        default=None,
        description="Its ISO 639-1 language code, when another language was detected.",
    )
    note: str | None = Field(
        default=None, description="What a non-English message means for the packet."
    )
