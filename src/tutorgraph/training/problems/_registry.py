"""The shape of a generated problem and of a generator, and the seeded run over all of them."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

__all__ = ["Generator", "Kind", "Made", "Make", "Problem", "run", "table"]

Kind = Literal["word", "bare"]
# What a generator's function returns: the problem's text, an expression that computes its
# answer (Python syntax over numbers, + - * / // % ** and the helpers the answer test knows:
# cmp, round_to, gcd, lcm, abs, min, max, mean, median, sqrt, floor, ceil; a quoted string
# only for a categorical answer such as a shape's name) and the answer as text.
Made = tuple[str, str, str]
# A generator's function: one problem from the seeded random source.
Make = Callable[[random.Random], Made]


@dataclass(frozen=True)
class Problem:
    """One labelled problem."""

    text: str
    standard: str
    generator: str
    kind: Kind
    expression: str
    answer: str


@dataclass(frozen=True)
class Generator:
    """A seeded maker of problems for one standard.

    >>> g = Generator("1.OA.A.1/take-away", "ccss:1.OA.A.1", "word",
    ...     lambda rng: ("Ana has 9 shells and gives away 4. How many are left?", "9 - 4", "5"))
    >>> g.make_one(random.Random(0)).answer
    '5'
    """

    name: str
    standard: str
    kind: Kind
    make: Make

    def make_one(self, rng: random.Random) -> Problem:
        text, expression, answer = self.make(rng)
        return Problem(
            " ".join(text.split()), self.standard, self.name, self.kind, expression, answer
        )


def table(*rows: tuple[str, Kind, Make]) -> tuple[Generator, ...]:
    """Generators from (name, kind, function) rows, in order; a name's standard is its code.

    >>> rows = table(("3.OA.C.7/facts", "bare", lambda rng: ("6 x 7 = ?", "6 * 7", "42")))
    >>> [g.standard for g in rows]
    ['ccss:3.OA.C.7']
    """
    return tuple(
        Generator(name, "ccss:" + name.split("/", 1)[0], kind, make) for name, kind, make in rows
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
