"""PyTorch against ONNX Runtime embeddings on the Eedi task, 5-fold CV, paired.

Each fold's index is built, and each query embedded, once with the PyTorch MiniLM and once
with the ONNX one (the default since issue 19); both store float16 vectors, as every ingest
does. First-stage configurations only (no per-fold ranker training), so the difference is
the embedder's alone. The paired difference (ONNX - PyTorch) per configuration, with a 95%
bootstrap interval over the pairs.

    .venv/bin/python research/scripts/embedder_cv.py --train ../shared/data/eedi/train.csv \\
        --misconceptions ../shared/data/eedi/misconception_mapping.csv \\
        --out results/embedder_cv.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from pathlib import Path

from tutorgraph.cli.plugin import default_subjects
from tutorgraph.config import Settings
from tutorgraph.retrieval.factory import make_embedder
from tutorgraph_research.harness.provenance import git_commit, hardware
from tutorgraph_research.harness.results import paired_by_config
from tutorgraph_research.tasks.eedi import EediMisconceptionTask, K
from tutorgraph_research.tasks.eedi_bench import item_maps

CONFIGS = ("hybrid/construct", "hybrid/text", "vector/construct", "vector/text")


async def _scores(args: argparse.Namespace, backend: str) -> dict[tuple[str, str], float]:
    task = EediMisconceptionTask(
        args.train,
        args.misconceptions,
        default_subjects(args.misconceptions),
        folds=args.folds,
        limit=args.limit,
    )
    return await item_maps(task, CONFIGS, make_embedder(Settings(embedder_backend=backend)))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--train", type=Path, required=True)
    p.add_argument("--misconceptions", type=Path, required=True)
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--limit", type=int, default=None)
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args()
    started = time.perf_counter()
    torch_ap = asyncio.run(_scores(args, "torch"))
    onnx_ap = asyncio.run(_scores(args, "onnx"))
    report: dict[str, object] = dict(
        paired_by_config(torch_ap, onnx_ap, CONFIGS, (f"torch_map@{K}", f"onnx_map@{K}"))
    )
    report["_meta"] = {
        "command": "research/scripts/embedder_cv.py",
        "folds": args.folds,
        "fold_rule": f"int(QuestionId) % {args.folds}",
        "limit": args.limit,
        "seconds": round(time.perf_counter() - started, 1),
        "hardware": hardware(),
        "git_commit": git_commit(),
    }
    text = json.dumps(report, indent=2, sort_keys=True)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
