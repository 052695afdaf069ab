"""Teaching-content ordering (issue 33): for a student's exercise, do the packet's
explanations and worked examples of the exercise's own subsection come first?

Nothing else measures the order of the teaching content a packet carries. The items come
from the bundle itself: an OpenStax exercise (as a student meets it, `exercise_query`) whose
subsection has explanations or worked examples. Its packet's teaching hits (its `lessons`,
then the explanations, worked examples and exercises of its results; never the exercise
itself) are graded: 2 for an explanation or
worked example of its subsection, 1 for any other record of its section, 0 otherwise; the
scores are nDCG@10 and whether the first teaching hit is graded 2. Sections and subsections
go by their titles ("Section — Subsection"): the three algebra books repeat sections, and a
repeat in another book teaches the same thing.

Sections are split by a hash of their title: `held_out_section` ones (a fifth) give the
items, so a model trained on the others is measured on sections it never saw, in any book.
The content searched is the whole bundle, as a served index holds it.

>>> items = teaching_items(documents, per_section=5)  # doctest: +SKIP
>>> scores = await teaching_scores(retriever, items, rerank=True)  # doctest: +SKIP
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tutorgraph.errors import ConfigurationError
from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph.stores.lessons import LESSON_KINDS, TEACHING_KINDS
from tutorgraph_client.models.curriculum import Document
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest
from tutorgraph_research.harness.folds import stable_fold, stable_sample
from tutorgraph_research.harness.results import bootstrap_ci
from tutorgraph_research.tasks.linking import exercise_query

__all__ = [
    "TEACHING_METRICS",
    "TeachingConfig",
    "TeachingItem",
    "held_out_section",
    "run_teaching_benchmark",
    "teaching_items",
    "teaching_scores",
]

TEACHING_METRICS = ("ndcg@10", "first_is_subsection")
_SPLITS = 5


def held_out_section(section: str) -> bool:
    """Whether a section's exercises are benchmark items (a stable fifth of the sections)."""
    return stable_fold(section, _SPLITS) == 0


@dataclass(frozen=True)
class TeachingItem:
    """An exercise as a query, and the grade of every record of its section."""

    id: str
    query: str
    section: str
    grades: dict[str, int]


def _section(doc: Document) -> str | None:
    """An OpenStax record's section title (None: not an OpenStax section's record)."""
    if not any(c.startswith("openstax:section:") for c in doc.concept_ids):
        return None
    return doc.title.split(" — ")[0]


def teaching_items(
    documents: Sequence[Document], *, per_section: int | None = 5, held_out: bool = True
) -> list[TeachingItem]:
    """Items from the exercises of the held-out sections (`held_out=False`: the others),
    at most `per_section` each (a stable sample), only where their subsection has an
    explanation or a worked example."""
    by_section: dict[str, list[Document]] = defaultdict(list)
    for d in documents:
        if d.kind in TEACHING_KINDS and (s := _section(d)) is not None:
            by_section[s].append(d)
    items = []
    for section, docs in sorted(by_section.items()):
        if held_out_section(section) != held_out:
            continue
        lessons = {d.title for d in docs if d.kind in LESSON_KINDS}
        exercises = [d for d in docs if d.kind == "exercise" and d.title in lessons]
        for ex in stable_sample(exercises, per_section, key=lambda d: d.id):
            grades = {
                d.id: 2 if d.kind in LESSON_KINDS and d.title == ex.title else 1
                for d in docs
                if d.id != ex.id
            }
            items.append(TeachingItem(ex.id, exercise_query(ex), section, grades))
    return items


def _ndcg(gains: Sequence[int], ideal: Sequence[int], k: int) -> float:
    def dcg(values: Sequence[int]) -> float:
        return float(sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(values[:k])))

    best = dcg(sorted(ideal, reverse=True))
    return dcg(gains) / best if best > 0 else 0.0


def item_scores(packet: ReasoningPacket, item: TeachingItem) -> dict[str, float]:
    """`TEACHING_METRICS` of one packet: its lessons first, then the teaching hits of its
    results that are not among them."""
    hits = [*packet.lessons, *(h for h in packet.results if h.kind in TEACHING_KINDS)]
    ids = list(dict.fromkeys(h.id for h in hits if h.id != item.id))
    gains = [item.grades.get(i, 0) for i in ids]
    return {
        "ndcg@10": _ndcg(gains, list(item.grades.values()), 10),
        "first_is_subsection": float(bool(gains) and gains[0] == 2),
    }


async def teaching_scores(
    retriever: HybridRetriever,
    items: Sequence[TeachingItem],
    *,
    rerank: bool,
    lessons: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[dict[str, float]]:
    """Each item's scores, in item order, with the retriever's defaults (reranked or not;
    carrying `lessons`, None: the retriever's default)."""
    out = []
    for n, item in enumerate(items, start=1):
        request = RetrievalRequest(
            query=item.query, n_results=30, max_context_tokens=0, rerank=rerank, lessons=lessons
        )
        packet = await retriever.retrieve(request)
        out.append(item_scores(packet, item))
        if progress:
            progress(n)
    return out


@dataclass(frozen=True)
class TeachingConfig:
    """A named retriever, whether its requests ask for the rerank, and how many lessons
    their packets carry (None: the retriever's default)."""

    name: str
    retriever: HybridRetriever
    rerank: bool
    lessons: int | None = None


async def run_teaching_benchmark(
    configs: Sequence[TeachingConfig],
    items: Sequence[TeachingItem],
    *,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Each configuration's mean scores with 95% bootstrap intervals, and each later one's
    paired difference from the first, item by item."""
    if not configs or not items:
        raise ConfigurationError("the teaching benchmark needs configurations and items")
    done, total = 0, len(configs) * len(items)

    def tick(_n: int) -> None:
        nonlocal done
        done += 1
        if progress:
            progress(done, total)

    per_item = {
        c.name: await teaching_scores(
            c.retriever, items, rerank=c.rerank, lessons=c.lessons, progress=tick
        )
        for c in configs
    }
    base = configs[0].name
    report: dict[str, Any] = {}
    for c in configs:
        row: dict[str, Any] = {"n": len(items), "rerank": c.rerank, "lessons": c.lessons}
        for metric in TEACHING_METRICS:
            values = [s[metric] for s in per_item[c.name]]
            row[metric] = round(statistics.fmean(values), 6)
            row[f"{metric}_ci95"] = bootstrap_ci(values)
            if c.name != base:
                diff = [
                    a[metric] - b[metric]
                    for a, b in zip(per_item[c.name], per_item[base], strict=True)
                ]
                row[f"{metric}_paired_vs_{base}"] = round(statistics.fmean(diff), 6)
                row[f"{metric}_paired_ci95"] = bootstrap_ci(diff)
        report[c.name] = row
    return report
