"""The records one source loader yields, before they are merged into a bundle."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tutorgraph.models.limits import RecordKind, record_over_limit
from tutorgraph_client.models.curriculum import Concept, Document, Misconception, Prerequisite

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

    def merged(self, new: SourceRecords) -> SourceRecords:
        """These records updated by `new`: a record of `new` replaces the one with its id,
        the others stay; edges whose ends neither holds are dropped (the graph stays closed).

        >>> from tutorgraph_client.models.curriculum import Concept
        >>> def c(name): return Concept(id="ccss:1.OA.A.1", kind="standard", name=name,
        ...     source="s", license="CC-BY-4.0")
        >>> old, new = SourceRecords(concepts=[c("old")]), SourceRecords(concepts=[c("new")])
        >>> [c.name for c in old.merged(new).concepts]
        ['new']
        """

        def by_id(olds: list[Any], news: list[Any]) -> list[Any]:
            merged = {r.id: r for r in olds}
            merged.update({r.id: r for r in news})
            return list(merged.values())

        def edge_key(p: Prerequisite) -> tuple[str, str, str]:
            return (p.prerequisite_id, p.concept_id, p.relation)

        edges = {edge_key(p): p for p in self.prerequisites}
        edges.update({edge_key(p): p for p in new.prerequisites})
        concepts = by_id(self.concepts, new.concepts)
        known = {c.id for c in concepts}
        return SourceRecords(
            concepts=concepts,
            prerequisites=[
                p for p in edges.values() if p.prerequisite_id in known and p.concept_id in known
            ],
            misconceptions=by_id(self.misconceptions, new.misconceptions),
            documents=by_id(self.documents, new.documents),
        )

    def over_limits(self) -> list[str]:
        """Why each record over a limit of `tutorgraph.models.limits` is (one line each,
        naming the record and the field); empty when every record fits. A bundle's records
        are checked as it is read; this is for records built in code.

        >>> from tutorgraph_client.models.curriculum import Concept
        >>> SourceRecords(concepts=[Concept(id="my:c", kind="construct", name="x" * 501,
        ...     source="s", license="l")]).over_limits()
        ["concept 'my:c': name has 501 characters, at most 500"]
        """
        groups: tuple[tuple[RecordKind, list[Any]], ...] = (
            ("concept", self.concepts),
            ("prerequisite", self.prerequisites),
            ("misconception", self.misconceptions),
            ("document", self.documents),
        )
        return [
            reason
            for kind, records in groups
            for r in records
            if (reason := record_over_limit(kind, vars(r))) is not None
        ]

    def node_ids(self) -> list[str]:
        """The ids of every concept, document and misconception (the graph's nodes)."""
        return [r.id for rs in (self.concepts, self.documents, self.misconceptions) for r in rs]
