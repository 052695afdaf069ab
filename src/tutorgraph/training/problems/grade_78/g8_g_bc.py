"""Grade 8 problem generators: Geometry, clusters B–C.

The standards 8.G.B.7 to 8.G.C.9; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_78._shared import _ans, _e, _name, _round_to, _say

__all__ = ["GENERATORS"]


_TRIPLES = ((3, 4, 5), (5, 12, 13), (8, 15, 17), (7, 24, 25), (6, 8, 10), (9, 12, 15), (20, 21, 29))


def _g8b7_story(rng: random.Random) -> Made:
    a, b, c = pick(rng, _TRIPLES)
    k = pick(rng, (1, 1, 2, 3))
    a, b, c = a * k, b * k, c * k
    n = _name(rng)
    kind = rng.randrange(4)
    if kind == 0:
        text = _say(
            rng,
            (
                "A {c}-foot ladder leans against a wall. Its foot is {a} feet from the wall. "
                "How high up the wall does it reach?",
                "{n} leans a {c} m ladder on a house with the bottom {a} m away. How high is "
                "the top?",
            ),
            a=a,
            c=c,
            n=n,
        )
        return text, f"sqrt({c}**2 - {a}**2)", str(b)
    if kind == 1:
        text = _say(
            rng,
            (
                "A TV screen is {a} in wide and {b} in tall. How long is its diagonal?",
                "A rectangular park is {a} m by {b} m. How long is the path straight across "
                "from corner to corner?",
                "{n} walks {a} blocks east and {b} blocks north. How far is {n} from the start "
                "in a straight line?",
                "how long is the diagonal of a {a} by {b} rectangle",
            ),
            a=a,
            b=b,
            n=n,
        )
        return text, f"sqrt({a}**2 + {b}**2)", str(c)
    if kind == 2:
        text = _say(
            rng,
            (
                "A kite string is {c} m long and the kite is directly above a point {a} m "
                "from {n}. How high is the kite?",
                "A ramp is {c} ft long and covers {a} ft along the ground. How tall is it?",
            ),
            a=a,
            c=c,
            n=n,
        )
        return text, f"sqrt({c}**2 - {a}**2)", str(b)
    l3, w3, h3, d3 = pick(
        rng,
        (
            (1, 2, 2, 3),
            (2, 3, 6, 7),
            (1, 4, 8, 9),
            (2, 6, 9, 11),
            (4, 4, 7, 9),
            (3, 4, 12, 13),
            (2, 10, 11, 15),
        ),
    )
    text = _say(
        rng,
        (
            "A box is {l} ft by {w} ft by {h} ft. What is the length of the longest pole that "
            "fits diagonally from one bottom corner to the opposite top corner?",
            "Find the length of the space diagonal of a rectangular prism {l} by {w} by {h}.",
        ),
        l=l3 * k,
        w=w3 * k,
        h=h3 * k,
    )
    return text, f"sqrt({l3 * k}**2 + {w3 * k}**2 + {h3 * k}**2)", str(d3 * k)


def _g8b7_bare(rng: random.Random) -> Made:
    a, b, c = pick(rng, _TRIPLES)
    k = pick(rng, (1, 2, 3, 4))
    a, b, c = a * k, b * k, c * k
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "A right triangle has legs {a} and {b}. Find the hypotenuse.",
                "The legs of a right triangle are {a} cm and {b} cm. How long is the hypotenuse?",
                "legs {a} and {b}, hypotenuse = ?",
                "Use the Pythagorean Theorem: a = {a}, b = {b}. Find c.",
            ),
            a=a,
            b=b,
        )
        return text, f"sqrt({a}**2 + {b}**2)", str(c)
    text = _say(
        rng,
        (
            "A right triangle has hypotenuse {c} and one leg {a}. Find the other leg.",
            "c = {c}, a = {a}. Find b in a right triangle.",
            "hypotenuse is {c} and a leg is {a}. how long is the other leg",
        ),
        a=a,
        c=c,
    )
    return text, f"sqrt({c}**2 - {a}**2)", str(b)


def _g8b8(rng: random.Random) -> Made:
    a, b, c = pick(rng, _TRIPLES[:5])
    if rng.random() < 0.5:
        a, b = b, a
    x1, y1 = rng.randint(-8, 8), rng.randint(-8, 8)
    x2, y2 = x1 + pick(rng, (1, -1)) * a, y1 + pick(rng, (1, -1)) * b
    text = _say(
        rng,
        (
            "Find the distance between ({a}, {b}) and ({c}, {d}).",
            "How far apart are the points ({a}, {b}) and ({c}, {d})?",
            "Use the Pythagorean Theorem to find the length of the segment from ({a}, {b}) to "
            "({c}, {d}).",
            "distance from ({a},{b}) to ({c},{d})",
        ),
        a=x1,
        b=y1,
        c=x2,
        d=y2,
    )
    return text, f"sqrt(({x2} - {_e(x1)})**2 + ({y2} - {_e(y1)})**2)", str(c)


def _g8b8_story(rng: random.Random) -> Made:
    a, b, c = pick(rng, _TRIPLES[:5])
    x1, y1 = rng.randint(0, 6), rng.randint(0, 6)
    x2, y2 = x1 + a, y1 + b
    n = _name(rng)
    text = _say(
        rng,
        (
            "On a town map, {n}'s house is at ({a}, {b}) and the school is at ({c}, {d}). Each "
            "unit is 1 block. How far is it in a straight line?",
            "A drone flies straight from ({a}, {b}) to ({c}, {d}) on a grid measured in miles. "
            "How far does it fly?",
            "the library is at ({a},{b}) and the park is at ({c},{d}) on the grid. how far "
            "apart are they",
        ),
        n=n,
        a=x1,
        b=y1,
        c=x2,
        d=y2,
    )
    return text, f"sqrt(({x2} - {x1})**2 + ({y2} - {y1})**2)", str(c)


def _g8c9_bare(rng: random.Random) -> Made:
    r, h = rng.randint(1, 10), rng.randint(2, 15)
    shape = pick(rng, ("cylinder", "cone", "sphere"))
    if shape == "cylinder":
        expr, value = f"3.14 * {r}**2 * {h}", Fraction(314, 100) * r * r * h
        desc = f"a cylinder with radius {r} and height {h}"
    elif shape == "cone":
        expr, value = f"1/3 * 3.14 * {r}**2 * {h}", Fraction(314, 300) * r * r * h
        desc = f"a cone with radius {r} and height {h}"
    else:
        expr, value = f"4/3 * 3.14 * {r}**3", Fraction(4 * 314, 300) * r**3
        desc = f"a sphere with radius {r}"
    if value * 100 != int(value * 100):
        expr, value = f"round_to({expr}, 0.01)", _round_to(value, Fraction(1, 100))
        tail = " Round to the nearest hundredth."
    else:
        tail = ""
    text = _say(
        rng,
        (
            "Find the volume of {d}. Use 3.14 for pi.{t}",
            "What is the volume of {d}? (pi ≈ 3.14){t}",
            "Volume of {d}, using 3.14.{t}",
        ),
        d=desc,
        t=tail,
    )
    return text, expr, _ans(value)


def _g8c9_story(rng: random.Random) -> Made:
    r = rng.randint(1, 8)
    h = rng.randint(2, 12) * 3
    n = _name(rng)
    kind = rng.randrange(3)
    if kind == 0:
        text = _say(
            rng,
            (
                "A can of soup is a cylinder with radius {r} cm and height {h} cm. How much "
                "soup does it hold? Use 3.14 for pi.",
                "{n}'s water tank is a cylinder {h} ft tall with a radius of {r} ft. What is "
                "its volume? Use 3.14.",
            ),
            r=r,
            h=h,
            n=n,
        )
        return text, f"3.14 * {r}**2 * {h}", _ans(Fraction(314, 100) * r * r * h)
    if kind == 1:
        text = _say(
            rng,
            (
                "An ice cream cone is {h} cm tall with a radius of {r} cm. What is its volume? "
                "Use 3.14 for pi.",
                "A pile of sand is a cone with radius {r} m and height {h} m. How many cubic "
                "meters of sand? Use 3.14.",
            ),
            r=r,
            h=h,
        )
        return text, f"1/3 * 3.14 * {r}**2 * {h}", _ans(Fraction(314, 300) * r * r * h)
    r = rng.randint(1, 4) * 3
    text = _say(
        rng,
        (
            "A ball has a radius of {r} in. How much air fits inside? Use 3.14 for pi.",
            "A spherical water balloon has radius {r} cm. Find its volume using 3.14.",
            "how much space is in a ball with radius {r} (use 3.14)",
        ),
        r=r,
    )
    return text, f"4/3 * 3.14 * {r}**3", _ans(Fraction(4 * 314, 300) * r**3)


GENERATORS: tuple[Generator, ...] = table(
    ("8.G.B.7/pythagorean-story", "word", _g8b7_story),
    ("8.G.B.7/missing-side", "bare", _g8b7_bare),
    ("8.G.B.8/distance-between-points", "bare", _g8b8),
    ("8.G.B.8/grid-map-story", "word", _g8b8_story),
    ("8.G.C.9/cylinder-cone-sphere", "bare", _g8c9_bare),
    ("8.G.C.9/volume-story", "word", _g8c9_story),
)
