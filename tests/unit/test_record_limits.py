"""Every record and field of a bundle is bounded (issue 59): the bundled curriculum fits with
room to spare, a field or a record over its limit rejects that record in one line naming
the record and the field (never its value), an oversized line is read through without being
held, and records built in code are refused by the ingest before anything is written."""

from __future__ import annotations

import asyncio
import json
import tracemalloc
from pathlib import Path

import pytest

from tutorgraph.errors import BundleError
from tutorgraph.index.pipeline import ingest_records
from tutorgraph.ingest.bundle import RECORD_KINDS, bundle_json_schema, validate_bundle
from tutorgraph.models.limits import FIELD_LIMITS, MAX_RECORD_BYTES
from tutorgraph.models.records import SourceRecords
from tutorgraph_client.models.curriculum import Concept

pytestmark = pytest.mark.unit

CURRICULUM = Path(__file__).resolve().parents[2] / "data" / "curriculum"
# Each limit leaves at least this much room over the bundled curriculum's largest value.
HEADROOM = 2.5

CONCEPT = {"kind": "construct", "source": "s", "license": "CC0-1.0"}
GOOD = {"id": "my:good", "name": "Quorbic ratios", **CONCEPT}


def _bundle(tmp_path: Path, concepts: list[str], documents: list[str] = ()) -> Path:  # type: ignore[assignment]
    (tmp_path / "concepts.jsonl").write_text("".join(f"{c}\n" for c in concepts))
    if documents:
        (tmp_path / "documents.jsonl").write_text("".join(f"{d}\n" for d in documents))
    return tmp_path


def test_the_bundled_curriculum_fits_every_limit_with_room_to_spare() -> None:
    for name, kind in RECORD_KINDS.items():
        largest: dict[str, int] = {}
        longest_line = 0
        with (CURRICULUM / name).open("rb") as fh:
            for raw in fh:
                longest_line = max(longest_line, len(raw.rstrip(b"\n")))
                row = json.loads(raw)
                for field in FIELD_LIMITS[kind]:
                    value = row.get(field) or ""
                    largest[field] = max(largest.get(field, 0), len(value))
        assert longest_line * HEADROOM <= MAX_RECORD_BYTES, (name, longest_line)
        for field, limit in FIELD_LIMITS[kind].items():
            assert largest[field] * HEADROOM <= limit, (name, field, largest[field], limit)


def test_a_field_over_its_limit_rejects_its_record_naming_it_and_the_field(
    tmp_path: Path,
) -> None:
    name = dict(GOOD, id="my:long-name", name="n" * 501)
    description = dict(GOOD, id="my:long-description", description="d" * 4_001)
    parents = dict(GOOD, id="my:many-parents", parent_ids=["my:good"] * 51)
    at_limits = dict(
        GOOD, id="my:at-limits", name="a" * 500, description="b" * 4_000, parent_ids=["my:good"]
    )
    document = {
        "id": "my:long-text",
        "kind": "explanation",
        "text": "t" * 20_001,
        "concept_ids": ["my:good"],
        "source": "s",
        "license": "l",
    }
    bundle = _bundle(
        tmp_path,
        [json.dumps(r) for r in (GOOD, name, description, parents, at_limits)],
        [json.dumps(document)],
    )
    report = validate_bundle(bundle)
    assert [str(e) for e in report.errors] == [
        "concepts.jsonl:2: concept 'my:long-name': name has 501 characters, at most 500",
        "concepts.jsonl:3: concept 'my:long-description': description has 4,001 characters, "
        "at most 4,000",
        "concepts.jsonl:4: concept 'my:many-parents': parent_ids has 51 ids, at most 50",
        "documents.jsonl:1: document 'my:long-text': text has 20,001 characters, at most 20,000",
    ]
    assert [c.id for c in report.records.concepts] == ["my:good", "my:at-limits"]


