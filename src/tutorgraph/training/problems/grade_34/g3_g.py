"""Grade 3 problem generators: Geometry.

The standards 3.G.A.1 to 3.G.A.2; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import NAMES, pick
from tutorgraph.training.problems.grade_34._shared import _f, _ones

__all__ = ["GENERATORS"]


_QUADS = ("square", "rectangle", "rhombus", "trapezoid", "parallelogram", "kite")
_NOT_QUADS = ("triangle", "pentagon", "hexagon", "circle", "octagon")


def _g3g1_count(rng: random.Random) -> Made:
    quads = rng.sample(_QUADS, rng.randint(1, 4))
    others = rng.sample(_NOT_QUADS, rng.randint(1, 3))
    shapes = quads + others
    rng.shuffle(shapes)
    listed = ", ".join(shapes)
    if rng.random() < 0.6:
        text = pick(rng, (
            f"How many of these shapes are quadrilaterals: {listed}?",
            f"which of these have 4 sides? {listed}. how many is that",
            f"Count the shapes that belong to the quadrilateral group: {listed}.",
        ))  # fmt: skip
        return text, _ones(len(quads)), str(len(quads))
    text = pick(rng, (
        f"How many sides do these quadrilaterals have altogether: {', '.join(quads)}?",
        f"A {', a '.join(quads)} all have four sides. How many sides is that in all?",
    ))  # fmt: skip
    return text, " + ".join(["4"] * len(quads)), str(4 * len(quads))


def _g3g1_name(rng: random.Random) -> Made:
    shape, clue = pick(rng, (
        ("square", "4 equal sides and 4 right angles"),
        ("rectangle", "4 right angles and opposite sides equal, but not all sides equal"),
        ("rhombus", "4 equal sides but no right angles"),
        ("trapezoid", "4 sides and exactly one pair of parallel sides"),
        ("quadrilateral", "4 sides, with no sides equal and no right angles"),
    ))  # fmt: skip
    text = pick(rng, (
        f"I am a shape with {clue}. What am I?",
        f"what shape has {clue}",
        f"Name the quadrilateral with {clue}.",
    ))  # fmt: skip
    return text, repr(shape), shape


def _g3g2(rng: random.Random) -> Made:
    b = pick(rng, (2, 3, 4, 6, 8))
    shape = pick(rng, ("rectangle", "square", "circle", "hexagon", "strip of paper"))
    mode = rng.randrange(3)
    if mode == 0:
        text = pick(rng, (
            f"A {shape} is partitioned into {b} parts with equal area. What fraction of the area "
            "is each part?",
            f"{pick(rng, NAMES)} cuts a {shape} into {b} equal parts. Each part is what fraction "
            "of the whole?",
            f"if you split a {shape} into {b} equal areas what fraction is one piece",
        ))  # fmt: skip
        return text, f"1/{b}", _f(1, b)
    if mode == 1:
        a = b * rng.randint(2, 10)
        text = pick(rng, (
            f"A {shape} has an area of {a} square units. It is split into {b} parts with equal "
            "area. What is the area of each part?",
            f"a {shape} with area {a} square cm is cut into {b} equal parts, what is the area of "
            "one part",
        ))  # fmt: skip
        return text, f"{a} / {b}", str(a // b)
    text = pick(rng, (
        f"Each part of a partitioned {shape} is 1/{b} of its area. How many equal parts are there?",
        f"every piece is 1/{b} of the {shape} how many pieces",
    ))  # fmt: skip
    return text, f"1 / (1/{b})", str(b)


GENERATORS: tuple[Generator, ...] = table(
    ("3.G.A.1/count-quadrilaterals", "bare", _g3g1_count),
    ("3.G.A.1/name-quadrilateral", "bare", _g3g1_name),
    ("3.G.A.2/equal-area-parts", "bare", _g3g2),
)
