"""Neo4jGraphStore against a recording driver double: statements and mapping only.

These tests check which fixed statement each call sends, with which parameters (user text
only ever as an escaped parameter), in how many round trips, and how the rows that come back
become models in exactly the embedded store's order. The double answers each statement from
Python data the way the statement is meant to work; passing here is NOT proof that Neo4j
parses or runs the Cypher like that. Only a real server can show that.
"""

from __future__ import annotations

import ast
import asyncio
import random
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from neo4j import AsyncDriver, EagerResult, Query, Record, RoutingControl
from neo4j.exceptions import AuthError, Neo4jError, ServiceUnavailable

from tutorgraph.errors import ConfigurationError, StoreError
from tutorgraph.models.curriculum import Concept, Document, Misconception, Prerequisite
from tutorgraph.models.records import SourceRecords
from tutorgraph.stores import cypher
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.embedded_graph import MAX_PREREQUISITE_DEPTH, EmbeddedGraphStore
from tutorgraph.stores.lucene import fulltext_query
from tutorgraph.stores.neo4j_driver import neo4j_driver
from tutorgraph.stores.neo4j_graph import Neo4jGraphStore
from tutorgraph.stores.protocols import GraphStore, IndexItem

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


def _unescape(lucene: str) -> str:
    return re.sub(r"\\(.)", r"\1", lucene.replace(" OR ", " "))


# -- the recording double ------------------------------------------------------------------------


@dataclass
class Call:
    via: str  # execute_query | execute_write | verify_connectivity
    statement: str
    params: dict[str, Any]
    routing: Any = None
    database: str | None = None
    timeout: float | None = None


