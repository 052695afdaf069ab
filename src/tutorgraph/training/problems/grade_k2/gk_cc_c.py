"""Kindergarten problem generators: Counting and Cardinality, cluster C.

The standards K.CC.C.6 to K.CC.C.7; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._registry import Generator, Made, table
from tutorgraph.training.problems.grade_k2._shared import (
    _choose,
    _cmp,
    _comparison,
    _thing,
    _two_names,
)

__all__ = ["GENERATORS"]


def _k_compare_groups(rng: random.Random) -> Made:
    a, b = rng.randint(1, 10), rng.randint(1, 10)
    a_name, b_name = _two_names(rng)
    things = _thing(rng)
    sa, sb = " ".join("o" * a), " ".join("x" * b)
    return _choose(
        rng,
        (
            (
                f"{a_name} has {a} {things}. {b_name} has {b} {things}. How many are in "
                "the bigger group?",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"Group A: {sa}. Group B: {sb}. How many are in the group with fewer?",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"A plate has {a} cookies and another plate has {b}. How many cookies are "
                "on the plate with more?",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"Match the cats and the dogs: {a} cats, {b} dogs. How many are in the "
                "smaller group?",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"which group has more? {sa} or {sb} how many is that group",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                "Is the number of o's greater than, less than or equal to the number of "
                f"x's? Write >, < or =. {sa} | {sb}",
                f"cmp({a}, {b})",
                _cmp(a, b),
            ),
        ),
    )


def _k_compare_drawn(rng: random.Random) -> Made:
    a, b = rng.randint(1, 10), rng.randint(1, 10)
    sym_a, sym_b = rng.sample(("o", "x", "*", "#", "@"), 2)
    ga, gb = " ".join(sym_a * a), " ".join(sym_b * b)
    return _choose(
        rng,
        (
            (
                f"Which group has more? Write how many are in it. {ga} | {gb}",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"Which group has fewer? Write how many are in it. {ga} | {gb}",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"Match each {sym_a} with a {sym_b}: {ga} | {gb}. How many are in the "
                "bigger group?",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"count both groups {ga} and {gb} how many in the smaller one",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"Group 1: {ga}. Group 2: {gb}. How many are in the group with more?",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"Circle the group with less: {ga} or {gb}. How many does it have?",
                f"min({a}, {b})",
                min(a, b),
            ),
        ),
    )


def _k_compare_numerals(rng: random.Random) -> Made:
    a = rng.randint(1, 10)
    b = rng.choice([n for n in range(1, 11) if n != a])
    return _choose(rng, _comparison(a, b, "number"))


def _k_cards(rng: random.Random) -> Made:
    a = rng.randint(1, 10)
    b = rng.choice([n for n in range(1, 11) if n != a])
    a_name, b_name = _two_names(rng)
    return _choose(
        rng,
        (
            (
                f"{a_name} draws the card {a} and {b_name} draws {b}. The bigger number "
                "wins. What number wins?",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"Two dice show {a} and {b}. What is the smaller number?",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"{a_name}'s card says {a} and {b_name}'s says {b}. which number is greater",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"In a game the lowest card wins. The cards are {a} and {b}. Which card wins?",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"A sign says {a} and another sign says {b}. Write the greater number.",
                f"max({a}, {b})",
                max(a, b),
            ),
            (f"Circle the number that is less: {a} or {b}.", f"min({a}, {b})", min(a, b)),
        ),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("K.CC.C.6/compare-groups", "word", _k_compare_groups),
    ("K.CC.C.6/compare-drawn-groups", "bare", _k_compare_drawn),
    ("K.CC.C.7/compare-numerals", "bare", _k_compare_numerals),
    ("K.CC.C.7/number-cards", "word", _k_cards),
)
