"""Grade 1 problem generators: Measurement and Data.

The standards 1.MD.A.1 to 1.MD.C.4; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._registry import Generator, Made, table
from tutorgraph.training.problems._words import NAMES, pick
from tutorgraph.training.problems.grade_k2._shared import _TOPICS, _choose

__all__ = ["GENERATORS"]


def _g1_order(rng: random.Random) -> Made:
    a, b, c = rng.sample(range(3, 16), 3)
    items = rng.sample(("pencil", "crayon", "ribbon", "rope", "stick", "straw", "snake"), 3)
    x, y, z = items
    return _choose(
        rng,
        (
            (
                f"A {x} is {a} cubes long, a {y} is {b} cubes and a {z} is {c} cubes. How "
                "long is the longest one?",
                f"max({a}, {b}, {c})",
                max(a, b, c),
            ),
            (
                f"A {x} is {a} cubes long, a {y} is {b} cubes and a {z} is {c} cubes. How "
                "long is the shortest one?",
                f"min({a}, {b}, {c})",
                min(a, b, c),
            ),
            (
                f"Order by length: {x} {a} clips, {y} {b} clips, {z} {c} clips. How long "
                "is the one in the middle?",
                f"median({a}, {b}, {c})",
                sorted((a, b, c))[1],
            ),
            (
                f"The {x} is as long as a string. The string is {a} cubes long. How long "
                f"is the {x}?",
                f"{a}",
                a,
            ),
            (
                f"which is longest {x} {a} or {y} {b} or {z} {c} how long is it",
                f"max({a}, {b}, {c})",
                max(a, b, c),
            ),
            (
                f"Put in order from shortest to longest: {x} ({a}), {y} ({b}), {z} ({c}). "
                "What is the length of the first one?",
                f"min({a}, {b}, {c})",
                min(a, b, c),
            ),
        ),
    )


def _g1_units(rng: random.Random) -> Made:
    a, b = rng.randint(2, 9), rng.randint(2, 9)
    unit = pick(rng, ("paper clips", "cubes", "tiles", "erasers"))
    obj = pick(rng, ("book", "desk", "shoe", "notebook", "tray", "rug"))
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"{name} lays {a} red {unit} and {b} blue {unit} end to end along a "
                f"{obj}. How many {unit} long is the {obj}?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"A {obj} is {a} {unit} long. How many {unit} long are two {obj}s end to end?",
                f"{a} + {a}",
                2 * a,
            ),
            (
                f"{name} measures a {obj} with {unit} with no gaps. It takes {a + b}. How "
                f"long is the {obj}?",
                f"{a + b}",
                a + b,
            ),
            (
                f"The {obj} is {a + b} {unit} long. {name} has laid down {a}. How many "
                f"more {unit} are needed?",
                f"{a + b} - {a}",
                b,
            ),
            (
                f"my {obj} is {a} {unit} and my friends is {b} {unit} how much longer is "
                "the longer one",
                f"abs({a} - {b})",
                abs(a - b),
            ),
            (
                f"How long is a line of {a + b} {unit} placed end to end, in {unit}?",
                f"{a + b}",
                a + b,
            ),
        ),
    )


def _g1_time(rng: random.Random) -> Made:
    h = rng.randint(1, 12)
    nxt = h % 12 + 1
    half = pick(rng, ("half past", "thirty minutes after"))
    return _choose(
        rng,
        (
            (
                f"The short hand is on the {h} and the long hand is on the 12. What hour is it?",
                f"{h}",
                h,
            ),
            ("The long hand points to the 6. How many minutes past the hour is it?", "6 * 5", 30),
            (f"It is {h}:00. What hour will it be in one hour?", f"{h} % 12 + 1", nxt),
            (f"What time is {half} {h}? How many minutes after {h}:00 is it?", "30", 30),
            (f"the digital clock says {h}:30 what hour is the short hand near", f"{h}", h),
            (f"It is {h}:30. How many minutes until {nxt}:00?", "60 - 30", 30),
        ),
    )


def _g1_time_word(rng: random.Random) -> Made:
    h = rng.randint(1, 10)
    d = rng.randint(1, 2)
    name = pick(rng, NAMES)
    event = pick(rng, ("soccer practice", "the party", "swimming", "the show", "story time"))
    return _choose(
        rng,
        (
            (
                f"{event.capitalize()} starts at {h}:00 and lasts {d} hours. At what hour "
                "does it end?",
                f"{h} + {d}",
                h + d,
            ),
            (
                f"{name} eats lunch at half past {h}. How many minutes after {h}:00 is that?",
                "30",
                30,
            ),
            (
                f"{name} goes to bed at {h}:00 and the clock's short hand points at the "
                f"{h}. where does the long hand point",
                "12",
                12,
            ),
            (
                f"{event.capitalize()} starts at {h}:30 and ends at {h + d}:30. How many "
                "hours long is it?",
                f"{h + d} - {h}",
                d,
            ),
            (
                f"{name}'s clock shows {h}:30. Half an hour later, what hour is it?",
                f"{h} + 1",
                h + 1,
            ),
            (
                f"{name} started reading at {h}:00 and stopped at {h}:30. How many "
                f"minutes did {name} read?",
                "30 - 0",
                30,
            ),
        ),
    )


def _g1_data(rng: random.Random) -> Made:
    a, b, c = rng.randint(2, 12), rng.randint(2, 12), rng.randint(2, 12)
    topic, choices = pick(rng, _TOPICS)
    x, y, z = rng.sample(choices, 3)
    intro = pick(
        rng,
        (
            f"A class voted for a favorite {topic}",
            f"The tally chart shows kids' favorite {topic}",
            f"Our chart shows each child's favorite {topic}",
        ),
    )
    data = f"{intro}: {x} {a}, {y} {b}, {z} {c}."
    return _choose(
        rng,
        (
            (f"{data} How many kids voted in all?", f"{a} + {b} + {c}", a + b + c),
            (
                f"{data} How many more chose {x if a >= b else y} than {y if a >= b else x}?",
                f"abs({a} - {b})",
                abs(a - b),
            ),
            (f"{data} How many chose {x} or {z}?", f"{a} + {c}", a + c),
            (
                f"{data} how many fewer picked {z if c <= b else y} than {y if c <= b else z}",
                f"abs({b} - {c})",
                abs(b - c),
            ),
            (f"{data} How many votes did the winner get?", f"max({a}, {b}, {c})", max(a, b, c)),
            (f"{data} How many did not choose {y}?", f"{a} + {c}", a + c),
        ),
    )


def _g1_tally(rng: random.Random) -> Made:
    topic, choices = pick(rng, _TOPICS)
    x, y, z = rng.sample(choices, 3)
    a, b, c = rng.randint(1, 12), rng.randint(1, 12), rng.randint(1, 12)

    def tally(n: int) -> str:
        return " ".join(["||||/"] * (n // 5) + (["|" * (n % 5)] if n % 5 else []))

    chart = f"{x}: {tally(a)}; {y}: {tally(b)}; {z}: {tally(c)}"
    return _choose(
        rng,
        (
            (f"Tally chart of favorite {topic} ({chart}). How many tallies for {x}?", f"{a}", a),
            (
                f"Tally chart ({chart}). How many kids answered in all?",
                f"{a} + {b} + {c}",
                a + b + c,
            ),
            (
                f"Tally chart of favorite {topic} ({chart}). How many more for "
                f"{y if b >= c else z} than {z if b >= c else y}?",
                f"abs({b} - {c})",
                abs(b - c),
            ),
            (
                f"the tally chart shows {chart} how many for {x} and {z} together",
                f"{a} + {c}",
                a + c,
            ),
            (f"Count the tallies ({chart}). How many picked {y}?", f"{b}", b),
            (
                f"Tally chart ({chart}). How many fewer chose {x if a <= c else z} than "
                f"{z if a <= c else x}?",
                f"abs({a} - {c})",
                abs(a - c),
            ),
        ),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("1.MD.A.1/order-by-length", "word", _g1_order),
    ("1.MD.A.2/units-end-to-end", "word", _g1_units),
    ("1.MD.B.3/hours-half-hours", "bare", _g1_time),
    ("1.MD.B.3/clock-story", "word", _g1_time_word),
    ("1.MD.C.4/three-category-data", "word", _g1_data),
    ("1.MD.C.4/tally-chart", "word", _g1_tally),
)
