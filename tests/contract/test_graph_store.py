"""One behavioural suite for every `GraphStore`, checked against an oracle computed from the
records themselves: the embedded store always, Neo4j when `TUTORGRAPH_NEO4J_URI` is set.

The Neo4j leg ingests the committed slices into the configured database
(`TUTORGRAPH_NEO4J_DATABASE`, default `neo4j`) after deleting every tutorgraph node in it:
point it at a database you can spare.
"""

from __future__ import annotations

import asyncio
import os
from collections import defaultdict
from collections.abc import Iterator

import pytest

from tutorgraph.models.curriculum import Concept, Document, Misconception
from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.embedded_graph import EmbeddedGraphStore
from tutorgraph.stores.protocols import GraphStore, GraphWriter

pytestmark = pytest.mark.integration

NEO4J_URI = os.environ.get("TUTORGRAPH_NEO4J_URI")
HOSTILE = [
    'what is (a+b)^2 ? "x:y" AND OR NOT',
    "*:*",
    '\\" OR 1=1 //',
    "title:[a TO z] {x} ~2 fraction^10",
    "-",
    "&& || !",
    "",
]


class Oracle:
    """What any store must answer, derived from the records directly (later ids win)."""

    def __init__(self, records: SourceRecords) -> None:
        self.concepts: dict[str, Concept] = {c.id: c for c in records.concepts}
        self.misconceptions: dict[str, Misconception] = {m.id: m for m in records.misconceptions}
        self.documents: dict[str, Document] = {d.id: d for d in records.documents}
        self.edges: dict[str, set[tuple[str, str]]] = defaultdict(set)  # concept -> {(pre, rel)}
        for p in records.prerequisites:
            if p.prerequisite_id in self.concepts and p.concept_id in self.concepts:
                self.edges[p.concept_id].add((p.prerequisite_id, p.relation))

    def concepts_first(self) -> str:
        """A concept id (never a misconception: asked for as one, it is skipped)."""
        return min(self.concepts)

    def paths(self, cid: str, depth: int) -> set[tuple[tuple[str, ...], tuple[str, ...]]]:
        out = set()
        frontier = [((cid,), ())]
        for _ in range(depth):
            nxt = []
            for path, rels in frontier:
                for pre, rel in self.edges.get(path[0], ()):
                    if pre not in path:
                        p = ((pre, *path), (rel, *rels))
                        out.add(p)
                        nxt.append(p)
            frontier = nxt
        return out

    def links(self, cids: list[str]) -> set[tuple[str, str]]:
        return {
            (m.id, cid)
            for m in self.misconceptions.values()
            for cid in m.concept_ids
            if cid in cids and cid in self.concepts
        }

    def docs(self, cids: list[str], kinds: set[str]) -> set[str]:
        return {
            d.id
            for d in self.documents.values()
            if d.kind in kinds and any(c in cids and c in self.concepts for c in d.concept_ids)
        }


@pytest.fixture(scope="module")
def oracle(full_slice_records: SourceRecords) -> Oracle:
    return Oracle(full_slice_records)


def _neo4j_store(records: SourceRecords) -> GraphStore:
    from tutorgraph.stores.neo4j_driver import neo4j_driver
    from tutorgraph.stores.neo4j_graph import Neo4jGraphStore

    assert NEO4J_URI is not None
    driver = neo4j_driver(
        NEO4J_URI,
        os.environ.get("TUTORGRAPH_NEO4J_USER", "neo4j"),
        os.environ.get("TUTORGRAPH_NEO4J_PASSWORD", ""),
    )
    store = Neo4jGraphStore(
        driver, database=os.environ.get("TUTORGRAPH_NEO4J_DATABASE", "neo4j"), timeout_s=30
    )

    async def load() -> None:
        await store.verify()
        await store.clear()
        await store.ensure_schema()
        await store.upsert(records)

    asyncio.run(load())
    return store


