"""Grade 7 problem generators: Geometry, cluster A.

The standards 7.G.A.1 to 7.G.A.3; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_78._shared import _ans, _e, _name, _num, _say

__all__ = ["GENERATORS"]


def _g1_story(rng: random.Random) -> Made:
    n = _name(rng)
    kind = rng.randrange(4)
    if kind == 0:
        scale = pick(rng, (5, 10, 20, 25, 50, 100))
        d = Fraction(rng.randint(10, 120), 10)
        text = _say(
            rng,
            (
                "On a map, 1 cm represents {s} km. Two towns are {d} cm apart on the map. How "
                "far apart are they really?",
                "A map scale is 1 cm : {s} km. A road measures {d} cm. What is its actual "
                "length in km?",
                "map says 1 cm = {s} km and the distance is {d} cm. how many km",
            ),
            s=scale,
            d=_num(d),
        )
        return text, f"{_e(d)} * {scale}", _ans(d * scale)
    if kind == 1:
        ft = pick(rng, (2, 3, 4, 5, 8))
        a = Fraction(rng.randint(4, 20), 2)
        b = Fraction(rng.randint(4, 16), 2)
        text = _say(
            rng,
            (
                "In a floor plan, 1 inch represents {f} feet. A room is {a} in by {b} in on "
                "the plan. What is the actual area of the room in square feet?",
                "A scale drawing of a patio uses 1 in = {f} ft. The patio is {a} in long and "
                "{b} in wide on the drawing. Find its real area.",
            ),
            f=ft,
            a=_num(a),
            b=_num(b),
        )
        return text, f"({_e(a)} * {ft}) * ({_e(b)} * {ft})", _ans(a * ft * b * ft)
    if kind == 2:
        old = pick(rng, (2, 3, 4))
        new = pick(rng, (1, 5, 6, 8))
        length = rng.randint(2, 12) * new
        text = _say(
            rng,
            (
                "A drawing uses 1 cm for {o} m. A wall is {l} cm long on it. {n} redraws it "
                "at 1 cm for {w} m. How long is the wall in the new drawing (cm)?",
                "A scale drawing at 1 cm : {o} m shows a pool {l} cm long. How long would it "
                "be at 1 cm : {w} m?",
            ),
            o=old,
            l=length,
            w=new,
            n=n,
        )
        return text, f"{length} * {old} / {new}", _ans(Fraction(length * old, new))
    model = pick(rng, (24, 36, 48, 50, 64, 72, 100))
    size = rng.randint(2, 30)
    text = _say(
        rng,
        (
            "A model car is built at a scale of 1 : {m}. The model is {s} cm long. How long is "
            "the real car in cm?",
            "A model train uses a 1 to {m} scale. A model wagon is {s} inches long. What is "
            "the actual length in inches?",
        ),
        m=model,
        s=size,
    )
    return text, f"{size} * {model}", str(size * model)


def _g1_bare(rng: random.Random) -> Made:
    scale = pick(rng, (2, 3, 4, 5, 10, 50))
    drawn = rng.randint(2, 15)
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "A scale drawing has a scale of 1 : {s}. A side is {d} cm in the drawing. How "
                "long is it actually (cm)?",
                "Scale 1 unit : {s} units. Drawing length {d}. Actual length?",
                "The scale is 1 to {s}. Find the actual length of a {d} cm segment.",
            ),
            s=scale,
            d=drawn,
        )
        return text, f"{drawn} * {scale}", str(drawn * scale)
    w = rng.randint(2, 12)
    text = _say(
        rng,
        (
            "A rectangle in a scale drawing is {d} cm by {w} cm. The scale is 1 cm : {s} m. "
            "What is the actual area in square meters?",
            "Scale 1 : {s}. A drawn rectangle is {d} by {w}. Find the actual area.",
        ),
        d=drawn,
        w=w,
        s=scale,
    )
    return text, f"({drawn} * {scale}) * ({w} * {scale})", str(drawn * w * scale * scale)


def _g2(rng: random.Random) -> Made:
    a = rng.randint(2, 20)
    b = rng.randint(2, 20)
    big, small = max(a, b), min(a, b)
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "Two sides of a triangle are {a} cm and {b} cm. What is the greatest whole "
                "number length the third side can have?",
                "A triangle has sides {a} and {b}. What is the largest whole-number third "
                "side that still makes a triangle?",
                "{n} has straws {a} in and {b} in long. What is the longest whole-inch straw "
                "that can close a triangle?",
                "whats the biggest the third side can be if two sides are {a} and {b} "
                "(whole numbers)",
            ),
            a=a,
            b=b,
            n=_name(rng),
        )
        return text, f"{a} + {b} - 1", str(a + b - 1)
    text = _say(
        rng,
        (
            "Two sides of a triangle are {a} m and {b} m. What is the smallest whole number "
            "length the third side can have?",
            "Can you build a triangle? Sides {a} and {b} are given. What is the least "
            "whole-number third side that works?",
            "{n} cuts sticks of {a} cm and {b} cm. What is the shortest whole-cm third stick "
            "that makes a triangle?",
        ),
        a=a,
        b=b,
        n=_name(rng),
    )
    return text, f"abs({big} - {small}) + 1", str(big - small + 1)


def _g3(rng: random.Random) -> Made:
    ln, w, h = rng.randint(2, 15), rng.randint(2, 12), rng.randint(2, 15)
    kind = rng.randrange(4)
    if kind == 0:
        text = _say(
            rng,
            (
                "A right rectangular prism is {l} cm long, {w} cm wide and {h} cm tall. It is "
                "sliced parallel to its base. What is the area of the cross section?",
                "A block of cheese {l} in by {w} in by {h} in tall is cut parallel to the "
                "bottom. Find the area of the cut face.",
                "a prism {l} by {w} by {h} gets sliced parallel to the base. area of the slice?",
            ),
            l=ln,
            w=w,
            h=h,
        )
        return text, f"{ln} * {w}", str(ln * w)
    if kind == 1:
        text = _say(
            rng,
            (
                "A rectangular prism has length {l}, width {w} and height {h}. A plane slices "
                "it perpendicular to the base, parallel to the {w}-by-{h} face. What is the "
                "area of the slice?",
                "A box {l} ft long, {w} ft wide, {h} ft high is cut vertically parallel to its "
                "end. What is the area of the cross section?",
            ),
            l=ln,
            w=w,
            h=h,
        )
        return text, f"{w} * {h}", str(w * h)
    if kind == 2:
        s = rng.randint(2, 12) * 2
        ph = rng.randint(3, 15)
        text = _say(
            rng,
            (
                "A right square pyramid has a base {s} cm on a side and a height of {p} cm. It "
                "is sliced through the top vertex, perpendicular to the base and parallel to a "
                "base edge. What is the area of the triangular cross section?",
                "A square pyramid (base side {s}, height {p}) is cut straight down through its "
                "apex parallel to one side of the base. Find the area of the cut.",
            ),
            s=s,
            p=ph,
        )
        return text, f"{s} * {ph} / 2", _ans(Fraction(s * ph, 2))
    text = _say(
        rng,
        (
            "A cube has edges of {l} in. It is sliced parallel to one face. What is the area "
            "of the cross section?",
            "Slice a cube with side {l} cm parallel to a face. What is the area of the "
            "square you get?",
        ),
        l=ln,
    )
    return text, f"{ln} * {ln}", str(ln * ln)


GENERATORS: tuple[Generator, ...] = table(
    ("7.G.A.1/scale-drawing-story", "word", _g1_story),
    ("7.G.A.1/scale-factor", "bare", _g1_bare),
    ("7.G.A.2/triangle-side-conditions", "bare", _g2),
    ("7.G.A.3/cross-section-area", "bare", _g3),
)
