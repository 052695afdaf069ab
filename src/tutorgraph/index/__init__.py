"""The index: one ingest pipeline into the stores' write ports, and `LocalIndex`, an index
opened for search (design section 5).

>>> async with LocalIndex.build(records, Path("/tmp/idx"), embedder) as index:
...     print(index.manifest.counts)  # doctest: +SKIP
"""

from tutorgraph.index.layout import IndexLayout, load_catalogue
from tutorgraph.index.local import LocalIndex, Opening
from tutorgraph.index.pipeline import (
    IngestOptions,
    IngestReport,
    ProgressCallback,
    ingest_bundle,
    ingest_records,
)

__all__ = [
    "IndexLayout",
    "IngestOptions",
    "IngestReport",
    "LocalIndex",
    "Opening",
    "ProgressCallback",
    "ingest_bundle",
    "ingest_records",
    "load_catalogue",
]
