"""How large one curriculum record may be: every limit of the bundle contract in one place
(design section 4).

A record's text is embedded, tokenised, stored and copied into every packet that finds it, so
one unbounded field costs every request after it (a 52 MB concept name took an ingest to a
7.8 GB peak and put 52 MB into each packet about that concept). Each limit is at least 2.5
times the largest value of the bundled curriculum (`data/curriculum`: 2,115 concepts, 1,605 edges,
2,587 misconceptions, 28,730 documents), measured when they were set:

| record | field | largest bundled | limit |
|---|---|---|---|
| concept | `name` | 168 characters | 500 |
| concept | `description` | 1,430 | 4,000 |
| concept | `grade` | 4 | 20 |
| concept | `parent_ids` | 5 ids | 50 |
| misconception | `text` | 208 characters | 1,000 |
| misconception | `concept_ids` | 19 ids | 50 |
| misconception | `description`, `grade`, `examples` | (issue 61) | 4,000, 20, 20 items |
| document | `title` | 168 characters | 500 |
| document | `text` | 4,920 | 20,000 |
| document | `concept_ids` | 10 ids | 50 |
| document | `grade` | (issue 61) | 20 |
| every record | `source`, `license`, `method` | 35 | 100 |
| every record | its JSON line | 5,142 bytes | 131,072 (`MAX_RECORD_BYTES`) |

Ids are at most 200 characters (`CurriculumId`). A record whose every field is at its limit
fits in `MAX_RECORD_BYTES` as UTF-8; the line limit is checked first, so an oversized line
is read through in blocks and never parsed or held whole.

>>> record_over_limit("concept", {"id": "ccss:1.OA.A.1", "name": "x" * 501})
"concept 'ccss:1.OA.A.1': name has 501 characters, at most 500"
>>> record_over_limit("document", {"id": "my:doc", "text": "fine"}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

__all__ = [
    "FIELD_LIMITS",
    "MAX_RECORD_BYTES",
    "RecordKind",
    "record_label",
    "record_over_limit",
]

RecordKind = Literal["concept", "prerequisite", "misconception", "document"]

# One record's JSON line, in bytes (its newline aside).
MAX_RECORD_BYTES = 128 * 1024

_SHARED = {"source": 100, "license": 100}

# Per record kind, per field: characters for a text, items for a list of ids.
FIELD_LIMITS: dict[RecordKind, dict[str, int]] = {
    "concept": {"name": 500, "description": 4_000, "grade": 20, "parent_ids": 50, **_SHARED},
    "prerequisite": {"source": 100, "method": 100},
    "misconception": {
        "text": 1_000,
        "description": 4_000,
        "grade": 20,
        "examples": 20,
        "concept_ids": 50,
        **_SHARED,
    },
    "document": {"title": 500, "text": 20_000, "concept_ids": 50, "grade": 20, **_SHARED},
}

# An id longer than this is not repeated in a message (the schema refuses it anyway).
_MAX_LABEL_ID = 200


def _short_id(value: Any) -> str | None:
    return value if isinstance(value, str) and 0 < len(value) <= _MAX_LABEL_ID else None


def record_label(kind: RecordKind, row: Mapping[str, Any]) -> str:
    """How a message names the record: its kind and id (an edge by its two ends), never a
    value longer than an id may be.

    >>> record_label("prerequisite", {"prerequisite_id": "ccss:1.OA.A.1", "concept_id": "x:y"})
    "prerequisite 'ccss:1.OA.A.1' -> 'x:y'"
    """
    if kind == "prerequisite":
        ends = [_short_id(row.get(k)) for k in ("prerequisite_id", "concept_id")]
        if all(ends):
            return f"{kind} {ends[0]!r} -> {ends[1]!r}"
        return kind
    name = _short_id(row.get("id"))
    return f"{kind} {name!r}" if name else kind


def record_over_limit(kind: RecordKind, row: Mapping[str, Any]) -> str | None:
    """Why the record is over a limit of `FIELD_LIMITS` (one line naming the record, the
    field, its size and the limit, never the value), or None. Fields of another type are
    left to the schema."""
    for name, limit in FIELD_LIMITS[kind].items():
        value = row.get(name)
        if isinstance(value, str) and len(value) > limit:
            size = f"{len(value):,} characters"
        elif isinstance(value, list | tuple) and len(value) > limit:
            size = f"{len(value):,} {'items' if name == 'examples' else 'ids'}"
        else:
            continue
        return f"{record_label(kind, row)}: {name} has {size}, at most {limit:,}"
    return None
