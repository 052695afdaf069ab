"""Grade 2 problem generators: Measurement and Data, clusters C–D.

The standards 2.MD.C.7 to 2.MD.D.10; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._registry import Generator, Made, table
from tutorgraph.training.problems._words import NAMES, pick
from tutorgraph.training.problems.grade_k2._shared import _TOPICS, _choose

__all__ = ["GENERATORS"]


def _g2_time(rng: random.Random) -> Made:
    h = rng.randint(1, 12)
    k = rng.randint(1, 11)
    m = 5 * k
    half = pick(rng, ("a.m.", "p.m."))
    return _choose(
        rng,
        (
            (
                f"The minute hand points to the {k}. How many minutes after the hour is it?",
                f"{k} * 5",
                m,
            ),
            (
                f"The hour hand is just past the {h} and the minute hand is on the {k}. "
                f"The time is {h}:__ {half}. What goes in the blank?",
                f"{k} * 5",
                m,
            ),
            (
                f"The clock says {h}:{m:02d}. What number does the minute hand point to?",
                f"{m} / 5",
                k,
            ),
            (f"its {h}:{m:02d} {half} how many minutes past {h} is that", f"{m}", m),
            (
                f"Count by 5s: the minute hand is on the {k}. How many minutes is that?",
                f"{k} * 5",
                m,
            ),
            (
                f"It is {h}:{m:02d} {half}. What will the minutes show in 5 minutes?",
                f"({m} + 5) % 60",
                (m + 5) % 60,
            ),
        ),
    )


def _g2_time_word(rng: random.Random) -> Made:
    h = rng.randint(1, 11)
    k = rng.randint(1, 10)
    m = 5 * k
    extra = 5 * rng.randint(1, 11 - k)
    name = pick(rng, NAMES)
    half = pick(rng, ("a.m.", "p.m."))
    event = pick(rng, ("soccer practice", "the movie", "lunch", "the bus", "art class"))
    return _choose(
        rng,
        (
            (
                f"{name}'s digital clock says {h}:{m:02d} {half}. On a clock with hands, "
                "what number does the minute hand point to?",
                f"{m} / 5",
                k,
            ),
            (
                f"{event.capitalize()} starts at quarter past {h} {half}. How many minutes "
                f"after {h}:00 is that?",
                "3 * 5",
                15,
            ),
            (
                f"{name} looks at the clock for {event}: the long hand is on the {k}. "
                f"{name} writes the time as {h}:__ {half}. what number goes in the blank",
                f"{k} * 5",
                m,
            ),
            (
                f"The minute hand on the kitchen clock points to {k}. How many minutes "
                f"after {h} o'clock is it?",
                f"{k} * 5",
                m,
            ),
            (
                f"{name} leaves at {h}:{m:02d} {half} and walks for {extra} minutes. What "
                f"number does the minute hand point to when {name} gets there?",
                f"({m} + {extra}) / 5",
                (m + extra) // 5,
            ),
        ),
    )


def _coins(n: int, kind: str) -> str:
    """ "1 dime", "3 dimes", "2 pennies"."""
    if n == 1:
        return f"1 {kind}"
    return f"{n} " + ("pennies" if kind == "penny" else kind + "s")


def _g2_money(rng: random.Random) -> Made:
    q, d, n, p = rng.randint(1, 3), rng.randint(1, 5), rng.randint(1, 4), rng.randint(1, 9)
    bills = rng.randint(1, 5)
    cq, cd, cn, cp = (
        _coins(q, "quarter"),
        _coins(d, "dime"),
        _coins(n, "nickel"),
        _coins(p, "penny"),
    )
    cb = _coins(bills, "dollar bill")
    name = pick(rng, NAMES)
    total = 25 * q + 10 * d + 5 * n + p
    price = rng.randint(10, 95)
    pay = 100 if price > 50 else pick(rng, (50, 100))
    return _choose(
        rng,
        (
            (
                f"{name} has {cq}, {cd}, {cn} and {cp}. How many cents does {name} have?",
                f"{q} * 25 + {d} * 10 + {n} * 5 + {p}",
                total,
            ),
            (
                f"{name} has {cd} and {cp}. How many cents is that?",
                f"{d} * 10 + {p}",
                10 * d + p,
            ),
            (
                f"{name} has {cb} and {cq}. How many cents in all?",
                f"{bills} * 100 + {q} * 25",
                100 * bills + 25 * q,
            ),
            (
                f"A toy costs {price}¢. {name} pays with {pay}¢. How much change, in cents?",
                f"{pay} - {price}",
                pay - price,
            ),
            (
                f"i have {cq} and {cn} how many cents",
                f"{q} * 25 + {n} * 5",
                25 * q + 5 * n,
            ),
            (
                f"{name} has ${bills} and {cd}. How many cents is that?",
                f"{bills} * 100 + {d} * 10",
                100 * bills + 10 * d,
            ),
        ),
    )


def _g2_coins_bare(rng: random.Random) -> Made:
    q, d, n, p = rng.randint(1, 3), rng.randint(1, 6), rng.randint(0, 5), rng.randint(1, 9)
    bills = rng.randint(1, 9)
    cq, cd, cn, cp = (
        _coins(q, "quarter"),
        _coins(d, "dime"),
        _coins(n, "nickel"),
        _coins(p, "penny"),
    )
    total = 25 * q + 10 * d + 5 * n + p
    return _choose(
        rng,
        (
            (
                f"{cq} + {cd} + {cp} = ___¢",
                f"{q} * 25 + {d} * 10 + {p}",
                25 * q + 10 * d + p,
            ),
            (
                f"How many cents? {cd}, {cn}, {cp}",
                f"{d} * 10 + {n} * 5 + {p}",
                10 * d + 5 * n + p,
            ),
            (
                f"Count the money: {cq}, {cd}, {cn}, {cp}. Write the total in ¢.",
                f"{q} * 25 + {d} * 10 + {n} * 5 + {p}",
                total,
            ),
            (f"how many cents is {bills} dollars", f"{bills} * 100", 100 * bills),
            (
                f"${bills} and {cq} = ___¢",
                f"{bills} * 100 + {q} * 25",
                100 * bills + 25 * q,
            ),
            (f"How many nickels make {5 * (n + 1)}¢?", f"{5 * (n + 1)} / 5", n + 1),
        ),
    )


def _g2_line_plot(rng: random.Random) -> Made:
    values = [rng.randint(3, 8) for _ in range(rng.randint(6, 10))]
    listing = ", ".join(str(v) for v in values)
    target = pick(rng, values)
    count = values.count(target)
    ones = " + ".join("1" for v in values if v == target)
    obj = pick(rng, ("pencils", "leaves", "shoes", "crayons", "sticks"))
    unit = pick(rng, ("inches", "centimeters"))
    return _choose(
        rng,
        (
            (
                f"The class measured {obj} in {unit}: {listing}. On a line plot, how many "
                f"X's go above {target}?",
                ones,
                count,
            ),
            (
                f"Lengths of {obj} ({unit}): {listing}. How many {obj} were measured?",
                " + ".join("1" for _ in values),
                len(values),
            ),
            (
                f"Data: {listing} {unit}. What is the difference between the longest and "
                f"shortest {obj}?",
                f"max({listing}) - min({listing})",
                max(values) - min(values),
            ),
            (f"on a line plot of {listing} how many xs above {target}", ones, count),
            (
                f"A line plot shows these {obj} lengths: {listing} {unit}. How long is "
                "the longest?",
                f"max({listing})",
                max(values),
            ),
            (
                f"Measurements of {obj} in {unit}: {listing}. How many are longer than {target}?",
                " + ".join(["0"] + ["1" for v in values if v > target]),
                sum(1 for v in values if v > target),
            ),
        ),
    )


def _g2_bar_graph(rng: random.Random) -> Made:
    topic, choices = pick(rng, _TOPICS)
    labels = rng.sample(choices, 4)
    counts = [rng.randint(2, 15) for _ in labels]
    data = ", ".join(f"{lab} {c}" for lab, c in zip(labels, counts, strict=True))
    (w, x, y, z), (a, b, c, d) = labels, counts
    intro = pick(
        rng,
        (
            f"A bar graph shows votes for favorite {topic}",
            f"The bar graph shows each kid's favorite {topic}",
            f"A class made a bar graph of their favorite {topic}",
        ),
    )
    return _choose(
        rng,
        (
            (
                f"{intro}: {data}. How many more chose {w if a >= b else x} than "
                f"{x if a >= b else w}?",
                f"abs({a} - {b})",
                abs(a - b),
            ),
            (f"{intro}: {data}. How many votes in all?", f"{a} + {b} + {c} + {d}", a + b + c + d),
            (f"{intro}: {data}. How many chose {y} or {z}?", f"{c} + {d}", c + d),
            (
                f"{intro}: {data}. how many fewer for {z if d <= b else x} than "
                f"{x if d <= b else z}",
                f"abs({b} - {d})",
                abs(b - d),
            ),
            (
                f"{intro}: {data}. If 3 more kids pick {w}, how many will {w} have?",
                f"{a} + 3",
                a + 3,
            ),
            (f"{intro}: {data}. How many did not pick {w}?", f"{b} + {c} + {d}", b + c + d),
        ),
    )


def _g2_picture_graph(rng: random.Random) -> Made:
    topic, choices = pick(rng, _TOPICS)
    labels = rng.sample(choices, 4)
    counts = [rng.randint(1, 9) for _ in labels]
    rows = "; ".join(f"{lab}: {'☺' * c}" for lab, c in zip(labels, counts, strict=True))
    (w, x, y, z), (a, b, c, d) = labels, counts
    return _choose(
        rng,
        (
            (
                f"Picture graph of favorite {topic}, each ☺ is 1 child. {rows}. How many "
                "children in all?",
                f"{a} + {b} + {c} + {d}",
                a + b + c + d,
            ),
            (
                f"Picture graph (each ☺ = 1 vote). {rows}. How many more votes did "
                f"{w if a >= c else y} get than {y if a >= c else w}?",
                f"abs({a} - {c})",
                abs(a - c),
            ),
            (
                f"Picture graph: {rows}. How many votes for {x} and {z} together?",
                f"{b} + {d}",
                b + d,
            ),
            (f"the picture graph shows {rows} how many for {y}", f"{c}", c),
            (
                f"Picture graph of favorite {topic}: {rows}. If 2 kids change from {w} to "
                f"{x}, how many will {x} have?",
                f"{b} + 2",
                b + 2,
            ),
            (
                f"Picture graph (1 picture = 1 child): {rows}. How many did not choose {z}?",
                f"{a} + {b} + {c}",
                a + b + c,
            ),
        ),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("2.MD.C.7/five-minutes", "bare", _g2_time),
    ("2.MD.C.7/clock-story", "word", _g2_time_word),
    ("2.MD.C.8/coins-and-bills", "word", _g2_money),
    ("2.MD.C.8/coin-sums", "bare", _g2_coins_bare),
    ("2.MD.D.9/line-plot", "word", _g2_line_plot),
    ("2.MD.D.10/bar-graph", "word", _g2_bar_graph),
    ("2.MD.D.10/picture-graph", "word", _g2_picture_graph),
)
