"""The integrity check of an index generation: what an ingest wrote is what is read.

An ingest records in the manifest the size and sha256 of every file it wrote (the catalogue,
the BM25 index, the vectors and Chroma's HNSW segment files; not `chroma.sqlite3`, which
Chroma writes to whenever it opens). At every open `check_files` compares the sizes (cheap),
the sha256 of Chroma's HNSW files, Chroma's database header and SQLite's quick check, before
any file reaches the library that reads it: same-size damage to an HNSW file can crash the
process that opens it (or pass the vector probe), so it is found by its checksum before
Chroma reads a byte of it; a truncated file or an emptied `chroma.sqlite3` is reported
rather than silently read as an empty index; the loaders' counts are compared with the
manifest's; and `probe_vectors` asks the vector store for a few stored vectors, each of
which must find its own item at rank 1. `tutorgraph doctor` adds the sha256 of every other
file (`deep=True`). The HNSW checksums cost 44 ms a pass on the bundled index (58 MB of HNSW
files; sha256 runs at ~1.3 GB/s with SHA extensions, faster than blake2b there): the open's
file check takes 115 ms instead of 68; an ingest makes three or four passes (the live
generation, the new one, cleanup's checks), ~0.2 s, within the noise of a 10-15 s re-ingest.

Two kinds of HNSW file have a size and no checksum: those of a segment Chroma never flushed
(a small collection it keeps in its log; Chroma writes them afresh at every open and never
reads them), and those of a generation written before HNSW files had checksums (its
manifest lacks `hnsw_checksums`). Such a generation still opens: its HNSW files are vouched
for by the child check and the probe only (`unchecked_files` lists them, and `tutorgraph
doctor` says so).

Each `Problem` names the part of the index it damages (the retrieval source that then
degrades: `vector`, `lexical` or `graph`; and the folder: `chroma`, `vectors`, ...) and the
fix, in one line. Vectors that are not finite numbers (`nonfinite_rows`) are damage too:
same-size damage to `vectors/vectors.npy` passes the size check, and a NaN is never served.

>>> [p.source for p in check_files(layout, manifest)]  # doctest: +SKIP
['lexical']
"""

from __future__ import annotations

import hashlib
import logging
import re
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.stored_vectors import StoredVectors
from tutorgraph.index.layout import IndexLayout
from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.manifest import FileSignature, Manifest
from tutorgraph.stores.protocols import IndexItem, ScoredItem

__all__ = [
    "REPAIR_HINT",
    "Problem",
    "catalogue_problem",
    "check_files",
    "check_parts",
    "fingerprint_files",
    "finite_only",
    "nonfinite_rows",
    "one_line",
    "part_of",
    "probe_items",
    "probe_vectors",
    "record_counts",
    "source_of",
    "unchecked_files",
]

log = logging.getLogger(__name__)

REPAIR_HINT = "run `tutorgraph doctor --repair`"
_SQLITE_MAGIC = b"SQLite format 3\x00"
_CHROMA_DB = "chroma/chroma.sqlite3"
# Items the vector probe looks up, spread over the index.
_PROBES = 3
# A stored vector finds itself at cosine 1, up to float16 rounding.
_SELF = 0.999
# The longest message a problem keeps (a library's error can run to a hundred lines).
_MAX_MESSAGE = 400
_SPACE = re.compile(r"\s+")


def one_line(text: str, limit: int = _MAX_MESSAGE) -> str:
    """`text` on one line (every run of white space one blank), cut to `limit` characters."""
    flat = _SPACE.sub(" ", text).strip()
    return flat if len(flat) <= limit else flat[: limit - 3].rstrip() + "..."


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an index: the source it takes down and what was seen, in one line.

    `part` is the folder of the generation the damage is in (`chroma`, `vectors`, `lexical`,
    `catalogue`), or empty when it is the index as a whole (`CURRENT`)."""

    source: str  # "vector" | "lexical" | "graph" | "index"
    message: str
    part: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "message", one_line(self.message))

    def __str__(self) -> str:
        return f"{self.source}: {self.message}; {REPAIR_HINT}"


def source_of(path: str) -> str:
    """The retrieval source a derived file serves."""
    top = path.split("/", 1)[0]
    return {"lexical": "lexical", "catalogue": "graph"}.get(top, "vector")


def part_of(path: str) -> str:
    """The folder of a generation a derived file is in (`chroma`, `vectors`, ...)."""
    return path.split("/", 1)[0]


def _sha256(path: Path) -> str:
    with path.open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def _sha256_or_none(path: Path) -> str | None:
    """The file's sha256, or None when it cannot be read (which is damage too)."""
    try:
        return _sha256(path)
    except OSError:
        return None


