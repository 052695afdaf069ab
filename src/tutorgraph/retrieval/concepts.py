"""A concept read from the graph store alone: what `GET /v1/concepts/{id}/...` and
`tutorgraph concept ID` answer (no retrieval pipeline, no model).

A Common Core standard holds no misconception, lesson or exercise of its own: Eedi's
misconceptions hang off its constructs, and the lessons and exercises off OpenStax's sections.
What joins them is the `aligned_with` edge (standard -> construct or section, with the cosine
that made it; `linking/alignment.py`). So a concept's misconceptions and documents are its
own, then those of the concepts aligned with it, best aligned first, each saying which
concept it came through (`via`); a misconception reached both ways is listed once, by the
best way.

>>> found = await concept_misconceptions(graph, "ccss:5.NF.A.1")  # doctest: +SKIP
>>> found[0].via, found[0].alignment_score  # doctest: +SKIP
('eedi:construct:428', 0.7986)
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final

from tutorgraph.linking.alignment import ALIGNED
from tutorgraph.stores.lessons import LESSON_KINDS
from tutorgraph.stores.protocols import EdgeDirection, GraphStore
from tutorgraph_client.models.curriculum import Concept, Document, Misconception

__all__ = [
    "PRACTICE_KINDS",
    "Aligned",
    "ChainStep",
    "ConceptMisconception",
    "ConceptView",
    "LinkedDocument",
    "aligned_with",
    "chain",
    "concept_misconceptions",
    "concept_view",
    "linked_documents",
]

# The documents a concept is practised with (it teaches with `lessons.LESSON_KINDS`).
PRACTICE_KINDS: Final = frozenset({"exercise", "question"})
# A reader meets a concept's explanation before its worked examples, and those before practice.
_KIND_ORDER: Final = {"explanation": 0, "worked_example": 1, "exercise": 2, "question": 3}


@dataclass(frozen=True)
class Aligned:
    """A concept joined to the one asked for by an `aligned_with` edge: for a standard, a
    construct or section that teaches it; for a construct or section, its standard."""

    concept_id: str
    score: float | None
    method: str | None


@dataclass(frozen=True)
class ConceptMisconception:
    """A misconception of a concept: its full-text relevance to the query (0 without one),
    and, when it hangs off an aligned concept rather than the concept itself, that concept
    (`via`) and the alignment's score."""

    misconception: Misconception
    relevance: float = 0.0
    via: str | None = None
    alignment_score: float | None = None


@dataclass(frozen=True)
class LinkedDocument:
    """A lesson or practice item of a concept, and the aligned concept it came through."""

    document: Document
    via: str | None = None


@dataclass(frozen=True)
class ChainStep:
    """A concept `depth` hops before (a prerequisite) or after (it builds on the concept)
    the one asked for, by an edge of `relation` to `next_id`, the step nearer the concept."""

    concept_id: str
    relation: str
    depth: int
    next_id: str


async def aligned_with(
    graph: GraphStore, concept_id: str, direction: EdgeDirection = "out"
) -> list[Aligned]:
    """The concepts an `aligned_with` edge joins to `concept_id`: out of a standard (what
    teaches it) or into a construct or section (its standard); best score first, then id."""
    edges = await graph.edges_of([concept_id], direction)
    found = [
        Aligned(e.concept_id if direction == "out" else e.prerequisite_id, e.score, e.method)
        for e in edges
        if e.relation == ALIGNED
    ]
    return sorted(found, key=lambda a: (-(a.score or 0.0), a.concept_id))


def _order(found: ConceptMisconception) -> tuple[float, int, float, str, str]:
    """Most relevant to the query first; then the concept's own, then through the best
    alignment; then by id."""
    own = found.via is None
    return (
        -found.relevance,
        0 if own else 1,
        -(found.alignment_score or 0.0),
        found.via or "",
        found.misconception.id,
    )


async def concept_misconceptions(
    graph: GraphStore,
    concept_id: str,
    query: str | None = None,
    *,
    aligned: Sequence[Aligned] | None = None,
) -> list[ConceptMisconception]:
    """The misconceptions of `concept_id`: its own and those of the concepts aligned with it
    (a standard's constructs), each once, ordered by relevance to `query`, then its own
    first, then by alignment score (`aligned`: the concept's alignments, when the caller
    has read them already)."""
    if aligned is None:
        aligned = await aligned_with(graph, concept_id)
    scores = {a.concept_id: a.score for a in aligned if a.concept_id != concept_id}
    links = await graph.misconceptions_of([concept_id, *scores], query)
    found = sorted(
        (
            ConceptMisconception(
                link.misconception,
                link.relevance,
                None if link.concept_id == concept_id else link.concept_id,
                None if link.concept_id == concept_id else scores.get(link.concept_id),
            )
            for link in links
        ),
        key=_order,
    )
    seen: set[str] = set()
    out = []
    for f in found:
        if f.misconception.id not in seen:
            seen.add(f.misconception.id)
            out.append(f)
    return out


