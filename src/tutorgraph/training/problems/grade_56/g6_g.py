"""Grade 6 problem generators: Geometry.

The standards 6.G.A.1 to 6.G.A.4; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_56._shared import (
    F,
    _ask,
    _d,
    _f,
    _fa,
    _fe,
    _frac,
    _m,
    _name,
)

__all__ = ["GENERATORS"]


def _g6_area_bare(rng: random.Random) -> Made:
    b, h = rng.randint(2, 30), rng.randint(2, 30)
    kind = rng.randrange(4)
    if kind == 0:
        q = pick(
            rng,
            (
                f"Find the area of a triangle with base {b} and height {h}.",
                f"A right triangle has legs {b} cm and {h} cm. What is its area?",
                f"area of triangle b = {b}, h = {h}",
            ),
        )
        return _ask(rng, q), f"{b} * {h} / 2", _d(F(b * h, 2))
    if kind == 1:
        q = f"Find the area of a parallelogram with base {b} m and height {h} m."
        return _ask(rng, q), f"{b} * {h}", str(b * h)
    if kind == 2:
        a = rng.randint(2, 30)
        q = f"A trapezoid has parallel sides {a} and {b} and a height of {h}. What is its area?"
        return _ask(rng, q), f"({a} + {b}) / 2 * {h}", _d(F((a + b) * h, 2))
    d1, d2 = rng.randint(2, 20) * 2, rng.randint(2, 20)
    q = (
        f"A rhombus has diagonals of {d1} and {d2} inches. Decompose it into triangles to find its "
        "area."
    )
    return _ask(rng, q), f"{d1} * {d2} / 2", str(d1 * d2 // 2)


def _g6_area_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(3)
    if kind == 0:
        b, h = rng.randint(3, 20), rng.randint(3, 20)
        q = (
            f"A triangular sail has a base of {b} feet and a height of {h} feet. How much fabric "
            "is in the sail?"
        )
        return _ask(rng, q), f"{b} * {h} / 2", _d(F(b * h, 2))
    if kind == 1:
        L, W, l2, w2 = rng.randint(10, 20), rng.randint(8, 15), rng.randint(2, 7), rng.randint(2, 6)
        q = (
            f"{who}'s room is a {L} ft by {W} ft rectangle with a {l2} ft by {w2} ft closet cut "
            "out of one corner. What is the floor area?"
        )
        return _ask(rng, q), f"{L} * {W} - {l2} * {w2}", str(L * W - l2 * w2)
    a, b, h = rng.randint(4, 20), rng.randint(4, 20), rng.randint(3, 12)
    q = (
        f"A garden is shaped like a trapezoid with parallel sides {a} m and {b} m, {h} m apart. "
        "What is its area?"
    )
    return _ask(rng, q), f"({a} + {b}) * {h} / 2", _d(F((a + b) * h, 2))


def _g6_volume_bare(rng: random.Random) -> Made:
    dims = [_frac(rng, (2, 3, 4), proper=rng.random() < 0.4) for _ in range(3)]
    ln, w, h = dims
    if rng.random() < 0.3:
        c = F(1, 2) if all(x.denominator == 2 for x in dims) else F(1, 12)
        q = (
            f"How many cubes with edge {_f(c)} unit fill a prism {_m(ln)} by {_m(w)} by {_m(h)} "
            "units?"
        )
        return (
            _ask(rng, q),
            f"{_fe(ln)} * {_fe(w)} * {_fe(h)} / {_fe(c)} ** 3",
            str(ln * w * h / c**3),
        )
    q = pick(
        rng,
        (
            f"Find the volume of a rectangular prism with edges {_m(ln)}, {_m(w)} and {_m(h)} "
            "units.",
            f"V = lwh with l = {_m(ln)}, w = {_m(w)}, h = {_m(h)}. Find V.",
            f"volume of a box {_m(ln)} by {_m(w)} by {_m(h)}",
        ),
    )
    return _ask(rng, q), f"{_fe(ln)} * {_fe(w)} * {_fe(h)}", _fa(rng, ln * w * h)


def _g6_volume_story(rng: random.Random) -> Made:
    who = _name(rng)
    ln, w, h = (
        F(rng.randint(2, 8)) + F(1, 2),
        F(rng.randint(1, 6)),
        _frac(rng, (2, 4), proper=False),
    )
    what = pick(rng, ("jewelry box", "fish tank", "planter", "drawer", "gift box"))
    if rng.random() < 0.6:
        q = (
            f"{who}'s {what} is {_m(ln)} in. long, {_m(w)} in. wide and {_m(h)} in. tall. What is "
            "its volume in cubic inches?"
        )
        return _ask(rng, q), f"{_fe(ln)} * {_fe(w)} * {_fe(h)}", _fa(rng, ln * w * h)
    b = ln * w
    q = (
        f"The base of a {what} has area {_m(b)} square feet and its height is {_m(h)} feet. Use V "
        "= bh to find its volume."
    )
    return _ask(rng, q), f"{_fe(b)} * {_fe(h)}", _fa(rng, b * h)


def _g6_coords_bare(rng: random.Random) -> Made:
    x1, x2 = rng.randint(-9, -1), rng.randint(1, 9)
    y1, y2 = rng.randint(-9, -1), rng.randint(1, 9)
    pts = f"({x1}, {y2}), ({x2}, {y2}), ({x2}, {y1}) and ({x1}, {y1})"
    kind = rng.randrange(3)
    if kind == 0:
        q = f"A rectangle has vertices {pts}. What is its perimeter?"
        return (
            _ask(rng, q),
            f"2 * (abs({x2} - ({x1})) + abs({y2} - ({y1})))",
            str(2 * (x2 - x1 + y2 - y1)),
        )
    if kind == 1:
        q = f"Draw the rectangle with vertices {pts}. What is its area?"
        return _ask(rng, q), f"abs({x2} - ({x1})) * abs({y2} - ({y1}))", str((x2 - x1) * (y2 - y1))
    q = f"A polygon has vertices {pts}. How long is the side from ({x2}, {y2}) to ({x2}, {y1})?"
    return _ask(rng, q), f"abs({y2} - ({y1}))", str(y2 - y1)


def _g6_coords_story(rng: random.Random) -> Made:
    who = _name(rng)
    x1, x2 = rng.randint(-8, 0), rng.randint(1, 8)
    y1, y2 = rng.randint(-8, 0), rng.randint(1, 8)
    q = pick(
        rng,
        (
            f"{who} fences a rectangular garden with corners at ({x1}, {y1}), ({x2}, {y1}), ({x2}, "
            f"{y2}) and ({x1}, {y2}). Each unit is 1 meter. How much fence is needed?",
            f"A park on a map has corners ({x1}, {y1}), ({x2}, {y1}), ({x2}, {y2}), ({x1}, {y2}), "
            "units in yards. What is the perimeter of the park?",
        ),
    )
    return _ask(rng, q), f"2 * (({x2} - ({x1})) + ({y2} - ({y1})))", str(2 * (x2 - x1 + y2 - y1))


def _g6_surface_bare(rng: random.Random) -> Made:
    kind = rng.randrange(4)
    if kind == 0:
        ln, w, h = rng.randint(2, 12), rng.randint(2, 10), rng.randint(2, 10)
        q = f"Use a net to find the surface area of a rectangular prism {ln} by {w} by {h}."
        return (
            _ask(rng, q),
            f"2 * ({ln} * {w} + {ln} * {h} + {w} * {h})",
            str(2 * (ln * w + ln * h + w * h)),
        )
    if kind == 1:
        s = rng.randint(2, 12)
        q = f"The net of a cube is made of 6 squares with side {s} cm. What is the surface area?"
        return _ask(rng, q), f"6 * {s} ** 2", str(6 * s * s)
    if kind == 2:
        s = rng.randint(2, 12)
        sl = rng.randint(s // 2 + 1, s // 2 + 12)
        q = (
            f"A square pyramid has a base side of {s} m and triangular faces with slant height "
            f"{sl} m. Find its surface area from the net."
        )
        return _ask(rng, q), f"{s} ** 2 + 4 * ({s} * {sl} / 2)", str(s * s + 2 * s * sl)
    k, L = rng.randint(1, 3), rng.randint(4, 15)
    a, b, c = 3 * k, 4 * k, 5 * k
    q = (
        f"A triangular prism has right-triangle ends with sides {a}, {b} and {c} in. and a length "
        f"of {L} in. What is its surface area?"
    )
    return (
        _ask(rng, q),
        f"2 * ({a} * {b} / 2) + {L} * ({a} + {b} + {c})",
        str(a * b + L * (a + b + c)),
    )


def _g6_surface_story(rng: random.Random) -> Made:
    who = _name(rng)
    ln, w, h = rng.randint(4, 20), rng.randint(3, 15), rng.randint(2, 10)
    q = pick(
        rng,
        (
            f"{who} wraps a gift box {ln} in. by {w} in. by {h} in. How many square inches of "
            "paper "
            "cover it exactly?",
            f"How much cardboard is needed to make a closed box {ln} cm long, {w} cm wide and {h} "
            "cm tall?",
            f"{who} paints all six faces of a crate {ln} ft by {w} ft by {h} ft. how many square "
            "feet get painted",
        ),
    )
    return (
        _ask(rng, q),
        f"2 * ({ln} * {w} + {ln} * {h} + {w} * {h})",
        str(2 * (ln * w + ln * h + w * h)),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("6.G.A.1/area", "bare", _g6_area_bare),
    ("6.G.A.1/area-story", "word", _g6_area_story),
    ("6.G.A.2/fractional-volume", "bare", _g6_volume_bare),
    ("6.G.A.2/fractional-volume-story", "word", _g6_volume_story),
    ("6.G.A.3/polygon-coordinates", "bare", _g6_coords_bare),
    ("6.G.A.3/coordinates-story", "word", _g6_coords_story),
    ("6.G.A.4/surface-area", "bare", _g6_surface_bare),
    ("6.G.A.4/surface-area-story", "word", _g6_surface_story),
)
