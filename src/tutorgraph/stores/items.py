"""Turning curriculum records into searchable items, and storing items as JSON Lines."""

from __future__ import annotations

import functools
import hashlib
import json
import unicodedata
from collections.abc import Iterable, Iterator
from datetime import UTC
from pathlib import Path

from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.protocols import IndexItem
from tutorgraph_client.models.curriculum import Concept, Document, Misconception

__all__ = [
    "TEXT_CACHE",
    "concept_item",
    "content_hash",
    "document_item",
    "items_from_records",
    "misconception_item",
    "normalise_text",
    "read_items",
    "write_items",
]


def normalise_text(text: str) -> str:
    """NFKC, case-folded, whitespace collapsed: the form that content hashes are taken of."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


# Every stored text of an index the size of the bundle (33,432 items), so that a busy server
# stops recomputing them (the texts are the items' own strings: the cache holds references).
TEXT_CACHE = 65_536


@functools.lru_cache(maxsize=TEXT_CACHE)
def content_hash(text: str) -> str:
    """sha256 of the normalised text (never Python's `hash()`, which changes per process).

    Cached: merge keys every candidate of every request by it, and the same stored texts come
    back request after request (a pure function of an immutable string)."""
    return hashlib.sha256(normalise_text(text).encode("utf-8")).hexdigest()


def _version(record: Concept | Misconception | Document) -> str | None:
    stamp = record.updated_at
    return stamp.astimezone(UTC).isoformat() if stamp is not None else None


def concept_item(c: Concept) -> IndexItem:
    """A concept as a searchable item. The graph builds its hits with the same functions, so
    that a concept (or misconception, or document) found by several sources merges into one."""
    return IndexItem(
        id=c.id,
        kind="concept",
        title=c.name,
        text=c.description or c.name,
        concept_ids=(c.id,),
        updated_at=_version(c),
    )


def misconception_item(m: Misconception) -> IndexItem:
    return IndexItem(
        id=m.id,
        kind="misconception",
        title="",
        text=m.text,
        concept_ids=tuple(m.concept_ids),
        updated_at=_version(m),
    )


def document_item(d: Document) -> IndexItem:
    return IndexItem(
        id=d.id,
        kind=d.kind,
        title=d.title,
        text=d.text,
        concept_ids=tuple(d.concept_ids),
        updated_at=_version(d),
    )


def items_from_records(records: SourceRecords) -> list[IndexItem]:
    """Every searchable text of a bundle: concepts, misconceptions and documents, by id."""
    items = [concept_item(c) for c in records.concepts]
    items += [misconception_item(m) for m in records.misconceptions]
    items += [document_item(d) for d in records.documents]
    items.sort(key=lambda it: it.id)
    return items


def write_items(items: Iterable[IndexItem], path: Path) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        for it in items:
            row = {
                "id": it.id,
                "kind": it.kind,
                "title": it.title,
                "text": it.text,
                "concept_ids": list(it.concept_ids),
            }
            if it.updated_at:
                row["updated_at"] = it.updated_at
            fh.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")


def read_items(path: Path) -> Iterator[IndexItem]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            yield IndexItem(
                id=row["id"],
                kind=row["kind"],
                title=row["title"],
                text=row["text"],
                concept_ids=tuple(row["concept_ids"]),
                updated_at=row.get("updated_at"),
            )