def _native(rel: str) -> bool:
    """Whether a generation's file is read by Chroma's native code (its HNSW segment files):
    same-size damage there can crash the process that reads it."""
    return rel.startswith("chroma/") and not rel.startswith(_CHROMA_DB)


def fingerprint_files(layout: IndexLayout) -> dict[str, FileSignature]:
    """Size and sha256 of every file of a generation, Chroma's HNSW files included (the
    writer has closed its Chroma client: they are complete, and no reader rewrites them).
    `chroma.sqlite3` is left out: Chroma writes to it on every open (its header and SQLite's
    quick check stand in). So are the checksums (not the sizes) of an HNSW segment Chroma
    never flushed (a collection it keeps in its log, under ~1,000 vectors): Chroma writes
    those files afresh, from uninitialised memory, whenever it opens the store, and never
    reads them."""
    flushed = _flushed_segments(layout)
    out = {}
    for part in (layout.lexical, layout.catalogue, layout.vectors, layout.chroma):
        if not part.is_dir():
            continue
        for path in sorted(p for p in part.rglob("*") if p.is_file()):
            rel = path.relative_to(layout.root).as_posix()
            if rel.startswith(_CHROMA_DB):
                continue
            keep = not _native(rel) or rel.split("/")[1] in flushed
            out[rel] = FileSignature(size=path.stat().st_size, sha256=_sha256(path) if keep else "")
    return out


def _flushed_segments(layout: IndexLayout) -> set[str]:
    """The HNSW segments (folders of `chroma/`) Chroma has written to disk: those with a
    `max_seq_id` in its database. None when that cannot be read (sizes are then checked)."""
    db = layout.root / _CHROMA_DB
    if not db.is_file():
        return set()
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            rows = conn.execute("SELECT segment_id FROM max_seq_id").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        log.warning("cannot tell which HNSW segments Chroma flushed (%s): sizes only", exc)
        return set()
    return {str(row[0]) for row in rows}


def unchecked_files(manifest: Manifest) -> list[str]:
    """The HNSW files of a generation written before they had checksums (`manifest` lacks
    `hnsw_checksums`): only the child check and the vector probe vouch for them."""
    if manifest.hnsw_checksums:
        return []
    return sorted(rel for rel, sig in manifest.files.items() if _native(rel) and not sig.sha256)


def check_files(
    layout: IndexLayout, manifest: Manifest, *, deep: bool = False, only: str | None = None
) -> list[Problem]:
    """Every file the manifest lists, present and of its size; Chroma's HNSW files (and, when
    `deep`, every file) of their sha256; the embedded Chroma database a real SQLite file. At
    most one problem per source. With `only` (a path prefix such as `catalogue/`), just the
    files under it."""
    return list(_file_problems(layout, manifest, deep=deep, only=only).values())


def check_parts(
    layout: IndexLayout, manifest: Manifest, *, deep: bool = False
) -> dict[str, Problem]:
    """`check_files` by part (`chroma`, `vectors`, `lexical`, `catalogue`): at most one
    problem per folder, so that a repair knows which of the vector store and the index's
    vector copy is intact."""
    return _file_problems(layout, manifest, deep=deep, by="part")


def _file_problems(
    layout: IndexLayout,
    manifest: Manifest,
    *,
    deep: bool,
    by: str = "source",
    only: str | None = None,
) -> dict[str, Problem]:
    problems: dict[str, Problem] = {}

    def found(rel: str, message: str) -> None:
        problem = Problem(source_of(rel), message, part_of(rel))
        problems.setdefault(problem.source if by == "source" else problem.part, problem)

    for rel, signature in sorted(manifest.files.items()):
        if only is not None and not rel.startswith(only):
            continue
        path = layout.root / rel
        try:
            size = path.stat().st_size
        except OSError:
            found(rel, f"{rel} is missing")
            continue
        if size != signature.size:
            found(rel, f"{rel} is {size:,} bytes, the ingest wrote {signature.size:,}")
        elif (
            signature.sha256
            and (deep or _native(rel))
            and _sha256_or_none(path) != signature.sha256
        ):
            found(rel, f"{rel} changed since the ingest wrote it (sha256 differs)")
    if only is not None and not _CHROMA_DB.startswith(only):
        return problems
    if any(rel.startswith("chroma/") for rel in manifest.files) or layout.chroma.is_dir():
        db = layout.root / _CHROMA_DB
        try:
            with db.open("rb") as fh:
                header = fh.read(len(_SQLITE_MAGIC))
        except OSError:
            header = None
        if header is None:
            found(_CHROMA_DB, f"{_CHROMA_DB} is missing")
        elif header != _SQLITE_MAGIC:
            found(_CHROMA_DB, f"{_CHROMA_DB} is not a SQLite database (empty or overwritten)")
        elif (damage := _sqlite_damage(db)) is not None:
            found(_CHROMA_DB, f"{_CHROMA_DB} is damaged ({damage})")
    return problems


