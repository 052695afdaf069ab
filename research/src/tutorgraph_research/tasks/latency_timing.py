"""Timing one retriever: per-stage percentiles over a query set, and the reranker alone.

>>> report = await measure_latency(retriever, queries, warmup=10)  # doctest: +SKIP
>>> report["stages_ms"]["total"]["p95"]  # doctest: +SKIP
41.2
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

import numpy as np

from tutorgraph.embedding.reranker import CrossEncoderReranker
from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph_client.models.packet import TIMING_KEYS
from tutorgraph_client.models.request import RetrievalRequest
from tutorgraph_research.harness.provenance import hardware

__all__ = [
    "LATENCY_STAGES",
    "measure_latency",
    "measure_rerank_latency",
    "percentiles",
    "ran_percentiles",
]

# Every stage of `timings_ms`, then serialising the packet to JSON and the caller's wall time.
LATENCY_STAGES = (*TIMING_KEYS, "serialise", "wall")


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
    warmup_queries: Sequence[RetrievalRequest] | None = None,
    request_fields: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Run each query (a text, with `request_fields`, or a whole request) once after
    `warmup` untimed ones: `warmup_queries` when given, else the first queries themselves
    (the stores remember repeated searches, so queries apart from the timed ones keep a
    warm-up from timing cached answers); serialisation is timed too."""
    fields = request_fields or {}
    requests = [
        q if isinstance(q, RetrievalRequest) else RetrievalRequest(query=q, **fields)
        for q in queries
    ]
    for r in (warmup_queries if warmup_queries is not None else requests)[:warmup]:
        await retriever.retrieve(r)
    stages: dict[str, list[float]] = {s: [] for s in (*TIMING_KEYS, "serialise", "wall")}
    cpu_started = time.process_time()
    for i, r in enumerate(requests, start=1):
        started = time.perf_counter()
        packet = await retriever.retrieve(r)
        t = time.perf_counter()
        packet.model_dump_json()
        stages["serialise"].append((time.perf_counter() - t) * 1000)
        stages["wall"].append((time.perf_counter() - started) * 1000)
        for s in TIMING_KEYS:
            stages[s].append(packet.timings_ms[s])
        if progress:
            progress(i, len(queries))
    # The process's CPU time (every thread: the models' too) a request, and so the least
    # wall time a request could take with every core busy on it.
    cpu_ms = (time.process_time() - cpu_started) * 1000 / max(1, len(requests))
    hw = hardware()
    return {
        "n_queries": len(queries),
        "warmup": warmup,
        "stages_ms": {s: percentiles(v) for s, v in stages.items()},
        "cpu_ms_per_request": round(cpu_ms, 1),
        "cpu_floor_ms": round(cpu_ms / (hw["cores"] or 1), 1),
        "hardware": hw,
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


def ran_percentiles(values: Sequence[float]) -> dict[str, Any]:
    """`percentiles` over the queries a stage ran on (a stage that did not run reports 0),
    with their number `n`; `{"n": 0}` when it never ran.

    >>> ran_percentiles([0.0, 2.0, 0.0])
    {'n': 1, 'p50': 2.0, 'p95': 2.0, 'p99': 2.0, 'mean': 2.0}
    """
    ran = [v for v in values if v > 0]
    return {"n": len(ran), **percentiles(ran)} if ran else {"n": 0}
