"""`bench eedi --shipped` for any version of the code, to bisect a drop (issue 59).

`tutorgraph bench eedi --shipped` lives in the research package of today's code; an older
commit has none. This script sends the same requests through only what every version has
(`open_retriever`, `RetrievalRequest`, the Eedi readers): each labelled (question, wrong
answer) pair of the file as `eedi_query_text`, with `n_results` 50, `max_context_tokens` 0
and a 60 s source timeout, once with the question's construct and once as text only; it
writes the same report (`items`, and MAP@25 and hit@10 per path), so `--baseline` pairs it.
Run it with the old code first on the path and the index of today's README:

    PYTHONPATH=<worktree at e2f8069>/src python research/scripts/probes/eedi_shipped_at.py \\
        --train ../shared/data/eedi/train.csv --index-dir .tutorgraph \\
        --out results/eedi_shipped_e2f8069.json

Run of 2026-12-07 (2-core Xeon, AVX-512 VNNI): e2f8069 over 3,486 pairs, with the construct
MAP@25 0.8629, hit@10 0.9997; text only 0.8670, 1.0000 (the bundled models saw these
questions: the level is inflated, a difference between versions is not).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
from pathlib import Path
from typing import Any

from tutorgraph import RetrievalRequest, Settings, open_retriever
from tutorgraph.ingest.eedi import (
    eedi_construct_id,
    eedi_misconception_id,
    eedi_query_text,
    read_eedi_questions,
)

PATHS = ("construct", "text")
K = 25


def _scores(ranking: list[str], target: str) -> dict[str, float]:
    rank = ranking.index(target) + 1 if target in ranking else 0
    return {
        f"map@{K}": 1.0 / rank if 0 < rank <= K else 0.0,
        "hit@10": float(0 < rank <= 10),
        "rank": float(rank),
    }


def _mean_ci(values: list[float]) -> tuple[float, list[float]]:
    rng = random.Random(0)
    means = sorted(
        sum(values[rng.randrange(len(values))] for _ in values) / len(values) for _ in range(1000)
    )
    return round(sum(values) / len(values), 4), [round(means[25], 6), round(means[974], 6)]


async def _run(train: Path, index_dir: Path) -> dict[str, Any]:
    pairs = [
        (q, letter, eedi_misconception_id(mid))
        for q in read_eedi_questions(train)
        for letter, mid in sorted(q.misconception_ids.items())
        if mid is not None and letter != q.correct_answer
    ]
    items: dict[str, dict[str, dict[str, float]]] = {}
    async with open_retriever(Settings(index_dir=index_dir, source_timeout_s=60)) as served:
        for n, (q, letter, target) in enumerate(pairs, start=1):
            scores = {}
            for path in PATHS:
                packet = await served.retriever.retrieve(
                    RetrievalRequest(
                        query=eedi_query_text(q, letter),
                        n_results=50,
                        concept_ids=[eedi_construct_id(q.construct_id)]
                        if path == "construct"
                        else [],
                        max_context_tokens=0,
                    )
                )
                ranking = [
                    target if target in h.ids else h.id
                    for h in packet.results
                    if h.kind == "misconception"
                ]
                scores[path] = _scores(ranking, target)
            items[f"{q.question_id}:{letter}"] = scores
            if n % 500 == 0:
                print(f"{n}/{len(pairs)}", flush=True)
    report: dict[str, Any] = {"items": items, "_meta": {"pairs": len(items)}}
    for path in PATHS:
        report[path] = {"n": len(items)}
        for metric in (f"map@{K}", "hit@10"):
            mean, ci = _mean_ci([s[path][metric] for s in items.values()])
            report[path][metric], report[path][f"{metric}_ci95"] = mean, ci
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=Path, required=True)
    parser.add_argument("--index-dir", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    report = asyncio.run(_run(args.train, args.index_dir))
    args.out.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n")
    print({p: report[p] for p in PATHS})


if __name__ == "__main__":
    main()
