"""The index manifest: which embedder, which bundle and which versions built an index."""

from __future__ import annotations

import json
import os
from importlib import metadata
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from tutorgraph.errors import EmbedderMismatchError, IndexDamagedError, IndexNotFoundError
from tutorgraph.stores.exhaustion import out_of_resources

__all__ = [
    "MANIFEST_FILE",
    "FileSignature",
    "Manifest",
    "check_embedder",
    "library_versions",
    "require_manifest",
]

MANIFEST_FILE = "manifest.json"
FORMAT_VERSION = 1
_VERSIONED = (
    "tutorgraph",
    "chromadb",
    "sentence-transformers",
    "torch",
    "bm25s",
    "networkx",
    "numpy",
)


def library_versions() -> dict[str, str]:
    out = {}
    for name in _VERSIONED:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


class FileSignature(BaseModel):
    """A derived file as its ingest left it: the integrity check compares it at every open
    (size; sha256 too for Chroma's HNSW files) and in `tutorgraph doctor` (sha256). An empty
    sha256: an HNSW file Chroma rewrites at every open (a segment it never flushed), or one
    of a generation written before HNSW files had checksums (`Manifest.hnsw_checksums`)."""

    size: int
    sha256: str


class Manifest(BaseModel):
    """Written last by every ingest, so a manifest only ever describes a complete index."""

    format_version: int = FORMAT_VERSION
    embedder: str
    embedding_dim: int
    bundle_hash: str
    counts: dict[str, int] = Field(default_factory=dict)
    versions: dict[str, str] = Field(default_factory=library_versions)
    default_retrieval_profile: str = "auto"
    default_semantic_weight: float | None = None
    # Cosine at which two hits of a content kind merge; None (the default): no merge.
    near_duplicate_threshold: float | None = None
    # Every derived file of the generation, by its path inside it (empty for an index written
    # before integrity checks: only its counts are checked).
    files: dict[str, FileSignature] = Field(default_factory=dict)
    # True: every HNSW file Chroma reads has its sha256 in `files` (checked at every open);
    # False: a generation written before that (its HNSW files have sizes only).
    hnsw_checksums: bool = False

    @classmethod
    def read(cls, index_dir: Path) -> Manifest | None:
        path = index_dir / MANIFEST_FILE
        if not path.is_file():
            return None
        try:
            return cls.model_validate_json(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            exhausted = (
                out_of_resources(exc, f"the index manifest {path}")
                if isinstance(exc, OSError)
                else None
            )
            if exhausted is not None:
                raise exhausted from exc
            raise IndexDamagedError(
                f"unreadable index manifest {path}: {type(exc).__name__}; run `tutorgraph "
                "doctor --repair`"
            ) from exc

    def write(self, index_dir: Path) -> None:
        path = index_dir / MANIFEST_FILE
        tmp = path.with_suffix(".tmp")
        data: dict[str, Any] = self.model_dump(mode="json")
        with tmp.open("w", encoding="utf-8") as fh:
            fh.write(json.dumps(data, indent=2, sort_keys=True) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)


def check_embedder(manifest: Manifest, embedder: str, index_dir: Path) -> None:
    """Refuse to mix vectors of two embedders in one index."""
    if manifest.embedder != embedder:
        raise EmbedderMismatchError(
            f"the index at {index_dir} was built with embedder {manifest.embedder!r}, but "
            f"{embedder!r} is configured. Set TUTORGRAPH_EMBEDDING_MODEL={manifest.embedder} or "
            "ingest into a new TUTORGRAPH_INDEX_DIR.",
            details={"index_embedder": manifest.embedder, "configured_embedder": embedder},
        )


def require_manifest(index_dir: Path, embedder: str) -> Manifest:
    """The manifest of the index at `index_dir`, built with `embedder`: an
    `IndexNotFoundError` when there is no index, an `EmbedderMismatchError` for another's."""
    manifest = Manifest.read(index_dir)
    if manifest is None:
        raise IndexNotFoundError(index_dir)
    check_embedder(manifest, embedder, index_dir)
    return manifest
