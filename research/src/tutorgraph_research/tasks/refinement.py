"""The refiner on a query set with expected extractions: per-field accuracy and warm latency.

>>> report = await evaluate_refiner(refiner, Path("tests/data/refiner_queries.jsonl"))
... # doctest: +SKIP
>>> report["accuracy"]["student_answer"], report["latency_ms"]["p50"]  # doctest: +SKIP
(1.0, 1.1)
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tutorgraph.errors import ConfigurationError
from tutorgraph.refinement.refiner import Refiner
from tutorgraph_client.models.refined_query import RefinedQuery
from tutorgraph_research.harness.provenance import hardware
from tutorgraph_research.tasks.latency import percentiles
from tutorgraph_research.tasks.reader_messages import same_answer

__all__ = ["evaluate_refiner", "read_refiner_cases"]

FIELDS = ("math_expressions", "student_answer", "key_concepts", "corrected_terms")


def read_refiner_cases(path: Path) -> list[dict[str, Any]]:
    """JSON Lines with `id`, `query` and `expected` (see tests/data/REFINER_QUERIES.md); or the
    reader's message set (`data/benchmarks/reader_messages.jsonl`), whose rows with a
    labelled answer are cases of `student_answer` alone, with their split."""
    if not path.is_file():
        raise ConfigurationError(f"no refiner query file at {path}")
    cases = []
    for lineno, line in enumerate(path.open(encoding="utf-8"), start=1):
        if not line.strip():
            continue
        try:
            case = json.loads(line)
            if "phrasing" in case:
                if case["student_answer"] is None:
                    continue
                case = {
                    "id": case["id"],
                    "query": case["text"],
                    "split": case["split"],
                    "fields": ["student_answer"],
                    "expected": {"student_answer": case["student_answer"]},
                }
            else:
                case["query"], case["expected"]["math_expressions"]
        except (ValueError, KeyError, TypeError) as exc:
            raise ConfigurationError(f"{path}:{lineno}: not a refiner case ({exc})") from exc
        cases.append(case)
    if not cases:
        raise ConfigurationError(f"{path} holds no cases")
    return cases


def _matches(refined: RefinedQuery, case: dict[str, Any]) -> dict[str, bool]:
    expected = case["expected"]
    if "fields" in case:  # a student's message: its answer, equal as a number or as text
        return {"student_answer": same_answer(expected["student_answer"], refined.student_answer)}
    return {
        "math_expressions": refined.math_expressions == expected["math_expressions"],
        "student_answer": refined.student_answer == expected.get("student_answer"),
        "key_concepts": set(expected.get("key_concepts_include", [])) <= set(refined.key_concepts),
        "corrected_terms": set(expected.get("corrected_terms", [])) <= set(refined.search_terms),
    }


async def evaluate_refiner(refiner: Refiner, path: Path, *, repeats: int = 20) -> dict[str, Any]:
    """Accuracy per field (exact for math and answers, inclusion for concepts and terms), then
    the warm p50/p95 over `repeats` passes of the whole set."""
    cases = read_refiner_cases(path)
    hits = dict.fromkeys(FIELDS, 0)
    scored = dict.fromkeys(FIELDS, 0)
    splits: dict[str, list[bool]] = {}
    misses: list[dict[str, Any]] = []
    for case in cases:
        refined = await refiner.refine(case["query"])
        ok = _matches(refined, case)
        for f, good in ok.items():
            hits[f] += good
            scored[f] += 1
        if "split" in case:
            splits.setdefault(case["split"], []).append(all(ok.values()))
        # A held-out case is scored, never shown: it is kept out of all tuning.
        if not all(ok.values()) and case.get("split") != "heldout":
            misses.append({"id": case.get("id"), "fields": [f for f, g in ok.items() if not g]})
    times: list[float] = []
    for _ in range(repeats):
        for case in cases:
            started = time.perf_counter()
            await refiner.refine(case["query"])
            times.append((time.perf_counter() - started) * 1000)
    return {
        "refiner": refiner.name,
        "queries": str(path),
        "n": len(cases),
        "accuracy": {f: round(hits[f] / scored[f], 4) for f in FIELDS if scored[f]},
        "accuracy_by_split": {s: round(sum(v) / len(v), 4) for s, v in sorted(splits.items())},
        "all_fields": round((len(cases) - len(misses)) / len(cases), 4),
        "misses": misses,
        "latency_ms": percentiles(times),
        "timed_calls": len(times),
        "hardware": hardware(),
    }
