"""Grade 4 problem generators: Geometry.

The standards 4.G.A.1 to 4.G.A.3; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_34._shared import _ones

__all__ = ["GENERATORS"]


def _an(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def _g4g1(rng: random.Random) -> Made:
    angles = [
        pick(rng, (rng.randint(10, 89), 90, rng.randint(91, 170))) for _ in range(rng.randint(5, 7))
    ]
    listed = ", ".join(f"{a}°" for a in angles)
    kind = pick(rng, ("acute", "right", "obtuse"))
    count = sum(
        1 for a in angles if (a < 90 if kind == "acute" else a == 90 if kind == "right" else a > 90)
    )
    text = pick(rng, (
        f"How many of these angles are {kind}: {listed}?",
        f"count the {kind} angles {listed}",
        f"Sort the angles {listed}. How many are {kind}?",
    ))  # fmt: skip
    return text, _ones(count), str(count)


_SHAPES_4G = {
    "square": (2, 4),
    "rectangle": (2, 4),
    "trapezoid": (1, 0),
    "rhombus": (2, 0),
    "parallelogram": (2, 0),
    "right triangle": (0, 1),
    "equilateral triangle": (0, 0),
    "regular hexagon": (3, 0),
    "kite": (0, 0),
}


def _g4g2(rng: random.Random) -> Made:
    shapes = rng.sample(sorted(_SHAPES_4G), rng.randint(4, 6))
    listed = ", ".join(shapes)
    mode = rng.randrange(3)
    if mode == 0:
        n = sum(1 for s in shapes if _SHAPES_4G[s][0] > 0)
        text = pick(
            rng,
            (
                f"How many of these shapes have at least one pair of parallel sides: {listed}?",
                f"which shapes have parallel sides? {listed} how many",
            ),
        )
        return text, _ones(n), str(n)
    if mode == 1:
        n = sum(1 for s in shapes if _SHAPES_4G[s][1] > 0)
        text = pick(
            rng,
            (
                f"How many of these shapes have a right angle: {listed}?",
                f"count the shapes with right angles {listed}",
            ),
        )
        return text, _ones(n), str(n)
    total = sum(_SHAPES_4G[s][1] for s in shapes)
    text = pick(
        rng,
        (
            f"How many right angles are there in all in these shapes: {listed}?",
            f"add up the right angles in {listed}",
        ),
    )
    return text, " + ".join(str(_SHAPES_4G[s][1]) for s in shapes), str(total)


_SYMMETRY = {
    "square": 4, "rectangle": 2, "equilateral triangle": 3, "isosceles triangle": 1,
    "regular pentagon": 5, "regular hexagon": 6, "rhombus": 2, "regular octagon": 8,
    "letter H": 2, "letter A": 1, "letter M": 1, "letter X": 2, "heart": 1, "letter F": 0,
}  # fmt: skip


def _g4g3(rng: random.Random) -> Made:
    if rng.random() < 0.5:
        shape = pick(rng, sorted(_SYMMETRY))
        text = pick(
            rng,
            (
                f"How many lines of symmetry does {_an(shape)} have?",
                f"how many lines of symmetry in {_an(shape)}",
                f"Draw all the lines of symmetry of {_an(shape)}. How many are there?",
            ),
        )
        return text, str(_SYMMETRY[shape]), str(_SYMMETRY[shape])
    a, b = rng.sample(sorted(_SYMMETRY), 2)
    text = pick(
        rng,
        (
            f"How many lines of symmetry do {_an(a)} and {_an(b)} have altogether?",
            f"add the lines of symmetry of {_an(a)} and {_an(b)}",
        ),
    )
    return text, f"{_SYMMETRY[a]} + {_SYMMETRY[b]}", str(_SYMMETRY[a] + _SYMMETRY[b])


GENERATORS: tuple[Generator, ...] = table(
    ("4.G.A.1/angle-types", "bare", _g4g1),
    ("4.G.A.2/classify-shapes", "bare", _g4g2),
    ("4.G.A.3/symmetry", "bare", _g4g3),
)
