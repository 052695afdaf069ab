"""The shape of a generated problem and of a generator, and the seeded run over all of them."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

__all__ = ["Generator", "Kind", "Made", "Make", "Problem", "run"]

Kind = Literal["word", "bare"]
# What a generator's function returns: the problem's text, the expression that computes its
# answer (see `tutorgraph.mathtext.evaluate`), the answer as text (that expression's value,
# formatted) and the worked steps.
Made = tuple[str, str, str, tuple[str, ...]]
# A generator's function: one problem from the seeded random source.
Make = Callable[[random.Random], Made]


@dataclass(frozen=True)
class Problem:
    """One labelled problem, with the steps that work it out."""

    text: str
    standard: str
    generator: str
    kind: Kind
    expression: str
    answer: str
    steps: tuple[str, ...] = ()


@dataclass(frozen=True)
class Generator:
    """A seeded maker of problems for one standard.

    >>> g = Generator("1.OA.A.1/take-away", "ccss:1.OA.A.1", "word", lambda rng: (
    ...     "Ana has 9 shells and gives away 4. How many are left?", "9 - 4", "5",
    ...     ("Count back 4 from 9: 8, 7, 6, 5.", "So 9 - 4 = 5.")))
    >>> g.make_one(random.Random(0)).steps[-1]
    'So 9 - 4 = 5.'
    """

    name: str
    standard: str
    kind: Kind
    make: Make

    def make_one(self, rng: random.Random) -> Problem:
        text, expression, answer, steps = self.make(rng)
        return Problem(
            " ".join(text.split()), self.standard, self.name, self.kind, expression, answer, steps
        )


def run(generators: Iterable[Generator], per_generator: int, seed: int = 0) -> list[Problem]:
    """Up to `per_generator` distinct problems from each generator, the same for the same seed.

    Each generator draws from its own `random.Random` seeded by the seed and its name, so
    adding a generator changes no other generator's problems.
    """
    out: list[Problem] = []
    for gen in generators:
        rng = random.Random(f"{seed}:{gen.name}")
        seen: set[str] = set()
        for _ in range(per_generator * 4):
            if len(seen) >= per_generator:
                break
            problem = gen.make_one(rng)
            if problem.text not in seen:
                seen.add(problem.text)
                out.append(problem)
    return out
