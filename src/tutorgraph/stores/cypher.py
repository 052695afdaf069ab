"""Every Cypher statement tutorgraph sends to Neo4j, as fixed module constants.

No other module holds Cypher. Every value travels as a `$parameter`; what Cypher cannot
parameterise (labels, relationship types, hop bounds, index names) is spelled out in fixed
statements, and where a statement varies the caller picks one of them by a validated key
(`PREREQUISITE_CHAINS[depth]`), never by building text.

Graph (design section 4): `(:Concept)-[:PART_OF]->(:Concept)` child to parent,
`(:Concept)-[:PREREQUISITE_OF {relation}]->(:Concept)` prerequisite to concept,
`(:Document)-[:ABOUT]->(:Concept)`, `(:Misconception)-[:MISCONCEPTION_OF]->(:Concept)`.
Nodes hold every field of their pydantic model as a property.

>>> sorted(PREREQUISITE_CHAINS)
[1, 2]
>>> "$rows" in MERGE_CONCEPTS
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal, LiteralString

__all__ = [
    "ARCADEDB_AGENT",
    "ARCADEDB_FULLTEXT_SQL",
    "AWAIT_INDEXES",
    "CONCEPTS_BY_CODE",
    "CONCEPT_FULLTEXT_INDEX",
    "CONCEPT_ID_UNIQUE",
    "CONCEPT_NAMES_INDEX",
    "CONSTRAINTS",
    "DELETE_ALL",
    "DELETE_MISSING",
    "DOCUMENTS_OF",
    "DOCUMENT_ID_UNIQUE",
    "EDGES_OF",
    "GET_CONCEPTS",
    "GET_MISCONCEPTIONS",
    "INDEX_STATES",
    "KNOWN_CONCEPT_IDS",
    "MERGE_CONCEPTS",
    "MERGE_DOCUMENTS",
    "MERGE_MISCONCEPTIONS",
    "MERGE_PART_OF",
    "MERGE_PREREQUISITES",
    "MISCONCEPTIONS_OF",
    "MISCONCEPTIONS_OF_SCORED",
    "MISCONCEPTION_FULLTEXT_INDEX",
    "MISCONCEPTION_ID_UNIQUE",
    "MISCONCEPTION_TEXTS_INDEX",
    "PREREQUISITE_CHAINS",
    "SCHEMA",
    "SEARCH_CONCEPTS",
    "STATS",
    "VERIFY",
    "EdgeDirection",
    "PrerequisiteDepth",
]

# The two full-text indexes, by name (for messages; the statements spell them out).
CONCEPT_FULLTEXT_INDEX: Final = "concept_names"
MISCONCEPTION_FULLTEXT_INDEX: Final = "misconception_texts"

# -- schema ----------------------------------------------------------------------------------

CONCEPT_ID_UNIQUE: Final[LiteralString] = (
    "CREATE CONSTRAINT concept_id IF NOT EXISTS FOR (c:Concept) REQUIRE c.id IS UNIQUE"
)
MISCONCEPTION_ID_UNIQUE: Final[LiteralString] = (
    "CREATE CONSTRAINT misconception_id IF NOT EXISTS FOR (m:Misconception) REQUIRE m.id IS UNIQUE"
)
DOCUMENT_ID_UNIQUE: Final[LiteralString] = (
    "CREATE CONSTRAINT document_id IF NOT EXISTS FOR (d:Document) REQUIRE d.id IS UNIQUE"
)
# Name and description, as the embedded store's BM25 index reads "name. description".
CONCEPT_NAMES_INDEX: Final[LiteralString] = (
    "CREATE FULLTEXT INDEX concept_names IF NOT EXISTS "
    "FOR (c:Concept) ON EACH [c.name, c.description]"
)
MISCONCEPTION_TEXTS_INDEX: Final[LiteralString] = (
    "CREATE FULLTEXT INDEX misconception_texts IF NOT EXISTS FOR (m:Misconception) ON EACH [m.text]"
)
CONSTRAINTS: Final[tuple[LiteralString, ...]] = (
    CONCEPT_ID_UNIQUE,
    MISCONCEPTION_ID_UNIQUE,
    DOCUMENT_ID_UNIQUE,
)
# Schema commands cannot share a transaction, so each runs on its own, in this order.
SCHEMA: Final[tuple[LiteralString, ...]] = (
    *CONSTRAINTS,
    CONCEPT_NAMES_INDEX,
    MISCONCEPTION_TEXTS_INDEX,
)
# Full-text indexes fill in the background; querying one that is still populating fails.
AWAIT_INDEXES: Final[LiteralString] = "CALL db.awaitIndexes($timeout_s)"
# Where `db.awaitIndexes` is missing (ArcadeDB), the indexes' states are polled instead.
INDEX_STATES: Final[LiteralString] = (
    "SHOW INDEXES YIELD name, state WHERE name IN $names RETURN name, state"
)

# ArcadeDB answers Bolt as "Neo4j/5.26.0 compatible (ArcadeDB <version>)". Its Cypher takes
# the constraints but no full-text index (`CREATE FULLTEXT INDEX` is refused), so the same
# two indexes, with the same names, are made with its SQL (over its HTTP API), after the
# properties they cover are declared. `db.index.fulltext.queryNodes` then reads them.
ARCADEDB_AGENT: Final = "ArcadeDB"
ARCADEDB_FULLTEXT_SQL: Final[tuple[LiteralString, ...]] = (
    "CREATE PROPERTY Concept.name IF NOT EXISTS STRING",
    "CREATE PROPERTY Concept.description IF NOT EXISTS STRING",
    "CREATE INDEX concept_names IF NOT EXISTS ON Concept (name, description) FULL_TEXT",
    "CREATE PROPERTY Misconception.text IF NOT EXISTS STRING",
    "CREATE INDEX misconception_texts IF NOT EXISTS ON Misconception (text) FULL_TEXT",
)

# -- ingest: batched, idempotent (MERGE on the id, then SET replaces the properties) ----------
# Each returns one row `n`: rows written for nodes, edges present for edge statements
# (an edge whose endpoint is not a Concept is skipped, as in the embedded store).

MERGE_CONCEPTS: Final[LiteralString] = """
UNWIND $rows AS row
MERGE (c:Concept {id: row.id})
SET c = row
RETURN count(*) AS n
"""

MERGE_PART_OF: Final[LiteralString] = """
UNWIND $rows AS row
MATCH (child:Concept {id: row.child_id})
MATCH (parent:Concept {id: row.parent_id})
MERGE (child)-[:PART_OF]->(parent)
RETURN count(*) AS n
"""

# One edge per (prerequisite, concept, relation), like the embedded store's edge keys.
MERGE_PREREQUISITES: Final[LiteralString] = """
UNWIND $rows AS row
MATCH (pre:Concept {id: row.prerequisite_id})
MATCH (c:Concept {id: row.concept_id})
MERGE (pre)-[r:PREREQUISITE_OF {relation: row.relation}]->(c)
SET r.source = row.source, r.score = row.score, r.method = row.method
RETURN count(*) AS n
"""

# The node and its edges in one statement, so a committed batch never holds an unlinked node;
# `n` counts ABOUT edges (rows without a known concept drop out after their node is written).
MERGE_DOCUMENTS: Final[LiteralString] = """
UNWIND $rows AS row
MERGE (d:Document {id: row.id})
SET d = row
WITH d, row
UNWIND row.concept_ids AS concept_id
MATCH (c:Concept {id: concept_id})
MERGE (d)-[:ABOUT]->(c)
RETURN count(*) AS n
"""

MERGE_MISCONCEPTIONS: Final[LiteralString] = """
UNWIND $rows AS row
MERGE (m:Misconception {id: row.id})
SET m = row
WITH m, row
UNWIND row.concept_ids AS concept_id
MATCH (c:Concept {id: concept_id})
MERGE (m)-[:MISCONCEPTION_OF]->(c)
RETURN count(*) AS n
"""

# -- reads: one statement per GraphStore call --------------------------------------------------

GET_CONCEPTS: Final[LiteralString] = """
UNWIND $ids AS concept_id
MATCH (c:Concept {id: concept_id})
RETURN properties(c) AS props
"""

GET_MISCONCEPTIONS: Final[LiteralString] = """
UNWIND $ids AS misconception_id
MATCH (m:Misconception {id: misconception_id})
RETURN properties(m) AS props
"""

KNOWN_CONCEPT_IDS: Final[LiteralString] = """
UNWIND $ids AS concept_id
MATCH (c:Concept {id: concept_id})
RETURN c.id AS id
"""

# Standard codes as the embedded store keys them: the id without `ccss:`, case-folded
# (`$codes` arrive case-folded; the ids are ASCII, where toLower equals casefold).
CONCEPTS_BY_CODE: Final[LiteralString] = """
MATCH (c:Concept)
WHERE c.id STARTS WITH 'ccss:' AND toLower(substring(c.id, 5)) IN $codes
RETURN properties(c) AS props, 1.0 AS score, true AS exact
"""

# Exact codes and full-text matches in one round trip; `$query` is escaped Lucene syntax.
SEARCH_CONCEPTS: Final[LiteralString] = (
    CONCEPTS_BY_CODE
    + """UNION ALL