@pytest.fixture(
    scope="module",
    params=[
        "embedded",
        pytest.param(
            "neo4j",
            marks=pytest.mark.skipif(
                NEO4J_URI is None,
                reason="set TUTORGRAPH_NEO4J_URI (and _USER, _PASSWORD, _DATABASE) to a Neo4j 5 "
                "server to run the Neo4j leg; none can be installed on this machine",
            ),
        ),
    ],
)
def store(
    request: pytest.FixtureRequest, full_slice_records: SourceRecords
) -> Iterator[GraphStore]:
    if request.param == "embedded":
        s: GraphStore = EmbeddedGraphStore(full_slice_records)
    else:
        s = _neo4j_store(full_slice_records)
    yield s
    asyncio.run(s.aclose())


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


def test_satisfies_the_protocol(store: GraphStore) -> None:
    assert isinstance(store, GraphStore)


def test_unknown_concepts(store: GraphStore, oracle: Oracle) -> None:
    a, b = sorted(oracle.concepts)[:2]
    assert run(store.unknown_concepts([a, "test:nope:1", b, "ccss:9.ZZ.Z.9"])) == [
        "test:nope:1",
        "ccss:9.ZZ.Z.9",
    ]
    assert run(store.unknown_concepts([])) == []


def test_get_concepts_round_trips_every_field(store: GraphStore, oracle: Oracle) -> None:
    ids = sorted(oracle.concepts)[::7][:25]
    got = run(store.get_concepts([*ids, "test:nope:1"]))
    assert got == [oracle.concepts[i] for i in ids]


def test_get_misconceptions_round_trips_in_the_order_asked(
    store: GraphStore, oracle: Oracle
) -> None:
    ids = sorted(oracle.misconceptions)[::5][:20][::-1]
    got = run(store.get_misconceptions([*ids, "test:nope:1", ids[0], oracle.concepts_first()]))
    assert got == [oracle.misconceptions[i] for i in ids]
    assert run(store.get_misconceptions([])) == []


def test_a_standard_code_is_an_exact_first_match(store: GraphStore, oracle: Oracle) -> None:
    code = next(i for i in sorted(oracle.concepts) if i.startswith("ccss:"))
    text = code.removeprefix("ccss:")
    for query in (f"what does {text} say", f"what does {text.lower()} say"):
        first = run(store.search_concepts(query, k=3))[0]
        assert first.concept == oracle.concepts[code]
        assert first.exact and first.score == 1.0


def test_a_concept_name_finds_its_concept(store: GraphStore, oracle: Oracle) -> None:
    named = [
        c for c in sorted(oracle.concepts.values(), key=lambda c: c.id) if len(c.name.split()) >= 4
    ][:10]
    assert named
    for concept in named:
        matches = run(store.search_concepts(concept.name, k=5))
        assert 0 < len(matches) <= 5
        assert concept.id in [m.concept.id for m in matches]
        scores = [m.score for m in matches]
        assert scores == sorted(scores, reverse=True)
        assert all(0 < s <= 1.0 for s in scores) and scores[0] == 1.0


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_neither_breaks_nor_injects(store: GraphStore, text: str) -> None:
    matches = run(store.search_concepts(text, k=5))
    assert len(matches) <= 5
    assert all(not m.exact for m in matches)


def test_prerequisite_chains_match_the_records(store: GraphStore, oracle: Oracle) -> None:
    targets = sorted(oracle.edges)[:20]
    assert targets, "the slice has prerequisite edges"
    for depth in (1, 2):
        got = run(store.prerequisite_chains(targets, depth))
        want = {p for cid in targets for p in oracle.paths(cid, depth)}
        assert {(p.path, p.relations) for p in got} == want
        assert got == sorted(got, key=lambda p: (p.path[-1], p.depth, p.path))
        assert all(1 <= p.depth <= depth for p in got)


def test_prerequisite_depth_is_bounded(store: GraphStore, oracle: Oracle) -> None:
    cid = sorted(oracle.edges)[0]
    for depth in (0, 3, -1):
        with pytest.raises(ValueError):
            run(store.prerequisite_chains([cid], depth))
    assert run(store.prerequisite_chains(["test:nope:1"], 1)) == []


