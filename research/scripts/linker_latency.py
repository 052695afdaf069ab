"""How much the standards model adds to the link stage's own work (issue 48).

    python research/scripts/linker_latency.py --index-dir IDX [--rounds 3]

Links every tutoring message and hand-written word problem with the index's linker alone and
with the bundled standards model fused in, alternating per message and round, with warm
models and the query vectors embedded beforehand (the link stage reuses the search's
vector). Prints p50 / p95 of each and of the paired difference, in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

import numpy as np

from tutorgraph.config import Settings
from tutorgraph.index.local import LocalIndex
from tutorgraph.linking.linker import ConceptLinker
from tutorgraph.linking.standards_model import StandardModel
from tutorgraph.retrieval.factory import bundled_standards_path, make_embedder
from tutorgraph.retrieval.facts import request_facts
from tutorgraph_client.models.request import RetrievalRequest

ROOT = Path(__file__).resolve().parents[2]


def main(index_dir: Path, rounds: int) -> None:
    settings = Settings(index_dir=index_dir)
    index = LocalIndex.load(index_dir, embedder=settings.embedding_model)
    assert isinstance(index.linker, ConceptLinker), "the index has no linker"
    plain = index.linker
    fused = plain.with_model(StandardModel.load(bundled_standards_path()))
    texts = [
        json.loads(line)["text"]
        for name in ("tutoring_messages.jsonl", "word_problems.jsonl")
        for line in (ROOT / "data/benchmarks" / name).read_text(encoding="utf-8").splitlines()
    ]
    embedder = make_embedder(settings)
    embedder.load()
    vectors = embedder.embed(texts)
    tags = []
    for t in texts:
        story = request_facts(RetrievalRequest(query=t), None).story
        tags.append(story.tags() if story is not None else frozenset())
    for t, v, g in zip(texts[:20], vectors, tags, strict=False):  # warm up
        plain.link(t, 10, v)
        fused.link(t, 10, v, tags=g)
    times: dict[str, list[float]] = {"plain": [], "model": []}
    for r in range(rounds):
        for i, (t, v, g) in enumerate(zip(texts, vectors, tags, strict=True)):
            order = ("plain", "model") if (i + r) % 2 == 0 else ("model", "plain")
            for name in order:
                started = time.perf_counter()
                if name == "plain":
                    plain.link(t, 10, v)
                else:
                    fused.link(t, 10, v, tags=g)
                    fused.infer_band(t, v, g)
                times[name].append((time.perf_counter() - started) * 1000)
    diff = np.array(times["model"]) - np.array(times["plain"])
    report: dict[str, object] = {
        name: {
            "p50": round(float(np.percentile(v, 50)), 3),
            "p95": round(float(np.percentile(v, 95)), 3),
        }
        for name, v in times.items()
    }
    report["added"] = {
        "p50": round(float(np.percentile(diff, 50)), 3),
        "p95": round(float(np.percentile(diff, 95)), 3),
    }
    report["_meta"] = {
        "messages": len(texts),
        "rounds": rounds,
        "machine": platform.processor() or platform.machine(),
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    main(args.index_dir, args.rounds)