async def linked_documents(
    graph: GraphStore,
    concept_id: str,
    kinds: Collection[str],
    limit: int,
    *,
    aligned: Sequence[Aligned] = (),
) -> list[LinkedDocument]:
    """At most `limit` documents of `kinds` about the concept, then about the concepts
    aligned with it (best aligned first), each once, saying which concept it came through;
    explanations first, then worked examples, then practice, for each concept."""
    order = [concept_id, *(a.concept_id for a in aligned if a.concept_id != concept_id)]
    docs = await graph.documents_of(order, sorted(kinds), limit)
    rank = {cid: i for i, cid in enumerate(order)}
    out = []
    for doc in docs:
        via = min((c for c in doc.concept_ids if c in rank), key=rank.__getitem__, default=None)
        out.append(LinkedDocument(doc, None if via in (None, concept_id) else via))
    return sorted(
        out,
        key=lambda d: (
            rank.get(d.via or concept_id, 0),
            _KIND_ORDER.get(d.document.kind, len(_KIND_ORDER)),
            d.document.id,
        ),
    )


async def chain(
    graph: GraphStore, concept_id: str, direction: EdgeDirection, depth: int
) -> list[ChainStep]:
    """The prerequisite chain `depth` hops into the concept ("in": what it builds on) or out
    of it ("out": what builds on it), alignments left out; each concept once, at its
    nearest depth, then by relation and id."""
    steps: list[ChainStep] = []
    seen = {concept_id}
    frontier = [concept_id]
    for hop in range(1, depth + 1):
        if not frontier:
            break
        edges = await graph.edges_of(frontier, direction)
        nxt: list[str] = []
        for e in edges:
            if e.relation == ALIGNED:
                continue
            near, far = (
                (e.concept_id, e.prerequisite_id)
                if direction == "in"
                else (e.prerequisite_id, e.concept_id)
            )
            if far in seen:
                continue
            seen.add(far)
            nxt.append(far)
            steps.append(ChainStep(far, e.relation, hop, near))
        frontier = nxt
    return steps


@dataclass(frozen=True)
class ConceptView:
    """Everything the graph holds about one concept, for a person to read."""

    concept: Concept
    # Every concept named below, by id (for their names).
    names: dict[str, Concept]
    prerequisites: list[ChainStep]
    builds_on_it: list[ChainStep]
    # For a standard, what teaches it; for a construct or section, its standard.
    aligned: list[Aligned]
    misconceptions: list[ConceptMisconception]
    lessons: list[LinkedDocument]
    practice: list[LinkedDocument]


async def concept_view(
    graph: GraphStore,
    concept_id: str,
    *,
    depth: int = 2,
    documents: int = 10,
    query: str | None = None,
) -> ConceptView | None:
    """The concept, its chain both ways (`depth` hops), its alignments, its misconceptions
    and at most `documents` lessons and practice items (its own, then through what is
    aligned with it); None for an id the graph does not hold."""
    found = await graph.get_concepts([concept_id])
    if not found:
        return None
    out_aligned, in_aligned = await asyncio.gather(
        aligned_with(graph, concept_id, "out"), aligned_with(graph, concept_id, "in")
    )
    before, after, misconceptions, lessons, practice = await asyncio.gather(
        chain(graph, concept_id, "in", depth),
        chain(graph, concept_id, "out", depth),
        concept_misconceptions(graph, concept_id, query, aligned=out_aligned),
        linked_documents(graph, concept_id, LESSON_KINDS, documents, aligned=out_aligned),
        linked_documents(graph, concept_id, PRACTICE_KINDS, documents, aligned=out_aligned),
    )
    aligned = [*out_aligned, *in_aligned]
    ids = {s.concept_id for s in (*before, *after)} | {a.concept_id for a in aligned}
    ids |= {m.via for m in misconceptions if m.via} | {
        d.via for d in (*lessons, *practice) if d.via
    }
    names = {c.id: c for c in await graph.get_concepts(sorted(ids))} if ids else {}
    return ConceptView(
        found[0],
        names,
        before,
        after,
        aligned,
        misconceptions,
        lessons,
        practice,
    )
