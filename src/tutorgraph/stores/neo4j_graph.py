"""The Neo4j curriculum graph: the GraphStore protocol on the official async driver.

It answers exactly as `EmbeddedGraphStore` does (same filters, ordering and cut-offs); only
full-text scores differ (Lucene instead of bm25s), which callers use for ordering alone. Each
GraphStore call is one round trip (one statement from `tutorgraph.stores.cypher`, values as
parameters, user text escaped for Lucene), bounded by `timeout_s` on both the server (the
transaction timeout) and the client.

>>> driver = neo4j_driver("neo4j+s://xxxx.databases.neo4j.io", "neo4j", "secret")  # doctest: +SKIP
>>> store = Neo4jGraphStore(driver, database="neo4j", timeout_s=2.0)  # doctest: +SKIP
>>> await store.verify()  # doctest: +SKIP
{'database': 'neo4j', 'server': 'Neo4j Kernel', 'version': '5.26.0', 'edition': 'enterprise'}
>>> await store.ensure_schema()  # doctest: +SKIP
>>> await store.upsert(records)  # doctest: +SKIP
{'concepts': 1200, 'part_of': 900, 'prerequisites': 640, 'documents': 5000, ...}
>>> await store.prerequisite_chains(["ccss:6.NS.A.1"], depth=2)  # doctest: +SKIP
[PrerequisitePath(path=('ccss:5.NF.B.3', 'ccss:6.NS.A.1'), relations=('builds_towards',))]
"""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, LiteralString, TypeVar, cast, get_args

from neo4j import AsyncManagedTransaction, RoutingControl
from neo4j.exceptions import DriverError, Neo4jError
from pydantic import BaseModel, ValidationError

from tutorgraph.errors import ConfigurationError, StoreError
from tutorgraph.models.records import SourceRecords
from tutorgraph.stores import cypher
from tutorgraph.stores.cypher import EdgeDirection, PrerequisiteDepth
from tutorgraph.stores.embedded_graph import MAX_PREREQUISITE_DEPTH, edge_order
from tutorgraph.stores.lucene import fulltext_query
from tutorgraph.stores.neo4j_connection import Neo4jConnection
from tutorgraph.stores.neo4j_errors import driver_error, timeout_error
from tutorgraph.stores.protocols import (
    ConceptMatch,
    MisconceptionLink,
    PrerequisitePath,
    WriteProgress,
)
from tutorgraph_client.models.curriculum import (
    STANDARD_CODE_RE,
    Concept,
    Document,
    Misconception,
    Prerequisite,
)

__all__ = ["Neo4jGraphStore"]


_M = TypeVar("_M", bound=BaseModel)
_DEPTHS: tuple[int, ...] = get_args(PrerequisiteDepth)


