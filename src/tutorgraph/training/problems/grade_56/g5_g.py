"""Grade 5 problem generators: Geometry.

The standards 5.G.A.1 to 5.G.B.4; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_56._shared import _ask, _name

__all__ = ["GENERATORS"]


def _g_coordinates(rng: random.Random) -> Made:
    x, y = rng.randint(0, 10), rng.randint(0, 10)
    kind = rng.randrange(4)
    if kind == 0:
        q = pick(
            rng,
            (
                f"Point A is at ({x}, {y}). How far is it from the origin along the x-axis?",
                f"For the point ({x}, {y}), what is the x-coordinate?",
            ),
        )
        return _ask(rng, q), str(x), str(x)
    if kind == 1:
        q = (
            f"Start at the origin. Move {x} units right and {y} units up. What is the y-coordinate "
            "of the point?"
        )
        return _ask(rng, q), str(y), str(y)
    dx = rng.randint(1, 6)
    if kind == 2:
        q = f"Point P is at ({x}, {y}). It moves {dx} units up. What is its new y-coordinate?"
        return _ask(rng, q), f"{y} + {dx}", str(y + dx)
    q = (
        f"Point Q is at ({x}, {y}). Point R is {dx} units to the right of Q. What is the "
        "x-coordinate of R?"
    )
    return _ask(rng, q), f"{x} + {dx}", str(x + dx)


def _g_graph_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(3)
    if kind == 0:
        x, y1, y2 = rng.randint(0, 10), rng.randint(0, 6), rng.randint(7, 15)
        a, b = pick(
            rng, (("the school", "the library"), ("home", "the park"), ("the pool", "the gym"))
        )
        q = (
            f"On a town map, {a} is at ({x}, {y1}) and {b} is at ({x}, {y2}). Each unit is one "
            "block. How many blocks apart are they?"
        )
        return _ask(rng, q), f"{y2} - {y1}", str(y2 - y1)
    if kind == 1:
        rate, h = rng.randint(5, 15), rng.randint(2, 8)
        q = (
            f"{who} graphs (hours worked, dollars earned). One point is ({h}, {rate * h}). How "
            f"many dollars does {who} earn per hour?"
        )
        return _ask(rng, q), f"{rate * h} / {h}", str(rate)
    d1, d2 = rng.randint(1, 5), rng.randint(6, 12)
    h1, h2 = rng.randint(2, 10), rng.randint(11, 30)
    q = (
        f"A plant's growth is graphed as (day, height in cm). The points ({d1}, {h1}) and ({d2}, "
        f"{h2}) are on the graph. How many cm did it grow from day {d1} to day {d2}?"
    )
    return _ask(rng, q), f"{h2} - {h1}", str(h2 - h1)


def _g_attributes(rng: random.Random) -> Made:
    s = rng.randint(2, 20)
    t = rng.randint(2, 20)
    kind = rng.randrange(4)
    if kind == 0:
        q = (
            "All rhombuses have four equal sides, and every square is a rhombus. A square has a "
            f"side of {s} cm. What is its perimeter?"
        )
        return _ask(rng, q), f"4 * {s}", str(4 * s)
    if kind == 1:
        q = (
            "Opposite sides of a parallelogram are equal, and a rectangle is a parallelogram. A "
            f"rectangle has sides {s} and {t}. What is its perimeter?"
        )
        return _ask(rng, q), f"2 * ({s} + {t})", str(2 * (s + t))
    if kind == 2:
        ang = rng.randint(40, 140)
        q = (
            "Opposite angles of a parallelogram are equal, and a rhombus is a parallelogram. One "
            f"angle of a rhombus is {ang} degrees. What is the angle opposite it?"
        )
        return _ask(rng, q), str(ang), str(ang)
    q = pick(
        rng,
        (
            "All rectangles have four right angles, and every square is a rectangle. How many "
            "degrees do the four angles of a square add up to?",
            "A square is a special rectangle, and rectangles have four right angles. What is the "
            "sum of the angles of a square, in degrees?",
        ),
    )
    return _ask(rng, q), "4 * 90", "360"


def _g_classify(rng: random.Random) -> Made:
    desc, name = pick(
        rng,
        (
            ("four equal sides and four right angles", "square"),
            ("exactly one pair of parallel sides", "trapezoid"),
            ("four equal sides but no right angles", "rhombus"),
            (
                "two pairs of parallel sides and four right angles, with sides that are not all "
                "equal",
                "rectangle",
            ),
            (
                "two pairs of parallel sides, no right angles and sides not all equal",
                "parallelogram",
            ),
            ("three sides", "triangle"),
        ),
    )
    q = pick(
        rng,
        (
            f"What is the most specific name for a shape with {desc}?",
            f"Classify the figure: it has {desc}.",
            f"a shape has {desc}, what is it called",
        ),
    )
    return _ask(rng, q), repr(name), name


GENERATORS: tuple[Generator, ...] = table(
    ("5.G.A.1/coordinates", "bare", _g_coordinates),
    ("5.G.A.2/graph-story", "word", _g_graph_story),
    ("5.G.B.3/shared-attributes", "bare", _g_attributes),
    ("5.G.B.4/classify", "bare", _g_classify),
)
