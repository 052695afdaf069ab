"""Dump the packets of the routing queries, without timings, to check a refactor changes none.

Each routing query (tests/data/routing_queries*.jsonl) runs three ways: as is, with the
refiner's debug on, and with a problem and wrong answer for the diagnosis. Run it on the
index of the README (`tutorgraph ingest data/curriculum`) before and after a change, then
compare the two files:

    python scripts/packet_identity.py --out /tmp/before.json
    python scripts/packet_identity.py --out /tmp/after.json && cmp /tmp/before.json /tmp/after.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from tutorgraph import RetrievalRequest, Settings, open_retriever

QUERIES = [
    Path("tests/data/routing_queries.jsonl"),
    Path("tests/data/routing_queries_holdout.jsonl"),
]
# Problems and wrong answers the bug rules read (from tests/data/eedi/diagnosis_questions.csv).
DIAGNOSED = [("2/3 + 1/4", "3/7"), ("10 - 4 / 2", "3"), ("0.6 * 0.2", "1.2")]


def _requests() -> list[RetrievalRequest]:
    queries = [json.loads(line)["query"] for path in QUERIES for line in path.open()]
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


async def _run(out: Path) -> None:
    async with open_retriever(Settings()) as served:
        packets = [
            _stable((await served.retriever.retrieve(r)).model_dump(mode="json"))
            for r in _requests()
        ]
    out.write_text(json.dumps(packets, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"{len(packets)} packets -> {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    asyncio.run(_run(parser.parse_args().out))


if __name__ == "__main__":
    main()
