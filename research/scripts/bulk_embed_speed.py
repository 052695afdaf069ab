"""Bulk embedding (what `ingest` and `embed-bundle` do): MiniLM through PyTorch against ONNX
Runtime at several batch sizes and thread counts, over texts of the bundle in ingest order.

A benchmark, not a test: it prints texts/s per setting, and how far each ONNX setting's
vectors are from PyTorch's once both are rounded to float16 as the index stores them.

    .venv/bin/python research/scripts/bulk_embed_speed.py --n 2048 \\
        --out results/bulk_embed_speed.json
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

from tutorgraph.config import DEFAULT_EMBEDDING_MODEL
from tutorgraph.embedding.embedder import Embedder, SentenceTransformerEmbedder
from tutorgraph.embedding.onnx_embedder import OnnxEmbedder
from tutorgraph.embedding.stored_vectors import as_stored
from tutorgraph.ingest.bundle import read_bundle
from tutorgraph.stores.items import items_from_records
from tutorgraph_research.harness.provenance import git_commit, hardware

BATCH = 256  # the ingest's batch of texts per embed call


def _run(embedder: Embedder, texts: list[str]) -> tuple[float, np.ndarray]:
    started = time.perf_counter()
    parts = [embedder.embed(texts[i : i + BATCH]) for i in range(0, len(texts), BATCH)]
    return time.perf_counter() - started, np.concatenate(parts)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bundle", type=Path, default=Path("data/curriculum"))
    p.add_argument("--n", type=int, default=2048, help="texts, sampled with a fixed seed")
    p.add_argument("--batches", default="16,32,64,128")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args()
    items = items_from_records(read_bundle(args.bundle))
    sample = random.Random(0).sample(items, min(args.n, len(items)))
    texts = [it.search_text for it in sorted(sample, key=lambda it: (len(it.search_text), it.id))]

    torch_emb = SentenceTransformerEmbedder(DEFAULT_EMBEDDING_MODEL)
    torch_emb.load()
    torch_emb.embed(texts[:64])  # warm
    seconds, reference = _run(torch_emb, texts)
    ref16 = as_stored(reference)
    report: dict[str, Any] = {
        "n": len(texts),
        "mean_chars": round(float(np.mean([len(t) for t in texts])), 1),
        "torch": {
            "batch": 64,
            "seconds": round(seconds, 2),
            "texts_per_s": round(len(texts) / seconds, 1),
        },
        "onnx": [],
    }
    print(f"torch batch 64: {len(texts) / seconds:.1f} texts/s")
    for threads in (int(t) for t in args.threads.split(",")):
        for batch in (int(b) for b in args.batches.split(",")):
            emb = OnnxEmbedder(DEFAULT_EMBEDDING_MODEL, batch_size=batch, threads=threads)
            emb.load()
            emb.embed(texts[:64])
            seconds, vectors = _run(emb, texts)
            v16 = as_stored(vectors)
            row = {
                "threads": threads,
                "batch": batch,
                "seconds": round(seconds, 2),
                "texts_per_s": round(len(texts) / seconds, 1),
                "min_cosine_vs_torch": round(float((reference * vectors).sum(axis=1).min()), 7),
                "float16_rows_identical": int((v16 == ref16).all(axis=1).sum()),
                "float16_max_abs_diff": float(np.abs(v16 - ref16).max()),
            }
            report["onnx"].append(row)
            print(row)
    report["hardware"] = hardware()
    report["git_commit"] = git_commit()
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
