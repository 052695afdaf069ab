"""The link stage's chains over the bundled curriculum's graph (the embedded store): a
standard's prerequisites by name, and a construct reaching the Common Core progressions
through its aligned_with edge."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tutorgraph.ingest.bundle import load_trusted
from tutorgraph.models.records import SourceRecords
from tutorgraph.retrieval.chains import with_chains
from tutorgraph.retrieval.graph_search import GRAPH_PLANS, graph_search
from tutorgraph.stores.embedded_graph import EmbeddedGraphStore
from tutorgraph_client.models.packet import LinkedConcept

pytestmark = pytest.mark.unit

BUNDLE = Path(__file__).resolve().parents[2] / "data" / "curriculum"


@pytest.fixture(scope="module")
def graph() -> EmbeddedGraphStore:
    records = load_trusted(BUNDLE, documents=False)
    return EmbeddedGraphStore(SourceRecords(records.concepts, records.prerequisites))


def _linked(cid: str, taxonomy: str) -> LinkedConcept:
    return LinkedConcept(id=cid, taxonomy=taxonomy, name=cid, score=0.5)


def test_a_construct_reaches_its_standards_progression(graph: EmbeddedGraphStore) -> None:
    edges = load_trusted(BUNDLE, documents=False).prerequisites
    construct = next(
        p.concept_id
        for p in edges
        if p.relation == "aligned_with" and p.concept_id.startswith("eedi:construct:")
    )
    # A construct may teach several standards (the judged alignment): it reaches each.
    standards = {
        p.prerequisite_id
        for p in edges
        if p.relation == "aligned_with" and p.concept_id == construct
    }
    standard_chains = asyncio.run(graph.prerequisite_chains(sorted(standards), 1))
    lead, second = _linked(construct, "eedi"), _linked("eedi:construct:1", "eedi")
    (got, untouched) = asyncio.run(with_chains(graph, [lead, second]))
    assert not untouched.prerequisites  # only the first of a taxonomy carries a chain
    first = [s for s in got.prerequisites if s.depth == 1]
    assert {(s.id, s.relation) for s in first} == {(s, "aligned_with") for s in standards}
    assert got.prerequisites[-1] in first  # the nearest comes last (foundations first)
    assert all(s.description for s in first)  # by name and description, not a bare id
    deeper = {s.id for s in got.prerequisites if s.depth == 2}
    assert deeper >= {p.path[0] for p in standard_chains} - standards


def test_retrieval_chains_follow_prerequisites_only(graph: EmbeddedGraphStore) -> None:
    """A construct seeded by the caller keeps its graph neighbourhood: the alignment edges
    join taxonomies for the linker and are not prerequisites of the construct."""
    aligned = next(
        p
        for p in load_trusted(BUNDLE, documents=False).prerequisites
        if p.relation == "aligned_with"
    )
    result = asyncio.run(
        graph_search(graph, "", [aligned.concept_id], plan=GRAPH_PLANS["prerequisite"], limit=20)
    )
    assert all(aligned.prerequisite_id not in p for p in result.prerequisites)
