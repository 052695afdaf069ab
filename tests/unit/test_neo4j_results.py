"""Neo4jGraphStore against a recording driver double: what the server answers, back to
results. Rows (in any order) map back to models and edge records; ingest batches its rows in
managed write transactions and sums the server's write counts, and an interrupted ingest
reports what it committed. The double is `neo4j_fakes.py`.
"""

from __future__ import annotations

from typing import Any

import pytest
from neo4j.exceptions import ServiceUnavailable
from tests.unit.neo4j_fakes import (
    STATEMENT_NAMES,
    FakeDriver,
    graph_store,
    sample_records,
)

from tutorgraph.errors import ConfigurationError, StoreError
from tutorgraph.stores import cypher
from tutorgraph_client.models.curriculum import Concept, Document, Misconception

pytestmark = pytest.mark.unit


# -- mapping: what the server answers, back to models ---------------------------------------------


def _props(model: Concept | Misconception) -> dict[str, Any]:
    # A property the models lack (another writer's) must be ignored on the way back.
    return {**model.model_dump(mode="json"), "ingested_by": "someone else"}


async def test_rows_map_back_to_models_whatever_order_the_server_answers_in() -> None:
    records = sample_records()
    c = {x.id: x for x in records.concepts}
    m = {x.id: x for x in records.misconceptions}
    concepts = [{"props": _props(c[i])} for i in ("eedi:construct:1", "ccss:6.NS.A.1")]
    hits = [
        {"props": _props(c["ccss:5.NF.B.3"]), "score": 2.0, "exact": False},
        {"props": _props(c["ccss:7.NS.A.1"]), "score": 7.0, "exact": True},
        {"props": _props(c["ccss:6.RP.A.1"]), "score": 4.0, "exact": False},
        {"props": _props(c["ccss:7.NS.A.1"]), "score": 8.0, "exact": False},
    ]
    mid, cid = "eedi:misconception:", "ccss:6.NS.A.1"
    links: list[dict[str, Any]] = [
        {"concept_id": None, "misconception_id": f"{mid}2", "props": None, "score": 3.5},
        {"concept_id": cid, "misconception_id": f"{mid}2", "props": _props(m[f"{mid}2"])},
        {"concept_id": cid, "misconception_id": f"{mid}1", "props": _props(m[f"{mid}1"])},
    ]
    stats = [
        {"kind": "relationships", "name": "ABOUT", "total": 7},
        {"kind": "nodes", "name": "Concept", "total": 9},
    ]
    driver = FakeDriver(
        rows={
            "GET_CONCEPTS": concepts,
            "SEARCH_CONCEPTS": hits,
            "MISCONCEPTIONS_OF_SCORED": [{"score": None, **x} for x in links],
            "STATS": stats,
        }
    )
    store = graph_store(driver)
    ids = ["ccss:6.NS.A.1", "nope:1", "eedi:construct:1", "ccss:6.NS.A.1"]
    assert await store.get_concepts(ids) == [
        c["ccss:6.NS.A.1"],
        c["eedi:construct:1"],
        c["ccss:6.NS.A.1"],
    ]  # every field survives, in the order asked, repeats included
    matches = await store.search_concepts("quotients 7.ns.a.1", 3)
    # Exact codes first at 1.0; then full-text hits best first, relative to the best of them.
    assert [(x.concept.id, x.score, x.exact) for x in matches] == [
        ("ccss:7.NS.A.1", 1.0, True),
        ("ccss:6.RP.A.1", 1.0, False),
        ("ccss:5.NF.B.3", 0.5, False),
    ]
    got = await store.misconceptions_of(["ccss:6.NS.A.1"], "flips")
    assert [(x.misconception, x.concept_id, x.relevance) for x in got] == [
        (m["eedi:misconception:1"], "ccss:6.NS.A.1", 0.0),
        (m["eedi:misconception:2"], "ccss:6.NS.A.1", 3.5),
    ]
    assert await store.stats() == {
        "nodes": {"Concept": 9},
        "relationships": {"ABOUT": 7},
    }


