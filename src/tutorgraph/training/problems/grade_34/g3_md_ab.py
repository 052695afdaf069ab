"""Grade 3 problem generators: Measurement and Data, clusters A–B.

The standards 3.MD.A.1 to 3.MD.B.4; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import NAMES, fraction_text, pick
from tutorgraph.training.problems.grade_34._shared import _ones, _say, _voice

__all__ = ["GENERATORS"]


def _clock(h: int, m: int) -> str:
    return f"{h}:{m:02d}"


def _g3md1_story(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    h = rng.randint(1, 10)
    m1 = rng.randint(0, 40)
    span = rng.randint(8, 59)
    end = h * 60 + m1 + span
    h2, m2 = divmod(end, 60)
    act = pick(
        rng, ("soccer practice", "the movie", "piano lessons", "recess", "the bus ride", "homework")
    )
    mode = rng.randrange(3)
    kw = {"name": name, "act": act, "s": _clock(h, m1), "e": _clock(h2, m2), "span": span}
    if mode == 0:
        text = _say(rng, (
            "{act} starts at {s} and ends at {e}. How many minutes long is it?",
            "{name} starts {act} at {s} and finishes at {e}. How many minutes did it take?",
            "i started {act} at {s} and stopped at {e} how many minutes is that",
            "Use a number line: from {s} to {e} is how many minutes?",
        ), **kw)  # fmt: skip
        return text, f"({h2} * 60 + {m2}) - ({h} * 60 + {m1})", str(span)
    if mode == 1:
        a, b = rng.randint(10, 45), rng.randint(5, 40)
        text = _say(rng, (
            "{name} reads for {a} minutes before dinner and {b} minutes after. How many minutes in "
            "all?",
            "{name} practices for {a} minutes on Monday and {b} minutes on Tuesday. What is the "
            "total time in minutes?",
            "A recipe needs {a} minutes to mix and {b} minutes to bake. How many minutes "
            "altogether?",
            "{name} had {c} minutes of free time and used {b} minutes playing. How many minutes "
            "are left?",
        ), name=name, a=a, b=b, c=a + b)  # fmt: skip
        if "left" in text:
            return text, f"{a + b} - {b}", str(a)
        return text, f"{a} + {b}", str(a + b)
    text = _say(rng, (
        "{name} finished {act} at {e}. It lasted {span} minutes. At what time did it start? Give "
        "the minutes after {h}:00.",
        "{act} ended at {e} after {span} minutes. How many minutes after {h}:00 did it start?",
    ), h=h, **kw)  # fmt: skip
    return text, f"({h2} * 60 + {m2}) - {span} - {h} * 60", str(m1)


def _g3md1_bare(rng: random.Random) -> Made:
    h = rng.randint(1, 12)
    mode = rng.randrange(3)
    if mode == 0:
        mark, extra = rng.randint(1, 11), rng.randint(1, 4)
        text = pick(rng, (
            f"The hour hand is just past {h} and the minute hand is {extra} small marks past the "
            f"{mark}. How many minutes after {h}:00 is it?",
            f"minute hand is {extra} little lines after the {mark} how many minutes past the hour",
            f"Tell the time to the nearest minute: the minute hand points {extra} minutes past the "
            f"{mark}. How many minutes past {h} o'clock?",
        ))  # fmt: skip
        return text, f"{mark} * 5 + {extra}", str(mark * 5 + extra)
    m1, m2 = sorted(rng.sample(range(0, 60), 2))
    if mode == 1:
        text = pick(
            rng,
            (
                f"How many minutes from {_clock(h, m1)} to {_clock(h, m2)}?",
                f"Find the time interval: {_clock(h, m1)} to {_clock(h, m2)}, in minutes.",
                f"how long from {_clock(h, m1)} to {_clock(h, m2)} in minutes",
            ),
        )
        return text, f"{m2} - {m1}", str(m2 - m1)
    text = pick(
        rng,
        (
            f"What time is {m2 - m1} minutes after {_clock(h, m1)}? Give the minutes after {h}:00.",
            f"{_clock(h, m1)} plus {m2 - m1} minutes is how many minutes past {h}",
        ),
    )
    return text, f"{m1} + {m2 - m1}", str(m2)


def _g3md2_story(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    unit = pick(rng, ("grams", "kilograms", "liters"))
    what = {
        "grams": ("an apple", "a pencil case", "a bag of nuts", "a toy"),
        "kilograms": ("a bag of rice", "a watermelon", "a box of books", "a dog"),
        "liters": ("a bucket", "a fish tank", "a jug", "a pot"),
    }[unit]
    item = pick(rng, what)
    a, b = rng.randint(2, 9), rng.randint(2, 9)
    if unit == "grams":
        a, b = a * 10 + rng.randint(0, 9) * 10, b * 5
    mode = rng.randrange(4)
    kw = {"name": name, "u": unit, "item": item, "a": a, "b": b, "s": a + b, "p": a * b}
    liquid = unit == "liters"
    m = rng.randint(2, 6)
    kw["m"], kw["p"] = m, a * m
    if mode == 0:
        text = _say(rng, (
            "{name} pours {a} {u} of water into {item}, then {b} more {u}. How many {u} are in it "
            "now?",
            "{item} has {a} {u} of juice. {name} adds {b} {u}. How many {u} in all?",
            "a beaker shows {a} {u} and {name} adds {b} {u} what does it show now",
        ) if liquid else (
            "{item} has a mass of {a} {u}. Another has a mass of {b} {u}. What is their total "
            "mass?",
            "A scale shows {a} {u}. {name} adds something with a mass of {b} {u}. What does the "
            "scale show now?",
            "{name} weighs {item} at {a} {u} and a second one at {b} {u}. How many {u} together?",
        ), **kw)  # fmt: skip
        return text, f"{a} + {b}", str(a + b)
    if mode == 1:
        text = _say(rng, (
            "{item} holds {s} {u} of water. {name} pours out {b} {u}. How many {u} are left?",
            "{name} had {s} {u} of paint and used {b} {u}. How many {u} remain?",
        ) if liquid else (
            "{name} has {s} {u} of flour and uses {b} {u}. How many {u} remain?",
            "One box has a mass of {s} {u} and another {b} {u}. How many more {u} is the heavier "
            "one?",
            "{item} has a mass of {s} {u}. {name} takes off {b} {u}. What is the mass now?",
        ), **kw)  # fmt: skip
        return text, f"{a + b} - {b}", str(a)
    if mode == 2:
        text = _say(rng, (
            "Each of {m} bags has a mass of {a} {u}. What is the total mass?",
            "{name} fills {m} containers with {a} {u} each. How many {u} in all?",
            "there are {m} of them and each one is {a} {u} how many {u} altogether",
        ), **kw)  # fmt: skip
        return text, f"{m} * {a}", str(a * m)
    text = _say(rng, (
        "{p} {u} is shared equally among {m} containers. How many {u} in each?",
        "{name} splits {p} {u} into {m} equal parts. How many {u} go in each part?",
        "{p} {u} in {m} equal bags, how many {u} per bag",
    ), **kw)  # fmt: skip
    return text, f"{a * m} / {m}", str(a)


_GRAPH_TOPICS = (
    ("favorite pet", ("cats", "dogs", "fish", "birds", "hamsters", "rabbits")),
    ("favorite fruit", ("apples", "bananas", "grapes", "pears", "oranges", "peaches")),
    ("favorite sport", ("soccer", "basketball", "swimming", "tennis", "baseball")),
    ("favorite color", ("red", "blue", "green", "purple", "yellow")),
)


def _g3md3(rng: random.Random) -> Made:
    scale = pick(rng, (2, 5, 10))
    topic, options = pick(rng, _GRAPH_TOPICS)
    cats = rng.sample(options, 3)
    counts = rng.sample(range(1, 10), 3)
    kind = pick(rng, ("bar graph", "picture graph"))
    key = (
        f"each square stands for {scale}"
        if kind == "bar graph"
        else f"each picture stands for {scale}"
    )
    unit_word = "squares" if kind == "bar graph" else "pictures"
    parts = ", ".join(
        f"{c}: {n} {unit_word if n > 1 else unit_word[:-1]}"
        for c, n in zip(cats, counts, strict=True)
    )
    lead = f"A {kind} shows a class's {topic} votes; {key} votes. {parts}."
    (c0, c1, c2), (n0, n1, n2) = cats, counts
    mode = rng.randrange(4)
    if mode == 0:
        hi, lo, nh, nl = (c0, c1, n0, n1) if n0 > n1 else (c1, c0, n1, n0)
        q = pick(
            rng,
            (
                f"How many more votes did {hi} get than {lo}?",
                f"how many more for {hi} than for {lo}",
            ),
        )
        return _voice(rng, f"{lead} {q}"), f"({nh} - {nl}) * {scale}", str((nh - nl) * scale)
    if mode == 1:
        hi, lo, nh, nl = (c0, c2, n0, n2) if n0 > n2 else (c2, c0, n2, n0)
        q = f"How many fewer votes did {lo} get than {hi}?"
        return (
            _voice(rng, f"{lead} {q}"),
            f"{nh} * {scale} - {nl} * {scale}",
            str((nh - nl) * scale),
        )
    if mode == 2:
        q = pick(
            rng,
            (
                f"How many votes in all for {c0}, {c1} and {c2}?",
                "What is the total shown on the graph?",
            ),
        )
        return (
            _voice(rng, f"{lead} {q}"),
            f"({n0} + {n1} + {n2}) * {scale}",
            str((n0 + n1 + n2) * scale),
        )
    q = f"How many more votes would {c2} need to equal {c0} and {c1} together?"
    if n2 >= n0 + n1:
        q = f"How many more votes did {c2} get than {c0} and {c1} together?"
        return (
            _voice(rng, f"{lead} {q}"),
            f"({n2} - {n0} - {n1}) * {scale}",
            str((n2 - n0 - n1) * scale),
        )
    return (
        _voice(rng, f"{lead} {q}"),
        f"({n0} + {n1} - {n2}) * {scale}",
        str((n0 + n1 - n2) * scale),
    )


_QUARTERS = (Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4))


def _g3md4(rng: random.Random) -> Made:
    base = rng.randint(2, 7)
    values = [base + pick(rng, _QUARTERS) for _ in range(rng.randint(7, 10))]
    thing = pick(rng, ("pencils", "leaves", "crayons", "worms", "sticks", "shells"))
    data = ", ".join(fraction_text(v, mixed=True) for v in values)
    who = pick(rng, NAMES)
    lead = f"{who} measured {thing} to the nearest quarter inch: {data} inches. On a line plot, "
    counts = {v: values.count(v) for v in set(values)}
    v1 = pick(rng, sorted(counts))
    if rng.random() < 0.5 or len(counts) < 2:
        q = pick(rng, (
            f"how many X's go above {fraction_text(v1, mixed=True)}?",
            f"how many {thing} are {fraction_text(v1, mixed=True)} inches long?",
        ))  # fmt: skip
        return _voice(rng, lead + q), _ones(counts[v1]), str(counts[v1])
    v2 = pick(rng, [v for v in sorted(counts) if v != v1])
    hi, lo = (v1, v2) if counts[v1] >= counts[v2] else (v2, v1)
    h, lw = fraction_text(hi, mixed=True), fraction_text(lo, mixed=True)
    q = f"how many more {thing} measure {h} inches than {lw} inches?"
    return (
        _voice(rng, lead + q),
        f"({_ones(counts[hi])}) - ({_ones(counts[lo])})",
        str(counts[hi] - counts[lo]),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("3.MD.A.1/elapsed-story", "word", _g3md1_story),
    ("3.MD.A.1/clock-minutes", "bare", _g3md1_bare),
    ("3.MD.A.2/mass-volume-story", "word", _g3md2_story),
    ("3.MD.B.3/scaled-graph", "word", _g3md3),
    ("3.MD.B.4/line-plot", "word", _g3md4),
)
