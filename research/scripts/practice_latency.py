"""What the packet's generated practice adds to a request (issue 62).

    python research/scripts/practice_latency.py [--rounds 5]

For every hand-written message with a grade and a Common Core label (the tutoring messages,
the packet messages and the word problems of `data/benchmarks/`), the request's facts are
read once and its first labelled standard stands in for the linker's best; then
`generated_practice` (what `build_packet` adds) runs on each, warm: one pass first reads
every standard's phrasings, then `--rounds` passes are timed, each with new draws (the
seed reads the request's text: a round marker is added to it). Prints the p50 / p95 of the
warm calls in milliseconds, and, once per process, the first read of the data files and of
each standard's phrasings (cold), how many messages got practice and how many of those
shared the student's problem's structure.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from tutorgraph.problems import covers
from tutorgraph.problems._practice import _phrasings, _rows
from tutorgraph.retrieval.facts import request_facts
from tutorgraph.retrieval.practice import generated_practice
from tutorgraph.retrieval.state import RequestState
from tutorgraph_client.models.packet import LinkedConcept
from tutorgraph_client.models.request import RetrievalRequest

ROOT = Path(__file__).resolve().parents[2]
FILES = ("tutoring_messages.jsonl", "packet_messages.jsonl", "word_problems.jsonl")


def _states() -> list[RequestState]:
    states = []
    for name in FILES:
        for line in (ROOT / "data/benchmarks" / name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if not row.get("standards"):
                continue
            state = RequestState(RetrievalRequest(query=row["text"], grade=row.get("grade")))
            state.facts = request_facts(state.request, None)
            state.linked = [
                LinkedConcept(id=row["standards"][0], taxonomy="common-core", name="", score=1.0)
            ]
            states.append(state)
    return states


def _ms(since: float) -> float:
    return (time.perf_counter() - since) * 1000


def main(rounds: int) -> None:
    states = _states()
    started = time.perf_counter()
    _rows()
    load_ms = _ms(started)
    cold = []
    for standard in sorted({s.linked[0].id for s in states if covers(s.linked[0].id)}):
        started = time.perf_counter()
        _phrasings(standard)
        cold.append(_ms(started))
    made = [generated_practice(s, None) for s in states]
    warm = []
    for r in range(rounds):
        for state in states:
            # Another request's draws each round (the seed reads the text), so no round
            # repeats the last one's expressions (`evaluate` remembers values).
            state.facts = replace(state.facts, link_text=f"{state.request.query} #{r}")
            started = time.perf_counter()
            generated_practice(state, None)
            warm.append(_ms(started))
    covered = [m for m in made if m.hits]
    report = {
        "warm_ms": {
            "p50": round(float(np.percentile(warm, 50)), 3),
            "p95": round(float(np.percentile(warm, 95)), 3),
        },
        "once_per_process_ms": {
            "data_files": round(load_ms, 1),
            "phrasings_per_standard_p50": round(float(np.percentile(cold, 50)), 2),
            "phrasings_per_standard_max": round(max(cold), 2),
        },
        "messages": len(states),
        "with_practice": len(covered),
        "of_the_students_structure": sum(m.matched == len(m.hits) for m in covered),
        "_meta": {"rounds": rounds, "machine": platform.processor() or platform.machine()},
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    main(args.rounds)
