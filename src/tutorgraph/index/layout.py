"""Where an index keeps its parts on disk.

Layout::

    manifest.json   embedder, bundle hash, versions (written last)
    chroma/         ChromaDB persistent collection
    lexical/        BM25 index and its items
    catalogue/      every ingested record, as a bundle (the embedded graph is built from it)

>>> IndexLayout(Path(".tutorgraph")).lexical
PosixPath('.tutorgraph/lexical')
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tutorgraph.ingest.bundle import load_trusted
from tutorgraph.models.records import SourceRecords

__all__ = ["IndexLayout", "load_catalogue"]


@dataclass(frozen=True)
class IndexLayout:
    root: Path

    @property
    def chroma(self) -> Path:
        return self.root / "chroma"

    @property
    def lexical(self) -> Path:
        return self.root / "lexical"

    @property
    def catalogue(self) -> Path:
        return self.root / "catalogue"


def load_catalogue(layout: IndexLayout, *, documents: bool = True) -> SourceRecords:
    """The records ingested so far (none for a new index)."""
    if not layout.catalogue.is_dir():
        return SourceRecords()
    return load_trusted(layout.catalogue, documents=documents)
