"""Kindergarten problem generators: Geometry.

The standards K.G.A.2 to K.G.B.6; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._registry import Generator, Made, table
from tutorgraph.training.problems._words import NAMES, pick
from tutorgraph.training.problems.grade_k2._shared import _SHAPE_SIDES, _choose, _Option

__all__ = ["GENERATORS"]


def _k_name_shape(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    size = pick(rng, ("big", "tiny", "tilted", "upside-down", "long", "small"))
    color = pick(rng, ("red", "green", "blue", "orange"))
    options: list[_Option] = [
        (
            f"{name} draws a {size} {color} shape with 3 straight sides and 3 "
            "corners. What shape is it?",
            '"triangle"',
            "triangle",
        ),
        (
            f"A {size} shape has 4 equal sides and 4 square corners. What is it called?",
            '"square"',
            "square",
        ),
        (f"what shape is round with no corners even if its {size}", '"circle"', "circle"),
        (
            f"A {color} road sign has 6 sides and 6 corners. What shape is it?",
            '"hexagon"',
            "hexagon",
        ),
        (f"{name} turns a triangle so it is {size}. How many sides does it have now?", "3", 3),
        (
            f"A {size} {color} square is turned on its corner. How many corners does it have?",
            "4",
            4,
        ),
    ]
    return _choose(rng, options)


def _k_flat_solid(rng: random.Random) -> Made:
    flat = ("circle", "square", "triangle", "rectangle", "hexagon")
    solid = ("cube", "sphere", "cone", "cylinder")
    n_flat = rng.randint(1, 4)
    n_solid = rng.randint(1, 4)
    shapes = rng.sample(flat, n_flat) + rng.sample(solid, n_solid)
    rng.shuffle(shapes)
    listing = ", ".join(shapes)
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (f"How many of these shapes are flat? {listing}", f"{n_flat}", n_flat),
            (f"How many of these shapes are solid? {listing}", f"{n_solid}", n_solid),
            (
                f"{name} sorts shapes into flat and solid: {listing}. How many go in the "
                "solid pile?",
                f"{n_solid}",
                n_solid,
            ),
            (f"which of these are 2D: {listing}. how many is that", f"{n_flat}", n_flat),
            (f"Count the 3D shapes: {listing}.", f"{n_solid}", n_solid),
            (
                f"{name} has these: {listing}. How many more flat shapes than solid "
                "shapes? (Write 0 if not more.)",
                f"max(0, {n_flat} - {n_solid})",
                max(0, n_flat - n_solid),
            ),
        ),
    )


def _k_sides_corners(rng: random.Random) -> Made:
    s1, n1 = pick(rng, _SHAPE_SIDES)
    s2, n2 = pick(rng, _SHAPE_SIDES)
    return _choose(
        rng,
        (
            (f"How many sides does a {s1} have?", f"{n1}", n1),
            (f"How many corners does a {s1} have?", f"{n1}", n1),
            (f"How many sides do a {s1} and a {s2} have together?", f"{n1} + {n2}", n1 + n2),
            (f"how many corners on a {s2}", f"{n2}", n2),
            (f"How many more corners does a hexagon have than a {s1}?", f"6 - {n1}", 6 - n1),
            ("A cube has flat faces. How many faces does a cube have?", "6", 6),
            (f"How many vertices does a {s2} have?", f"{n2}", n2),
        ),
    )


def _k_shapes_word(rng: random.Random) -> Made:
    s1, n1 = pick(rng, _SHAPE_SIDES)
    s2, n2 = pick(rng, [s for s in _SHAPE_SIDES if s[0] != s1])
    name = pick(rng, NAMES)
    k = rng.randint(2, 3)
    return _choose(
        rng,
        (
            (
                f"{name} draws a {s1} and a {s2}. How many corners do the two shapes have in all?",
                f"{n1} + {n2}",
                n1 + n2,
            ),
            (
                f"{name} compares a {s1} and a {s2}. How many more sides does the one "
                "with more sides have?",
                f"abs({n1} - {n2})",
                abs(n1 - n2),
            ),
            (
                f"{name} traces {k} {s1}s. how many sides did {name} trace",
                " + ".join([str(n1)] * k),
                n1 * k,
            ),
            (
                f"A big {s1} and a small {s1}: how many corners does the small one have?",
                f"{n1}",
                n1,
            ),
            (f"{name} puts a sticker on every corner of a {s2}. How many stickers?", f"{n2}", n2),
            (
                "A cube and a square: how many more flat faces does the cube have than "
                "the square's 1 face?",
                "6 - 1",
                5,
            ),
        ),
    )


def _k_build_shapes(rng: random.Random) -> Made:
    s1, n1 = pick(rng, _SHAPE_SIDES[:3])
    s2, n2 = pick(rng, _SHAPE_SIDES[:3])
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"{name} builds a {s1} with sticks and clay balls. How many sticks does "
                f"{name} need?",
                f"{n1}",
                n1,
            ),
            (
                f"{name} builds a {s1} with sticks and clay balls at the corners. How "
                "many clay balls?",
                f"{n1}",
                n1,
            ),
            (
                f"{name} makes a {s1} and a {s2} out of straws. How many straws in all?",
                f"{n1} + {n2}",
                n1 + n2,
            ),
            (f"how many toothpicks do you need to make a {s2}", f"{n2}", n2),
            (
                f"{name} has 10 sticks and builds a {s1}. How many sticks are left?",
                f"10 - {n1}",
                10 - n1,
            ),
            (
                f"To build a {s2}, {name} uses one marshmallow at each corner. How many "
                "marshmallows?",
                f"{n2}",
                n2,
            ),
        ),
    )


def _k_compose(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    k = rng.randint(2, 4)
    return _choose(
        rng,
        (
            (
                f"{name} joins triangles with full sides touching to make a rectangle. "
                "How many triangles does it take?",
                "2",
                2,
            ),
            (
                f"How many small squares does {name} need to make a bigger square that is "
                "2 squares wide and 2 squares tall?",
                "2 + 2",
                4,
            ),
            (
                f"{name} puts {k} squares in a row. How many squares make the long rectangle?",
                f"{k}",
                k,
            ),
            ("How many pattern-block triangles make a hexagon?", "6", 6),
            ("how many trapezoids make a hexagon", "2", 2),
            (
                f"{name} makes {k} rectangles out of triangles, 2 triangles for each. How "
                f"many triangles does {name} use?",
                " + ".join(["2"] * k),
                2 * k,
            ),
        ),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("K.G.A.2/name-the-shape", "bare", _k_name_shape),
    ("K.G.A.3/flat-or-solid", "word", _k_flat_solid),
    ("K.G.B.4/sides-and-corners", "bare", _k_sides_corners),
    ("K.G.B.4/compare-shapes-story", "word", _k_shapes_word),
    ("K.G.B.5/build-with-sticks", "word", _k_build_shapes),
    ("K.G.B.6/compose-shapes", "word", _k_compose),
)
