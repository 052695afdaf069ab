"""Neo4jGraphStore against a recording driver double: statements, parameters and mapping.

These tests check which fixed statement each call sends, with which parameters (user text
only ever as an escaped parameter), in how many round trips and transactions, and how the
adapter turns what the server reports (rows, write counts, errors) into results. The double
does not run the statements: it records them and answers with canned rows. What the Cypher
returns on a real server (the rows, their order, MERGE and DELETE semantics) is the graph-store
contract suite's concern (`tests/contract/test_graph_store.py`, ArcadeDB over Bolt) and the
fault tests' (`tests/integration/test_bolt_faults.py`).
"""

from __future__ import annotations

import ast
import asyncio
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from neo4j import AsyncDriver, EagerResult, Query, Record, RoutingControl
from neo4j.exceptions import AuthError, Neo4jError, ServiceUnavailable

from tutorgraph.errors import ConfigurationError, StoreError
from tutorgraph.models.records import SourceRecords
from tutorgraph.stores import cypher
from tutorgraph.stores.embedded_graph import MAX_PREREQUISITE_DEPTH, EmbeddedGraphStore
from tutorgraph.stores.lucene import fulltext_query
from tutorgraph.stores.neo4j_driver import neo4j_driver
from tutorgraph.stores.neo4j_graph import Neo4jGraphStore
from tutorgraph.stores.protocols import GraphStore
from tutorgraph_client.models.curriculum import Concept, Document, Misconception, Prerequisite

pytestmark = pytest.mark.unit

SRC = Path(__file__).resolve().parents[2] / "src" / "tutorgraph"
PARAM_RE = re.compile(r"\$([A-Za-z_]\w*)")
CYPHERISH_RE = re.compile(
    r"\b(?:MATCH|MERGE|UNWIND)\s*[($]|\bCALL\s+(?:db|dbms)\.|\bCREATE\s+(?:CONSTRAINT|FULLTEXT)\b"
)


def _statements() -> dict[str, str]:
    """Every string held by `tutorgraph.stores.cypher`, by a readable name."""
    out: dict[str, str] = {}
    for name in cypher.__all__:
        value = getattr(cypher, name)
        if isinstance(value, str):
            out[name] = value
        elif isinstance(value, tuple):
            out.update({f"{name}[{i}]": v for i, v in enumerate(value)})
        elif isinstance(value, Mapping):
            out.update({f"{name}[{k}]": v for k, v in value.items()})
    return out


STATEMENTS = _statements()
STATEMENT_NAMES = {text: name for name, text in reversed(STATEMENTS.items())}
# The regex finds the code, but the word holding it has no letter or digit in the part of it
# the full-text query keeps: the one case where only the exact-code statement runs.
CODE_ONLY = "(" * 40 + "6.NS.A.1"


# -- the recording double ------------------------------------------------------------------------


@dataclass
class Call:
    via: str  # execute_query | execute_write | verify_connectivity
    statement: str
    params: dict[str, Any]
    routing: Any = None
    database: str | None = None
    timeout: float | None = None


