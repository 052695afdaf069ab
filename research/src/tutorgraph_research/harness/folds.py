"""Stable folds and samples, the test items a task scores, and one fold of a task.

>>> stable_fold("openstax:m81244:exercise:fs-id1", 5) in range(5)
True
>>> stable_sample(["a", "b", "c"], 2, key=str)
['a', 'c']
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from tutorgraph.models.records import SourceRecords
from tutorgraph.retrieval.router import analyse
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import MAX_QUERY_CHARS

__all__ = [
    "EvalItem",
    "Fold",
    "concept_ranking",
    "eval_item",
    "stable_fold",
    "stable_sample",
]

T = TypeVar("T")


def stable_fold(key: str, folds: int) -> int:
    """The fold of a string id: sha256-based, so the same on every machine and process."""
    return int(hashlib.sha256(key.encode("utf-8")).hexdigest()[:12], 16) % folds


def stable_sample(items: Sequence[T], n: int | None, *, key: Callable[[T], str]) -> list[T]:
    """The `n` items whose keys hash lowest (all when `n` is None), kept in input order."""
    if n is None or n >= len(items):
        return list(items)
    chosen = set(sorted(range(len(items)), key=lambda i: _digest(key(items[i])))[:n])
    return [it for i, it in enumerate(items) if i in chosen]


def _digest(text: str) -> str:
    return hashlib.sha256(("sample:" + text).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class EvalItem:
    """One test query: its stable id, text, the concept ids the request passes, the ids that
    count as right, and the router's query type of the text. `extra` holds what a ranker
    needs beyond that (e.g. ids to leave out of the ranking)."""

    item: str
    query: str
    relevant: frozenset[str]
    query_type: str
    concept_ids: tuple[str, ...] = ()
    extra: frozenset[str] = frozenset()


def eval_item(
    item: str,
    query: str,
    relevant: Sequence[str] | frozenset[str],
    *,
    concept_ids: Sequence[str] = (),
    extra: Sequence[str] | frozenset[str] = (),
) -> EvalItem:
    """An `EvalItem` whose query type is the router's reading of `query`.

    >>> eval_item("q1", "What comes before adding fractions?", ["c1"]).query_type
    'prerequisite'
    """
    query = query.strip()[:MAX_QUERY_CHARS]
    return EvalItem(
        item=item,
        query=query,
        relevant=frozenset(relevant),
        query_type=analyse(query).query_type,
        concept_ids=tuple(concept_ids),
        extra=frozenset(extra),
    )


def concept_ranking(packet: ReasoningPacket, prefix: str = "") -> list[str]:
    """Concept ids in packet order: a concept hit's own ids, any other hit's `concept_ids`;
    the first occurrence wins. With `prefix`, only ids of that kind (e.g. ``eedi:construct:``).

    >>> from tutorgraph_client.models.packet import TIMING_KEYS, Hit
    >>> def hit(i, kind, cids): return Hit(id=i, ids=[i], kind=kind, text="t", concept_ids=cids,
    ...     score=1.0, rank=1, found_by=["vector"], fused_score=1.0)
    >>> hits = [hit("d1", "exercise", ["s:2"]), hit("s:1", "concept", ["s:1"])]
    >>> p = ReasoningPacket(query="q", timings_ms=dict.fromkeys(TIMING_KEYS, 0.0), results=hits)
    >>> concept_ranking(p)
    ['s:2', 's:1']
    """
    seen: dict[str, None] = {}
    for hit in packet.results:
        ids = [hit.id, *hit.ids] if hit.kind == "concept" else hit.concept_ids
        for cid in ids:
            if cid.startswith(prefix):
                seen.setdefault(cid)
    return list(seen)


@dataclass
class Fold:
    """One fold of a task: `records` builds what its index holds (called only when some
    configuration still has to run on it), `items` are its test queries."""

    number: int
    records: Callable[[], SourceRecords]
    items: list[EvalItem]

    @classmethod
    def of(cls, number: int, records: SourceRecords, items: list[EvalItem]) -> Fold:
        """A fold whose records are already built."""
        return cls(number, lambda: records, items)
