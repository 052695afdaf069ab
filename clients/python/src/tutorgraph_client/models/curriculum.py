"""Curriculum records: the four record types of the bundle (design section 4)."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, StringConstraints

__all__ = [
    "CURRICULUM_ID_PATTERN",
    "STANDARD_CODE_RE",
    "Concept",
    "ConceptKind",
    "CurriculumId",
    "CurriculumRecord",
    "Document",
    "DocumentKind",
    "Misconception",
    "MisconceptionExample",
    "Prerequisite",
    "PrerequisiteRelation",
    "is_noncommercial",
]

# Ids are prefixed by their source: ccss:, lc:, eedi:, openstax:. The rest is free but printable.
CURRICULUM_ID_PATTERN = r"^(ccss|lc|eedi|openstax|[a-z][a-z0-9_-]*):\S+$"

# Common Core codes as people write them: 6.NS.A.1, 8.EE.C.7b, HSA-REI.B.4, K.CC.A.1, HS.MP3.
STANDARD_CODE_RE = re.compile(
    r"\b(?:[1-8K]|HS[A-Z]?)[.-][A-Z]{1,4}(?:[.-][A-Z0-9]{1,3}){0,3}\b|\b(?:[K1-8]|HS)\.MP\d\b",
    re.IGNORECASE,
)

CurriculumId = Annotated[str, StringConstraints(pattern=CURRICULUM_ID_PATTERN, max_length=200)]

ConceptKind = Literal["standard", "grouping", "subject", "construct", "section"]
# `aligned_with` joins taxonomies (a Common Core standard -> an Eedi construct or an OpenStax
# section that teaches it); the others are prerequisite relations proper.
PrerequisiteRelation = Literal["builds_towards", "relates_to", "prepares_for", "aligned_with"]
DocumentKind = Literal["explanation", "worked_example", "exercise", "question"]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    updated_at: AwareDatetime | None = Field(
        default=None,
        description="When the source last changed the record (ISO 8601, with a time zone). "
        "Two stores returning one id at two versions is a temporal conflict: the latest wins.",
    )


class Concept(_Record):
    """A node of the curriculum graph: a standard, a topic, a construct or a textbook section.

    >>> Concept(id="ccss:6.NS.A.1", name="6.NS.A.1", description="Interpret quotients of fractions",
    ...         kind="standard", source="learning-commons", license="CC-BY-4.0").kind
    'standard'
    """

    id: CurriculumId = Field(
        description="The concept's id, prefixed by its taxonomy: ccss:6.NS.A.1, "
        "eedi:construct:..., openstax:...",
        examples=["ccss:6.NS.A.1"],
    )
    name: str = Field(
        min_length=1, description="A short name; for a standard, its code (6.NS.A.1)."
    )
    description: str = Field(
        default="", description="What the concept is about, as the source states it."
    )
    kind: ConceptKind = Field(
        description="standard (a Common Core standard), grouping (a cluster or domain), "
        "subject, construct (an Eedi construct) or section (an OpenStax section)."
    )
    grade: str | None = Field(
        default=None, description="The school grade it belongs to (K, 1-8, HS), when known."
    )
    parent_ids: list[CurriculumId] = Field(
        default_factory=list,
        description="The concepts it sits under (a standard's cluster, a section's chapter).",
    )
    source: str = Field(
        min_length=1, description="Where the record comes from (learning-commons, eedi, ...)."
    )
    license: str = Field(
        min_length=1, description="The record's licence (CC-BY-4.0; Eedi's are CC BY-NC)."
    )


class Prerequisite(_Record):
    """A directed edge between concepts: `prerequisite_id` comes before `concept_id`, or, for
    `aligned_with`, is the standard that `concept_id` (a construct or section) teaches; an
    alignment carries the `score` and the `method` that made it."""

    prerequisite_id: CurriculumId = Field(
        description="The concept that comes first (for aligned_with: the standard taught)."
    )
    concept_id: CurriculumId = Field(description="The concept that builds on it.")
    relation: PrerequisiteRelation = Field(
        description="builds_towards, relates_to and prepares_for are prerequisite relations; "
        "aligned_with joins a construct or section to the standard it teaches."
    )
    source: str = Field(min_length=1, description="Where the edge comes from.")
    score: float | None = Field(
        default=None, description="An alignment's score (aligned_with only)."
    )
    method: str | None = Field(
        default=None, description="How an alignment was made (aligned_with only)."
    )


class MisconceptionExample(BaseModel):
    """A problem and the wrong answer a misconception gives to it.

    >>> MisconceptionExample(problem="8 + 3 = ?", wrong_answer="10", right_answer="11").wrong_answer
    '10'
    """

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    problem: str = Field(min_length=1, max_length=1_000, description="The problem posed.")
    wrong_answer: str = Field(
        min_length=1, max_length=200, description="The answer the misconception gives."
    )
    right_answer: str = Field(min_length=1, max_length=200, description="The right answer.")


class Misconception(_Record):
    """A known misconception, linked to the concepts whose questions reveal it.

    >>> Misconception(id="tutorgraph:misconception:x", text="Counts the start when counting on",
    ...     grade="1", source="tutorgraph", license="CC-BY-4.0").grade
    '1'
    """

    id: CurriculumId = Field(
        description="The misconception's id (eedi:misconception:1667).",
        examples=["eedi:misconception:1667"],
    )
    text: str = Field(min_length=1, description="The misconception, in one sentence.")
    description: str = Field(
        default="", description="What the student does and why, in a few plain sentences."
    )
    examples: list[MisconceptionExample] = Field(
        default_factory=list, description="Problems with the wrong answer it gives."
    )
    grade: str | None = Field(
        default=None, description="The lowest grade (K, 1-8, HS) of its standards, when known."
    )
    concept_ids: list[CurriculumId] = Field(
        default_factory=list, description="The concepts whose questions reveal it."
    )
    source: str = Field(min_length=1, description="Where the record comes from (eedi, ...).")
    license: str = Field(
        min_length=1, description="The record's licence (Eedi's are CC BY-NC: non-commercial)."
    )


class Document(_Record):
    """A searchable text: an explanation chunk, a worked example, an exercise or a question."""

    id: CurriculumId = Field(description="The document's id (openstax:m1:chunk:0).")
    kind: DocumentKind = Field(description="explanation, worked_example, exercise or question.")
    title: str = Field(default="", description="Its title, when it has one.")
    text: str = Field(min_length=1, description="The text that is searched and shown.")
    concept_ids: list[CurriculumId] = Field(
        default_factory=list, description="The concepts it teaches or practises."
    )
    grade: str | None = Field(
        default=None,
        description="The grade (K, 1-8, HS) it is written for, when known: a lesson written "
        "for a standard carries the standard's grade.",
    )
    source: str = Field(min_length=1, description="Where the record comes from.")
    license: str = Field(min_length=1, description="The record's licence.")


CurriculumRecord = Concept | Prerequisite | Misconception | Document


def is_noncommercial(record: CurriculumRecord) -> bool:
    """Eedi-derived records are CC BY-NC (or unverified, treated as non-commercial)."""
    return record.source.startswith("eedi")
