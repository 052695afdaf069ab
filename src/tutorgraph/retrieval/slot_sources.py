"""What a packet's slots choose from (issue 62): the content of the standards the message is
linked to, read from the graph, beside the message's own nearest content.

The standards are the request's own Common Core `concept_ids`, else the linker's, each with
the linker's probability (`slot_score.standard_probabilities`); a standard whose
misconception the bug rules reproduced from the student's answer joins them (`diagnosed`:
the error may belong to a prerequisite, whose lesson then teaches what went wrong). For each,
the graph gives its own documents (the project's lesson, worked examples and practice,
aligned to it by id), the documents of the sections and constructs aligned with it (for the
`ALIGNED_STANDARDS` most likely standards), and its misconceptions (its own and those of its
constructs). Every candidate knows its grade (`content_level.item_level`): the graph's
`aligned_with` edges into the candidates' concepts are read in the same rounds.

Two rounds of graph calls (three when the bug rules reproduced the answer), each call under
the graph's timeout and breaker; on an embedded graph they are dictionary look-ups.

>>> content = await standard_content(graph, standards, findings=[], message_items=[])
... # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeVar, cast

from tutorgraph.linking.alignment import ALIGNED
from tutorgraph.linking.linker import STRUCTURED as COMMON_CORE
from tutorgraph.retrieval.concepts import PRACTICE_KINDS
from tutorgraph.retrieval.content_level import item_level, standards_level
from tutorgraph.retrieval.slot_score import Via, standard_probabilities
from tutorgraph.stores.items import document_item, misconception_item
from tutorgraph.stores.lessons import LESSON_KINDS
from tutorgraph.stores.protocols import EdgeDirection, GraphStore, IndexItem, MisconceptionLink
from tutorgraph_client.models.curriculum import Document, Misconception, Prerequisite
from tutorgraph_client.models.grade import GRADES
from tutorgraph_client.models.packet import Hit, LinkedConcept

__all__ = [
    "ALIGNED_STANDARDS",
    "MIN_PROBABILITY",
    "STANDARDS",
    "Candidate",
    "Guard",
    "StandardContent",
    "WeightedStandard",
    "standard_content",
    "weighted_standards",
]

T = TypeVar("T")

# The linked standards whose content is read (at most), and the least probability one needs.
STANDARDS: Final = 10
MIN_PROBABILITY: Final = 0.005
# The most likely standards whose aligned sections' and constructs' documents are read too
# (an OpenStax section holds about 23 lessons and 134 exercises: the first few suffice).
ALIGNED_STANDARDS: Final = 2
# Documents read per standard (its own: one lesson, two or three worked examples, five or
# more practice items) and through its alignments, per kind of slot.
OWN_PER_STANDARD: Final = 12
ALIGNED_DOCUMENTS: Final = 30

Why = Literal["caller", "linked", "diagnosed"]


@dataclass(frozen=True)
class WeightedStandard:
    """A standard the slots draw on, with the linker's probability that it is the
    message's (the caller's own standards share 1; a diagnosed one takes the first's)."""

    id: str
    probability: float
    why: Why = "linked"


def weighted_standards(
    linked: Sequence[LinkedConcept], top: int = STANDARDS
) -> list[WeightedStandard]:
    """The request's Common Core standards with their probabilities, most likely first: the
    caller's own (sharing 1), else the linker's (`standard_probabilities` of its scores),
    at most `top`, none below `MIN_PROBABILITY`.

    >>> c = [LinkedConcept(id=f"ccss:{i}", taxonomy="common-core", name=i, score=s)
    ...      for i, s in (("a", 0.9), ("b", 0.8), ("c", 0.1))]
    >>> [(w.id, round(w.probability, 2)) for w in weighted_standards(c)]
    [('ccss:a', 0.84), ('ccss:b', 0.16)]
    """
    core = [c for c in linked if c.taxonomy == COMMON_CORE]
    caller = [c for c in core if c.evidence.get("caller")]
    if caller:
        share = 1.0 / len(caller)
        return [WeightedStandard(c.id, share, "caller") for c in caller[:top]]
    scored = [c for c in core if c.score is not None]
    probabilities = standard_probabilities([c.score for c in scored if c.score is not None])
    out = [
        WeightedStandard(c.id, p, "linked")
        for c, p in zip(scored, probabilities, strict=True)
        if p >= MIN_PROBABILITY
    ]
    return out[:top]


@dataclass(frozen=True)
class Candidate:
    """One thing a slot may hold: the item, where it came from (`via` and `standard`, with
    that standard's `probability`), its grade (`level`, K = 0 ... HS = 9, None unknown),
    whether it is its standard's own (aligned by id), the message hit it is (for the
    message's content), and a misconception's full-text relevance to the query."""

    item: IndexItem
    via: Via
    standard: str | None = None
    probability: float = 0.0
    level: int | None = None
    own: bool = False
    hit: Hit | None = None
    relevance: float = 0.0


