"""One behavioural suite for every `GraphStore`, checked against an oracle computed from the
records themselves: the embedded store, and `Neo4jGraphStore` on a real Bolt server.

The Bolt server is ArcadeDB (`arcadedb-embedded`, a dev extra), started for the module on
free loopback ports; with `TUTORGRAPH_NEO4J_URI` set, that server is used instead. The Neo4j
leg deletes every tutorgraph node in the database (`TUTORGRAPH_NEO4J_DATABASE`, default
`neo4j`) before it ingests the committed slices: point it at a database you can spare.

Every test runs on the module's one event loop: an async driver belongs to the loop that
first used it.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio

from hostile_text import HOSTILE
from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.arcadedb_sql import ArcadeDBSql
from tutorgraph.stores.embedded_graph import EmbeddedGraphStore
from tutorgraph.stores.neo4j_driver import neo4j_driver
from tutorgraph.stores.neo4j_graph import Neo4jGraphStore
from tutorgraph.stores.protocols import GraphStore, GraphWriter
from tutorgraph_client.models.curriculum import Concept, Document, Misconception, Prerequisite

pytestmark = [pytest.mark.integration, pytest.mark.asyncio(loop_scope="module")]

NEO4J_URI = os.environ.get("TUTORGRAPH_NEO4J_URI")


class Oracle:
    """What any store must answer, derived from the records directly (later ids win)."""

    def __init__(self, records: SourceRecords) -> None:
        self.concepts: dict[str, Concept] = {c.id: c for c in records.concepts}
        self.misconceptions: dict[str, Misconception] = {m.id: m for m in records.misconceptions}
        self.documents: dict[str, Document] = {d.id: d for d in records.documents}
        self.edges: dict[str, set[tuple[str, str]]] = defaultdict(set)  # concept -> {(pre, rel)}
        # (prerequisite, concept, relation) -> the edge's record (later ones win)
        self.edge_records: dict[tuple[str, str, str], Prerequisite] = {}
        for p in records.prerequisites:
            if p.prerequisite_id in self.concepts and p.concept_id in self.concepts:
                self.edges[p.concept_id].add((p.prerequisite_id, p.relation))
                self.edge_records[(p.prerequisite_id, p.concept_id, p.relation)] = p

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


@dataclass(frozen=True)
class Bolt:
    """Where the Neo4j leg runs: a real Bolt server, and ArcadeDB's HTTP API if it is one."""

    uri: str
    user: str
    password: str
    database: str
    http_url: str | None = None


@pytest.fixture(scope="module")
def bolt(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bolt]:
    if NEO4J_URI is not None:
        yield Bolt(
            NEO4J_URI,
            os.environ.get("TUTORGRAPH_NEO4J_USER", "neo4j"),
            os.environ.get("TUTORGRAPH_NEO4J_PASSWORD", ""),
            os.environ.get("TUTORGRAPH_NEO4J_DATABASE", "neo4j"),
            os.environ.get("TUTORGRAPH_ARCADEDB_HTTP_URL"),
        )
        return
    from tests.contract.arcadedb_server import arcadedb_server

    try:
        server = arcadedb_server(Path(tmp_path_factory.mktemp("arcadedb")))
        s = server.__enter__()
    except (ImportError, OSError, RuntimeError) as exc:
        pytest.skip(f"no Bolt server: ArcadeDB could not start here ({exc})")
    try:
        yield Bolt(s.uri, s.user, s.password, s.database, s.http_url)
    finally:
        server.__exit__(None, None, None)


async def _neo4j_store(bolt: Bolt, records: SourceRecords) -> Neo4jGraphStore:
    """A store on the Bolt server holding exactly `records`, with its schema."""
    sql = (
        ArcadeDBSql.connect(bolt.http_url, bolt.database, bolt.user, bolt.password)
        if bolt.http_url
        else None
    )
    driver = neo4j_driver(bolt.uri, bolt.user, bolt.password)
    store = Neo4jGraphStore(driver, database=bolt.database, timeout_s=30, sql=sql)
    await store.verify()
    await store.clear()
    await store.ensure_schema()
    await store.upsert(records)
    return store


@pytest_asyncio.fixture(scope="module", loop_scope="module", params=["embedded", "neo4j"])
async def store(
    request: pytest.FixtureRequest, full_slice_records: SourceRecords
) -> AsyncIterator[GraphStore]:
    if request.param == "embedded":
        s: GraphStore = EmbeddedGraphStore(full_slice_records)
    else:
        s = await _neo4j_store(request.getfixturevalue("bolt"), full_slice_records)
    yield s
    await s.aclose()