def test_a_line_over_the_record_limit_is_read_through_never_held(tmp_path: Path) -> None:
    """A 32 MB concept name (a 100 KB gzip upload holds one) costs the validation a block
    of memory, not the line: it is neither decoded nor parsed."""
    huge = json.dumps(dict(GOOD, id="my:huge", name="h" * (32 << 20)))
    bundle = _bundle(tmp_path, [huge, json.dumps(GOOD)])
    tracemalloc.start()
    try:
        report = validate_bundle(bundle)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, f"validation held {peak:,} bytes"
    assert [str(e) for e in report.errors] == [
        f"concepts.jsonl:1: concept 'my:huge': the record has {len(huge):,} bytes, at most "
        f"{MAX_RECORD_BYTES:,}"
    ]
    assert [c.id for c in report.records.concepts] == ["my:good"]


def test_a_line_at_the_record_limit_is_read_and_one_over_it_is_not(tmp_path: Path) -> None:
    row = {"id": "my:edge", "kind": "question", "text": "", "source": "s", "license": "l"}
    row["text"] = "x" * (MAX_RECORD_BYTES - len(json.dumps(row)))
    at_limit = json.dumps(row)
    over = json.dumps(dict(row, id="my:over", text=row["text"] + "y"))
    assert len(at_limit) == MAX_RECORD_BYTES and len(over) == MAX_RECORD_BYTES + 1
    report = validate_bundle(_bundle(tmp_path, [json.dumps(GOOD)], [at_limit, over]))
    reasons = [str(e) for e in report.errors]
    # The first is read, then refused for its text; the second is never parsed.
    assert reasons[0].startswith("documents.jsonl:1: document 'my:edge': text has ")
    assert reasons[1].startswith("documents.jsonl:2: document 'my:over': the record has ")
    assert len(reasons) == 2


def test_schema_errors_name_a_long_value_by_its_size_never_repeat_it(tmp_path: Path) -> None:
    rows = [
        dict(GOOD, id="my:kind", kind="k" * 5_000),
        dict(GOOD, id="my:" + "i" * 300),
        [0] * 5_000,
    ]
    report = validate_bundle(_bundle(tmp_path, [json.dumps(r) for r in rows]))
    assert [str(e) for e in report.errors] == [
        "concepts.jsonl:1: kind: a text of 5,000 characters is not one of ['standard', "
        "'grouping', 'subject', 'construct', 'section']",
        "concepts.jsonl:2: id: a text of 303 characters is too long",
        "concepts.jsonl:3: a list of 5,000 items is not of type 'object'",
    ]


def test_a_line_that_is_not_utf8_is_one_rejected_record(tmp_path: Path) -> None:
    (tmp_path / "concepts.jsonl").write_bytes(json.dumps(GOOD).encode() + b'\n{"id": "my:\xff"}\n')
    report = validate_bundle(tmp_path)
    assert [str(e) for e in report.errors] == ["concepts.jsonl:2: not UTF-8 (byte 12)"]
    assert [c.id for c in report.records.concepts] == ["my:good"]


def test_the_exported_schema_carries_the_limits() -> None:
    files = bundle_json_schema()["files"]
    concept = files["concepts.jsonl"]["properties"]
    assert concept["name"]["maxLength"] == FIELD_LIMITS["concept"]["name"]
    assert concept["parent_ids"]["maxItems"] == FIELD_LIMITS["concept"]["parent_ids"]
    assert files["documents.jsonl"]["properties"]["text"]["maxLength"] == 20_000
    assert bundle_json_schema()["x-max-record-bytes"] == MAX_RECORD_BYTES


def test_records_built_in_code_over_a_limit_are_refused_before_anything_is_written(
    tmp_path: Path,
) -> None:
    records = SourceRecords(concepts=[Concept(id="my:c", name="x" * 501, **CONCEPT)])  # type: ignore[arg-type]
    index = tmp_path / "index"
    with pytest.raises(BundleError, match="concept 'my:c': name has 501 characters"):
        asyncio.run(ingest_records(records, index, embedder=None))  # type: ignore[arg-type]
    assert not index.exists()
