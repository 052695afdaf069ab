"""Grade 1 problem generators: Geometry.

The standards 1.G.A.1 to 1.G.A.3; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._registry import Generator, Made, table
from tutorgraph.training.problems._words import NAMES, pick
from tutorgraph.training.problems.grade_k2._shared import _SHAPE_SIDES, _choose

__all__ = ["GENERATORS"]


def _g1_attributes(rng: random.Random) -> Made:
    size = pick(rng, ("big", "tiny", "blue", "striped", "upside-down", "skinny"))
    s1, n1 = pick(rng, _SHAPE_SIDES)
    s2, n2 = pick(rng, _SHAPE_SIDES)
    return _choose(
        rng,
        (
            (f"A {size} {s1}: how many sides does it have?", f"{n1}", n1),
            (
                f"Every {s1} has the same number of corners, no matter the color. How many?",
                f"{n1}",
                n1,
            ),
            (f"A {size} {s1} and a {s2}: how many sides in all?", f"{n1} + {n2}", n1 + n2),
            (
                f"if a {s2} is {size} does it still have {n2} sides? how many sides does it have",
                f"{n2}",
                n2,
            ),
            ("Draw a closed shape with 3 straight sides. How many corners does it have?", "3", 3),
            (f"How many more sides does a {s1} have than a triangle?", f"{n1} - 3", n1 - 3),
        ),
    )


def _g1_compose(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    k = rng.randint(2, 5)
    return _choose(
        rng,
        (
            (f"How many quarter-circles does {name} need to make a whole circle?", "4", 4),
            (
                f"{name} makes {k} squares, each from 2 triangles. How many triangles "
                f"does {name} use?",
                " + ".join(["2"] * k),
                2 * k,
            ),
            (
                f"{name} joins {k} half-circles in pairs to make circles. How many "
                f"circles can {name} make from {2 * k} half-circles?",
                f"{2 * k} // 2",
                k,
            ),
            (
                f"{name} stacks {k} cubes into a tower and puts a cone on top. How many "
                "solids are in the tower?",
                f"{k} + 1",
                k + 1,
            ),
            ("how many half circles make a circle", "2", 2),
            (
                f"{name} puts {k} rectangles side by side and adds {k} triangles on top. "
                "How many shapes are used?",
                f"{k} + {k}",
                2 * k,
            ),
        ),
    )


def _g1_shares(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    food = pick(rng, ("pizza", "pancake", "waffle", "cake", "pie", "tortilla"))
    eaten = rng.randint(1, 3)
    return _choose(
        rng,
        (
            (f"{name} cuts a {food} into fourths. How many equal shares are there?", "4", 4),
            (f"{name} cuts a {food} in half. How many halves make the whole {food}?", "2", 2),
            (
                f"A {food} is cut into 4 equal shares and {name} eats {eaten}. How many "
                "shares are left?",
                f"4 - {eaten}",
                4 - eaten,
            ),
            (f"how many quarters make a whole {food}", "4", 4),
            (f"{name} has 2 {food}s, each cut in half. How many halves are there?", "2 + 2", 4),
            (
                f"{name} cuts {eaten + 1} {food}s into fourths. How many fourths in all?",
                " + ".join(["4"] * (eaten + 1)),
                4 * (eaten + 1),
            ),
        ),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("1.G.A.1/defining-attributes", "bare", _g1_attributes),
    ("1.G.A.2/composite-shapes", "word", _g1_compose),
    ("1.G.A.3/halves-and-fourths", "word", _g1_shares),
)
