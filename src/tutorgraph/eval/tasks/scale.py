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
size is then served by a fresh subprocess (`python -m tutorgraph.eval.tasks.scale`), which opens
the index, loads the shipped embedder (`make_embedder`) and the models the reference
configuration needs, and times the fixed query set warm under it, so its memory is that
size's alone: RSS after loading, and the peak (`VmHWM`) after the queries. `scale_fits`
then fits each stage's p50, the build time, disk and memory against the indexed items.

>>> report = await run_scale_sweep(ScaleSpec(bundle=Path("data/curriculum"), work=Path("w")),
...                               embedder)  # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.cached_embedder import CachingEmbedder
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.eval.harness.configs import DEFAULT
from tutorgraph.eval.tasks.latency import LATENCY_QUERIES, WARMUP_QUERIES
from tutorgraph.models.records import SourceRecords

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

# x8 runs out of real exercises on the full bundle (see above): it is all of them.
SCALE_FACTORS = (1, 2, 4, 8)
_MB = 1024 * 1024
# What `scale_fits` fits against size, besides each stage's p50 (keys of a size's row).
_FITTED = ("build_s", "disk_mb", "rss_loaded_mb", "rss_peak_mb")


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


@dataclass
class ScaleSize:
    """One size of the sweep: its records and their real counts."""

    factor: int
    records: SourceRecords
    counts: dict[str, int] = field(default_factory=dict)
    # Documents relative to x1: the real growth (below `factor` when exercises run out).
    ratio: float = 1.0


def bundle_counts(records: SourceRecords) -> dict[str, int]:
    """Concepts, documents (and exercises among them), misconceptions, prerequisite edges
    and searchable items (concepts + misconceptions + documents).

    >>> bundle_counts(SourceRecords())["items"]
    0
    """
    exercises = sum(1 for d in records.documents if d.kind == "exercise")
    return {
        "concepts": len(records.concepts),
        "documents": len(records.documents),
        "exercises": exercises,
        "other_documents": len(records.documents) - exercises,
        "misconceptions": len(records.misconceptions),
        "prerequisites": len(records.prerequisites),
        "items": len(records.concepts) + len(records.misconceptions) + len(records.documents),
    }


def _id_order(record_id: str) -> str:
    return hashlib.sha256(record_id.encode("utf-8")).hexdigest()


def scale_sizes(records: SourceRecords, factors: Sequence[int] = SCALE_FACTORS) -> list[ScaleSize]:
    """x1 = `records` without exercises; xk adds exercises until k times x1's documents
    (nested: every size holds the smaller ones). Counts are the real ones. A size with no
    more documents than the one before (the exercises ran out) is left out.

    >>> [s.factor for s in scale_sizes(SourceRecords(), (1, 2))]
    [1]
    """
    base = [d for d in records.documents if d.kind != "exercise"]
    exercises = sorted(
        (d for d in records.documents if d.kind == "exercise"), key=lambda d: _id_order(d.id)
    )
    out: list[ScaleSize] = []
    for k in factors:
        extra = exercises[: max(0, (k - 1) * len(base))]
        if out and len(base) + len(extra) == out[-1].counts["documents"]:
            continue  # it would time the previous size again
        size = SourceRecords(
            concepts=list(records.concepts),
            prerequisites=list(records.prerequisites),
            misconceptions=list(records.misconceptions),
            documents=base + extra,
        )
        ratio = round(len(size.documents) / len(base), 3) if base else 0.0
        out.append(ScaleSize(k, size, bundle_counts(size), ratio))
    return out


