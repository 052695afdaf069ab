"""The near-duplicate merge on the 110 routing queries: distinct content in the top 10.

Each query of tests/data/routing_queries.jsonl runs with the merge off (the packets as they
were) and at each threshold, on the README's index. For each packet: how many of its top 10
content hits (explanations, worked examples, exercises, questions) repeat a better one, a
repeat being a stored-vector cosine of at least 0.95 (near-verbatim) or 0.85 with it; the
ids the top 10 holds; and the merge stage's time (`timings_ms.merge`, which includes the
content-hash merge). Run after `tutorgraph ingest data/curriculum`:

    python research/scripts/near_duplicates.py --out results/near_duplicates.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from tutorgraph import RetrievalRequest, Settings
from tutorgraph.index.service import open_index
from tutorgraph.retrieval.factory import build_retriever, load_models
from tutorgraph.retrieval.near_duplicates import MERGEABLE_KINDS
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.stores.protocols import VectorStore
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_research.harness.provenance import git_commit, hardware

QUERIES = Path("tests/data/routing_queries.jsonl")
JUDGES = (0.95, 0.85)


async def _repeats(packet: ReasoningPacket, vector: VectorStore) -> dict[float, int]:
    hits = [h for h in packet.results if h.kind in MERGEABLE_KINDS]
    vectors = await vector.embeddings([h.id for h in hits])
    units = [v / np.linalg.norm(v) for h in hits if (v := vectors.get(h.id)) is not None]
    out = dict.fromkeys(JUDGES, 0)
    for i, v in enumerate(units):
        best = max((float(v @ u) for u in units[:i]), default=0.0)
        for judge in JUDGES:
            out[judge] += best >= judge
    return out


async def _run(queries: list[str], thresholds: list[float]) -> dict[str, Any]:
    settings = Settings()
    models = await asyncio.to_thread(load_models, settings)
    index = await asyncio.to_thread(open_index, settings)
    setup = RetrieverConfig.from_settings(settings)
    runs: dict[str, Any] = {}
    examples: list[dict[str, Any]] = []
    try:
        for name, threshold in [("off", None), *((str(t), t) for t in thresholds)]:
            # None: the index's threshold (the README's index has none: the merge is off).
            retriever = build_retriever(
                index, models, replace(setup, near_duplicate_threshold=threshold)
            )
            repeats = {j: 0 for j in JUDGES}
            ids, merge_ms, merged = 0, [], 0
            for q in queries:
                packet = await retriever.retrieve(RetrievalRequest(query=q, debug=True))
                for judge, n in (await _repeats(packet, index.vector)).items():
                    repeats[judge] += n
                ids += sum(len(h.ids) for h in packet.results)
                merge_ms.append(packet.timings_ms["merge"])
                merged += (packet.debug or {})["near_duplicates"]["merged"]
                if threshold == thresholds[0] and len(examples) < 5:
                    examples += [
                        {"query": q, "kept": h.id, "text": h.text[:160], **d.model_dump()}
                        for h in packet.results
                        if h.corroborated_by
                        for d in h.corroborated_by.near_duplicates[:1]
                    ][:1]
            n = len(queries)
            cuts = statistics.quantiles(merge_ms, n=20)
            runs[name] = {
                "threshold": threshold,
                "queries": n,
                **{f"repeats_per_top10@{j}": round(repeats[j] / n, 3) for j in JUDGES},
                "ids_per_top10": round(ids / n, 2),
                "merged_per_query": round(merged / n, 3),
                "merge_ms_p50": round(statistics.median(merge_ms), 3),
                "merge_ms_p95": round(cuts[18], 3),
            }
            await retriever.aclose()
    finally:
        await index.aclose()
    return {"runs": runs, "examples": examples}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--thresholds", default="0.85,0.9,0.95,0.8")
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args()
    thresholds = [float(t) for t in args.thresholds.split(",")]
    queries = [json.loads(line)["query"] for line in QUERIES.open(encoding="utf-8")]
    report = asyncio.run(_run(queries, thresholds))
    report["_meta"] = {
        "command": "research/scripts/near_duplicates.py",
        "judges": list(JUDGES),
        "hardware": hardware(),
        "git_commit": git_commit(),
    }
    text = json.dumps(report, indent=2, sort_keys=True)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
