"""Scale sweep: end-to-end latency, build time, disk and memory as the indexed corpus grows.

Real documents only. Size x1 is the bundle without its exercise documents; xk adds the
bundle's OpenStax exercises (in a fixed order: sha256 of the id) until the document count
is k times that of x1. When there are not enough exercises, a size takes them all and
reports its real ratio; a size that would add nothing over the one before is left out.
The full bundle holds 6,210 non-exercise documents and 22,520 exercises (every document
the ingest code makes of the shared data: the loaders skip only OpenStax's 539
readiness-quiz and 356 empty exercises), so x8 is all 28,730 real documents, a ratio of
4.63. Every size keeps all concepts, prerequisite edges and misconceptions, so the graph
is the same and only the searchable text grows.

Each size is ingested into its own index. Vectors are taken from an index that already
holds them (the bundled index of the reproduction), so a size's build time is the stores'
build (Chroma upsert, BM25, catalogue), not embedding; texts it lacks are embedded. Each
size is then served by a fresh subprocess (`tasks.scale_serving`), which opens
the index, loads the shipped embedder (`make_embedder`) and the models the reference
configuration needs, and times the fixed query set warm under it, so its memory is that
size's alone: RSS after loading, and the peak (`VmHWM`) after the queries. `scale_fits`
then fits each stage's p50, the build time, disk and memory against the indexed items.

Its parts are modules of their own, whose public names this module exports too: the sizes
(`scale_corpus`), the fits (`scale_fits`) and serving a size (`scale_serving`).

>>> report = await run_scale_sweep(ScaleSpec(bundle=Path("data/curriculum"), work=Path("w")),
...                               embedder)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.embedder import Embedder
from tutorgraph_research.harness.cached_embedder import CachingEmbedder
from tutorgraph_research.harness.configs import DEFAULT
from tutorgraph_research.tasks.latency_queries import LATENCY_QUERIES, WARMUP_QUERIES
from tutorgraph_research.tasks.scale_corpus import (
    SCALE_FACTORS,
    ScaleSize,
    bundle_counts,
    sample_records,
    scale_sizes,
)
from tutorgraph_research.tasks.scale_fits import fit_growth, scale_fits
from tutorgraph_research.tasks.scale_serving import measure_serving

__all__ = [
    "SCALE_FACTORS",
    "ScaleSize",
    "ScaleSpec",
    "bundle_counts",
    "fit_growth",
    "measure_serving",
    "run_scale_sweep",
    "sample_records",
    "scale_fits",
    "scale_sizes",
    "vectors_from_index",
]

_MB = 1024 * 1024


@dataclass
class ScaleSpec:
    """What the sweep runs on. `vectors_from`: an index whose stored vectors are reused;
    `n_queries`: an even spread of the fixed query set (None: all of it)."""

    bundle: Path
    work: Path
    vectors_from: Path | None = None
    factors: Sequence[int] = SCALE_FACTORS
    queries: Path = LATENCY_QUERIES
    warmup_queries: Path = WARMUP_QUERIES
    n_queries: int | None = None
    warmup: int = 10
    timeout_s: float = 900.0


def vectors_from_index(index_dir: Path) -> dict[str, npt.NDArray[np.float32]]:
    """Every vector an index keeps (its items' and its concept cards'), keyed by the text it
    was computed from; none for an index written before it kept them."""
    from tutorgraph.embedding.stored_vectors import StoredVectors
    from tutorgraph.index.layout import IndexLayout, load_catalogue
    from tutorgraph.index.pipeline import card_texts
    from tutorgraph.stores.items import items_from_records

    layout = IndexLayout.live(index_dir)
    stored = StoredVectors.read(layout.vectors)
    if stored is None:
        return {}
    records = load_catalogue(layout)
    texts = sorted(
        {it.search_text for it in items_from_records(records)} | set(card_texts(records))
    )
    return {texts[i]: v for i, v in stored.lookup(texts, stored.fingerprint).items()}


def _disk_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


async def _build(size: ScaleSize, index_dir: Path, embedder: CachingEmbedder) -> dict[str, Any]:
    from tutorgraph.index.pipeline import IngestOptions, ingest_records

    before_reused, before_embedded = embedder.reused, embedder.embedded
    t = time.perf_counter()
    options = IngestOptions(source_hash=f"scale-x{size.factor}", prune=True)
    report = await ingest_records(size.records, index_dir, embedder, options)
    seconds = time.perf_counter() - t
    return {
        "build_s": round(seconds, 1),
        "vectors_reused": embedder.reused - before_reused,
        "vectors_embedded": embedder.embedded - before_embedded,
        "index_counts": report.counts,
        "disk_mb": round(_disk_bytes(index_dir) / _MB, 1),
    }


async def run_scale_sweep(
    spec: ScaleSpec,
    embedder: Embedder,
    *,
    status: Callable[[str], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Build and serve every size; a size whose result is already in `spec.work` is kept
    (an interrupted sweep resumes at the next size) when it was measured under the same
    configuration with the shipped embedder. Returns the report for `scale.json`:
    its `sizes` (one row each, with `wall_s`, the size's build and serving time) and their
    `fits` (`scale_fits`).

    >>> report = await run_scale_sweep(ScaleSpec(Path("data/curriculum"), Path("w")), embedder)
    ... # doctest: +SKIP
    >>> report["fits"]["stages_p50_ms"]["lexical"]["exponent"]  # doctest: +SKIP
    0.62
    """
    import shutil

    from tutorgraph.ingest.bundle import read_bundle
    from tutorgraph_research.harness.provenance import hardware

    say = status or (lambda _line: None)
    spec.work.mkdir(parents=True, exist_ok=True)
    records = await asyncio.to_thread(read_bundle, spec.bundle)
    sizes = scale_sizes(records, spec.factors)
    config = DEFAULT.name
    lookup: CachingEmbedder | None = None
    rows = []
    for n, size in enumerate(sizes):
        done_file = spec.work / f"x{size.factor}.json"
        kept = json.loads(done_file.read_text(encoding="utf-8")) if done_file.is_file() else {}
        # Rows without `embedder` were served before the sweep used the shipped embedder.
        if kept.get("config") == config and "embedder" in kept:
            rows.append(kept)
            if progress:
                progress(n + 1, len(sizes))
            continue
        if lookup is None:
            vectors: dict[str, npt.NDArray[np.float32]] = {}
            if spec.vectors_from is not None:
                say(f"scale: reading stored vectors from {spec.vectors_from}")
                vectors = await asyncio.to_thread(vectors_from_index, spec.vectors_from)
            lookup = CachingEmbedder(embedder, vectors)
        index_dir = spec.work / f"x{size.factor}"
        if index_dir.exists():
            shutil.rmtree(index_dir)  # a build cut short: start it again
        say(f"scale x{size.factor}: building ({size.counts['items']} items)")
        started = time.perf_counter()
        built = await _build(size, index_dir, lookup)
        say(f"scale x{size.factor}: serving in a fresh process")
        served = await asyncio.to_thread(
            measure_serving,
            index_dir,
            queries=spec.queries,
            n_queries=spec.n_queries,
            warmup_queries=spec.warmup_queries,
            warmup=spec.warmup,
            timeout_s=spec.timeout_s,
        )
        row = {
            "factor": size.factor,
            "ratio": size.ratio,
            "counts": size.counts,
            **built,
            **served,
            "wall_s": round(time.perf_counter() - started, 1),
        }
        tmp = done_file.with_suffix(".tmp")
        tmp.write_text(json.dumps(row, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        tmp.replace(done_file)
        shutil.rmtree(index_dir)  # the measurement is kept; the index is not needed again
        rows.append(row)
        if progress:
            progress(n + 1, len(sizes))
    return {
        "hardware": hardware(),
        "config": config,
        "vectors_from": str(spec.vectors_from) if spec.vectors_from else None,
        "memory": "VmRSS after opening the index and loading the embedder (and the "
        "configuration's models), and VmHWM (peak RSS) after the timed queries, of a fresh "
        "process per size (/proc/self/status)",
        "build": "ingest into an empty index with stored vectors reused: Chroma upsert, "
        "BM25 and catalogue; embedding is not included",
        "fit": "least squares against indexed items: exponent b of value ~ items^b (slope "
        "of log value on log items) with its R^2, and the straight line's slope per 1,000 "
        "items with its R^2; only documents grow, so per 1,000 items = per 1,000 documents",
        "sizes": rows,
        "fits": scale_fits(rows),
    }
