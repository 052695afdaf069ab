"""Grade 5 problem generators: Number and Operations—Fractions, cluster A.

The standards 5.NF.A.1 to 5.NF.A.2; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_56._shared import (
    _DENS5,
    _ask,
    _f,
    _fa,
    _fe,
    _frac,
    _m,
    _name,
    _two_names,
)

__all__ = ["GENERATORS"]


def _unlike(rng: random.Random) -> tuple[Fraction, Fraction]:
    while True:
        a, b = _frac(rng, _DENS5), _frac(rng, _DENS5)
        if a.denominator != b.denominator and a != b:
            return a, b


def _nf_unlike_bare(rng: random.Random) -> Made:
    a, b = _unlike(rng)
    kind = rng.randrange(4)
    if kind == 0:
        text, expr, ans = f"{_f(a)} + {_f(b)}", f"{_fe(a)} + {_fe(b)}", a + b
    elif kind == 1:
        a, b = max(a, b), min(a, b)
        text, expr, ans = f"{_f(a)} - {_f(b)}", f"{_fe(a)} - {_fe(b)}", a - b
    elif kind == 2:
        s = a + b
        text, expr, ans = f"{_f(a)} + ? = {_f(s)}", f"{_fe(s)} - {_fe(a)}", b
    else:
        a, b = max(a, b), min(a, b)
        text, expr, ans = f"? - {_f(b)} = {_f(a - b)}", f"{_fe(a - b)} + {_fe(b)}", a
    q = pick(
        rng,
        (
            f"{text}",
            f"Find {text}. Use equivalent fractions with a common denominator.",
            f"Solve: {text}",
            f"what is {text} in simplest form",
            f"Add or subtract. Write the answer in simplest form: {text}",
            f"how do you do {text} when the bottoms are different",
        ),
    )
    return _ask(rng, q), expr, _fa(rng, ans)


def _nf_mixed_bare(rng: random.Random) -> Made:
    a, b = _unlike(rng)
    wa, wb = rng.randint(1, 6), rng.randint(1, 5)
    x, y = wa + a, wb + b
    if rng.random() < 0.5:
        text, expr, ans = f"{_m(x)} + {_m(y)}", f"{_fe(x)} + {_fe(y)}", x + y
    else:
        x, y = max(x, y), min(x, y)
        text, expr, ans = f"{_m(x)} - {_m(y)}", f"{_fe(x)} - {_fe(y)}", x - y
    q = pick(
        rng,
        (
            f"{text} = ?",
            f"Find the sum or difference: {text}",
            f"Solve {text}. Write your answer as a mixed number.",
            f"{text} i dont know how to do mixed numbers with different denominators",
            f"Compute {text}.",
        ),
    )
    return _ask(rng, q), expr, _m(ans) if ans > 1 else _f(ans)


def _nf_add_story(rng: random.Random) -> Made:
    who = _name(rng)
    a, b = _unlike(rng)
    kind = rng.randrange(5)
    if kind == 0:
        q = (
            f"{who} walked {_f(a)} mile to the park and then {_f(b)} mile to the store. How far "
            f"did {who} walk in all?"
        )
        return _ask(rng, q), f"{_fe(a)} + {_fe(b)}", _fa(rng, a + b)
    if kind == 1:
        q = (
            f"{who} used {_f(a)} cup of flour and {_f(b)} cup of sugar. How many cups is that "
            "altogether?"
        )
        return _ask(rng, q), f"{_fe(a)} + {_fe(b)}", _fa(rng, a + b)
    a, b = max(a, b), min(a, b)
    if kind == 2:
        q = f"A ribbon is {_f(a)} yard long. {who} cuts off {_f(b)} yard. How much ribbon is left?"
        return _ask(rng, q), f"{_fe(a)} - {_fe(b)}", _f(a - b)
    if kind == 3:
        q = (
            f"{who} painted {_f(b)} of a fence in the morning. By evening {_f(a)} of the fence was "
            "painted. What fraction was painted in the afternoon?"
        )
        return _ask(rng, q), f"{_fe(a)} - {_fe(b)}", _f(a - b)
    p = _name(rng)
    q = (
        f"{who} ate {_f(b)} of a pizza and {p} ate {_f(a)} of the same pizza. How much more did "
        f"{p} eat?"
    )
    return _ask(rng, q), f"{_fe(a)} - {_fe(b)}", _f(a - b)


def _nf_left_story(rng: random.Random) -> Made:
    while True:
        a, b = _unlike(rng)
        if a + b < 1:
            break
    p, r = _two_names(rng)
    what = pick(
        rng, ("a pizza", "a pan of brownies", "a garden", "a cake", "the class's reading list")
    )
    q = pick(
        rng,
        (
            f"{p} ate {_f(a)} of {what} and {r} ate {_f(b)} of it. What fraction of {what} is "
            "left?",
            f"{p} used {_f(a)} of {what} and {r} used {_f(b)}. How much of {what} is left over?",
            f"{what} is shared: {p} gets {_f(a)}, {r} gets {_f(b)}, the rest is saved. what "
            "fraction is saved",
            f"{_f(a)} of {what} went to {p} and {_f(b)} went to {r}. Write an equation and find "
            "how much is left.",
        ),
    )
    return _ask(rng, q), f"1 - {_fe(a)} - {_fe(b)}", _f(1 - a - b)


GENERATORS: tuple[Generator, ...] = table(
    ("5.NF.A.1/unlike-denominators", "bare", _nf_unlike_bare),
    ("5.NF.A.1/mixed-numbers", "bare", _nf_mixed_bare),
    ("5.NF.A.2/add-subtract-story", "word", _nf_add_story),
    ("5.NF.A.2/left-over-story", "word", _nf_left_story),
)
