"""Every generated problem's answer is right: its expression is evaluated here, independently
of the generators, with exact fractions, and must equal the stated answer."""

from __future__ import annotations

import doctest
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tutorgraph.mathtext.evaluate import evaluate, parse_answer
from tutorgraph.training import problems as problems_package
from tutorgraph.training.problems import GENERATORS, _registry, generate

pytestmark = pytest.mark.unit

CONCEPTS = Path("data/curriculum/concepts.jsonl")


PROBLEMS = generate(per_generator=12, seed=0)


def test_every_answer_is_computed_right() -> None:
    wrong = [
        (p.generator, p.text, p.expression, p.answer)
        for p in PROBLEMS
        if evaluate(p.expression) != parse_answer(p.answer)
    ]
    assert not wrong, wrong[:5]


def test_labels_are_bundle_standards_and_names_are_unique() -> None:
    records = [json.loads(line) for line in CONCEPTS.read_text(encoding="utf-8").splitlines()]
    known = {r["id"] for r in records if r["kind"] == "standard"}
    assert {g.standard for g in GENERATORS} <= known
    names = Counter(g.name for g in GENERATORS)
    assert not [n for n, c in names.items() if c > 1]


def test_generation_is_deterministic_and_varied() -> None:
    again = generate(per_generator=12, seed=0)
    assert [p.text for p in again] == [p.text for p in PROBLEMS]
    other = generate(per_generator=12, seed=1)
    assert [p.text for p in other] != [p.text for p in PROBLEMS] or not PROBLEMS
    # A generator makes different problems, not one problem in different numbers only.
    per_gen = Counter(p.generator for p in PROBLEMS)
    assert all(c >= 6 for c in per_gen.values()), [g for g, c in per_gen.items() if c < 6]


def test_categorical_answers_are_few() -> None:
    categorical = [p for p in PROBLEMS if isinstance(evaluate(p.expression), str)]
    assert len(categorical) <= 0.15 * max(1, len(PROBLEMS))


@pytest.mark.parametrize("module", [problems_package, _registry], ids=lambda m: m.__name__)
def test_the_docstring_examples_hold(module: Any) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
