"""Packet hits made from fused candidates, from misconceptions no source found, and from
the lesson search's lessons; and the one rule that keeps teaching among them
(`with_teaching`).

>>> fused_hit(fused[0]).fused_score  # doctest: +SKIP
0.032787
"""

from __future__ import annotations

from tutorgraph.retrieval.fusion import FusedHit
from tutorgraph.stores.items import misconception_item
from tutorgraph.stores.lessons import LESSON_KINDS
from tutorgraph.stores.protocols import IndexItem, ScoredItem
from tutorgraph_client.models.curriculum import Misconception
from tutorgraph_client.models.packet import Hit, HitSource

__all__ = ["TEACH_BY", "fused_hit", "lesson_hit", "misconception_hit", "with_teaching"]

# Teaching is never crowded out of `results`: when none of the first `TEACH_BY` hits is an
# explanation or worked example and the packet has a lesson, the best lesson is second.
TEACH_BY = 10


def with_teaching(hits: list[Hit], lessons: list[Hit]) -> list[Hit]:
    """`hits` with the best lesson second when its first `TEACH_BY` hold no teaching.

    >>> [h.kind for h in with_teaching(misconceptions, lessons)][:3]  # doctest: +SKIP
    ['misconception', 'explanation', 'misconception']
    """
    if not lessons or any(h.kind in LESSON_KINDS for h in hits[:TEACH_BY]):
        return hits
    lesson = lessons[0]
    rest = [h for h in hits if h.id != lesson.id]
    return [*rest[:1], lesson.model_copy(), *rest[1:]]


def _unfused_hit(item: IndexItem, score: float, rank: int, found_by: list[HitSource]) -> Hit:
    """A hit no fusion ranked (`fused_score` 0)."""
    return Hit(
        id=item.id,
        ids=[item.id],
        kind=item.kind,
        title=item.title,
        text=item.text,
        concept_ids=list(item.concept_ids),
        score=score,
        rank=rank,
        found_by=found_by,
        source_scores={s: score for s in found_by},
        fused_score=0.0,
    )


def misconception_hit(m: Misconception) -> Hit:
    """A hit for a misconception no source found (a proposal, a diagnosis): it scores 0
    until a stage scores it."""
    return _unfused_hit(misconception_item(m), 0.0, 0, [])


def lesson_hit(found: ScoredItem, rank: int) -> Hit:
    """A packet lesson: the dense store's vector found it; `score` and
    `source_scores["vector"]` are its cosine with the query."""
    return _unfused_hit(found.item, found.score, rank, ["vector"])


def fused_hit(f: FusedHit) -> Hit:
    """A hit in fused order; `rank` is set once the final order is known."""
    m, item = f.hit, f.hit.best.item
    return Hit(
        id=item.id,
        ids=m.ids,
        kind=item.kind,
        title=item.title,
        text=item.text,
        concept_ids=list(item.concept_ids),
        score=round(f.score, 9),
        rank=0,
        found_by=m.found_by,
        source_ranks=dict(m.source_ranks),
        source_scores=dict(m.source_scores),
        fused_score=round(f.score, 9),
        source_contributions={s: round(v, 9) for s, v in f.contributions.items()},
        graph_path=list(m.graph_path) if m.graph_path else None,
    )
