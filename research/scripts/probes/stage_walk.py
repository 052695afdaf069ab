"""How far one request travels through the code of the route and rank stages (issue 60).

"Steps": the distinct functions of `src/tutorgraph` entered while a stage's `run` is on the
call stack (its own coroutine and everything it calls on the event loop; work it hands to a
worker thread counts as the one `to_thread` call that hands it). "Climbs": how many of those
steps leave the stage's module for another package of `tutorgraph` (a call into `ranking/`,
`refinement/`, `stores/` ...). Also counts how often `retrieval/facts.py`'s `request_facts`
is entered per request, on every thread (a counting wrapper in each module that imports it).

Run on the README's index (two requests: a message that states an answer, and an Eedi
worksheet with its construct):

    python research/scripts/probes/stage_walk.py --index-dir .tutorgraph

Run of 2026-12-07 (`results/stage_walk_60.json`), c3ca521 (the issue's start) -> issue 60:
a message that states its answer, route 17 steps (7 climbs) -> 7 (0), rank 13 (6) -> 14 (7:
the learned pass moved to its own module, a step more); the worksheet with its construct,
route 8 (1) -> 8 (1), rank 13 -> 14; `request_facts` entered 3 and 2 times a request -> once.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import threading
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

import tutorgraph
from tutorgraph import RetrievalRequest, Settings, open_retriever

SRC = str(Path(tutorgraph.__file__).parent)
STAGES = {"RouteStage.run": "route", "RankStage.run": "rank"}
REQUESTS = [
    RetrievalRequest(query="for 7 - 2 x 3 I put 15 why is it wrong"),
    RetrievalRequest(
        query="Work out:\n0.3 × 12\nCorrect answer: 3.6\nStudent answer: 36",
        concept_ids=["eedi:construct:311"],
    ),
]


def _package(filename: str) -> str:
    rel = Path(filename).relative_to(SRC).parts
    return rel[0] if len(rel) > 1 else rel[0].removesuffix(".py")


class Walk:
    """The steps and climbs of each stage, and the entries of `request_facts`."""

    def __init__(self) -> None:
        self.steps: dict[str, set[str]] = {name: set() for name in STAGES.values()}
        self.climbs: dict[str, set[str]] = {name: set() for name in STAGES.values()}
        self.facts = Counter[str]()

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        del arg
        if event != "call" or not frame.f_code.co_filename.startswith(SRC):
            return
        code = frame.f_code
        if code.co_name.startswith("<"):  # a comprehension or a lambda: part of its function
            return
        stage = None
        outer = frame
        while outer is not None:
            name = STAGES.get(outer.f_code.co_qualname)
            if name is not None:
                stage = name
                break
            outer = outer.f_back
        if stage is None or outer is None:
            return
        step = f"{_package(code.co_filename)}:{code.co_qualname}"
        self.steps[stage].add(step)
        if _package(code.co_filename) != "retrieval":
            self.climbs[stage].add(step)


def _count_facts(walk: Walk) -> None:
    """Count every entry of `request_facts`, on any thread (a worker thread's calls escape a
    profiler set on this one): each module that imported it gets a counting wrapper."""
    from tutorgraph.retrieval import facts

    original = facts.request_facts

    def counted(*args: Any, **kwargs: Any) -> Any:
        walk.facts["request_facts"] += 1
        return original(*args, **kwargs)

    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("tutorgraph") and (
            getattr(module, "request_facts", None) is original
        ):
            module.request_facts = counted  # type: ignore[attr-defined]


async def _walk(settings: Settings) -> dict[str, Any]:
    out: dict[str, Any] = {}
    counter = Walk()
    _count_facts(counter)
    async with open_retriever(settings) as served:
        for request in REQUESTS:
            await served.retriever.retrieve(request)  # warm
            walk = Walk()
            counter.facts.clear()
            sys.setprofile(walk.profile)
            threading.setprofile(walk.profile)
            try:
                await served.retriever.retrieve(request)
            finally:
                sys.setprofile(None)
                threading.setprofile(None)  # type: ignore[arg-type]
            out[request.query.splitlines()[0]] = {
                "steps": {k: len(v) for k, v in walk.steps.items()},
                "climbs": {k: len(v) for k, v in walk.climbs.items()},
                "request_facts_entered": counter.facts["request_facts"],
                "functions": {k: sorted(v) for k, v in walk.steps.items()},
            }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    settings = Settings(index_dir=args.index_dir) if args.index_dir else Settings()
    report = asyncio.run(_walk(settings))
    for query, row in report.items():
        print(
            f"{query[:40]!r}: steps {row['steps']}, climbs {row['climbs']}, "
            f"request_facts entered {row['request_facts_entered']}x"
        )
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