CALL db.index.fulltext.queryNodes('concept_names', $query, {limit: $limit})
YIELD node, score
RETURN properties(node) AS props, score, false AS exact
"""
)

PrerequisiteDepth = Literal[1, 2]

_ONE_HOP: Final[LiteralString] = """
UNWIND $concept_ids AS concept_id
MATCH (c:Concept {id: concept_id})
MATCH (p1:Concept)-[r1:PREREQUISITE_OF]->(c)
WHERE p1 <> c
RETURN [p1.id, c.id] AS ids, [r1.relation] AS relations
"""

# Every directed PREREQUISITE_OF path of 1..depth hops ending at each concept, no node twice
# (as the embedded store). Spelled out hop by hop from the anchored concept rather than as a
# variable-length pattern: the same rows, and on ArcadeDB 30x faster (a variable-length
# pattern there scans from the unanchored end).
PREREQUISITE_CHAINS: Final[Mapping[PrerequisiteDepth, LiteralString]] = {
    1: _ONE_HOP,
    2: _ONE_HOP
    + """UNION ALL
UNWIND $concept_ids AS concept_id
MATCH (c:Concept {id: concept_id})
MATCH (p1:Concept)-[r1:PREREQUISITE_OF]->(c)
WHERE p1 <> c
MATCH (p2:Concept)-[r2:PREREQUISITE_OF]->(p1)
WHERE p2 <> c AND p2 <> p1
RETURN [p2.id, p1.id, c.id] AS ids, [r2.relation, r1.relation] AS relations
""",
}

EdgeDirection = Literal["in", "out"]

# Each concept's PREREQUISITE_OF edges one hop in or out, with the edge's properties (the
# caller orders them); the other end must be a Concept, as every edge's is.
EDGES_OF: Final[Mapping[EdgeDirection, LiteralString]] = {
    "in": """
