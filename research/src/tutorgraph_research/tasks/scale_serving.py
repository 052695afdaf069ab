"""Serving one index of the scale sweep from a fresh Python process, so that its memory is
that size's alone: `measure_serving` runs this module (`python -m
tutorgraph_research.tasks.scale_serving`), which opens the index, loads the shipped embedder and
the models the reference configuration needs, and times the fixed query set warm.

>>> measure_serving(Path("work/x1"), n_queries=20)["stages_ms"]["wall"]["p50"]  # doctest: +SKIP
38.5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tutorgraph_research.harness.configs import DEFAULT
from tutorgraph_research.tasks.latency_queries import LATENCY_QUERIES, WARMUP_QUERIES

__all__ = ["measure_serving"]


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
    from tutorgraph.index.local import LocalIndex
    from tutorgraph.retrieval.factory import (
        Models,
        build_retriever,
        load_ranker,
        make_embedder,
    )
    from tutorgraph.retrieval.retriever_config import OpenAIRefinerConfig, RetrieverConfig
    from tutorgraph_research.tasks.latency_configs import latency_by_config
    from tutorgraph_research.tasks.latency_queries import load_query_set

    config = DEFAULT
    if config.reranker != "none":
        raise ConfigurationError(f"the scale sweep does not load rerankers ({config.name})")
    settings = Settings()
    rss_start = _status_mb("VmRSS")
    t = time.perf_counter()
    embedder = make_embedder(settings)
    embedder.load()
    models = Models(embedder)
    if config.ranker:
        ranker = load_ranker(settings)
        if ranker.value is None:  # timing the configuration without it would mislabel the row
            raise ConfigurationError(f"{config.name} needs the learned ranker: {ranker.reason}")
        models = Models(embedder, ranker=ranker)
    index = LocalIndex.load(index_dir, embedder=embedder.name)
    setup = RetrieverConfig(
        source_timeout_s=60.0,
        near_duplicate_threshold=config.near_duplicate_threshold,
        refiner=config.refiner,
        diagnosis=config.diagnosis,
        openai=OpenAIRefinerConfig.from_settings(settings),
    )
    retriever = build_retriever(index, models, setup)
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
        "tutorgraph_research.tasks.scale_serving",
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
