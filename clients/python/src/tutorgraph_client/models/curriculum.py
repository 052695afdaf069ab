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

    # When the source last changed the record (with a time zone); every store keeps it, and
    # two stores returning one id at two versions is a temporal conflict (the latest wins).
    updated_at: AwareDatetime | None = None


class Concept(_Record):
    """A node of the curriculum graph: a standard, a topic, a construct or a textbook section.

    >>> Concept(id="ccss:6.NS.A.1", name="6.NS.A.1", description="Interpret quotients of fractions",
    ...         kind="standard", source="learning-commons", license="CC-BY-4.0").kind
    'standard'
    """

    id: CurriculumId
    name: str = Field(min_length=1)
    description: str = ""
    kind: ConceptKind
    grade: str | None = None
    parent_ids: list[CurriculumId] = Field(default_factory=list)
    source: str = Field(min_length=1)
    license: str = Field(min_length=1)


class Prerequisite(_Record):
    """A directed edge between concepts: `prerequisite_id` comes before `concept_id`, or, for
    `aligned_with`, is the standard that `concept_id` (a construct or section) teaches; an
    alignment carries the `score` and the `method` that made it."""

    prerequisite_id: CurriculumId
    concept_id: CurriculumId
    relation: PrerequisiteRelation
    source: str = Field(min_length=1)
    score: float | None = None
    method: str | None = None


class Misconception(_Record):
    """A known misconception, linked to the concepts whose questions reveal it."""

    id: CurriculumId
    text: str = Field(min_length=1)
    concept_ids: list[CurriculumId] = Field(default_factory=list)
    source: str = Field(min_length=1)
    license: str = Field(min_length=1)


class Document(_Record):
    """A searchable text: an explanation chunk, a worked example, an exercise or a question."""

    id: CurriculumId
    kind: DocumentKind
    title: str = ""
    text: str = Field(min_length=1)
    concept_ids: list[CurriculumId] = Field(default_factory=list)
    source: str = Field(min_length=1)
    license: str = Field(min_length=1)


CurriculumRecord = Concept | Prerequisite | Misconception | Document


def is_noncommercial(record: CurriculumRecord) -> bool:
    """Eedi-derived records are CC BY-NC (or unverified, treated as non-commercial)."""
    return record.source.startswith("eedi")
