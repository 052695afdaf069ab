"""Graph search: seed concepts -> prerequisite chains, misconceptions and related documents.

Seeds are the request's `concept_ids` and standard codes named in the text (weight 1), then
the concept linker's choice (`linked`: id -> weight, chosen by the search stage; issue 47:
one source of concepts per request), and the concepts of the best dense hits (`evidence`,
weight `EVIDENCE_SEED_WEIGHT / rank`, summed per concept and capped). Only an index without
a linker (no card vectors), or a request whose linking failed, seeds from the concepts whose
names match the text instead (weight = match score relative to the best match, scaled by
`TEXT_SEED_WEIGHT`). A refiner's `key_concepts` seed nothing. A hit's graph score sums the
weights of the seeds it hangs off, discounted by `HOP_DISCOUNT` per prerequisite hop, so a
misconception shared by several seeds outranks one that is not; a misconception's weight is
raised by up to `RELEVANCE_BONUS` by its full-text relevance to the query.

Which searches run is the query type's choice (`GRAPH_PLANS`).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from tutorgraph.retrieval.candidates import Candidate
from tutorgraph.retrieval.router import QueryType, Route
from tutorgraph.stores.items import concept_item, document_item, misconception_item
from tutorgraph.stores.protocols import (
    MAX_TEXT_SEEDS,
    MIN_RELATIVE_MATCH,
    GraphStore,
    IndexItem,
    MisconceptionLink,
    PrerequisitePath,
)
from tutorgraph_client.models.curriculum import STANDARD_CODE_RE, Concept, Document
from tutorgraph_client.models.packet import LinkedConcept
from tutorgraph_client.models.packet_info import Taxonomy
from tutorgraph_client.models.request import RetrievalRequest

__all__ = [
    "GRAPH_PLANS",
    "LINKED_SEEDS",
    "LINKED_SEED_WEIGHT",
    "GraphPlan",
    "GraphSearchResult",
    "graph_plan",
    "graph_search",
    "linked_seeds",
]

TEXT_SEED_WEIGHT = 0.5
HOP_DISCOUNT = 0.5
# Documents among the best dense hits point at the concepts the question is about.
MAX_EVIDENCE = 10
EVIDENCE_SEED_WEIGHT = 0.5
DOCUMENT_KINDS = frozenset({"question", "worked_example", "exercise", "explanation"})
# Full-text relevance can lift a misconception by up to this fraction of its seed's weight.
RELEVANCE_BONUS = 0.5
# Related documents rank below the concept they hang off.
DOCUMENT_DISCOUNT = 0.5

SeedKind = Literal["request", "code", "linked", "text", "evidence"]


@dataclass(frozen=True)
class GraphPlan:
    """Which graph searches run for a query type."""

    prerequisite_depth: int  # 0 = none
    misconceptions: bool
    documents: tuple[str, ...] = ()  # kinds of documents linked to the seeds


GRAPH_PLANS: dict[QueryType, GraphPlan] = {
    "concept_lookup": GraphPlan(prerequisite_depth=1, misconceptions=True),
    "prerequisite": GraphPlan(prerequisite_depth=2, misconceptions=False),
    "misconception": GraphPlan(prerequisite_depth=0, misconceptions=True),
    "similar_problems": GraphPlan(
        prerequisite_depth=0,
        misconceptions=False,
        documents=("exercise", "question", "worked_example"),
    ),
}


@dataclass
class GraphSearchResult:
    candidates: list[Candidate] = field(default_factory=list)
    concepts: list[dict[str, Any]] = field(default_factory=list)
    prerequisites: list[list[str]] = field(default_factory=list)
    misconceptions: list[dict[str, Any]] = field(default_factory=list)

    def scope(self) -> set[str]:
        """The concepts the request is about (not the evidence guesses) and their prerequisites."""
        ids = {c["id"] for c in self.concepts if c["seed"] != "evidence"}
        ids.update(p[0] for p in self.prerequisites if p[-1] in ids)
        return ids


# How many of the linker's concepts seed the graph, per taxonomy, best first, and their
# weight (the caller's concepts weigh 1). The curriculum's misconceptions hang off Eedi
# constructs; a seeded standard or section only adds its concept hit, which crowds out
# teaching. On the whole-packet dev messages (`research/scripts/probes/graph_seeds.py`) the first
# construct alone did best (teach@10 0.570; 3 or 5 constructs 0.564, 10 0.558, adding a
# standard and a section 0.552-0.564; misconception@10 0.679 in every variant, the learned
# ranker orders them); the weight (0.25-1) changed nothing. DESIGN 2, Search.
LINKED_SEEDS: dict[Taxonomy, int] = {"eedi": 1}
LINKED_SEED_WEIGHT = 0.5


def linked_seeds(linked: Sequence[LinkedConcept]) -> dict[str, float]:
    """The linker's concepts that seed the graph search (concept id -> weight): the first
    `LINKED_SEEDS[taxonomy]` of each taxonomy at `LINKED_SEED_WEIGHT`. The caller's own
    concepts are seeded as the request's, not here."""
    taken: dict[str, int] = {}
    out: dict[str, float] = {}
    for c in linked:
        if c.evidence.get("caller"):
            continue
        n = taken.get(c.taxonomy, 0)
        if n < LINKED_SEEDS.get(c.taxonomy, 0):
            taken[c.taxonomy] = n + 1
            out[c.id] = LINKED_SEED_WEIGHT
    return out


