"""Grade 8 problem generators: Statistics and Probability.

The standards 8.SP.A.3 to 8.SP.A.4; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_78._shared import _ans, _e, _num, _say

__all__ = ["GENERATORS"]


def _sp8a3(rng: random.Random) -> Made:
    m = Fraction(rng.randint(2, 40), pick(rng, (1, 2, 10)))
    b = rng.randint(0, 60)
    x = rng.randint(1, 20)
    ctx = pick(
        rng,
        (
            ("plant height (cm)", "hours of sunlight per day"),
            ("test score", "hours studied"),
            ("sales ($)", "ads run"),
            ("weight of a puppy (lb)", "age in months"),
            ("ice cream cones sold", "temperature above 60°F"),
        ),
    )
    if rng.random() < 0.6:
        text = _say(
            rng,
            (
                "A line of fit for {y} against {x} is y = {m}x + {b}. Predict y when x = {v}.",
                "The linear model y = {m}x + {b} relates {y} to {x}. What does the model "
                "predict for x = {v}?",
                "scatter plot line is y = {m}x + {b} ({y} vs {x}). what is the prediction at {v}",
            ),
            y=ctx[0],
            x=ctx[1],
            m=_num(m),
            b=b,
            v=x,
        )
        return text, f"{_e(m)} * {x} + {b}", _ans(m * x + b)
    dx = rng.randint(2, 6)
    text = _say(
        rng,
        (
            "A model for {y} is y = {m}x + {b}, where x is {x}. According to the slope, how "
            "much does y change when x increases by {d}?",
            "In the model y = {m}x + {b} for {y} vs {x}, what is the predicted increase in y "
            "for {d} more units of x?",
        ),
        y=ctx[0],
        x=ctx[1],
        m=_num(m),
        b=b,
        d=dx,
    )
    return text, f"{_e(m)} * {dx}", _ans(m * dx)


def _sp8a3_b(rng: random.Random) -> Made:
    m = Fraction(rng.randint(5, 50), 10)
    b = rng.randint(2, 40)
    ask = pick(rng, ("slope", "intercept"))
    text = _say(
        rng,
        (
            "In a biology experiment, plant height (cm) = {m} × (hours of sunlight) + {b}. "
            "What is the {a} of the model, the number that tells {what}?",
            "A trend line for savings is y = {m}x + {b}, with x in weeks. What is the {a}, "
            "the value that tells {what}?",
            "model y = {m}x + {b}. whats the {a} ({what})",
        ),
        m=_num(m),
        b=b,
        a=ask,
        what="the change per unit of x" if ask == "slope" else "the value when x = 0",
    )
    return (text, _e(m), _ans(m)) if ask == "slope" else (text, str(b), str(b))


def _sp8a4(rng: random.Random) -> Made:
    a, b = rng.randint(5, 40), rng.randint(5, 40)
    c, d = rng.randint(5, 40), rng.randint(5, 40)
    rows = pick(
        rng,
        (
            ("curfew", "no curfew", "chores", "no chores"),
            ("plays a sport", "no sport", "has a pet", "no pet"),
            ("7th grade", "8th grade", "likes math", "does not like math"),
        ),
    )
    table = f"{rows[0]}: {a} {rows[2]}, {b} {rows[3]}; {rows[1]}: {c} {rows[2]}, {d} {rows[3]}"
    kind = rng.randrange(3)
    if kind == 0:
        text = _say(
            rng,
            (
                "A survey two-way table: {t}. What fraction of the students with {r} also "
                "have {c}? (relative frequency for the row)",
                "Use the table ({t}). Among those with {r}, what is the relative frequency of {c}?",
            ),
            t=table,
            r=rows[0],
            c=rows[2],
        )
        return text, f"{a} / ({a} + {b})", _ans(Fraction(a, a + b))
    if kind == 1:
        text = _say(
            rng,
            (
                "Two-way table: {t}. How many students were surveyed in all?",
                "From this table, find the total number of students: {t}.",
                "how many people total in this two way table {t}",
            ),
            t=table,
        )
        return text, f"{a} + {b} + {c} + {d}", str(a + b + c + d)
    text = _say(
        rng,
        (
            "Two-way table: {t}. What fraction of all students have {c}?",
            "In the table {t}, what is the relative frequency of {c} for the whole group?",
        ),
        t=table,
        c=rows[2],
    )
    return text, f"({a} + {c}) / ({a} + {b} + {c} + {d})", _ans(Fraction(a + c, a + b + c + d))


def _sp8a4_b(rng: random.Random) -> Made:
    a, b = rng.randint(5, 60), rng.randint(5, 60)
    total = a + b
    text = _say(
        rng,
        (
            "In a two-way table, the row total is {t}. One cell in the row is {a}. What is the "
            "other cell?",
            "A two-way table row reads: yes {a}, no ?, total {t}. Find the missing number.",
            "two way table: {a} and blank with total {t}, whats the blank",
            "Complete the table: a column has {a} in the top cell and a total of {t}. What is "
            "the bottom cell?",
        ),
        a=a,
        t=total,
    )
    return text, f"{total} - {a}", str(b)


GENERATORS: tuple[Generator, ...] = table(
    ("8.SP.A.3/linear-model-predict", "word", _sp8a3),
    ("8.SP.A.3/interpret-intercept-slope", "word", _sp8a3_b),
    ("8.SP.A.4/two-way-table", "word", _sp8a4),
    ("8.SP.A.4/missing-cell", "bare", _sp8a4_b),
)
