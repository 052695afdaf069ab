"""Grade 7 problem generators: Statistics and Probability, clusters A–B.

The standards 7.SP.A.2 to 7.SP.B.4; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_78._shared import _ans, _e, _num, _say

__all__ = ["GENERATORS"]


def _sp2_count(rng: random.Random) -> Made:
    sample = pick(rng, (20, 25, 40, 50, 60, 80, 100))
    hits = rng.randint(2, sample - 2)
    pop = sample * rng.randint(5, 40)
    topic = pick(
        rng,
        (
            ("students", "prefer pizza for lunch"),
            ("voters", "plan to vote for Candidate A"),
            ("light bulbs", "are defective"),
            ("fish in the lake", "are trout"),
            ("students", "walk to school"),
            ("shoppers", "used a coupon"),
        ),
    )
    text = _say(
        rng,
        (
            "In a random sample of {s} {p}, {h} {q}. Estimate how many of the {n} {p} {q}.",
            "A random sample of {s} out of {n} {p} found that {h} {q}. Predict the number in "
            "the whole group.",
            "{h} of {s} randomly chosen {p} {q}. About how many of all {n} {p} would you expect?",
            "survey of {s} {p}: {h} {q}. total is {n}. how many in all would",
        ),
        s=sample,
        h=hits,
        n=pop,
        p=topic[0],
        q=topic[1],
    )
    return text, f"{hits} / {sample} * {pop}", _ans(Fraction(hits * pop, sample))


def _sp2_mean(rng: random.Random) -> Made:
    k = pick(rng, (4, 5, 8))
    data = [rng.randint(2, 12) for _ in range(k)]
    topic = pick(
        rng,
        (
            "word lengths (letters) from randomly chosen words in a book",
            "hours of sleep from randomly chosen students",
            "numbers of pets in randomly chosen homes",
            "minutes spent on homework by randomly picked 7th graders",
        ),
    )
    text = _say(
        rng,
        (
            "A random sample of {t}: {d}. Use the sample mean to estimate the mean of the "
            "population.",
            "Here are {t}: {d}. What is the best estimate of the population mean?",
            "estimate the mean for everyone using this sample: {d}",
        ),
        t=topic,
        d=", ".join(map(str, data)),
    )
    return text, f"mean({', '.join(map(str, data))})", _ans(Fraction(sum(data), k))


def _sp3(rng: random.Random) -> Made:
    mad = rng.randint(2, 8)
    times = Fraction(rng.randint(2, 8), pick(rng, (1, 2)))
    m2 = rng.randint(100, 170)
    m1 = m2 + times * mad
    groups = pick(
        rng, (("basketball", "soccer"), ("7th graders", "5th graders"), ("Team A", "Team B"))
    )
    text = _say(
        rng,
        (
            "The mean height of the {a} players is {m1} cm and of the {b} players is {m2} cm. "
            "Both groups have a mean absolute deviation of {d} cm. The difference in means is "
            "how many times the MAD?",
            "Mean of {a}: {m1}; mean of {b}: {m2}; MAD of each: {d}. Express the difference "
            "between the centers as a multiple of the MAD.",
            "two groups, means {m1} and {m2}, both have MAD {d}. how many MADs apart are they",
        ),
        a=groups[0],
        b=groups[1],
        m1=_num(m1),
        m2=m2,
        d=mad,
    )
    return text, f"({_e(m1)} - {m2}) / {mad}", _ans(times)


def _sp3_bare(rng: random.Random) -> Made:
    k = 5
    a = [rng.randint(10, 40) for _ in range(k)]
    b = [rng.randint(10, 40) for _ in range(k)]
    text = _say(
        rng,
        (
            "Data set A: {a}. Data set B: {b}. What is the difference between the means "
            "(A minus B)?",
            "Find the mean of each data set and subtract: A = {a}; B = {b}.",
            "How far apart are the centers (means) of {a} and {b}? Give mean A - mean B.",
        ),
        a=", ".join(map(str, a)),
        b=", ".join(map(str, b)),
    )
    return (
        text,
        f"mean({', '.join(map(str, a))}) - mean({', '.join(map(str, b))})",
        _ans(Fraction(sum(a) - sum(b), k)),
    )


def _sp4(rng: random.Random) -> Made:
    k = pick(rng, (5, 7))
    a = [rng.randint(3, 12) for _ in range(k)]
    b = [rng.randint(3, 12) for _ in range(k)]
    measure = pick(rng, ("median", "mean"))
    topic = pick(
        rng,
        (
            (
                "word lengths in a 7th-grade science book",
                "word lengths in a 4th-grade science book",
            ),
            (
                "minutes of reading by sampled 8th graders",
                "minutes of reading by sampled 6th graders",
            ),
            (
                "heights (in) of sampled bean plants in sun",
                "heights (in) of sampled bean plants in shade",
            ),
        ),
    )
    text = _say(
        rng,
        (
            "Random samples: {ta}: {a}. {tb}: {b}. By how much is the {m} of the first sample "
            "greater than the {m} of the second?",
            "Compare the {m}s of two random samples. Sample 1 ({ta}): {a}. Sample 2 ({tb}): "
            "{b}. Find {m} 1 minus {m} 2.",
            "sample A is {a} and sample B is {b}. whats the difference in {m}s (A - B)",
        ),
        ta=topic[0],
        tb=topic[1],
        a=", ".join(map(str, a)),
        b=", ".join(map(str, b)),
        m=measure,
    )
    fa, fb = (", ".join(map(str, a)), ", ".join(map(str, b)))
    if measure == "mean":
        return text, f"mean({fa}) - mean({fb})", _ans(Fraction(sum(a) - sum(b), k))
    sa, sb = sorted(a), sorted(b)
    return text, f"median({fa}) - median({fb})", _ans(sa[k // 2] - sb[k // 2])


GENERATORS: tuple[Generator, ...] = table(
    ("7.SP.A.2/sample-to-population", "word", _sp2_count),
    ("7.SP.A.2/sample-mean-estimate", "word", _sp2_mean),
    ("7.SP.B.3/center-difference-in-mads", "word", _sp3),
    ("7.SP.B.3/difference-of-means", "bare", _sp3_bare),
    ("7.SP.B.4/compare-two-samples", "word", _sp4),
)