async def graph_search(
    graph: GraphStore,
    query: str,
    concept_ids: Sequence[str],
    *,
    plan: GraphPlan = GRAPH_PLANS["concept_lookup"],
    limit: int = 50,
    evidence: Sequence[IndexItem] = (),
    linked: Mapping[str, float] | None = None,
) -> GraphSearchResult:
    """Search the curriculum graph around the request's, the linker's and the evidence's
    concepts.

    `linked` (concept id -> seed weight; may be empty) stands in for matching concept names
    in `query`; None (no linker) matches them.
    """
    seeds: dict[str, float] = {cid: 1.0 for cid in concept_ids}
    kinds: dict[str, SeedKind] = dict.fromkeys(concept_ids, "request")
    if linked is not None:
        # A standard code named in the text still weighs as much as a requested concept.
        if STANDARD_CODE_RE.search(query):
            for m in await graph.search_concepts(query, k=MAX_TEXT_SEEDS):
                if m.exact and m.concept.id not in seeds:
                    seeds[m.concept.id], kinds[m.concept.id] = 1.0, "code"
        for cid, w in linked.items():
            if cid not in seeds:
                seeds[cid], kinds[cid] = w, "linked"
    else:
        for m in await graph.search_concepts(query, k=MAX_TEXT_SEEDS):
            if m.concept.id in seeds:
                continue
            if m.exact:  # a standard code in the text weighs as much as a requested concept
                seeds[m.concept.id], kinds[m.concept.id] = 1.0, "code"
            elif m.score >= MIN_RELATIVE_MATCH:
                seeds[m.concept.id], kinds[m.concept.id] = TEXT_SEED_WEIGHT * m.score, "text"
    from_evidence: dict[str, float] = defaultdict(float)
    for rank, item in enumerate(evidence[:MAX_EVIDENCE], start=1):
        if item.kind in DOCUMENT_KINDS:
            for cid in item.concept_ids:
                from_evidence[cid] += EVIDENCE_SEED_WEIGHT / rank
    for cid, w in sorted(from_evidence.items()):
        if cid not in seeds:
            seeds[cid], kinds[cid] = min(w, EVIDENCE_SEED_WEIGHT), "evidence"

    seed_ids = sorted(seeds)

    async def chains() -> tuple[list[PrerequisitePath], list[Concept]]:
        if not (seed_ids and plan.prerequisite_depth):
            return [], []
        paths = await graph.prerequisite_chains(seed_ids, plan.prerequisite_depth)
        # Alignments join taxonomies; a prerequisite chain here follows prerequisites only.
        paths = [p for p in paths if "aligned_with" not in p.relations]
        pre_ids = sorted({p.path[0] for p in paths} - set(seeds))
        return paths, await graph.get_concepts(pre_ids)

    async def links_of() -> list[MisconceptionLink]:
        if not (seed_ids and plan.misconceptions):
            return []
        return await graph.misconceptions_of(seed_ids, query)

    async def documents_of() -> list[Document]:
        if not (seed_ids and plan.documents):
            return []
        return await graph.documents_of(seed_ids, plan.documents, limit)

    # The searches after seeding are independent: on a server they overlap, so the stage
    # waits for three round trips (text match, chains, their concepts), not six.
    seed_concepts, (paths, pre_concepts), links, documents = await asyncio.gather(
        graph.get_concepts(seed_ids), chains(), links_of(), documents_of()
    )
    concepts = {c.id: c for c in [*seed_concepts, *pre_concepts]}

    scores: dict[str, float] = defaultdict(float)
    items: dict[str, IndexItem] = {}
    best_path: dict[str, tuple[str, ...]] = {}

    def add(item: IndexItem, score: float, path: tuple[str, ...]) -> None:
        scores[item.id] += score
        items[item.id] = item
        if item.id not in best_path or len(path) < len(best_path[item.id]):
            best_path[item.id] = path

    for cid in seed_ids:
        c = concepts.get(cid)
        if c is not None:
            add(concept_item(c), seeds[cid], (cid,))
    for p in paths:
        pre = concepts.get(p.path[0])
        if pre is not None and pre.id not in seeds:
            add(
                concept_item(pre),
                seeds[p.path[-1]] * HOP_DISCOUNT**p.depth,
                p.path,
            )
    top_relevance = max((link.relevance for link in links), default=0.0) or 1.0
    for link in links:
        misc, cid = link.misconception, link.concept_id
        item = misconception_item(misc)
        # Among one concept's misconceptions, the one whose text matches the query goes first.
        bonus = 1.0 + RELEVANCE_BONUS * link.relevance / top_relevance
        add(item, seeds[cid] * bonus, (cid, misc.id))
    for doc in documents:
        item = document_item(doc)
        cid = next(c for c in doc.concept_ids if c in seeds)
        add(item, seeds[cid] * DOCUMENT_DISCOUNT, (cid, doc.id))

    ranked = sorted(scores, key=lambda i: (-round(scores[i], 9), i))[:limit]
    return GraphSearchResult(
        candidates=[
            Candidate(items[i], round(scores[i], 6), rank, best_path[i])
            for rank, i in enumerate(ranked, start=1)
        ],
        concepts=[
            {
                "id": c.id,
                "name": c.name,
                "kind": c.kind,
                "seed": kinds[c.id],
                "weight": round(seeds[c.id], 6),
            }
            for c in (concepts[i] for i in seed_ids if i in concepts)
        ],
        prerequisites=[list(p.path) for p in paths],
        misconceptions=[
            {
                "id": link.misconception.id,
                "text": link.misconception.text,
                "concept_id": link.concept_id,
            }
            for link in links
        ],
    )


def graph_plan(request: RetrievalRequest, route: Route) -> GraphPlan:
    """The query type's graph plan, with the request's prerequisite hops when it sets them."""
    plan = GRAPH_PLANS[route.analysis.query_type]
    if request.prerequisite_hops is None:
        return plan
    return replace(plan, prerequisite_depth=request.prerequisite_hops)