class Neo4jGraphStore(Neo4jConnection):
    """Concepts, prerequisites, misconceptions and documents in Neo4j (GraphStore protocol).

    The store owns `driver` (and `sql`): `aclose()` closes them. The constructor does no
    I/O; call `verify()` to check the server and `ensure_schema()` once before `upsert()`.
    On an ArcadeDB Bolt server, `sql` (its HTTP API) makes the full-text indexes.

    An async driver belongs to the event loop that first used it: the store refuses, with a
    `StoreError` saying so, to be used from another loop (another `asyncio.run`).

    >>> store = Neo4jGraphStore(neo4j_driver("neo4j://localhost:7687"))  # doctest: +SKIP
    >>> await store.search_concepts("6.NS.A.1 dividing fractions", 5)  # doctest: +SKIP
    [ConceptMatch(concept=Concept(id='ccss:6.NS.A.1', ...), score=1.0, exact=True), ...]
    """

    # -- operations ----------------------------------------------------------------------------

    async def ensure_schema(self, *, await_indexes_s: int = 300) -> None:
        """Create the id constraints and full-text indexes if missing, and wait until online.

        Neo4j takes them all as Cypher. On ArcadeDB (told by `verify()`'s agent) the
        constraints are Cypher and the full-text indexes its SQL, and the indexes' states
        are polled, as it has no `db.awaitIndexes`.
        """
        arcadedb = cypher.ARCADEDB_AGENT in str((await self.verify())["agent"])
        if arcadedb and self._sql is None:
            raise StoreError(
                "this Bolt server is ArcadeDB, whose Cypher makes no full-text index: give the "
                "store its HTTP API (TUTORGRAPH_ARCADEDB_HTTP_URL) to make them with its SQL",
                details={"database": self._database, "cause": "ArcadeDB without SQL"},
            )
        try:
            for statement in cypher.CONSTRAINTS if arcadedb else cypher.SCHEMA:
                await self._driver.execute_query(
                    statement, routing_=RoutingControl.WRITE, database_=self._database
                )
            if not arcadedb:
                await self._driver.execute_query(
                    cypher.AWAIT_INDEXES,
                    {"timeout_s": await_indexes_s},
                    routing_=RoutingControl.WRITE,
                    database_=self._database,
                )
                return
            assert self._sql is not None
            for sql in cypher.ARCADEDB_FULLTEXT_SQL:
                await self._sql.run(sql)
            await self._poll_indexes(await_indexes_s)
        except (Neo4jError, DriverError) as exc:
            raise driver_error(self._database, exc, "ensure_schema") from exc

    async def _poll_indexes(self, timeout_s: float) -> None:
        """Wait until both full-text indexes are ONLINE."""
        names = [cypher.CONCEPT_FULLTEXT_INDEX, cypher.MISCONCEPTION_FULLTEXT_INDEX]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while True:
            result = await self._driver.execute_query(
                cypher.INDEX_STATES, {"names": names}, database_=self._database
            )
            states = {r["name"]: r["state"] for r in result.records}
            if all(states.get(n) == "ONLINE" for n in names):
                return
            if loop.time() > deadline:
                raise timeout_error(self._database, "ensure_schema (index population)", timeout_s)
            await asyncio.sleep(0.2)

    async def upsert(
        self,
        records: SourceRecords,
        *,
        batch_size: int = 500,
        progress: WriteProgress | None = None,
    ) -> dict[str, int]:
        """Write the records in batches, one managed write transaction per batch.

        Every statement MERGEs on ids, so a re-run changes nothing that is already there and
        completes what an interrupted run left out (the batches it committed stay committed).
        Later records with the same id replace the properties of earlier ones; edges are only
        ever added. Concepts go first, so edges find both of their ends.

        Returns rows written per kind: `concepts`, `documents`, `misconceptions` (nodes) and
        `part_of`, `prerequisites`, `about`, `misconception_of` (edges whose ends exist).
        """
        if batch_size < 1:
            raise ConfigurationError(f"batch_size must be >= 1, got {batch_size}")
        part_of = [
            {"child_id": c.id, "parent_id": p} for c in records.concepts for p in c.parent_ids
        ]
        # (kind, statement, rows, the edge kind its `n` counts for a node statement with edges)
        plan: list[tuple[str, LiteralString, list[dict[str, Any]], str | None]] = [
            ("concepts", cypher.MERGE_CONCEPTS, _rows(records.concepts), None),
            ("part_of", cypher.MERGE_PART_OF, part_of, None),
            ("prerequisites", cypher.MERGE_PREREQUISITES, _rows(records.prerequisites), None),
            ("documents", cypher.MERGE_DOCUMENTS, _rows(records.documents), "about"),
            (
                "misconceptions",
                cypher.MERGE_MISCONCEPTIONS,
                _rows(records.misconceptions),
                "misconception_of",
            ),
        ]
        counts = {k: 0 for kind, _, _, edges in plan for k in (kind, edges) if k is not None}
        action = "ingest"
        try:
            async with self._driver.session(database=self._database) as session:
                for kind, statement, rows, edges in plan:
                    for start in range(0, len(rows), batch_size):
                        batch = rows[start : start + batch_size]
                        action = f"ingest of {kind} rows {start}..{start + len(batch) - 1}"
                        n = await session.execute_write(_write_batch, statement, batch)
                        if edges is None:
                            counts[kind] += n
                        else:  # a node statement that reports the edges it wrote
                            counts[kind] += len(batch)
                            counts[edges] += n
                        if progress is not None:
                            progress(kind, start + len(batch), len(rows))
        except (Neo4jError, DriverError) as exc:
            err = driver_error(self._database, exc, action)
            err.details["committed"] = dict(counts)
            raise StoreError(
                f"{err.message}; the batches before it are committed, re-run to complete",
                details=err.details,
            ) from exc
        return counts

    async def stats(self) -> dict[str, dict[str, int]]:
        """Nodes per label and relationships per type of tutorgraph's schema.

        >>> await store.stats()  # doctest: +SKIP
        {'nodes': {'Concept': 1200, ...}, 'relationships': {'PART_OF': 900, ...}}
        """
        records = await self._read(cypher.STATS, {}, "stats")
        out: dict[str, dict[str, int]] = {"nodes": {}, "relationships": {}}
        for r in records:
            out.setdefault(r["kind"], {})[r["name"]] = int(r["total"])
        return out

    async def clear(self) -> None:
        """Delete every Concept, Document and Misconception node and their edges."""
        try:
            await self._driver.execute_query(
                cypher.DELETE_ALL, routing_=RoutingControl.WRITE, database_=self._database
            )
        except (Neo4jError, DriverError) as exc:
            raise driver_error(self._database, exc, "clear") from exc

    async def prune(self, keep_ids: Sequence[str]) -> int:
        """Delete the nodes whose ids are not in `keep_ids` (with their edges); returns how many.

        >>> await store.prune([c.id for c in records.concepts] + ...)  # doctest: +SKIP
        """
        try:
            result = await self._driver.execute_query(
                cypher.DELETE_MISSING,
                {"ids": list(keep_ids)},
                routing_=RoutingControl.WRITE,
                database_=self._database,
            )
        except (Neo4jError, DriverError) as exc:
            raise driver_error(self._database, exc, "prune") from exc
        return int(result.records[0]["deleted"]) if result.records else 0

    # -- GraphStore ----------------------------------------------------------------------------

    async def search_concepts(self, text: str, k: int) -> list[ConceptMatch]:
        """Standard codes named in `text` first (score 1, exact), then full-text matches
        scored relative to the best, at most `k` in all."""
        if k <= 0:
            return []
        codes = sorted({m[0].casefold() for m in STANDARD_CODE_RE.finditer(text)})
        query = fulltext_query(text)
        params: dict[str, Any]
        if query is not None:
            statement = cypher.SEARCH_CONCEPTS
            params = {"codes": codes, "query": query, "limit": k}
        elif codes:
            statement, params = cypher.CONCEPTS_BY_CODE, {"codes": codes}
        else:
            return []
        records = await self._read(statement, params, "search_concepts")
        exact: dict[str, Concept] = {}
        hits: dict[str, tuple[Concept, float]] = {}
        for r in records:
            concept = _model(Concept, r["props"])
            if r["exact"]:
                exact[concept.id] = concept
            else:
                hits[concept.id] = (concept, float(r["score"]))
        out = [ConceptMatch(exact[cid], 1.0, exact=True) for cid in sorted(exact)]
        # Best first, ties by id (as the embedded store); the exact ones are listed already.
        ranked = sorted(
            (h for cid, h in hits.items() if cid not in exact), key=lambda h: (-h[1], h[0].id)
        )
        top = max((score for _, score in ranked), default=1.0) or 1.0
        out += [ConceptMatch(concept, score / top) for concept, score in ranked]
        return out[:k]

    async def get_concepts(self, ids: Sequence[str]) -> list[Concept]:
        if not ids:
            return []
        records = await self._read(cypher.GET_CONCEPTS, {"ids": _unique(ids)}, "get_concepts")
        found = {c.id: c for c in (_model(Concept, r["props"]) for r in records)}
        return [found[i] for i in ids if i in found]

    async def get_misconceptions(self, ids: Sequence[str]) -> list[Misconception]:
        if not ids:
            return []
        unique = _unique(ids)
        records = await self._read(cypher.GET_MISCONCEPTIONS, {"ids": unique}, "get_misconceptions")
        found = {m.id: m for m in (_model(Misconception, r["props"]) for r in records)}
        return [found[i] for i in unique if i in found]

    async def unknown_concepts(self, ids: Sequence[str]) -> list[str]:
        """The ids among `ids` that name no concept of the graph."""
        if not ids:
            return []
        records = await self._read(
            cypher.KNOWN_CONCEPT_IDS, {"ids": _unique(ids)}, "unknown_concepts"
        )
        known = {r["id"] for r in records}
        return [i for i in ids if i not in known]

    async def prerequisite_chains(
        self, concept_ids: Sequence[str], depth: int
    ) -> list[PrerequisitePath]:
        statement = cypher.PREREQUISITE_CHAINS[_prerequisite_depth(depth)]
        if not concept_ids:
            return []
        records = await self._read(
            statement, {"concept_ids": _unique(concept_ids)}, "prerequisite_chains"
        )
        paths = {PrerequisitePath(tuple(r["ids"]), tuple(r["relations"])) for r in records}
        # The embedded store's key, then the relations: it leaves two relations over the same
        # nodes in set order (which varies with the hash seed); here they are always in order.
        return sorted(paths, key=lambda p: (p.path[-1], p.depth, p.path, p.relations))

    async def edges_of(
        self, concept_ids: Sequence[str], direction: EdgeDirection
    ) -> list[Prerequisite]:
        """The concepts' PREREQUISITE_OF edges one hop in `direction`, as the embedded store
        orders them (by concept asked for, relation, other end)."""
        if direction not in cypher.EDGES_OF:
            raise ValueError(f"direction must be 'in' or 'out', got {direction!r}")
        if not concept_ids:
            return []
        unique = _unique(concept_ids)
        records = await self._read(cypher.EDGES_OF[direction], {"concept_ids": unique}, "edges_of")
        by_anchor: dict[str, list[Prerequisite]] = defaultdict(list)
        for r in records:
            fields = ("prerequisite_id", "concept_id", "relation", "source", "score", "method")
            by_anchor[r["anchor"]].append(_model(Prerequisite, {k: r[k] for k in fields}))
        return [
            edge
            for cid in unique
            for edge in sorted(by_anchor.get(cid, ()), key=lambda e: edge_order(e, direction))
        ]

    async def misconceptions_of(
        self, concept_ids: Sequence[str], query: str | None = None
    ) -> list[MisconceptionLink]:
        """Misconceptions linked to the concepts; with `query`, each gets a full-text relevance."""
        if not concept_ids:
            return []
        lucene = fulltext_query(query)
        params: dict[str, Any] = {"concept_ids": _unique(concept_ids)}
        if lucene is None:
            statement = cypher.MISCONCEPTIONS_OF
        else:
            statement = cypher.MISCONCEPTIONS_OF_SCORED
            params["query"] = lucene
        records = await self._read(statement, params, "misconceptions_of")
        linked: dict[str, list[Misconception]] = defaultdict(list)
        relevance: dict[str, float] = {}
        for r in records:
            if r["concept_id"] is None:
                relevance[r["misconception_id"]] = float(r["score"])
            else:
                linked[r["concept_id"]].append(_model(Misconception, r["props"]))
        # Per concept asked for, repeats included, as the embedded store lists them.
        out = [
            MisconceptionLink(m, cid, relevance.get(m.id, 0.0))
            for cid in concept_ids
            for m in linked.get(cid, ())
        ]
        out.sort(key=lambda link: (link.concept_id, link.misconception.id))
        return out

    async def documents_of(
        self, concept_ids: Sequence[str], kinds: Sequence[str], limit: int
    ) -> list[Document]:
        """Documents of the given kinds linked to the concepts, at most `limit`, by id."""
        if not concept_ids or not kinds:
            return []
        params = {
            "concept_ids": _unique(concept_ids),
            "kinds": _unique(kinds),
            # The embedded store checks the limit after adding, so a limit < 1 still gives one.
            "per_concept": max(limit, 1),
        }
        records = await self._read(cypher.DOCUMENTS_OF, params, "documents_of")
        by_concept = {
            r["concept_id"]: sorted(
                (_model(Document, props) for props in r["documents"]), key=lambda d: d.id
            )
            for r in records
        }
        out: dict[str, Document] = {}
        for cid in concept_ids:
            for doc in by_concept.get(cid, ()):
                out.setdefault(doc.id, doc)
                if len(out) >= limit:
                    return list(out.values())
        return list(out.values())


