"""The curriculum bundle on disk: JSON Lines files, their schema, writing, reading, validating.

A bundle is a folder with `concepts.jsonl`, `prerequisites.jsonl`, `misconceptions.jsonl` and
`documents.jsonl` (design section 4). Records are sorted so that builds are byte-identical.
Each record and each of its fields is bounded (`tutorgraph.models.limits`): a line over
`MAX_RECORD_BYTES` is read through without being held or parsed, and a field over its limit
rejects its record, in one line naming the record and the field, never the value.

An add-on bundle (your own lessons) may reference concepts it does not hold itself: those of
the index it is ingested into. `validate_bundle(bundle, index_ids=...)` resolves references
against the bundle's concepts plus `index_ids` (`tutorgraph.index.references` reads them from
an index); an id in neither is rejected, record by record.

>>> from pathlib import Path
>>> report = validate_bundle(Path("data/curriculum"))  # doctest: +SKIP
>>> report.ok  # doctest: +SKIP
True
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
from pydantic import BaseModel

from tutorgraph.errors import BundleError, BundleRecordError
from tutorgraph.models.limits import (
    FIELD_LIMITS,
    MAX_RECORD_BYTES,
    RecordKind,
    record_label,
    record_over_limit,
)
from tutorgraph.models.records import SourceRecords
from tutorgraph_client.models.curriculum import Concept, Document, Misconception, Prerequisite

__all__ = [
    "BUNDLE_FILES",
    "RECORD_KINDS",
    "ValidationReport",
    "bundle_hash",
    "bundle_json_schema",
    "load_trusted",
    "read_bundle",
    "validate_bundle",
    "write_bundle",
]

BUNDLE_FILES: dict[str, type[BaseModel]] = {
    "concepts.jsonl": Concept,
    "prerequisites.jsonl": Prerequisite,
    "misconceptions.jsonl": Misconception,
    "documents.jsonl": Document,
}

RECORD_KINDS: dict[str, RecordKind] = {
    "concepts.jsonl": "concept",
    "prerequisites.jsonl": "prerequisite",
    "misconceptions.jsonl": "misconception",
    "documents.jsonl": "document",
}
# Blocks in which an oversized line is read through (never held whole).
_SKIP_BLOCK = 1 << 20
# An oversized record is named by the ids in its first bytes.
_HEAD_BYTES = 4096
_ID_FIELD_RE = re.compile(r'"(id|prerequisite_id|concept_id)"\s*:\s*"([^"\\]{1,200})"')
# A value longer than this is not repeated in a schema error (its type and length are).
_MAX_QUOTED = 80


def _file_schema(name: str) -> dict[str, Any]:
    """The pydantic model's JSON Schema with the record limits (`FIELD_LIMITS`) in it."""
    schema = BUNDLE_FILES[name].model_json_schema()
    properties = schema.get("properties", {})
    for field_name, limit in FIELD_LIMITS[RECORD_KINDS[name]].items():
        prop = properties.get(field_name)
        if prop is None:
            continue
        is_list = prop.get("type") == "array"
        prop["maxItems" if is_list else "maxLength"] = limit
    return schema


