"""Neo4jGraphStore against a recording driver double: the statements it sends.

Static checks over the statements (fixed text, parameters only) and the store's source
(no statement built at run time, no Cypher outside `stores/cypher.py`); then which fixed
statement each call sends, with which parameters (user text only ever as an escaped
parameter), in how many round trips and transactions. How the adapter maps what the server
answers is `test_neo4j_results.py`'s; schema, verify, errors and the driver are
`test_neo4j_server.py`'s; the double is `neo4j_fakes.py`. What the Cypher returns on a real
server (the rows, their order, MERGE and DELETE semantics) is the graph-store contract
suite's concern (`tests/contract/test_graph_store.py`, ArcadeDB over Bolt) and the fault
tests' (`tests/integration/test_bolt_faults.py`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from neo4j import RoutingControl
from tests.unit.neo4j_fakes import (
    STATEMENT_NAMES,
    STATEMENTS,
    FakeDriver,
    RecordingSql,
    fresh_store,
    graph_store,
    sample_records,
)

from tutorgraph.stores import cypher
from tutorgraph.stores.embedded_graph import MAX_PREREQUISITE_DEPTH, EmbeddedGraphStore
from tutorgraph.stores.lucene import fulltext_query
from tutorgraph.stores.neo4j_graph import Neo4jGraphStore
from tutorgraph.stores.protocols import GraphStore

pytestmark = pytest.mark.unit

SRC = Path(__file__).resolve().parents[2] / "src" / "tutorgraph"
PARAM_RE = re.compile(r"\$([A-Za-z_]\w*)")
CYPHERISH_RE = re.compile(
    r"\b(?:MATCH|MERGE|UNWIND)\s*[($]|\bCALL\s+(?:db|dbms)\.|\bCREATE\s+(?:CONSTRAINT|FULLTEXT)\b"
)


# The regex finds the code, but the word holding it has no letter or digit in the part of it
# the full-text query keeps: the one case where only the exact-code statement runs.
CODE_ONLY = "(" * 40 + "6.NS.A.1"


# -- 1. static checks over the statements and the store's source --------------------------------


def test_statements_are_fixed_text_with_parameters_only() -> None:
    assert len(STATEMENTS) > 15
    for name, text in STATEMENTS.items():
        # No Python format placeholders: Cypher braces here are maps (`{id: row.id}`) and
        # subqueries (`EXISTS {`), never `{}`, `{name}`, `{0!r}` or `{x:>3}`.
        assert not re.search(r"\{\s*\w*(![rsa])?\s*\}", text), name
        assert not re.search(r"\{\w*:[^\s{}]*\}", text), name
        assert not re.search(r"%[-#0 +]*\d*(\.\d+)?[sdirfx(]", text), name
        for brace in re.finditer(r"\{", text):
            after = text[brace.end() :]
            assert re.match(r"\s*\w+:\s|\s*\n\s*MATCH\b", after), (name, after[:30])


def test_prerequisite_statements_cover_exactly_the_allowed_depths() -> None:
    assert set(cypher.PREREQUISITE_CHAINS) == set(range(1, MAX_PREREQUISITE_DEPTH + 1))
    for depth, text in cypher.PREREQUISITE_CHAINS.items():
        branches = text.split("UNION ALL")
        # One branch per path length, each anchored at the concept by id and hop by hop.
        assert len(branches) == depth
        for hops, branch in enumerate(branches, start=1):
            assert "MATCH (c:Concept {id: concept_id})" in branch
            assert branch.count("-[r") == hops
            assert "*" not in branch


def test_schema_statements() -> None:
    schema = "\n".join(cypher.SCHEMA)
    for label in ("Concept", "Misconception", "Document"):
        assert re.search(rf"CREATE CONSTRAINT \w+ IF NOT EXISTS FOR \(\w:{label}\) REQUIRE", schema)
    assert "CREATE FULLTEXT INDEX concept_names IF NOT EXISTS" in schema
    assert "ON EACH [c.name, c.description]" in schema
    assert "CREATE FULLTEXT INDEX misconception_texts IF NOT EXISTS" in schema
    for name in (
        "MERGE_CONCEPTS",
        "MERGE_PART_OF",
        "MERGE_PREREQUISITES",
        "MERGE_DOCUMENTS",
        "MERGE_MISCONCEPTIONS",
    ):
        text = STATEMENTS[name]
        assert text.lstrip().startswith("UNWIND $rows AS row") and "MERGE" in text, name
        assert "CREATE" not in text, name  # MERGE only: re-runs add nothing twice


def _calls_named(tree: ast.AST, names: set[str]) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in names:
                yield node


@pytest.mark.parametrize("module", ["neo4j_graph.py", "neo4j_connection.py"])
def test_store_source_never_builds_a_statement(module: str) -> None:
    source = (SRC / "stores" / module).read_text(encoding="utf-8")
    assert 'execute_query(f"' not in source and ".format(" not in source
    tree = ast.parse(source)
    sinks = {"execute_query", "run", "execute_write", "execute_read", "Query"}
    for call in _calls_named(tree, sinks):
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            assert not isinstance(arg, ast.JoinedStr | ast.BinOp), ast.unparse(call)
            assert not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)), ast.unparse(
                call
            )
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            assert not isinstance(node.left, ast.Constant | ast.JoinedStr), ast.unparse(node)


def test_no_cypher_outside_the_cypher_module() -> None:
    for path in sorted(SRC.rglob("*.py")):
        if path.name == "cypher.py" and path.parent.name == "stores":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert not CYPHERISH_RE.search(node.value), f"{path}: {node.value[:60]!r}"


# -- 2. statements, parameters, round trips --------------------------------


async def test_every_statement_is_sent_with_exactly_its_parameters() -> None:
    records = sample_records()
    driver = FakeDriver()
    store = graph_store(driver)
    assert driver.calls == []  # the constructor does no I/O
    assert isinstance(store, GraphStore)
    await store.verify()
    await store.clear()
    await store.ensure_schema()
    await store.upsert(records, batch_size=3)
    await store.stats()
    await store.prune([c.id for c in records.concepts] + [d.id for d in records.documents])
    await store.upsert(records, batch_size=3)
    await store.search_concepts("6.NS.A.1", 5)
    await store.search_concepts("fractions 6.ns.a.1", 5)
    await store.search_concepts(CODE_ONLY, 5)  # a code but no searchable term: no full-text
    await store.get_concepts(["ccss:6.NS.A.1"])
    await store.unknown_concepts(["ccss:6.NS.A.1", "nope:1"])
    await store.get_misconceptions(["eedi:misconception:1"])
    for depth in (1, 2):
        await store.prerequisite_chains(["ccss:6.NS.A.1"], depth)
    await store.misconceptions_of(["ccss:6.NS.A.1"])
    await store.misconceptions_of(["ccss:6.NS.A.1"], "dividing fractions")
    await store.documents_of(["ccss:6.NS.A.1"], ["exercise"], 3)
    for direction in ("in", "out"):
        await store.edges_of(["ccss:6.NS.A.1"], direction)
    # The same schema on ArcadeDB: constraints, its SQL, the index states polled.
    arcadedb = FakeDriver(agent="Neo4j/5.26.0 compatible (ArcadeDB 26.10.2)")
    sql = RecordingSql()
    await Neo4jGraphStore(arcadedb, database="tutor", sql=sql).ensure_schema()  # type: ignore[arg-type]
    calls = driver.calls + arcadedb.calls
    sent = {c.statement for c in calls if c.via != "verify_connectivity"} | set(sql.statements)
    names = {
        cypher.CONCEPT_FULLTEXT_INDEX,
        cypher.MISCONCEPTION_FULLTEXT_INDEX,
        cypher.ARCADEDB_AGENT,
    }
    assert sent == set(STATEMENTS.values()) - names  # every statement, checked below
    for call in calls:
        if call.via == "verify_connectivity":
            continue
        assert set(PARAM_RE.findall(call.statement)) == set(call.params), STATEMENT_NAMES[
            call.statement
        ]
        assert call.database == "tutor"


READS: list[tuple[str, Callable[[Neo4jGraphStore], Any], str]] = [
    ("search", lambda s: s.search_concepts("dividing fractions 6.NS.A.1", 4), "SEARCH_CONCEPTS"),
    ("codes", lambda s: s.search_concepts(CODE_ONLY, 4), "CONCEPTS_BY_CODE"),
    ("get", lambda s: s.get_concepts(["ccss:6.NS.A.1", "x:y"]), "GET_CONCEPTS"),
    ("get_misc", lambda s: s.get_misconceptions(["eedi:misconception:1"]), "GET_MISCONCEPTIONS"),
    ("unknown", lambda s: s.unknown_concepts(["ccss:6.NS.A.1", "x:y"]), "KNOWN_CONCEPT_IDS"),
    ("chains1", lambda s: s.prerequisite_chains(["ccss:6.NS.A.1"], 1), "PREREQUISITE_CHAINS[1]"),
    ("chains2", lambda s: s.prerequisite_chains(["ccss:6.NS.A.1"], 2), "PREREQUISITE_CHAINS[2]"),
    ("misc", lambda s: s.misconceptions_of(["ccss:6.NS.A.1"]), "MISCONCEPTIONS_OF"),
    (
        "misc_q",
        lambda s: s.misconceptions_of(["ccss:6.NS.A.1"], "flips"),
        "MISCONCEPTIONS_OF_SCORED",
    ),
    ("docs", lambda s: s.documents_of(["ccss:6.NS.A.1"], ["exercise"], 2), "DOCUMENTS_OF"),
    ("edges_in", lambda s: s.edges_of(["ccss:6.NS.A.1"], "in"), "EDGES_OF[in]"),
    ("edges_out", lambda s: s.edges_of(["ccss:6.NS.A.1", "x:y"], "out"), "EDGES_OF[out]"),
    ("stats", lambda s: s.stats(), "STATS"),
]


@pytest.mark.parametrize(("label", "method", "statement"), READS, ids=[r[0] for r in READS])
async def test_each_read_is_one_bounded_read_transaction(
    label: str, method: Callable[[Neo4jGraphStore], Any], statement: str
) -> None:
    store, driver = fresh_store()
    store._timeout_s = 1.5
    await method(store)
    assert len(driver.calls) == 1
    (call,) = driver.calls
    assert call.via == "execute_query"
    assert STATEMENT_NAMES[call.statement] == statement
    assert call.routing == RoutingControl.READ
    assert call.database == "tutor"
    assert call.timeout == 1.5  # the server-side transaction timeout


async def test_user_text_travels_only_as_an_escaped_parameter() -> None:
    store, driver = fresh_store()
    text = 'dividing 6.NS.A.1 (a+b)^2 ? "x:y" AND OR NOT *:* \\ ] }'
    await store.search_concepts(text, 5)
    await store.misconceptions_of(["ccss:6.NS.A.1"], text)
    expected = r"dividing OR 6.NS.A.1 OR \(a\+b\)\^2 OR \"x\:y\""
    assert fulltext_query(text) == expected
    for call in driver.calls:
        assert call.statement in STATEMENT_NAMES
        assert call.params["query"] == expected
        assert "(a+b)" not in call.statement
    assert driver.calls[0].params["codes"] == ["6.ns.a.1"]
    assert driver.calls[0].params["limit"] == 5
    assert driver.calls[1].params["concept_ids"] == ["ccss:6.NS.A.1"]


async def test_nothing_to_ask_sends_nothing() -> None:
    store, driver = fresh_store()
    assert await store.search_concepts("what is it?", 5) == []  # no code, no searchable term
    assert await store.search_concepts("6.NS.A.1", 0) == []
    assert await store.get_concepts([]) == []
    assert await store.unknown_concepts([]) == []
    assert await store.prerequisite_chains([], 2) == []
    assert await store.misconceptions_of([], "x") == []
    assert await store.documents_of([], ["exercise"], 3) == []
    assert await store.documents_of(["ccss:6.NS.A.1"], [], 3) == []
    assert driver.calls == []


async def test_depth_outside_1_to_2_is_refused_before_any_io() -> None:
    store, driver = fresh_store()
    embedded = EmbeddedGraphStore(sample_records())
    for depth in (0, 3, -1):
        with pytest.raises(ValueError, match=r"depth must be 1\.\.2") as ours:
            await store.prerequisite_chains(["ccss:6.NS.A.1"], depth)
        with pytest.raises(ValueError) as theirs:
            await embedded.prerequisite_chains(["ccss:6.NS.A.1"], depth)
        assert str(ours.value) == str(theirs.value)
        with pytest.raises(ValueError):
            await store.prerequisite_chains([], depth)
    assert driver.calls == []
