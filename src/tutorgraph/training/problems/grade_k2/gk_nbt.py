"""Kindergarten problem generators: Number and Operations in Base Ten.

The standard K.NBT.A.1; `GENERATORS` lists its generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._registry import Generator, Made, table
from tutorgraph.training.problems._words import NAMES, pick
from tutorgraph.training.problems.grade_k2._shared import _ONES_WORDS, _choose, _thing

__all__ = ["GENERATORS"]


def _k_teen_bare(rng: random.Random) -> Made:
    ones = rng.randint(1, 9)
    n = 10 + ones
    return _choose(
        rng,
        (
            (f"{n} = 10 + ?", f"{n} - 10", ones),
            (f"10 + {ones} = ?", f"10 + {ones}", n),
            (f"How many ones are in {n} after you take out a ten?", f"{n} - 10", ones),
            (f"what is ten and {_ONES_WORDS[ones]} more", f"10 + {ones}", n),
            (f"Fill in: ? = 10 + {ones}", f"10 + {ones}", n),
            (f"{n} is ten ones and how many more ones?", f"{n} - 10", ones),
        ),
    )


def _k_teen_word(rng: random.Random) -> Made:
    ones = rng.randint(1, 9)
    n = 10 + ones
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"A ten frame is full and there are {ones} more dots below it. How many "
                "dots are there?",
                f"10 + {ones}",
                n,
            ),
            (
                f"{name} has a bag of 10 {things} and {ones} loose {things}. How many "
                f"{things} in all?",
                f"10 + {ones}",
                n,
            ),
            (
                f"{name} has {n} {things}. {name} puts 10 in a cup. How many are not in the cup?",
                f"{n} - 10",
                ones,
            ),
            (
                f"{name} makes {n} with 10 red cubes and some blue cubes. How many blue cubes?",
                f"{n} - 10",
                ones,
            ),
            (
                f"{name} shows {n} on two ten frames. One frame is full. How many dots "
                "are on the other frame?",
                f"{n} - 10",
                ones,
            ),
            (f"ten fingers and {ones} toes how many is that", f"10 + {ones}", n),
        ),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("K.NBT.A.1/ten-and-ones", "bare", _k_teen_bare),
    ("K.NBT.A.1/ten-frame-story", "word", _k_teen_word),
)
