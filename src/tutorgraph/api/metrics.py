"""The server's Prometheus metrics, through `prometheus-client`.

One worker: the metrics live in a registry of their own (one per app, so several apps in
one process never collide). Several workers (`tutorgraph serve --workers N`): `serve` points
`PROMETHEUS_MULTIPROC_DIR` at a fresh folder before the workers start; each worker writes
its samples there, and `/metrics` from any worker sums them all (prometheus-client's
multiprocess mode; the in-flight gauge sums the live workers).

>>> metrics = ApiMetrics()
>>> metrics.observe_request("GET", "/healthz", 200, 0.002)
>>> 'tutorgraph_http_requests_total{method="GET",route="/healthz",status="200"} 1.0' in (
...     metrics.render())
True
"""

from __future__ import annotations

import os

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client import multiprocess as prometheus_multiprocess
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4

from tutorgraph_client.models.answer import AnswerResult
from tutorgraph_client.models.packet import TIMING_KEYS, ReasoningPacket

__all__ = ["CONTENT_TYPE", "MULTIPROCESS_ENV", "ApiMetrics"]

# The classic text format every Prometheus scrapes (names here need no 1.0.0 escaping).
CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4
# Set (by `serve --workers N`) before prometheus-client is imported in the workers.
MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"
# Seconds: from a cache hit (sub-millisecond) to a slow rerank on a busy CPU.
_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class ApiMetrics:
    """Requests, per-stage latency, degraded sources, reranker use, ingest jobs, swaps."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self._multiprocess = bool(os.environ.get(MULTIPROCESS_ENV))
        r = self.registry
        self.requests = Counter(
            "tutorgraph_http_requests",
            "HTTP requests by method, route template and status code.",
            ("method", "route", "status"),
            registry=r,
        )
        self.request_seconds = Histogram(
            "tutorgraph_http_request_duration_seconds",
            "HTTP request latency by route template.",
            ("route",),
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.stage_seconds = Histogram(
            "tutorgraph_retrieval_stage_duration_seconds",
            "Retrieval latency per pipeline stage (stages that ran), from packet.timings_ms.",
            ("stage",),
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.degraded = Counter(
            "tutorgraph_degraded_sources",
            "Retrievals answered without a source that failed or timed out, by source.",
            ("source",),
            registry=r,
        )
        self.reranker = Counter(
            "tutorgraph_reranker",
            "Retrievals by whether the cross-encoder reranked the packet.",
            ("applied",),
            registry=r,
        )
        self.ingest_jobs = Counter(
            "tutorgraph_ingest_jobs",
            "Ingest jobs that ended, by final status.",
            ("status",),
            registry=r,
        )
        self.conflicts = Counter(
            "tutorgraph_conflicts_detected",
            "Conflicts found in packets, by kind (factual, temporal).",
            ("kind",),
            registry=r,
        )
        self.conflicts_resolved = Counter(
            "tutorgraph_conflicts_resolved",
            "Conflicts resolved in packets (temporal: the stale copy replaced), by kind.",
            ("kind",),
            registry=r,
        )
        self.answers = Counter(
            "tutorgraph_answers",
            "POST /v1/answer outcomes: answered, or no answer (any failure, or no model).",
            ("outcome",),
            registry=r,
        )
        self.removed_citations = Counter(
            "tutorgraph_answer_removed_citations",
            "Citations removed from answers because the packet's context did not hold them.",
            registry=r,
        )
        self.index_swaps = Counter(
            "tutorgraph_index_swaps",
            "Times a new index generation replaced the live one since start-up.",
            registry=r,
        )
        self.in_flight = Gauge(
            "tutorgraph_http_requests_in_flight",
            "HTTP requests being served right now.",
            registry=r,
            multiprocess_mode="livesum",
        )

    def observe_request(self, method: str, route: str, status: int, seconds: float) -> None:
        self.requests.labels(method=method, route=route, status=str(status)).inc()
        self.request_seconds.labels(route=route).observe(seconds)

    def observe_packet(self, packet: ReasoningPacket) -> None:
        for stage in TIMING_KEYS:
            ms = packet.timings_ms.get(stage, 0.0)
            # A stage that did not run reports 0; counting it would drag every quantile down.
            if ms > 0 or stage == "total":
                self.stage_seconds.labels(stage=stage).observe(ms / 1000.0)
        for source in packet.degraded_sources:
            self.degraded.labels(source=source).inc()
        self.reranker.labels(applied="true" if packet.reranker.applied else "false").inc()
        for conflict in packet.conflicts:
            self.conflicts.labels(kind=conflict.kind).inc()
            if conflict.kind == "temporal":
                self.conflicts_resolved.labels(kind=conflict.kind).inc()

    def observe_answer(self, result: AnswerResult) -> None:
        self.answers.labels(outcome="answered" if result.answer else "no_answer").inc()
        self.removed_citations.inc(len(result.removed_citations))

    def observe_swap(self) -> None:
        self.index_swaps.inc()

    def render(self) -> str:
        """The exposition: this process's metrics, or every worker's in multiprocess mode."""
        if not self._multiprocess:
            return generate_latest(self.registry).decode("utf-8")
        merged = CollectorRegistry()
        prometheus_multiprocess.MultiProcessCollector(merged)  # type: ignore[no-untyped-call]
        return generate_latest(merged).decode("utf-8")

    def worker_exited(self) -> None:
        """Drop this worker's live gauges from the shared folder (at shutdown)."""
        if self._multiprocess:
            prometheus_multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]