def test_misconceptions_of_match_the_records(store: GraphStore, oracle: Oracle) -> None:
    cids = sorted({c for m in oracle.misconceptions.values() for c in m.concept_ids})[:15]
    got = run(store.misconceptions_of(cids))
    assert {(link.misconception.id, link.concept_id) for link in got} == oracle.links(cids)
    assert all(link.misconception == oracle.misconceptions[link.misconception.id] for link in got)
    assert all(link.relevance == 0.0 for link in got)
    assert got == sorted(got, key=lambda link: (link.concept_id, link.misconception.id))


def test_a_query_ranks_the_matching_misconception_first(store: GraphStore, oracle: Oracle) -> None:
    cid = sorted({c for m in oracle.misconceptions.values() for c in m.concept_ids})[0]
    links = run(store.misconceptions_of([cid]))
    target = links[0].misconception
    scored = run(store.misconceptions_of([cid], target.text))
    best = max(scored, key=lambda link: link.relevance)
    assert best.relevance > 0
    assert best.misconception.text == target.text


def test_documents_of_filters_kinds_and_limits(store: GraphStore, oracle: Oracle) -> None:
    cids = sorted({c for d in oracle.documents.values() for c in d.concept_ids})[:10]
    kinds = sorted({d.kind for d in oracle.documents.values()})
    got = run(store.documents_of(cids, kinds, 1000))
    assert {d.id for d in got} == oracle.docs(cids, set(kinds))
    assert len({d.id for d in got}) == len(got)
    assert all(d == oracle.documents[d.id] for d in got)
    assert len(run(store.documents_of(cids, kinds, 2))) == min(2, len(got))
    assert run(store.documents_of(cids, ["no-such-kind"], 10)) == []


# -- the write port ------------------------------------------------------------------------


def _empty_writer(kind: str) -> GraphStore:
    if kind == "embedded":
        return EmbeddedGraphStore(SourceRecords())
    return _neo4j_store(SourceRecords())  # cleared, with its schema


@pytest.mark.parametrize(
    "kind",
    [
        "embedded",
        pytest.param(
            "neo4j",
            marks=pytest.mark.skipif(NEO4J_URI is None, reason="no TUTORGRAPH_NEO4J_URI"),
        ),
    ],
)
def test_the_write_port_upserts_and_prunes(kind: str, full_slice_records: SourceRecords) -> None:
    """Upsert two halves of the records, then prune to the first: the reads follow."""
    store = _empty_writer(kind)
    assert isinstance(store, GraphWriter)
    r = full_slice_records
    half = len(r.concepts) // 2
    first = SourceRecords(concepts=r.concepts[:half], misconceptions=r.misconceptions)
    second = SourceRecords(
        concepts=r.concepts[half:], prerequisites=r.prerequisites, documents=r.documents
    )
    try:
        run(store.ensure_schema())
        run(store.upsert(first))
        counts = run(store.upsert(second))
        assert counts["concepts"] == len(second.concepts)
        every = sorted({c.id for c in r.concepts})
        assert run(store.unknown_concepts(every)) == []
        # Edges written with the second half find both of their ends from either half.
        oracle = Oracle(r)
        cid = next(c for c in every if oracle.edges.get(c))
        assert run(store.prerequisite_chains([cid], 1))

        keep = [c.id for c in first.concepts] + [m.id for m in first.misconceptions]
        pruned = run(store.prune(keep))
        assert pruned == len({c.id for c in second.concepts} | {d.id for d in r.documents})
        gone = sorted({c.id for c in second.concepts} - set(keep))
        assert run(store.unknown_concepts(gone)) == gone
        assert run(store.unknown_concepts(sorted(set(keep) & set(every)))) == []
        assert (
            run(store.documents_of(every, ["explanation", "worked_example", "exercise"], 50)) == []
        )
    finally:
        run(store.aclose())