async def test_satisfies_the_protocol(store: GraphStore) -> None:
    assert isinstance(store, GraphStore)


async def test_unknown_concepts(store: GraphStore, oracle: Oracle) -> None:
    a, b = sorted(oracle.concepts)[:2]
    assert (await store.unknown_concepts([a, "test:nope:1", b, "ccss:9.ZZ.Z.9"])) == [
        "test:nope:1",
        "ccss:9.ZZ.Z.9",
    ]
    assert (await store.unknown_concepts([])) == []


async def test_get_concepts_round_trips_every_field(store: GraphStore, oracle: Oracle) -> None:
    ids = sorted(oracle.concepts)[::7][:25]
    got = await store.get_concepts([*ids, "test:nope:1"])
    assert got == [oracle.concepts[i] for i in ids]


async def test_get_misconceptions_round_trips_in_the_order_asked(
    store: GraphStore, oracle: Oracle
) -> None:
    ids = sorted(oracle.misconceptions)[::5][:20][::-1]
    got = await store.get_misconceptions([*ids, "test:nope:1", ids[0], oracle.concepts_first()])
    assert got == [oracle.misconceptions[i] for i in ids]
    assert (await store.get_misconceptions([])) == []


async def test_a_standard_code_is_an_exact_first_match(store: GraphStore, oracle: Oracle) -> None:
    code = next(i for i in sorted(oracle.concepts) if i.startswith("ccss:"))
    text = code.removeprefix("ccss:")
    for query in (f"what does {text} say", f"what does {text.lower()} say"):
        first = (await store.search_concepts(query, k=3))[0]
        assert first.concept == oracle.concepts[code]
        assert first.exact and first.score == 1.0


async def test_a_concept_name_finds_its_concept(store: GraphStore, oracle: Oracle) -> None:
    named = [
        c for c in sorted(oracle.concepts.values(), key=lambda c: c.id) if len(c.name.split()) >= 4
    ][:10]
    assert named
    for concept in named:
        matches = await store.search_concepts(concept.name, k=5)
        assert 0 < len(matches) <= 5
        assert concept.id in [m.concept.id for m in matches]
        scores = [m.score for m in matches]
        assert scores == sorted(scores, reverse=True)
        assert all(0 < s <= 1.0 for s in scores) and scores[0] == 1.0


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:30]))
async def test_hostile_text_neither_breaks_nor_injects(store: GraphStore, text: str) -> None:
    matches = await store.search_concepts(text, k=5)
    assert len(matches) <= 5
    assert all(not m.exact for m in matches)


async def test_prerequisite_chains_match_the_records(store: GraphStore, oracle: Oracle) -> None:
    targets = sorted(oracle.edges)[:20]
    assert targets, "the slice has prerequisite edges"
    for depth in (1, 2):
        got = await store.prerequisite_chains(targets, depth)
        want = {p for cid in targets for p in oracle.paths(cid, depth)}
        assert {(p.path, p.relations) for p in got} == want
        assert got == sorted(got, key=lambda p: (p.path[-1], p.depth, p.path))
        assert all(1 <= p.depth <= depth for p in got)


async def test_prerequisite_depth_is_bounded(store: GraphStore, oracle: Oracle) -> None:
    cid = sorted(oracle.edges)[0]
    for depth in (0, 3, -1):
        with pytest.raises(ValueError):
            await store.prerequisite_chains([cid], depth)
    assert (await store.prerequisite_chains(["test:nope:1"], 1)) == []


async def test_misconceptions_of_match_the_records(store: GraphStore, oracle: Oracle) -> None:
    cids = sorted({c for m in oracle.misconceptions.values() for c in m.concept_ids})[:15]
    got = await store.misconceptions_of(cids)
    assert {(link.misconception.id, link.concept_id) for link in got} == oracle.links(cids)
    assert all(link.misconception == oracle.misconceptions[link.misconception.id] for link in got)
    assert all(link.relevance == 0.0 for link in got)
    assert got == sorted(got, key=lambda link: (link.concept_id, link.misconception.id))


async def test_a_query_ranks_the_matching_misconception_first(
    store: GraphStore, oracle: Oracle
) -> None:
    cid = sorted({c for m in oracle.misconceptions.values() for c in m.concept_ids})[0]
    links = await store.misconceptions_of([cid])
    target = links[0].misconception
    scored = await store.misconceptions_of([cid], target.text)
    best = max(scored, key=lambda link: link.relevance)
    assert best.relevance > 0
    assert best.misconception.text == target.text


