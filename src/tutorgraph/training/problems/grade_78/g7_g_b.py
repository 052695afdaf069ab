"""Grade 7 problem generators: Geometry, cluster B.

The standards 7.G.B.4 to 7.G.B.6; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_78._shared import _ans, _e, _name, _num, _say

__all__ = ["GENERATORS"]


def _g4_story(rng: random.Random) -> Made:
    n = _name(rng)
    kind = rng.randrange(4)
    if kind == 0:
        d = rng.randint(10, 30)
        text = _say(
            rng,
            (
                "A bike wheel has a diameter of {d} inches. How far does the bike move in one "
                "full turn of the wheel? Use 3.14 for pi.",
                "{n}'s wheel is {d} in across. How far does it roll in one turn? (pi = 3.14)",
            ),
            d=d,
            n=n,
        )
        return text, f"3.14 * {d}", _ans(Fraction(314, 100) * d)
    if kind == 1:
        r = rng.randint(2, 20)
        text = _say(
            rng,
            (
                "A circular garden has a radius of {r} m. What is its area? Use 3.14 for pi.",
                "A round rug has a radius of {r} ft. How many square feet does it cover? Use 3.14.",
                "a pizza has radius {r} inches, whats the area (use 3.14)",
            ),
            r=r,
        )
        return text, f"3.14 * {r}**2", _ans(Fraction(314, 100) * r * r)
    if kind == 2:
        r = rng.randint(1, 15)
        text = _say(
            rng,
            (
                "A circular track has a circumference of {c} m. What is its radius? Use 3.14 "
                "for pi.",
                "The distance around a round table is {c} in. Find its radius (pi = 3.14).",
            ),
            c=_num(Fraction(628, 100) * r),
        )
        return text, f"{_e(Fraction(628, 100) * r)} / (2 * 3.14)", str(r)
    r = rng.randint(1, 10) * 7
    text = _say(
        rng,
        (
            "A fountain is a circle with radius {r} ft. Using 22/7 for pi, what is its "
            "circumference?",
            "Use pi = 22/7. What is the distance around a circular pond of radius {r} m?",
        ),
        r=r,
    )
    return text, f"2 * 22/7 * {r}", _ans(2 * Fraction(22, 7) * r)


def _g4_bare(rng: random.Random) -> Made:
    r = rng.randint(1, 20)
    given = pick(rng, ("radius", "diameter"))
    size = r if given == "radius" else 2 * r
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "Find the area of a circle with a {g} of {s} cm. Use 3.14 for pi.",
                "Area of a circle, {g} = {s}. (pi ≈ 3.14)",
                "What is the area of a circle whose {g} is {s} units? Use 3.14.",
            ),
            g=given,
            s=size,
        )
        expr = f"3.14 * {r}**2" if given == "radius" else f"3.14 * ({size} / 2)**2"
        return text, expr, _ans(Fraction(314, 100) * r * r)
    text = _say(
        rng,
        (
            "Find the circumference of a circle with a {g} of {s} m. Use 3.14 for pi.",
            "Circumference when the {g} is {s}? Use 3.14.",
            "what is the circumference if the {g} is {s} (3.14 for pi)",
        ),
        g=given,
        s=size,
    )
    return text, f"3.14 * {2 * r}", _ans(Fraction(314, 100) * 2 * r)


def _g5_bare(rng: random.Random) -> Made:
    kind = pick(rng, ("supplementary", "complementary", "vertical"))
    a = rng.randint(2, 6)
    b = rng.randint(-10, 20)
    if kind == "vertical":
        x = rng.randint(5, 30)
        angle = a * x + b
        if angle <= 0 or angle >= 180:
            b = 10
            angle = a * x + b
        text = _say(
            rng,
            (
                "Two vertical angles measure ({a}x + {b})° and {g}°. Find x.",
                "Vertical angles are equal. One is {g}° and the other is ({a}x + {b})°. What is x?",
                "vertical angles: {a}x + {b} and {g}. solve for x",
            ),
            a=a,
            b=b,
            g=angle,
        )
        return text, f"({angle} - {_e(b)}) / {a}", str(x)
    total = 180 if kind == "supplementary" else 90
    x = rng.randint(2, (total - 20) // (a + 1))
    angle = a * x + b
    if angle <= 0 or angle >= total:
        b = 5
        angle = a * x + b
    other = total - angle
    text = _say(
        rng,
        (
            "Angles A and B are {k}. Angle A = ({a}x + {b})° and angle B = {o}°. Find x.",
            "Two {k} angles measure {o}° and ({a}x + {b})°. What is x?",
            "Write and solve an equation: two angles are {k}; one is {o}° and the other is "
            "({a}x + {b})°. Find x.",
            "{k} angles {o} and {a}x+{b}, find x",
        ),
        k=kind,
        a=a,
        b=b,
        o=other,
    )
    return text, f"({total} - {other} - {_e(b)}) / {a}", _ans(Fraction(total - other - b, a))


def _g5_story(rng: random.Random) -> Made:
    kind = rng.randrange(4)
    if kind == 0:
        a = rng.randint(10, 170)
        text = _say(
            rng,
            (
                "Two angles form a straight line. One measures {a}°. What does the other measure?",
                "A board leans against a flat floor and makes a {a}° angle on one side. What "
                "angle does it make on the other side?",
                "Angles on a line: one is {a}°, find the adjacent angle.",
            ),
            a=a,
        )
        return text, f"180 - {a}", str(180 - a)
    if kind == 1:
        a = rng.randint(5, 85)
        text = _say(
            rng,
            (
                "A right angle is split into two adjacent angles. One is {a}°. What is the other?",
                "The corner of a picture frame is 90°. A brace cuts it into two angles, one "
                "{a}°. Find the other.",
            ),
            a=a,
        )
        return text, f"90 - {a}", str(90 - a)
    if kind == 2:
        total = pick(rng, (90, 180))
        k = pick(rng, (2, 3, 4, 5, 8, 9) if total == 180 else (2, 4, 5, 8, 9))
        text = _say(
            rng,
            (
                "Two angles are {w}. One is {k} times the other. What is the smaller angle?",
                "One of two {w} angles is {k} times as large as the other. Find the smaller angle.",
            ),
            w="supplementary" if total == 180 else "complementary",
            k=k,
        )
        return text, f"{total} / ({k} + 1)", str(total // (k + 1))
    a, b = rng.randint(20, 80), rng.randint(20, 70)
    text = _say(
        rng,
        (
            "Three angles together form a straight angle. Two of them are {a}° and {b}°. What "
            "is the third?",
            "Rays split a straight line into three angles: {a}°, {b}° and x°. Find x.",
        ),
        a=a,
        b=b,
    )
    return text, f"180 - {a} - {b}", str(180 - a - b)


def _g6_story(rng: random.Random) -> Made:
    n = _name(rng)
    kind = rng.randrange(4)
    ln, w, h = rng.randint(2, 20), rng.randint(2, 15), rng.randint(2, 12)
    if kind == 0:
        text = _say(
            rng,
            (
                "A fish tank is {l} in long, {w} in wide and {h} in tall. What is its volume?",
                "{n} fills a box {l} cm by {w} cm by {h} cm with sand. How many cubic cm of "
                "sand fit?",
                "how much does a {l} by {w} by {h} box hold",
            ),
            l=ln,
            w=w,
            h=h,
            n=n,
        )
        return text, f"{ln} * {w} * {h}", str(ln * w * h)
    if kind == 1:
        text = _say(
            rng,
            (
                "{n} wraps a gift box that is {l} in by {w} in by {h} in. How much wrapping "
                "paper covers it exactly (the surface area)?",
                "How much cardboard is needed to make a closed box {l} cm by {w} cm by {h} cm?",
                "A storage chest {l} ft by {w} ft by {h} ft is painted on all sides. What area "
                "is painted?",
            ),
            l=ln,
            w=w,
            h=h,
            n=n,
        )
        return text, f"2 * ({ln}*{w} + {ln}*{h} + {w}*{h})", str(2 * (ln * w + ln * h + w * h))
    if kind == 2:
        b = rng.randint(2, 12) * 2
        th = rng.randint(2, 10)
        text = _say(
            rng,
            (
                "A tent is a triangular prism. The triangle has a base of {b} ft and a height of "
                "{t} ft, and the tent is {l} ft long. What is the volume inside?",
                "A wedge of cheese is a triangular prism with a triangle base {b} cm and "
                "height {t} cm, and length {l} cm. Find its volume.",
            ),
            b=b,
            t=th,
            l=ln,
        )
        return text, f"{b} * {th} / 2 * {ln}", str(b * th // 2 * ln)
    cut_l, cut_w = rng.randint(1, ln - 1) if ln > 2 else 1, rng.randint(1, w - 1) if w > 2 else 1
    text = _say(
        rng,
        (
            "A rectangular yard is {l} m by {w} m. A {a} m by {b} m shed sits in it. How much "
            "grass area is left?",
            "{n}'s room is {l} ft by {w} ft with a {a} ft by {b} ft closet cut out of one "
            "corner. What is the floor area of the L-shaped room?",
        ),
        l=ln,
        w=w,
        a=cut_l,
        b=cut_w,
        n=n,
    )
    return text, f"{ln} * {w} - {cut_l} * {cut_w}", str(ln * w - cut_l * cut_w)


def _g6_bare(rng: random.Random) -> Made:
    ln, w, h = rng.randint(2, 15), rng.randint(2, 12), rng.randint(2, 12)
    kind = rng.randrange(3)
    if kind == 0:
        text = _say(
            rng,
            (
                "Find the surface area of a rectangular prism {l} by {w} by {h}.",
                "Surface area of a right rectangular prism: l = {l}, w = {w}, h = {h}.",
                "What is the total surface area of a prism with dimensions {l} cm, {w} cm and "
                "{h} cm?",
            ),
            l=ln,
            w=w,
            h=h,
        )
        return text, f"2 * ({ln}*{w} + {ln}*{h} + {w}*{h})", str(2 * (ln * w + ln * h + w * h))
    if kind == 1:
        b = rng.randint(2, 10)
        th = rng.randint(2, 10) * 2
        text = _say(
            rng,
            (
                "Find the volume of a triangular prism. The triangular base has base {b} and "
                "height {t}; the prism is {h} long.",
                "Volume = (area of base) × height. Base triangle: b = {b}, h = {t}. Prism "
                "length {h}. Find V.",
            ),
            b=b,
            t=th,
            h=h,
        )
        return text, f"{b} * {th} / 2 * {h}", str(b * th // 2 * h)
    b1, b2 = rng.randint(2, 12), rng.randint(2, 12)
    th = rng.randint(1, 6) * 2
    text = _say(
        rng,
        (
            "Find the area of a trapezoid with bases {a} and {b} and height {h}.",
            "Trapezoid: bases {a} cm and {b} cm, height {h} cm. Area?",
            "area of trapezoid bases {a} and {b} height {h}",
        ),
        a=b1,
        b=b2,
        h=th,
    )
    return text, f"({b1} + {b2}) * {th} / 2", str((b1 + b2) * th // 2)


GENERATORS: tuple[Generator, ...] = table(
    ("7.G.B.4/circle-story", "word", _g4_story),
    ("7.G.B.4/circle-formulas", "bare", _g4_bare),
    ("7.G.B.5/angle-relationships", "bare", _g5_bare),
    ("7.G.B.5/unknown-angle-story", "word", _g5_story),
    ("7.G.B.6/area-volume-story", "word", _g6_story),
    ("7.G.B.6/prism-surface-volume", "bare", _g6_bare),
)
