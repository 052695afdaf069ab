"""Grade 3 problem generators: Measurement and Data, clusters C–D.

The standards 3.MD.C.5 to 3.MD.D.8; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import NAMES, pick
from tutorgraph.training.problems.grade_34._shared import _say, _x

__all__ = ["GENERATORS"]


def _g3md5b(rng: random.Random) -> Made:
    a, b = rng.randint(3, 20), rng.randint(2, 15)
    name = pick(rng, NAMES)
    text = _say(rng, (
        "{name} covers a shape with {a} red unit squares and {b} blue unit squares, with no gaps "
        "or overlaps. What is the area in square units?",
        "A figure is covered by {a} unit squares on the top part and {b} unit squares on the "
        "bottom part, no gaps and no overlaps. What is its area?",
        "A shape can be covered with {a} square tiles, each 1 square unit, and {b} more tiles. How "
        "many square units is its area?",
        "if a shape is covered by {a} unit squares plus {b} unit squares with no gaps what is the "
        "area",
    ), a=a, b=b, name=name)  # fmt: skip
    return text, f"{a} + {b}", str(a + b)


def _g3md5a(rng: random.Random) -> Made:
    unit = pick(rng, ("cm", "inch", "meter", "foot", "unit"))
    n = rng.randint(2, 12)
    if rng.random() < 0.3:
        text = pick(rng, (
            f"A square has sides of 1 {unit}. What is its area in square units?",
            f"what is the area of a unit square with side 1 {unit}",
        ))  # fmt: skip
        return text, "1 * 1", "1"
    text = pick(rng, (
        f"A unit square has an area of 1 square unit. How many square units do {n} unit squares "
        "cover?",
        f"{pick(rng, NAMES)} lines up {n} unit squares, each with side 1 {unit}. What is the area "
        "in square units?",
        f"each square is 1 {unit} on a side so it is one square unit. what is the area of {n} of "
        "them",
        f"How many square units is a strip of {n} unit squares?",
    ))  # fmt: skip
    return text, f"{n} * 1", str(n)


def _g3md6(rng: random.Random) -> Made:
    rows = [rng.randint(2, 8) for _ in range(rng.randint(2, 4))]
    unit, one = pick(rng, (
        ("square centimeters", "1 square centimeter"), ("square inches", "1 square inch"),
        ("square meters", "1 square meter"), ("square feet", "1 square foot"),
        ("sticky notes", "1 sticky note, our own square unit"),
    ))  # fmt: skip
    desc = ", ".join(f"row {i + 1} has {n}" for i, n in enumerate(rows))
    text = _say(rng, (
        "A shape on grid paper has shaded unit squares: {d}. Each square is {one}. "
        "What is the area?",
        "Count the squares: {d}. What is the area in {u}?",
        "{name} covers a table top with {u}: {d}. How many {u} cover it?",
        "the shaded squares go {d}, what is the area in {u}",
    ), d=desc, u=unit, one=one, name=pick(rng, NAMES))  # fmt: skip
    return text, " + ".join(map(str, rows)), str(sum(rows))


def _g3md7a(rng: random.Random) -> Made:
    r, c = rng.randint(2, 10), rng.randint(2, 10)
    name = pick(rng, NAMES)
    text = _say(rng, (
        "A rectangle is tiled with unit squares: {r} rows of {c} squares. What is its area in "
        "square units?",
        "{name} tiles a rectangle {r} units by {c} units with unit squares. How many squares does "
        "{name} use?",
        "A rectangle has side lengths {r} and {c} units. Tile it and find the area.",
        "{name} counted the tiles in a {r} by {c} rectangle one by one. Multiply the sides to "
        "check. What is the area?",
        "how many unit squares cover a rectangle that is {r} by {c}",
    ), r=r, c=c, name=name)  # fmt: skip
    return text, f"{r} * {c}", str(r * c)


def _g3md7b_story(rng: random.Random) -> Made:
    a, b = rng.randint(2, 10), rng.randint(2, 10)
    thing, unit = pick(rng, (
        ("garden", "meters"), ("garden", "feet"), ("rug", "feet"), ("poster", "inches"),
        ("patio", "yards"), ("classroom floor", "meters"), ("table top", "feet"),
        ("sandbox", "feet"), ("photo", "centimeters"), ("placemat", "inches"),
    ))  # fmt: skip
    name = pick(rng, NAMES)
    text = _say(rng, (
        "{name}'s {t} is a rectangle {a} {u} long and {b} {u} wide. What is its area in square "
        "{u}?",
        "A rectangular {t} measures {a} {u} by {b} {u}. How many square {u} is it?",
        "How much space does a {t} take up if it is {a} {u} by {b} {u}?",
        "{name} wants to cover a {t} that is {a} {u} by {b} {u}. How many square {u} does {name} "
        "need?",
        "our {t} is {a} {u} long and {b} {u} wide what is the area",
    ), a=a, b=b, u=unit, name=name, t=thing)  # fmt: skip
    return text, f"{a} * {b}", str(a * b)


def _g3md7b_bare(rng: random.Random) -> Made:
    a, b = rng.randint(2, 10), rng.randint(2, 10)
    unit = pick(rng, ("cm", "m", "in", "ft", "units"))
    text = pick(rng, (
        f"Find the area of a rectangle with side lengths {a} {unit} and {b} {unit}.",
        f"Area of a {a} {unit} by {b} {unit} rectangle = ?",
        f"what is the area of a rectangle {a} by {b}",
        f"A rectangle is {a} {unit} long and {b} {unit} wide. Area?",
        f"Draw a rectangle to show {a} {_x(rng)} {b}. What is its area?",
    ))  # fmt: skip
    return text, f"{a} * {b}", str(a * b)


def _g3md7c(rng: random.Random) -> Made:
    a, b, c = rng.randint(2, 9), rng.randint(2, 10), rng.randint(1, 5)
    x = _x(rng)
    text = pick(rng, (
        f"A rectangle is {a} by {b + c}. Split the {b + c} side into {b} and {c}. Find the area as "
        f"{a} {x} {b} + {a} {x} {c}.",
        f"Use an area model: {a} {x} ({b} + {c}) = {a} {x} {b} + {a} {x} {c}. What is the total "
        "area?",
        f"An area model for {a} {x} {b + c} splits {b + c} into {b} and {c}. What is the total "
        "area?",
        f"how do i use tiling to show {a} x {b + c} is {a} x {b} plus {a} x {c}, what is the area",
        f"A {a} by {b + c} rectangle is cut into a {a} by {b} part and a {a} by {c} part. Add the "
        "two areas.",
    ))  # fmt: skip
    return text, f"{a} * {b} + {a} * {c}", str(a * (b + c))


def _g3md7d(rng: random.Random) -> Made:
    a, b = rng.randint(3, 10), rng.randint(2, 8)
    c, d = rng.randint(2, a - 1), rng.randint(2, 6)
    unit = pick(rng, ("m", "ft", "cm", "yd"))
    name = pick(rng, NAMES)
    text = _say(rng, (
        "An L-shaped figure is made of a {a} {u} by {b} {u} rectangle and a {c} {u} by {d} {u} "
        "rectangle that do not overlap. What is its total area?",
        "{name}'s room is L-shaped. One part is {a} {u} by {b} {u}; the other part is {c} {u} by "
        "{d} {u}. How many square {u} of carpet does {name} need?",
        "Split the figure into two rectangles, {a} by {b} and {c} by {d}. What is the area of the "
        "whole figure in square {u}?",
        "a garden is two rectangles {a} {u} x {b} {u} and {c} {u} x {d} {u} what is the area",
        "Find the area of the rectilinear figure: it decomposes into a {a} {u} by {b} {u} "
        "rectangle and a {c} {u} by {d} {u} rectangle.",
    ), a=a, b=b, c=c, d=d, u=unit, name=name)  # fmt: skip
    return text, f"{a} * {b} + {c} * {d}", str(a * b + c * d)


def _g3md8(rng: random.Random) -> Made:
    unit = pick(rng, ("cm", "m", "in", "ft"))
    mode = rng.randrange(4)
    if mode == 0:
        sides = [rng.randint(2, 20) for _ in range(rng.randint(3, 6))]
        shape = {3: "triangle", 4: "quadrilateral", 5: "pentagon", 6: "hexagon"}[len(sides)]
        s = ", ".join(f"{v} {unit}" for v in sides)
        text = pick(
            rng,
            (
                f"A {shape} has sides of {s}. What is its perimeter?",
                f"find the perimeter of a {shape} with sides {s}",
                f"Perimeter = ? The sides are {s}.",
            ),
        )
        return text, " + ".join(map(str, sides)), str(sum(sides))
    if mode == 1:
        sides = [rng.randint(2, 15) for _ in range(3)]
        last = rng.randint(2, 15)
        p = sum(sides) + last
        s = ", ".join(f"{v} {unit}" for v in sides)
        text = pick(
            rng,
            (
                f"A quadrilateral has a perimeter of {p} {unit}. Three sides are {s}. How long is "
                "the fourth side?",
                f"perimeter is {p} {unit} and three sides are {s} what is the missing side",
            ),
        )
        return text, f"{p} - " + " - ".join(map(str, sides)), str(last)
    ln, w = rng.randint(2, 15), rng.randint(2, 15)
    if mode == 2:
        text = pick(
            rng,
            (
                f"What is the perimeter of a rectangle {ln} {unit} long and {w} {unit} wide?",
                f"find the perimeter of a {ln} by {w} rectangle",
                f"A square has sides of {ln} {unit}. What is its perimeter?",
            ),
        )
        if "square" in text:
            return text, f"4 * {ln}", str(4 * ln)
        return text, f"2 * ({ln} + {w})", str(2 * (ln + w))
    p = 2 * (ln + w)
    text = pick(
        rng,
        (
            f"A rectangle has a perimeter of {p} {unit} and a length of {ln} {unit}. What is its "
            "width?",
            f"rectangle perimeter {p} {unit}, one side {ln} {unit}, how long is the other side",
        ),
    )
    return text, f"({p} - 2 * {ln}) / 2", str(w)


def _g3md8_story(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    ln, w = rng.randint(3, 20), rng.randint(2, 12)
    mode = rng.randrange(3)
    if mode == 0:
        text = _say(rng, (
            "{name} puts a fence around a rectangular garden {ln} feet long and {w} feet wide. How "
            "many feet of fence does {name} need?",
            "A picture frame is {ln} inches by {w} inches. How much ribbon goes all the way around "
            "it?",
            "how many meters is it around a rectangle field {ln} m by {w} m",
            "{name} walks around a park shaped like a rectangle, {ln} yards by {w} yards. How far "
            "does {name} walk?",
        ), name=name, ln=ln, w=w)  # fmt: skip
        return text, f"2 * {ln} + 2 * {w}", str(2 * ln + 2 * w)
    if mode == 1:
        p = 2 * (ln + w)
        text = _say(rng, (
            "{name} used {p} feet of fence around a rectangular pen. The pen is {ln} feet long. "
            "How "
            "wide is it?",
            "A rectangle has a perimeter of {p} cm. One side is {ln} cm. How long is the side next "
            "to it?",
        ), name=name, ln=ln, p=p)  # fmt: skip
        return text, f"({p} - 2 * {ln}) / 2", str(w)
    a, b = rng.randint(1, 5), rng.randint(6, 11)
    c, d = rng.randint(1, 5), 0
    d = a + b - c
    if c == a:
        c, d = a + 1, b - 1
    text = _say(rng, (
        "Two rectangles have the same perimeter: one is {a} by {b}, the other is {c} by {d}. How "
        "much bigger is the area of the larger one?",
        "{name} makes two rectangle gardens with the same perimeter, {a} m by {b} m and {c} m by "
        "{d} m. What is the difference in their areas?",
    ), name=name, a=a, b=b, c=c, d=d)  # fmt: skip
    return text, f"abs({a} * {b} - {c} * {d})", str(abs(a * b - c * d))


GENERATORS: tuple[Generator, ...] = table(
    ("3.MD.C.5.b/unit-squares", "word", _g3md5b),
    ("3.MD.C.5.a/unit-square", "bare", _g3md5a),
    ("3.MD.C.6/count-squares", "word", _g3md6),
    ("3.MD.C.7.a/tiling", "word", _g3md7a),
    ("3.MD.C.7.b/area-story", "word", _g3md7b_story),
    ("3.MD.C.7.b/area", "bare", _g3md7b_bare),
    ("3.MD.C.7.c/distributive-area", "bare", _g3md7c),
    ("3.MD.C.7.d/rectilinear", "word", _g3md7d),
    ("3.MD.D.8/perimeter", "bare", _g3md8),
    ("3.MD.D.8/perimeter-story", "word", _g3md8_story),
)
