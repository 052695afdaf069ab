"""Record versions (`updated_at`) travel from the bundle into the stored items, and a bundle
without them is written byte for byte as before."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from pydantic import ValidationError

from tutorgraph.ingest.bundle import write_bundle
from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.items import document_item, read_items, write_items
from tutorgraph_client.models.curriculum import Document

pytestmark = pytest.mark.unit

DOC = Document(
    id="openstax:m81311:exercise:fs-id1454987",
    kind="exercise",
    text="Yurianna ... How many Euros will she have for her trip?\nSolution: 590 Euros",
    source="openstax",
    license="CC-BY-4.0",
)


def _line(doc: Document, out: Path) -> str:
    write_bundle(SourceRecords(documents=[doc]), out)
    return (out / "documents.jsonl").read_text(encoding="utf-8")


def test_a_bundle_line_without_a_version_is_unchanged(tmp_path: Path) -> None:
    assert "updated_at" not in _line(DOC, tmp_path / "a")
    stamped = DOC.model_copy(update={"updated_at": datetime(2026, 11, 20, tzinfo=UTC)})
    assert '"updated_at":"2026-11-20T00:00:00Z"' in _line(stamped, tmp_path / "b")


def test_versions_are_utc_in_items_and_survive_the_items_file(tmp_path: Path) -> None:
    plus_two = timezone(timedelta(hours=2))
    item = document_item(
        DOC.model_copy(update={"updated_at": datetime(2026, 11, 20, 11, 30, tzinfo=plus_two)})
    )
    assert item.updated_at == "2026-11-20T09:30:00+00:00"
    write_items([item, document_item(DOC)], tmp_path / "items.jsonl")
    back = list(read_items(tmp_path / "items.jsonl"))
    assert [b.updated_at for b in back] == ["2026-11-20T09:30:00+00:00", None]


def test_a_version_needs_a_time_zone() -> None:
    with pytest.raises(ValidationError, match="timezone"):
        Document.model_validate({**DOC.model_dump(), "updated_at": "2026-11-20T09:30:00"})
