"""The per-configuration runner: warm per-stage latency of research configurations
(`harness/configs.py`) over the same queries, one row each.

>>> rows = await latency_by_config({"default": retriever}, [DEFAULT], queries)  # doctest: +SKIP
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph_client.models.packet import TIMING_KEYS
from tutorgraph_client.models.request import RetrievalRequest
from tutorgraph_research.harness.configs import RunConfig
from tutorgraph_research.harness.provenance import hardware
from tutorgraph_research.tasks.latency_queries import LatencyQuery
from tutorgraph_research.tasks.latency_timing import LATENCY_STAGES, percentiles, ran_percentiles

__all__ = ["LATENCY_SOURCE_TIMEOUT_S", "RetrieverSource", "latency_by_config"]

# For each configuration: the retriever that serves it, or "not measured: <reason>".
RetrieverSource = (
    Mapping[str, "HybridRetriever | str"] | Callable[[RunConfig], "HybridRetriever | str"]
)
# A generous per-search timeout: a degraded packet would time a search that did not run.
LATENCY_SOURCE_TIMEOUT_S = 60.0


async def _time_queries(
    retriever: HybridRetriever,
    queries: Sequence[tuple[str, Sequence[str]]],
    fields: Mapping[str, Any],
    tick: Callable[[], None],
) -> tuple[dict[str, list[float]], int]:
    """Each stage's time for each query, in query order (one request at a time), and how
    many packets came back degraded (a source that failed or timed out)."""
    stages: dict[str, list[float]] = {s: [] for s in LATENCY_STAGES}
    degraded = 0
    for q, concept_ids in queries:
        started = time.perf_counter()
        context = {"concept_ids": list(concept_ids)} if concept_ids else {}
        packet = await retriever.retrieve(RetrievalRequest(**{**fields, "query": q, **context}))
        t = time.perf_counter()
        packet.model_dump_json()
        done = time.perf_counter()
        stages["serialise"].append((done - t) * 1000)
        stages["wall"].append((done - started) * 1000)
        for s in TIMING_KEYS:
            stages[s].append(packet.timings_ms[s])
        degraded += bool(packet.degraded_sources)
        tick()
    return stages, degraded


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
    `LATENCY_STAGES` entry, None when not measured), `ran_ms` (the same over only the
    queries each stage of `timings_ms` ran on, with their number `n`: the diagnosis runs
    only where a student's answer can be checked), `n_degraded` (packets with a failed or
    timed-out source), `total_by_query_type` and `hardware`.

    >>> rows = await latency_by_config({"default": retriever}, [DEFAULT], ["what is a ratio?"])
    ... # doctest: +SKIP
    >>> rows[0]["stages_ms"]["total"]["p95"]  # doctest: +SKIP
    41.2
    """
    texts = [q.query if isinstance(q, LatencyQuery) else q for q in queries]
    contexts = [q.concept_ids if isinstance(q, LatencyQuery) else () for q in queries]
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
                "ran_ms": None,
                "n_degraded": None,
                "total_by_query_type": None,
            }
            done += len(warm) + len(texts)
            if progress:
                progress(done, total)
            rows.append(row)
            continue
        fields = {**config.request_fields(), **(request_fields or {})}
        await _time_queries(got, [(q, ()) for q in warm], fields, tick)
        stages, degraded = await _time_queries(
            got, list(zip(texts, contexts, strict=True)), fields, tick
        )
        by_type: dict[str, list[float]] = {}
        for qtype, t in zip(types, stages["total"], strict=True):
            if qtype:
                by_type.setdefault(qtype, []).append(t)
        row |= {
            "status": "ok",
            "stages_ms": {s: percentiles(v) for s, v in stages.items()},
            "ran_ms": {s: ran_percentiles(stages[s]) for s in TIMING_KEYS},
            "n_degraded": degraded,
            "total_by_query_type": {k: percentiles(v) for k, v in sorted(by_type.items())},
        }
        rows.append(row)
    return rows
