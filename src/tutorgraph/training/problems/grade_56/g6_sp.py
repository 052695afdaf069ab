"""Grade 6 problem generators: Statistics and Probability.

The standards 6.SP.A.3 to 6.SP.B.5; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick, plural
from tutorgraph.training.problems.grade_56._shared import F, _ask, _d, _fa, _name

__all__ = ["GENERATORS"]


def _data(rng: random.Random, n: int, lo: int, hi: int) -> list[int]:
    return sorted(rng.randint(lo, hi) for _ in range(n))


def _args(xs: Sequence[int | Fraction]) -> str:
    return ", ".join(str(x) for x in xs)


def _sp_center_spread(rng: random.Random) -> Made:
    xs = _data(rng, rng.randint(5, 9), 1, 40)
    shuffled = list(xs)
    rng.shuffle(shuffled)
    if rng.random() < 0.5:
        q = pick(
            rng,
            (
                "A measure of variation sums up how spread out data are in one number. Find the "
                f"range of {_args(shuffled)}.",
                f"What is the range of the data: {_args(shuffled)}?",
            ),
        )
        return _ask(rng, q), f"max({_args(shuffled)}) - min({_args(shuffled)})", str(xs[-1] - xs[0])
    q = pick(
        rng,
        (
            f"A measure of center sums up the data {_args(shuffled)} in one number. Find the "
            "median.",
            f"what single number is the middle of {_args(shuffled)}",
        ),
    )
    return (
        _ask(rng, q),
        f"median({_args(shuffled)})",
        _d(F(sorted(xs)[len(xs) // 2] + sorted(xs)[(len(xs) - 1) // 2], 2)),
    )


def _sp_plots(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    if kind == 0:
        counts = [rng.randint(0, 6) for _ in range(5)]
        start = rng.randint(0, 10)
        shown = ", ".join(f"{c} dots above {start + i}" for i, c in enumerate(counts))
        q = f"A dot plot shows {shown}. How many dots are there in all?"
        return _ask(rng, q), " + ".join(map(str, counts)), str(sum(counts))
    xs = _data(rng, rng.choice([7, 9, 11]), 10, 60)
    if kind == 1:
        q = f"Make a box plot of {_args(xs)}. Where is the line inside the box (the median)?"
        return _ask(rng, q), f"median({_args(xs)})", str(xs[len(xs) // 2])
    half = xs[: len(xs) // 2]
    q = f"For a box plot of {_args(xs)}, what is the lower quartile (the left edge of the box)?"
    return (
        _ask(rng, q),
        f"median({_args(half)})",
        _d(F(half[len(half) // 2] + half[(len(half) - 1) // 2], 2)),
    )


def _sp_histogram(rng: random.Random) -> Made:
    xs = _data(rng, rng.randint(8, 14), 10, 49)
    lo = pick(rng, (10, 20, 30, 40))
    count = sum(1 for x in xs if lo <= x <= lo + 9)
    shuffled = list(xs)
    rng.shuffle(shuffled)
    who = _name(rng)
    q = pick(
        rng,
        (
            f"{who} makes a histogram of these test scores with bins 10-19, 20-29, 30-39, 40-49: "
            f"{_args(shuffled)}. How tall is the bar for {lo}-{lo + 9}?",
            f"Data: {_args(shuffled)}. In a histogram with intervals of 10 starting at 10, how "
            f"many values are in the {lo}-{lo + 9} bar?",
        ),
    )
    ones = " + ".join("1" for x in shuffled if lo <= x <= lo + 9) or "0"
    return _ask(rng, q), ones, str(count)


def _sp_observations(rng: random.Random) -> Made:
    counts = [rng.randint(1, 12) for _ in range(rng.randint(3, 5))]
    what = pick(rng, ("pets", "siblings", "books read last week", "hours of sleep"))
    table = ", ".join(
        f"{c} {plural(('student', 'students'), c)} said {i + 1}" for i, c in enumerate(counts)
    )
    q = pick(
        rng,
        (
            f"A class survey asked about {what}: {table}. How many observations are in the data "
            "set?",
            f"Survey on {what}: {table}. how many students were surveyed",
            f"Report the number of observations: {table} (question: how many {what}?).",
        ),
    )
    return _ask(rng, q), " + ".join(map(str, counts)), str(sum(counts))


def _sp_measures(rng: random.Random) -> Made:
    n = rng.randint(4, 8)
    while True:
        xs = [rng.randint(1, 30) for _ in range(n - 1)]
        # The last value makes the mean a whole number, as worksheets usually do.
        last = rng.randint(max(xs) // 2, 25) * n - sum(xs)
        if last >= 0:
            xs.append(last)
            break
    rng.shuffle(xs)
    mean = F(sum(xs), n)
    s = sorted(xs)
    kind = rng.randrange(4)
    ctx = pick(
        rng,
        ("", "Points scored in games: ", "Minutes spent reading: ", "Heights of seedlings (cm): "),
    )
    if kind == 0:
        q = pick(rng, (f"{ctx}{_args(xs)}. Find the mean.", f"what is the mean of {_args(xs)}"))
        return _ask(rng, q), f"mean({_args(xs)})", _d(mean)
    if kind == 1:
        q = pick(rng, (f"{ctx}{_args(xs)}. Find the median.", f"median of {_args(xs)}?"))
        return _ask(rng, q), f"median({_args(xs)})", _d(_median(s))
    if kind == 2:
        lower, upper = s[: n // 2], s[(n + 1) // 2 :]
        q = pick(
            rng,
            (f"{ctx}{_args(xs)}. Find the interquartile range.", f"whats the IQR of {_args(xs)}"),
        )
        expr = f"median({_args(upper)}) - median({_args(lower)})"
        return _ask(rng, q), expr, _d(_median(upper) - _median(lower))
    mad = sum((abs(x - mean) for x in xs), F(0)) / n
    q = pick(
        rng,
        (
            f"{ctx}{_args(xs)}. Find the mean absolute deviation.",
            f"how do you find the MAD of {_args(xs)}",
        ),
    )
    expr = f"mean({', '.join(f'abs({x} - {mean})' for x in xs)})"
    return _ask(rng, q), expr, _d(mad) if (mad * 1000).denominator == 1 else _fa(rng, mad)


def _median(xs: Sequence[int]) -> Fraction:
    s = sorted(xs)
    return F(s[len(s) // 2] + s[(len(s) - 1) // 2], 2)


def _sp_measures_story(rng: random.Random) -> Made:
    who = _name(rng)
    n = rng.randint(5, 7)
    xs = [rng.randint(2, 20) for _ in range(n)]
    what, unit = pick(
        rng,
        (
            ("scores on a quiz", "points"),
            ("hours of practice each week", "hours"),
            ("books read last month", "books"),
            ("minutes to walk to school", "minutes"),
        ),
    )
    lead = f"{who} collected the {what} of {n} friends: {_args(xs)} {unit}."
    if rng.random() < 0.5:
        q = f"{lead} What is the median?"
        return _ask(rng, q), f"median({_args(xs)})", _d(_median(xs))
    mean = F(sum(xs), n)
    q = f"{lead} What is the mean?"
    ans = _d(mean) if (mean * 1000).denominator == 1 else _fa(rng, mean)
    return _ask(rng, q), f"mean({_args(xs)})", ans


GENERATORS: tuple[Generator, ...] = table(
    ("6.SP.A.3/center-and-spread", "bare", _sp_center_spread),
    ("6.SP.B.4/read-plots", "word", _sp_plots),
    ("6.SP.B.4/histogram", "word", _sp_histogram),
    ("6.SP.B.5.a/observations", "word", _sp_observations),
    ("6.SP.B.5.c/measures", "bare", _sp_measures),
    ("6.SP.B.5.c/measures-story", "word", _sp_measures_story),
)
