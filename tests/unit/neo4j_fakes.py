"""The recording driver double and the sample records of the Neo4jGraphStore unit tests
(`test_neo4j_statements.py`, `test_neo4j_results.py`, `test_neo4j_server.py`).

`FakeDriver` implements just what the store calls, records every statement it is sent and
answers with canned rows; it never runs a statement::

    store, driver = fresh_store()
    await store.get_concepts(["ccss:6.NS.A.1"])
    assert STATEMENT_NAMES[driver.calls[0].statement] == "GET_CONCEPTS"
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from neo4j import EagerResult, Query, Record, RoutingControl

from tutorgraph.models.records import SourceRecords
from tutorgraph.stores import cypher
from tutorgraph.stores.neo4j_graph import Neo4jGraphStore
from tutorgraph_client.models.curriculum import Concept, Document, Misconception, Prerequisite

__all__ = [
    "STATEMENTS",
    "STATEMENT_NAMES",
    "Call",
    "FakeDriver",
    "RecordingSql",
    "fresh_store",
    "graph_store",
    "sample_records",
]


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


def graph_store(driver: FakeDriver, timeout_s: float = 2.0) -> Neo4jGraphStore:
    return Neo4jGraphStore(driver, database="tutor", timeout_s=timeout_s)  # type: ignore[arg-type]


# -- data ---------------------------------------------------------------------------------------


def _concept(cid: str, name: str, description: str = "", **kw: Any) -> Concept:
    kind = kw.pop("kind", "standard")
    return Concept(
        id=cid, name=name, description=description, kind=kind, source="t", license="CC-BY-4.0", **kw
    )


def sample_records() -> SourceRecords:
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


def fresh_store() -> tuple[Neo4jGraphStore, FakeDriver]:
    driver = FakeDriver()
    return graph_store(driver), driver


class RecordingSql:
    """Stands for ArcadeDB's HTTP API: records the SQL statements it is sent."""

    def __init__(self) -> None:
        self.statements: list[str] = []
        self.closed = False

    async def run(self, statement: str) -> None:
        self.statements.append(statement)

    async def aclose(self) -> None:
        self.closed = True