async def test_edges_map_back_to_records_in_the_embedded_order() -> None:
    """Rows in any order come back grouped by the concept asked for, then by relation and
    the other end, each an edge record with its alignment score (as the embedded store)."""
    row = {"source": "t", "score": None, "method": None}
    aligned = {"source": "a", "score": 0.71, "method": "item-and-card-similarity"}
    rows = [
        {
            "anchor": "ccss:5.NF.A.1",
            "prerequisite_id": "ccss:5.NF.A.1",
            "concept_id": "eedi:construct:9",
            "relation": "aligned_with",
            **aligned,
        },
        {
            "anchor": "ccss:6.NS.A.1",
            "prerequisite_id": "ccss:6.NS.A.1",
            "concept_id": "ccss:7.NS.A.1",
            "relation": "relates_to",
            **row,
        },
        {
            "anchor": "ccss:5.NF.A.1",
            "prerequisite_id": "ccss:5.NF.A.1",
            "concept_id": "ccss:5.NF.A.2",
            "relation": "builds_towards",
            **row,
        },
        {
            "anchor": "ccss:5.NF.A.1",
            "prerequisite_id": "ccss:5.NF.A.1",
            "concept_id": "ccss:5.MD.A.1",
            "relation": "builds_towards",
            **row,
        },
    ]
    driver = FakeDriver(rows={"EDGES_OF[out]": rows})
    store = graph_store(driver)
    got = await store.edges_of(["ccss:5.NF.A.1", "ccss:6.NS.A.1", "ccss:5.NF.A.1"], "out")
    assert [(e.prerequisite_id, e.concept_id, e.relation) for e in got] == [
        ("ccss:5.NF.A.1", "eedi:construct:9", "aligned_with"),
        ("ccss:5.NF.A.1", "ccss:5.MD.A.1", "builds_towards"),
        ("ccss:5.NF.A.1", "ccss:5.NF.A.2", "builds_towards"),
        ("ccss:6.NS.A.1", "ccss:7.NS.A.1", "relates_to"),
    ]
    assert (got[0].score, got[0].method, got[0].source) == (0.71, "item-and-card-similarity", "a")
    assert got[1].score is None and got[1].method is None
    (call,) = driver.calls
    assert call.params == {"concept_ids": ["ccss:5.NF.A.1", "ccss:6.NS.A.1"]}  # once each
    assert await store.edges_of([], "in") == [] and len(driver.calls) == 1
    with pytest.raises(ValueError, match="direction"):
        await store.edges_of(["ccss:5.NF.A.1"], "both")  # type: ignore[arg-type]


async def test_a_node_that_is_not_a_valid_record_is_a_store_error() -> None:
    props = {**sample_records().concepts[0].model_dump(mode="json"), "kind": "planet"}
    store = graph_store(FakeDriver(rows={"GET_CONCEPTS": [{"props": props}]}))
    with pytest.raises(StoreError, match="not a valid Concept"):
        await store.get_concepts(["ccss:6.NS.A.1"])


# -- ingest -------------------------------------------------------------------------------------


