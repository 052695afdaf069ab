"""Grade 2 problem generators: Geometry.

The standards 2.G.A.1 to 2.G.A.3; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._registry import Generator, Made, table
from tutorgraph.training.problems._words import NAMES, pick
from tutorgraph.training.problems.grade_k2._shared import _choose

__all__ = ["GENERATORS"]


def _g2_shapes(rng: random.Random) -> Made:
    shapes = (("triangle", 3), ("quadrilateral", 4), ("pentagon", 5), ("hexagon", 6))
    s1, n1 = pick(rng, shapes)
    s2, n2 = pick(rng, shapes)
    k = rng.randint(2, 4)
    return _choose(
        rng,
        (
            (f"How many angles does a {s1} have?", f"{n1}", n1),
            (f"How many sides do a {s1} and a {s2} have in all?", f"{n1} + {n2}", n1 + n2),
            ("How many faces does a cube have?", "6", 6),
            (f"how many vertices does a {s2} have", f"{n2}", n2),
            (f"How many sides do {k} {s1}s have altogether?", " + ".join([str(n1)] * k), n1 * k),
            (
                f"How many more angles does a {s2} have than a {s1}?",
                f"abs({n2} - {n1})",
                abs(n2 - n1),
            ),
        ),
    )


def _g2_shapes_word(rng: random.Random) -> Made:
    shapes = (("triangle", 3), ("quadrilateral", 4), ("pentagon", 5), ("hexagon", 6))
    s1, n1 = pick(rng, shapes)
    s2, n2 = pick(rng, shapes)
    name = pick(rng, NAMES)
    k = rng.randint(2, 4)
    return _choose(
        rng,
        (
            (
                f"{name} draws a {s1} and a {s2}. How many angles are there in all?",
                f"{n1} + {n2}",
                n1 + n2,
            ),
            (
                f"{name} builds a cube out of paper squares, one square per face. How "
                "many squares?",
                "6",
                6,
            ),
            (
                f"{name} makes {k} {s2}s with toothpicks, one toothpick per side. how "
                "many toothpicks",
                " + ".join([str(n2)] * k),
                n2 * k,
            ),
            (
                "A stop sign is an octagon with 8 sides. How many more sides does it "
                f"have than a {s1}?",
                f"8 - {n1}",
                8 - n1,
            ),
            (f"{name} puts a dot on every vertex of a {s1}. How many dots?", f"{n1}", n1),
            (
                f"A cube has 12 edges. {name} covers {k} of them with tape. How many "
                "edges are not taped?",
                f"12 - {k}",
                12 - k,
            ),
        ),
    )


def _g2_partition(rng: random.Random) -> Made:
    rows, cols = rng.randint(2, 6), rng.randint(2, 6)
    sums = " + ".join([str(cols)] * rows)
    name = pick(rng, NAMES)
    total = rows * cols
    return _choose(
        rng,
        (
            (
                f"A rectangle is split into {rows} rows and {cols} columns of same-size "
                "squares. How many squares?",
                sums,
                total,
            ),
            (
                f"{name} draws a rectangle with {rows} rows of {cols} squares. How many "
                f"squares did {name} draw?",
                sums,
                total,
            ),
            (
                f"A chocolate bar has {rows} rows and {cols} columns of pieces. How many pieces?",
                sums,
                total,
            ),
            (
                f"a rectangle with {cols} columns and {rows} rows how many little squares",
                sums,
                total,
            ),
            (
                f"A rectangle has {total} same-size squares in {rows} rows. How many "
                "squares are in each row?",
                f"{total} / {rows}",
                cols,
            ),
            (
                f"{name} tiles a floor with {rows} rows of {cols} tiles. How many tiles?",
                sums,
                total,
            ),
        ),
    )


def _g2_partition_bare(rng: random.Random) -> Made:
    rows, cols = rng.randint(2, 6), rng.randint(2, 6)
    sums = " + ".join([str(cols)] * rows)
    total = rows * cols
    return _choose(
        rng,
        (
            (
                f"Partition a rectangle into {rows} rows and {cols} columns of equal "
                "squares. How many squares?",
                sums,
                total,
            ),
            (f"{rows} rows × {cols} columns of squares: count the squares.", sums, total),
            (
                f"A rectangle has {rows} rows of {cols} squares. Write the total as a sum "
                "of equal addends.",
                sums,
                total,
            ),
            (f"how many squares in a {rows} by {cols} grid", sums, total),
            (
                f"A rectangle has {total} equal squares in {cols} columns. How many rows?",
                f"{total} / {cols}",
                rows,
            ),
            (
                f"Count the squares: {' / '.join(' '.join(['[]'] * cols) for _ in range(rows))}",
                sums,
                total,
            ),
        ),
    )


def _g2_equal_shares(rng: random.Random) -> Made:
    parts = pick(rng, (2, 3, 4))
    word = {2: "halves", 3: "thirds", 4: "fourths"}[parts]
    food = pick(rng, ("pizza", "pie", "cake", "brownie", "waffle", "quesadilla"))
    name = pick(rng, NAMES)
    eaten = rng.randint(1, parts - 1)
    k = rng.randint(2, 4)
    return _choose(
        rng,
        (
            (f"A {food} is cut into {word}. How many equal shares are there?", f"{parts}", parts),
            (f"How many {word} make one whole {food}?", f"{parts}", parts),
            (
                f"{name} cuts a {food} into {word} and eats {eaten} share. How many "
                "shares are left?",
                f"{parts} - {eaten}",
                parts - eaten,
            ),
            (f"how many {word} are in {k} whole {food}s", " + ".join([str(parts)] * k), parts * k),
            (
                f"A rectangle is split into {word}. {name} colors {eaten}. How many parts "
                "are not colored?",
                f"{parts} - {eaten}",
                parts - eaten,
            ),
            (
                f"{name} shares a {food} equally among {parts} friends. How many shares "
                f"does the {food} need?",
                f"{parts}",
                parts,
            ),
        ),
    )


def _g2_shares_bare(rng: random.Random) -> Made:
    parts = pick(rng, (2, 3, 4))
    word, one = {2: ("halves", "half"), 3: ("thirds", "third"), 4: ("fourths", "fourth")}[parts]
    shape = pick(rng, ("circle", "rectangle", "square"))
    k = rng.randint(1, parts - 1)
    return _choose(
        rng,
        (
            (f"A {shape} is split into {word}. How many equal parts?", f"{parts}", parts),
            (f"The whole {shape} is ___ {word}.", f"{parts}", parts),
            (
                f"You shade {k} {one if k == 1 else word} of a {shape}. How many more "
                f"{word} shade the whole?",
                f"{parts} - {k}",
                parts - k,
            ),
            (f"how many {word} make a whole {shape}", f"{parts}", parts),
            (
                f"A long rectangle is cut into {word} with straight cuts across. How many "
                "cuts are made?",
                f"{parts} - 1",
                parts - 1,
            ),
            (
                f"Two same-size {shape}s are each cut into {word}. How many pieces in all?",
                f"{parts} + {parts}",
                2 * parts,
            ),
        ),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("2.G.A.1/shape-attributes", "bare", _g2_shapes),
    ("2.G.A.1/shape-attributes-story", "word", _g2_shapes_word),
    ("2.G.A.2/rows-and-columns", "word", _g2_partition),
    ("2.G.A.2/rows-and-columns-bare", "bare", _g2_partition_bare),
    ("2.G.A.3/equal-shares", "word", _g2_equal_shares),
    ("2.G.A.3/halves-thirds-fourths", "bare", _g2_shares_bare),
)
