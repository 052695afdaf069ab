"""What a dialogue costs a request (issue 63's budget: a 10-turn dialogue at most 10 ms more
p50 than one message).

    python research/scripts/dialogue_latency.py --index-dir .tutorgraph [--n 200] [--out F]

Every student turn of `data/benchmarks/dialogues.jsonl` (each text once, so no cache answers
a repeat) is sent alone and after the same 10-turn dialogue (a multiplication session with
a wrong answer, a hint and chit-chat), the two in alternating order, on one warm retriever;
prints the p50 / p95 of each and of the paired difference (ms), and writes them as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from pathlib import Path

from tutorgraph import RetrievalRequest, Settings, open_retriever
from tutorgraph_client.models.conversation import Turn

ROOT = Path(__file__).resolve().parents[2]
WARMUP = 10
TEN = [
    Turn(role=role, text=text)
    for role, text in (
        ("tutor", "Hi! Ready to practise multiplication?"),
        ("student", "ok"),
        ("tutor", "What is 6 x 4?"),
        ("student", "24"),
        ("tutor", "Great! What is 7 x 6?"),
        ("student", "48?"),
        ("tutor", "Not quite. 7 x 5 = 35, so add one more 7."),
        ("student", "oh"),
        ("tutor", "So what is 7 x 6?"),
        ("student", "hmm brb"),
    )
]


def _turns(path: Path) -> list[str]:
    seen: dict[str, None] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        for turn in json.loads(line)["turns"]:
            if turn["role"] == "student":
                seen.setdefault(turn["text"], None)
    return list(seen)


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


async def measure(index_dir: Path, n: int) -> dict[str, object]:
    """The report (see the module's docstring)."""
    texts = _turns(ROOT / "data/benchmarks/dialogues.jsonl")[: n + WARMUP]
    alone: list[float] = []
    after: list[float] = []
    async with open_retriever(Settings(index_dir=index_dir)) as served:
        retriever = served.retriever

        async def timed(request: RetrievalRequest) -> float:
            start = time.perf_counter()
            await retriever.retrieve(request)
            return (time.perf_counter() - start) * 1000

        for k, text in enumerate(texts):
            plain = RetrievalRequest(query=text)
            dialogue = RetrievalRequest(query=text, conversation=TEN)
            first, second = (plain, dialogue) if k % 2 == 0 else (dialogue, plain)
            t1, t2 = await timed(first), await timed(second)
            if k < WARMUP:
                continue
            a, d = (t1, t2) if first is plain else (t2, t1)
            alone.append(a)
            after.append(d)
    diff = [d - a for a, d in zip(alone, after, strict=True)]
    return {
        "n": len(alone),
        "alone_ms": {"p50": _p(alone, 0.5), "p95": _p(alone, 0.95)},
        "ten_turns_ms": {"p50": _p(after, 0.5), "p95": _p(after, 0.95)},
        "difference_ms": {
            "p50_of_pairs": round(statistics.median(diff), 2),
            "p50_after_minus_p50_alone": round(_p(after, 0.5) - _p(alone, 0.5), 2),
        },
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", type=Path, default=ROOT / ".tutorgraph")
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    report = json.dumps(asyncio.run(measure(args.index_dir, args.n)), indent=1)
    print(report)
    if args.out is not None:
        args.out.write_text(report + "\n", encoding="utf-8")