async def test_ingest_batches_in_managed_write_transactions() -> None:
    records = sample_records()
    # The server reports one row written per batch, so the counts show what is summed:
    # a node statement with edges counts its rows as nodes and the reported n as edges.
    driver = FakeDriver(written=lambda statement, rows: 1)
    store = graph_store(driver)
    seen: list[tuple[str, int, int]] = []
    counts = await store.upsert(records, batch_size=4, progress=lambda *a: seen.append(a))
    assert {c.via for c in driver.calls} == {"execute_write"}
    assert all(set(c.params) == {"rows"} and c.database == "tutor" for c in driver.calls)
    assert all(0 < len(c.params["rows"]) <= 4 for c in driver.calls)
    order = [STATEMENT_NAMES[c.statement] for c in driver.calls]
    assert order == ["MERGE_CONCEPTS"] * 3 + ["MERGE_PART_OF"] + ["MERGE_PREREQUISITES"] * 3 + [
        "MERGE_DOCUMENTS"
    ] * 2 + ["MERGE_MISCONCEPTIONS"]
    assert seen == [
        ("concepts", 4, 10), ("concepts", 8, 10), ("concepts", 10, 10),
        ("part_of", 3, 3),
        ("prerequisites", 4, 9), ("prerequisites", 8, 9), ("prerequisites", 9, 9),
        ("documents", 4, 7), ("documents", 7, 7),
        ("misconceptions", 4, 4),
    ]  # fmt: skip
    assert counts == {
        "concepts": 3,
        "part_of": 1,
        "prerequisites": 3,
        "documents": 7,
        "about": 2,
        "misconceptions": 4,
        "misconception_of": 1,
    }
    assert driver.sessions_closed == 1
    # Every model field is a property; None is left out, lists stay lists.
    first = driver.calls[0].params["rows"][0]
    dumped = records.concepts[0].model_dump(mode="json")
    assert first == {k: v for k, v in dumped.items() if v is not None}
    assert "grade" not in driver.calls[0].params["rows"][2]  # ccss:5.NF.B.4 (first) has none
    doc = next(c for c in driver.calls if c.statement == cypher.MERGE_DOCUMENTS).params["rows"][0]
    assert set(doc) == set(Document.model_fields) - {"updated_at", "grade"}  # none in these
    # Edges travel as id pairs (part_of from each concept's parent_ids).
    part_of = next(c for c in driver.calls if c.statement == cypher.MERGE_PART_OF).params["rows"]
    assert part_of == [
        {"child_id": "ccss:6.NS.A.1", "parent_id": "lc:g6"},
        {"child_id": "ccss:6.NS.A.1", "parent_id": "lc:missing"},
        {"child_id": "eedi:construct:1", "parent_id": "eedi:subject:1"},
    ]


def test_every_model_field_is_a_storable_property() -> None:
    # Neo4j stores scalars and homogeneous lists of scalars; a nested field would need JSON.
    records = sample_records()
    for model in [*records.concepts, *records.documents, *records.misconceptions]:
        for name, value in model.model_dump(mode="json").items():
            ok = value is None or isinstance(value, str | int | float | bool)
            ok = ok or (isinstance(value, list) and all(isinstance(v, str) for v in value))
            assert ok, (type(model).__name__, name, value)


async def test_interrupted_ingest_reports_its_commits_and_a_rerun_sends_every_batch() -> None:
    records = sample_records()
    clean = FakeDriver()
    clean_counts = await graph_store(clean).upsert(records, batch_size=2)

    # Calls 0..12: concepts (5 batches), part_of (2), prerequisites (5), documents rows 0..1.
    driver = FakeDriver(error=ServiceUnavailable("connection lost"), fail_at_call=13)
    store = graph_store(driver)
    with pytest.raises(StoreError, match=r"re-run to complete") as info:
        await store.upsert(records, batch_size=2)
    assert "documents rows 2..3" in info.value.message
    assert info.value.details["committed"] == {
        "concepts": 10,
        "part_of": 3,
        "prerequisites": 9,
        "documents": 2,
        "about": 2,
        "misconceptions": 0,
        "misconception_of": 0,
    }
    assert isinstance(info.value.__cause__, ServiceUnavailable)
    driver.error = None
    driver.calls.clear()
    # The re-run sends every batch again (MERGE on ids makes that safe on a real server).
    assert await store.upsert(records, batch_size=2) == clean_counts
    assert [(c.statement, c.params) for c in driver.calls] == [
        (c.statement, c.params) for c in clean.calls
    ]


async def test_ingest_refuses_a_bad_batch_size() -> None:
    with pytest.raises(ConfigurationError):
        await graph_store(FakeDriver()).upsert(sample_records(), batch_size=0)
