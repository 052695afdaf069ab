"""How inference uses the CPU: ONNX Runtime sessions that do not spin, and numpy's BLAS
capped for serving.

A request runs two small model calls (the query's vectors) and a few small numpy products
(the ranker, the linker, the near-duplicate merge) one after another. Left at their
defaults, ONNX Runtime's and OpenBLAS's worker threads busy-wait after each call and take
the cores from whatever runs next: on this project's 2-core CPU a request with its construct
took 58.9 ms p50 / 82.3 ms p95 that way, and 27.7 / 41.3 ms with neither spinning
(`tutorgraph bench latency`, `results/latency_threads_before.json` and
`results/latency_threads.json`); bulk embedding is unchanged within noise.

>>> session = onnx_session(Path("model.onnx"))  # doctest: +SKIP
>>> limit_blas_threads(1)  # at a server's start-up  # doctest: +SKIP
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["limit_blas_threads", "onnx_session"]


def onnx_session(onnx_file: Path, *, threads: int = 0, int8: bool = False) -> Any:
    """A CPU session for `onnx_file` with `threads` intra-op threads (0: one per core)
    that sleep instead of spinning between calls. An `int8` graph's weights are stored as
    this CPU multiplies them exactly (`int8_weights`)."""
    import onnxruntime as ort

    from tutorgraph.embedding.int8_weights import graph_for_this_cpu

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    source = (graph_for_this_cpu(onnx_file) if int8 else None) or str(onnx_file)
    return ort.InferenceSession(source, opts, providers=["CPUExecutionProvider"])


def limit_blas_threads(threads: int) -> None:
    """Cap the BLAS libraries numpy uses at `threads` for the rest of the process (0: leave
    them as they are). A serving process's products are too small to share out; training,
    with large ones, is left alone."""
    if threads <= 0:
        return
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=threads, user_api="blas")