@dataclass
class FakeGraph:
    """What the statements are meant to do, in Python: MERGE writes and the reads."""

    concepts: dict[str, dict[str, Any]] = field(default_factory=dict)
    documents: dict[str, dict[str, Any]] = field(default_factory=dict)
    misconceptions: dict[str, dict[str, Any]] = field(default_factory=dict)
    part_of: set[tuple[str, str]] = field(default_factory=set)
    prerequisite_of: dict[tuple[str, str, str], dict[str, Any]] = field(default_factory=dict)
    about: set[tuple[str, str]] = field(default_factory=set)
    misconception_of: set[tuple[str, str]] = field(default_factory=set)
    shuffle: random.Random = field(default_factory=lambda: random.Random(7), compare=False)

    # writes ------------------------------------------------------------------------------------

    def write(self, statement: str, rows: list[dict[str, Any]]) -> int:
        n = 0
        for row in rows:
            if statement == cypher.MERGE_CONCEPTS:
                self.concepts[row["id"]] = dict(row)
                n += 1
            elif statement == cypher.MERGE_PART_OF:
                if row["child_id"] in self.concepts and row["parent_id"] in self.concepts:
                    self.part_of.add((row["child_id"], row["parent_id"]))
                    n += 1
            elif statement == cypher.MERGE_PREREQUISITES:
                pre, cid = row["prerequisite_id"], row["concept_id"]
                if pre in self.concepts and cid in self.concepts:
                    self.prerequisite_of[pre, cid, row["relation"]] = {"source": row["source"]}
                    n += 1
            elif statement in (cypher.MERGE_DOCUMENTS, cypher.MERGE_MISCONCEPTIONS):
                docs = statement == cypher.MERGE_DOCUMENTS
                (self.documents if docs else self.misconceptions)[row["id"]] = dict(row)
                for cid in row.get("concept_ids", []):
                    if cid in self.concepts:
                        (self.about if docs else self.misconception_of).add((row["id"], cid))
                        n += 1
            else:
                raise AssertionError(f"not an ingest statement: {statement}")
        return n

    # reads -------------------------------------------------------------------------------------

    def _props(self, props: dict[str, Any]) -> dict[str, Any]:
        # A property the models lack must be ignored on the way back.
        return {**props, "ingested_by": "someone else"}

    def answer(self, statement: str, p: dict[str, Any]) -> list[dict[str, Any]]:
        rows = self._answer(statement, p)
        self.shuffle.shuffle(rows)  # servers promise no order: the store must sort
        return rows

    def _answer(self, s: str, p: dict[str, Any]) -> list[dict[str, Any]]:
        c = cypher
        if s == c.GET_CONCEPTS:
            return [
                {"props": self._props(self.concepts[i])} for i in p["ids"] if i in self.concepts
            ]
        if s == c.GET_MISCONCEPTIONS:
            return [
                {"props": self._props(self.misconceptions[i])}
                for i in p["ids"]
                if i in self.misconceptions
            ]
        if s == c.KNOWN_CONCEPT_IDS:
            return [{"id": i} for i in p["ids"] if i in self.concepts]
        if s in (c.CONCEPTS_BY_CODE, c.SEARCH_CONCEPTS):
            rows = [
                {"props": self._props(props), "score": 1.0, "exact": True}
                for cid, props in self.concepts.items()
                if cid.startswith("ccss:") and cid[5:].lower() in p["codes"]
            ]
            if s == c.SEARCH_CONCEPTS:
                hits = self._concept_index().search_sync(_unescape(p["query"]), p["limit"])
                rows += [
                    {
                        "props": self._props(self.concepts[h.item.id]),
                        "score": h.score,
                        "exact": False,
                    }
                    for h in hits
                ]
            return rows
        for depth, statement in c.PREREQUISITE_CHAINS.items():
            if s == statement:
                return [
                    {"ids": list(path), "relations": list(rels)}
                    for cid in p["concept_ids"]
                    if cid in self.concepts
                    for path, rels in self._paths_to(cid, depth)
                ]
        if s in (c.MISCONCEPTIONS_OF, c.MISCONCEPTIONS_OF_SCORED):
            rows = [
                {
                    "concept_id": cid,
                    "misconception_id": mid,
                    "props": self._props(self.misconceptions[mid]),
                    "score": None,
                }
                for cid in p["concept_ids"]
                for mid, target in sorted(self.misconception_of)
                if target == cid and cid in self.concepts
            ]
            if s == c.MISCONCEPTIONS_OF_SCORED:
                linked = {m for m, cid in self.misconception_of if cid in p["concept_ids"]}
                scores = self._misconception_index().scores(_unescape(p["query"]), linked)
                rows += [
                    {"concept_id": None, "misconception_id": mid, "props": None, "score": sc}
                    for mid, sc in scores.items()
                ]
            return rows
        if s == c.DOCUMENTS_OF:
            rows = []
            for cid in p["concept_ids"]:
                ids = sorted(
                    d
                    for d, target in self.about
                    if target == cid and self.documents[d]["kind"] in p["kinds"]
                )
                if ids and cid in self.concepts:
                    docs = [self._props(self.documents[d]) for d in ids][: p["per_concept"]]
                    rows.append({"concept_id": cid, "documents": docs})
            return rows
        if s == c.STATS:
            nodes = {"Concept": self.concepts, "Document": self.documents}
            nodes["Misconception"] = self.misconceptions
            rels: dict[str, Any] = {"PART_OF": self.part_of, "ABOUT": self.about}
            rels |= {"PREREQUISITE_OF": self.prerequisite_of}
            rels |= {"MISCONCEPTION_OF": self.misconception_of}
            return [{"kind": "nodes", "name": k, "total": len(v)} for k, v in nodes.items()] + [
                {"kind": "relationships", "name": k, "total": len(v)} for k, v in rels.items()
            ]
        if s == c.VERIFY:
            return [{"name": "Neo4j Kernel", "versions": ["5.26.0"], "edition": "community"}]
        if s in c.SCHEMA or s == c.AWAIT_INDEXES:
            return []
        if s == c.INDEX_STATES:
            return [{"name": n, "state": "ONLINE"} for n in p["names"]]
        if s == c.DELETE_MISSING:
            keep = set(p["ids"])
            gone = [
                i
                for kept in (self.concepts, self.documents, self.misconceptions)
                for i in list(kept)
                if i not in keep
            ]
            for kept in (self.concepts, self.documents, self.misconceptions):
                for i in gone:
                    kept.pop(i, None)
            for edges in (self.part_of, self.about, self.prerequisite_of, self.misconception_of):
                for edge in list(edges):
                    if edge[0] in gone or edge[1] in gone:
                        edges.discard(edge)
            return [{"deleted": len(gone)}]
        if s == c.DELETE_ALL:
            for kept in (self.concepts, self.documents, self.misconceptions):
                kept.clear()
            for edges in (self.part_of, self.about, self.prerequisite_of, self.misconception_of):
                edges.clear()
            return []
        raise AssertionError(f"unexpected statement: {s}")

    def _paths_to(self, cid: str, depth: int) -> Iterator[tuple[tuple[str, ...], tuple[str, ...]]]:
        frontier: list[tuple[tuple[str, ...], tuple[str, ...]]] = [((cid,), ())]
        for _ in range(depth):
            nxt = []
            for path, rels in frontier:
                for pre, target, rel in self.prerequisite_of:
                    if target == path[0] and pre not in path:
                        nxt.append(((pre, *path), (rel, *rels)))
            yield from nxt
            frontier = nxt

    def _concept_index(self) -> BM25Index:
        return BM25Index.build(
            [
                IndexItem(id=cid, kind="concept", title=p["name"], text=p.get("description", ""))
                for cid, p in sorted(self.concepts.items())
            ]
        )

    def _misconception_index(self) -> BM25Index:
        return BM25Index.build(
            [
                IndexItem(id=mid, kind="misconception", title="", text=p["text"])
                for mid, p in sorted(self.misconceptions.items())
            ]
        )


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
        return FakeResult(self._driver.graph.write(statement, params["rows"]))


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
    """Implements just what Neo4jGraphStore calls, and records every statement."""

    def __init__(
        self,
        graph: FakeGraph | None = None,
        *,
        error: Exception | None = None,
        fail_at_call: int | None = None,
        delay_s: float = 0.0,
        agent: str = "Neo4j/5.26.0",
    ) -> None:
        self.agent = agent
        self.graph = graph or FakeGraph()
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
        rows = self.graph.answer(text, params)
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