UNWIND $concept_ids AS concept_id
MATCH (c:Concept {id: concept_id})
MATCH (other:Concept)-[r:PREREQUISITE_OF]->(c)
RETURN concept_id AS anchor, other.id AS prerequisite_id, c.id AS concept_id,
       r.relation AS relation, r.source AS source, r.score AS score, r.method AS method
""",
    "out": """
UNWIND $concept_ids AS concept_id
MATCH (c:Concept {id: concept_id})
MATCH (c)-[r:PREREQUISITE_OF]->(other:Concept)
RETURN concept_id AS anchor, c.id AS prerequisite_id, other.id AS concept_id,
       r.relation AS relation, r.source AS source, r.score AS score, r.method AS method
""",
}

# The concept is matched first, by its unique id, in every statement below: ArcadeDB does not
# start from the anchored end of a pattern by itself.
# Rows with a concept_id are links; the scored variant adds rows without one that carry the
# full-text score of each linked misconception matching `$query` (relevance, by id).
MISCONCEPTIONS_OF: Final[LiteralString] = """
UNWIND $concept_ids AS concept_id
MATCH (c:Concept {id: concept_id})
MATCH (m:Misconception)-[:MISCONCEPTION_OF]->(c)
RETURN concept_id, m.id AS misconception_id, properties(m) AS props, null AS score
"""

MISCONCEPTIONS_OF_SCORED: Final[LiteralString] = (
    MISCONCEPTIONS_OF
    + """UNION ALL
