"""The corpora the scale sweep indexes: its sizes, each a real multiple of the bundle's
documents, and small deterministic slices for quick runs.

Size x1 is the bundle without its exercise documents; xk adds the bundle's OpenStax
exercises (in a fixed order: sha256 of the id) until the document count is k times that of
x1 (see `tasks.scale`).

>>> [s.factor for s in scale_sizes(SourceRecords(), (1, 2))]
[1]
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tutorgraph.models.records import SourceRecords

__all__ = ["SCALE_FACTORS", "ScaleSize", "bundle_counts", "sample_records", "scale_sizes"]

# x8 runs out of real exercises on the full bundle (see `tasks.scale`): it is all of them.
SCALE_FACTORS = (1, 2, 4, 8)


@dataclass
class ScaleSize:
    """One size of the sweep: its records and their real counts."""

    factor: int
    records: SourceRecords
    counts: dict[str, int] = field(default_factory=dict)
    # Documents relative to x1: the real growth (below `factor` when exercises run out).
    ratio: float = 1.0


def bundle_counts(records: SourceRecords) -> dict[str, int]:
    """Concepts, documents (and exercises among them), misconceptions, prerequisite edges
    and searchable items (concepts + misconceptions + documents).

    >>> bundle_counts(SourceRecords())["items"]
    0
    """
    exercises = sum(1 for d in records.documents if d.kind == "exercise")
    return {
        "concepts": len(records.concepts),
        "documents": len(records.documents),
        "exercises": exercises,
        "other_documents": len(records.documents) - exercises,
        "misconceptions": len(records.misconceptions),
        "prerequisites": len(records.prerequisites),
        "items": len(records.concepts) + len(records.misconceptions) + len(records.documents),
    }


def _id_order(record_id: str) -> str:
    return hashlib.sha256(record_id.encode("utf-8")).hexdigest()


def scale_sizes(records: SourceRecords, factors: Sequence[int] = SCALE_FACTORS) -> list[ScaleSize]:
    """x1 = `records` without exercises; xk adds exercises until k times x1's documents
    (nested: every size holds the smaller ones). Counts are the real ones. A size with no
    more documents than the one before (the exercises ran out) is left out.

    >>> [s.factor for s in scale_sizes(SourceRecords(), (1, 2))]
    [1]
    """
    base = [d for d in records.documents if d.kind != "exercise"]
    exercises = sorted(
        (d for d in records.documents if d.kind == "exercise"), key=lambda d: _id_order(d.id)
    )
    out: list[ScaleSize] = []
    for k in factors:
        extra = exercises[: max(0, (k - 1) * len(base))]
        if out and len(base) + len(extra) == out[-1].counts["documents"]:
            continue  # it would time the previous size again
        size = SourceRecords(
            concepts=list(records.concepts),
            prerequisites=list(records.prerequisites),
            misconceptions=list(records.misconceptions),
            documents=base + extra,
        )
        ratio = round(len(size.documents) / len(base), 3) if base else 0.0
        out.append(ScaleSize(k, size, bundle_counts(size), ratio))
    return out


def sample_records(
    records: SourceRecords,
    *,
    misconceptions: int,
    documents: int,
    exercises: int,
    concepts: int = 0,
) -> SourceRecords:
    """A small deterministic slice for quick runs: the first misconceptions, non-exercise
    documents and exercises in sha256-of-id order (an even spread over sources and books),
    the concepts they link to plus the first `concepts` others, with all their ancestors,
    and the prerequisite edges between those concepts. References stay closed, so the
    slice is a valid bundle.

    >>> sample_records(SourceRecords(), misconceptions=1, documents=1, exercises=1).documents
    []
    """

    def first(rows: list[Any], n: int) -> list[Any]:
        return sorted(rows, key=lambda r: _id_order(r.id))[:n]

    docs = first([d for d in records.documents if d.kind != "exercise"], documents)
    docs += first([d for d in records.documents if d.kind == "exercise"], exercises)
    mis = first(records.misconceptions, misconceptions)
    by_id = {c.id: c for c in records.concepts}
    todo = [cid for r in (*docs, *mis) for cid in r.concept_ids]
    todo += [c.id for c in first(records.concepts, concepts)]
    keep: set[str] = set()
    while todo:
        cid = todo.pop()
        if cid in keep or cid not in by_id:
            continue
        keep.add(cid)
        todo.extend(by_id[cid].parent_ids)
    return SourceRecords(
        concepts=[c for c in records.concepts if c.id in keep],
        prerequisites=[
            p for p in records.prerequisites if p.concept_id in keep and p.prerequisite_id in keep
        ],
        misconceptions=mis,
        documents=docs,
    )