async def _write_batch(
    tx: AsyncManagedTransaction, statement: LiteralString, rows: list[dict[str, Any]]
) -> int:
    """One ingest batch; idempotent, so the driver may retry it on a transient error."""
    result = await tx.run(statement, {"rows": rows})
    record = await result.single(strict=True)
    return int(record["n"])


def _prerequisite_depth(depth: int) -> PrerequisiteDepth:
    # The same check and message as the embedded store; the statements cover exactly 1..max.
    if depth not in _DEPTHS or not 1 <= depth <= MAX_PREREQUISITE_DEPTH:
        raise ValueError(f"depth must be 1..{MAX_PREREQUISITE_DEPTH}, got {depth}")
    return cast(PrerequisiteDepth, depth)


# Fields holding a list of objects (a misconception's examples): Neo4j properties hold only
# scalars and lists of them, so these are stored as JSON text.
_JSON_PROPERTIES = frozenset({"examples"})


def _property(key: str, value: Any) -> Any:
    return json.dumps(value, ensure_ascii=False) if key in _JSON_PROPERTIES else value


def _rows(models: Sequence[BaseModel]) -> list[dict[str, Any]]:
    """Node properties: every model field; None is left out (Neo4j stores no nulls).

    >>> from tutorgraph_client.models.curriculum import Misconception, MisconceptionExample
    >>> m = Misconception(id="x:m", text="t", source="s", license="l",
    ...     examples=[MisconceptionExample(problem="8 + 3", wrong_answer="10", right_answer="11")])
    >>> row = _rows([m])[0]; row["examples"][:12]
    '[{"problem":'
    >>> _model(Misconception, row) == m
    True
    """
    return [
        {k: _property(k, v) for k, v in m.model_dump(mode="json").items() if v is not None}
        for m in models
    ]


def _model(cls: type[_M], props: Mapping[str, Any]) -> _M:
    """Rebuild a record from its node's properties (other properties are ignored)."""
    fields = {
        k: json.loads(v) if k in _JSON_PROPERTIES and isinstance(v, str) else v
        for k, v in props.items()
        if k in cls.model_fields
    }
    try:
        return cls.model_validate(fields)
    except ValidationError as exc:
        raise StoreError(
            f"Neo4j node {props.get('id')!r} is not a valid {cls.__name__}: {exc}",
            details={"id": props.get("id")},
        ) from exc


def _unique(values: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(values))
