"""Warm retrieval latency over a fixed query set: p50/p95/p99 per stage of `timings_ms`.

`measure_latency` times one retriever; `latency_by_config` times every research
configuration (`eval/configs.py`) over the same queries, and `run_latency_harness` does that
on a local index with the bundled reranker, naming what it could not measure.

The fixed query set of the paper is `tests/data/routing_queries.jsonl` (110 real queries of
all four query types, drawn mechanically from Eedi, Learning Commons and OpenStax or written
like a student, labelled by hand; see `tests/data/ROUTING_LABELS.md`); its 30-query holdout
file warms the models up, so no timed query is ever answered from a cache.

>>> report = await measure_latency(retriever, queries, warmup=10)  # doctest: +SKIP
>>> rows = await latency_by_config({"best": retriever}, [BEST], queries)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from tutorgraph.eval.harness.configs import RunConfig
from tutorgraph.eval.harness.provenance import hardware
from tutorgraph.models.packet import STAGES
from tutorgraph.models.request import RetrievalRequest
from tutorgraph.retrieval.reranker import CrossEncoderReranker
from tutorgraph.retrieval.retriever import HybridRetriever

if TYPE_CHECKING:
    from tutorgraph.config import Settings

__all__ = [
    "LATENCY_QUERIES",
    "LATENCY_STAGES",
    "WARMUP_QUERIES",
    "LatencyQuery",
    "RetrieverSource",
    "hardware",
    "latency_by_config",
    "load_query_set",
    "measure_latency",
    "measure_rerank_latency",
    "percentiles",
    "read_through",
    "run_latency_harness",
]

_REPO = Path(__file__).resolve().parents[4]
# The fixed query set (timed) and its warm-up set; see the module docstring.
LATENCY_QUERIES = _REPO / "tests" / "data" / "routing_queries.jsonl"
WARMUP_QUERIES = _REPO / "tests" / "data" / "routing_queries_holdout.jsonl"
# Every stage of `timings_ms`, then serialising the packet to JSON and the caller's wall time.
LATENCY_STAGES = (*STAGES, "serialise", "wall")
# For each configuration: the retriever that serves it, or "not measured: <reason>".
RetrieverSource = (
    Mapping[str, "HybridRetriever | str"] | Callable[[RunConfig], "HybridRetriever | str"]
)


def percentiles(values: Sequence[float]) -> dict[str, float]:
    """p50, p95, p99 and mean of `values`, rounded to 0.01.

    >>> percentiles([1.0, 2.0, 3.0])["p50"]
    2.0
    """
    arr = np.asarray(values, dtype=np.float64)
    return {
        "p50": round(float(np.percentile(arr, 50)), 2),
        "p95": round(float(np.percentile(arr, 95)), 2),
        "p99": round(float(np.percentile(arr, 99)), 2),
        "mean": round(float(arr.mean()), 2),
    }


async def measure_latency(
    retriever: HybridRetriever,
    queries: Sequence[str | RetrievalRequest],
    *,
    warmup: int = 10,
    request_fields: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Run each query (a text, with `request_fields`, or a whole request) once after
    `warmup` untimed ones; serialisation is timed too."""
    fields = request_fields or {}
    requests = [
        q if isinstance(q, RetrievalRequest) else RetrievalRequest(query=q, **fields)
        for q in queries
    ]
    for r in requests[:warmup]:
        await retriever.retrieve(r)
    stages: dict[str, list[float]] = {s: [] for s in (*STAGES, "serialise", "wall")}
    for i, r in enumerate(requests, start=1):
        started = time.perf_counter()
        packet = await retriever.retrieve(r)
        t = time.perf_counter()
        packet.model_dump_json()
        stages["serialise"].append((time.perf_counter() - t) * 1000)
        stages["wall"].append((time.perf_counter() - started) * 1000)
        for s in STAGES:
            stages[s].append(packet.timings_ms[s])
        if progress:
            progress(i, len(queries))
    return {
        "n_queries": len(queries),
        "warmup": warmup,
        "stages_ms": {s: percentiles(v) for s, v in stages.items()},
        "hardware": hardware(),
    }