def sample_records(
    records: SourceRecords,
    *,
    misconceptions: int,
    documents: int,
    exercises: int,
    concepts: int = 0,
) -> SourceRecords:
    """A small deterministic slice for quick runs: the first misconceptions, non-exercise
    documents and exercises in sha256-of-id order (an even spread over sources and books),
    the concepts they link to plus the first `concepts` others, with all their ancestors,
    and the prerequisite edges between those concepts. References stay closed, so the
    slice is a valid bundle.

    >>> sample_records(SourceRecords(), misconceptions=1, documents=1, exercises=1).documents
    []
    """

    def first(rows: list[Any], n: int) -> list[Any]:
        return sorted(rows, key=lambda r: _id_order(r.id))[:n]

    docs = first([d for d in records.documents if d.kind != "exercise"], documents)
    docs += first([d for d in records.documents if d.kind == "exercise"], exercises)
    mis = first(records.misconceptions, misconceptions)
    by_id = {c.id: c for c in records.concepts}
    todo = [cid for r in (*docs, *mis) for cid in r.concept_ids]
    todo += [c.id for c in first(records.concepts, concepts)]
    keep: set[str] = set()
    while todo:
        cid = todo.pop()
        if cid in keep or cid not in by_id:
            continue
        keep.add(cid)
        todo.extend(by_id[cid].parent_ids)
    return SourceRecords(
        concepts=[c for c in records.concepts if c.id in keep],
        prerequisites=[
            p for p in records.prerequisites if p.concept_id in keep and p.prerequisite_id in keep
        ],
        misconceptions=mis,
        documents=docs,
    )


def _r2(y: npt.NDArray[np.float64], fitted: npt.NDArray[np.float64]) -> float | None:
    total = float(np.sum((y - y.mean()) ** 2))
    if total == 0.0:
        return None  # a constant explains nothing: R^2 is undefined
    return round(1.0 - float(np.sum((y - fitted) ** 2)) / total, 3) + 0.0


def fit_growth(sizes: Sequence[float], values: Sequence[float]) -> dict[str, float | None]:
    """How `values` grow with `sizes`, by least squares: `exponent` b of values ~ size^b
    (the slope of log value against log size; None when a value is not positive) with its
    `r2`, and the straight line's slope per 1,000 of size (`per_1000`) with its
    `linear_r2`. R^2 is None where the values do not vary.

    >>> fit_growth([1000, 2000, 4000], [10.0, 20.0, 40.0])
    {'exponent': 1.0, 'r2': 1.0, 'per_1000': 10.0, 'linear_r2': 1.0}
    """
    x = np.asarray(sizes, dtype=np.float64)
    y = np.asarray(values, dtype=np.float64)
    if len(x) != len(y) or len(np.unique(x)) < 2:
        raise ValueError("a fit needs a value for each of at least two different sizes")
    slope, intercept = np.polyfit(x, y, 1)
    out: dict[str, float | None] = {"exponent": None, "r2": None}
    if bool(np.all(y > 0)):
        lx, ly = np.log(x), np.log(y)
        b, a = np.polyfit(lx, ly, 1)
        out = {"exponent": round(float(b), 3) + 0.0, "r2": _r2(ly, a + b * lx)}
    return out | {
        "per_1000": round(float(slope) * 1000, 4) + 0.0,
        "linear_r2": _r2(y, intercept + slope * x),
    }