async def _ingested(records: SourceRecords, **kw: Any) -> tuple[Neo4jGraphStore, FakeDriver]:
    driver = FakeDriver()
    store = _store(driver)
    await store.upsert(records, **kw)
    driver.calls.clear()
    return store, driver


def _random_records(seed: int) -> SourceRecords:
    rng = random.Random(seed)
    ids = [f"ccss:{g}.NS.A.{i}" for g in (5, 6) for i in range(1, 6)] + ["lc:a", "lc:b"]
    rels = ["builds_towards", "relates_to", "prepares_for"]
    kinds = ["explanation", "worked_example", "exercise", "question"]
    return SourceRecords(
        concepts=[_concept(i, i, f"concept {i}", parent_ids=rng.sample(ids, 1)) for i in ids],
        prerequisites=[
            Prerequisite(
                prerequisite_id=rng.choice(ids),
                concept_id=rng.choice(ids),
                relation=rng.choice(rels),
                source="t",
            )
            for _ in range(30)
        ],
        misconceptions=[
            Misconception(
                id=f"eedi:misconception:{i}",
                text=f"wrong idea {i}",
                concept_ids=rng.sample(ids, rng.randint(0, 3)),
                source="eedi",
                license="x",
            )
            for i in range(12)
        ],
        documents=[
            Document(
                id=f"openstax:m:{i:02d}",
                kind=rng.choice(kinds),
                text="t",
                concept_ids=rng.sample(ids, rng.randint(0, 3)),
                source="o",
                license="x",
            )
            for i in range(25)
        ],
    )


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


def test_store_source_never_builds_a_statement() -> None:
    source = (SRC / "stores" / "neo4j_graph.py").read_text(encoding="utf-8")
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


# -- 2. the recording double: statements, parameters, round trips --------------------------------


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
    ("stats", lambda s: s.stats(), "STATS"),
]


@pytest.mark.parametrize(("label", "method", "statement"), READS, ids=[r[0] for r in READS])
async def test_each_read_is_one_bounded_read_transaction(
    label: str, method: Callable[[Neo4jGraphStore], Any], statement: str
) -> None:
    store, driver = await _ingested(_records())
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
    store, driver = await _ingested(_records())
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
    store, driver = await _ingested(_records())
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
    store, driver = await _ingested(_records())
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


# -- mapping and ordering: the same answers as the embedded store --------------------------------


async def _same(a: GraphStore, b: GraphStore, name: str, *args: Any) -> Any:
    ours, theirs = await getattr(a, name)(*args), await getattr(b, name)(*args)
    if name == "prerequisite_chains":
        # The embedded store sorts by (end, depth, path) and leaves paths over the same nodes
        # with other relations in set order, which changes with the hash seed; ours breaks
        # that tie by the relations. Same order otherwise.
        theirs = sorted(theirs, key=lambda p: (p.path[-1], p.depth, p.path, p.relations))
    assert ours == theirs, (name, args)
    return ours


