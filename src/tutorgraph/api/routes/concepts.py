"""`GET /v1/concepts...`: the curriculum graph, read directly (no retrieval pipeline).

The graph is the only source here, so a graph store that fails or times out is a 503
(`SourceUnavailableError`); an id it does not hold is a 404.

>>> httpx.get(f"{base}/v1/concepts/ccss:6.NS.A.1/prerequisites", params={"depth": 2},
...           headers={"X-API-Key": key}).json()["paths"][0]["path"]  # doctest: +SKIP
['ccss:5.NF.B.3', 'ccss:6.NS.A.1']
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Path, Query

from tutorgraph.api.deps import GenerationDep, StateDep, require_read
from tutorgraph.api.errors import ERROR_RESPONSES, ConceptNotFoundError
from tutorgraph.api.live_index import Generation
from tutorgraph.errors import InvalidRequestError, SourceUnavailableError
from tutorgraph.retrieval.concepts import (
    PRACTICE_KINDS,
    ConceptMisconception,
    LinkedDocument,
    aligned_with,
    concept_misconceptions,
    linked_documents,
)
from tutorgraph.stores.guard import attempt
from tutorgraph.stores.lessons import LESSON_KINDS
from tutorgraph.stores.protocols import GraphStore
from tutorgraph_client.models.api import (
    ConceptMatchOut,
    ConceptSearchResponse,
    ErrorResponse,
    LinkedDocumentOut,
    MisconceptionOut,
    MisconceptionsResponse,
    PrerequisitePathOut,
    PrerequisitesResponse,
    TeachingResponse,
)
from tutorgraph_client.models.curriculum import Concept
from tutorgraph_client.models.request import MAX_QUERY_CHARS

__all__ = ["router"]

T = TypeVar("T")

router = APIRouter(
    prefix="/v1/concepts",
    tags=["concepts"],
    dependencies=[Depends(require_read)],
    responses={
        **ERROR_RESPONSES,
        503: {"model": ErrorResponse, "description": "The graph store did not answer"},
    },
)

ConceptId = Annotated[
    str,
    Path(
        min_length=1, max_length=200, description="e.g. ccss:6.NS.A.1", examples=["ccss:6.NS.A.1"]
    ),
]
_NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorResponse, "description": "Unknown concept id"}
}


async def _graph(state: StateDep, generation: Generation, call: Awaitable[T]) -> T:
    """One graph call under the source timeout and the graph's circuit breaker (the served
    retriever's); a store that fails, is too slow or whose breaker is open means no source
    can answer (503); anything else is a bug (500)."""
    tried = await attempt(
        "graph",
        call,
        state.settings.source_timeout_s,
        breaker=generation.retriever.breakers.graph,
        degrade_bugs=False,
    )
    if tried.value is None:
        raise SourceUnavailableError(
            f"the graph store did not answer ({tried.reason})",
            details={"degraded_sources": ["graph"]},
        )
    return tried.value


async def _concept(
    state: StateDep, generation: Generation, graph: GraphStore, concept_id: str
) -> Concept:
    found = await _graph(state, generation, graph.get_concepts([concept_id]))
    if not found:
        raise ConceptNotFoundError(concept_id)
    return found[0]


@router.get("", response_model=ConceptSearchResponse, summary="Find concepts by name or code")
async def search_concepts(
    generation: GenerationDep,
    state: StateDep,
    q: Annotated[
        str,
        Query(
            min_length=1,
            max_length=MAX_QUERY_CHARS,
            description="Text to match concept names against; a standard code matches exactly.",
            examples=["fractions"],
        ),
    ],
    limit: Annotated[
        int, Query(ge=1, le=50, description="How many concepts at most.", examples=[5])
    ] = 10,
) -> ConceptSearchResponse:
    text = q.strip()
    if not text:
        raise InvalidRequestError(
            "query.q: must not be blank",
            details={"errors": [{"loc": ["query", "q"], "msg": "blank", "type": "value_error"}]},
        )
    matches = await _graph(state, generation, generation.index.graph.search_concepts(text, limit))
    return ConceptSearchResponse(
        query=text,
        results=[ConceptMatchOut(concept=m.concept, score=m.score, exact=m.exact) for m in matches],
    )


@router.get("/{concept_id}", response_model=Concept, responses=_NOT_FOUND, summary="One concept")
async def get_concept(concept_id: ConceptId, generation: GenerationDep, state: StateDep) -> Concept:
    return await _concept(state, generation, generation.index.graph, concept_id)


@router.get(
    "/{concept_id}/prerequisites",
    response_model=PrerequisitesResponse,
    responses=_NOT_FOUND,
    summary="Prerequisite chains ending at a concept",
)
async def get_prerequisites(
    concept_id: ConceptId,
    generation: GenerationDep,
    state: StateDep,
    depth: Annotated[
        int, Query(ge=1, le=2, description="How many prerequisite hops: 1 or 2.", examples=[2])
    ] = 1,
) -> PrerequisitesResponse:
    graph = generation.index.graph
    await _concept(state, generation, graph, concept_id)
    chains = await _graph(state, generation, graph.prerequisite_chains([concept_id], depth))
    ids = sorted({cid for chain in chains for cid in chain.path})
    concepts = await _graph(state, generation, graph.get_concepts(ids)) if ids else []
    return PrerequisitesResponse(
        concept_id=concept_id,
        depth=depth,
        paths=[
            PrerequisitePathOut(path=list(c.path), relations=list(c.relations), depth=c.depth)
            for c in chains
        ],
        concepts=sorted(concepts, key=lambda c: c.id),
    )


@router.get(
    "/{concept_id}/misconceptions",
    response_model=MisconceptionsResponse,
    responses=_NOT_FOUND,
    summary="Known misconceptions of a concept",
)
async def get_misconceptions(
    concept_id: ConceptId,
    generation: GenerationDep,
    state: StateDep,
    q: Annotated[
        str | None,
        Query(
            max_length=MAX_QUERY_CHARS,
            description="Optional text (e.g. a student's answer) to order them by relevance.",
            examples=["I added the tops and the bottoms: 1/2 + 1/3 = 2/5"],
        ),
    ] = None,
) -> MisconceptionsResponse:
    # A standard's misconceptions are those of the constructs aligned with it (`via`).
    graph = generation.index.graph
    await _concept(state, generation, graph, concept_id)
    query = q.strip() if q and q.strip() else None
    found = await _graph(state, generation, concept_misconceptions(graph, concept_id, query))
    return MisconceptionsResponse(
        concept_id=concept_id, query=query, misconceptions=_misconception_out(found)
    )


def _misconception_out(found: Sequence[ConceptMisconception]) -> list[MisconceptionOut]:
    return [
        MisconceptionOut(
            misconception=m.misconception,
            relevance=m.relevance,
            via=m.via,
            alignment_score=m.alignment_score,
        )
        for m in found
    ]


def _documents_out(found: Sequence[LinkedDocument]) -> list[LinkedDocumentOut]:
    return [LinkedDocumentOut(document=d.document, via=d.via) for d in found]


@router.get(
    "/{concept_id}/teaching",
    response_model=TeachingResponse,
    responses=_NOT_FOUND,
    summary="What to teach a concept with: lessons, worked examples, practice, misconceptions",
)
async def get_teaching(
    concept_id: ConceptId,
    generation: GenerationDep,
    state: StateDep,
    limit: Annotated[
        int,
        Query(ge=1, le=100, description="Lessons, and practice items, at most.", examples=[10]),
    ] = 10,
) -> TeachingResponse:
    # A K-8 standard's own lesson, worked examples and practice come first (aligned to it by
    # id, at its grade); then those of the constructs and sections aligned with it (`via`).
    graph = generation.index.graph
    concept = await _concept(state, generation, graph, concept_id)

    async def read() -> tuple[
        list[LinkedDocument], list[LinkedDocument], list[ConceptMisconception]
    ]:
        aligned = await aligned_with(graph, concept_id)
        return await asyncio.gather(
            linked_documents(graph, concept_id, LESSON_KINDS, limit, aligned=aligned),
            linked_documents(graph, concept_id, PRACTICE_KINDS, limit, aligned=aligned),
            concept_misconceptions(graph, concept_id, aligned=aligned),
        )

    lessons, practice, misconceptions = await _graph(state, generation, read())
    return TeachingResponse(
        concept=concept,
        lessons=_documents_out(lessons),
        practice=_documents_out(practice),
        misconceptions=_misconception_out(misconceptions),
    )