def _canned_rows(statement: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    """What the double answers when a test gives no rows: the server's identity and online
    indexes (so that `verify` and `ensure_schema` complete), nothing for every other read."""
    if statement == cypher.VERIFY:
        return [{"name": "Neo4j Kernel", "versions": ["5.26.0"], "edition": "community"}]
    if statement == cypher.INDEX_STATES:
        return [{"name": n, "state": "ONLINE"} for n in params["names"]]
    return []


class FakeResult:
    def __init__(self, n: int) -> None:
        self._n = n

    async def single(self, strict: bool = False) -> Record:
        assert strict
        return Record({"n": self._n})


class FakeTx:
    def __init__(self, driver: FakeDriver, database: str | None) -> None:
        self._driver, self._database = driver, database

    async def run(self, statement: str, parameters: dict[str, Any] | None = None) -> FakeResult:
        params = dict(parameters or {})
        self._driver.record(Call("execute_write", statement, params, database=self._database))
        assert set(params) == {"rows"}, "an ingest statement takes its rows and nothing else"
        return FakeResult(self._driver.written(statement, params["rows"]))


class FakeSession:
    def __init__(self, driver: FakeDriver, database: str | None) -> None:
        self._driver, self._database = driver, database

    async def __aenter__(self) -> FakeSession:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._driver.sessions_closed += 1

    async def execute_write(self, work: Callable[..., Any], *args: Any) -> Any:
        return await work(FakeTx(self._driver, self._database), *args)


class FakeDriver:
    """Implements just what Neo4jGraphStore calls, records every statement, and answers with
    canned rows: `rows[statement name]` if given, else `_canned_rows`. An ingest batch
    reports `written(statement, rows)` (default: one per row) as the server's count."""

    def __init__(
        self,
        *,
        rows: Mapping[str, list[dict[str, Any]]] | None = None,
        written: Callable[[str, list[dict[str, Any]]], int] = lambda s, rows: len(rows),
        error: Exception | None = None,
        fail_at_call: int | None = None,
        delay_s: float = 0.0,
        agent: str = "Neo4j/5.26.0",
    ) -> None:
        self.agent = agent
        self.rows = dict(rows or {})
        self.written = written
        self.calls: list[Call] = []
        self.error = error
        self.fail_at_call = fail_at_call  # raise `error` on this call (0-based), else always
        self.delay_s = delay_s
        self.sessions_closed = 0
        self.closed = False

    def record(self, call: Call) -> None:
        index = len(self.calls)
        self.calls.append(call)
        if self.error is not None and self.fail_at_call in (None, index):
            raise self.error

    async def execute_query(
        self,
        query_: str | Query,
        parameters_: dict[str, Any] | None = None,
        routing_: RoutingControl = RoutingControl.WRITE,
        database_: str | None = None,
        **kwargs: Any,
    ) -> EagerResult:
        assert not kwargs, "values must travel in parameters_, not as keyword parameters"
        text, timeout = (
            (query_.text, query_.timeout) if isinstance(query_, Query) else (query_, None)
        )
        params = dict(parameters_ or {})
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        self.record(Call("execute_query", text, params, routing_, database_, timeout))
        name = STATEMENT_NAMES.get(text)
        rows = self.rows[name] if name in self.rows else _canned_rows(text, params)
        return EagerResult([Record(r) for r in rows], None, list(rows[0]) if rows else [])  # type: ignore[arg-type]

    async def verify_connectivity(self) -> None:
        self.record(Call("verify_connectivity", "", {}))

    async def get_server_info(self) -> Any:
        return type("ServerInfo", (), {"agent": self.agent})()

    def session(self, *, database: str | None = None) -> FakeSession:
        return FakeSession(self, database)

    async def close(self) -> None:
        self.closed = True


def _store(driver: FakeDriver, timeout_s: float = 2.0) -> Neo4jGraphStore:
    return Neo4jGraphStore(driver, database="tutor", timeout_s=timeout_s)  # type: ignore[arg-type]


# -- data ---------------------------------------------------------------------------------------


def _concept(cid: str, name: str, description: str = "", **kw: Any) -> Concept:
    kind = kw.pop("kind", "standard")
    return Concept(
        id=cid, name=name, description=description, kind=kind, source="t", license="CC-BY-4.0", **kw
    )


def _records() -> SourceRecords:
    bt, rt = "builds_towards", "relates_to"
    return SourceRecords(
        concepts=[
            _concept(
                "ccss:6.NS.A.1",
                "6.NS.A.1",
                "Interpret and compute quotients of fractions",
                grade="6",
                parent_ids=["lc:g6", "lc:missing"],
            ),
            _concept("ccss:5.NF.B.3", "5.NF.B.3", "Interpret a fraction as division", grade="5"),
            _concept("ccss:5.NF.B.4", "5.NF.B.4", "Multiply a fraction by a whole number"),
            _concept("ccss:6.RP.A.1", "6.RP.A.1", "Understand the concept of a ratio"),
            _concept("ccss:7.NS.A.1", "7.NS.A.1", "Add and subtract rational numbers"),
            _concept("ccss:HSF-IF.B.6", "HSF-IF.B.6", "Average rate of change of a function"),
            _concept("lc:g6", "Grade 6 number system", kind="grouping"),
            _concept(
                "eedi:construct:1",
                "Divide fractions by fractions",
                kind="construct",
                parent_ids=["eedi:subject:1"],
            ),
            _concept("eedi:subject:1", "Fractions", "Fraction arithmetic", kind="subject"),
            # The same id again: later records replace earlier ones.
            _concept("ccss:5.NF.B.4", "5.NF.B.4", "Apply multiplication to fractions", grade="5"),
        ],
        prerequisites=[
            Prerequisite(prerequisite_id=a, concept_id=b, relation=r, source="t")
            for a, b, r in [
                ("ccss:5.NF.B.3", "ccss:6.NS.A.1", bt),
                ("ccss:5.NF.B.3", "ccss:6.NS.A.1", rt),  # a second relation, a second edge
                ("ccss:5.NF.B.4", "ccss:6.NS.A.1", bt),
                ("ccss:6.RP.A.1", "ccss:5.NF.B.3", bt),
                ("ccss:6.NS.A.1", "ccss:7.NS.A.1", rt),  # a cycle of relates_to
                ("ccss:7.NS.A.1", "ccss:6.NS.A.1", rt),
                ("ccss:6.RP.A.1", "ccss:6.RP.A.1", bt),  # a self loop
                ("ccss:9.ZZ.Z.9", "ccss:6.NS.A.1", bt),  # an unknown end: skipped
                ("eedi:construct:1", "ccss:6.RP.A.1", bt),
            ]
        ],
        misconceptions=[
            Misconception(
                id="eedi:misconception:1",
                text="Divides the numerators and the denominators separately",
                concept_ids=["ccss:6.NS.A.1", "eedi:construct:1"],
                source="eedi",
                license="CC-BY-NC-4.0",
            ),
            Misconception(
                id="eedi:misconception:2",
                text="Flips the wrong fraction",
                concept_ids=["ccss:6.NS.A.1"],
                source="eedi",
                license="CC-BY-NC-4.0",
            ),
            Misconception(
                id="eedi:misconception:3",
                text="Thinks a ratio is a fraction",
                concept_ids=["eedi:construct:1", "nope:x"],
                source="eedi",
                license="CC-BY-NC-4.0",
            ),
            Misconception(
                id="eedi:misconception:2",
                text="Flips the wrong fraction when dividing",
                concept_ids=["ccss:6.NS.A.1", "ccss:5.NF.B.3"],
                source="eedi",
                license="CC-BY-NC-4.0",
            ),
        ],
        documents=[
            Document(
                id=f"openstax:m1:{kind}:{i}",
                kind=kind,
                title=f"T{i}",
                text=f"text {i}",
                concept_ids=cids,
                source="openstax",
                license="CC-BY-4.0",
            )
            for i, (kind, cids) in enumerate(
                [
                    ("explanation", ["ccss:6.NS.A.1"]),
                    ("exercise", ["ccss:6.NS.A.1", "ccss:5.NF.B.3"]),
                    ("question", ["ccss:5.NF.B.3"]),
                    ("worked_example", ["ccss:6.NS.A.1"]),
                    ("exercise", ["ccss:5.NF.B.3", "nope:y"]),
                    ("exercise", ["eedi:construct:1"]),
                    ("exercise", []),
                ]
            )
        ],
    )


def _fresh() -> tuple[Neo4jGraphStore, FakeDriver]:
    driver = FakeDriver()
    return _store(driver), driver


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
    records = _records()
    driver = FakeDriver()
    store = _store(driver)
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
    store, driver = _fresh()
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
    store, driver = _fresh()
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
    store, driver = _fresh()
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
    store, driver = _fresh()
    embedded = EmbeddedGraphStore(_records())
    for depth in (0, 3, -1):
        with pytest.raises(ValueError, match=r"depth must be 1\.\.2") as ours:
            await store.prerequisite_chains(["ccss:6.NS.A.1"], depth)
        with pytest.raises(ValueError) as theirs:
            await embedded.prerequisite_chains(["ccss:6.NS.A.1"], depth)
        assert str(ours.value) == str(theirs.value)
        with pytest.raises(ValueError):
            await store.prerequisite_chains([], depth)
    assert driver.calls == []


# -- mapping: what the server answers, back to models ---------------------------------------------


def _props(model: Concept | Misconception) -> dict[str, Any]:
    # A property the models lack (another writer's) must be ignored on the way back.
    return {**model.model_dump(mode="json"), "ingested_by": "someone else"}


async def test_rows_map_back_to_models_whatever_order_the_server_answers_in() -> None:
    records = _records()
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
    store = _store(driver)
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
    store = _store(driver)
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
    props = {**_records().concepts[0].model_dump(mode="json"), "kind": "planet"}
    store = _store(FakeDriver(rows={"GET_CONCEPTS": [{"props": props}]}))
    with pytest.raises(StoreError, match="not a valid Concept"):
        await store.get_concepts(["ccss:6.NS.A.1"])


# -- ingest -------------------------------------------------------------------------------------


async def test_ingest_batches_in_managed_write_transactions() -> None:
    records = _records()
    # The server reports one row written per batch, so the counts show what is summed:
    # a node statement with edges counts its rows as nodes and the reported n as edges.
    driver = FakeDriver(written=lambda statement, rows: 1)
    store = _store(driver)
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
    assert set(doc) == set(Document.model_fields) - {"updated_at"}  # none in these records
    # Edges travel as id pairs (part_of from each concept's parent_ids).
    part_of = next(c for c in driver.calls if c.statement == cypher.MERGE_PART_OF).params["rows"]
    assert part_of == [
        {"child_id": "ccss:6.NS.A.1", "parent_id": "lc:g6"},
        {"child_id": "ccss:6.NS.A.1", "parent_id": "lc:missing"},
        {"child_id": "eedi:construct:1", "parent_id": "eedi:subject:1"},
    ]


def test_every_model_field_is_a_storable_property() -> None:
    # Neo4j stores scalars and homogeneous lists of scalars; a nested field would need JSON.
    records = _records()
    for model in [*records.concepts, *records.documents, *records.misconceptions]:
        for name, value in model.model_dump(mode="json").items():
            ok = value is None or isinstance(value, str | int | float | bool)
            ok = ok or (isinstance(value, list) and all(isinstance(v, str) for v in value))
            assert ok, (type(model).__name__, name, value)


async def test_interrupted_ingest_reports_its_commits_and_a_rerun_sends_every_batch() -> None:
    records = _records()
    clean = FakeDriver()
    clean_counts = await _store(clean).upsert(records, batch_size=2)

    # Calls 0..12: concepts (5 batches), part_of (2), prerequisites (5), documents rows 0..1.
    driver = FakeDriver(error=ServiceUnavailable("connection lost"), fail_at_call=13)
    store = _store(driver)
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
        await _store(FakeDriver()).upsert(_records(), batch_size=0)


# -- schema, verify, stats, errors, driver ------------------------------------------------------


async def test_ensure_schema_runs_each_schema_statement_then_waits_for_indexes() -> None:
    driver = FakeDriver()
    await _store(driver).ensure_schema(await_indexes_s=60)
    # verify() first: it tells Neo4j from ArcadeDB.
    assert [c.statement for c in driver.calls[:2]] == ["", cypher.VERIFY]
    schema = driver.calls[2:]
    assert [c.statement for c in schema] == [*cypher.SCHEMA, cypher.AWAIT_INDEXES]
    assert schema[-1].params == {"timeout_s": 60}
    assert all(c.routing == RoutingControl.WRITE for c in schema)


class RecordingSql:
    """Stands for ArcadeDB's HTTP API: records the SQL statements it is sent."""

    def __init__(self) -> None:
        self.statements: list[str] = []
        self.closed = False

    async def run(self, statement: str) -> None:
        self.statements.append(statement)

    async def aclose(self) -> None:
        self.closed = True


async def test_on_arcadedb_the_full_text_indexes_are_made_with_its_sql() -> None:
    driver = FakeDriver(agent="Neo4j/5.26.0 compatible (ArcadeDB 26.10.2)")
    with pytest.raises(StoreError, match="TUTORGRAPH_ARCADEDB_HTTP_URL"):
        await _store(driver).ensure_schema()
    sql = RecordingSql()
    store = Neo4jGraphStore(driver, database="tutor", sql=sql)  # type: ignore[arg-type]
    driver.calls.clear()
    await store.ensure_schema()
    statements = [c.statement for c in driver.calls[2:]]
    # Constraints as Cypher, no CREATE FULLTEXT INDEX, no db.awaitIndexes: the states polled.
    assert statements == [*cypher.CONSTRAINTS, cypher.INDEX_STATES]
    assert sql.statements == list(cypher.ARCADEDB_FULLTEXT_SQL)
    await store.aclose()
    assert sql.closed and driver.closed


def test_a_second_event_loop_is_a_clear_store_error() -> None:
    store = _store(FakeDriver())
    asyncio.run(store.unknown_concepts(["ccss:6.NS.A.1"]))
    with pytest.raises(StoreError, match="another event loop") as info:
        asyncio.run(store.unknown_concepts(["ccss:6.NS.A.1"]))
    assert info.value.details["cause"] == "event loop"


async def test_verify_reports_the_server() -> None:
    driver = FakeDriver()
    store = _store(driver)
    assert await store.verify() == {
        "database": "tutor",
        "server": "Neo4j Kernel",
        "version": "5.26.0",
        "edition": "community",
        "agent": "Neo4j/5.26.0",
    }
    assert [c.via for c in driver.calls] == ["verify_connectivity", "execute_query"]
    await store.aclose()
    assert driver.closed


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (ServiceUnavailable("Couldn't connect to localhost:7687"), "not reachable"),
        (AuthError("The client is unauthorized"), "rejected the credentials"),
        (
            Neo4jError._hydrate_neo4j(
                code="Neo.ClientError.Database.DatabaseNotFound", message="x"
            ),
            "no database 'tutor'",
        ),
        (
            Neo4jError._hydrate_neo4j(
                code="Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration",
                message="terminated",
            ),
            "timed out on the server",
        ),
        (
            Neo4jError._hydrate_neo4j(
                code="Neo.ClientError.Procedure.ProcedureCallFailed", message="no such index"
            ),
            "ensure_schema",
        ),
    ],
)
async def test_driver_errors_become_store_errors(error: Exception, message: str) -> None:
    driver = FakeDriver(error=error)
    store = _store(driver)
    with pytest.raises(StoreError, match=message) as info:
        await store.search_concepts("fractions", 3)
    assert info.value.details["action"] == "search_concepts"
    assert info.value.__cause__ is error
    with pytest.raises(StoreError, match=message):
        await store.verify()