async def test_answers_equal_the_embedded_store() -> None:
    records = _records()
    store, _ = await _ingested(records, batch_size=2)
    emb = EmbeddedGraphStore(records)
    ids = ["ccss:6.NS.A.1", "nope:1", "eedi:construct:1", "ccss:6.NS.A.1", "eedi:misconception:1"]
    got = await _same(store, emb, "get_concepts", ids)
    assert [c.id for c in got] == ["ccss:6.NS.A.1", "eedi:construct:1", "ccss:6.NS.A.1"]
    assert got[0] == records.concepts[0]  # every field survives the round trip
    assert (await _same(store, emb, "get_concepts", ["ccss:5.NF.B.4"]))[0].grade == "5"
    assert await _same(store, emb, "unknown_concepts", ids) == ["nope:1", "eedi:misconception:1"]
    misc = await _same(store, emb, "get_misconceptions", [*reversed(ids), "eedi:misconception:1"])
    assert [m.id for m in misc] == ["eedi:misconception:1"]

    for depth in (1, 2):
        for cids in (
            ["ccss:6.NS.A.1"],
            ["ccss:7.NS.A.1", "ccss:5.NF.B.3", "x:y"],
            ["ccss:6.RP.A.1"],
        ):
            await _same(store, emb, "prerequisite_chains", cids, depth)
    chains = await store.prerequisite_chains(["ccss:6.NS.A.1"], 2)
    assert [(p.path, p.relations) for p in chains][:4] == [
        (("ccss:5.NF.B.3", "ccss:6.NS.A.1"), ("builds_towards",)),
        (("ccss:5.NF.B.3", "ccss:6.NS.A.1"), ("relates_to",)),
        (("ccss:5.NF.B.4", "ccss:6.NS.A.1"), ("builds_towards",)),
        (("ccss:7.NS.A.1", "ccss:6.NS.A.1"), ("relates_to",)),
    ]
    assert all(len(set(p.path)) == len(p.path) for p in chains)

    for cids in (["ccss:6.NS.A.1"], ["eedi:construct:1", "ccss:6.NS.A.1", "eedi:construct:1"]):
        await _same(store, emb, "misconceptions_of", cids)
        await _same(store, emb, "misconceptions_of", cids, "dividing fractions")
    links = await store.misconceptions_of(
        ["ccss:6.NS.A.1"], "flips wrong fraction dividing numerators"
    )
    assert [link.misconception.id for link in links] == [
        "eedi:misconception:1",
        "eedi:misconception:2",
    ]
    assert links[1].misconception.text == "Flips the wrong fraction when dividing"  # the later
    assert links[1].relevance > links[0].relevance > 0
    assert all(x.relevance == 0.0 for x in await store.misconceptions_of(["ccss:6.NS.A.1"]))

    kinds_all = ["explanation", "worked_example", "exercise", "question"]
    for cids in (["ccss:6.NS.A.1", "ccss:5.NF.B.3"], ["ccss:5.NF.B.3", "ccss:6.NS.A.1", "x:y"]):
        for kinds in (kinds_all, ["exercise"], ["question", "nope"]):
            for limit in (0, 1, 2, 3, 10):
                await _same(store, emb, "documents_of", cids, kinds, limit)

    for text, k in [
        ("6.NS.A.1", 3),
        ("dividing fractions 6.ns.a.1 7.NS.A.1", 4),
        ("hsf-if.b.6", 1),
        ("fraction division", 5),
        ("ratio rational numbers", 2),
        ("6.NS.A.1 5.NF.B.3 7.NS.A.1", 2),
        ("zzz unknown words", 3),
    ]:
        await _same(store, emb, "search_concepts", text, k)
    matches = await store.search_concepts("quotients fractions 7.ns.a.1", 4)
    assert (matches[0].concept.id, matches[0].score, matches[0].exact) == (
        "ccss:7.NS.A.1",
        1.0,
        True,
    )
    assert [m.exact for m in matches] == [True, False, False, False]
    assert matches[1].score == 1.0 and all(0 < m.score <= 1.0 for m in matches)


