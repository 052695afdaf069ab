"""`tutorgraph bench linking`: does a system name the Common Core standard a text is about?

Each item (a MathFish problem, a tutoring message, a word problem; `standards_data`) has one
or more accepted standards. A system ranks standard ids for the item's text; the item scores

* ``hit@k`` (k = 1, 3, 5, 10): an accepted standard is among the first k ids;
* ``cluster_hit@k``: an id among the first k shares its cluster (`cluster_of`, ``6.RP.A``)
  with an accepted standard.

Systems:

* ``packet``: the product. The retriever answers ``RetrievalRequest(query=text)`` and the
  ranking is what the packet names (`packet_ranking`): its linked ``concepts``, the
  refiner's ``key_concepts``, then ``graph_context.concepts``, then the concepts of the hits
  in rank order (`concept_ranking`), ``ccss:`` ids only, first occurrence first. Cluster
  groupings (``ccss:6.RP.A``) stay in the ranking: they never match a standard exactly, and
  match their own cluster.
* ``linker``: the concept linker alone, its 10 best standards.
* ``dense-descriptions`` (the baseline): untrained MiniLM cosine search of the text against
  every standard's code and description (`DenseStandardSearch`).

Every metric has a 95% percentile bootstrap interval (`bootstrap_ci`), and every system but
the baseline the paired difference from it over the same items.

>>> hit_scores(["ccss:6.RP.A.3", "ccss:6.RP.A.3.c"], ("ccss:6.RP.A.3.c",))["hit@1"]
0.0
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.linking import ConceptLinker
from tutorgraph_client.models.grade import Grade, normalize_grade, standard_grade
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import MAX_QUERY_CHARS, RetrievalRequest
from tutorgraph_research.harness.folds import concept_ranking, stable_sample
from tutorgraph_research.harness.results import bootstrap_ci
from tutorgraph_research.tasks.standards_data import (
    CCSS,
    LinkingItem,
    LinkingSet,
    Standard,
    cluster_of,
)

__all__ = [
    "BASELINE",
    "DEPTH",
    "LINKING_KS",
    "METRICS",
    "SYSTEMS",
    "DenseStandardSearch",
    "hit_scores",
    "packet_ranking",
    "run_linking_benchmark",
    "summarize",
]

PACKET = "packet"
BASELINE = "dense-descriptions"
# The concept linker of issue 31 (cards, dense and lexical, fused), untrained.
LINKER = "linker"
# The same systems told the student's grade (the item's, else its first standard's), as an
# app that knows its student sends it (issue 48).
PACKET_GRADE = "packet+grade"
LINKER_GRADE = "linker+grade"
SYSTEMS = (PACKET, PACKET_GRADE, BASELINE, LINKER, LINKER_GRADE)
DEPTH = 10
LINKING_KS = (1, 3, 5, 10)
METRICS = tuple(f"hit@{k}" for k in LINKING_KS) + tuple(f"cluster_hit@{k}" for k in LINKING_KS)
RESAMPLES = 1000
SEED = 0

Progress = Callable[[int, int], None]


class Retrieves(Protocol):
    """What the ``packet`` system needs of a retriever."""

    async def retrieve(self, request: RetrievalRequest) -> ReasoningPacket: ...


def query_text(item: LinkingItem) -> str:
    """The text both systems read: the item's, cut to the request's limit."""
    return item.text.strip()[:MAX_QUERY_CHARS]


def hit_scores(ranking: Sequence[str], accepted: Sequence[str]) -> dict[str, float]:
    """Exact and cluster hit@1/3/5/10 of one ranking against the accepted standard ids.

    >>> s = hit_scores(["ccss:6.RP.A.1", "x", "ccss:6.RP.A.3.c"], ["ccss:6.RP.A.3.c"])
    >>> s["hit@1"], s["hit@3"], s["hit@5"], s["cluster_hit@1"]
    (0.0, 1.0, 1.0, 1.0)
    """
    wanted, clusters = set(accepted), {cluster_of(a) for a in accepted}
    scores = {}
    for k in LINKING_KS:
        top = ranking[:k]
        scores[f"hit@{k}"] = float(any(r in wanted for r in top))
        scores[f"cluster_hit@{k}"] = float(any(cluster_of(r) in clusters for r in top))
    return {m: scores[m] for m in METRICS}


def packet_ranking(packet: ReasoningPacket, prefix: str = CCSS) -> list[str]:
    """The standards a packet names, best first: the linked concepts, refined key concepts,
    graph-context concepts, then the hits' concepts (`concept_ranking`); only ids starting
    with `prefix`.

    >>> from tutorgraph_client.models.packet import TIMING_KEYS, GraphContext
    >>> graph = GraphContext(concepts=[{"id": "eedi:construct:1"}, {"id": "ccss:K.CC.A.1"}])
    >>> timings = dict.fromkeys(TIMING_KEYS, 0.0)
    >>> p = ReasoningPacket(query="q", timings_ms=timings, graph_context=graph)
    >>> packet_ranking(p)
    ['ccss:K.CC.A.1']
    """
    linked = [c.id for c in packet.concepts]
    refined = packet.refined_query.key_concepts if packet.refined_query else []
    graph = [str(c["id"]) for c in packet.graph_context.concepts if "id" in c]
    ranked = [*linked, *refined, *graph, *concept_ranking(packet, prefix)]
    return [cid for cid in dict.fromkeys(ranked) if cid.startswith(prefix)]


class DenseStandardSearch:
    """Untrained cosine search of texts against the standards' code and description.

    The standards are embedded on first use (blocking).

    >>> search = DenseStandardSearch(embedder, read_standards(concepts))  # doctest: +SKIP
    >>> search.rank(["what is 40% of 120?"])[0][:1]  # doctest: +SKIP
    ['ccss:6.RP.A.3.c']
    """

    def __init__(self, embedder: Embedder, standards: Sequence[Standard]) -> None:
        if not standards:
            raise ValueError("no standards to search")
        self._embedder = embedder
        self._ids = [s.id for s in standards]
        self._texts = [s.text for s in standards]
        self._matrix: np.ndarray[Any, np.dtype[np.float32]] | None = None

    def rank(self, texts: Sequence[str], k: int = DEPTH) -> list[list[str]]:
        """The `k` nearest standard ids for each text, nearest first (ties by id order)."""
        if self._matrix is None:
            self._matrix = self._embedder.embed(self._texts)
        if not texts:
            return []
        sims = self._embedder.embed(list(texts)) @ self._matrix.T
        order = np.argsort(-sims, axis=1, kind="stable")[:, :k]
        return [[self._ids[j] for j in row] for row in order]


def _mean_ci(values: Sequence[float]) -> dict[str, Any]:
    lo, hi = bootstrap_ci(values, resamples=RESAMPLES, seed=SEED)
    return {"mean": round(float(np.mean(values)), 6), "ci95": [lo, hi]}


def summarize(
    scores: dict[str, dict[str, dict[str, float]]], items: Sequence[LinkingItem]
) -> dict[str, dict[str, Any]]:
    """Rows per system for `items` (all scored by every system in `scores`, keyed by item
    id): n, each metric's mean and ci95, and for all but `BASELINE` ``paired`` (mean
    per-item difference from it, its ci95 and n).

    >>> it = [LinkingItem("a", "t", ("ccss:K.CC.A.1",))]
    >>> s = {"dense-descriptions": {"a": dict.fromkeys(METRICS, 1.0)}}
    >>> summarize(s, it)["dense-descriptions"]["hit@1"]
    {'mean': 1.0, 'ci95': [1.0, 1.0]}
    """
    rows: dict[str, dict[str, Any]] = {}
    for system, by_item in scores.items():
        row: dict[str, Any] = {"n": len(items)}
        if not items:
            rows[system] = row
            continue
        for metric in METRICS:
            row[metric] = _mean_ci([by_item[i.id][metric] for i in items])
        base = scores.get(BASELINE)
        if system != BASELINE and base is not None:
            row["paired"] = {"versus": BASELINE, "n": len(items)} | {
                metric: _mean_ci([by_item[i.id][metric] - base[i.id][metric] for i in items])
                for metric in METRICS
            }
        rows[system] = row
    return rows


def _subsets(items: Sequence[LinkingItem]) -> dict[str, list[LinkingItem]]:
    """The subsets a data set reports: each split, all, and each kind when there are several."""
    groups: dict[str, list[LinkingItem]] = {}
    for split in sorted({i.split for i in items}):
        groups[split] = [i for i in items if i.split == split]
    groups["all"] = list(items)
    kinds = sorted({i.kind for i in items})
    if len(kinds) > 1:
        for kind in kinds:
            groups[f"kind={kind}"] = [i for i in items if i.kind == kind]
    return groups


def item_grade(standards: Sequence[str], given: str = "") -> Grade | None:
    """The grade an app would send for an item: its own (`given`), else its first standard's.

    >>> item_grade(("ccss:4.NF.A.1",)), item_grade(("ccss:4.NF.A.1",), "Grade 5")
    ('4', '5')
    """
    if given:
        try:
            return normalize_grade(given)
        except ValueError:
            pass
    return next((g for s in standards if (g := standard_grade(s)) is not None), None)


async def _packet_rankings(
    retriever: Retrieves,
    items: Sequence[LinkingItem],
    progress: Progress | None,
    *,
    graded: bool = False,
) -> tuple[list[list[str]], dict[str, str]]:
    """Each item's packet ranking (told the item's grade when `graded`), and why a packet
    was not the whole product (a refiner that fell back, a degraded source), by item id."""
    out, notes = [], {}
    for done, item in enumerate(items, start=1):
        grade = item_grade(item.standards, item.grade) if graded else None
        packet = await retriever.retrieve(RetrievalRequest(query=query_text(item), grade=grade))
        out.append(packet_ranking(packet)[:DEPTH])
        refined = packet.refined_query
        why = [refined.fallback_reason] if refined and refined.fallback_reason else []
        why += [f"degraded: {s}" for s in packet.degraded_sources]
        if why:
            notes[item.id] = "; ".join(why)
        if progress:
            progress(done, len(items))
    return out, notes


def _linker_rankings(
    linker: ConceptLinker, texts: Sequence[str], grades: Sequence[Grade | None]
) -> list[list[str]]:
    return [
        [c.concept_id for c in linker.link(t, DEPTH, grade=g).get("common-core", [])]
        for t, g in zip(texts, grades, strict=True)
    ]


async def run_linking_benchmark(
    sets: Sequence[LinkingSet],
    retriever: Retrieves,
    dense: DenseStandardSearch,
    *,
    linker: ConceptLinker | None = None,
    limit: int | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Score both systems on every data set: ``{"systems": {system: {set: {subset: row}}},
    "datasets": {set: counts}, "items": {set: [per-item rankings]}}`` (`summarize` rows).

    `limit` keeps a stable sample of at most that many items per data set.

    >>> report = await run_linking_benchmark([mathfish], retriever, dense)  # doctest: +SKIP
    >>> report["systems"]["packet"]["mathfish"]["all"]["hit@10"]  # doctest: +SKIP
    {'mean': 0.05, 'ci95': [0.02, 0.08]}
    """
    systems = [s for s in SYSTEMS if s not in (LINKER, LINKER_GRADE) or linker is not None]
    report: dict[str, Any] = {"systems": {s: {} for s in systems}, "datasets": {}, "items": {}}
    total = 2 * sum(len(stable_sample(d.items, limit, key=lambda i: i.id)) for d in sets)
    done = 0

    def step(n: int, _total: int) -> None:
        if progress:
            progress(done + n, total)

    for data in sets:
        items = stable_sample(data.items, limit, key=lambda i: i.id)
        texts = [query_text(i) for i in items]
        packets, notes = await _packet_rankings(retriever, items, step)
        done += len(items)
        graded, graded_notes = await _packet_rankings(retriever, items, step, graded=True)
        done += len(items)
        notes.update({k: v for k, v in graded_notes.items() if k not in notes})
        rankings = {
            BASELINE: await asyncio.to_thread(dense.rank, texts),
            PACKET: packets,
            PACKET_GRADE: graded,
        }
        if linker is not None:
            grades = [item_grade(i.standards, i.grade) for i in items]
            rankings[LINKER] = await asyncio.to_thread(
                _linker_rankings, linker, texts, [None] * len(items)
            )
            rankings[LINKER_GRADE] = await asyncio.to_thread(
                _linker_rankings, linker, texts, grades
            )
        scores = {
            system: {i.id: hit_scores(r, i.standards) for i, r in zip(items, ranked, strict=True)}
            for system, ranked in rankings.items()
        }
        for name, group in _subsets(items).items():
            for system, row in summarize(scores, group).items():
                report["systems"][system].setdefault(data.name, {})[name] = row
        report["datasets"][data.name] = {
            "read": data.read,
            "items": len(data.items),
            "scored": len(items),
            "skipped": len(data.skipped),
            "skipped_items": data.skipped,
            "standards": len({s for i in items for s in i.standards}),
            "codes_masked": data.masked,
            "packet_notes": notes,
        }
        report["items"][data.name] = [
            {
                "id": it.id,
                "split": it.split,
                "kind": it.kind,
                "standards": list(it.standards),
                **{system: rankings[system][n] for system in systems},
            }
            for n, it in enumerate(items)
        ]
    return report
