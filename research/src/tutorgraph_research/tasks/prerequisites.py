"""Prerequisite retrieval: given a concept, find the concepts it builds on.

Edges: OpenStax "Be Prepared" links (``prepares_for``: section -> section) and Learning
Commons progressions (``builds_towards``: standard -> standard). Every such edge gets a fold
from a hash of its two ends. A fold's index holds every concept (OpenStax sections, Common
Core standards and groupings; no documents) and every edge except that fold's test edges
(``relates_to`` progressions stay; an edge joining the same two concepts as a test edge, in
either direction, goes too).

An item is one concept with at least one test edge; its query is the concept's name and the
start of its description, and the request passes ``concept_ids=[concept]``. Relevant: its
held-out prerequisites. Ranking: the packet's prerequisite chains ending at the concept,
nearest first, then concept hits in packet order, deduplicated, leaving out the concept
itself and the prerequisites the fold's graph still holds for it (known answers are not
discoveries: the "filtered" setting of link prediction). Recall@10 and MAP@10. The item id
starts with the edge source (``openstax/`` or ``learning-commons/``) so results split by it.

With its test edges gone, a concept's held-out prerequisite can only come back from the
graph over a longer path (A -> B -> concept), or from text similarity: this is where the
prerequisite depth of a graph plan (1 or 2 hops) matters. No reranker is measured here.

>>> shared = Path("../shared/data")
>>> task = PrerequisiteTask(shared / "openstax", shared / "learning-commons")  # doctest: +SKIP
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from tutorgraph.models.records import SourceRecords
from tutorgraph.ranking.metrics import average_precision_at_k, recall_at_k
from tutorgraph_client.models.curriculum import Concept, Prerequisite
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_research.harness.folds import (
    EvalItem,
    Fold,
    eval_item,
    stable_fold,
    stable_sample,
)
from tutorgraph_research.harness.runner import FoldTask

__all__ = [
    "BENCHMARK_RELATIONS",
    "PREREQUISITE_METRICS",
    "PrerequisiteTask",
    "prerequisite_folds",
    "prerequisite_query",
    "prerequisite_ranking",
    "prerequisite_scores",
]

PREREQUISITE_METRICS: tuple[str, ...] = ("recall@10", "map@10")
K = 10
# The author-written prerequisite relations; `relates_to` says "related", not "before".
BENCHMARK_RELATIONS = frozenset({"prepares_for", "builds_towards"})
QUICK_PER_FOLD = 6
_DESCRIPTION_CHARS = 200
_QUESTION = "What should a student know before this?"
# "concept": the concept's own text (the router reads a concept lookup: 1-hop prerequisite
# plan); "question": the same text asked as a prerequisite question (the 2-hop plan).
Phrasing = Literal["concept", "question"]


def _edge_key(p: Prerequisite) -> str:
    return f"{p.prerequisite_id}->{p.concept_id}"


def prerequisite_query(concept: Concept, phrasing: Phrasing = "concept") -> str:
    """The concept's name and the start of its description (its first line, ~200 chars);
    phrased as a question (``"question"``), the router reads it as a prerequisite query.

    >>> c = Concept(id="ccss:6.NS.A.1", name="6.NS.A.1", kind="standard", source="s",
    ...     license="l", description="Interpret and compute quotients of fractions.\\nNote: x")
    >>> prerequisite_query(c)
    '6.NS.A.1: Interpret and compute quotients of fractions.'
    >>> prerequisite_query(c, "question")[:52]
    'What should a student know before this? 6.NS.A.1: In'
    """
    first = concept.description.strip().split("\n", 1)[0].strip()
    if len(first) > _DESCRIPTION_CHARS:
        first = first[:_DESCRIPTION_CHARS].rsplit(" ", 1)[0] + " ..."
    text = concept.name if not first or first == concept.name else f"{concept.name}: {first}"
    return f"{_QUESTION} {text}" if phrasing == "question" else text


@dataclass(frozen=True)
class _Held:
    fold: int
    index: SourceRecords
    # concept -> (held-out prerequisites, prerequisites still in the graph)
    targets: dict[str, tuple[frozenset[str], frozenset[str]]]
    source: dict[str, str]


def prerequisite_folds(records: SourceRecords, *, folds: int = 5) -> list[_Held]:
    """Split the benchmark edges of `records` into folds; see the module docstring."""
    edges = [p for p in records.prerequisites if p.relation in BENCHMARK_RELATIONS]
    source: dict[str, str] = {}
    for p in edges:
        source.setdefault(p.concept_id, p.source)
    out = []
    for f in range(folds):
        test = [p for p in edges if stable_fold(_edge_key(p), folds) == f]
        pairs = {frozenset((p.prerequisite_id, p.concept_id)) for p in test}
        kept = [
            p
            for p in records.prerequisites
            if frozenset((p.prerequisite_id, p.concept_id)) not in pairs
        ]
        held: dict[str, set[str]] = defaultdict(set)
        for p in test:
            held[p.concept_id].add(p.prerequisite_id)
        known: dict[str, set[str]] = defaultdict(set)
        for p in kept:
            if p.relation in BENCHMARK_RELATIONS:
                known[p.concept_id].add(p.prerequisite_id)
        index = SourceRecords(concepts=list(records.concepts), prerequisites=kept)
        targets = {c: (frozenset(v), frozenset(known[c])) for c, v in sorted(held.items())}
        out.append(_Held(f, index, targets, source))
    return out


def prerequisite_ranking(packet: ReasoningPacket, item: EvalItem) -> list[str]:
    """Chains ending at the item's concept (nearest first), then concept hits in packet
    order; without the concept itself and its known prerequisites (`item.extra`)."""
    concept = item.concept_ids[0]
    chains = [p for p in packet.graph_context.prerequisites if p and p[-1] == concept]
    ordered = [p[0] for p in sorted(chains, key=len)]  # stable: ties keep packet order
    ordered += [i for hit in packet.results if hit.kind == "concept" for i in (hit.id, *hit.ids)]
    drop = {concept, *item.extra}
    return list(dict.fromkeys(c for c in ordered if c not in drop))


def prerequisite_scores(ranking: list[str], item: EvalItem) -> dict[str, float]:
    """Recall@10 and MAP@10 of one ranking.

    >>> prerequisite_scores(["a", "b"], eval_item("i", "q", ["b", "c"], concept_ids=["x"]))
    {'recall@10': 0.5, 'map@10': 0.25}
    """
    relevant = set(item.relevant)
    return {
        "recall@10": recall_at_k(ranking, relevant, K),
        "map@10": average_precision_at_k(ranking, relevant, K),
    }


class PrerequisiteTask(FoldTask):
    """Concept -> its held-out prerequisites, 5 folds over OpenStax and Learning Commons edges."""

    name = "prerequisites"
    metrics = PREREQUISITE_METRICS
    reading = "reading the OpenStax books and Learning Commons"
    rerank_reason = (
        "prerequisite retrieval is not a reranking task: the cross-encoders score "
        "how well a text answers a query, not whether a concept comes before another"
    )
    rank = staticmethod(prerequisite_ranking)
    score = staticmethod(prerequisite_scores)

    def __init__(
        self,
        openstax: Path,
        learning_commons: Path,
        *,
        folds: int = 5,
        quick: bool = False,
        work: Path | None = None,
        per_fold: int | None = None,
        phrasing: Phrasing = "concept",
    ) -> None:
        """`per_fold` caps the items (concepts) per fold: a stable sample (quick: a few).
        `phrasing`: how the query is put (see `prerequisite_query`)."""
        if folds < 2:
            raise ValueError("folds must be at least 2")
        self.openstax, self.learning_commons = openstax, learning_commons
        self.folds = folds
        self.per_fold = per_fold if per_fold is not None else (QUICK_PER_FOLD if quick else None)
        self.work = work
        self.phrasing: Phrasing = phrasing
        self.stats: dict[str, Any] = {}

    def load(self) -> SourceRecords:
        """Concepts and edges of both sources (OpenStax documents are dropped)."""
        from tutorgraph.ingest.learning_commons import load_learning_commons
        from tutorgraph.ingest.openstax import load_openstax

        # Chunk sizes only shape documents, which this task drops: count words, not tokens.
        openstax = load_openstax(self.openstax, count_tokens=lambda t: len(t.split()))
        records = load_learning_commons(self.learning_commons)
        records.concepts.extend(openstax.concepts)
        records.prerequisites.extend(openstax.prerequisites)
        return records

    def build_folds(self, records: SourceRecords | None = None) -> list[Fold]:
        """The folds over `records` (default: `load()`)."""
        records = records if records is not None else self.load()
        concepts = {c.id: c for c in records.concepts}
        out = []
        edges: dict[int, int] = {}
        for held in prerequisite_folds(records, folds=self.folds):
            chosen = stable_sample(sorted(held.targets), self.per_fold, key=str)
            items = [
                eval_item(
                    f"{held.source[cid]}/{cid}",
                    prerequisite_query(concepts[cid], self.phrasing),
                    held.targets[cid][0],
                    concept_ids=[cid],
                    extra=held.targets[cid][1],
                )
                for cid in chosen
            ]
            edges[held.fold] = sum(len(held.targets[c][0]) for c in chosen)
            out.append(Fold.of(held.fold, held.index, items))
        self.stats = {"items": {f.number: len(f.items) for f in out}, "held_out_edges": edges}
        return out