@pytest.mark.parametrize("seed", range(4))
async def test_random_graphs_answer_like_the_embedded_store(seed: int) -> None:
    records = _random_records(seed)
    store, _ = await _ingested(records, batch_size=7)
    emb = EmbeddedGraphStore(records)
    rng = random.Random(seed)
    ids = [c.id for c in records.concepts] + ["nope:1"]
    for _ in range(15):
        cids = rng.sample(ids, rng.randint(1, 4))
        await _same(store, emb, "prerequisite_chains", cids, rng.choice((1, 2)))
        await _same(store, emb, "misconceptions_of", cids)
        await _same(store, emb, "misconceptions_of", cids, f"wrong idea {rng.randint(0, 11)}")
        kinds = rng.sample(["explanation", "worked_example", "exercise", "question"], 2)
        await _same(store, emb, "documents_of", cids, kinds, rng.randint(0, 6))
        await _same(store, emb, "get_concepts", cids)
        await _same(store, emb, "unknown_concepts", cids)


async def test_a_node_that_is_not_a_valid_record_is_a_store_error() -> None:
    store, driver = await _ingested(_records())
    driver.graph.concepts["ccss:6.NS.A.1"]["kind"] = "planet"
    with pytest.raises(StoreError, match="not a valid Concept"):
        await store.get_concepts(["ccss:6.NS.A.1"])


# -- ingest -------------------------------------------------------------------------------------


async def test_ingest_batches_in_managed_write_transactions() -> None:
    records = _records()
    driver = FakeDriver()
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
        "concepts": 10,
        "part_of": 2,  # lc:missing is no concept
        "prerequisites": 8,  # ccss:9.ZZ.Z.9 is no concept
        "documents": 7,
        "about": 7,
        "misconceptions": 4,
        "misconception_of": 6,
    }
    assert driver.sessions_closed == 1
    # Every model field is a property; None is left out, lists stay lists.
    first = driver.calls[0].params["rows"][0]
    dumped = records.concepts[0].model_dump(mode="json")
    assert first == {k: v for k, v in dumped.items() if v is not None}
    assert "grade" not in driver.calls[0].params["rows"][2]  # ccss:5.NF.B.4 (first) has none
    doc = next(c for c in driver.calls if c.statement == cypher.MERGE_DOCUMENTS).params["rows"][0]
    assert set(doc) == set(Document.model_fields) - {"updated_at"}  # none in these records
    stats = await store.stats()
    assert stats == {
        "nodes": {"Concept": 9, "Document": 7, "Misconception": 3},
        "relationships": {"PART_OF": 2, "ABOUT": 7, "PREREQUISITE_OF": 8, "MISCONCEPTION_OF": 5},
    }


def test_every_model_field_is_a_storable_property() -> None:
    # Neo4j stores scalars and homogeneous lists of scalars; a nested field would need JSON.
    records = _records()
    for model in [*records.concepts, *records.documents, *records.misconceptions]:
        for name, value in model.model_dump(mode="json").items():
            ok = value is None or isinstance(value, str | int | float | bool)
            ok = ok or (isinstance(value, list) and all(isinstance(v, str) for v in value))
            assert ok, (type(model).__name__, name, value)


async def test_interrupted_ingest_keeps_its_commits_and_a_rerun_completes_it() -> None:
    records = _records()
    clean = FakeDriver()
    clean_counts = await _store(clean).upsert(records, batch_size=2)

    driver = FakeDriver(error=ServiceUnavailable("connection lost"), fail_at_call=13)
    store = _store(driver)
    with pytest.raises(StoreError, match=r"re-run to complete") as info:
        await store.upsert(records, batch_size=2)
    assert "documents rows 2..3" in info.value.message
    assert info.value.details["committed"]["concepts"] == 10
    assert len(driver.graph.documents) == 2  # the first documents batch is committed
    driver.error = None
    assert await store.upsert(records, batch_size=2) == clean_counts
    assert driver.graph == clean.graph  # the re-run adds nothing twice


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


async def test_clear_deletes_what_ingest_wrote() -> None:
    driver = FakeDriver()
    store = _store(driver)
    await store.upsert(_records())
    assert (await store.stats())["nodes"]["Concept"] > 0
    await store.clear()
    stats = await store.stats()
    assert set(stats["nodes"].values()) == {0} and set(stats["relationships"].values()) == {0}


async def test_prune_deletes_the_nodes_left_out_and_their_edges() -> None:
    driver = FakeDriver()
    store = _store(driver)
    records = _records()
    await store.upsert(records)
    keep = [c.id for c in records.concepts] + [d.id for d in records.documents]
    assert await store.prune(keep) == len({m.id for m in records.misconceptions})
    stats = await store.stats()
    assert stats["nodes"]["Misconception"] == 0
    assert stats["relationships"]["MISCONCEPTION_OF"] == 0
    assert stats["nodes"]["Concept"] == len({c.id for c in records.concepts})
