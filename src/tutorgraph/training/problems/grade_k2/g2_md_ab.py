"""Grade 2 problem generators: Measurement and Data, clusters A–B.

The standards 2.MD.A.1 to 2.MD.B.6; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._registry import Generator, Made, table
from tutorgraph.training.problems._words import NAMES, pick
from tutorgraph.training.problems.grade_k2._shared import _choose, _two_names

__all__ = ["GENERATORS"]


def _g2_ruler(rng: random.Random) -> Made:
    start = rng.randint(0, 5)
    length = rng.randint(3, 20)
    unit, units = pick(rng, (("inch", "inches"), ("centimeter", "centimeters")))
    obj = pick(rng, ("crayon", "pencil", "leaf", "key", "spoon", "feather"))
    name = pick(rng, NAMES)
    end = start + length
    return _choose(
        rng,
        (
            (
                f"A {obj} starts at 0 and ends at the {end} {unit} mark on a ruler. How "
                "long is it?",
                f"{end} - 0",
                end,
            ),
            (
                f"{name} lines up a {obj} from {start} to {end} on a {unit} ruler. "
                f"How many {units} long is it?",
                f"{end} - {start}",
                length,
            ),
            (
                f"the {obj} goes from {start} to {end} on the ruler how long is it",
                f"{end} - {start}",
                length,
            ),
            (
                f"{name} measures a table with a yardstick. It is 1 yard and "
                f"{length % 12 + 1} more inches. How many inches? (1 yard = 36 inches)",
                f"36 + {length % 12 + 1}",
                36 + length % 12 + 1,
            ),
            (
                f"A measuring tape shows a rug from the 0 mark to the {length * 5} cm "
                "mark. How long is the rug in cm?",
                f"{length * 5} - 0",
                length * 5,
            ),
            (
                f"A ribbon lies along a meter stick from {start * 10} cm to "
                f"{start * 10 + length * 4} cm. How long is the ribbon?",
                f"{start * 10 + length * 4} - {start * 10}",
                length * 4,
            ),
        ),
    )


def _g2_two_units(rng: random.Random) -> Made:
    feet = rng.randint(2, 4)
    meters = rng.randint(2, 4)
    k = rng.randint(3, 8)
    name = pick(rng, NAMES)
    obj = pick(rng, ("table", "rug", "board", "bench", "door"))
    return _choose(
        rng,
        (
            (
                f"A {obj} is {feet} feet long. Each foot is 12 inches. How many inches long is it?",
                " + ".join(["12"] * feet),
                12 * feet,
            ),
            (
                f"{name} measures a {obj}: {meters} meters. How many centimeters is that? "
                "(1 meter = 100 cm)",
                " + ".join(["100"] * meters),
                100 * meters,
            ),
            (
                f"A {obj} is {feet} feet long, which is {12 * feet} inches. How many more "
                "units are there in inches than in feet?",
                f"{12 * feet} - {feet}",
                11 * feet,
            ),
            (
                f"{name} measures a shelf with big paper clips and gets {k}. Small clips "
                "are half as long. How many small clips long is the shelf?",
                f"{k} + {k}",
                2 * k,
            ),
            (
                f"my {obj} is {meters} meters long how many cm is it",
                " + ".join(["100"] * meters),
                100 * meters,
            ),
            (
                f"{name} measures a {obj} in feet and then in inches. One count is {feet} "
                f"and the other is {12 * feet}. Which count uses the smaller unit?",
                f"max({feet}, {12 * feet})",
                12 * feet,
            ),
        ),
    )


def _g2_estimate(rng: random.Random) -> Made:
    k = rng.randint(2, 9)
    name = pick(rng, NAMES)
    obj = pick(rng, ("desk", "bookshelf", "rug", "whiteboard", "table"))
    return _choose(
        rng,
        (
            (
                f"A paper clip is about 1 inch long. A pencil is about {k} paper clips "
                "long. About how many inches long is the pencil?",
                f"{k} * 1",
                k,
            ),
            (
                f"{name}'s hand span is about 10 centimeters. The {obj} is about {k} hand "
                "spans wide. About how many centimeters is that?",
                " + ".join(["10"] * k),
                10 * k,
            ),
            (
                f"A big step is about 1 meter. {name} walks {k} big steps across the "
                "room. About how many meters wide is the room?",
                f"{k} * 1",
                k,
            ),
            (
                f"a ruler is about 1 foot long and the {obj} is about {k} rulers long "
                "about how many feet",
                f"{k} * 1",
                k,
            ),
            (
                f"A finger is about 1 centimeter wide. An eraser is about {k} fingers "
                "long. About how many centimeters?",
                f"{k} * 1",
                k,
            ),
            (
                f"A door is about 2 meters tall. About how tall are {k} doors stacked, in meters?",
                " + ".join(["2"] * k),
                2 * k,
            ),
        ),
    )


def _g2_longer(rng: random.Random) -> Made:
    a = rng.randint(10, 95)
    b = rng.randint(3, a - 2)
    unit = pick(rng, ("centimeters", "inches", "meters", "feet"))
    if unit in ("centimeters", "inches"):
        x, y = rng.sample(("ribbon", "scarf", "string", "board", "snake", "jump rope"), 2)
    else:
        x, y = rng.sample(("hallway", "rope", "fence", "pool", "garden", "track"), 2)
    return _choose(
        rng,
        (
            (
                f"The {x} is {a} {unit} long. The {y} is {b} {unit} long. How much longer "
                f"is the {x}?",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"How much shorter is a {b}-{unit[:-1] if unit != 'feet' else 'foot'} {y} "
                f"than a {a}-{unit[:-1] if unit != 'feet' else 'foot'} {x}?",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"{x} = {a} {unit}, {y} = {b} {unit}. Find the difference in length.",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"the {x} is {a} {unit} and the {y} is {b} {unit} how much longer",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"Measure: the {x} is {a} {unit}, the {y} {b} {unit}. How many {unit} "
                "longer is the longer one?",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"Which is longer and by how many {unit}: a {y} of {b} {unit} or a {x} of "
                f"{a} {unit}?",
                f"{a} - {b}",
                a - b,
            ),
        ),
    )


def _g2_length_story(rng: random.Random) -> Made:
    a = rng.randint(10, 70)
    b = rng.randint(5, 99 - a)
    unit = pick(rng, ("inches", "centimeters", "feet", "meters", "yards"))
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"{name} has a ribbon {a} {unit} long and another {b} {unit} long. How "
                "long are they end to end?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"A rope was {a + b} {unit} long. {name} cut off {b} {unit}. How long is it now?",
                f"{a + b} - {b}",
                a,
            ),
            (
                f"{name} ran {a} {unit} and then some more. In all {name} ran {a + b} "
                f"{unit}. How far was the second part?",
                f"{a + b} - {a}",
                b,
            ),
            (
                f"A fence is {a + b} {unit} long. {b} {unit} are painted. how many {unit} "
                "are not painted",
                f"{a + b} - {b}",
                a,
            ),
            (
                f"A plant was {a} {unit} tall and grew {b} {unit}. How tall is it now? "
                "Write an equation with ? for the unknown.",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"{name} jumped {a + b} {unit}. That is {b} {unit} more than a friend. "
                "How far did the friend jump?",
                f"{a + b} - {b}",
                a,
            ),
        ),
    )


def _g2_length_compare(rng: random.Random) -> Made:
    big = rng.randint(30, 99)
    diff = rng.randint(5, big - 10)
    small = big - diff
    unit = pick(rng, ("inches", "centimeters", "feet", "meters"))
    a_name, b_name = _two_names(rng)
    return _choose(
        rng,
        (
            (
                f"{a_name}'s rope is {big} {unit} long. {b_name}'s rope is {diff} {unit} "
                f"shorter. How long is {b_name}'s rope?",
                f"{big} - {diff}",
                small,
            ),
            (
                f"{b_name} threw a ball {small} {unit}. {a_name} threw it {diff} {unit} "
                f"farther. How far did {a_name} throw?",
                f"{small} + {diff}",
                big,
            ),
            (
                f"A red ribbon is {big} {unit} and a blue ribbon is {small} {unit}. How "
                "much longer is the red ribbon?",
                f"{big} - {small}",
                diff,
            ),
            (
                f"{a_name}'s kite string is {diff} {unit} longer than {b_name}'s. "
                f"{a_name}'s is {big} {unit}. how long is {b_name}'s",
                f"{big} - {diff}",
                small,
            ),
            (
                f"{b_name}'s plant is {small} {unit} tall. It must grow to {big} {unit}. "
                f"How many more {unit}? Use ? for the unknown.",
                f"{big} - {small}",
                diff,
            ),
            (
                f"A path is {small} {unit} long. A second path is {diff} {unit} longer. "
                "How long is the second path?",
                f"{small} + {diff}",
                big,
            ),
        ),
    )


def _g2_number_line(rng: random.Random) -> Made:
    a = rng.randint(5, 70)
    b = rng.randint(3, 99 - a)
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"Start at 0 on a number line. Jump {a}, then jump {b}. Where do you land?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"On a number line, start at {a + b} and jump back {b}. Where do you land?",
                f"{a + b} - {b}",
                a,
            ),
            (f"Show {a} + {b} on a number line. What number do you end on?", f"{a} + {b}", a + b),
            (
                f"{name} is at {a} on the number line and hops to {a + b}. how long was the hop",
                f"{a + b} - {a}",
                b,
            ),
            (f"How far apart are {a} and {a + b} on a number line?", f"{a + b} - {a}", b),
            (
                f"A frog on a number line starts at {a + b}, jumps back {a}. Where is the frog?",
                f"{a + b} - {a}",
                b,
            ),
        ),
    )


def _g2_number_line_word(rng: random.Random) -> Made:
    a = rng.randint(10, 60)
    b = rng.randint(5, 99 - a)
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"{name} walks along a path marked like a number line. {name} starts at "
                f"{a} and walks {b} more steps. Where does {name} stop?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"A toy car is at {a + b} on a track marked 0 to 100. It rolls back {b}. "
                "Where is it now?",
                f"{a + b} - {b}",
                a,
            ),
            (
                f"A frog starts at 0 and jumps {a}, then {b} more. What number is the frog on?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"on a number line {name} went from {a} to {a + b} how far did {name} go",
                f"{a + b} - {a}",
                b,
            ),
            (
                f"A ruler-shaped number line shows a worm at {a} and a bug at {a + b}. "
                "How far apart are they?",
                f"{a + b} - {a}",
                b,
            ),
            (
                f"{name} draws a jump from {a + b} back to {a} on a number line. How long "
                "is the jump?",
                f"{a + b} - {a}",
                b,
            ),
        ),
    )


GENERATORS: tuple[Generator, ...] = table(
    ("2.MD.A.1/ruler-reading", "word", _g2_ruler),
    ("2.MD.A.2/two-units", "word", _g2_two_units),
    ("2.MD.A.3/estimate-with-benchmark", "word", _g2_estimate),
    ("2.MD.A.4/how-much-longer", "word", _g2_longer),
    ("2.MD.B.5/length-story", "word", _g2_length_story),
    ("2.MD.B.5/compare-lengths-story", "word", _g2_length_compare),
    ("2.MD.B.6/number-line", "bare", _g2_number_line),
    ("2.MD.B.6/number-line-story", "word", _g2_number_line_word),
)
