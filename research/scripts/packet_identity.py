"""Dump packets without their timings, to check that a refactor changes none.

Each routing query (tests/data/routing_queries*.jsonl) and each message of the tutoring
benchmark (data/benchmarks/tutoring_messages.jsonl) runs as is, the first ten with debug on,
three with a problem and wrong answer for the diagnosis, and an even spread of the index's
Eedi questions is sent with their construct (`concept_ids`), so the learned ranker runs.
Run it on the index of the README (`tutorgraph ingest data/curriculum`) before and after a
change, then compare the two files:

    python research/scripts/packet_identity.py --out /tmp/before.json
    python research/scripts/packet_identity.py --out /tmp/after.json
    cmp /tmp/before.json /tmp/after.json

With `--concurrency 8` the requests are answered eight at a time (a loaded run): the packets
must not change (issue 59: the same request gives the same packet whatever the load, the
hash seed or the process).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from tutorgraph import RetrievalRequest, Settings, open_retriever
from tutorgraph.index.layout import IndexLayout, load_catalogue

QUERIES = [
    Path("tests/data/routing_queries.jsonl"),
    Path("tests/data/routing_queries_holdout.jsonl"),
]
# Problems and wrong answers the bug rules read (from tests/data/eedi/diagnosis_questions.csv).
TUTORING = Path("data/benchmarks/tutoring_messages.jsonl")
DIAGNOSED = [("2/3 + 1/4", "3/7"), ("10 - 4 / 2", "3"), ("0.6 * 0.2", "1.2")]


def _eedi_requests(index_dir: Path, n: int) -> list[RetrievalRequest]:
    """An even spread of `n` of the index's Eedi questions, each with its construct."""
    docs = [
        d
        for d in load_catalogue(IndexLayout.live(index_dir)).documents
        if d.id.startswith("eedi:question:") and d.concept_ids
    ]
    step = max(len(docs) / n, 1.0) if docs else 1.0
    picked = [docs[int(i * step)] for i in range(min(n, len(docs)))]
    return [RetrievalRequest(query=d.text, concept_ids=list(d.concept_ids)) for d in picked]


def _requests() -> list[RetrievalRequest]:
    queries = [json.loads(line)["query"] for path in QUERIES for line in path.open()]
    queries += [json.loads(line)["text"] for line in TUTORING.open()]
    out = [RetrievalRequest(query=q) for q in queries]
    out += [RetrievalRequest(query=q, debug=True) for q in queries[:10]]
    out += [
        RetrievalRequest(query=f"I got {answer}", problem=problem, student_answer=answer)
        for problem, answer in DIAGNOSED
    ]
    return out


def _stable(packet: dict[str, Any]) -> dict[str, Any]:
    packet.pop("timings_ms")
    debug = packet.get("debug") or {}
    for key in [k for k in debug if "ms" in k or "time" in k]:
        debug.pop(key)
    return packet


async def _packets(settings: Settings, eedi: int, concurrency: int) -> list[dict[str, Any]]:
    requests = _requests() + _eedi_requests(settings.index_dir, eedi)
    gate = asyncio.Semaphore(concurrency)
    async with open_retriever(settings) as served:

        async def one(request: RetrievalRequest) -> dict[str, Any]:
            async with gate:
                packet = await served.retriever.retrieve(request)
            return _stable(packet.model_dump(mode="json"))

        return list(await asyncio.gather(*(one(r) for r in requests)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--index-dir", type=Path, default=None, help="default: the settings'")
    parser.add_argument("--eedi", type=int, default=200, help="Eedi questions with construct")
    parser.add_argument(
        "--concurrency", type=int, default=1, help="requests in flight at once (a loaded run)"
    )
    args = parser.parse_args()
    settings = Settings(index_dir=args.index_dir) if args.index_dir else Settings()
    packets = asyncio.run(_packets(settings, args.eedi, args.concurrency))
    text = json.dumps(packets, indent=1, sort_keys=True, ensure_ascii=False)
    args.out.write_text(text + "\n")
    print(f"{len(packets)} packets -> {args.out}")


if __name__ == "__main__":
    main()