@dataclass(frozen=True)
class StandardContent:
    """The standards' documents and misconceptions as candidates, and the grade of every
    concept the rounds read (`levels`: a concept's highest aligned standard's grade)."""

    standards: list[WeightedStandard]
    documents: list[Candidate] = field(default_factory=list)
    misconceptions: list[Candidate] = field(default_factory=list)
    levels: dict[str, int] = field(default_factory=dict)
    # The standard each aligned concept (a section, a construct) came through.
    through: dict[str, str] = field(default_factory=dict)
    # Every standard each aligned concept is joined to.
    aligned_to: dict[str, list[str]] = field(default_factory=dict)

    def owned(self, concept_ids: Sequence[str]) -> float:
        """The standards' probability mass that owns a record of `concept_ids`: the standards
        among them, and those their concepts are aligned with (each once).

        >>> a = WeightedStandard("ccss:a", 0.7)
        >>> content = StandardContent([a], aligned_to={"c": ["ccss:a"]})
        >>> content.owned(["c"]), content.owned(["d"])
        (0.7, 0.0)
        """
        weight = self._probabilities
        owners = {c for c in concept_ids if c in weight}
        owners |= {s for c in concept_ids for s in self.aligned_to.get(c, [])}
        return float(sum(weight.get(s, 0.0) for s in owners))

    @functools.cached_property
    def _probabilities(self) -> dict[str, float]:
        return {s.id: s.probability for s in self.standards}

    @functools.cached_property
    def _weights(self) -> dict[str, WeightedStandard]:
        return {s.id: s for s in self.standards}

    def standard_of(self, concept_ids: Sequence[str]) -> tuple[str | None, float, bool]:
        """The most likely standard among `concept_ids` (its own) or that one of them is
        aligned with, its probability, and whether it is its own; (None, 0, False) when none.

        >>> StandardContent([WeightedStandard("ccss:a", 0.7)]).standard_of(["ccss:a"])
        ('ccss:a', 0.7, True)
        """
        weight = self._weights
        standard, own = _standard_of(concept_ids, weight, self.through)
        return standard, weight[standard].probability if standard else 0.0, own


Guard = Callable[[Awaitable[Any]], Awaitable[Any]]


@dataclass(frozen=True)
class _Reads:
    """The graph's reads, each under `guard` (the stage's timeout and breaker); an empty
    question is not asked."""

    graph: GraphStore
    guard: Guard | None

    async def _call(self, awaitable: Awaitable[T]) -> T:
        if self.guard is None:
            return await awaitable
        return cast(T, await self.guard(awaitable))

    async def edges(self, ids: Sequence[str], direction: EdgeDirection) -> list[Prerequisite]:
        return await self._call(self.graph.edges_of(ids, direction)) if ids else []

    async def misconceptions(self, ids: Sequence[str]) -> list[Misconception]:
        return await self._call(self.graph.get_misconceptions(ids)) if ids else []

    async def documents(
        self, ids: Sequence[str], kinds: Collection[str], limit: int
    ) -> list[Document]:
        if not ids:
            return []
        return await self._call(self.graph.documents_of(ids, sorted(kinds), limit))

    async def links(self, ids: Sequence[str], query: str | None) -> list[MisconceptionLink]:
        return await self._call(self.graph.misconceptions_of(ids, query)) if ids else []


