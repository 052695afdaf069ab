"""Lessons for a packet: the explanations and worked examples nearest the query, searched
apart from the rest.

A search over everything fills a packet with exercises: the bundle holds about five for
every lesson (22,520 exercises, 4,727 explanations and worked examples), and an exercise
reads most like another exercise. For an OpenStax exercise of a held-out section the first
teaching hit of its packet was its own subsection's lesson once in 224 (`bench teaching`);
the lessons alone, searched with the same query vector, put it first for about a third. So
the index keeps its lessons' stored vectors in memory (`LessonIndex`; a Chroma query
filtered to these kinds took 74 ms here against 5 ms unfiltered) and the packet carries
the best few as `lessons`, beside its `results`.

Which few (issue 47, the `teach` slot): the nearest `LESSON_POOL` lessons by cosine, each
scored by its cosine plus `VOTE_WEIGHT` x its subsection's *vote* (`subsection_votes`): the
exercises and lessons of the same OpenStax subsection that the request's own dense and
lexical searches found, 1/(10 + rank) each. A word problem reads most like the exercises of
its subsection ("Subtract Whole Numbers in Applications"), while its nearest explanation is
often about something else the story mentions; the exercises name the subsection that
teaches it. At most `PER_SUBSECTION` lessons come from one subsection, so the slot is not
four chunks of one wrong guess. Whole-packet benchmark, development messages, paired over
the plain cosine: teach@10 0.477 -> 0.570 (`research/scripts/probes/teach_slot.py`; docs/RESULTS.md,
whole packets, has the recipes that did not help).

>>> lessons = LessonIndex.of(index_items, stored_vectors)  # doctest: +SKIP
>>> pool = lessons.search(query_vector, LESSON_POOL)  # doctest: +SKIP
>>> choose_lessons(pool, subsection_votes(dense, lexical), 4)[0].found.item.kind  # doctest: +SKIP
'worked_example'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Self

from tutorgraph.embedding.stored_vectors import StoredVectors
from tutorgraph.stores.exact_vectors import ExactVectors
from tutorgraph.stores.protocols import IndexItem, ScoredItem

__all__ = [
    "LESSON_KINDS",
    "LESSON_POOL",
    "PER_SUBSECTION",
    "TEACHING_KINDS",
    "VOTE_RANK_K",
    "VOTE_WEIGHT",
    "LessonIndex",
    "LessonPick",
    "choose_lessons",
    "subsection_votes",
]

# What a packet teaches with, and the part of it that explains rather than asks.
TEACHING_KINDS = frozenset({"explanation", "worked_example", "exercise"})
LESSON_KINDS = frozenset({"explanation", "worked_example"})
# The lessons the slot chooses among (nearest by cosine); the recipe below reorders them.
LESSON_POOL = 60
# A subsection's vote counts this much beside a cosine (0: the plain cosine). Chosen on the
# benchmark's development messages: 0.25 / 0.35 / 0.5 / 0.75 / 1.0 gave teach@10 0.547 /
# 0.558 / 0.570 / 0.576 / 0.558 (cosine alone 0.477); 0.5 sits inside the plateau.
VOTE_WEIGHT = 0.5
# Each search's hit at rank r votes 1/(VOTE_RANK_K + r) for its subsection.
VOTE_RANK_K = 10
# At most this many lessons of one subsection (None: no cap).
PER_SUBSECTION: int | None = 2


@dataclass(frozen=True)
class LessonPick:
    """A chosen lesson: what the lesson search found (`found.score` is its cosine, the score
    a packet shows) and the score it was ordered by (cosine + `VOTE_WEIGHT` x its
    subsection's vote)."""

    found: ScoredItem
    score: float


def subsection_votes(*ranked: Sequence[ScoredItem]) -> dict[str, float]:
    """Per subsection (an item's `title`, "Section — Subsection"), the votes of the teaching
    items (exercises, explanations, worked examples) in each ranked list, best first: 1/(10 +
    rank) for each, summed over the lists. Concepts and misconceptions do not vote.

    >>> a = IndexItem("e1", "exercise", "Add — In Applications", "Ann has 3 ...")
    >>> b = IndexItem("c1", "concept", "1.OA.A.1", "Use addition ...")
    >>> subsection_votes([ScoredItem(b, 0.9), ScoredItem(a, 0.8)])
    {'Add — In Applications': 0.083333}
    """
    votes: dict[str, float] = {}
    for found in ranked:
        for rank, hit in enumerate(found, start=1):
            if hit.item.kind in TEACHING_KINDS and hit.item.title:
                title = hit.item.title
                votes[title] = votes.get(title, 0.0) + 1.0 / (VOTE_RANK_K + rank)
    return {t: round(v, 6) for t, v in votes.items()}


def choose_lessons(
    pool: Sequence[ScoredItem],
    votes: dict[str, float],
    k: int,
    *,
    weight: float = VOTE_WEIGHT,
    per_subsection: int | None = PER_SUBSECTION,
) -> list[LessonPick]:
    """The `k` best of `pool` (lessons scored by cosine) by cosine + `weight` x their
    subsection's vote, at most `per_subsection` from one subsection, best first (ties by
    id). With `weight` 0 and no cap it is the pool's own order.

    >>> x = ScoredItem(IndexItem("x", "explanation", "Multiply — Models", "..."), 0.50)
    >>> y = ScoredItem(IndexItem("y", "explanation", "Add — In Applications", "..."), 0.45)
    >>> [p.found.item.id for p in choose_lessons([x, y], {"Add — In Applications": 0.2}, 2)]
    ['y', 'x']
    """
    scored = sorted(
        (LessonPick(f, round(f.score + weight * votes.get(f.item.title, 0.0), 6)) for f in pool),
        key=lambda p: (-p.score, p.found.item.id),
    )
    out: list[LessonPick] = []
    taken: dict[str, int] = {}
    for pick in scored:
        if len(out) >= k:
            break
        title = pick.found.item.title
        if per_subsection is not None and taken.get(title, 0) >= per_subsection:
            continue
        taken[title] = taken.get(title, 0) + 1
        out.append(pick)
    return out


class LessonIndex(ExactVectors):
    """The index's lessons and their unit vectors, searched by cosine in memory.

    >>> import numpy as np
    >>> items = [IndexItem("a", "explanation", "Ratios", "A ratio compares two amounts.")]
    >>> LessonIndex(items, np.ones((1, 4), np.float32)).search(np.ones(4, np.float32), 3)[0].item.id
    'a'
    """

    @classmethod
    def of(cls, items: Sequence[IndexItem], stored: StoredVectors) -> Self | None:
        """The lessons among an index's `items`, with the vectors its ingest stored (None
        when it has no lesson, or when some lesson has no stored vector)."""
        return super().of([it for it in items if it.kind in LESSON_KINDS], stored)