def _sqlite_damage(db: Path) -> str | None:
    """SQLite's own quick check (about 50 ms for the bundled index), read-only, as one line:
    its first finding and how many there are (it lists up to a hundred, over many lines)."""
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        return one_line(str(exc), 200)
    try:
        rows = conn.execute("PRAGMA quick_check").fetchall()
    except sqlite3.Error as exc:
        return one_line(str(exc), 200)
    finally:
        conn.close()
    if rows == [("ok",)]:
        return None
    findings = [
        line.strip()
        for row in rows
        for line in str(row[0]).splitlines()
        if line.strip() and not line.startswith("*** in database")
    ]
    if not findings:
        return "SQLite's quick check fails"
    more = f" and {len(findings) - 1} more finding(s)" if len(findings) > 1 else ""
    return one_line(findings[0], 160) + more


def nonfinite_rows(stored: StoredVectors) -> int:
    """How many of `stored`'s vectors hold a NaN or an infinity (same-size damage to
    `vectors.npy` passes every size check; such a vector must never be served or copied)."""
    if not len(stored.vectors):
        return 0
    return int((~np.isfinite(np.asarray(stored.vectors)).all(axis=1)).sum())


def finite_only(stored: StoredVectors | None) -> StoredVectors | None:
    """`stored` without its vectors that hold a NaN or an infinity (the texts they embed are
    then taken from elsewhere or embedded again)."""
    if stored is None or not nonfinite_rows(stored):
        return stored
    keep = np.isfinite(np.asarray(stored.vectors)).all(axis=1)
    return StoredVectors(
        stored.fingerprint,
        stored.model,
        np.ascontiguousarray(stored.keys[keep]),
        np.ascontiguousarray(np.asarray(stored.vectors)[keep]),
    )


def record_counts(records: SourceRecords) -> dict[str, int]:
    """The record counts a manifest keeps (besides `items`)."""
    return {
        "concepts": len(records.concepts),
        "prerequisites": len(records.prerequisites),
        "misconceptions": len(records.misconceptions),
        "documents": len(records.documents),
    }


def catalogue_problem(records: SourceRecords, manifest: Manifest) -> Problem | None:
    """The catalogue as read against the counts its ingest recorded."""
    expected = manifest.counts
    wrong = {k: n for k, n in record_counts(records).items() if expected.get(k, n) != n}
    if not wrong:
        return None
    return Problem(
        "graph",
        f"the catalogue holds {wrong}, the manifest counted { {k: expected[k] for k in wrong} }",
        "catalogue",
    )


def probe_items(items: Sequence[IndexItem]) -> list[IndexItem]:
    """The items the vector probe looks up: the first, middle and last by id."""
    ordered = sorted(items, key=lambda it: it.id)
    if not ordered:
        return []
    picks = {0, len(ordered) // 2, len(ordered) - 1}
    return [ordered[i] for i in sorted(picks)][:_PROBES]


def probe_vectors(
    search: Callable[[npt.NDArray[np.float32], int], list[ScoredItem]],
    probes: Sequence[tuple[IndexItem, npt.NDArray[np.float32]]],
) -> Problem | None:
    """Each probe's stored vector must find its own item first (a tie of identical texts at
    cosine 1 counts): wrong hits mean a damaged HNSW index whose count still looks right."""
    for item, vector in probes:
        hits = search(vector, 10)
        at_one = [h.item.id for h in hits if h.score >= _SELF]
        if item.id not in at_one and not (len(at_one) == len(hits) and hits):
            best = f"{hits[0].item.id} at {hits[0].score:.3f}" if hits else "nothing"
            return Problem(
                "vector",
                f"the stored vector of {item.id} does not find it (found {best}): "
                "the HNSW index is damaged",
                "chroma",
            )
    return None
