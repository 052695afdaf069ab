"""Issue 59 item 5.3: what the largest allowed request costs. Twenty `local_context`
documents of 2,000 characters each (the request limit) against the same query without them,
through the server's wiring (`SharedModels(micro_batch=True)`, warm models, the shipped
`SOURCE_TIMEOUT_S`), one request at a time. Each request's CPU is the process's CPU from its
start to the next one's, after a pause, so work that goes on after a source's timeout is
counted; wall time is the request's own. Prints p50/p95 of both, how often `local` was
degraded, found its lesson and ranked some documents by their words only (its embedding
deadline passed), and the machine. The query repeats, so its own embedding and searches
come from the caches in both variants: the difference is the local context's.

    python research/scripts/probes/local_context_cost.py --index-dir /tmp/idx [--n 20]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import time
from pathlib import Path

import numpy as np

from tutorgraph.cli.plugin import load_settings
from tutorgraph.index.service import SharedModels
from tutorgraph_client.models.request import MAX_LOCAL_CHARS, MAX_LOCAL_DOCUMENTS, RetrievalRequest

QUERY = "why is 3/4 bigger than 2/3?"
LESSON = (
    "To compare 3/4 and 2/3, rewrite both over the common denominator 12: 9/12 and 8/12. "
    "Since 9 twelfths are more than 8 twelfths, 3/4 is bigger. "
)
OTHERS = [
    "The perimeter of a rectangle is twice its length plus twice its width. ",
    "A right angle measures 90 degrees; an acute angle measures less than that. ",
    "To round 347 to the nearest hundred, look at the tens digit: 4 rounds down to 300. ",
    "The mean of a data set is the sum of its values divided by how many there are. ",
]


def page(i: int, sentence: str) -> dict[str, str]:
    text = (sentence * (MAX_LOCAL_CHARS // len(sentence) + 1))[:MAX_LOCAL_CHARS]
    return {"id": f"page-{i}", "title": f"Lesson page {i}", "text": text}


def pages() -> list[dict[str, str]]:
    rest = [page(i, OTHERS[i % len(OTHERS)]) for i in range(1, MAX_LOCAL_DOCUMENTS)]
    return [page(0, LESSON), *rest]


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", type=Path, required=True)
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--pause", type=float, default=2.0, help="seconds between requests")
    args = parser.parse_args()
    settings = load_settings(args.index_dir)
    served = SharedModels(micro_batch=True).open_retriever(settings)
    retriever = served.retriever
    load = os.getloadavg()[0]
    print(
        f"machine: {cpu_model()}, {os.cpu_count()} cores, load average {load:.1f} at the start; "
        f"SOURCE_TIMEOUT_S {settings.source_timeout_s:g}"
    )

    async def one(request: RetrievalRequest) -> tuple[float, float, bool, bool, float, bool]:
        cpu, wall = time.process_time(), time.perf_counter()
        packet = await retriever.retrieve(request)
        took = time.perf_counter() - wall
        await asyncio.sleep(args.pause)  # what runs on after the request is counted too
        ids = [h.id for h in packet.results]
        return (
            time.process_time() - cpu,
            took,
            "local" in packet.degraded_sources,
            "local:page-0" in ids,
            packet.timings_ms.get("local", 0.0),
            # Some documents ranked by their words only (the embedding's deadline passed).
            "local" in packet.degraded_stages,
        )

    async def run() -> None:
        with_local = RetrievalRequest(query=QUERY, local_context=pages(), debug=True)
        without = RetrievalRequest(query=QUERY, debug=True)
        for request in (with_local, without, with_local, without):  # warm-up
            await one(request)
        for name, request in (("20 x 2,000-char local_context", with_local), ("none", without)):
            rows = [await one(request) for _ in range(args.n)]
            cpu = np.array([r[0] for r in rows]) * 1000
            wall = np.array([r[1] for r in rows]) * 1000
            local_ms = np.array([r[4] for r in rows])
            print(
                f"{name}: n={len(rows)} CPU p50 {np.median(cpu):.0f} ms p95 "
                f"{np.percentile(cpu, 95):.0f} | wall p50 {np.median(wall):.0f} ms p95 "
                f"{np.percentile(wall, 95):.0f} | local degraded {sum(r[2] for r in rows)}/"
                f"{len(rows)}, lesson found {sum(r[3] for r in rows)}/{len(rows)}, local "
                f"p50 {np.median(local_ms):.0f} ms p95 {np.percentile(local_ms, 95):.0f}, "
                f"partly by words only {sum(r[5] for r in rows)}/{len(rows)}"
            )
        await served.aclose()

    asyncio.run(run())


if __name__ == "__main__":
    main()