def _edge(p: Prerequisite) -> tuple[object, ...]:
    """What an edge keeps in every store (Neo4j keeps no `updated_at` on a relationship)."""
    return (p.prerequisite_id, p.concept_id, p.relation, p.source, p.score, p.method)


async def test_edges_of_match_the_records_both_ways(store: GraphStore, oracle: Oracle) -> None:
    ends = sorted({k[0] for k in oracle.edge_records} | {k[1] for k in oracle.edge_records})
    asked = [*ends[:12][::-1], "test:nope:1", ends[0]]  # an unknown id, a repeat
    for direction, anchor, other in (("in", 1, 0), ("out", 0, 1)):
        got = await store.edges_of(asked, direction)
        want = [
            _edge(oracle.edge_records[k])
            for cid in dict.fromkeys(asked)
            for k in sorted(
                (k for k in oracle.edge_records if k[anchor] == cid),
                key=lambda k: (k[2], k[other]),
            )
        ]
        assert [_edge(e) for e in got] == want
        assert want, f"the slice has {direction} edges on these concepts"
    assert await store.edges_of([], "out") == []


async def test_documents_of_filters_kinds_and_limits(store: GraphStore, oracle: Oracle) -> None:
    cids = sorted({c for d in oracle.documents.values() for c in d.concept_ids})[:10]
    kinds = sorted({d.kind for d in oracle.documents.values()})
    got = await store.documents_of(cids, kinds, 1000)
    assert {d.id for d in got} == oracle.docs(cids, set(kinds))
    assert len({d.id for d in got}) == len(got)
    assert all(d == oracle.documents[d.id] for d in got)
    assert len(await store.documents_of(cids, kinds, 2)) == min(2, len(got))
    assert (await store.documents_of(cids, ["no-such-kind"], 10)) == []


# -- the write port ------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["embedded", "neo4j"])
async def test_the_write_port_upserts_and_prunes(
    kind: str, request: pytest.FixtureRequest, full_slice_records: SourceRecords
) -> None:
    """Upsert two halves of the records, then prune to the first: the reads follow. The
    Bolt database is left holding the whole slice again, as the `store` leg expects."""
    r = full_slice_records
    bolt = request.getfixturevalue("bolt") if kind == "neo4j" else None
    store: GraphStore = (
        EmbeddedGraphStore(SourceRecords())
        if bolt is None
        else await _neo4j_store(bolt, SourceRecords())
    )
    assert isinstance(store, GraphWriter)
    half = len(r.concepts) // 2
    first = SourceRecords(concepts=r.concepts[:half], misconceptions=r.misconceptions)
    second = SourceRecords(
        concepts=r.concepts[half:], prerequisites=r.prerequisites, documents=r.documents
    )
    try:
        await store.ensure_schema()
        await store.upsert(first)
        counts = await store.upsert(second)
        assert counts["concepts"] == len(second.concepts)
        every = sorted({c.id for c in r.concepts})
        assert await store.unknown_concepts(every) == []
        # Edges written with the second half find both of their ends from either half.
        oracle = Oracle(r)
        cid = next(c for c in every if oracle.edges.get(c))
        assert await store.prerequisite_chains([cid], 1)

        keep = [c.id for c in first.concepts] + [m.id for m in first.misconceptions]
        pruned = await store.prune(keep)
        assert pruned == len({c.id for c in second.concepts} | {d.id for d in r.documents})
        gone = sorted({c.id for c in second.concepts} - set(keep))
        assert await store.unknown_concepts(gone) == gone
        assert await store.unknown_concepts(sorted(set(keep) & set(every))) == []
        kinds = ["explanation", "worked_example", "exercise"]
        assert await store.documents_of(every, kinds, 50) == []
    finally:
        if isinstance(store, Neo4jGraphStore):
            await store.clear()
            await store.upsert(r)
        await store.aclose()


@pytest.mark.parametrize("kind", ["embedded", "neo4j"])
async def test_stats_count_zeros_on_an_empty_graph(
    kind: str, request: pytest.FixtureRequest, full_slice_records: SourceRecords
) -> None:
    """A row per label and edge type, zeros included (the Bolt database is refilled)."""
    if kind == "embedded":
        empty = await EmbeddedGraphStore(SourceRecords()).stats()
    else:
        store = await _neo4j_store(request.getfixturevalue("bolt"), SourceRecords())
        try:
            empty = await store.stats()
        finally:
            await store.upsert(full_slice_records)
            await store.aclose()
    assert empty == {
        "nodes": {"Concept": 0, "Document": 0, "Misconception": 0},
        "relationships": {"PART_OF": 0, "PREREQUISITE_OF": 0, "ABOUT": 0, "MISCONCEPTION_OF": 0},
    }