def bundle_json_schema() -> dict[str, Any]:
    """The JSON Schema of every bundle file, exported from the pydantic models, with the
    record limits (`tutorgraph.models.limits`) as `maxLength` and `maxItems`."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "tutorgraph curriculum bundle",
        "x-max-record-bytes": MAX_RECORD_BYTES,
        "files": {name: _file_schema(name) for name in BUNDLE_FILES},
    }


def _sort_key(record: BaseModel) -> tuple[str, ...]:
    if isinstance(record, Prerequisite):
        return (record.concept_id, record.prerequisite_id, record.relation)
    return (str(getattr(record, "id")),)  # noqa: B009 - every other record type has an id


def _dump(record: BaseModel) -> str:
    # Optional fields left empty are written as before they existed (the same bytes, hash).
    row = record.model_dump(mode="json")
    for key in ("updated_at", "score", "method"):
        if row.get(key) is None:
            row.pop(key, None)
    return json.dumps(row, ensure_ascii=False, separators=(",", ":"))


def write_bundle(records: SourceRecords, out_dir: Path) -> dict[str, int]:
    """Write records as a bundle, sorted and byte-stable; returns the record count per file."""
    out_dir.mkdir(parents=True, exist_ok=True)
    groups: dict[str, list[BaseModel]] = {
        "concepts.jsonl": list(records.concepts),
        "prerequisites.jsonl": list(records.prerequisites),
        "misconceptions.jsonl": list(records.misconceptions),
        "documents.jsonl": list(records.documents),
    }
    counts: dict[str, int] = {}
    for name, recs in groups.items():
        recs.sort(key=_sort_key)
        lines = [_dump(r) for r in recs]
        # newline="\n" keeps the bytes identical on every platform.
        with (out_dir / name).open("w", encoding="utf-8", newline="\n") as fh:
            fh.writelines(line + "\n" for line in lines)
        counts[name] = len(lines)
    return counts


def bundle_hash(bundle_dir: Path) -> str:
    """sha256 over the bundle files' bytes, in a fixed order."""
    h = hashlib.sha256()
    for name in BUNDLE_FILES:
        path = bundle_dir / name
        h.update(name.encode())
        if path.exists():
            with path.open("rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    h.update(block)
    return h.hexdigest()


@dataclass
class ValidationReport:
    """The outcome of reading a bundle: the valid records and every rejected one."""

    records: SourceRecords = field(default_factory=SourceRecords)
    errors: list[BundleRecordError] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    # Concept ids that valid records reference and only the index holds (`index_ids`).
    from_index: set[str] = field(default_factory=set)
    # Concept ids that rejected records reference and nothing holds (neither the bundle nor,
    # when given, the index).
    unknown_ids: set[str] = field(default_factory=set)

    @property
    def ok(self) -> bool:
        return not self.errors


def _iter_lines(path: Path) -> Iterator[tuple[int, str]]:
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if line.strip():
                yield lineno, line


def _oversized_label(kind: RecordKind, head: bytes) -> str:
    """An oversized record named by the ids its first bytes hold (it is never parsed)."""
    text = head[:_HEAD_BYTES].decode("utf-8", "replace")
    ids = {m.group(1): m.group(2) for m in _ID_FIELD_RE.finditer(text)}
    return record_label(kind, ids)


def _iter_bounded(
    path: Path, kind: RecordKind, limit: int
) -> Iterator[tuple[int, str | None, str | None]]:
    """Each non-blank line as (line number, text, None), or (line number, None, why) for a
    line over `limit` bytes (read through in blocks, never held whole) or not UTF-8."""
    with path.open("rb") as fh:
        lineno = 0
        while raw := fh.readline(limit + 1):
            lineno += 1
            if len(raw) > limit and not raw.endswith(b"\n"):
                label, size = _oversized_label(kind, raw), len(raw)
                while not raw.endswith(b"\n") and (raw := fh.readline(_SKIP_BLOCK)):
                    size += len(raw)
                size -= raw.endswith(b"\n")  # the limit is on the record, not its newline
                yield lineno, None, f"{label}: the record has {size:,} bytes, at most {limit:,}"
                continue
            if not raw.strip():
                continue
            try:
                yield lineno, raw.decode("utf-8"), None
            except UnicodeDecodeError as exc:
                yield lineno, None, f"not UTF-8 (byte {exc.start + 1})"


def _quoted(value: Any) -> str:
    """A value as a schema error names it: a short one as it is, a long one by its size (a
    message is one line, never a dump of the record)."""
    text = repr(value)
    if len(text) <= _MAX_QUOTED:
        return text
    if isinstance(value, str):
        return f"a text of {len(value):,} characters"
    if isinstance(value, list):
        return f"a list of {len(value):,} items"
    if isinstance(value, dict):
        return f"an object of {len(value):,} keys"
    return f"a {type(value).__name__}"


def _schema_reason(validator: jsonschema.Draft202012Validator, data: Any) -> str | None:
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    parts = []
    for err in errors:
        where = ".".join(str(p) for p in err.absolute_path)
        message = err.message
        quoted = repr(err.instance)
        if len(quoted) > _MAX_QUOTED:
            message = message.replace(quoted, _quoted(err.instance))
        message = message if len(message) <= 4 * _MAX_QUOTED else f"{message[:_MAX_QUOTED]}..."
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


def validate_bundle(bundle_dir: Path, index_ids: Set[str] | None = None) -> ValidationReport:
    """Check every record against the JSON Schema and the references between records.

    Bad records are reported with file, line and reason; every valid record is kept.
    `index_ids`, the concept ids of the index the bundle goes into, are what its records may
    reference besides its own concepts (prerequisite edges, `parent_ids`, documents' and
    misconceptions' `concept_ids`); None (the default) checks the bundle on its own.
    """
    if not bundle_dir.is_dir():
        raise BundleError(f"bundle folder not found: {bundle_dir}")
    missing = [n for n in BUNDLE_FILES if not (bundle_dir / n).is_file()]
    if len(missing) == len(BUNDLE_FILES):
        raise BundleError(f"{bundle_dir} holds none of {', '.join(BUNDLE_FILES)}")

    report = ValidationReport()
    parsed: dict[str, list[tuple[int, BaseModel]]] = {}
    for name, model in BUNDLE_FILES.items():
        path = bundle_dir / name
        parsed[name] = []
        if not path.is_file():
            continue
        kind = RECORD_KINDS[name]
        validator = jsonschema.Draft202012Validator(_file_schema(name))
        for lineno, line, refused in _iter_bounded(path, kind, MAX_RECORD_BYTES):
            if line is None:
                report.errors.append(BundleRecordError(name, lineno, str(refused)))
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                report.errors.append(BundleRecordError(name, lineno, f"invalid JSON: {exc.msg}"))
                continue
            reason = record_over_limit(kind, data) if isinstance(data, dict) else None
            reason = reason or _schema_reason(validator, data)
            if reason is None:
                try:
                    parsed[name].append((lineno, model.model_validate(data)))
                except ValueError as exc:  # pydantic checks the schema cannot express
                    reason = str(exc).replace("\n", " ")
            if reason is not None:
                report.errors.append(BundleRecordError(name, lineno, reason))

    _check_references(parsed, report, index_ids)
    report.counts = {
        "concepts": len(report.records.concepts),
        "prerequisites": len(report.records.prerequisites),
        "misconceptions": len(report.records.misconceptions),
        "documents": len(report.records.documents),
    }
    report.errors.sort(key=lambda e: (e.file, e.line))
    return report


def _check_references(
    parsed: dict[str, list[tuple[int, BaseModel]]],
    report: ValidationReport,
    index_ids: Set[str] | None = None,
) -> None:
    """Reject duplicates and records that point at concepts neither the bundle nor the index
    (`index_ids`, when given) holds."""
    out = report.records
    outside: Set[str] = index_ids if index_ids is not None else frozenset()
    where = " (in neither the bundle nor the index)" if index_ids is not None else ""
    # Concepts first: a concept rejected for a duplicate id or a missing parent must not be
    # referenced by anything accepted, so rejection repeats until no more concepts fall.
    accepted: dict[int, Concept] = {}
    seen_concepts: set[str] = set()
    for lineno, rec in parsed["concepts.jsonl"]:
        assert isinstance(rec, Concept)
        if rec.id in seen_concepts:
            report.errors.append(
                BundleRecordError("concepts.jsonl", lineno, f"duplicate id {rec.id}")
            )
        else:
            seen_concepts.add(rec.id)
            accepted[lineno] = rec
    changed = True
    while changed:
        known = {c.id for c in accepted.values()}
        changed = False
        for lineno, c in list(accepted.items()):
            bad = [p for p in c.parent_ids if p not in known and p not in outside]
            if bad:
                report.unknown_ids.update(p for p in bad if p not in seen_concepts)
                report.errors.append(
                    BundleRecordError("concepts.jsonl", lineno, f"unknown parent_ids {bad}{where}")
                )
                del accepted[lineno]
                changed = True
    out.concepts = [accepted[ln] for ln in sorted(accepted)]
    concept_ids = {c.id for c in out.concepts}

    def unknown(ids: list[str]) -> list[str]:
        bad = [i for i in ids if i not in concept_ids and i not in outside]
        report.unknown_ids.update(i for i in bad if i not in seen_concepts)
        return bad

    def resolved(ids: list[str]) -> None:
        report.from_index.update(i for i in ids if i not in concept_ids)

    for c in out.concepts:
        resolved(c.parent_ids)

    seen_edges: set[tuple[str, str, str]] = set()
    for lineno, rec in parsed["prerequisites.jsonl"]:
        assert isinstance(rec, Prerequisite)
        key = (rec.prerequisite_id, rec.concept_id, rec.relation)
        bad = unknown([rec.prerequisite_id, rec.concept_id])
        if bad:
            reason = f"unknown concept ids {bad}{where}"
        elif rec.prerequisite_id == rec.concept_id:
            reason = "a concept cannot be its own prerequisite"
        elif key in seen_edges:
            reason = "duplicate edge"
        elif rec.relation == "aligned_with" and (rec.score is None or not rec.method):
            reason = "an aligned_with edge needs its score and method"
        else:
            seen_edges.add(key)
            out.prerequisites.append(rec)
            resolved([rec.prerequisite_id, rec.concept_id])
            continue
        report.errors.append(BundleRecordError("prerequisites.jsonl", lineno, reason))

    for name in ("misconceptions.jsonl", "documents.jsonl"):
        seen: set[str] = set()
        for lineno, rec in parsed[name]:
            assert isinstance(rec, Misconception | Document)
            if rec.id in seen:
                reason = f"duplicate id {rec.id}"
            elif bad := unknown(rec.concept_ids):
                reason = f"unknown concept_ids {bad}{where}"
            else:
                seen.add(rec.id)
                if isinstance(rec, Misconception):
                    out.misconceptions.append(rec)
                else:
                    out.documents.append(rec)
                resolved(rec.concept_ids)
                continue
            report.errors.append(BundleRecordError(name, lineno, reason))


def read_bundle(bundle_dir: Path) -> SourceRecords:
    """Read a bundle that must be fully valid; raise `BundleError` listing every bad record."""
    report = validate_bundle(bundle_dir)
    if not report.ok:
        raise BundleError(
            f"{len(report.errors)} invalid record(s) in {bundle_dir}; first: {report.errors[0]}",
            errors=report.errors,
        )
    return report.records


def load_trusted(bundle_dir: Path, *, documents: bool = True) -> SourceRecords:
    """Read a bundle tutorgraph wrote itself (an index catalogue): pydantic checks only."""
    out = SourceRecords()
    targets: dict[str, list[Any]] = {
        "concepts.jsonl": out.concepts,
        "prerequisites.jsonl": out.prerequisites,
        "misconceptions.jsonl": out.misconceptions,
    }
    if documents:
        targets["documents.jsonl"] = out.documents
    for name, target in targets.items():
        path = bundle_dir / name
        if path.is_file():
            model = BUNDLE_FILES[name]
            target.extend(model.model_validate_json(line) for _, line in _iter_lines(path))
    return out