def scale_fits(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """`fit_growth` of the sizes' measurements against their indexed items: each stage's
    p50 (ms), the build time (s), the index on disk and memory (MiB). Empty with fewer than
    two sizes.

    >>> scale_fits([])
    {}
    """
    items = [r["counts"]["items"] for r in rows]
    if len(set(items)) < 2:
        return {}
    stages = [s for s in rows[0]["stages_ms"] if all(r["stages_ms"].get(s) for r in rows)]
    return {
        "against": "items",
        "items": items,
        "stages_p50_ms": {
            s: fit_growth(items, [r["stages_ms"][s]["p50"] for r in rows]) for s in stages
        },
        **{key: fit_growth(items, [r[key] for r in rows]) for key in _FITTED},
    }


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


def _status_mb(field_name: str) -> float:
    """A `/proc/self/status` memory field (VmRSS, VmHWM) in MiB; 0 where there is none."""
    try:
        with open("/proc/self/status", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith(field_name + ":"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0


async def _serve_and_time(
    index_dir: Path, queries: Path, n_queries: int | None, warmup_file: Path, warmup: int
) -> dict[str, Any]:
    """The subprocess's work: load, then time the reference configuration over the query
    set, with the models it needs (the shipped embedder; the bundled learned ranker when it
    ranks)."""
    from tutorgraph.config import Settings
    from tutorgraph.errors import ConfigurationError
    from tutorgraph.eval.tasks.latency import latency_by_config, load_query_set
    from tutorgraph.index.local import LocalIndex
    from tutorgraph.retrieval.factory import (
        Models,
        RetrieverSetup,
        build_retriever,
        load_ranker,
        make_embedder,
    )
    from tutorgraph.retrieval.retriever import RetrieverConfig

    config = DEFAULT
    if config.reranker != "none":
        raise ConfigurationError(f"the scale sweep does not load rerankers ({config.name})")
    settings = Settings()
    rss_start = _status_mb("VmRSS")
    t = time.perf_counter()
    embedder = make_embedder(settings)
    embedder.load()
    ranker = None
    if config.ranker:
        ranker, why_not = load_ranker(settings)
        if ranker is None:  # timing the configuration without it would mislabel the row
            raise ConfigurationError(f"{config.name} needs the learned ranker: {why_not}")
    index = LocalIndex.load(index_dir, embedder=embedder.name)
    setup = RetrieverSetup(
        RetrieverConfig(
            source_timeout_s=60.0, near_duplicate_threshold=config.near_duplicate_threshold
        ),
        refiner=config.refiner,
        diagnosis=config.diagnosis,
        settings=settings,
    )
    retriever = build_retriever(index, Models(embedder, ranker=ranker), setup)
    load_s = time.perf_counter() - t
    rss_loaded = _status_mb("VmRSS")
    qs = load_query_set(queries, limit=n_queries)
    warm = [q.query for q in load_query_set(warmup_file)][:warmup]
    try:
        rows = await latency_by_config({config.name: retriever}, [config], qs, warmup=warm)
    finally:
        await retriever.aclose()
        await index.aclose()
    return {
        "config": config.name,
        "embedder": type(embedder).__name__,
        "n_queries": len(qs),
        "warmup": len(warm),
        "load_s": round(load_s, 2),
        "rss_start_mb": rss_start,
        "rss_loaded_mb": rss_loaded,
        "rss_peak_mb": _status_mb("VmHWM"),
        "stages_ms": rows[0]["stages_ms"],
    }


def measure_serving(
    index_dir: Path,
    *,
    queries: Path = LATENCY_QUERIES,
    n_queries: int | None = None,
    warmup_queries: Path = WARMUP_QUERIES,
    warmup: int = 10,
    timeout_s: float = 900.0,
) -> dict[str, Any]:
    """Serve the index from a fresh Python process and return its latency and memory.

    >>> measure_serving(Path("work/x1"))["rss_peak_mb"]  # doctest: +SKIP
    1210.4
    """
    out = index_dir.parent / f"{index_dir.name}.serving.json"
    cmd = [
        sys.executable,
        "-m",
        "tutorgraph.eval.tasks.scale",
        "--index",
        str(index_dir),
        "--queries",
        str(queries),
        "--warmup-queries",
        str(warmup_queries),
        "--warmup",
        str(warmup),
        "--out",
        str(out),
    ]
    if n_queries is not None:
        cmd += ["--limit", str(n_queries)]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    done = subprocess.run(
        cmd, env=env, capture_output=True, text=True, timeout=timeout_s, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"scale measurement failed ({done.returncode}): {done.stderr[-2000:]}")
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    out.unlink()
    return report


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

    from tutorgraph.eval.harness.provenance import hardware
    from tutorgraph.ingest.bundle import read_bundle

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


def _main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve one index and time it (scale sweep).")
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--queries", type=Path, default=LATENCY_QUERIES)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--warmup-queries", type=Path, default=WARMUP_QUERIES)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    import logging

    import bm25s  # noqa: F401 - it sets its logger to DEBUG on import; quiet it after that

    logging.getLogger("bm25s").setLevel(logging.WARNING)
    report = asyncio.run(
        _serve_and_time(args.index, args.queries, args.limit, args.warmup_queries, args.warmup)
    )
    args.out.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    _main()
