"""What an add-on bundle may reference: the concepts of the index it goes into.

A bundle of your own lessons links them to the curriculum already indexed (a prerequisite
edge to `ccss:7.EE.B.4.a`, a document about it) without copying it: `tutorgraph validate
BUNDLE --index-dir DIR` and every ingest resolve a bundle's references against its own
concepts plus the ids the index's live catalogue holds (`index_concept_ids`). An ingest with
`prune` keeps only the bundle's records, so it resolves them against the bundle alone.

>>> ids = index_concept_ids(Path(".tutorgraph"))  # doctest: +SKIP
>>> "ccss:7.EE.B.4.a" in ids  # doctest: +SKIP
True
"""

from __future__ import annotations

import json
from pathlib import Path

from tutorgraph.errors import IndexDamagedError
from tutorgraph.index.generations import ReaderHold, live_generation
from tutorgraph.index.integrity import REPAIR_HINT
from tutorgraph.index.layout import IndexLayout
from tutorgraph.ingest.bundle import ValidationReport, validate_bundle
from tutorgraph.stores.manifest import Manifest

__all__ = ["index_concept_ids", "validate_for_index"]


def index_concept_ids(index_dir: Path, *, writer: bool = False) -> frozenset[str] | None:
    """The ids of the concepts the live generation of the index at `index_dir` holds, or
    None when the folder holds no index. `writer`: the caller holds the index's writer lock
    (a missing `CURRENT` then means the newest intact generation, as the ingest reads it);
    without it the generation is held as a reader's while its catalogue is read. A catalogue
    that is missing, cannot be read or holds another count of concepts than the manifest says
    is an `IndexDamagedError`."""
    live = live_generation(index_dir, recover=writer)
    manifest = Manifest.read(live) if live is not None else None
    if live is None or manifest is None:
        return None
    expected = manifest.counts.get("concepts")
    hold = None if writer else ReaderHold(live)
    path = IndexLayout(live).catalogue / "concepts.jsonl"
    try:
        if not path.is_file():
            if expected:
                raise _damaged(f"{path.name} is missing")
            return frozenset()
        with path.open(encoding="utf-8") as fh:
            ids = frozenset(str(json.loads(line)["id"]) for line in fh if line.strip())
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise _damaged(f"{path.name} cannot be read: {type(exc).__name__}") from exc
    finally:
        if hold is not None:
            hold.release()
    if expected is not None and len(ids) != expected:
        raise _damaged(f"{path.name} holds {len(ids):,} concepts, the manifest {expected:,}")
    return ids


def _damaged(why: str) -> IndexDamagedError:
    return IndexDamagedError(f"the index's catalogue is damaged ({why}); {REPAIR_HINT}")


def validate_for_index(
    bundle_dir: Path, index_dir: Path, *, prune: bool = False, writer: bool = False
) -> ValidationReport:
    """`validate_bundle` of a bundle about to go into the index at `index_dir`: its records
    may reference the index's concepts (none when the folder holds no index yet), unless
    `prune`, which keeps only the bundle's records (its own references only)."""
    if prune:
        return validate_bundle(bundle_dir)
    return validate_bundle(bundle_dir, index_concept_ids(index_dir, writer=writer) or frozenset())
