"""Where one index generation keeps its parts on disk (see `index/generations.py` for the
index folder around them).

Layout of a generation::

    manifest.json   embedder, bundle hash, counts, the files' sizes and sha256 (written last)
    chroma/         ChromaDB persistent collection
    lexical/        BM25 index and its items
    catalogue/      every ingested record, as a bundle (the embedded graph is built from it)
    vectors/        every item's and concept card's vector, float16 by text sha256 (repairs,
                    the probe and the concept linker read it)

>>> IndexLayout(Path(".tutorgraph/generations/000001")).lexical
PosixPath('.tutorgraph/generations/000001/lexical')
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tutorgraph.index.pointer import live_generation
from tutorgraph.ingest.bundle import load_trusted
from tutorgraph.models.records import SourceRecords

__all__ = ["IndexLayout", "load_catalogue"]


@dataclass(frozen=True)
class IndexLayout:
    root: Path

    @classmethod
    def live(cls, index_dir: Path) -> IndexLayout:
        """The live generation of the index folder `index_dir` (the folder itself when it
        holds no index yet, or one written before generations)."""
        return cls(live_generation(index_dir) or index_dir)

    @property
    def chroma(self) -> Path:
        return self.root / "chroma"

    @property
    def lexical(self) -> Path:
        return self.root / "lexical"

    @property
    def catalogue(self) -> Path:
        return self.root / "catalogue"

    @property
    def vectors(self) -> Path:
        return self.root / "vectors"


def load_catalogue(layout: IndexLayout, *, documents: bool = True) -> SourceRecords:
    """The records ingested so far (none for a new index)."""
    if not layout.catalogue.is_dir():
        return SourceRecords()
    return load_trusted(layout.catalogue, documents=documents)
