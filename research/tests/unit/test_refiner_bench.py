"""`bench refine` on the reader's message set: each message with a labelled answer is a case
of `student_answer` alone, scored as a number or as text, per split; held-out misses are
never shown."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tutorgraph.refinement.local import answer_in
from tutorgraph_client.models.refined_query import RefinedQuery
from tutorgraph_research.tasks.refinement import evaluate_refiner, read_refiner_cases

pytestmark = pytest.mark.unit


class _ReaderOnly:
    """The local refiner's answer reading, without the graph it searches concepts in."""

    name = "reader"

    async def refine(self, query: str, *, student_answer: str | None = None) -> RefinedQuery:
        return RefinedQuery(
            original_query=query,
            optimized_query=query,
            student_answer=answer_in(query),
            refiner="local",
        )


def _row(i: int, text: str, answer: str | None, split: str) -> str:
    return json.dumps(
        {
            "id": f"m{i}",
            "text": text,
            "problem": None,
            "student_answer": answer,
            "claimed_right": None,
            "request": "why_wrong",
            "misconception_ids": [],
            "question_id": None,
            "phrasing": "p",
            "split": split,
            "source": "own",
        }
    )


def test_the_reader_set_is_scored_on_answers_per_split(tmp_path: Path) -> None:
    path = tmp_path / "messages.jsonl"
    rows = [
        _row(1, "for 7 - 2 x 3 I put 15", "15", "dev"),
        _row(2, "is 0.5 + 0.25 = .30 right?", "0.30", "dev"),  # the same number
        _row(3, "why is 7 - 2 x 3 wrong", None, "dev"),  # no answer: not a case
        _row(4, "how do i do 7 - 2 x 3", "15", "heldout"),  # missed, not shown
    ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    cases = read_refiner_cases(path)
    assert [c["id"] for c in cases] == ["m1", "m2", "m4"]
    report = asyncio.run(evaluate_refiner(_ReaderOnly(), path, repeats=1))  # type: ignore[arg-type]
    assert report["accuracy"] == {"student_answer": round(2 / 3, 4)}
    assert report["accuracy_by_split"] == {"dev": 1.0, "heldout": 0.0}
    assert report["misses"] == []
