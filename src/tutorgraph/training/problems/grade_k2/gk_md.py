"""Kindergarten problem generators: Measurement and Data.

The standards K.MD.A.2 to K.MD.B.3; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._registry import Generator, Made, table
from tutorgraph.training.problems.grade_k2._shared import _choose, _two_names

__all__ = ["GENERATORS"]


def _k_compare_lengths(rng: random.Random) -> Made:
    a = rng.randint(4, 10)
    b = rng.randint(2, a - 1)
    a_name, b_name = _two_names(rng)
    return _choose(
        rng,
        (
            (
                f"{a_name}'s tower is {a} blocks tall. {b_name}'s tower is {b} blocks "
                f"tall. How many blocks taller is {a_name}'s tower?",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"The red pencil is {a} cubes long and the blue pencil is {b} cubes long. "
                "How many cubes longer is the red pencil?",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"A bag of rice weighs as much as {a} blocks and a bag of beans as much "
                f"as {b} blocks. How many more blocks does the rice weigh?",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"{a_name} is {a} hands tall and {b_name} is {b} hands tall. how much "
                f"taller is {a_name}",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"A snake is {a} paper clips long and a worm is {b} paper clips long. How "
                "much shorter is the worm?",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"One cup holds {a} scoops and another holds {b} scoops. How many more "
                "scoops does the bigger cup hold?",
                f"{a} - {b}",
                a - b,
            ),
        ),
    )


def _k_sort_count(rng: random.Random) -> Made:
    counts = [rng.randint(1, 10) for _ in range(3)]
    colors = ("red", "blue", "yellow")
    items = [c for c, n in zip(colors, counts, strict=True) for _ in range(n)]
    rng.shuffle(items)
    listing = ", ".join(items)
    a, b, c = counts
    i = rng.randrange(3)
    return _choose(
        rng,
        (
            (
                f"Sort the buttons by color: {listing}. How many {colors[i]} buttons are there?",
                f"{counts[i]}",
                counts[i],
            ),
            (
                f"A bin has {a} red blocks, {b} blue blocks and {c} yellow blocks. How "
                "many blocks are in the biggest group?",
                f"max({a}, {b}, {c})",
                max(counts),
            ),
            (
                f"Sort these cubes: {listing}. How many cubes are in the smallest group?",
                f"min({a}, {b}, {c})",
                min(counts),
            ),
            (f"sort {listing} by color how many are {colors[i]}", f"{counts[i]}", counts[i]),
            (
                f"There are {a} cars, {b} trucks and {c} bikes in the toy box. Put the "
                "groups in order by count. What is the count of the middle group?",
                f"median({a}, {b}, {c})",
                sorted(counts)[1],
            ),
            (
                f"A class sorts leaves: {a} big, {b} small and {c} medium. How many are "
                "in the group with the most?",
                f"max({a}, {b}, {c})",
                max(counts),
            ),
        ),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("K.MD.A.2/taller-longer", "word", _k_compare_lengths),
    ("K.MD.B.3/sort-and-count", "word", _k_sort_count),
)
