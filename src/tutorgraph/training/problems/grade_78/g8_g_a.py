"""Grade 8 problem generators: Geometry, cluster A.

The standards 8.G.A.1 to 8.G.A.5; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_78._shared import _ans, _e, _name, _num, _nz, _say

__all__ = ["GENERATORS"]


def _g8a1a(rng: random.Random) -> Made:
    x1, y = rng.randint(-8, 3), rng.randint(-6, 6)
    x2 = x1 + rng.randint(2, 10)
    move = pick(
        rng,
        (
            "translated 3 units up",
            "reflected across the y-axis",
            "rotated 90° about the origin",
            "reflected across the x-axis",
            "translated 4 left and 2 down",
            "rotated 180° about the origin",
        ),
    )
    text = _say(
        rng,
        (
            "Segment AB goes from ({a}, {y}) to ({b}, {y}). It is {m}. How long is the image "
            "segment A'B'?",
            "A segment with endpoints ({a}, {y}) and ({b}, {y}) is {m}. What is the length of "
            "its image?",
            "if the segment from ({a},{y}) to ({b},{y}) gets {m}, how long is the new segment",
        ),
        a=x1,
        b=x2,
        y=y,
        m=move,
    )
    return text, f"abs({x2} - {_e(x1)})", str(x2 - x1)


def _g8a1b(rng: random.Random) -> Made:
    a, b = rng.randint(20, 90), rng.randint(20, 70)
    move = pick(
        rng, ("rotated 90°", "reflected over a line", "translated 5 units right", "rotated 180°")
    )
    text = _say(
        rng,
        (
            "Triangle ABC has angle A = {a}° and angle B = {b}°. It is {m} to make triangle "
            "A'B'C'. What is the measure of angle C'?",
            "A triangle with angles {a}° and {b}° is {m}. What is the third angle of the image?",
            "triangle angles {a} and {b}, then it gets {m}. what is angle C' in the image",
        ),
        a=a,
        b=b,
        m=move,
    )
    return text, f"180 - {a} - {b}", str(180 - a - b)


def _g8a3_bare(rng: random.Random) -> Made:
    x, y = _nz(rng, -9, 9), _nz(rng, -9, 9)
    kind = rng.randrange(5)
    ask = pick(rng, ("x", "y"))
    if kind == 0:
        dx, dy = _nz(rng, -6, 6), _nz(rng, -6, 6)
        how = f"translated by (x + {dx}, y + {dy})".replace("+ -", "- ")
        nx, ny, ex, ey = x + dx, y + dy, f"{_e(x)} + {_e(dx)}", f"{_e(y)} + {_e(dy)}"
    elif kind == 1:
        how = "reflected across the x-axis"
        nx, ny, ex, ey = x, -y, _e(x), f"-{_e(y)}"
    elif kind == 2:
        how = "reflected across the y-axis"
        nx, ny, ex, ey = -x, y, f"-{_e(x)}", _e(y)
    elif kind == 3:
        how = "rotated 90° counterclockwise about the origin"
        nx, ny, ex, ey = -y, x, f"-{_e(y)}", _e(x)
    else:
        k = pick(rng, (Fraction(2), Fraction(3), Fraction(4), Fraction(1, 2)))
        if k == Fraction(1, 2):
            x, y = 2 * x, 2 * y
        how = f"dilated by a scale factor of {_num(k)} centered at the origin"
        nx, ny = int(k * x), int(k * y)
        ex, ey = f"{_e(k)} * {_e(x)}", f"{_e(k)} * {_e(y)}"
    text = _say(
        rng,
        (
            "The point ({x}, {y}) is {h}. What is the {a}-coordinate of its image?",
            "Point P({x}, {y}) is {h}. Give the {a}-coordinate of P'.",
            "A vertex of a triangle at ({x}, {y}) is {h}. What is the new {a}-coordinate?",
            "({x}, {y}) {h}, what's the {a} coordinate after",
        ),
        x=x,
        y=y,
        h=how,
        a=ask,
    )
    return (text, ex, str(nx)) if ask == "x" else (text, ey, str(ny))


def _g8a3_story(rng: random.Random) -> Made:
    n = _name(rng)
    x, y = rng.randint(-8, 8), rng.randint(-8, 8)
    dx, dy = rng.randint(1, 7), rng.randint(1, 7)
    left, down = rng.random() < 0.5, rng.random() < 0.5
    sx, sy = -dx if left else dx, -dy if down else dy
    ask = pick(rng, ("x", "y"))
    text = _say(
        rng,
        (
            "{n} is designing a video game. A character at ({x}, {y}) moves {dx} units {lr} "
            "and {dy} units {ud}. What is its new {a}-coordinate?",
            "On a map grid, a boat at ({x}, {y}) sails {dx} units {lr} and {dy} units {ud}. "
            "What is the {a}-coordinate of its new position?",
            "{n} slides a shape so the corner at ({x}, {y}) moves {dx} {lr} and {dy} {ud}. "
            "what is the new {a}",
        ),
        n=n,
        x=x,
        y=y,
        dx=dx,
        dy=dy,
        lr="left" if left else "right",
        ud="down" if down else "up",
        a=ask,
    )
    if ask == "x":
        return text, f"{_e(x)} + {_e(sx)}", str(x + sx)
    return text, f"{_e(y)} + {_e(sy)}", str(y + sy)


def _g8a4(rng: random.Random) -> Made:
    sides = sorted(rng.sample(range(2, 13), 3))
    k = pick(rng, tuple(Fraction(v, 2) for v in (4, 6, 8, 10, 1, 3)))
    if k.denominator != 1:
        sides = [2 * s for s in sides]
    image = [k * s for s in sides]
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "Triangle ABC has sides {a}. It is dilated, then rotated, to get a similar "
                "triangle with sides {b}. What is the scale factor of the dilation?",
                "Two similar triangles have sides {a} and {b}. What scale factor takes the "
                "first to the second?",
                "a triangle with sides {a} becomes one with sides {b}. whats the scale factor",
            ),
            a=", ".join(map(str, sides)),
            b=", ".join(_num(s) for s in image),
        )
        return text, f"{_e(image[0])} / {sides[0]}", _ans(k)
    text = _say(
        rng,
        (
            "Triangle ABC with sides {a} is similar to triangle DEF. The side matching {s0} is "
            "{t0}. How long is the side of DEF matching {s2}?",
            "A figure with sides {a} is dilated and reflected. The side that was {s0} is now "
            "{t0}. What is the image of the side that was {s2}?",
        ),
        a=", ".join(map(str, sides)),
        s0=sides[0],
        t0=_num(image[0]),
        s2=sides[2],
    )
    return text, f"{_e(image[0])} / {sides[0]} * {sides[2]}", _ans(image[2])


def _g8a4_story(rng: random.Random) -> Made:
    w, h = rng.randint(2, 8), rng.randint(3, 10)
    k = rng.randint(2, 5)
    text = _say(
        rng,
        (
            "A photo is {w} in wide and {h} in tall. It is enlarged to a similar photo {W} in "
            "wide. How tall is the enlargement?",
            "{n} scales a drawing {w} cm by {h} cm up so the width becomes {W} cm. Keeping it "
            "similar, what is the new height?",
            "a {w} by {h} picture gets blown up so the {w} side is {W}. how long is the {h} "
            "side now",
        ),
        w=w,
        h=h,
        W=w * k,
        n=_name(rng),
    )
    return text, f"{w * k} / {w} * {h}", str(h * k)


def _g8a5_tri(rng: random.Random) -> Made:
    a, b = rng.randint(15, 100), rng.randint(15, 60)
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "Two angles of a triangle measure {a}° and {b}°. What is the third angle?",
                "A triangle has angles of {a}° and {b}°. Find the missing angle.",
                "triangle angles {a} and {b}, what's the third",
                "In triangle PQR, angle P = {a}° and angle Q = {b}°. Find angle R.",
            ),
            a=a,
            b=b,
        )
        return text, f"180 - {a} - {b}", str(180 - a - b)
    text = _say(
        rng,
        (
            "The two remote interior angles of a triangle are {a}° and {b}°. What is the "
            "exterior angle?",
            "An exterior angle of a triangle is formed at C. Angles A and B are {a}° and {b}°. "
            "Find the exterior angle at C.",
            "exterior angle of a triangle when the other two inside angles are {a} and {b}?",
        ),
        a=a,
        b=b,
    )
    return text, f"{a} + {b}", str(a + b)


def _g8a5_par(rng: random.Random) -> Made:
    ang = rng.randint(25, 155)
    kind = pick(
        rng, ("alternate interior", "corresponding", "same-side interior", "alternate exterior")
    )
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "Two parallel lines are cut by a transversal. One angle is {a}°. What is the "
                "measure of its {k} angle?",
                "Lines m and n are parallel. An angle of {a}° and its {k} angle are formed by "
                "a transversal. Find the {k} angle.",
                "parallel lines, transversal, angle is {a}. whats the {k} angle",
            ),
            a=ang,
            k=kind,
        )
        if kind == "same-side interior":
            return text, f"180 - {ang}", str(180 - ang)
        return text, f"{ang}", str(ang)
    m = rng.randint(2, 5)
    x = rng.randint(5, 30)
    c = rng.randint(-10, 20)
    value = m * x + c
    if not 0 < value < 180:
        c = 10
        value = m * x + c
    equal = kind != "same-side interior"
    other = value if equal else 180 - value
    text = _say(
        rng,
        (
            "Parallel lines are cut by a transversal. Two {k} angles measure ({m}x + {c})° "
            "and {o}°. Find x.",
            "The {k} angles are ({m}x + {c})° and {o}° (the lines are parallel). What is x?",
        ),
        k=kind,
        m=m,
        c=c,
        o=other,
    )
    expr = f"({other} - {_e(c)}) / {m}" if equal else f"(180 - {other} - {_e(c)}) / {m}"
    return text, expr, str(x)


GENERATORS: tuple[Generator, ...] = table(
    ("8.G.A.1.a/segment-length-kept", "bare", _g8a1a),
    ("8.G.A.1.b/angle-measure-kept", "bare", _g8a1b),
    ("8.G.A.3/transform-coordinates", "bare", _g8a3_bare),
    ("8.G.A.3/transform-drawing-story", "word", _g8a3_story),
    ("8.G.A.4/similar-figures", "bare", _g8a4),
    ("8.G.A.4/enlarge-photo-story", "word", _g8a4_story),
    ("8.G.A.5/triangle-angles", "bare", _g8a5_tri),
    ("8.G.A.5/parallel-lines-transversal", "bare", _g8a5_par),
)