CALL db.index.fulltext.queryNodes('misconception_texts', $query)
YIELD node, score
WHERE EXISTS {
  MATCH (node)-[:MISCONCEPTION_OF]->(c:Concept)
  WHERE c.id IN $concept_ids
}
RETURN null AS concept_id, node.id AS misconception_id, null AS props, score
"""
)

# Per concept its documents of the wanted kinds by id, at most `$per_concept` (the caller's
# limit: no concept can contribute more than that to the merged list).
DOCUMENTS_OF: Final[LiteralString] = """
UNWIND $concept_ids AS concept_id
MATCH (c:Concept {id: concept_id})
MATCH (d:Document)-[:ABOUT]->(c)
WHERE d.kind IN $kinds
WITH concept_id, d
ORDER BY d.id
WITH concept_id, collect(properties(d))[..$per_concept] AS documents
RETURN concept_id, documents
"""

# -- operations -------------------------------------------------------------------------------

# Counts of tutorgraph's labels and relationship types (count-store lookups, no scans); each
# branch aggregates without a grouping key, so it yields its row even when the count is 0.
# A row per label and per edge type, zeros included: the count runs with no grouping key
# (`WITH count(...)`), which yields one row even when nothing matches.
STATS: Final[LiteralString] = """
MATCH (n:Concept) WITH count(n) AS total RETURN 'nodes' AS kind, 'Concept' AS name, total
UNION ALL
MATCH (n:Document) WITH count(n) AS total RETURN 'nodes' AS kind, 'Document' AS name, total
UNION ALL
MATCH (n:Misconception) WITH count(n) AS total
RETURN 'nodes' AS kind, 'Misconception' AS name, total
UNION ALL
MATCH ()-[r:PART_OF]->() WITH count(r) AS total
RETURN 'relationships' AS kind, 'PART_OF' AS name, total
UNION ALL
MATCH ()-[r:PREREQUISITE_OF]->() WITH count(r) AS total
RETURN 'relationships' AS kind, 'PREREQUISITE_OF' AS name, total
UNION ALL
MATCH ()-[r:ABOUT]->() WITH count(r) AS total
RETURN 'relationships' AS kind, 'ABOUT' AS name, total
UNION ALL
MATCH ()-[r:MISCONCEPTION_OF]->() WITH count(r) AS total
RETURN 'relationships' AS kind, 'MISCONCEPTION_OF' AS name, total
"""

# Every node of tutorgraph's labels, with its edges (the contract suite and full rebuilds).
DELETE_ALL: Final[LiteralString] = """
MATCH (n) WHERE n:Concept OR n:Document OR n:Misconception
DETACH DELETE n
"""

# What `ingest --prune` removed from the catalogue: every node whose id is not in $ids.
DELETE_MISSING: Final[LiteralString] = """
MATCH (n) WHERE (n:Concept OR n:Document OR n:Misconception) AND NOT n.id IN $ids
DETACH DELETE n
RETURN count(*) AS deleted
"""

VERIFY: Final[LiteralString] = (
    "CALL dbms.components() YIELD name, versions, edition RETURN name, versions, edition"
)
