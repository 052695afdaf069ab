"""Prometheus metrics in the text exposition format (version 0.0.4), without a dependency.

`prometheus_client` is not installed here, and the server needs only counters, one gauge and
histograms, so this module writes the format itself. Everything is in memory, per process.

>>> metrics = ApiMetrics()
>>> metrics.observe_request("GET", "/healthz", 200, 0.002)
>>> 'tutorgraph_http_requests_total{method="GET",route="/healthz",status="200"} 1' in (
...     metrics.render())
True
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Sequence

from tutorgraph.models.packet import STAGES, ReasoningPacket

__all__ = ["CONTENT_TYPE", "ApiMetrics", "Counter", "Gauge", "Histogram", "Registry"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# Seconds: from a cache hit (sub-millisecond) to a slow rerank on a busy CPU.
_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

LabelValues = tuple[str, ...]


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _labels(names: Sequence[str], values: Sequence[str], extra: str = "") -> str:
    parts = [f'{n}="{_escape(v)}"' for n, v in zip(names, values, strict=True)]
    if extra:
        parts.append(extra)
    return "{" + ",".join(parts) + "}" if parts else ""


def _num(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return repr(float(value)) if value != int(value) else str(int(value))


class _Metric:
    kind = "untyped"

    def __init__(self, name: str, help_text: str, labelnames: Sequence[str] = ()) -> None:
        self.name = name
        self.help = help_text
        self.labelnames = tuple(labelnames)
        self._lock = threading.Lock()

    def _key(self, labels: dict[str, str]) -> LabelValues:
        if set(labels) != set(self.labelnames):
            raise ValueError(f"{self.name} takes labels {self.labelnames}, got {sorted(labels)}")
        return tuple(str(labels[n]) for n in self.labelnames)

    def header(self) -> list[str]:
        return [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} {self.kind}"]

    def samples(self) -> list[str]:
        raise NotImplementedError


class Counter(_Metric):
    """A monotonically increasing count per label set."""

    kind = "counter"

    def __init__(self, name: str, help_text: str, labelnames: Sequence[str] = ()) -> None:
        super().__init__(name, help_text, labelnames)
        self._values: dict[LabelValues, float] = {}

    def inc(self, amount: float = 1.0, **labels: str) -> None:
        key = self._key(labels)
        with self._lock:
            self._values[key] = self._values.get(key, 0.0) + amount

    def value(self, **labels: str) -> float:
        return self._values.get(self._key(labels), 0.0)

    def samples(self) -> list[str]:
        with self._lock:
            items = sorted(self._values.items())
        if not items and not self.labelnames:
            items = [((), 0.0)]  # an unlabelled series exists from the start
        return [f"{self.name}{_labels(self.labelnames, k)} {_num(v)}" for k, v in items]


class Gauge(Counter):
    """A value that goes up and down."""

    kind = "gauge"

    def set(self, value: float, **labels: str) -> None:
        key = self._key(labels)
        with self._lock:
            self._values[key] = value

    def dec(self, amount: float = 1.0, **labels: str) -> None:
        self.inc(-amount, **labels)


class Histogram(_Metric):
    """Observations counted into cumulative `le` buckets, with their sum and count."""

    kind = "histogram"

    def __init__(
        self,
        name: str,
        help_text: str,
        labelnames: Sequence[str] = (),
        buckets: Iterable[float] = _LATENCY_BUCKETS,
    ) -> None:
        super().__init__(name, help_text, labelnames)
        self.buckets = tuple(sorted(buckets))
        self._counts: dict[LabelValues, list[int]] = {}
        self._sums: dict[LabelValues, float] = {}

    def observe(self, value: float, **labels: str) -> None:
        key = self._key(labels)
        with self._lock:
            counts = self._counts.setdefault(key, [0] * (len(self.buckets) + 1))
            for i, bound in enumerate(self.buckets):
                if value <= bound:
                    counts[i] += 1
                    break
            else:
                counts[-1] += 1
            self._sums[key] = self._sums.get(key, 0.0) + value

    def count(self, **labels: str) -> int:
        return sum(self._counts.get(self._key(labels), []))

    def samples(self) -> list[str]:
        out: list[str] = []
        with self._lock:
            items = sorted((k, list(c), self._sums[k]) for k, c in self._counts.items())
        for key, counts, total in items:
            running = 0
            for bound, n in zip((*self.buckets, math.inf), counts, strict=True):
                running += n
                le = f'le="{_num(bound)}"'
                out.append(f"{self.name}_bucket{_labels(self.labelnames, key, le)} {running}")
            out.append(f"{self.name}_sum{_labels(self.labelnames, key)} {_num(total)}")
            out.append(f"{self.name}_count{_labels(self.labelnames, key)} {running}")
        return out


class Registry:
    """Metrics in registration order, rendered as one exposition."""

    def __init__(self) -> None:
        self._metrics: list[_Metric] = []

    def register(self, metric: _Metric) -> None:
        if any(m.name == metric.name for m in self._metrics):
            raise ValueError(f"metric {metric.name} is registered twice")
        self._metrics.append(metric)

    def render(self) -> str:
        lines: list[str] = []
        for metric in self._metrics:
            lines += metric.header()
            lines += metric.samples()
        return "\n".join(lines) + "\n"


class ApiMetrics:
    """The server's metrics: requests, per-stage latency, degraded sources, reranker use."""

    def __init__(self) -> None:
        self.registry = Registry()
        self.requests = Counter(
            "tutorgraph_http_requests_total",
            "HTTP requests by method, route template and status code.",
            ("method", "route", "status"),
        )
        self.request_seconds = Histogram(
            "tutorgraph_http_request_duration_seconds",
            "HTTP request latency by route template.",
            ("route",),
        )
        self.stage_seconds = Histogram(
            "tutorgraph_retrieval_stage_duration_seconds",
            "Retrieval latency per pipeline stage (stages that ran), from packet.timings_ms.",
            ("stage",),
        )
        self.degraded = Counter(
            "tutorgraph_degraded_sources_total",
            "Retrievals answered without a source that failed or timed out, by source.",
            ("source",),
        )
        self.reranker = Counter(
            "tutorgraph_reranker_total",
            "Retrievals by whether the cross-encoder reranked the packet.",
            ("applied",),
        )
        self.ingest_jobs = Counter(
            "tutorgraph_ingest_jobs_total",
            "Ingest jobs that ended, by final status.",
            ("status",),
        )
        self.index_swaps = Counter(
            "tutorgraph_index_swaps_total",
            "Times a new index generation replaced the live one since start-up.",
        )
        self.in_flight = Gauge(
            "tutorgraph_http_requests_in_flight",
            "HTTP requests being served right now.",
        )
        for metric in (
            self.requests,
            self.request_seconds,
            self.stage_seconds,
            self.degraded,
            self.reranker,
            self.ingest_jobs,
            self.index_swaps,
            self.in_flight,
        ):
            self.registry.register(metric)

    def observe_request(self, method: str, route: str, status: int, seconds: float) -> None:
        self.requests.inc(method=method, route=route, status=str(status))
        self.request_seconds.observe(seconds, route=route)

    def observe_packet(self, packet: ReasoningPacket) -> None:
        for stage in STAGES:
            ms = packet.timings_ms.get(stage, 0.0)
            # A stage that did not run reports 0; counting it would drag every quantile down.
            if ms > 0 or stage == "total":
                self.stage_seconds.observe(ms / 1000.0, stage=stage)
        for source in packet.degraded_sources:
            self.degraded.inc(source=source)
        self.reranker.inc(applied="true" if packet.reranker.applied else "false")

    def observe_swap(self) -> None:
        self.index_swaps.inc()

    def render(self) -> str:
        return self.registry.render()
