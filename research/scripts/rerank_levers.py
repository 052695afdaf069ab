"""Measure the fast-inference levers of the reranker on real candidates (issue 4).

    python research/scripts/rerank_levers.py MODEL_DIR --questions ../shared/data/eedi/train.csv

MODEL_DIR must hold the HF weights and both ONNX graphs (`tutorgraph train-reranker`
without `--slim`). Candidates are the fused top 30 of the local index for Eedi queries;
each variant scores the same pairs with its cache off, after a warm-up. Prints one JSON
line per variant: depth-30 p50/p95 ms and pairs/s, and the score agreement with fp32.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from tutorgraph.cli.plugin import load_settings, open_retriever
from tutorgraph.embedding.reranker import CrossEncoderReranker, RerankerOptions
from tutorgraph.ingest.eedi import eedi_query_text, read_eedi_questions
from tutorgraph_client.models.request import RetrievalRequest
from tutorgraph_research.tasks.latency import percentiles

DEPTH = 30


async def candidates(queries: list[str]) -> list[tuple[str, list[str]]]:
    out = []
    async with open_retriever(load_settings().model_copy(update={"reranker_model": ""})) as served:
        for q in queries:
            packet = await served.retriever.retrieve(
                RetrievalRequest(query=q, n_results=DEPTH, rerank=False, max_context_tokens=0)
            )
            out.append((q, [f"{h.title}: {h.text}" if h.title else h.text for h in packet.results]))
    return out


def main(model_dir: Path, questions: Path, n: int = 100) -> None:
    qs = read_eedi_questions(questions)
    wrong = [(q, x) for q in qs for x in sorted(q.answers) if x != q.correct_answer]
    queries = [eedi_query_text(q, x) for q, x in wrong[:: max(1, len(wrong) // n)]][:n]
    pairs = asyncio.run(candidates(queries))
    base = RerankerOptions(batch_size=32, cache_size=0)
    long = RerankerOptions(max_length=256, query_max_tokens=192, batch_size=32, cache_size=0)
    variants = {
        "torch fp32, 128 tokens": ("torch", base),
        "onnx fp32, 128 tokens": ("onnx", base),
        "onnx int8, 128 tokens": ("onnx-int8", base),
        "onnx int8, 256 tokens": ("onnx-int8", long),
        "onnx int8, 96 tokens": (
            "onnx-int8",
            RerankerOptions(max_length=96, query_max_tokens=48, batch_size=32, cache_size=0),
        ),
        "onnx int8, batch 8 sorted": ("onnx-int8", RerankerOptions(batch_size=8, cache_size=0)),
        "onnx int8, batch 8 unsorted": (
            "onnx-int8",
            RerankerOptions(batch_size=8, cache_size=0, length_sorted=False),
        ),
    }
    reference: list[list[float]] | None = None
    for name, (backend, options) in variants.items():
        reranker = CrossEncoderReranker(model_dir, backend=backend, options=options)  # type: ignore[arg-type]
        reranker.load()
        for q, texts in pairs[:5]:
            reranker.score(q, texts)
        times, scores = [], []
        for q, texts in pairs:
            t = time.perf_counter()
            scores.append(reranker.score(q, texts))
            times.append((time.perf_counter() - t) * 1000)
        reference = reference or scores
        # Agreement with fp32: mean absolute score difference and Spearman-like top-1 match.
        diff = statistics.fmean(
            float(np.mean(np.abs(np.asarray(a) - np.asarray(b))))
            for a, b in zip(scores, reference, strict=True)
        )
        top1 = statistics.fmean(
            float(np.argmax(a) == np.argmax(b)) for a, b in zip(scores, reference, strict=True)
        )
        n_pairs = sum(len(t) for _, t in pairs)
        print(
            json.dumps(
                {
                    "variant": name,
                    "depth": DEPTH,
                    **{k: v for k, v in percentiles(times).items() if k in ("p50", "p95")},
                    "pairs_per_s": round(n_pairs / (sum(times) / 1000), 1),
                    "mean_abs_diff_vs_torch_fp32": round(diff, 5),
                    "top1_agreement": round(top1, 3),
                }
            ),
            flush=True,
        )
    # The score cache: a repeated query at depth 30.
    cached = CrossEncoderReranker(model_dir, backend="onnx-int8")
    times = []
    for q, texts in pairs:
        cached.score(q, texts)
        t = time.perf_counter()
        cached.score(q, texts)
        times.append((time.perf_counter() - t) * 1000)
    print(json.dumps({"variant": "onnx int8, repeated query (cache)", **percentiles(times)}))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[sys.argv.index("--questions") + 1]))
