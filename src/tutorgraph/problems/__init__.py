"""Seeded generators of labelled maths problems, per Common Core standard (issues 48, 61).

Each generator makes word problems or bare exercises for one K-8 standard whose skill can be
computed, in many phrasings (contexts, names, units, number ranges true to the grade, the
unknown in every position), with the expression that computes each answer and the worked
steps to it. They are the concept linker's training data (`tutorgraph train-linker`); none is
copied from a published set of problems tagged with standards, as those sets check the
linker from outside.

A generator is a row of data (`data/<band>.toml`: its draws, phrasings and expressions) run
by one engine (`_rows.py`): the answer is the expression's value by
`tutorgraph.mathtext.evaluate`, computed once, and the steps are read off the expression.
At request time `practice` makes a few problems for one standard like the student's, in a
teacher's voice (`_practice.py`; the packet's generated practice).

>>> from tutorgraph.problems import GENERATORS
>>> problems = generate(per_generator=2, seed=0)
>>> {p.standard for p in problems} == {g.standard for g in GENERATORS}
True
>>> first = problems[0]
>>> first.standard, first.kind, first.expression, first.answer
('ccss:K.CC.A.1', 'bare', '30 + 10', '40')
>>> first.steps[1:]
('Think in tens: 3 tens + 1 ten = 4 tens.', 'So 30 + 10 = 40.')
"""

from __future__ import annotations

from functools import cache
from typing import Any

from tutorgraph.problems._practice import PRACTICE_ITEMS, Practice, covers, practice
from tutorgraph.problems._registry import Generator, Kind, Problem, run

__all__ = [
    "GENERATORS",
    "PRACTICE_ITEMS",
    "Generator",
    "Kind",
    "Practice",
    "Problem",
    "covers",
    "generate",
    "practice",
]


@cache
def _generators() -> tuple[Generator, ...]:
    # The data files are read on first use, not at import.
    from tutorgraph.problems._rows import BANDS, generators

    return tuple(g for band in BANDS for g in generators(band))


def __getattr__(name: str) -> Any:
    if name == "GENERATORS":
        return _generators()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def generate(per_generator: int = 40, seed: int = 0) -> list[Problem]:
    """Up to `per_generator` distinct problems from every generator (deterministic)."""
    return run(_generators(), per_generator, seed)