async def standard_content(
    graph: GraphStore,
    standards: Sequence[WeightedStandard],
    *,
    findings: Sequence[str],
    message_items: Sequence[IndexItem],
    query: str | None = None,
    misconceptions: Literal["all", "first", "none"] = "first",
    guard: Guard | None = None,
) -> StandardContent:
    """The candidates of `standards` (plus the standards of the misconceptions the bug rules
    reproduced, `findings`), and the grades of the concepts of `message_items` (the
    message's own candidates); the misconceptions of `misconceptions` standards (every
    one, the first, or none).

    `guard` wraps each graph call (the stage's timeout and breaker)."""
    read = _Reads(graph, guard)
    weighted = list(standards)
    ids = [s.id for s in weighted]
    # Round 1: the standards' alignments, the reproduced misconceptions, and the grades of
    # the message's concepts (the standards their `aligned_with` edges come from).
    asked = sorted({c for it in message_items for c in it.concept_ids if not c.startswith("ccss:")})
    out_edges, diagnosed, message_edges = await asyncio.gather(
        read.edges(ids, "out"), read.misconceptions(list(findings)), read.edges(asked, "in")
    )
    aligned: dict[str, list[str]] = {}
    for edge in out_edges:
        if edge.relation == ALIGNED:
            aligned.setdefault(edge.prerequisite_id, []).append(edge.concept_id)
    standards_of: dict[str, list[str]] = {}
    _aligned_standards(message_edges, standards_of)
    # Round 2, for a reproduced answer only: its misconceptions' constructs' standards.
    constructs = sorted(
        {c for m in diagnosed for c in m.concept_ids if not c.startswith("ccss:")}
        - set(standards_of)
    )
    _aligned_standards(await read.edges(constructs, "in"), standards_of)
    # A reproduced misconception's standard joins at the first's probability, or is raised
    # to it when linked lower: its lesson teaches what went wrong, a prerequisite's included.
    top = weighted[0].probability if weighted else 1.0
    for m in diagnosed:
        for c in m.concept_ids:
            for std in [c] if c.startswith("ccss:") else standards_of.get(c, []):
                if std not in ids:
                    ids.append(std)
                    weighted.append(WeightedStandard(std, top, "diagnosed"))
                else:
                    at = ids.index(std)
                    if weighted[at].probability < top:
                        weighted[at] = WeightedStandard(std, top, "diagnosed")
    # Round 3: the standards' own documents, the aligned concepts' documents, misconceptions
    # and the grades of the aligned concepts.
    near = [c for w in weighted[:ALIGNED_STANDARDS] for c in aligned.get(w.id, [])]
    all_aligned = sorted({c for w in weighted for c in aligned.get(w.id, [])})
    own_docs, near_lessons, near_practice, links, near_edges = await asyncio.gather(
        read.documents(ids, LESSON_KINDS | PRACTICE_KINDS, OWN_PER_STANDARD * len(ids)),
        read.documents(near, LESSON_KINDS, ALIGNED_DOCUMENTS),
        read.documents(near, PRACTICE_KINDS, ALIGNED_DOCUMENTS),
        read.links(_misconception_concepts(misconceptions, ids, aligned), query),
        read.edges([c for c in all_aligned if c not in standards_of], "in"),
    )
    _aligned_standards(near_edges, standards_of)
    levels = {c: lv for c, s in standards_of.items() if (lv := standards_level(s)) is not None}
    weight = {w.id: w for w in weighted}
    via_of = {c: w.id for w in reversed(weighted) for c in aligned.get(w.id, [])}
    documents = _documents([*own_docs, *near_lessons, *near_practice], weight, via_of, levels)
    aligned_to: dict[str, list[str]] = {}
    for w in weighted:
        for c in aligned.get(w.id, []):
            aligned_to.setdefault(c, []).append(w.id)
    found_misconceptions = _misconceptions(links, weight, via_of, levels)
    return StandardContent(weighted, documents, found_misconceptions, levels, via_of, aligned_to)


def _misconception_concepts(
    which: Literal["all", "first", "none"], ids: Sequence[str], aligned: dict[str, list[str]]
) -> list[str]:
    """The concepts whose misconceptions are read: `which` standards and their aligned ones."""
    chosen = list(ids) if which == "all" else list(ids[:1]) if which == "first" else []
    return [*chosen, *sorted({c for s in chosen for c in aligned.get(s, [])})]


def _aligned_standards(edges: Sequence[Prerequisite], into: dict[str, list[str]]) -> None:
    """Each concept's standards, from `aligned_with` edges into it."""
    for edge in edges:
        if edge.relation == ALIGNED and edge.prerequisite_id.startswith("ccss:"):
            into.setdefault(edge.concept_id, []).append(edge.prerequisite_id)


def _standard_of(
    concept_ids: Sequence[str], weight: dict[str, WeightedStandard], via_of: dict[str, str]
) -> tuple[str | None, bool]:
    """The most likely of the standards a record is about (by id: its own) or came through
    (an aligned concept's), and whether it is its own."""
    own = [c for c in concept_ids if c in weight]
    if own:
        return max(own, key=lambda s: (weight[s].probability, s)), True
    through = [via_of[c] for c in concept_ids if c in via_of]
    if through:
        return max(through, key=lambda s: (weight[s].probability, s)), False
    return None, False


_LEVELS: Final = {g: i for i, g in enumerate(GRADES)}


def _level(
    record_grade: str | None, concept_ids: Sequence[str], levels: dict[str, int]
) -> int | None:
    """A record's grade (as a record writes it, K ... HS), else `item_level`'s."""
    if record_grade is not None and record_grade in _LEVELS:
        return _LEVELS[record_grade]
    return item_level(concept_ids, levels)


def _documents(
    docs: Sequence[Document],
    weight: dict[str, WeightedStandard],
    via_of: dict[str, str],
    levels: dict[str, int],
) -> list[Candidate]:
    out: dict[str, Candidate] = {}
    for doc in docs:
        if doc.id in out:
            continue
        standard, own = _standard_of(doc.concept_ids, weight, via_of)
        if standard is None:
            continue
        out[doc.id] = Candidate(
            document_item(doc),
            "standard",
            standard,
            weight[standard].probability,
            _level(doc.grade, doc.concept_ids, levels),
            own,
        )
    return list(out.values())


def _misconceptions(
    links: Sequence[MisconceptionLink],
    weight: dict[str, WeightedStandard],
    via_of: dict[str, str],
    levels: dict[str, int],
) -> list[Candidate]:
    out: dict[str, Candidate] = {}
    for link in links:
        m, concept = link.misconception, link.concept_id
        standard = concept if concept in weight else via_of.get(concept)
        if standard is None:
            continue
        known = out.get(m.id)
        if known is not None and known.probability >= weight[standard].probability:
            continue
        out[m.id] = Candidate(
            misconception_item(m),
            "standard",
            standard,
            weight[standard].probability,
            _level(m.grade, m.concept_ids, levels),
            concept == standard,
            relevance=link.relevance,
        )
    return list(out.values())
