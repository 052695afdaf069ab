"""The shipped defaults before and after issue 19 on the same Eedi pairs, paired.

Before: the bundle indexed with PyTorch vectors (float32), PyTorch query embeddings. After:
the bundle's stored float16 vectors, ONNX query embeddings (the new defaults). For N Eedi
development questions (one labelled wrong answer each), with the construct as context and
from the text alone, the labelled misconception's AP@25 in each packet, and the paired
difference with a 95% bootstrap interval. These questions are in the bundle, so this
checks that the change moves nothing; it is not a held-out score.

    .venv/bin/python research/scripts/default_change_check.py --before-index /tmp/old_index \\
        --after-index .tutorgraph --questions ../shared/data/eedi/train.csv \\
        --out results/default_change_check.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
from pathlib import Path
from typing import Any

from tutorgraph.config import Settings
from tutorgraph.index.service import open_retriever
from tutorgraph.ingest.eedi import eedi_construct_id, read_eedi_questions
from tutorgraph.ranking.metrics import average_precision_at_k
from tutorgraph_client.models.request import RetrievalRequest
from tutorgraph_research.harness.provenance import git_commit, hardware
from tutorgraph_research.harness.results import bootstrap_ci
from tutorgraph_research.tasks.eedi import eedi_pairs, misconception_ranking


async def _aps(
    settings: Settings, requests: list[RetrievalRequest], targets: list[str]
) -> list[float]:
    served = await asyncio.to_thread(open_retriever, settings)
    async with served:
        out = []
        for request, target in zip(requests, targets, strict=True):
            packet = await served.retriever.retrieve(request)
            out.append(average_precision_at_k(misconception_ranking(packet, target), {target}, 25))
        return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--before-index", type=Path, required=True)
    p.add_argument("--after-index", type=Path, default=Path(".tutorgraph"))
    p.add_argument("--questions", type=Path, required=True)
    p.add_argument("--n", type=int, default=500)
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args()
    firsts: dict[int, Any] = {}
    for pair in eedi_pairs(read_eedi_questions(args.questions)):
        firsts.setdefault(pair.question.question_id, pair)
    chosen = list(firsts.values())[: args.n]
    targets = [c.target for c in chosen]
    settings = {
        "before": Settings(index_dir=args.before_index, embedder_backend="torch"),
        "after": Settings(index_dir=args.after_index, embedder_backend="onnx"),
    }
    report: dict[str, Any] = {"n": len(chosen)}
    for name, context in (("construct", True), ("text", False)):
        requests = [
            RetrievalRequest(
                query=c.query,
                concept_ids=[eedi_construct_id(c.question.construct_id)] if context else [],
            )
            for c in chosen
        ]
        aps = {k: asyncio.run(_aps(s, requests, targets)) for k, s in settings.items()}
        diff = [a - b for a, b in zip(aps["after"], aps["before"], strict=True)]
        report[name] = {
            "map@25_before": round(statistics.fmean(aps["before"]), 4),
            "map@25_after": round(statistics.fmean(aps["after"]), 4),
            "paired_diff": round(statistics.fmean(diff), 4),
            "paired_diff_ci95": [round(x, 4) for x in bootstrap_ci(diff)],
            "pairs_changed": sum(1 for d in diff if d != 0),
        }
        print(name, report[name], flush=True)
    report["hardware"] = hardware()
    report["git_commit"] = git_commit()
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
