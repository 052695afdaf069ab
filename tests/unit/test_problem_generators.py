"""Every generated problem's answer is right: its expression is evaluated here, independently
of the generators, with exact fractions, and must equal the stated answer."""

from __future__ import annotations

import ast
import doctest
import json
import math
import re
import statistics
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tutorgraph.training import problems as problems_package
from tutorgraph.training.problems import GENERATORS, _registry, generate

pytestmark = pytest.mark.unit

CONCEPTS = Path("data/curriculum/concepts.jsonl")


def _cmp(a: Fraction, b: Fraction) -> str:
    return "<" if a < b else ">" if a > b else "="


def _round_to(x: Fraction, unit: Fraction) -> Fraction:
    # Half rounds up (away from zero for positive values), as schools teach it.
    return Fraction(math.floor(x / unit + Fraction(1, 2))) * unit


def _sqrt(x: Fraction) -> Fraction:
    root = Fraction(math.isqrt(x.numerator), math.isqrt(x.denominator))
    if root * root != x:
        raise ValueError(f"sqrt({x}) is not exact")
    return root


_FUNCS: dict[str, Callable[..., Any]] = {
    "cmp": _cmp,
    "round_to": _round_to,
    "gcd": lambda a, b: Fraction(math.gcd(int(a), int(b))),
    "lcm": lambda a, b: Fraction(math.lcm(int(a), int(b))),
    "abs": abs,
    "min": min,
    "max": max,
    "mean": lambda *xs: sum(xs, Fraction(0)) / len(xs),
    "median": lambda *xs: Fraction(statistics.median(xs)),
    "sqrt": _sqrt,
    "floor": lambda x: Fraction(math.floor(x)),
    "ceil": lambda x: Fraction(math.ceil(x)),
}
_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: Fraction(a // b),
    ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a**b,
}


def evaluate(expression: str) -> Any:
    """An expression's value: numbers are exact fractions, strings stay strings."""

    def walk(node: ast.AST) -> Any:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                return node.value
            return Fraction(str(node.value))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -walk(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return _BINARY[type(node.op)](walk(node.left), walk(node.right))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            return _FUNCS[node.func.id](*[walk(a) for a in node.args])
        raise ValueError(f"not allowed: {ast.dump(node)}")

    return walk(ast.parse(expression, mode="eval"))


def parse_answer(answer: str) -> Any:
    """ "15", "-3", "2.5", "3/4", "1 1/2", "1,200" as fractions; anything else as text."""
    text = answer.replace(",", "").strip()
    mixed = re.fullmatch(r"(-?\d+) (\d+)/(\d+)", text)
    if mixed:
        whole = int(mixed[1])
        return whole + (1 if whole >= 0 else -1) * Fraction(int(mixed[2]), int(mixed[3]))
    try:
        return Fraction(text)
    except ValueError:
        return answer


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
