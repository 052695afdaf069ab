"""The records one source loader yields, before they are merged into a bundle."""

from __future__ import annotations

from dataclasses import dataclass, field

from tutorgraph.models.curriculum import Concept, Document, Misconception, Prerequisite

__all__ = ["SourceRecords"]


@dataclass
class SourceRecords:
    """Records produced by one source loader (or several, merged with `extend`)."""

    concepts: list[Concept] = field(default_factory=list)
    prerequisites: list[Prerequisite] = field(default_factory=list)
    misconceptions: list[Misconception] = field(default_factory=list)
    documents: list[Document] = field(default_factory=list)

    def extend(self, other: SourceRecords) -> None:
        self.concepts.extend(other.concepts)
        self.prerequisites.extend(other.prerequisites)
        self.misconceptions.extend(other.misconceptions)
        self.documents.extend(other.documents)