async def test_a_slow_server_is_a_timeout_store_error() -> None:
    driver = FakeDriver(delay_s=5.0)
    store = _store(driver, timeout_s=0.05)
    with pytest.raises(StoreError, match=r"no answer within 0\.05s"):
        await store.get_concepts(["ccss:6.NS.A.1"])


def test_constructor_checks_its_arguments_without_io() -> None:
    driver = FakeDriver()
    with pytest.raises(ConfigurationError):
        _store(driver, timeout_s=0)
    with pytest.raises(ConfigurationError):
        Neo4jGraphStore(driver, database="")  # type: ignore[arg-type]
    assert driver.calls == []


@pytest.mark.parametrize(
    "uri", ["neo4j+s://example.invalid", "bolt+ssc://example.invalid:7687", "neo4j://localhost"]
)
async def test_neo4j_driver_builds_without_io(uri: str) -> None:
    driver = neo4j_driver(uri, "neo4j", "secret")
    assert isinstance(driver, AsyncDriver)
    await driver.close()
    no_auth = neo4j_driver(uri)
    await no_auth.close()


def test_neo4j_driver_refuses_a_bad_uri() -> None:
    with pytest.raises(ConfigurationError, match="cannot use Neo4j URI"):
        neo4j_driver("ftp://example.invalid", "neo4j", "secret")


async def test_clear_and_prune_are_one_write_each() -> None:
    driver = FakeDriver(rows={"DELETE_MISSING": [{"deleted": 3}]})
    store = _store(driver)
    await store.clear()
    assert await store.prune(["ccss:6.NS.A.1", "lc:g6"]) == 3  # as many as the server says
    assert [
        (STATEMENT_NAMES[c.statement], c.params, c.routing, c.database) for c in driver.calls
    ] == [
        ("DELETE_ALL", {}, RoutingControl.WRITE, "tutor"),
        ("DELETE_MISSING", {"ids": ["ccss:6.NS.A.1", "lc:g6"]}, RoutingControl.WRITE, "tutor"),
    ]
    assert await _store(FakeDriver()).prune([]) == 0  # no row back: nothing deleted
