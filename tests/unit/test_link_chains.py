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
    aligned = next(
        p
        for p in load_trusted(BUNDLE, documents=False).prerequisites
        if p.relation == "aligned_with" and p.concept_id.startswith("eedi:construct:")
    )
    standard_chains = asyncio.run(graph.prerequisite_chains([aligned.prerequisite_id], 1))
    lead, second = _linked(aligned.concept_id, "eedi"), _linked("eedi:construct:1", "eedi")
    (got, untouched) = asyncio.run(with_chains(graph, [lead, second]))
    assert not untouched.prerequisites  # only the first of a taxonomy carries a chain
    first = got.prerequisites[-1]  # the nearest comes last (foundations first)
    assert (first.id, first.depth, first.relation) == (aligned.prerequisite_id, 1, "aligned_with")
    assert first.description  # by name and description, not a bare id
    deeper = {s.id for s in got.prerequisites if s.depth == 2}
    assert deeper >= {p.path[0] for p in standard_chains}


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
