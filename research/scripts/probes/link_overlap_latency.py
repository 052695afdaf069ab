"""Issue 47 item 4: does running the link stage before the search (a task overlapping the
dense and lexical searches) cost latency? In one process, alternating per query, the shipped
stage order against the same code with the link stage run and awaited after the search (the
old order, emulated), over Eedi question texts.

    python research/scripts/probes/link_overlap_latency.py --index-dir /tmp/t47/idx [--construct]
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import time
from pathlib import Path

import numpy as np

from tutorgraph.cli.plugin import load_settings
from tutorgraph.index.service import open_retriever
from tutorgraph.retrieval.packet import build_packet
from tutorgraph.retrieval.pipeline import Stage, run_stages
from tutorgraph.retrieval.stages import LinkStage
from tutorgraph.retrieval.state import RequestState
from tutorgraph_client.models.request import RetrievalRequest


class LinkAfter(LinkStage):
    """The link stage as it ran before issue 47: after the search, awaited."""

    async def run(self, state: RequestState) -> bool:
        await super().run(state)
        assert state.linking is not None
        state.linked = (await state.linking).concepts
        return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", type=Path, required=True)
    parser.add_argument("--questions", type=Path, default=Path("../shared/data/eedi/train.csv"))
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--construct", action="store_true")
    args = parser.parse_args()
    with args.questions.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))[: args.n]
    served = open_retriever(load_settings(args.index_dir))
    new = served.retriever.stages
    link = next(s for s in new if isinstance(s, LinkStage))
    old: list[Stage] = [s for s in new if s is not link]
    after = LinkAfter(link._graph, link._linker, timeout_s=link._timeout_s)
    old.insert([s.name for s in old].index("search") + 1, after)

    async def one(stages: list[Stage], row: dict[str, str]) -> float:
        ids = [f"eedi:construct:{row['ConstructId']}"] if args.construct else []
        request = RetrievalRequest(query=row["QuestionText"][:2000], concept_ids=ids)
        started = time.perf_counter()
        build_packet(await run_stages(stages, RequestState(request)))
        return (time.perf_counter() - started) * 1000

    async def run() -> None:
        for row in rows[:10]:  # warm-up
            await one(new, row)
            await one(old, row)
        a, b = [], []
        for k, row in enumerate(rows):
            order = [(a, new), (b, old)] if k % 2 else [(b, old), (a, new)]
            for out, stages in order:
                out.append(await one(stages, row))
        await served.aclose()
        x, y = np.array(a), np.array(b)
        d = x - y
        print(
            f"construct={args.construct} n={len(x)}"
            f" shipped p50 {np.median(x):.1f} p95 {np.percentile(x, 95):.1f}"
            f" | link after search p50 {np.median(y):.1f} p95 {np.percentile(y, 95):.1f}"
            f" | paired difference median {np.median(d):+.2f} ms, mean {d.mean():+.2f}"
        )

    asyncio.run(run())


if __name__ == "__main__":
    main()
