"""Grade 5 problem generators: Measurement and Data.

The standards 5.MD.A.1 to 5.MD.C.5; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_56._shared import (
    _CONV,
    F,
    _ask,
    _d,
    _dec,
    _fa,
    _fe,
    _m,
    _name,
)

__all__ = ["GENERATORS"]


def _md_convert_bare(rng: random.Random) -> Made:
    big, small, k = pick(rng, _CONV)
    metric = k in (10, 100, 1000)
    if rng.random() < 0.5:
        x = _dec(rng, 1, 20, 1) if metric and rng.random() < 0.5 else F(rng.randint(2, 30))
        q = pick(
            rng,
            (
                f"Convert {_d(x)} {big} to {small}.",
                f"{_d(x)} {big} = ___ {small}",
                f"how many {small} in {_d(x)} {big}",
            ),
        )
        return _ask(rng, q), f"{_d(x)} * {k}", _d(x * k)
    if metric:
        x = F(rng.randint(1, 5000))
        ans = x / k
    else:
        ans = F(rng.randint(2, 12)) + F(pick(rng, (0, k // 2)) if k % 2 == 0 else 0, k)
        x = ans * k
    q = pick(
        rng,
        (
            f"Convert {_d(x)} {small} to {big}.",
            f"{_d(x)} {small} = ___ {big}",
            f"how many {big} is {_d(x)} {small}",
            f"Write {_d(x)} {small} in {big}.",
        ),
    )
    return _ask(rng, q), f"{_d(x)} / {k}", _d(ans)


def _md_convert_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(5)
    if kind == 0:
        m, piece = rng.randint(2, 9), pick(rng, (20, 25, 50))
        q = (
            f"{who} has a {m} m ribbon and cuts it into pieces {piece} cm long. How many pieces "
            "are there?"
        )
        return _ask(rng, q), f"{m} * 100 / {piece}", str(m * 100 // piece)
    if kind == 1:
        liters, glasses, ml = (
            rng.randint(2, 4),
            rng.randint(2, 5),
            pick(rng, (150, 200, 250, 300, 350)),
        )
        q = (
            f"A bottle holds {liters} L of water. {who} pours {glasses} glasses of {ml} mL. How "
            "many mL are left?"
        )
        return (
            _ask(rng, q),
            f"{liters} * 1000 - {glasses} * {ml}",
            str(liters * 1000 - glasses * ml),
        )
    if kind == 2:
        ft, inch = rng.randint(3, 8), rng.randint(1, 11)
        q = f"{who} is {ft} feet {inch} inches tall. How many inches tall is {who}?"
        return _ask(rng, q), f"{ft} * 12 + {inch}", str(ft * 12 + inch)
    if kind == 3:
        n, g = rng.randint(3, 12), pick(rng, (125, 250, 400, 500, 750))
        q = f"{who} buys {n} bags of flour, each {g} g. How many kilograms of flour is that?"
        return _ask(rng, q), f"{n} * {g} / 1000", _d(F(n * g, 1000))
    laps, m = rng.randint(4, 20), pick(rng, (200, 400, 250))
    q = f"{who} runs {laps} laps of a {m} m track. How many kilometers is that?"
    return _ask(rng, q), f"{laps} * {m} / 1000", _d(F(laps * m, 1000))


def _line_plot(rng: random.Random) -> tuple[list[Fraction], str]:
    den = pick(rng, (2, 4, 8))
    values = sorted(F(rng.randint(1, 2 * den), den) for _ in range(rng.randint(5, 9)))
    counts: dict[Fraction, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    shown = ", ".join(f"{_m(v)} ({c} X{'s' if c > 1 else ''})" for v, c in counts.items())
    return values, shown


def _md_line_plot(rng: random.Random) -> Made:
    values, shown = _line_plot(rng)
    unit, what = pick(
        rng,
        (("liter", "beakers"), ("cup", "cups"), ("inch", "seedlings"), ("pound", "bags of beans")),
    )
    kind = rng.randrange(3)
    lead = f"A line plot shows the amounts in {len(values)} {what}, in {unit}s: {shown}."
    if kind == 0:
        q = (
            f"{lead} If the total were shared equally among all the {what}, how much would each "
            "have?"
        )
        return (
            _ask(rng, q),
            f"mean({', '.join(_fe(v) for v in values)})",
            _fa(rng, sum(values, F(0)) / len(values)),
        )
    if kind == 1:
        q = f"{lead} What is the total amount?"
        return _ask(rng, q), " + ".join(_fe(v) for v in values), _fa(rng, sum(values, F(0)))
    q = f"{lead} What is the difference between the greatest and least amounts?"
    return (
        _ask(rng, q),
        f"max({', '.join(_fe(v) for v in values)}) - min({', '.join(_fe(v) for v in values)})",
        _fa(rng, values[-1] - values[0]),
    )


def _md_cubes_packed(rng: random.Random) -> Made:
    rows, per, layers = rng.randint(2, 6), rng.randint(2, 8), rng.randint(2, 6)
    layer = rows * per
    kind = rng.randrange(3)
    if kind == 0:
        q = (
            f"A box is packed with unit cubes, with no gaps or overlaps. Each layer has {layer} "
            f"cubes and there are {layers} layers. What is the volume in cubic units?"
        )
        return _ask(rng, q), f"{layer} * {layers}", str(layer * layers)
    if kind == 1:
        n = layer * layers
        q = pick(
            rng,
            (
                f"A solid is filled with {n} unit cubes with no gaps. What is its volume?",
                f"if it takes {n} unit cubes to fill a box what is the volume in cubic units",
            ),
        )
        return _ask(rng, q), str(n), str(n)
    a, b = layer * layers, rng.randint(4, 30)
    q = (
        f"Two solids are packed with {a} and {b} unit cubes. What is their total volume in cubic "
        "units?"
    )
    return _ask(rng, q), f"{a} + {b}", str(a + b)


def _md_count_cubes(rng: random.Random) -> Made:
    ln, w, h = rng.randint(2, 6), rng.randint(2, 5), rng.randint(2, 5)
    one, unit = pick(
        rng,
        (
            ("cubic centimeter", "cubic centimeters"),
            ("cubic inch", "cubic inches"),
            ("cubic foot", "cubic feet"),
            ("sugar cube", "sugar cubes"),
            ("die", "dice"),
        ),
    )
    q = pick(
        rng,
        (
            f"A figure is built from cubes: {h} layers, each {ln} cubes long and {w} cubes wide. "
            f"Each cube is one {one}. Count the volume in {unit}.",
            f"{_name(rng)} stacks {unit} into a box shape {ln} by {w} by {h}. How many {unit} is "
            "the volume?",
            f"Count the unit cubes: the bottom layer is {ln} rows of {w} and there are {h} layers. "
            f"What is the volume in {unit}?",
            f"how many {unit} are in a stack {ln} long {w} wide {h} tall",
        ),
    )
    return _ask(rng, q), f"{ln} * {w} * {h}", str(ln * w * h)


def _md_volume_pack(rng: random.Random) -> Made:
    ln, w, h = rng.randint(2, 9), rng.randint(2, 9), rng.randint(2, 9)
    kind = rng.randrange(3)
    if kind == 0:
        q = (
            f"A prism is packed with unit cubes: {ln} cubes along the length, {w} along the width "
            f"and {h} layers high. How many cubes fill it?"
        )
        return _ask(rng, q), f"{ln} * {w} * {h}", str(ln * w * h)
    if kind == 1:
        q = (
            f"({ln} × {w}) × {h} and {ln} × ({w} × {h}) both give the volume of a {ln} by {w} by "
            f"{h} "
            "prism. What is that volume?"
        )
        return _ask(rng, q), f"({ln} * {w}) * {h}", str(ln * w * h)
    q = (
        f"The base layer of a box holds {ln * w} unit cubes. The box is {h} cubes tall. How many "
        "unit cubes fill the box?"
    )
    return _ask(rng, q), f"{ln * w} * {h}", str(ln * w * h)


def _md_volume_formula_bare(rng: random.Random) -> Made:
    ln, w, h = rng.randint(2, 15), rng.randint(2, 12), rng.randint(2, 12)
    kind = rng.randrange(3)
    if kind == 0:
        q = pick(
            rng,
            (
                f"Find the volume of a rectangular prism with l = {ln}, w = {w}, h = {h}.",
                f"V = l × w × h. l = {ln} cm, w = {w} cm, h = {h} cm. Find V.",
                f"volume of a box {ln} by {w} by {h}",
            ),
        )
        return _ask(rng, q), f"{ln} * {w} * {h}", str(ln * w * h)
    if kind == 1:
        q = (
            f"A prism has a base area of {ln * w} square units and a height of {h} units. Use V = "
            "b "
            "× h to find its volume."
        )
        return _ask(rng, q), f"{ln * w} * {h}", str(ln * w * h)
    q = (
        f"A rectangular prism has volume {ln * w * h} cubic units, length {ln} and width {w}. What "
        "is its height?"
    )
    return _ask(rng, q), f"{ln * w * h} / ({ln} * {w})", str(h)


def _md_volume_story(rng: random.Random) -> Made:
    who = _name(rng)
    ln, w, h = rng.randint(3, 20), rng.randint(2, 12), rng.randint(2, 10)
    what, unit = pick(
        rng,
        (
            ("fish tank", "inches"),
            ("sandbox", "feet"),
            ("shoe box", "inches"),
            ("storage bin", "inches"),
            ("garden bed", "feet"),
        ),
    )
    if rng.random() < 0.7:
        q = pick(
            rng,
            (
                f"{who}'s {what} is {ln} {unit} long, {w} {unit} wide and {h} {unit} high. What is "
                "its volume?",
                f"How much space is inside a {what} that measures {ln} {unit} by {w} {unit} by {h} "
                f"{unit}?",
                f"{who} fills a {what} {ln} {unit} long, {w} wide and {h} deep. how many cubic "
                f"{unit} does it hold",
            ),
        )
        return _ask(rng, q), f"{ln} * {w} * {h}", str(ln * w * h)
    q = (
        f"A {what} holds {ln * w * h} cubic {unit}. It is {ln} {unit} long and {w} {unit} wide. "
        "How "
        "tall is it?"
    )
    return _ask(rng, q), f"{ln * w * h} / ({ln} * {w})", str(h)


def _md_composite(rng: random.Random) -> Made:
    a = (rng.randint(2, 10), rng.randint(2, 8), rng.randint(2, 6))
    b = (rng.randint(2, 10), rng.randint(2, 8), rng.randint(2, 6))
    va, vb = a[0] * a[1] * a[2], b[0] * b[1] * b[2]
    who = _name(rng)
    q = pick(
        rng,
        (
            f"A solid is made of two rectangular prisms that do not overlap: one is {a[0]} × "
            f"{a[1]} × {a[2]} and the other is {b[0]} × {b[1]} × {b[2]}. What is the total volume?",
            f"{who} builds an L-shaped planter from two boxes, {a[0]} ft by {a[1]} ft by {a[2]} ft "
            f"and {b[0]} ft by {b[1]} ft by {b[2]} ft. How many cubic feet of soil fill it?",
            f"A building has two parts: {a[0]} m by {a[1]} m by {a[2]} m and {b[0]} m by {b[1]} m "
            f"by {b[2]} m. Find its volume.",
            f"find the volume of the shape made from a {a[0]} by {a[1]} by {a[2]} prism and a "
            f"{b[0]} by {b[1]} by {b[2]} prism",
        ),
    )
    return _ask(rng, q), f"{a[0]} * {a[1]} * {a[2]} + {b[0]} * {b[1]} * {b[2]}", str(va + vb)


GENERATORS: tuple[Generator, ...] = table(
    ("5.MD.A.1/convert", "bare", _md_convert_bare),
    ("5.MD.A.1/convert-story", "word", _md_convert_story),
    ("5.MD.B.2/line-plot", "word", _md_line_plot),
    ("5.MD.C.3.b/packed-cubes", "word", _md_cubes_packed),
    ("5.MD.C.4/count-cubes", "word", _md_count_cubes),
    ("5.MD.C.5.a/pack-and-multiply", "bare", _md_volume_pack),
    ("5.MD.C.5.b/volume-formula", "bare", _md_volume_formula_bare),
    ("5.MD.C.5.b/volume-story", "word", _md_volume_story),
    ("5.MD.C.5.c/two-prisms", "word", _md_composite),
)