async def measure_rerank_latency(
    retriever: HybridRetriever,
    reranker: CrossEncoderReranker,
    queries: Sequence[str],
    *,
    depths: Sequence[int] = (10, 30, 50),
    warmup: int = 5,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Time the cross-encoder alone on each query's real fused candidates, per depth.

    The score cache is bypassed (every pair is scored); `repeat_ms` is the same query
    scored again, answered from the cache. Peak RSS is the whole process's.
    """
    import resource

    candidates: list[tuple[str, list[str]]] = []
    for q in queries:
        packet = await retriever.retrieve(
            RetrievalRequest(query=q, n_results=max(depths), rerank=False, max_context_tokens=0)
        )
        texts = [f"{h.title}: {h.text}" if h.title else h.text for h in packet.results]
        candidates.append((q, texts))
    cold = reranker.without_cache()
    for q, texts in candidates[:warmup]:
        await asyncio.to_thread(cold.score, q, texts[: max(depths)])
    per_depth: dict[str, Any] = {}
    total = len(depths) * len(candidates)
    done = 0
    for depth in depths:
        times: list[float] = []
        pairs = 0
        for q, texts in candidates:
            t = time.perf_counter()
            await asyncio.to_thread(cold.score, q, texts[:depth])
            times.append((time.perf_counter() - t) * 1000)
            pairs += len(texts[:depth])
            done += 1
            if progress:
                progress(done, total)
        per_depth[str(depth)] = {
            **percentiles(times),
            "pairs_per_s": round(pairs / (sum(times) / 1000), 1),
        }
    repeat: list[float] = []
    for q, texts in candidates:
        reranker.score(q, texts[:30])
        t = time.perf_counter()
        reranker.score(q, texts[:30])
        repeat.append((time.perf_counter() - t) * 1000)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "model": reranker.name,
        "backend": reranker.backend,
        "options": asdict(reranker.options),
        "n_queries": len(candidates),
        "depths_ms": per_depth,
        "repeat_depth30_ms": percentiles(repeat),
        "peak_rss_mb": round(peak, 1),
        "hardware": hardware(),
    }


@dataclass(frozen=True)
class LatencyQuery:
    """One query of the fixed set, with its hand label (`query_type`) and where it came from."""

    query: str
    query_type: str
    origin: str


def load_query_set(path: Path = LATENCY_QUERIES, *, limit: int | None = None) -> list[LatencyQuery]:
    """The queries of a JSON Lines file (`query`, `query_type`, `origin`), in file order.

    `limit` takes an even spread of that many (quick runs keep every query type).

    >>> len(load_query_set(limit=20))  # doctest: +SKIP
    20
    """
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    out = [LatencyQuery(r["query"], r.get("query_type", ""), r.get("origin", "")) for r in rows]
    if limit is not None and limit < len(out):
        step = len(out) / limit
        out = [out[int(i * step)] for i in range(limit)]
    return out


async def _time_queries(
    retriever: HybridRetriever,
    queries: Sequence[str],
    fields: Mapping[str, Any],
    tick: Callable[[], None],
) -> dict[str, list[float]]:
    """Each stage's time for each query, in query order (one request at a time)."""
    stages: dict[str, list[float]] = {s: [] for s in LATENCY_STAGES}
    for q in queries:
        started = time.perf_counter()
        packet = await retriever.retrieve(RetrievalRequest(query=q, **fields))
        t = time.perf_counter()
        packet.model_dump_json()
        done = time.perf_counter()
        stages["serialise"].append((done - t) * 1000)
        stages["wall"].append((done - started) * 1000)
        for s in STAGES:
            stages[s].append(packet.timings_ms[s])
        tick()
    return stages


async def latency_by_config(
    retrievers: RetrieverSource,
    configs: Sequence[RunConfig],
    queries: Sequence[str | LatencyQuery],
    *,
    warmup: Sequence[str] | int = 10,
    request_fields: Mapping[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Warm per-stage latency of every configuration over the same queries, one row each.

    `retrievers` gives each configuration's retriever (by name, or a function of the
    configuration), or a "not measured: <reason>" string. `warmup` is a list of warm-up
    queries run untimed before each configuration (or how many of `queries` to use;
    separate queries keep caches out of the timings). Each row holds `config`, `factor`,
    `config_detail`, `status`, `n_queries`, `stages_ms` (p50/p95/p99/mean for every
    `LATENCY_STAGES` entry, None when not measured), `total_by_query_type` and `hardware`.

    >>> rows = await latency_by_config({"best": retriever}, [BEST], ["what is a ratio?"])
    ... # doctest: +SKIP
    >>> rows[0]["stages_ms"]["total"]["p95"]  # doctest: +SKIP
    41.2
    """
    texts = [q.query if isinstance(q, LatencyQuery) else q for q in queries]
    types = [q.query_type if isinstance(q, LatencyQuery) else "" for q in queries]
    warm = list(texts[:warmup]) if isinstance(warmup, int) else list(warmup)
    hw = hardware()
    total = len(configs) * (len(warm) + len(texts))
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress:
            progress(done, total)

    rows: list[dict[str, Any]] = []
    for config in configs:
        got = retrievers(config) if callable(retrievers) else retrievers.get(config.name)
        row: dict[str, Any] = {
            "config": config.name,
            "factor": config.factor,
            "config_detail": config.describe(),
            "n_queries": len(texts),
            "warmup": len(warm),
            "hardware": hw,
        }
        if got is None or isinstance(got, str):
            row |= {
                "status": got or "not measured: no retriever for this configuration",
                "stages_ms": None,
                "total_by_query_type": None,
            }
            done += len(warm) + len(texts)
            if progress:
                progress(done, total)
            rows.append(row)
            continue
        fields = {**config.request_fields(), **(request_fields or {})}
        await _time_queries(got, warm, fields, tick)
        stages = await _time_queries(got, texts, fields, tick)
        by_type: dict[str, list[float]] = {}
        for qtype, t in zip(types, stages["total"], strict=True):
            if qtype:
                by_type.setdefault(qtype, []).append(t)
        row |= {
            "status": "ok",
            "stages_ms": {s: percentiles(v) for s, v in stages.items()},
            "total_by_query_type": {k: percentiles(v) for k, v in sorted(by_type.items())},
        }
        rows.append(row)
    return rows


def _why(message: str) -> str:
    """A load error in a few words for a table note (the hub's message runs to lines)."""
    lowered = message.lower()
    if "connect" in lowered or "offline" in lowered or "cached files" in lowered:
        return "no model hub here and no local copy"
    line = message.strip().splitlines()[0] if message.strip() else "unknown error"
    return line[:160]


def read_through(folder: Path) -> int:
    """Read every file under `folder` once (into the OS page cache); returns the bytes read."""
    total = 0
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            with path.open("rb") as f:
                while chunk := f.read(1 << 20):
                    total += len(chunk)
    return total


async def run_latency_harness(
    index_dir: Path,
    configs: Sequence[RunConfig],
    queries: Sequence[LatencyQuery],
    warmup: Sequence[str],
    *,
    settings: Settings | None = None,
    embedder: Any = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """`latency_by_config` on the index at `index_dir` (embedded Chroma, BM25, embedded graph).

    Reranker configurations use the bundled int8 domain reranker (its score cache off, so
    every pair is scored); `domain` (fp32) is not measured, since the package ships only
    the int8 export; `msmarco` is measured only where it loads offline, and the `openai`
    refiner only with a key or base URL. Neo4j is listed as not measured unless
    `TUTORGRAPH_NEO4J_URI` is set (it is never timed here: the graph runs embedded).

    >>> report = await run_latency_harness(Path(".tutorgraph"), ablation_grid(), qs, warm)
    ... # doctest: +SKIP
    """
    from tutorgraph.config import MSMARCO_RERANKER, Settings
    from tutorgraph.errors import ConfigurationError
    from tutorgraph.index.local import LocalIndex
    from tutorgraph.retrieval.factory import (
        Models,
        RefinerKind,
        RetrieverSetup,
        build_retriever,
        bundled_reranker_path,
        make_embedder,
        openai_unavailable,
    )

    settings = settings or Settings()
    if embedder is None:
        embedder = make_embedder(settings)
        await asyncio.to_thread(embedder.load)
    # Warm means a server that has been up a while: its index files are in the page cache.
    await asyncio.to_thread(read_through, index_dir)
    index = await LocalIndex.open(index_dir, embedder=embedder.name)

    def retriever(reranker: CrossEncoderReranker | None, refiner: RefinerKind) -> HybridRetriever:
        # A generous timeout: a degraded packet would time a search that did not run.
        setup = RetrieverSetup(
            rerank_depth=settings.rerank_depth,
            source_timeout_s=60.0,
            refiner=refiner,
            settings=settings,
        )
        return build_retriever(index, Models(embedder, reranker), setup)

    wanted = {c.reranker for c in configs} | {c.refiner for c in configs}
    bundled = CrossEncoderReranker(bundled_reranker_path(), backend="onnx-int8").without_cache()
    await asyncio.to_thread(bundled.load)
    base = retriever(bundled, "local")
    served: dict[str, HybridRetriever | str] = {}
    extra: list[HybridRetriever] = []
    if "msmarco" in wanted:
        msmarco = CrossEncoderReranker(MSMARCO_RERANKER, backend="torch")
        try:
            await asyncio.to_thread(msmarco.load)
            extra.append(retriever(msmarco.without_cache(), "local"))
            served["msmarco"] = extra[-1]
        except ConfigurationError as exc:
            served["msmarco"] = (
                f"not measured: {MSMARCO_RERANKER} could not be loaded ({_why(exc.message)})"
            )
    if "openai" in wanted:
        reason = openai_unavailable(settings)
        if reason is None:
            extra.append(retriever(bundled, "openai"))
            served["openai"] = extra[-1]
        else:
            served["openai"] = f"not measured: {reason}"
    served["domain"] = "not measured: the package ships only the int8 export of the domain reranker"

    def pick(config: RunConfig) -> HybridRetriever | str:
        if config.reranker in ("domain", "msmarco"):
            return served[config.reranker]
        if config.refiner == "openai":
            return served["openai"]
        return base

    try:
        rows = await latency_by_config(pick, configs, queries, warmup=warmup, progress=progress)
    finally:
        for r in (base, *extra):
            await r.aclose()
        await index.aclose()
    by_type: dict[str, int] = {}
    for q in queries:
        by_type[q.query_type] = by_type.get(q.query_type, 0) + 1
    neo4j = (
        "not measured here: the graph ran embedded (NetworkX); Neo4j is configured but "
        "this harness times the embedded store"
        if settings.neo4j_uri
        else "not measured: no Neo4j server here"
    )
    return {
        "hardware": hardware(),
        "index": {"counts": index.manifest.counts, "embedder": index.manifest.embedder},
        "queries": {
            "n": len(queries),
            "by_query_type": dict(sorted(by_type.items())),
            "warmup": len(warmup),
        },
        "rerank_depth": settings.rerank_depth,
        "rows": rows,
        "not_measured": {"graph backend neo4j": neo4j},
    }
