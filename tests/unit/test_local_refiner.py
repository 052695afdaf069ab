"""The local refiner on the committed query set (tests/data/REFINER_QUERIES.md).

The refiner runs over the bundled curriculum in `data/`: its concept-name index for concept
recognition and its lexical vocabulary for spelling.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from tutorgraph.ingest.bundle import load_trusted
from tutorgraph.refinement.local import LocalRefiner
from tutorgraph.refinement.spelling import SpellingCorrector
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.embedded_graph import EmbeddedGraphStore
from tutorgraph.stores.items import items_from_records

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
CASES = [
    json.loads(line)
    for line in (ROOT / "tests" / "data" / "refiner_queries.jsonl").read_text().splitlines()
    if line.strip()
]


@pytest.fixture(scope="module")
def refiner() -> LocalRefiner:
    records = load_trusted(ROOT / "data" / "curriculum")
    lexical = BM25Index.build(items_from_records(records))
    return LocalRefiner(
        EmbeddedGraphStore(records),
        SpellingCorrector(lexical.document_frequencies()),
    )


def test_the_set_covers_what_the_issue_asks() -> None:
    assert len(CASES) >= 40
    tags = {t for c in CASES for t in c["covers"]}
    assert {"fractions", "equations", "latex", "standard_code", "stated_answer"} <= tags
    assert "misspelling" in tags


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_refines_as_expected(refiner: LocalRefiner, case: dict[str, Any]) -> None:
    refined = asyncio.run(refiner.refine(case["query"]))
    expected = case["expected"]
    assert refined.refiner == "local" and refined.fallback_reason is None
    assert refined.original_query == case["query"]
    assert refined.math_expressions == expected["math_expressions"]
    assert refined.student_answer == expected["student_answer"]
    assert set(expected["key_concepts_include"]) <= set(refined.key_concepts)
    for word in expected["corrected_terms"]:
        assert word in refined.search_terms
        assert word in refined.optimized_query.casefold()
    # The searches get the math in canonical form.
    for expr in refined.math_expressions:
        assert expr in refined.optimized_query


def test_is_deterministic(refiner: LocalRefiner) -> None:
    query = CASES[0]["query"]
    first = asyncio.run(refiner.refine(query))
    assert all(asyncio.run(refiner.refine(query)) == first for _ in range(3))


def test_request_answer_wins_over_the_text(refiner: LocalRefiner) -> None:
    refined = asyncio.run(refiner.refine("i got 2/6 for 1/2+1/4", student_answer=r"\frac{3}{8}"))
    assert refined.student_answer == "3/8"


def test_text_without_math_or_concepts(refiner: LocalRefiner) -> None:
    refined = asyncio.run(refiner.refine("hello"))
    assert refined.math_expressions == [] and refined.student_answer is None
    assert refined.optimized_query == "hello"


@pytest.mark.parametrize(
    ("query", "expanded"),
    [
        ("why is 3/4 bigger than 2/3?", True),
        ("which is greater, 0.5 or 0.45", True),
        ("is -3 less than -2", True),
        ("i added 2/3 and 1/4 and got 3/7, why is that wrong?", False),
        ("which one is bigger, a cat or a dog", False),  # no math: nothing to compare
    ],
)
def test_comparatives_name_comparing_and_ordering(
    refiner: LocalRefiner, query: str, expanded: bool
) -> None:
    refined = asyncio.run(refiner.refine(query))
    assert refined.optimized_query.endswith(" compare order") is expanded
    assert ({"compare", "order"} <= set(refined.search_terms)) is expanded


def test_and_got_states_the_answer(refiner: LocalRefiner) -> None:
    refined = asyncio.run(refiner.refine("i added 2/3 and 1/4 and got 3/7, why is that wrong?"))
    assert refined.student_answer == "3/7"
    assert refined.math_expressions == ["2/3", "1/4", "3/7"]


class _DownGraph:
    """A graph whose concept search fails or hangs (logic check: refinement goes on)."""

    def __init__(self, delay: float | None) -> None:
        self.delay = delay

    async def search_concepts(self, text: str, k: int) -> list[object]:
        if self.delay is None:
            raise ConnectionError("graph down")
        await asyncio.sleep(self.delay)
        return []


@pytest.mark.parametrize("delay", [None, 5.0])
def test_a_down_or_slow_graph_costs_only_the_concepts(delay: float | None) -> None:
    refiner = LocalRefiner(_DownGraph(delay), concept_timeout_s=0.2)  # type: ignore[arg-type]
    started = time.perf_counter()
    refined = asyncio.run(refiner.refine("i got 2/6 for 1/2+1/4"))
    assert time.perf_counter() - started < 2.0
    assert refined.key_concepts == []
    assert refined.student_answer == "2/6" and refined.math_expressions == ["2/6", "1/2 + 1/4"]
