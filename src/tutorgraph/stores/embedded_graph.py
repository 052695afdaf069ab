"""The embedded curriculum graph: networkx in process, no server (the default GraphStore).

>>> store = EmbeddedGraphStore(records)  # doctest: +SKIP
>>> await store.prerequisite_chains(["ccss:6.NS.A.1"], depth=2)  # doctest: +SKIP
[PrerequisitePath(path=('ccss:5.NF.B.3', 'ccss:6.NS.A.1'), relations=('builds_towards',))]
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.protocols import (
    ConceptMatch,
    EdgeDirection,
    IndexItem,
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

__all__ = ["MAX_PREREQUISITE_DEPTH", "EmbeddedGraphStore", "edge_order"]

MAX_PREREQUISITE_DEPTH = 2


class EmbeddedGraphStore:
    """Concepts, prerequisite edges and misconceptions in a `networkx.MultiDiGraph`.

    Edges run prerequisite -> concept (`PREREQUISITE_OF`), child -> parent (`PART_OF`),
    misconception -> concept (`MISCONCEPTION_OF`) and document -> concept (`ABOUT`), as in the
    Neo4j schema. Its write port changes only this process's copy: an index keeps the
    records in its catalogue and builds the graph from them when it opens.
    """

    def __init__(self, records: SourceRecords) -> None:
        self._load(records)

    def _load(self, records: SourceRecords) -> None:
        self._records = records
        self._g = graph = build_graph(records)
        concepts = [d["record"] for _, d in graph.nodes(data=True) if d["label"] == "Concept"]
        self._concepts: dict[str, Concept] = {c.id: c for c in concepts}
        self._codes = {
            c.id.removeprefix("ccss:").casefold(): c.id
            for c in concepts
            if c.id.startswith("ccss:")
        }
        # Each node's edges by type, in the orders the reads give them: a concept of a
        # section has a hundred and more documents, and the reads that ask for its
        # prerequisites or misconceptions (the packet's slots, per request) must not walk them.
        self._edges_in: dict[str, list[Prerequisite]] = {}
        self._edges_out: dict[str, list[Prerequisite]] = {}
        self._about: dict[str, dict[str, list[str]]] = {}
        self._misconceptions_at: dict[str, list[str]] = {}
        for source, target, data in graph.edges(data=True):
            kind = data["type"]
            if kind == "PREREQUISITE_OF":
                self._edges_in.setdefault(target, []).append(data["record"])
                self._edges_out.setdefault(source, []).append(data["record"])
            elif kind == "ABOUT":
                doc_kind = graph.nodes[source]["record"].kind
                self._about.setdefault(target, {}).setdefault(doc_kind, []).append(source)
            elif kind == "MISCONCEPTION_OF":
                self._misconceptions_at.setdefault(target, []).append(source)
        for edges in self._edges_in.values():
            edges.sort(key=lambda e: edge_order(e, "in"))
        for edges in self._edges_out.values():
            edges.sort(key=lambda e: edge_order(e, "out"))
        for by_kind in self._about.values():
            for docs in by_kind.values():
                docs.sort()
        # The full-text indexes a Neo4j store keeps too: misconception texts and concept names.
        self._misconception_text = BM25Index.build(
            [
                IndexItem(id=mid, kind="misconception", title="", text=d["record"].text)
                for mid, d in sorted(graph.nodes(data=True))
                if d["label"] == "Misconception"
            ]
        )
        self._names = BM25Index.build(
            [
                IndexItem(id=c.id, kind="concept", title=c.name, text=c.description)
                for c in sorted(concepts, key=lambda c: c.id)
            ]
        )

    # -- GraphWriter ---------------------------------------------------------------------------

    async def ensure_schema(self) -> None:
        return None  # the full-text indexes are built with the graph

    async def upsert(
        self, records: SourceRecords, *, progress: WriteProgress | None = None
    ) -> dict[str, int]:
        self._load(self._records.merged(records))
        counts = {
            "concepts": len(records.concepts),
            "prerequisites": len(records.prerequisites),
            "misconceptions": len(records.misconceptions),
            "documents": len(records.documents),
        }
        if progress is not None:
            for kind, n in counts.items():
                progress(kind, n, n)
        return counts

    async def prune(self, keep_ids: Sequence[str]) -> int:
        keep = set(keep_ids)
        r = self._records
        kept = SourceRecords(
            concepts=[c for c in r.concepts if c.id in keep],
            prerequisites=r.prerequisites,
            misconceptions=[m for m in r.misconceptions if m.id in keep],
            documents=[d for d in r.documents if d.id in keep],
        ).merged(SourceRecords())  # drops the edges of deleted concepts
        self._load(kept)
        return len(r.node_ids()) - len(kept.node_ids())

    # -- GraphStore ----------------------------------------------------------------------------

    async def unknown_concepts(self, ids: Sequence[str]) -> list[str]:
        return [i for i in ids if i not in self._concepts]

    async def search_concepts(self, text: str, k: int) -> list[ConceptMatch]:
        # An explicit standard code is the strongest possible match.
        exact = sorted(
            {
                cid
                for m in STANDARD_CODE_RE.finditer(text)
                if (cid := self._codes.get(m[0].casefold()))
            }
        )
        out = [ConceptMatch(self._concepts[cid], 1.0, exact=True) for cid in exact]
        hits = [h for h in self._names.search_sync(text, k) if h.item.id not in exact]
        top = max((h.score for h in hits), default=1.0) or 1.0
        out += [ConceptMatch(self._concepts[h.item.id], h.score / top) for h in hits]
        return out[:k]

    async def get_concepts(self, ids: Sequence[str]) -> list[Concept]:
        return [self._concepts[i] for i in ids if i in self._concepts]

    async def get_misconceptions(self, ids: Sequence[str]) -> list[Misconception]:
        out = []
        for i in dict.fromkeys(ids):
            node = self._g.nodes.get(i)
            if node is not None and node.get("label") == "Misconception":
                out.append(node["record"])
        return out

    async def prerequisite_chains(
        self, concept_ids: Sequence[str], depth: int
    ) -> list[PrerequisitePath]:
        if not 1 <= depth <= MAX_PREREQUISITE_DEPTH:
            raise ValueError(f"depth must be 1..{MAX_PREREQUISITE_DEPTH}, got {depth}")
        paths: set[PrerequisitePath] = set()
        for cid in concept_ids:
            if cid not in self._concepts:
                continue
            frontier: list[tuple[tuple[str, ...], tuple[str, ...]]] = [((cid,), ())]
            for _ in range(depth):
                nxt = []
                for path, rels in frontier:
                    for pre, _, data in self._g.in_edges(path[0], data=True):
                        if data["type"] != "PREREQUISITE_OF" or pre in path:
                            continue
                        p = PrerequisitePath((pre, *path), (data["relation"], *rels))
                        paths.add(p)
                        nxt.append((p.path, p.relations))
                frontier = nxt
        return sorted(paths, key=lambda p: (p.path[-1], p.depth, p.path, p.relations))

    async def edges_of(
        self, concept_ids: Sequence[str], direction: EdgeDirection
    ) -> list[Prerequisite]:
        if direction not in ("in", "out"):
            raise ValueError(f"direction must be 'in' or 'out', got {direction!r}")
        edges = self._edges_in if direction == "in" else self._edges_out
        out: list[Prerequisite] = []
        for cid in dict.fromkeys(concept_ids):
            if cid in self._concepts:
                out += edges.get(cid, [])
        return out

    async def misconceptions_of(
        self, concept_ids: Sequence[str], query: str | None = None
    ) -> list[MisconceptionLink]:
        pairs: list[tuple[Misconception, str]] = []
        for cid in concept_ids:
            for mid in self._misconceptions_at.get(cid, []):
                pairs.append((self._g.nodes[mid]["record"], cid))
        relevance: dict[str, float] = {}
        if query and pairs:
            relevance = self._misconception_text.scores(query, {m.id for m, _ in pairs})
        out = [MisconceptionLink(m, cid, relevance.get(m.id, 0.0)) for m, cid in pairs]
        out.sort(key=lambda link: (link.concept_id, link.misconception.id))
        return out

    async def documents_of(
        self, concept_ids: Sequence[str], kinds: Sequence[str], limit: int
    ) -> list[Document]:
        wanted = set(kinds)
        out: dict[str, Document] = {}
        for cid in concept_ids:
            by_kind = self._about.get(cid, {})
            found = [by_kind[k] for k in sorted(wanted) if k in by_kind]
            docs = found[0] if len(found) == 1 else sorted(d for f in found for d in f)
            for did in docs:
                out.setdefault(did, self._g.nodes[did]["record"])
                if len(out) >= limit:
                    return list(out.values())
        return list(out.values())

    async def stats(self) -> dict[str, dict[str, int]]:
        """Nodes per label and relationships per type, as `Neo4jGraphStore.stats()`."""
        nodes = {label: 0 for label in ("Concept", "Document", "Misconception")}
        for _, label in self._g.nodes(data="label"):
            nodes[label] += 1
        rels = {t: 0 for t in ("PART_OF", "PREREQUISITE_OF", "ABOUT", "MISCONCEPTION_OF")}
        for _, _, t in self._g.edges(data="type"):
            rels[t] += 1
        return {"nodes": nodes, "relationships": rels}

    async def aclose(self) -> None:
        return None


def edge_order(edge: Prerequisite, direction: EdgeDirection) -> tuple[str, str]:
    """How `edges_of` orders one concept's edges: by relation, then the other end."""
    return edge.relation, edge.prerequisite_id if direction == "in" else edge.concept_id


def build_graph(records: SourceRecords) -> nx.MultiDiGraph:
    """Build the graph; later records with the same id replace earlier ones."""
    g = nx.MultiDiGraph()
    for c in records.concepts:
        g.add_node(c.id, label="Concept", record=c)
    for c in records.concepts:
        for parent in c.parent_ids:
            if parent in g:
                g.add_edge(c.id, parent, key="PART_OF", type="PART_OF")
    for p in records.prerequisites:
        if p.prerequisite_id in g and p.concept_id in g:
            g.add_edge(
                p.prerequisite_id,
                p.concept_id,
                key=f"PREREQUISITE_OF:{p.relation}",
                type="PREREQUISITE_OF",
                relation=p.relation,
                record=p,
            )
    for d in records.documents:
        g.add_node(d.id, label="Document", record=d)
        for cid in d.concept_ids:
            if cid in g:
                g.add_edge(d.id, cid, key="ABOUT", type="ABOUT")
    for m in records.misconceptions:
        g.add_node(m.id, label="Misconception", record=m)
        for cid in m.concept_ids:
            if cid in g:
                g.add_edge(m.id, cid, key="MISCONCEPTION_OF", type="MISCONCEPTION_OF")
    return g
