"""Seeded generators of labelled maths problems, per Common Core standard (issue 48).

Each generator makes word problems or bare exercises for one K-8 standard whose skill can be
computed, in many phrasings (contexts, names, units, number ranges true to the grade, the
unknown in every position), with the expression that computes each answer. They are the
concept linker's training data (`tutorgraph train-linker`); none is copied from a published
set of problems tagged with standards, as those sets check the linker from outside.

>>> problems = generate(per_generator=2, seed=0)
>>> {p.standard for p in problems} == {g.standard for g in GENERATORS}
True
>>> first = problems[0]
>>> first.standard, first.kind, first.expression, first.answer
('ccss:K.CC.A.1', 'bare', '10 + 30', '40')
"""

from __future__ import annotations

from tutorgraph.training.problems import grade_34, grade_56, grade_78, grade_k2
from tutorgraph.training.problems._registry import Generator, Kind, Problem, run

__all__ = ["GENERATORS", "Generator", "Kind", "Problem", "generate"]

GENERATORS: tuple[Generator, ...] = (
    grade_k2.GENERATORS + grade_34.GENERATORS + grade_56.GENERATORS + grade_78.GENERATORS
)


def generate(per_generator: int = 40, seed: int = 0) -> list[Problem]:
    """Up to `per_generator` distinct problems from every generator (deterministic)."""
    return run(GENERATORS, per_generator, seed)
