"""Which of the linker's concepts should seed the graph search (issue 47 item 4)?

Runs the whole-packet benchmark's development messages (never the held-out ones) through one
retriever under several seeding variants (`retrieval/stages/search.py`: `LINKED_SEEDS`, the
concepts per taxonomy, and `LINKED_SEED_WEIGHT`) and prints each variant's mean parts, and
its paired difference from the first variant.

    python research/scripts/probes/graph_seeds.py --index-dir /tmp/t47/idx
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import numpy as np

from tutorgraph.cli.plugin import load_settings
from tutorgraph.index.service import open_retriever
from tutorgraph.retrieval import graph_search as search
from tutorgraph_research.harness.results import bootstrap_ci
from tutorgraph_research.tasks.packet_messages import load_packet_messages
from tutorgraph_research.tasks.tutoring import run_tutoring_benchmark

PARTS = ("misconception@10", "teach@10", "balanced", "packet")
# name -> (seeds per taxonomy, weight)
VARIANTS: dict[str, tuple[dict[str, int], float]] = {
    "none": ({}, 0.5),
    "eedi1": ({"eedi": 1}, 0.5),
    "eedi3": ({"eedi": 3}, 0.5),
    "eedi5": ({"eedi": 5}, 0.5),
    "eedi10": ({"eedi": 10}, 0.5),
    "eedi3+cc1+os1": ({"eedi": 3, "common-core": 1, "openstax": 1}, 0.5),
    "eedi3+cc3+os3": ({"eedi": 3, "common-core": 3, "openstax": 3}, 0.5),
    "eedi5+cc1+os1": ({"eedi": 5, "common-core": 1, "openstax": 1}, 0.5),
    "eedi3 w0.25": ({"eedi": 3}, 0.25),
    "eedi3 w1": ({"eedi": 3}, 1.0),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", type=Path, required=True)
    parser.add_argument(
        "--messages", type=Path, default=Path("data/benchmarks/packet_messages.jsonl")
    )
    parser.add_argument("--only", nargs="*", help="variant names to run")
    args = parser.parse_args()
    messages = [m for m in load_packet_messages(args.messages) if m.split == "dev"]
    served = open_retriever(load_settings(args.index_dir))
    names = args.only or list(VARIANTS)

    async def run() -> dict[str, dict[str, dict[str, float]]]:
        out: dict[str, dict[str, dict[str, float]]] = {}
        try:
            for name in names:
                search.LINKED_SEEDS, search.LINKED_SEED_WEIGHT = VARIANTS[name]
                scores, _ = await run_tutoring_benchmark(served.retriever, messages)
                out[name] = {s.id: s.parts for s in scores}
        finally:
            await served.aclose()
        return out

    results = asyncio.run(run())
    base = results[names[0]]
    for name in names:
        row = [name.ljust(16)]
        for part in PARTS:
            ids = [i for i, p in results[name].items() if part in p]
            mean = np.mean([results[name][i][part] for i in ids])
            diff = [results[name][i][part] - base[i][part] for i in ids if part in base[i]]
            lo, hi = bootstrap_ci(diff, resamples=1000, seed=0)
            row.append(f"{part} {mean:.3f} ({np.mean(diff):+.3f} [{lo:+.3f}, {hi:+.3f}])")
        print("  ".join(row), flush=True)


if __name__ == "__main__":
    main()
