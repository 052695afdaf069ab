"""The index manifest: roundtrip, atomic write, and refusing another embedder's index."""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

import pytest

from tutorgraph.errors import EmbedderMismatchError, StoreError
from tutorgraph.stores.manifest import MANIFEST_FILE, Manifest, check_embedder, library_versions

pytestmark = pytest.mark.unit

MODEL = "sentence-transformers/all-MiniLM-L6-v2"


def test_manifest_roundtrip(tmp_path: Path) -> None:
    m = Manifest(
        embedder=MODEL,
        embedding_dim=384,
        bundle_hash="ab" * 32,
        counts={"concepts": 3, "items": 7},
        default_semantic_weight=0.25,
    )
    m.write(tmp_path)
    back = Manifest.read(tmp_path)
    assert back == m
    raw = (tmp_path / MANIFEST_FILE).read_text(encoding="utf-8")
    data = json.loads(raw)
    assert list(data) == sorted(data)  # stable, diffable file
    assert data["format_version"] == 1
    assert data["default_retrieval_profile"] == "auto"
    assert not list(tmp_path.glob("*.tmp"))  # written through a temporary file, then swapped


def test_manifest_records_library_versions() -> None:
    versions = library_versions()
    for name in ("tutorgraph", "chromadb", "sentence-transformers", "torch", "numpy"):
        assert versions[name] == metadata.version(name)
    assert Manifest(embedder=MODEL, embedding_dim=384, bundle_hash="x").versions == versions


def test_manifest_absent_or_corrupt(tmp_path: Path) -> None:
    assert Manifest.read(tmp_path) is None
    (tmp_path / MANIFEST_FILE).write_text("{not json", encoding="utf-8")
    with pytest.raises(StoreError, match="unreadable index manifest"):
        Manifest.read(tmp_path)


def test_check_embedder_refuses_another_model_with_a_clear_message(tmp_path: Path) -> None:
    m = Manifest(embedder="intfloat/e5-small-v2", embedding_dim=384, bundle_hash="x")
    check_embedder(m, "intfloat/e5-small-v2", tmp_path)  # same model: fine
    with pytest.raises(EmbedderMismatchError) as info:
        check_embedder(m, MODEL, tmp_path)
    err = info.value
    assert err.code == "embedder_mismatch"
    assert "intfloat/e5-small-v2" in err.message and MODEL in err.message
    assert str(tmp_path) in err.message
    assert "TUTORGRAPH_EMBEDDING_MODEL=intfloat/e5-small-v2" in err.message
    assert err.details == {
        "index_embedder": "intfloat/e5-small-v2",
        "configured_embedder": MODEL,
    }
