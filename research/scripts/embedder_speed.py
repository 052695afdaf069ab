"""Query-embedding speed: MiniLM through PyTorch against the same model through ONNX Runtime.

A benchmark, not a test. The two runtimes take turns on each batch, so both see the same
machine load; it reports p50/p95 per batch size, and the smallest cosine between their
vectors (the ONNX path must give the same vectors).

    .venv/bin/python research/scripts/embedder_speed.py --questions ../shared/data/eedi/train.csv \\
        --out results/onnx_embedder.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from tutorgraph.config import DEFAULT_EMBEDDING_MODEL
from tutorgraph.embedding.embedder import SentenceTransformerEmbedder
from tutorgraph.embedding.onnx_embedder import OnnxEmbedder
from tutorgraph.ingest.eedi import eedi_query_text, read_eedi_questions
from tutorgraph_research.harness.provenance import hardware
from tutorgraph_research.tasks.latency import percentiles


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--questions", type=Path, required=True, help="Eedi train.csv (the queries)")
    p.add_argument("--n", type=int, default=240, help="queries")
    p.add_argument("--batches", default="1,8,32", help="batch sizes")
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args()
    queries = [
        eedi_query_text(q, letter)
        for q in read_eedi_questions(args.questions)
        for letter in sorted(q.answers)
        if letter != q.correct_answer
    ][: args.n]
    torch_emb = SentenceTransformerEmbedder(DEFAULT_EMBEDDING_MODEL)
    onnx_emb = OnnxEmbedder(DEFAULT_EMBEDDING_MODEL)
    torch_emb.load()
    onnx_emb.load()
    for emb in (torch_emb, onnx_emb):  # warm-up
        emb.embed(queries[:8])
    report: dict[str, object] = {
        "model": DEFAULT_EMBEDDING_MODEL,
        "n_queries": len(queries),
        "hardware": hardware(),
    }
    cosines: list[float] = []
    for size in (int(b) for b in args.batches.split(",")):
        times: dict[str, list[float]] = {"torch": [], "onnx": []}
        for start in range(0, len(queries), size):
            batch = queries[start : start + size]
            out = {}
            for name, emb in (("torch", torch_emb), ("onnx", onnx_emb)):
                t = time.perf_counter()
                out[name] = emb.embed(batch)
                times[name].append((time.perf_counter() - t) * 1000)
            cosines.extend((out["torch"] * out["onnx"]).sum(axis=1).tolist())
        row = {name: percentiles(v) for name, v in times.items()}
        row["speedup_p50"] = round(row["torch"]["p50"] / row["onnx"]["p50"], 2)
        report[f"batch_{size}"] = row
        print(
            f"batch {size:>3}: torch p50 {row['torch']['p50']} ms, onnx p50 "
            f"{row['onnx']['p50']} ms, x{row['speedup_p50']}"
        )
    report["min_cosine"] = round(float(np.min(cosines)), 7)
    print(f"smallest cosine between the two runtimes' vectors: {report['min_cosine']}")
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
