"""Problem generators for the Common Core standards of grades 3 and 4 (issue 48).

Covers the standards whose skill can be computed: multiplication and division within 100 and
two-step problems (3.OA), multiplicative comparison, multistep problems, factors and patterns
(4.OA), rounding and multi-digit arithmetic (3.NBT, 4.NBT), fractions on the number line,
equivalence, comparison, addition and multiplication by a whole number, and decimal notation
(3.NF, 4.NF), time, mass, liquid volume, graphs, line plots, area, perimeter, conversions and
angles (3.MD, 4.MD), and counted attributes of shapes and unit-fraction parts (3.G, 4.G).
Each generator returns the problem's text, an expression that computes its answer from the
problem's numbers, and the answer.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from fractions import Fraction

from tutorgraph.training.problems._registry import Generator, Kind, Made
from tutorgraph.training.problems._words import (
    CONTAINERS,
    NAMES,
    THINGS,
    fraction_text,
    number_text,
    pick,
)

__all__ = ["GENERATORS"]

# --- phrasing shared by the generators -------------------------------------------------------

_SOLVE = ("Solve. ", "Read and solve. ", "Answer the question. ", "Problem: ", "Word problem: ")
_ASK = (
    "my homework says {t}",
    "i dont get this one: {t}",
    "how do you do this one? {t}",
    "can someone help me with this? {t}",
    "we got this in class today: {t}",
    "{t} i dont know where to start",
    "pls help {t}",
    "stuck on this: {t}",
)
_BARE = (
    "{e} = ?",
    "What is {e}?",
    "Solve: {e}",
    "Find {e}.",
    "Compute {e}.",
    "{e} = ___",
    "Evaluate {e}.",
    "Work out {e}.",
)
_BARE_ASK = (
    "whats {e}",
    "how do you do {e}",
    "i dont get {e}",
    "my homework says {e} what is the answer",
    "what is {e} i keep getting it wrong",
    "help with {e} pls",
)
_EQ = (
    "Find the missing number: {q}",
    "{q} What number makes this true?",
    "Solve for ?: {q}",
    "What goes in the box? {q}",
    "Fill in the blank. {q}",
    "how do i solve {q}",
    "i dont get {q} what is the missing number",
    "my worksheet says {q} what goes in the blank",
)


def _casual(rng: random.Random, text: str) -> str:
    text = text.lower()
    if rng.random() < 0.5:
        text = re.sub(r"(?<=[a-z])\?(?=\s|$)", "", text).replace(". ", " ").rstrip(".")
    return text


def _voice(rng: random.Random, text: str) -> str:
    """A word problem as a worksheet or a student might put it."""
    r = rng.random()
    if r < 0.4:
        return text
    if r < 0.65:
        out = pick(rng, _SOLVE) + text
        return out + " Show your work." if rng.random() < 0.3 else out
    out = pick(rng, _ASK).format(t=text)
    return _casual(rng, out) if rng.random() < 0.6 else out


def _bare(rng: random.Random, e: str) -> str:
    if rng.random() < 0.7:
        return pick(rng, _BARE).format(e=e)
    return pick(rng, _BARE_ASK).format(e=e)


def _eq(rng: random.Random, q: str) -> str:
    return pick(rng, _EQ).format(q=q)


def _say(rng: random.Random, templates: Sequence[str], **kw: object) -> str:
    return _voice(rng, pick(rng, templates).format(**kw))


def _x(rng: random.Random) -> str:
    return pick(rng, ("×", "×", "x", "*"))


def _d(rng: random.Random) -> str:
    return pick(rng, ("÷", "÷", "/"))


def _two(rng: random.Random) -> tuple[str, str]:
    a = pick(rng, NAMES)
    b = pick(rng, [n for n in NAMES if n != a])
    return a, b


def _f(n: int, d: int) -> str:
    return f"{n}/{d}"


def _dec(x: Fraction) -> str:
    """A value in hundredths as a decimal: 0.7, 1.25, 3."""
    h = x * 100
    assert h.denominator == 1
    n = h.numerator
    return f"{n // 100}.{n % 100:02d}".rstrip("0").rstrip(".")


def _an(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def _cmp_text(rng: random.Random, a: str, b: str) -> str:
    return pick(rng, (
        f"Compare: {a} ___ {b}. Write >, < or =.",
        f"Write >, <, or = to compare {a} and {b}.",
        f"which sign goes between {a} and {b}, > or <",
        f"{a} ? {b} (use >, < or =)",
        f"is {a} bigger or smaller than {b}? write > or <",
    ))  # fmt: skip


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _ones(count: int) -> str:
    """A count as an expression of ones, so that a tally stays computed."""
    return " + ".join(["1"] * count) if count else "0"


_ONES_W = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
]
_ONES_W += ["fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS_W = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _words_below_1000(n: int) -> str:
    parts: list[str] = []
    if n >= 100:
        parts.append(f"{_ONES_W[n // 100]} hundred")
        n %= 100
    if n >= 20:
        parts.append(_TENS_W[n // 10] + (f"-{_ONES_W[n % 10]}" if n % 10 else ""))
    elif n:
        parts.append(_ONES_W[n])
    return " ".join(parts)


def _number_words(n: int) -> str:
    if n >= 1000:
        rest = _words_below_1000(n % 1000)
        head = f"{_words_below_1000(n // 1000)} thousand"
        return f"{head} {rest}" if rest else head
    return _words_below_1000(n)


# --- 3.OA: multiplication and division within 100 --------------------------------------------


def _g3oa1_story(rng: random.Random) -> Made:
    n, k = rng.randint(2, 9), rng.randint(2, 9)
    c, t = pick(rng, CONTAINERS), pick(rng, THINGS)
    kw = {"n": n, "k": k, "name": pick(rng, NAMES), "c": c[1], "c1": c[0], "t": t[1], "x": _x(rng)}
    if rng.random() < 0.3:
        text = _say(
            rng,
            (
                "In {n} {x} {k}, the {n} tells the number of groups. How many {t} are in each "
                "group?",
                "{n} {x} {k} can mean {n} {c} of {t}. How many {t} go in each {c1}?",
                "{name} draws {n} {x} {k} as {n} {c} of {t}. How many {t} did {name} draw in one "
                "{c1}?",
            ),
            **kw,
        )
        return text, f"({n} * {k}) / {n}", str(k)
    text = _say(
        rng,
        (
            "{name} has {n} {c} with {k} {t} in each {c1}. How many {t} does {name} have in all?",
            "There are {n} {c}. Each {c1} holds {k} {t}. Write a multiplication for the total and "
            "find it.",
            "Tell what {n} {x} {k} means with {t}: {n} {c} of {k} {t} each. How many {t} is that?",
            "{name} says {n} {x} {k} is the number of {t} in {n} {c} with {k} in each. How many is "
            "it?",
            "A picture shows {n} groups of {k} {t}. What is the total number of {t}?",
            "Describe {n} {x} {k} as equal groups of {t}. What is the total?",
        ),
        **kw,
    )
    return text, f"{n} * {k}", str(n * k)


def _g3oa1_bare(rng: random.Random) -> Made:
    n, k = rng.randint(2, 9), rng.randint(2, 9)
    mode = rng.randrange(3)
    if mode == 0:
        adds = " + ".join([str(k)] * n)
        q = pick(
            rng, (f"{adds} = ? {_x(rng)} {k}", f"{adds} is the same as how many groups of {k}?")
        )
        return _eq(rng, q), f"({adds}) / {k}", str(n)
    if mode == 1:
        adds = " + ".join([str(k)] * n)
        text = pick(
            rng,
            (
                f"Write {adds} as a multiplication and find the product.",
                f"what multiplication is {adds} and what does it equal",
                f"Find the total of {n} groups of {k}.",
            ),
        )
        return text, f"{n} * {k}", str(n * k)
    text = pick(
        rng,
        (
            f"{n} {_x(rng)} {k} means {n} groups of how many?",
            f"What is the size of each group in {n} {_x(rng)} {k}, if {n} is the number of groups?",
            f"in {n} x {k} how many are in each group",
        ),
    )
    return text, f"({n} * {k}) / {n}", str(k)


def _g3oa2_story(rng: random.Random) -> Made:
    groups, each = rng.randint(2, 9), rng.randint(2, 9)
    total = groups * each
    name, t, c = pick(rng, NAMES), pick(rng, THINGS), pick(rng, CONTAINERS)
    kw = {"total": total, "g": groups, "k": each, "name": name, "t": t[1], "c": c[1], "c1": c[0]}
    kw["d"] = _d(rng)
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "{name} shares {total} {t} equally among {g} friends. How many {t} does each "
                "friend get?",
                "{total} {t} are put into {g} {c} with the same number in each. How many {t} are "
                "in each {c1}?",
                "What does {total} {d} {g} mean? {total} {t} split into {g} equal shares. How many "
                "in each share?",
                "{name} puts {total} {t} into {g} equal groups. How many {t} are in each group?",
                "Write a division for sharing {total} {t} into {g} {c} equally, and solve it.",
            ),
            **kw,
        )
        return text, f"{total} / {groups}", str(each)
    text = _say(
        rng,
        (
            "{name} has {total} {t} and puts {k} in each {c1}. How many {c} does {name} fill?",
            "{total} {t} are packed {k} to a {c1}. How many {c} are needed?",
            "What does {total} {d} {k} mean? {total} {t} in groups of {k}. How many groups are "
            "there?",
            "There are {total} {t}. {name} makes piles of {k}. How many piles can {name} make?",
            "Write a division for {total} {t} put into {c} of {k} each, and solve it.",
        ),
        **kw,
    )
    return text, f"{total} / {each}", str(groups)


def _g3oa3_groups(rng: random.Random) -> Made:
    n, k = rng.randint(2, 10), rng.randint(2, 10)
    total = n * k
    name, t, c = pick(rng, NAMES), pick(rng, THINGS), pick(rng, CONTAINERS)
    kw = {"n": n, "k": k, "total": total, "name": name, "t": t[1], "c": c[1], "c1": c[0]}
    mode = rng.randrange(3)
    if mode == 0:
        text = _say(
            rng,
            (
                "{name} buys {n} {c} of {t}. Each {c1} has {k} {t}. How many {t} in all?",
                "There are {n} {c} with {k} {t} in each. How many {t} are there altogether?",
                "Each {c1} holds {k} {t}. How many {t} are in {n} {c}?",
                "{name} has {n} {c}. There are {k} {t} in every {c1}. Find the total number of "
                "{t}.",
                "Write an equation and solve: {n} {c}, {k} {t} in each {c1}. How many {t}?",
                "a class has {n} {c} and each one has {k} {t} how many {t} is that",
            ),
            **kw,
        )
        return text, f"{n} * {k}", str(total)
    if mode == 1:
        text = _say(
            rng,
            (
                "{name} has {total} {t}. She puts the same number in each of {n} {c}. How many {t} "
                "go in each {c1}?",
                "{total} {t} are shared equally into {n} {c}. How many {t} are in each {c1}?",
                "{n} friends share {total} {t} equally. How many {t} does each friend get?",
                "There are {total} {t} in {n} equal {c}. How many {t} are in one {c1}?",
                "Write an equation with a symbol for the unknown: {total} {t} in {n} {c}, same "
                "number in each.",
            ),
            **kw,
        )
        return text, f"{total} / {n}", str(k)
    text = _say(
        rng,
        (
            "{name} has {total} {t}. Each {c1} holds {k}. How many {c} does {name} need?",
            "{total} {t} are packed with {k} in each {c1}. How many {c} are there?",
            "{name} puts {k} {t} in each {c1} and uses {total} {t}. How many {c} did {name} fill?",
            "How many {c} of {k} can you make with {total} {t}?",
            "{total} {t}, {k} in a {c1}. How many {c}?",
        ),
        **kw,
    )
    return text, f"{total} / {k}", str(n)


def _g3oa3_array(rng: random.Random) -> Made:
    r, c = rng.randint(2, 10), rng.randint(2, 10)
    thing = pick(rng, ("chairs", "desks", "trees", "stamps", "tiles", "seats", "plants", "photos"))
    place = pick(rng, ("in the hall", "in the garden", "on the page", "in the room", "on the wall"))
    kw = {"r": r, "c": c, "total": r * c, "t": thing, "p": place, "name": pick(rng, NAMES)}
    mode = rng.randrange(3)
    if mode == 0:
        text = _say(
            rng,
            (
                "There are {r} rows of {t} {p} with {c} {t} in each row. How many {t} are there?",
                "{name} sets up {t} {p} in {r} rows of {c}. How many {t} is that?",
                "An array of {t} has {r} rows and {c} columns. How many {t} in all?",
                "the {t} {p} are in {r} rows and {c} in each row how many {t}",
                "Find the total: {r} rows, {c} {t} per row.",
            ),
            **kw,
        )
        return text, f"{r} * {c}", str(r * c)
    if mode == 1:
        text = _say(
            rng,
            (
                "{total} {t} are set {p} in {r} equal rows. How many {t} are in each row?",
                "{name} arranges {total} {t} in {r} rows. Each row has the same number. How many "
                "per row?",
                "An array of {total} {t} has {r} rows. How many columns does it have?",
            ),
            **kw,
        )
        return text, f"{r * c} / {r}", str(c)
    text = _say(
        rng,
        (
            "{total} {t} are set {p} with {c} in each row. How many rows are there?",
            "{name} puts {total} {t} in rows of {c}. How many rows does {name} make?",
            "An array of {total} {t} has {c} columns. How many rows does it have?",
        ),
        **kw,
    )
    return text, f"{r * c} / {c}", str(r)


def _g3oa3_measure(rng: random.Random) -> Made:
    n, k = rng.randint(2, 10), rng.randint(2, 10)
    total = n * k
    name = pick(rng, NAMES)
    unit = pick(rng, ("inches", "feet", "centimeters", "meters"))
    lit = pick(rng, ("liters", "kilograms"))
    mode = rng.randrange(4)
    kw = {"n": n, "k": k, "total": total, "name": name, "u": unit, "l": lit}
    kw["u1"] = {"inches": "inch", "feet": "foot"}.get(unit, unit[:-1])
    if mode == 0:
        text = _say(
            rng,
            (
                "{name} cuts {n} pieces of ribbon. Each piece is {k} {u} long. How many {u} of "
                "ribbon is that?",
                "A path is made of {n} boards, each {k} {u} long, end to end. How long is the "
                "path?",
                "{name} walks {k} {u} with each of {n} steps. How far does {name} go?",
            ),
            **kw,
        )
        return text, f"{n} * {k}", str(total)
    if mode == 1:
        text = _say(
            rng,
            (
                "A rope is {total} {u} long. {name} cuts it into pieces that are {k} {u} long. How "
                "many pieces?",
                "How many {k}-{u1} pieces can be cut from a {total}-{u1} board?",
                "a {total} {u} ribbon is cut into {n} equal pieces how long is each piece",
            ),
            **kw,
        )
        if "equal pieces" in text:
            return text, f"{total} / {n}", str(k)
        return text, f"{total} / {k}", str(n)
    if mode == 2:
        text = _say(
            rng,
            (
                "Each bucket holds {k} {l}. How many {l} do {n} buckets hold?",
                "{name} fills {n} tanks with {k} {l} each. How many {l} is that in all?",
            ),
            **kw,
        )
        return text, f"{n} * {k}", str(total)
    text = _say(
        rng,
        (
            "{total} {l} of juice are poured equally into {n} jugs. How many {l} are in each jug?",
            "{name} has {total} {l} of sand and puts {k} {l} in each pail. How many pails?",
        ),
        **kw,
    )
    if "pail" in text:
        return text, f"{total} / {k}", str(n)
    return text, f"{total} / {n}", str(k)


def _g3oa4(rng: random.Random) -> Made:
    a, b = rng.randint(2, 10), rng.randint(2, 10)
    p, x, d = a * b, _x(rng), _d(rng)
    mode = rng.randrange(6)
    if mode == 0:
        return _eq(rng, f"{a} {x} ? = {p}"), f"{p} / {a}", str(b)
    if mode == 1:
        return _eq(rng, f"? {x} {b} = {p}"), f"{p} / {b}", str(a)
    if mode == 2:
        return _eq(rng, f"{b} = ? {d} {a}"), f"{b} * {a}", str(p)
    if mode == 3:
        return _eq(rng, f"{p} {d} ? = {a}"), f"{p} / {a}", str(b)
    if mode == 4:
        return _eq(rng, f"{a} {x} {b} = ?"), f"{a} * {b}", str(p)
    return _eq(rng, f"{p} {d} {a} = □"), f"{p} / {a}", str(b)


def _g3oa5(rng: random.Random) -> Made:
    a, b, c = rng.randint(2, 9), rng.randint(2, 9), rng.randint(2, 5)
    x = _x(rng)
    mode = rng.randrange(4)
    if mode == 0:
        q = f"{a} {x} {b} = {b} {x} ?"
        return _eq(rng, q), str(a), str(a)
    if mode == 1:
        q = pick(
            rng,
            (f"{a} {x} {b} {x} {c} = {a} {x} ?", f"({a} {x} {b}) {x} {c} = {a} {x} ({b} {x} ?)"),
        )
        if "(" in q:
            return _eq(rng, q), str(c), str(c)
        return _eq(rng, q), f"{b} * {c}", str(b * c)
    if mode == 2:
        b1 = rng.randint(1, b - 1) if b > 2 else 1
        q = f"{a} {x} {b} = {a} {x} {b1} + {a} {x} ?"
        return _eq(rng, q), f"{b} - {b1}", str(b - b1)
    text = pick(
        rng,
        (
            f"Use {a} {x} {b} = {a * b} to find {b} {x} {a}.",
            f"if {a} x {b} is {a * b} what is {b} x {a}",
            f"You know {a} {x} {b} = {a * b}. What is {b} {x} {a}? Which property did you use?",
        ),
    )
    return text, f"{b} * {a}", str(a * b)


def _g3oa6(rng: random.Random) -> Made:
    a, b = rng.randint(2, 10), rng.randint(2, 10)
    p, x, d = a * b, _x(rng), _d(rng)
    text = pick(
        rng,
        (
            f"Find {p} {d} {a} by finding the number that makes {p} when multiplied by {a}.",
            f"To solve {p} {d} {a}, think {a} {x} ? = {p}. What is the unknown factor?",
            f"{p} {d} {a} = ? because {a} {x} ? = {p}. What number is ?",
            f"how do i use multiplication to do {p} {d} {a}",
            f"What unknown factor solves {p} {d} {a}? Write the multiplication fact.",
            f"i know {a} x {b} = {p} so what is {p} {d} {a}",
        ),
    )
    return text, f"{p} / {a}", str(b)


def _g3oa7(rng: random.Random) -> Made:
    a, b = rng.randint(1, 10), rng.randint(1, 10)
    if rng.random() < 0.55:
        e = pick(rng, (f"{a} {_x(rng)} {b}", f"{a} times {b}"))
        return _bare(rng, e), f"{a} * {b}", str(a * b)
    p = a * b
    e = pick(rng, (f"{p} {_d(rng)} {a}", f"{p} divided by {a}"))
    return _bare(rng, e), f"{p} / {a}", str(b)


def _g3oa8_story(rng: random.Random) -> Made:
    name, other = _two(rng)
    t = pick(rng, THINGS)[1]
    mode = rng.randrange(6)
    if mode == 0:
        n, k = rng.randint(2, 9), rng.randint(3, 10)
        g = rng.randint(1, n * k - 1)
        text = _say(
            rng,
            (
                "{name} buys {n} packs of {t} with {k} in each pack. Then {name} gives {g} {t} to "
                "{o}. How many {t} are left?",
                "{name} has {n} bags of {k} {t}. {name} loses {g} of them. How many {t} does "
                "{name} have now?",
                "There were {n} rows of {k} {t}. {g} were taken away. How many {t} remain?",
            ),
            name=name, o=other, n=n, k=k, g=g, t=t,
        )  # fmt: skip
        return text, f"{n} * {k} - {g}", str(n * k - g)
    if mode == 1:
        m, each = rng.randint(2, 9), rng.randint(2, 10)
        a = rng.randint(1, m * each - 1)
        b = m * each - a
        text = _say(
            rng,
            (
                "{name} had {a} {t} and got {b} more. {name} shares them equally among {m} "
                "friends. How many does each friend get?",
                "{name} has {a} {t} and {o} has {b}. They put them all into {m} equal groups. How "
                "many {t} are in each group?",
                "There are {a} red {t} and {b} blue {t}. They go into {m} bags equally. How many "
                "per bag?",
            ),
            name=name, o=other, a=a, b=b, m=m, t=t,
        )  # fmt: skip
        return text, f"({a} + {b}) / {m}", str(each)
    if mode == 2:
        n, k, extra = rng.randint(2, 9), rng.randint(2, 10), rng.randint(1, 20)
        text = _say(
            rng,
            (
                "{name} has {n} boxes of {k} {t} and {e} loose {t}. How many {t} does {name} have?",
                "A store has {n} full trays of {k} {t} and {e} more on the counter. How many {t} "
                "in all?",
            ),
            name=name, n=n, k=k, e=extra, t=t,
        )  # fmt: skip
        return text, f"{n} * {k} + {extra}", str(n * k + extra)
    if mode == 3:
        g, k = rng.randint(2, 6), rng.randint(2, 6)
        s = g * k + rng.randint(1, 12)
        text = _say(
            rng,
            (
                "A class has {s} students. {g} groups of {k} students go to the library. How many "
                "students stay in class?",
                "There are {s} kids at the park. {g} teams of {k} leave. How many kids are still "
                "at the park?",
            ),
            s=s, g=g, k=k,
        )  # fmt: skip
        return text, f"{s} - {g} * {k}", str(s - g * k)
    if mode == 4:
        n, p = rng.randint(2, 9), rng.randint(2, 9)
        a = n * p + rng.randint(1, 30)
        text = _say(
            rng,
            (
                "{name} has {a} dollars and buys {n} books that cost {p} dollars each. How much "
                "money is left?",
                "{name} had ${a}. {name} bought {n} tickets at ${p} each. How many dollars does "
                "{name} have now?",
                "Write an equation with a letter for the unknown: {name} has {a} dollars, spends "
                "{p} dollars on each of {n} games. How much is left?",
            ),
            name=name, a=a, n=n, p=p,
        )  # fmt: skip
        return text, f"{a} - {n} * {p}", str(a - n * p)
    k, m = rng.randint(2, 9), rng.randint(2, 9)
    a = rng.randint(1, k * m - 1)
    b = k * m - a
    text = _say(
        rng,
        (
            "{name} picks {a} {t} and {o} picks {b} {t}. They pack them in boxes of {k}. How many "
            "boxes do they fill?",
            "One jar has {a} {t} and another has {b}. All the {t} go in bags of {k}. How many "
            "bags?",
        ),
        name=name, o=other, a=a, b=b, k=k, t=t,
    )  # fmt: skip
    return text, f"({a} + {b}) / {k}", str(m)


def _g3oa8_bare(rng: random.Random) -> Made:
    a, b, c = rng.randint(2, 9), rng.randint(2, 9), rng.randint(1, 30)
    x, d = _x(rng), _d(rng)
    mode = rng.randrange(5)
    if mode == 0:
        return (
            _eq(rng, f"n = {a} {x} {b} - {min(c, a * b)}. What is n?"),
            f"{a} * {b} - {min(c, a * b)}",
            str(a * b - min(c, a * b)),
        )
    if mode == 1:
        return _bare(rng, f"{c} + {a} {x} {b}"), f"{c} + {a} * {b}", str(c + a * b)
    if mode == 2:
        p = a * b
        return _bare(rng, f"{p} {d} {a} + {c}"), f"{p} / {a} + {c}", str(b + c)
    if mode == 3:
        p = a * b
        return (
            _eq(rng, f"{p} {d} {b} {x} {c % 9 + 1} = n. Find n."),
            f"{p} / {b} * {c % 9 + 1}",
            str(a * (c % 9 + 1)),
        )
    s = a * b + c
    return _eq(rng, f"n + {a} {x} {b} = {s}"), f"{s} - {a} * {b}", str(c)


def _g3oa9(rng: random.Random) -> Made:
    mode = rng.randrange(4)
    if mode == 0:
        start, step = rng.randint(1, 20), rng.randint(2, 9)
        terms = [start + i * step for i in range(6)]
        gap = rng.randint(1, 5)
        shown = ", ".join("?" if i == gap else str(v) for i, v in enumerate(terms))
        text = pick(
            rng,
            (
                f"What number is missing in the pattern {shown}?",
                f"find the missing number {shown}",
                f"Complete the pattern: {shown}",
            ),
        )
        return text, f"{start} + {gap} * {step}", str(terms[gap])
    if mode == 1:
        k, n = rng.randint(2, 9), rng.randint(6, 10)
        seq = ", ".join(str(k * i) for i in range(1, 5))
        text = pick(
            rng,
            (
                f"What is the {_ordinal(n)} number in the pattern {seq}, ...?",
                f"the pattern goes {seq} what is the {_ordinal(n)} number",
            ),
        )
        return text, f"{n} * {k}", str(n * k)
    if mode == 2:
        k, col = rng.randint(2, 9), rng.randint(5, 10)
        row = ", ".join(str(k * i) for i in range(1, 4))
        text = pick(
            rng,
            (
                f"In the multiplication table, the {k}s row starts {row}. What number is in the "
                f"{col} column of that row?",
                f"multiplication table row for {k}: {row}, ... what is in column {col}",
            ),
        )
        return text, f"{k} * {col}", str(k * col)
    r, c = rng.randint(2, 10), rng.randint(2, 10)
    text = pick(
        rng,
        (
            "In the addition table, each number is its row plus its column. What number is in row "
            f"{r}, column {c}?",
            f"addition table: row {r} column {c} what goes there",
            f"In the addition table, row {r} goes {r + 1}, {r + 2}, {r + 3}, ... What is in column "
            f"{c}?",
        ),
    )
    return text, f"{r} + {c}", str(r + c)


def _g3oa9_story(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    start, step, n = rng.randint(1, 15), rng.randint(2, 9), rng.randint(5, 9)
    text = _say(
        rng,
        (
            "{name} saves {s} dollars the first week and adds {k} dollars each week after. How "
            "much has {name} saved after {n} weeks?",
            "A plant is {s} cm tall and grows {k} cm each week. How tall is it after {m} weeks of "
            "growing?",
            "{name} reads {s} pages on day 1 and {k} more pages each day than the day before. How "
            "many pages on day {n}?",
            "Seats in a theater: row 1 has {s} seats and each row has {k} more. How many seats are "
            "in row {n}?",
            "{name} stacks cups: the first stack has {s} cups and each new stack has {k} more. How "
            "many cups in stack {n}?",
        ),
        name=name, s=start, k=step, n=n, m=n - 1,
    )  # fmt: skip
    return text, f"{start} + {n - 1} * {step}", str(start + (n - 1) * step)


# --- 3.NBT: place value, within 1000 ----------------------------------------------------------


def _round(x: int, unit: int) -> int:
    return (x + unit // 2) // unit * unit


def _g3nbt1(rng: random.Random) -> Made:
    n, unit = rng.randint(11, 999), pick(rng, (10, 100))
    word = "ten" if unit == 10 else "hundred"
    text = pick(
        rng,
        (
            f"Round {n} to the nearest {word}.",
            f"What is {n} rounded to the nearest {unit}?",
            f"round {n} to the nearest {word}",
            f"{n} rounded to the nearest {word} is ___.",
            f"how do you round {n} to the nearest {unit}",
            f"Use place value to round {n} to the nearest {word}.",
        ),
    )
    return text, f"round_to({n}, {unit})", str(_round(n, unit))


def _g3nbt1_story(rng: random.Random) -> Made:
    n, unit = rng.randint(101, 999), pick(rng, (10, 100))
    word = "ten" if unit == 10 else "hundred"
    name = pick(rng, NAMES)
    text = _say(
        rng,
        (
            "A school has {n} students. About how many students is that, to the nearest {w}?",
            "{name} read {n} pages this summer. Round the number of pages to the nearest {w}.",
            "A farm has {n} chickens. What is that number rounded to the nearest {w}?",
            "The trip is {n} miles. About how many miles is it to the nearest {w}?",
            "{name} has {n} stickers and says it is about how many, to the nearest {w}?",
        ),
        n=n, w=word, name=name,
    )  # fmt: skip
    return text, f"round_to({n}, {unit})", str(_round(n, unit))


def _g3nbt2(rng: random.Random) -> Made:
    a, b = rng.randint(100, 899), rng.randint(10, 500)
    mode = rng.randrange(4)
    if mode == 0 and a + b <= 1000:
        return _bare(rng, f"{a} + {b}"), f"{a} + {b}", str(a + b)
    if mode == 1 and b < a:
        return _bare(rng, f"{a} - {b}"), f"{a} - {b}", str(a - b)
    s = a + b if a + b <= 1000 else a
    b = min(b, s - 1)
    if mode == 2:
        return _eq(rng, f"? + {b} = {s}"), f"{s} - {b}", str(s - b)
    return _eq(rng, f"{s} - ? = {b}"), f"{s} - {b}", str(s - b)


def _g3nbt2_story(rng: random.Random) -> Made:
    a, b = rng.randint(100, 600), rng.randint(20, 399)
    name, other = _two(rng)
    t = pick(rng, THINGS)[1]
    mode = rng.randrange(4)
    kw = {"a": a, "b": b, "s": a + b, "name": name, "o": other, "t": t}
    if mode == 0:
        text = _say(rng, (
            "{name} has {a} {t}. {o} gives {name} {b} more. How many {t} does {name} have now?",
            "A library has {a} books on one floor and {b} on another. How many books in all?",
            "{name} scored {a} points and then {b} points. What is the total score?",
            "There were {a} people at the fair on Friday and {b} on Saturday. How many people came "
            "in all?",
        ), **kw)  # fmt: skip
        return text, f"{a} + {b}", str(a + b)
    if mode == 1:
        text = _say(rng, (
            "{name} had {s} {t} and gave away {b}. How many {t} are left?",
            "A store had {s} {t}. It sold {b}. How many {t} does the store have now?",
            "The school needs {s} tickets sold. {a} are sold. How many more are needed?",
            "{name} has {s} points and {o} has {b} points. How many more points does {name} have?",
        ), **kw)  # fmt: skip
        if "tickets" in text:
            return text, f"{a + b} - {a}", str(b)
        return text, f"{a + b} - {b}", str(a)
    if mode == 2:
        text = _say(rng, (
            "{name} had some {t}. {o} gave {name} {b} more. Now {name} has {s}. How many did "
            "{name} have at first?",
            "Some people were on a train. {b} more got on. Now there are {s} people. How many were "
            "on the train before?",
        ), **kw)  # fmt: skip
        return text, f"{a + b} - {b}", str(a)
    text = _say(rng, (
        "{name} had {a} {t}. After getting some more, {name} has {s}. How many {t} did {name} get?",
        "A jar had {a} beads. {name} added some and now there are {s}. How many beads were added?",
    ), **kw)  # fmt: skip
    return text, f"{a + b} - {a}", str(b)


def _g3nbt3(rng: random.Random) -> Made:
    a, t = rng.randint(1, 9), rng.randint(1, 9) * 10
    x = _x(rng)
    mode = rng.randrange(3)
    if mode == 0:
        return _bare(rng, f"{a} {x} {t}"), f"{a} * {t}", str(a * t)
    if mode == 1:
        return _bare(rng, f"{t} {x} {a}"), f"{t} * {a}", str(a * t)
    return _eq(rng, f"{a} {x} ? = {a * t}"), f"{a * t} / {a}", str(t)


def _g3nbt3_story(rng: random.Random) -> Made:
    a, t = rng.randint(2, 9), rng.randint(1, 9) * 10
    name = pick(rng, NAMES)
    text = _say(rng, (
        "{name} buys {a} boxes of crayons with {t} crayons in each. How many crayons?",
        "Each bus holds {t} people. How many people can {a} buses hold?",
        "A baker makes {t} rolls a day for {a} days. How many rolls is that?",
        "{name} does {t} jumping jacks each day for {a} days. How many jumping jacks?",
        "There are {a} shelves with {t} books on each. How many books?",
    ), name=name, a=a, t=t)  # fmt: skip
    return text, f"{a} * {t}", str(a * t)


# --- 3.NF: fractions with denominators 2, 3, 4, 6, 8 ------------------------------------------

_D3 = (2, 3, 4, 6, 8)
_FOODS = (
    "pizza",
    "pie",
    "cake",
    "chocolate bar",
    "sandwich",
    "pan of brownies",
)
_DEN_WORD = {2: "halves", 3: "thirds", 4: "fourths", 5: "fifths", 6: "sixths", 8: "eighths"}
_DEN_WORD |= {10: "tenths", 12: "twelfths", 15: "fifteenths", 20: "twentieths"}
# (denominator, multiplier) pairs whose products stay within grade 3's 2, 3, 4, 6, 8.
_EQUIV3 = ((2, 2), (2, 3), (2, 4), (3, 2), (4, 2))


def _g3nf1_story(rng: random.Random) -> Made:
    b = pick(rng, _D3)
    a = rng.randint(1, b - 1)
    food, name = pick(rng, _FOODS), pick(rng, NAMES)
    kw = {"a": a, "b": b, "food": food, "name": name}
    if rng.random() < 0.5:
        text = _say(rng, (
            "A {food} is cut into {b} equal parts. {name} eats {a} of them. What fraction of the "
            "{food} did {name} eat?",
            "{name} splits a {food} into {b} equal pieces and takes {a}. What fraction did {name} "
            "take?",
            "a {food} has {b} equal pieces and {name} ate {a} what fraction is that",
            "{name} colors {a} of the {b} equal parts of a {food}. What fraction is colored?",
            "Write the fraction: {a} parts out of {b} equal parts of a {food}.",
        ), **kw)  # fmt: skip
        return text, f"{a}/{b}", _f(a, b)
    text = _say(rng, (
        "A {food} is cut into {b} equal parts. {name} eats {a}. What fraction of the {food} is "
        "left?",
        "{name} shares a {food} cut into {b} equal pieces. {a} pieces are eaten. What fraction "
        "remains?",
        "A {food} is split into {b} equal parts. What fraction is one part?",
    ), **kw)  # fmt: skip
    if "one part" in text:
        return text, f"1/{b}", _f(1, b)
    return text, f"({b} - {a})/{b}", _f(b - a, b)


def _g3nf1_bare(rng: random.Random) -> Made:
    b = pick(rng, _D3)
    a = rng.randint(2, b)
    mode = rng.randrange(3)
    if mode == 0:
        text = pick(
            rng,
            (
                f"How many 1/{b}s make {a}/{b}?",
                f"{a}/{b} is how many parts of size 1/{b}?",
                f"how many 1/{b} pieces are in {a}/{b}",
            ),
        )
        return text, f"({a}/{b}) / (1/{b})", str(a)
    if mode == 1:
        text = pick(
            rng,
            (
                f"{a}/{b} is {a} parts of what size?",
                f"What unit fraction is {a}/{b} made of?",
                f"{a}/{b} = {a} copies of what fraction?",
            ),
        )
        return text, f"({a}/{b}) / {a}", _f(1, b)
    text = pick(
        rng,
        (
            f"A whole is split into {b} equal parts. What fraction is {a} of those parts?",
            f"what fraction is {a} parts when the whole has {b} equal parts",
        ),
    )
    return text, f"{a} * (1/{b})", _f(a, b)


def _g3nf2a(rng: random.Random) -> Made:
    b = pick(rng, _D3)
    text = pick(
        rng,
        (
            f"A number line from 0 to 1 is split into {b} equal parts. What fraction is at the "
            "first tick mark after 0?",
            f"The space from 0 to 1 on a number line has {b} equal parts. How long is each part?",
            f"On a number line, 0 to 1 is cut into {b} equal pieces. What number is at the end of "
            "the first piece?",
            f"number line 0 to 1 with {b} equal parts what is the first mark",
            f"i dont get number lines. 0 to 1 is cut in {b} equal parts, what is the first point",
            f"Partition 0 to 1 into {_DEN_WORD[b]}. What fraction is the point after 0?",
            f"my homework says name the first mark after 0 when 0 to 1 is split in {b} equal parts",
            f"Each part of a number line from 0 to 1 is the same size. There are {b} parts. "
            "What is the size of one part?",
            f"Where is 1/{b}? The whole from 0 to 1 is split into {b} equal parts. Each part has "
            "what size?",
        ),
    )
    return text, f"1/{b}", _f(1, b)


def _g3nf2b(rng: random.Random) -> Made:
    b = pick(rng, _D3)
    a = rng.randint(2, 2 * b - 1)
    text = pick(
        rng,
        (
            f"Start at 0 and mark off {a} lengths of 1/{b} on a number line. What number do you "
            "land on?",
            f"A number line has each whole split into {b} equal parts. Point P is at the "
            f"{_ordinal(a)} tick mark after 0. What fraction is P?",
            f"how many is {a} jumps of 1/{b} from 0 on the number line",
            f"What fraction is {a} parts of size 1/{b} from 0 on a number line?",
            f"On a number line marked in {_DEN_WORD[b]}, the dot is {a} marks right of 0. Write "
            "the "
            "fraction.",
        ),
    )
    return text, f"{a} * (1/{b})", _f(a, b)


def _g3nf2b_story(rng: random.Random) -> Made:
    b = pick(rng, _D3)
    a = rng.randint(2, 2 * b - 1)
    name = pick(rng, NAMES)
    text = _say(rng, (
        "A frog hops 1/{b} of a meter each hop. It starts at 0 and hops {a} times. Where does it "
        "land on the number line?",
        "{name} walks along a path marked every 1/{b} mile. {name} passes {a} marks from the "
        "start. How far has {name} walked?",
        "A snail crawls 1/{b} of a foot each minute. How far has it crawled after {a} minutes?",
        "{name} puts {a} strips, each 1/{b} of a yard, end to end from 0. Where does the last "
        "strip end?",
        "A ruler is marked in parts of 1/{b} inch. A bug moves {a} parts from 0. Where is it?",
    ), a=a, b=b, name=name)  # fmt: skip
    return text, f"{a} * (1/{b})", _f(a, b)


def _g3nf3a(rng: random.Random) -> Made:
    b, m = pick(rng, _EQUIV3)
    a = rng.randint(1, b - 1)
    text = pick(
        rng,
        (
            f"On a number line marked in {_DEN_WORD[b * m]}, which mark is at the same point as "
            f"{a}/{b}? "
            f"Give the number of {_DEN_WORD[b * m]}.",
            f"{a}/{b} and ?/{b * m} are the same point on a number line. What is ?",
            f"how many {_DEN_WORD[b * m]} are at the same spot as {a}/{b} on the number line",
            f"Two number lines are the same length. One is marked in {_DEN_WORD[b]}, one in "
            f"{_DEN_WORD[b * m]}. "
            f"{a}/{b} lines up with how many {_DEN_WORD[b * m]}?",
        ),
    )
    return text, f"{b * m} * {a}/{b}", str(a * m)


def _g3nf3b(rng: random.Random) -> Made:
    b, m = pick(rng, _EQUIV3)
    a = rng.randint(1, b - 1)
    mode = rng.randrange(3)
    if mode == 0:
        return _eq(rng, f"{a}/{b} = ?/{b * m}"), f"{b * m} * {a}/{b}", str(a * m)
    if mode == 1:
        return _eq(rng, f"{a}/{b} = {a * m}/?"), f"{a * m} / ({a}/{b})", str(b * m)
    return _eq(rng, f"{a * m}/{b * m} = ?/{b}"), f"{b} * {a * m}/{b * m}", str(a)


def _g3nf3b_story(rng: random.Random) -> Made:
    b, m = pick(rng, _EQUIV3)
    a = rng.randint(1, b - 1)
    name, other = _two(rng)
    food = pick(rng, _FOODS)
    text = _say(rng, (
        "{name} ate {a}/{b} of a {food}. {o} ate the same amount of a same-size {food} cut into "
        "{n} equal pieces. How many pieces did {o} eat?",
        "{name} says {a}/{b} of a {food} is the same as ___/{n}. What number goes in the blank?",
        "A {food} is cut into {n} equal parts. How many parts make {a}/{b} of the {food}?",
        "i need to find how many {nw} equal {a}/{b} for my {food} picture",
    ), a=a, b=b, n=b * m, nw=_DEN_WORD[b * m], name=name, o=other, food=food)  # fmt: skip
    return text, f"{b * m} * {a}/{b}", str(a * m)


def _g3nf3c(rng: random.Random) -> Made:
    w, b = rng.randint(1, 8), pick(rng, (1, 2, 3, 4, 6, 8))
    mode = rng.randrange(3)
    if mode == 0:
        return _eq(rng, f"{w} = ?/{b}"), f"{w} * {b}", str(w * b)
    if mode == 1:
        text = pick(
            rng,
            (
                f"{w * b}/{b} = ?",
                f"What whole number is {w * b}/{b}?",
                f"is {w * b}/{b} a whole number? which one",
            ),
        )
        return text, f"{w * b}/{b}", str(w)
    text = pick(
        rng, (f"Write {w} as a fraction with denominator 1. What is the numerator?", f"{w} = ?/1")
    )
    return text, f"{w} * 1", str(w)


def _g3nf3d(rng: random.Random) -> Made:
    if rng.random() < 0.5:
        b = pick(rng, _D3)
        a1, a2 = rng.sample(range(1, b + 1), 2) if b > 2 else (1, 2)
        f1, f2 = _f(a1, b), _f(a2, b)
    else:
        a = rng.randint(1, 3)
        b1, b2 = rng.sample([d for d in _D3 if d > a], 2)
        f1, f2 = _f(a, b1), _f(a, b2)
    v1, v2 = Fraction(f1), Fraction(f2)
    mode = rng.randrange(5)
    if mode == 0:
        return (
            _cmp_text(rng, f1, f2),
            f"cmp({f1}, {f2})",
            "<" if v1 < v2 else ">",
        )
    if mode in (1, 2):
        text = pick(
            rng,
            (
                f"Which is greater, {f1} or {f2}?",
                f"which is bigger {f1} or {f2}",
                f"Circle the larger fraction: {f1}, {f2}.",
            ),
        )
        return text, f"max({f1}, {f2})", f1 if v1 > v2 else f2
    text = pick(
        rng,
        (
            f"Which is less, {f1} or {f2}?",
            f"which fraction is smaller {f1} or {f2}",
            f"Find the smaller of {f1} and {f2}.",
        ),
    )
    return text, f"min({f1}, {f2})", f1 if v1 < v2 else f2


def _g3nf3d_story(rng: random.Random) -> Made:
    name, other = _two(rng)
    food = pick(rng, _FOODS)
    if rng.random() < 0.5:
        b = pick(rng, (3, 4, 6, 8))
        a1, a2 = rng.sample(range(1, b), 2)
        f1, f2 = _f(a1, b), _f(a2, b)
    else:
        a = rng.randint(1, 2)
        b1, b2 = rng.sample([d for d in _D3 if d > a], 2)
        f1, f2 = _f(a, b1), _f(a, b2)
    big = f1 if Fraction(f1) > Fraction(f2) else f2
    text = _say(rng, (
        "{name} ate {f1} of a {food} and {o} ate {f2} of a same-size {food}. What fraction did the "
        "one who ate more eat?",
        "{name} and {o} each have a {food} of the same size. {name} has {f1} left and {o} has "
        "{f2} left. Which amount is "
        "greater?",
        "{name} ran {f1} mile and {o} ran {f2} mile. How far did the one who ran farther go?",
        "who drank more, {name} with {f1} of a bottle or {o} with {f2} of the same bottle? how "
        "much was that",
    ), name=name, o=other, f1=f1, f2=f2, food=food)  # fmt: skip
    return text, f"max({f1}, {f2})", big


# --- 3.MD: time, mass, volume, graphs, area, perimeter ----------------------------------------


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


def _g3md5b(rng: random.Random) -> Made:
    a, b = rng.randint(3, 20), rng.randint(2, 15)
    name = pick(rng, NAMES)
    text = _say(rng, (
        "{name} covers a shape with {a} red unit squares and {b} blue unit squares, with no gaps "
        "or overlaps. What is the area in square units?",
        "A figure is covered by {a} unit squares on the top part and {b} unit squares on the "
        "bottom part, no gaps and no overlaps. What is its area?",
        "A shape can be covered with {a} square tiles, each 1 square unit, and {b} more tiles. How "
        "many square units is its area?",
        "if a shape is covered by {a} unit squares plus {b} unit squares with no gaps what is the "
        "area",
    ), a=a, b=b, name=name)  # fmt: skip
    return text, f"{a} + {b}", str(a + b)


def _g3md5a(rng: random.Random) -> Made:
    unit = pick(rng, ("cm", "inch", "meter", "foot", "unit"))
    n = rng.randint(2, 12)
    if rng.random() < 0.3:
        text = pick(rng, (
            f"A square has sides of 1 {unit}. What is its area in square units?",
            f"what is the area of a unit square with side 1 {unit}",
        ))  # fmt: skip
        return text, "1 * 1", "1"
    text = pick(rng, (
        f"A unit square has an area of 1 square unit. How many square units do {n} unit squares "
        "cover?",
        f"{pick(rng, NAMES)} lines up {n} unit squares, each with side 1 {unit}. What is the area "
        "in square units?",
        f"each square is 1 {unit} on a side so it is one square unit. what is the area of {n} of "
        "them",
        f"How many square units is a strip of {n} unit squares?",
    ))  # fmt: skip
    return text, f"{n} * 1", str(n)


def _g3md6(rng: random.Random) -> Made:
    rows = [rng.randint(2, 8) for _ in range(rng.randint(2, 4))]
    unit, one = pick(rng, (
        ("square centimeters", "1 square centimeter"), ("square inches", "1 square inch"),
        ("square meters", "1 square meter"), ("square feet", "1 square foot"),
        ("sticky notes", "1 sticky note, our own square unit"),
    ))  # fmt: skip
    desc = ", ".join(f"row {i + 1} has {n}" for i, n in enumerate(rows))
    text = _say(rng, (
        "A shape on grid paper has shaded unit squares: {d}. Each square is {one}. "
        "What is the area?",
        "Count the squares: {d}. What is the area in {u}?",
        "{name} covers a table top with {u}: {d}. How many {u} cover it?",
        "the shaded squares go {d}, what is the area in {u}",
    ), d=desc, u=unit, one=one, name=pick(rng, NAMES))  # fmt: skip
    return text, " + ".join(map(str, rows)), str(sum(rows))


def _g3md7a(rng: random.Random) -> Made:
    r, c = rng.randint(2, 10), rng.randint(2, 10)
    name = pick(rng, NAMES)
    text = _say(rng, (
        "A rectangle is tiled with unit squares: {r} rows of {c} squares. What is its area in "
        "square units?",
        "{name} tiles a rectangle {r} units by {c} units with unit squares. How many squares does "
        "{name} use?",
        "A rectangle has side lengths {r} and {c} units. Tile it and find the area.",
        "{name} counted the tiles in a {r} by {c} rectangle one by one. Multiply the sides to "
        "check. What is the area?",
        "how many unit squares cover a rectangle that is {r} by {c}",
    ), r=r, c=c, name=name)  # fmt: skip
    return text, f"{r} * {c}", str(r * c)


def _g3md7b_story(rng: random.Random) -> Made:
    a, b = rng.randint(2, 10), rng.randint(2, 10)
    thing, unit = pick(rng, (
        ("garden", "meters"), ("garden", "feet"), ("rug", "feet"), ("poster", "inches"),
        ("patio", "yards"), ("classroom floor", "meters"), ("table top", "feet"),
        ("sandbox", "feet"), ("photo", "centimeters"), ("placemat", "inches"),
    ))  # fmt: skip
    name = pick(rng, NAMES)
    text = _say(rng, (
        "{name}'s {t} is a rectangle {a} {u} long and {b} {u} wide. What is its area in square "
        "{u}?",
        "A rectangular {t} measures {a} {u} by {b} {u}. How many square {u} is it?",
        "How much space does a {t} take up if it is {a} {u} by {b} {u}?",
        "{name} wants to cover a {t} that is {a} {u} by {b} {u}. How many square {u} does {name} "
        "need?",
        "our {t} is {a} {u} long and {b} {u} wide what is the area",
    ), a=a, b=b, u=unit, name=name, t=thing)  # fmt: skip
    return text, f"{a} * {b}", str(a * b)


def _g3md7b_bare(rng: random.Random) -> Made:
    a, b = rng.randint(2, 10), rng.randint(2, 10)
    unit = pick(rng, ("cm", "m", "in", "ft", "units"))
    text = pick(rng, (
        f"Find the area of a rectangle with side lengths {a} {unit} and {b} {unit}.",
        f"Area of a {a} {unit} by {b} {unit} rectangle = ?",
        f"what is the area of a rectangle {a} by {b}",
        f"A rectangle is {a} {unit} long and {b} {unit} wide. Area?",
        f"Draw a rectangle to show {a} {_x(rng)} {b}. What is its area?",
    ))  # fmt: skip
    return text, f"{a} * {b}", str(a * b)


def _g3md7c(rng: random.Random) -> Made:
    a, b, c = rng.randint(2, 9), rng.randint(2, 10), rng.randint(1, 5)
    x = _x(rng)
    text = pick(rng, (
        f"A rectangle is {a} by {b + c}. Split the {b + c} side into {b} and {c}. Find the area as "
        f"{a} {x} {b} + {a} {x} {c}.",
        f"Use an area model: {a} {x} ({b} + {c}) = {a} {x} {b} + {a} {x} {c}. What is the total "
        "area?",
        f"An area model for {a} {x} {b + c} splits {b + c} into {b} and {c}. What is the total "
        "area?",
        f"how do i use tiling to show {a} x {b + c} is {a} x {b} plus {a} x {c}, what is the area",
        f"A {a} by {b + c} rectangle is cut into a {a} by {b} part and a {a} by {c} part. Add the "
        "two areas.",
    ))  # fmt: skip
    return text, f"{a} * {b} + {a} * {c}", str(a * (b + c))


def _g3md7d(rng: random.Random) -> Made:
    a, b = rng.randint(3, 10), rng.randint(2, 8)
    c, d = rng.randint(2, a - 1), rng.randint(2, 6)
    unit = pick(rng, ("m", "ft", "cm", "yd"))
    name = pick(rng, NAMES)
    text = _say(rng, (
        "An L-shaped figure is made of a {a} {u} by {b} {u} rectangle and a {c} {u} by {d} {u} "
        "rectangle that do not overlap. What is its total area?",
        "{name}'s room is L-shaped. One part is {a} {u} by {b} {u}; the other part is {c} {u} by "
        "{d} {u}. How many square {u} of carpet does {name} need?",
        "Split the figure into two rectangles, {a} by {b} and {c} by {d}. What is the area of the "
        "whole figure in square {u}?",
        "a garden is two rectangles {a} {u} x {b} {u} and {c} {u} x {d} {u} what is the area",
        "Find the area of the rectilinear figure: it decomposes into a {a} {u} by {b} {u} "
        "rectangle and a {c} {u} by {d} {u} rectangle.",
    ), a=a, b=b, c=c, d=d, u=unit, name=name)  # fmt: skip
    return text, f"{a} * {b} + {c} * {d}", str(a * b + c * d)


def _g3md8(rng: random.Random) -> Made:
    unit = pick(rng, ("cm", "m", "in", "ft"))
    mode = rng.randrange(4)
    if mode == 0:
        sides = [rng.randint(2, 20) for _ in range(rng.randint(3, 6))]
        shape = {3: "triangle", 4: "quadrilateral", 5: "pentagon", 6: "hexagon"}[len(sides)]
        s = ", ".join(f"{v} {unit}" for v in sides)
        text = pick(
            rng,
            (
                f"A {shape} has sides of {s}. What is its perimeter?",
                f"find the perimeter of a {shape} with sides {s}",
                f"Perimeter = ? The sides are {s}.",
            ),
        )
        return text, " + ".join(map(str, sides)), str(sum(sides))
    if mode == 1:
        sides = [rng.randint(2, 15) for _ in range(3)]
        last = rng.randint(2, 15)
        p = sum(sides) + last
        s = ", ".join(f"{v} {unit}" for v in sides)
        text = pick(
            rng,
            (
                f"A quadrilateral has a perimeter of {p} {unit}. Three sides are {s}. How long is "
                "the fourth side?",
                f"perimeter is {p} {unit} and three sides are {s} what is the missing side",
            ),
        )
        return text, f"{p} - " + " - ".join(map(str, sides)), str(last)
    ln, w = rng.randint(2, 15), rng.randint(2, 15)
    if mode == 2:
        text = pick(
            rng,
            (
                f"What is the perimeter of a rectangle {ln} {unit} long and {w} {unit} wide?",
                f"find the perimeter of a {ln} by {w} rectangle",
                f"A square has sides of {ln} {unit}. What is its perimeter?",
            ),
        )
        if "square" in text:
            return text, f"4 * {ln}", str(4 * ln)
        return text, f"2 * ({ln} + {w})", str(2 * (ln + w))
    p = 2 * (ln + w)
    text = pick(
        rng,
        (
            f"A rectangle has a perimeter of {p} {unit} and a length of {ln} {unit}. What is its "
            "width?",
            f"rectangle perimeter {p} {unit}, one side {ln} {unit}, how long is the other side",
        ),
    )
    return text, f"({p} - 2 * {ln}) / 2", str(w)


def _g3md8_story(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    ln, w = rng.randint(3, 20), rng.randint(2, 12)
    mode = rng.randrange(3)
    if mode == 0:
        text = _say(rng, (
            "{name} puts a fence around a rectangular garden {ln} feet long and {w} feet wide. How "
            "many feet of fence does {name} need?",
            "A picture frame is {ln} inches by {w} inches. How much ribbon goes all the way around "
            "it?",
            "how many meters is it around a rectangle field {ln} m by {w} m",
            "{name} walks around a park shaped like a rectangle, {ln} yards by {w} yards. How far "
            "does {name} walk?",
        ), name=name, ln=ln, w=w)  # fmt: skip
        return text, f"2 * {ln} + 2 * {w}", str(2 * ln + 2 * w)
    if mode == 1:
        p = 2 * (ln + w)
        text = _say(rng, (
            "{name} used {p} feet of fence around a rectangular pen. The pen is {ln} feet long. "
            "How "
            "wide is it?",
            "A rectangle has a perimeter of {p} cm. One side is {ln} cm. How long is the side next "
            "to it?",
        ), name=name, ln=ln, p=p)  # fmt: skip
        return text, f"({p} - 2 * {ln}) / 2", str(w)
    a, b = rng.randint(1, 5), rng.randint(6, 11)
    c, d = rng.randint(1, 5), 0
    d = a + b - c
    if c == a:
        c, d = a + 1, b - 1
    text = _say(rng, (
        "Two rectangles have the same perimeter: one is {a} by {b}, the other is {c} by {d}. How "
        "much bigger is the area of the larger one?",
        "{name} makes two rectangle gardens with the same perimeter, {a} m by {b} m and {c} m by "
        "{d} m. What is the difference in their areas?",
    ), name=name, a=a, b=b, c=c, d=d)  # fmt: skip
    return text, f"abs({a} * {b} - {c} * {d})", str(abs(a * b - c * d))


# --- 3.G: shapes ------------------------------------------------------------------------------

_QUADS = ("square", "rectangle", "rhombus", "trapezoid", "parallelogram", "kite")
_NOT_QUADS = ("triangle", "pentagon", "hexagon", "circle", "octagon")


def _g3g1_count(rng: random.Random) -> Made:
    quads = rng.sample(_QUADS, rng.randint(1, 4))
    others = rng.sample(_NOT_QUADS, rng.randint(1, 3))
    shapes = quads + others
    rng.shuffle(shapes)
    listed = ", ".join(shapes)
    if rng.random() < 0.6:
        text = pick(rng, (
            f"How many of these shapes are quadrilaterals: {listed}?",
            f"which of these have 4 sides? {listed}. how many is that",
            f"Count the shapes that belong to the quadrilateral group: {listed}.",
        ))  # fmt: skip
        return text, _ones(len(quads)), str(len(quads))
    text = pick(rng, (
        f"How many sides do these quadrilaterals have altogether: {', '.join(quads)}?",
        f"A {', a '.join(quads)} all have four sides. How many sides is that in all?",
    ))  # fmt: skip
    return text, " + ".join(["4"] * len(quads)), str(4 * len(quads))


def _g3g1_name(rng: random.Random) -> Made:
    shape, clue = pick(rng, (
        ("square", "4 equal sides and 4 right angles"),
        ("rectangle", "4 right angles and opposite sides equal, but not all sides equal"),
        ("rhombus", "4 equal sides but no right angles"),
        ("trapezoid", "4 sides and exactly one pair of parallel sides"),
        ("quadrilateral", "4 sides, with no sides equal and no right angles"),
    ))  # fmt: skip
    text = pick(rng, (
        f"I am a shape with {clue}. What am I?",
        f"what shape has {clue}",
        f"Name the quadrilateral with {clue}.",
    ))  # fmt: skip
    return text, repr(shape), shape


def _g3g2(rng: random.Random) -> Made:
    b = pick(rng, (2, 3, 4, 6, 8))
    shape = pick(rng, ("rectangle", "square", "circle", "hexagon", "strip of paper"))
    mode = rng.randrange(3)
    if mode == 0:
        text = pick(rng, (
            f"A {shape} is partitioned into {b} parts with equal area. What fraction of the area "
            "is each part?",
            f"{pick(rng, NAMES)} cuts a {shape} into {b} equal parts. Each part is what fraction "
            "of the whole?",
            f"if you split a {shape} into {b} equal areas what fraction is one piece",
        ))  # fmt: skip
        return text, f"1/{b}", _f(1, b)
    if mode == 1:
        a = b * rng.randint(2, 10)
        text = pick(rng, (
            f"A {shape} has an area of {a} square units. It is split into {b} parts with equal "
            "area. What is the area of each part?",
            f"a {shape} with area {a} square cm is cut into {b} equal parts, what is the area of "
            "one part",
        ))  # fmt: skip
        return text, f"{a} / {b}", str(a // b)
    text = pick(rng, (
        f"Each part of a partitioned {shape} is 1/{b} of its area. How many equal parts are there?",
        f"every piece is 1/{b} of the {shape} how many pieces",
    ))  # fmt: skip
    return text, f"1 / (1/{b})", str(b)


# --- 4.OA: multiplicative comparison, multistep problems, factors, patterns -------------------


def _g4oa1(rng: random.Random) -> Made:
    a, b = rng.randint(2, 10), rng.randint(2, 12)
    p, x = a * b, _x(rng)
    mode = rng.randrange(4)
    if mode == 0:
        text = pick(rng, (
            f"{p} = {a} {x} {b} means {p} is {a} times as many as what number?",
            f"{p} is {a} times as many as ?",
            f"i know {p} = {a} x {b} so {p} is {a} times as many as what",
        ))  # fmt: skip
        return text, f"{p} / {a}", str(b)
    if mode == 1:
        text = pick(rng, (
            f"What number is {a} times as many as {b}? Write the equation.",
            f"write an equation for {a} times as many as {b} and solve it",
            f"Find the number that is {a} times as large as {b}.",
        ))  # fmt: skip
        return text, f"{a} * {b}", str(p)
    if mode == 2:
        text = pick(rng, (
            f"{p} is how many times as many as {b}?",
            f"How many times as many as {b} is {p}?",
            f"{p} = ? {x} {b}. How many times as many as {b} is {p}?",
        ))  # fmt: skip
        return text, f"{p} / {b}", str(a)
    text = pick(rng, (
        f"Write an equation for \"{p} is {a} times as many as n\". What is n?",
        f"n {x} {a} = {p}. The statement is {p} is {a} times as many as n. Find n.",
    ))  # fmt: skip
    return text, f"{p} / {a}", str(b)


def _g4oa2(rng: random.Random) -> Made:
    m, a = rng.randint(2, 9), rng.randint(3, 25)
    name, other = _two(rng)
    t = pick(rng, THINGS)[1]
    kw = {"name": name, "o": other, "m": m, "a": a, "p": a * m, "t": t}
    mode = rng.randrange(3)
    if mode == 0:
        text = _say(rng, (
            "{name} has {a} {t}. {o} has {m} times as many {t}. How many {t} does {o} have?",
            "A red ribbon is {a} cm long. A blue ribbon is {m} times as long. How long is the blue "
            "ribbon?",
            "A toy costs {a} dollars. A bike costs {m} times as much. How much does the bike cost?",
            "{o} read {m} times as many books as {name}. {name} read {a}. How many did {o} read?",
        ), **kw)  # fmt: skip
        return text, f"{m} * {a}", str(m * a)
    if mode == 1:
        text = _say(rng, (
            "{o} has {p} {t}. That is {m} times as many as {name} has. How many {t} does {name} "
            "have?",
            "A blue ribbon is {p} cm long, {m} times as long as a red ribbon. How long is the red "
            "ribbon?",
            "A bike costs {p} dollars, which is {m} times as much as a helmet. How much is the "
            "helmet?",
            "a tree is {p} feet tall and that is {m} times as tall as a bush how tall is the bush",
        ), **kw)  # fmt: skip
        return text, f"{a * m} / {m}", str(a)
    text = _say(rng, (
        "{o} has {p} {t} and {name} has {a}. How many times as many {t} does {o} have?",
        "A dog weighs {p} pounds and a cat weighs {a} pounds. How many times as heavy is the dog?",
        "{name} ran {p} laps and {o} ran {a} laps. {name} ran how many times as many laps?",
    ), **kw)  # fmt: skip
    return text, f"{a * m} / {a}", str(m)


def _g4oa3_story(rng: random.Random) -> Made:
    name, other = _two(rng)
    mode = rng.randrange(4)
    if mode == 0:
        n, p, c = rng.randint(3, 9), rng.randint(12, 45), rng.randint(2, 6)
        q = rng.randint(5, 20)
        budget = n * p + c * q + rng.randint(10, 150)
        text = _say(rng, (
            "{name} has {B} dollars. {name} buys {n} shirts at {p} dollars each and {c} hats at "
            "{q} dollars each. How much money is left?",
            "A club has ${B}. It spends ${p} on each of {n} tickets and ${q} on each of {c} "
            "snacks. How many dollars remain?",
        ), name=name, B=budget, n=n, p=p, c=c, q=q)  # fmt: skip
        return text, f"{budget} - {n} * {p} - {c} * {q}", str(budget - n * p - c * q)
    if mode == 1:
        rows, per, groups = rng.randint(4, 12), rng.randint(6, 15), rng.randint(2, 6)
        extra = (groups - rows * per % groups) % groups + groups * rng.randint(0, 5)
        total = rows * per + extra
        text = _say(rng, (
            "A farm picks {r} crates of {k} apples and {e} loose apples. They are shared equally "
            "among {g} stores. How many apples does each store get?",
            "{name} has {r} packs of {k} cards and {e} more cards. {name} splits them equally "
            "among {g} friends. How many cards does each friend get?",
            "there are {r} rows of {k} chairs plus {e} extra chairs and we put them in {g} equal "
            "rooms how many per room",
        ), name=name, r=rows, k=per, e=extra, g=groups)  # fmt: skip
        return text, f"({rows} * {per} + {extra}) / {groups}", str(total // groups)
    if mode == 2:
        a, b, c = rng.randint(120, 900), rng.randint(50, 400), rng.randint(2, 5)
        text = _say(rng, (
            "A school collected {a} cans in week 1 and {b} cans in week 2. In week 3 it collected "
            "{c} times as many as week 2. How many cans in all?",
            "{name} scored {a} points, {o} scored {b} points, and a third player scored {c} times "
            "{o}'s points. What is the total?",
        ), name=name, o=other, a=a, b=b, c=c)  # fmt: skip
        return text, f"{a} + {b} + {c} * {b}", str(a + b + c * b)
    k, n, m = rng.randint(15, 60), rng.randint(3, 9), rng.randint(2, 5)
    text = _say(rng, (
        "{name} runs {k} minutes a day for {n} days and {o} runs {m} times as many minutes in "
        "total. How many minutes does {o} run?",
        "A printer prints {k} pages a minute. It prints for {n} minutes, then {m} more minutes. "
        "How many pages?",
    ), name=name, o=other, k=k, n=n, m=m)  # fmt: skip
    if "printer" in text:
        return text, f"{k} * ({n} + {m})", str(k * (n + m))
    return text, f"{k} * {n} * {m}", str(k * n * m)


def _g4oa3_remainder(rng: random.Random) -> Made:
    k = rng.randint(3, 9)
    n = k * rng.randint(3, 15) + rng.randint(1, k - 1)
    name = pick(rng, NAMES)
    mode = rng.randrange(3)
    kw = {"n": n, "k": k, "name": name}
    if mode == 0:
        text = _say(rng, (
            "{n} students are going on a trip. Each van holds {k} students. How many vans are "
            "needed?",
            "{name} has {n} photos. Each page of the album holds {k}. How many pages does {name} "
            "need for all the photos?",
            "{n} people need seats, {k} to a table. How many tables are needed so everyone can "
            "sit?",
            "if {n} kids go in cars that hold {k} kids how many cars do we need",
        ), **kw)  # fmt: skip
        return text, f"ceil({n} / {k})", str(-(-n // k))
    if mode == 1:
        text = _say(rng, (
            "{name} has {n} eggs and puts them in cartons of {k}. How many full cartons can {name} "
            "make?",
            "A ribbon is {n} inches long. How many {k}-inch pieces can be cut from it?",
            "{n} cookies are packed {k} to a bag. How many bags are full?",
        ), **kw)  # fmt: skip
        return text, f"{n} // {k}", str(n // k)
    text = _say(rng, (
        "{name} shares {n} stickers equally among {k} friends, giving each as many as possible. "
        "How many stickers are left over?",
        "{n} marbles are put in bags of {k}. How many marbles are left over?",
        "{n} pencils shared by {k} kids equally, how many are left",
    ), **kw)  # fmt: skip
    return text, f"{n} % {k}", str(n % k)


_PRIMES = (
    2,
    3,
    5,
    7,
    11,
    13,
    17,
    19,
    23,
    29,
    31,
    37,
    41,
    43,
    47,
    53,
    59,
    61,
    67,
    71,
    73,
    79,
    83,
    89,
    97,
)


def _g4oa4(rng: random.Random) -> Made:
    mode = rng.randrange(5)
    if mode == 0:
        a, b = rng.randint(2, 10), rng.randint(2, 10)
        text = pick(rng, (
            f"{a} and ? are a factor pair of {a * b}. What is the missing factor?",
            f"find the partner factor: {a} x ? = {a * b}",
            f"One factor pair of {a * b} includes {a}. What is the other factor?",
        ))  # fmt: skip
        return text, f"{a * b} / {a}", str(b)
    if mode == 1:
        k = rng.randint(2, 9)
        m = k * rng.randint(2, 100 // k)
        text = pick(rng, (
            f"{m} is a multiple of {k}. How many {k}s make {m}?",
            f"is {m} a multiple of {k}? what times {k} is {m}",
        ))  # fmt: skip
        return text, f"{m} / {k}", str(m // k)
    if mode == 2:
        p = pick(rng, [q for q in _PRIMES if q > 10])
        others = rng.sample([n for n in range(12, 100) if n not in _PRIMES and n % 2 == 1], 3)
        nums = [*others, p]
        rng.shuffle(nums)
        listed = ", ".join(map(str, nums))
        text = pick(
            rng,
            (
                f"Which number is prime: {listed}?",
                f"only one of these is prime {listed} which one",
                f"Find the prime number in the list {listed}.",
            ),
        )
        return text, str(p), str(p)
    if mode == 3:
        k = rng.randint(3, 9)
        n = rng.randint(40, 100)
        text = pick(
            rng,
            (
                f"How many multiples of {k} are there from 1 to {n}?",
                f"how many numbers from 1 to {n} are multiples of {k}",
            ),
        )
        return text, f"{n} // {k}", str(n // k)
    n = pick(rng, [q for q in range(12, 100) if q not in _PRIMES])
    sp = min(d for d in range(2, n) if n % d == 0)
    text = pick(rng, (
        f"What is the greatest factor of {n} that is less than {n}?",
        f"{n} is composite. What is its smallest factor greater than 1?",
    ))  # fmt: skip
    if "smallest" in text:
        return text, f"{n} / ({n} / {sp})", str(sp)
    return text, f"{n} / {sp}", str(n // sp)


def _g4oa4_story(rng: random.Random) -> Made:
    k = rng.randint(2, 9)
    n = k * rng.randint(3, 100 // k)
    name = pick(rng, NAMES)
    t = pick(rng, THINGS)[1]
    text = _say(rng, (
        "{name} wants to put {n} {t} in equal rows of {k}. Is {n} a multiple of {k}? How many "
        "rows?",
        "A store sells {t} in packs of {k}. {name} needs exactly {n}. How many packs should "
        "{name} buy?",
        "{name} arranges {n} chairs in an array with {k} chairs in each row. How many rows?",
        "{n} kids make teams of {k} with no one left out. How many teams are there?",
        "is {n} a multiple of {k}? {name} says {k} is a factor of {n}. what is the other factor",
    ), name=name, n=n, k=k, t=t)  # fmt: skip
    return text, f"{n} / {k}", str(n // k)


def _g4oa5(rng: random.Random) -> Made:
    start = rng.randint(1, 20)
    n = rng.randint(5, 8)
    mode = rng.randrange(3)
    if mode == 0:
        k = rng.randint(2, 9)
        text = pick(rng, (
            f"The rule is \"add {k}\". The first number is {start}. What is the {_ordinal(n)} "
            "number?",
            f"start at {start} and add {k} each time what is the {_ordinal(n)} number",
            f"Make a pattern: start with {start}, rule add {k}. Find term {n}.",
        ))  # fmt: skip
        return text, f"{start} + {n - 1} * {k}", str(start + (n - 1) * k)
    if mode == 1:
        k = rng.randint(2, 3)
        s0 = rng.randint(1, 5)
        m = rng.randint(4, 6)
        text = pick(rng, (
            f"The rule is \"multiply by {k}\". The first number is {s0}. What is the {_ordinal(m)} "
            "number?",
            f"start with {s0} and times by {k} each step what is number {m} in the pattern",
        ))  # fmt: skip
        return text, f"{s0} * {k} ** {m - 1}", str(s0 * k ** (m - 1))
    k = rng.randint(2, 9)
    s0 = start + k * n + rng.randint(10, 40)
    text = pick(rng, (
        f"The rule is \"subtract {k}\". Start at {s0}. What is the {_ordinal(n)} number?",
        f"start at {s0} and take away {k} each time, what is the {_ordinal(n)} number",
    ))  # fmt: skip
    return text, f"{s0} - {n - 1} * {k}", str(s0 - (n - 1) * k)


def _g4oa5_story(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    s, k, n = rng.randint(3, 8), rng.randint(2, 6), rng.randint(6, 12)
    text = _say(rng, (
        "Figure 1 has {s} squares. Each new figure has {k} more squares. How many squares are in "
        "figure {n}?",
        "{name} builds towers. The first has {s} blocks and each one after has {k} more. How many "
        "blocks in tower {n}?",
        "A pattern of triangles: step 1 uses {s} sticks and each step adds {k} sticks. How many "
        "sticks in step {n}?",
        "{name} saves {s} dollars in week 1 and the rule is add {k} dollars each week. How much "
        "does {name} save in week {n}?",
        "the rule is add {k} and the first shape has {s} dots how many dots in shape {n}",
    ), name=name, s=s, k=k, n=n)  # fmt: skip
    return text, f"{s} + ({n} - 1) * {k}", str(s + (n - 1) * k)


# --- 4.NBT: multi-digit whole numbers --------------------------------------------------------

_PLACES = (
    (10, "ten"),
    (100, "hundred"),
    (1000, "thousand"),
    (10_000, "ten thousand"),
    (100_000, "hundred thousand"),
)


def _g4nbt1(rng: random.Random) -> Made:
    d = rng.randint(1, 9)
    e = rng.randint(1, 4)
    big, small = d * 10**e, d * 10 ** (e - 1)
    mode = rng.randrange(4)
    if mode == 0:
        return _bare(rng, f"{number_text(big)} ÷ {number_text(small)}"), f"{big} / {small}", "10"
    if mode == 1:
        text = pick(rng, (
            f"How many times greater is the {d} in {number_text(big)} than the {d} in "
            f"{number_text(small)}?",
            f"the {d} in {number_text(big)} is how many times the {d} in {number_text(small)}",
        ))  # fmt: skip
        return text, f"{big} / {small}", "10"
    if mode == 2:
        n = rng.randint(12, 999)
        text = pick(
            rng,
            (
                f"What is 10 times {n}?",
                f"{n} x 10 = ?",
                f"What number is ten times as much as {n}?",
            ),
        )
        return text, f"10 * {n}", number_text(10 * n)
    n = rng.randint(1000, 99_999)
    place = rng.randint(0, len(str(n)) - 1)
    digit = int(str(n)[-1 - place])
    if digit == 0:
        n += 10**place
        digit = int(str(n)[-1 - place])
    text = pick(
        rng,
        (
            f"What is the value of the digit {digit} in {number_text(n)}?",
            f"what is the {digit} worth in {number_text(n)}",
        ),
    )
    return text, f"{digit} * {10**place}", number_text(digit * 10**place)


def _g4nbt2(rng: random.Random) -> Made:
    n = rng.randint(1000, 999_999)
    mode = rng.randrange(3)
    if mode == 0:
        parts = [int(c) * 10**i for i, c in enumerate(reversed(str(n))) if c != "0"][::-1]
        exp = " + ".join(number_text(p) for p in parts)
        text = pick(rng, (f"Write {exp} in standard form.", f"{exp} = ?", f"what number is {exp}"))
        return text, " + ".join(map(str, parts)), number_text(n)
    if mode == 1:
        text = pick(
            rng,
            (
                f"Write the number {_number_words(n)} in digits.",
                f"how do you write {_number_words(n)} as a number",
                f"Write in standard form: {_number_words(n)}.",
            ),
        )
        parts = [int(c) * 10**i for i, c in enumerate(reversed(str(n))) if c != "0"][::-1]
        return text, " + ".join(map(str, parts)), number_text(n)
    s = str(n)
    i = rng.randint(1, len(s) - 1)
    m = int(s[:i] + s[i + 1 :] + s[i]) if s[i] != s[-1] else n + 10 ** rng.randint(0, 2)
    if m == n:
        m = n + 1
    a, b = number_text(n), number_text(m)
    if rng.random() < 0.25:
        return _cmp_text(rng, a, b), f"cmp({n}, {m})", "<" if n < m else ">"
    text = pick(
        rng,
        (
            f"Which is greater, {a} or {b}?",
            f"which number is bigger {a} or {b}",
            f"Compare {a} and {b}. Which is less?",
        ),
    )
    if "less" in text:
        return text, f"min({n}, {m})", number_text(min(n, m))
    return text, f"max({n}, {m})", number_text(max(n, m))


def _g4nbt3(rng: random.Random) -> Made:
    n = rng.randint(1000, 999_999)
    unit, word = pick(rng, [p for p in _PLACES if p[0] < n])
    text = pick(rng, (
        f"Round {number_text(n)} to the nearest {word}.",
        f"What is {number_text(n)} rounded to the nearest {word}?",
        f"round {number_text(n)} to the nearest {word}",
        f"how do you round {number_text(n)} to the {word}s place",
    ))  # fmt: skip
    return text, f"round_to({n}, {unit})", number_text(_round(n, unit))


def _g4nbt3_story(rng: random.Random) -> Made:
    n = rng.randint(1200, 99_999)
    unit, word = pick(rng, [p for p in _PLACES[:4] if p[0] < n])
    name = pick(rng, NAMES)
    text = _say(rng, (
        "A stadium holds {n} people. What is that rounded to the nearest {w}?",
        "{name}'s town has {n} people. About how many people is that, to the nearest {w}?",
        "A car has been driven {n} miles. Round the distance to the nearest {w}.",
        "the school raised {n} dollars, round it to the nearest {w}",
    ), n=number_text(n), w=word, name=name)  # fmt: skip
    return text, f"round_to({n}, {unit})", number_text(_round(n, unit))


def _g4nbt4(rng: random.Random) -> Made:
    a = rng.randint(1000, 99_999)
    b = rng.randint(100, a - 1)
    mode = rng.randrange(3)
    if mode == 0:
        return _bare(rng, f"{number_text(a)} + {number_text(b)}"), f"{a} + {b}", number_text(a + b)
    if mode == 1:
        return _bare(rng, f"{number_text(a)} - {number_text(b)}"), f"{a} - {b}", number_text(a - b)
    return _eq(rng, f"{number_text(b)} + ? = {number_text(a)}"), f"{a} - {b}", number_text(a - b)


def _g4nbt4_story(rng: random.Random) -> Made:
    a, b = rng.randint(1000, 50_000), rng.randint(500, 9_999)
    name = pick(rng, NAMES)
    mode = rng.randrange(3)
    kw = {"a": number_text(a), "b": number_text(b), "s": number_text(a + b), "name": name}
    if mode == 0:
        text = _say(rng, (
            "A town had {a} people. Then {b} more moved in. How many people live there now?",
            "{name} drove {a} miles last year and {b} miles this year. How many miles in all?",
            "A library has {a} books and buys {b} more. How many books does it have?",
        ), **kw)  # fmt: skip
        return text, f"{a} + {b}", number_text(a + b)
    if mode == 1:
        text = _say(rng, (
            "A stadium had {s} fans. {b} left early. How many fans stayed?",
            "A mountain is {s} feet tall. {name} has climbed {b} feet. How many more feet to the "
            "top?",
            "The school had {s} dollars and spent {b}. How much is left?",
        ), **kw)  # fmt: skip
        return text, f"{a + b} - {b}", number_text(a)
    text = _say(rng, (
        "A farm had some chickens. After buying {b} more it has {s}. How many did it have before?",
        "{name} had some points. After winning {b} points, {name} has {s}. How many points did "
        "{name} have at first?",
    ), **kw)  # fmt: skip
    return text, f"{a + b} - {b}", number_text(a)


def _g4nbt5(rng: random.Random) -> Made:
    x = _x(rng)
    if rng.random() < 0.5:
        a, b = rng.randint(100, 9999), rng.randint(2, 9)
    else:
        a, b = rng.randint(11, 99), rng.randint(11, 99)
    return _bare(rng, f"{number_text(a)} {x} {b}"), f"{a} * {b}", number_text(a * b)


def _g4nbt5_story(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    if rng.random() < 0.5:
        a, b = rng.randint(100, 2500), rng.randint(3, 9)
    else:
        a, b = rng.randint(12, 99), rng.randint(12, 60)
    text = _say(rng, (
        "A theater has {b} rows with {a} seats in each row. How many seats in all?",
        "{name} earns {a} dollars a week. How much does {name} earn in {b} weeks?",
        "Each box holds {a} paper clips. How many paper clips are in {b} boxes?",
        "A plane flies {a} miles each trip. How far does it fly in {b} trips?",
        "there are {b} classes with {a} stickers each how many stickers",
    ), name=name, a=number_text(a), b=b)  # fmt: skip
    return text, f"{a} * {b}", number_text(a * b)


def _g4nbt6(rng: random.Random) -> Made:
    b = rng.randint(2, 9)
    n = rng.randint(100, 9999)
    d = _d(rng)
    mode = rng.randrange(3)
    if mode == 0:
        n -= n % b
        return _bare(rng, f"{number_text(n)} {d} {b}"), f"{n} / {b}", number_text(n // b)
    if mode == 1:
        text = pick(
            rng,
            (
                f"What is the quotient of {number_text(n)} {d} {b}? Ignore the remainder.",
                f"{number_text(n)} {d} {b} = ? R ?. What is the quotient?",
                f"find the whole number quotient of {n} divided by {b}",
            ),
        )
        return text, f"{n} // {b}", number_text(n // b)
    text = pick(
        rng,
        (
            f"What is the remainder when {number_text(n)} is divided by {b}?",
            f"{number_text(n)} {d} {b} has what remainder?",
            f"whats the remainder of {n} / {b}",
        ),
    )
    return text, f"{n} % {b}", str(n % b)


def _g4nbt6_story(rng: random.Random) -> Made:
    b = rng.randint(2, 9)
    q = rng.randint(20, 999)
    n = b * q
    name = pick(rng, NAMES)
    text = _say(rng, (
        "{name} has {n} stamps to put equally into {b} albums. How many stamps go in each album?",
        "A farm packs {n} eggs into {b} equal crates. How many eggs per crate?",
        "{n} dollars are split equally among {b} charities. How much does each get?",
        "A {n}-mile trip is driven in {b} equal days. How many miles each day?",
        "{n} books on {b} shelves with the same number on each, how many per shelf",
    ), name=name, n=number_text(n), b=b)  # fmt: skip
    return text, f"{n} / {b}", number_text(q)


# --- 4.NF: fractions with denominators 2, 3, 4, 5, 6, 8, 10, 12, 100 --------------------------

_D4 = (2, 3, 4, 5, 6, 8, 10, 12)


def _proper(rng: random.Random, dens: Sequence[int] = _D4) -> tuple[int, int]:
    b = pick(rng, dens)
    return rng.randint(1, b - 1), b


def _g4nf1(rng: random.Random) -> Made:
    a, b = _proper(rng, (2, 3, 4, 5, 6))
    n = rng.randint(2, 6)
    mode = rng.randrange(4)
    if mode == 0:
        return _eq(rng, f"{a}/{b} = ?/{b * n}"), f"{b * n} * {a}/{b}", str(a * n)
    if mode == 1:
        return _eq(rng, f"{a}/{b} = {a * n}/?"), f"{a * n} / ({a}/{b})", str(b * n)
    if mode == 2:
        text = pick(rng, (
            f"Multiply the numerator and denominator of {a}/{b} by {n}. What fraction do you get?",
            f"what equivalent fraction do you get from {a}/{b} if you times top and bottom by {n}",
        ))  # fmt: skip
        return text, f"({a} * {n})/({b} * {n})", _f(a * n, b * n)
    return _eq(rng, f"{a * n}/{b * n} = ?/{b}"), f"{b} * {a * n}/{b * n}", str(a)


def _g4nf1_story(rng: random.Random) -> Made:
    a, b = _proper(rng, (2, 3, 4, 5, 6))
    n = rng.randint(2, 4)
    name, other = _two(rng)
    food = pick(rng, _FOODS)
    text = _say(rng, (
        "{name} ate {a}/{b} of a {food}. {o} cut the same size {food} into {nb} equal pieces and "
        "ate the same amount. How many pieces did {o} eat?",
        "A {food} is cut into {b} pieces and {name} takes {a}. If each piece is cut into {n} "
        "smaller equal pieces, how many small pieces does {name} have?",
        "{name} colored {a}/{b} of a strip. {o} split each part into {n} and says it's ___/{nb}. "
        "What number goes in the blank?",
        "how many pieces of size 1/{nb} make {a}/{b}",
    ), name=name, o=other, a=a, b=b, n=n, nb=b * n, food=food)  # fmt: skip
    return text, f"{b * n} * {a}/{b}", str(a * n)


def _unlike_pair(rng: random.Random) -> tuple[str, str]:
    while True:
        a1, b1 = _proper(rng)
        a2, b2 = _proper(rng)
        if b1 != b2 and Fraction(a1, b1) != Fraction(a2, b2):
            return _f(a1, b1), _f(a2, b2)


def _g4nf2(rng: random.Random) -> Made:
    f1, f2 = _unlike_pair(rng)
    v1, v2 = Fraction(f1), Fraction(f2)
    mode = rng.randrange(5)
    if mode == 0:
        return (
            _cmp_text(rng, f1, f2),
            f"cmp({f1}, {f2})",
            "<" if v1 < v2 else ">",
        )
    if mode in (1, 2):
        text = pick(
            rng,
            (
                f"Which is greater, {f1} or {f2}?",
                f"which fraction is bigger {f1} or {f2}",
                f"Use a common denominator to find the larger of {f1} and {f2}.",
            ),
        )
        return text, f"max({f1}, {f2})", f1 if v1 > v2 else f2
    text = pick(
        rng,
        (
            f"Which is less, {f1} or {f2}?",
            f"Compare to 1/2 to find the smaller of {f1} and {f2}.",
            f"which is smaller {f1} or {f2}",
        ),
    )
    return text, f"min({f1}, {f2})", f1 if v1 < v2 else f2


def _g4nf2_story(rng: random.Random) -> Made:
    f1, f2 = _unlike_pair(rng)
    name, other = _two(rng)
    big = f1 if Fraction(f1) > Fraction(f2) else f2
    text = _say(rng, (
        "{name} walked {f1} of a mile and {o} walked {f2} of a mile. How far did the one who "
        "walked farther go?",
        "{name} ate {f1} of a pizza and {o} ate {f2} of the same size pizza. What is the larger "
        "amount?",
        "{name}'s glass is {f1} full and {o}'s same glass is {f2} full. Which is more full? Give "
        "the fraction.",
        "one plant grew {f1} inch and another grew {f2} inch which grew more and how much was it",
    ), name=name, o=other, f1=f1, f2=f2)  # fmt: skip
    return text, f"max({f1}, {f2})", big


def _g4nf3(rng: random.Random) -> Made:
    b = pick(rng, _D4)
    a = rng.randint(2, b + 3)
    if rng.random() < 0.5:
        text = pick(
            rng,
            (
                f"{a}/{b} is the sum of how many 1/{b}s?",
                f"how many 1/{b} do you add to get {a}/{b}",
                f"Write {a}/{b} as a sum of 1/{b}s. How many are there?",
            ),
        )
        return text, f"({a}/{b}) / (1/{b})", str(a)
    adds = " + ".join([f"1/{b}"] * a)
    return _bare(rng, adds), adds, _f(a, b)


def _g4nf3a(rng: random.Random) -> Made:
    b = pick(rng, _D4)
    a1, a2 = rng.randint(1, b - 1), rng.randint(1, b - 1)
    if rng.random() < 0.5 and a1 + a2 <= b:
        return _bare(rng, f"{a1}/{b} + {a2}/{b}"), f"{a1}/{b} + {a2}/{b}", _f(a1 + a2, b)
    hi, lo = max(a1, a2), min(a1, a2)
    if hi == lo:
        hi = b
    if rng.random() < 0.5:
        return _bare(rng, f"{hi}/{b} - {lo}/{b}"), f"{hi}/{b} - {lo}/{b}", _f(hi - lo, b)
    text = pick(rng, (
        f"Join {lo} parts of 1/{b} and {hi - lo} parts of 1/{b} of the same whole. What fraction "
        "is that?",
        f"take {lo}/{b} away from {hi}/{b} of the same whole, what is left",
    ))  # fmt: skip
    if "away" in text:
        return text, f"{hi}/{b} - {lo}/{b}", _f(hi - lo, b)
    return text, f"{lo}/{b} + {hi - lo}/{b}", _f(hi, b)


def _g4nf3b(rng: random.Random) -> Made:
    b = pick(rng, (3, 4, 5, 6, 8, 10))
    a = rng.randint(2, b - 1)
    p = rng.randint(1, a - 1)
    mode = rng.randrange(3)
    if mode == 0:
        return _eq(rng, f"{a}/{b} = {p}/{b} + ?/{b}"), f"{a} - {p}", str(a - p)
    if mode == 1:
        q = pick(rng, (1, p))
        text = pick(
            rng, (f"{a}/{b} = {q}/{b} + ?", f"Decompose {a}/{b} into a sum: {a}/{b} = {q}/{b} + ?")
        )
        return _eq(rng, text), f"{a}/{b} - {q}/{b}", _f(a - q, b)
    w = rng.randint(1, 3)
    ones = " + ".join(["1"] * w)
    return _eq(rng, f"{w} {p}/{b} = {ones} + ?"), f"({w} + {p}/{b}) - {w}", _f(p, b)


def _mixed(w: int, n: int, b: int) -> str:
    return f"{w} {n}/{b}" if n else str(w)


def _g4nf3c(rng: random.Random) -> Made:
    b = pick(rng, (2, 3, 4, 5, 6, 8, 10, 12))
    w1, w2 = rng.randint(1, 9), rng.randint(1, 6)
    n1, n2 = rng.randint(1, b - 1), rng.randint(1, b - 1)
    v1, v2 = w1 + Fraction(n1, b), w2 + Fraction(n2, b)
    m1, m2 = _mixed(w1, n1, b), _mixed(w2, n2, b)
    e1, e2 = f"({w1} + {n1}/{b})", f"({w2} + {n2}/{b})"
    if rng.random() < 0.5:
        return _bare(rng, f"{m1} + {m2}"), f"{e1} + {e2}", fraction_text(v1 + v2, mixed=True)
    if v1 < v2:
        m1, m2, e1, e2, v1, v2 = m2, m1, e2, e1, v2, v1
    if v1 == v2:
        return _bare(rng, f"{m1} + {m2}"), f"{e1} + {e2}", fraction_text(v1 + v2, mixed=True)
    return _bare(rng, f"{m1} - {m2}"), f"{e1} - {e2}", fraction_text(v1 - v2, mixed=True)


def _g4nf3d(rng: random.Random) -> Made:
    b = pick(rng, (3, 4, 5, 6, 8, 10, 12))
    a1, a2 = rng.randint(1, b - 1), rng.randint(1, b - 1)
    name, other = _two(rng)
    kw = {"name": name, "o": other, "b": b, "a1": a1, "a2": a2}
    mode = rng.randrange(3)
    if mode == 0:
        text = _say(rng, (
            "{name} ran {a1}/{b} of a mile in the morning and {a2}/{b} of a mile after school. How "
            "far did {name} run in all?",
            "{name} ate {a1}/{b} of a pizza and {o} ate {a2}/{b} of the same pizza. How much of "
            "the pizza did they eat together?",
            "A plant grew {a1}/{b} inch one week and {a2}/{b} inch the next. How much did it grow?",
            "{name} painted {a1}/{b} of a fence and {o} painted {a2}/{b} of it. what fraction of "
            "the fence is painted",
        ), **kw)  # fmt: skip
        return text, f"{a1}/{b} + {a2}/{b}", fraction_text(Fraction(a1 + a2, b), mixed=True)
    hi, lo = max(a1, a2), min(a1, a2)
    if hi == lo:
        hi = b
    kw.update(hi=hi, lo=lo)
    if mode == 1:
        text = _say(rng, (
            "{name} had {hi}/{b} of a cake and gave {lo}/{b} of the cake to {o}. How much cake "
            "does {name} have left?",
            "A jug was {hi}/{b} full. {name} poured out {lo}/{b} of the jug. How full is it now?",
            "{name} has a ribbon {hi}/{b} yard long and cuts off {lo}/{b} yard. How long is the "
            "ribbon now?",
            "how much farther is {hi}/{b} mile than {lo}/{b} mile",
        ), **kw)  # fmt: skip
        return text, f"{hi}/{b} - {lo}/{b}", _f(hi - lo, b)
    w1, w2 = rng.randint(2, 6), rng.randint(1, 4)
    kw.update(w1=w1, w2=w2)
    text = _say(rng, (
        "{name} has a board {w1} {a1}/{b} feet long and another {w2} {a2}/{b} feet long. How long "
        "are they end to end?",
        "{name} hiked {w1} {a1}/{b} miles on Saturday and {w2} {a2}/{b} miles on Sunday. How many "
        "miles in all?",
        "A recipe uses {w1} {a1}/{b} cups of flour and {w2} {a2}/{b} cups of sugar. How many cups "
        "is that?",
    ), **kw)  # fmt: skip
    v = w1 + w2 + Fraction(a1 + a2, b)
    return text, f"({w1} + {a1}/{b}) + ({w2} + {a2}/{b})", fraction_text(v, mixed=True)


def _g4nf4a(rng: random.Random) -> Made:
    b = pick(rng, _D4)
    a = rng.randint(2, 2 * b)
    x = _x(rng)
    mode = rng.randrange(3)
    if mode == 0:
        return _eq(rng, f"{a}/{b} = {a} {x} ?"), f"({a}/{b}) / {a}", _f(1, b)
    if mode == 1:
        return _bare(rng, f"{a} {x} 1/{b}"), f"{a} * (1/{b})", _f(a, b)
    return _eq(rng, f"{a}/{b} = ? {x} (1/{b})"), f"({a}/{b}) / (1/{b})", str(a)


def _g4nf4b(rng: random.Random) -> Made:
    a, b = _proper(rng)
    n = rng.randint(2, 9)
    x = _x(rng)
    if rng.random() < 0.6:
        v = n * Fraction(a, b)
        ans = _f(n * a, b) if rng.random() < 0.5 else fraction_text(v, mixed=True)
        return (
            _bare(rng, pick(rng, (f"{n} {x} {a}/{b}", f"{n} {x} ({a}/{b})"))),
            f"{n} * ({a}/{b})",
            ans,
        )
    return _eq(rng, f"{n} {x} {a}/{b} = ? {x} 1/{b}"), f"({n} * {a}/{b}) / (1/{b})", str(n * a)


def _g4nf4c(rng: random.Random) -> Made:
    a, b = _proper(rng, (2, 3, 4, 5, 6, 8, 10))
    n = rng.randint(2, 9)
    name = pick(rng, NAMES)
    text = _say(rng, (
        "Each person at a party eats {a}/{b} of a pound of roast beef. There are {n} people. How "
        "many pounds are needed?",
        "{name} runs {a}/{b} of a mile every day for {n} days. How far does {name} run?",
        "A recipe needs {a}/{b} cup of milk. {name} makes {n} batches. How many cups of milk?",
        "Each of {n} ribbons is {a}/{b} yard long. How many yards of ribbon in all?",
        "{n} kids each drink {a}/{b} liter of juice how much juice is that",
        "Write an equation: {n} bags each weigh {a}/{b} kg. What is the total mass?",
    ), a=a, b=b, n=n, name=name)  # fmt: skip
    return text, f"{n} * {a}/{b}", fraction_text(n * Fraction(a, b), mixed=True)


def _g4nf5(rng: random.Random) -> Made:
    t, h = rng.randint(1, 9), rng.randint(1, 99)
    if rng.random() < 0.3:
        return _eq(rng, f"{t}/10 = ?/100"), f"{t}/10 * 100", str(10 * t)
    v = Fraction(t, 10) + Fraction(h, 100)
    e = pick(rng, (f"{t}/10 + {h}/100", f"{h}/100 + {t}/10"))
    if rng.random() < 0.5:
        return _bare(rng, e), f"{t}/10 + {h}/100", _f(10 * t + h, 100)
    return _eq(rng, f"{e} = ?/100"), f"({t}/10 + {h}/100) * 100", str(int(v * 100))


def _g4nf5_story(rng: random.Random) -> Made:
    t, h = rng.randint(1, 8), rng.randint(1, 19)
    name = pick(rng, NAMES)
    text = _say(rng, (
        "{name} has {t} dimes ({t}/10 of a dollar) and {h} pennies ({h}/100 of a dollar). What "
        "fraction of a dollar is that, in hundredths?",
        "{name} walked {t}/10 of a kilometer and then {h}/100 of a kilometer. How far in all? "
        "Write the answer in hundredths.",
        "A tank is {t}/10 full. {name} adds {h}/100 of a tank. How full is it now, as a fraction "
        "out of 100?",
        "i have {t}/10 plus {h}/100 how many hundredths is that",
    ), name=name, t=t, h=h)  # fmt: skip
    return text, f"({t}/10 + {h}/100) * 100", str(10 * t + h)


def _g4nf6(rng: random.Random) -> Made:
    n = rng.randint(1, 99) if rng.random() < 0.6 else rng.randint(1, 9) * 10
    den = pick(rng, (10, 100)) if n % 10 == 0 else 100
    num = n // 10 if den == 10 else n
    d = _dec(Fraction(num, den))
    mode = rng.randrange(3)
    if mode == 0:
        text = pick(
            rng,
            (
                f"Write {num}/{den} as a decimal.",
                f"what is {num}/{den} as a decimal",
                f"{num}/{den} = ? (decimal)",
            ),
        )
        return text, f"{num}/{den}", d
    if mode == 1:
        text = pick(
            rng,
            (
                f"Write {_dec(Fraction(n, 100))} as a fraction with denominator 100.",
                f"how do you write {_dec(Fraction(n, 100))} as a fraction over 100",
            ),
        )
        return text, f"{_dec(Fraction(n, 100))}", _f(n, 100)
    text = pick(
        rng,
        (
            f"A ribbon is {n}/100 of a meter long. Write the length in meters as a decimal.",
            f"{pick(rng, NAMES)} ran {num}/{den} of a mile. Write it as a decimal.",
        ),
    )
    if "ribbon" in text:
        return text, f"{n}/100", _dec(Fraction(n, 100))
    return text, f"{num}/{den}", d


def _g4nf7(rng: random.Random) -> Made:
    while True:
        x1, x2 = rng.randint(1, 99), rng.randint(1, 99)
        if rng.random() < 0.4:
            x1 = (x1 // 10) * 10 or 10
        if x1 != x2:
            break
    w = rng.randint(0, 5)
    d1, d2 = _dec(w + Fraction(x1, 100)), _dec(w + Fraction(x2, 100))
    if "." not in d1:
        d1 += ".0"
    mode = rng.randrange(5)
    if mode == 0:
        return (
            _cmp_text(rng, d1, d2),
            f"cmp({d1}, {d2})",
            "<" if x1 < x2 else ">",
        )
    if mode in (1, 2):
        text = pick(
            rng,
            (
                f"Which is greater, {d1} or {d2}?",
                f"which is bigger {d1} or {d2}",
                f"Circle the larger decimal: {d1}, {d2}.",
            ),
        )
        return text, f"max({d1}, {d2})", d1 if x1 > x2 else d2
    text = pick(
        rng,
        (
            f"Which is less, {d1} or {d2}?",
            f"which decimal is smaller {d1} or {d2}",
            f"Compare {d1} and {d2}. Which is smaller?",
        ),
    )
    return text, f"min({d1}, {d2})", d1 if x1 < x2 else d2


def _g4nf7_story(rng: random.Random) -> Made:
    x1, x2 = rng.sample(range(5, 99), 2)
    w = rng.randint(0, 3)
    d1, d2 = _dec(w + Fraction(x1, 100)), _dec(w + Fraction(x2, 100))
    name, other = _two(rng)
    text = _say(rng, (
        "{name} jumped {d1} meters and {o} jumped {d2} meters. How far was the longer jump?",
        "{name}'s bottle has {d1} liters and {o}'s has {d2} liters. Which holds more? Give the "
        "amount.",
        "{name} spent {d1} dollars and {o} spent {d2} dollars. What is the larger amount?",
        "one snail went {d1} m and the other went {d2} m, how far did the faster one go",
    ), name=name, o=other, d1=d1, d2=d2)  # fmt: skip
    return text, f"max({d1}, {d2})", d1 if x1 > x2 else d2


# --- 4.MD: conversions, measurement problems, area and perimeter, line plots, angles ---------

_CONV = (
    ("km", "m", 1000), ("m", "cm", 100), ("kg", "g", 1000), ("lb", "oz", 16), ("L", "mL", 1000),
    ("hr", "min", 60), ("min", "sec", 60), ("ft", "in", 12), ("yd", "ft", 3), ("yd", "in", 36),
    ("day", "hr", 24), ("week", "day", 7),
)  # fmt: skip


_LONG = {
    "km": "kilometers", "m": "meters", "cm": "centimeters", "kg": "kilograms", "g": "grams",
    "lb": "pounds", "oz": "ounces", "L": "liters", "mL": "milliliters", "hr": "hours",
    "min": "minutes", "sec": "seconds", "ft": "feet", "in": "inches", "yd": "yards",
    "day": "days", "week": "weeks",
}  # fmt: skip


def _g4md1(rng: random.Random) -> Made:
    ab_big, ab_small, k = pick(rng, _CONV)
    big, small = ab_big, ab_small
    if rng.random() < 0.5:
        big, small = _LONG[big], _LONG[small]
    elif big in ("day", "week"):
        big = big + "s"
    n = rng.randint(2, 12)
    mode = rng.randrange(4)
    if mode == 0:
        text = pick(rng, (
            f"{n} {big} = ? {small}",
            f"How many {small} are in {n} {big}?",
            f"convert {n} {big} to {small}",
            f"Express {n} {big} in {_LONG[ab_small]}.",
            f"a snake is {n} {big} long, how long is it in {_LONG[ab_small]}",
        ))  # fmt: skip
        if "snake" in text and ab_big not in ("ft", "yd", "m"):
            text = f"How many {_LONG[ab_small]} are in {n} {_LONG[ab_big]}?"
        return text, f"{n} * {k}", number_text(n * k)
    if mode == 1:
        r = rng.randint(1, k - 1)
        text = pick(rng, (
            f"{n} {big} {r} {small} = ? {small}",
            f"how many {small} is {n} {big} and {r} {small}",
        ))  # fmt: skip
        return text, f"{n} * {k} + {r}", number_text(n * k + r)
    if mode == 2:
        rows = ", ".join(f"({i}, {i * k})" for i in range(1, 4))
        text = pick(rng, (
            f"A conversion table for {_LONG[ab_big]} and {_LONG[ab_small]} lists {rows}, ... "
            f"What goes next to {n}?",
            f"finish the table {big} to {small}: {rows} ... what is the pair for {n}",
        ))  # fmt: skip
        return text, f"{n} * {k}", number_text(n * k)
    one = {"ft": "foot", "in": "inch", "yd": "yard", "km": "kilometer", "m": "meter"}
    if (ab_big in one and ab_small in one) or ab_small == "cm":
        text = f"1 {one[ab_big]} is how many times as long as 1 {one.get(ab_small, 'centimeter')}?"
    else:
        text = pick(
            rng, (f"How many {_LONG[ab_small]} make 1 {ab_big}?", f"1 {ab_big} = ? {ab_small}")
        )
    return text, str(k), number_text(k)


def _g4md2(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    mode = rng.randrange(6)
    if mode == 0:
        km, m = rng.randint(1, 5), rng.randint(100, 900)
        text = _say(rng, (
            "{name} ran {km} km and then {m} m more. How many meters did {name} run?",
            "A trail is {km} km long. {name} has walked {m} m. How many meters are left?",
        ), name=name, km=km, m=m)  # fmt: skip
        if "left" in text:
            return text, f"{km} * 1000 - {m}", number_text(km * 1000 - m)
        return text, f"{km} * 1000 + {m}", number_text(km * 1000 + m)
    if mode == 1:
        h, a, b = rng.randint(2, 4), rng.randint(10, 50), rng.randint(5, 40)
        text = _say(rng, (
            "A movie is {h} hours and {a} minutes long. How many minutes is that?",
            "{name} practiced for {h} hours on Saturday and {b} minutes on Sunday. How many "
            "minutes in all?",
            "a trip takes {h} hours and {a} minutes, how many minutes",
        ), name=name, h=h, a=a, b=b)  # fmt: skip
        if "Sunday" in text:
            return text, f"{h} * 60 + {b}", str(h * 60 + b)
        return text, f"{h} * 60 + {a}", str(h * 60 + a)
    if mode == 2:
        liters, cups = rng.randint(2, 6), pick(rng, (200, 250, 500))
        text = _say(rng, (
            "{name} has {L} liters of juice and pours glasses of {c} mL each. How many glasses can "
            "{name} fill?",
            "A pot holds {L} L. How many {c} mL cups does it take to fill it?",
        ), name=name, L=liters, c=cups)  # fmt: skip
        return text, f"{liters} * 1000 / {cups}", str(liters * 1000 // cups)
    if mode == 3:
        kg, g = rng.randint(1, 4), rng.randint(100, 900)
        n = rng.randint(2, 5)
        text = _say(rng, (
            "A bag of rice has a mass of {kg} kg. {name} uses {g} g. How many grams are left?",
            "{name} buys {n} melons of {g} g each. What is their total mass in grams?",
        ), name=name, kg=kg, g=g, n=n)  # fmt: skip
        if "melons" in text:
            return text, f"{n} * {g}", number_text(n * g)
        return text, f"{kg} * 1000 - {g}", number_text(kg * 1000 - g)
    if mode == 4:
        price, n = rng.randint(25, 350), rng.randint(2, 6)
        paid = -(-(price * n) // 100) * 100 + pick(rng, (0, 100, 500))
        d = _dec(Fraction(price, 100))
        text = _say(rng, (
            "{name} buys {n} notebooks at ${d} each and pays with ${p}. How much change, in cents?",
            "Pens cost ${d} each. {name} buys {n} pens and pays ${p}. How many cents of change?",
        ), name=name, n=n, d=d, p=_dec(Fraction(paid, 100)))  # fmt: skip
        return text, f"{paid} - {n} * {price}", number_text(paid - n * price)
    a, b = rng.randint(1, 7), pick(rng, (2, 4))
    n = rng.randint(2, 6)
    text = _say(rng, (
        "{name} walks {a}/{b} mile to school and the same back, {n} days a week. How many miles is "
        "that?",
        "Each of {n} pitchers holds 1/{b} gallon more than {a} gallons. How many gallons do they "
        "hold in all?",
    ), name=name, a=a, b=b, n=n)  # fmt: skip
    if "pitchers" in text:
        return text, f"{n} * ({a} + 1/{b})", fraction_text(n * (a + Fraction(1, b)), mixed=True)
    return text, f"2 * {n} * {a}/{b}", fraction_text(2 * n * Fraction(a, b), mixed=True)


def _g4md3(rng: random.Random) -> Made:
    ln, w = rng.randint(3, 40), rng.randint(2, 25)
    unit = pick(rng, ("m", "ft", "cm", "in", "yd"))
    mode = rng.randrange(4)
    if mode == 0:
        text = pick(
            rng,
            (
                f"Find the area of a rectangle {ln} {unit} by {w} {unit}.",
                f"area of rectangle length {ln} width {w} = ?",
                f"A = l × w. What is A when l = {ln} {unit} and w = {w} {unit}?",
            ),
        )
        return text, f"{ln} * {w}", number_text(ln * w)
    if mode == 1:
        text = pick(
            rng,
            (
                f"Find the perimeter of a rectangle {ln} {unit} by {w} {unit}.",
                f"P = 2l + 2w. l = {ln}, w = {w}. P = ?",
                f"perimeter of a rectangle {ln} by {w}",
            ),
        )
        return text, f"2 * {ln} + 2 * {w}", str(2 * ln + 2 * w)
    if mode == 2:
        text = pick(
            rng,
            (
                f"A rectangle has an area of {ln * w} square {unit} and a length of {ln} {unit}. "
                "What is its width?",
                f"area {ln * w}, length {ln}, what is the width of the rectangle",
            ),
        )
        return text, f"{ln * w} / {ln}", str(w)
    text = pick(
        rng,
        (
            f"A rectangle has a perimeter of {2 * (ln + w)} {unit}. Its length is {ln} {unit}. "
            "What "
            "is its width?",
            f"perimeter {2 * (ln + w)} and one side {ln}, find the other side",
        ),
    )
    return text, f"{2 * (ln + w)} / 2 - {ln}", str(w)


def _g4md3_story(rng: random.Random) -> Made:
    ln, w = rng.randint(6, 30), rng.randint(4, 20)
    name = pick(rng, NAMES)
    mode = rng.randrange(3)
    if mode == 0:
        text = _say(rng, (
            "The flooring for a rectangular room covers {A} square feet. The room is {ln} feet "
            "long. How wide is the room?",
            "{name}'s garden has an area of {A} square meters and a length of {ln} meters. What is "
            "its width?",
            "a poster is {A} square inches and {ln} inches long how wide is it",
        ), A=ln * w, ln=ln, name=name)  # fmt: skip
        return text, f"{ln * w} / {ln}", str(w)
    if mode == 1:
        text = _say(rng, (
            "{name} needs {P} feet of fence for a rectangular yard that is {ln} feet long. How "
            "wide "
            "is the yard?",
            "A rectangular field has a perimeter of {P} m. It is {ln} m long. How wide is it?",
        ), P=2 * (ln + w), ln=ln, name=name)  # fmt: skip
        return text, f"({2 * (ln + w)} - 2 * {ln}) / 2", str(w)
    text = _say(rng, (
        "{name} is carpeting a room {ln} ft by {w} ft. How many square feet of carpet are needed?",
        "A rectangular pool is {ln} m long and {w} m wide. What is the area of its surface?",
        "How many square yards of grass does a lawn {ln} yd by {w} yd need?",
    ), ln=ln, w=w, name=name)  # fmt: skip
    return text, f"{ln} * {w}", str(ln * w)


_EIGHTHS = tuple(Fraction(i, 8) for i in range(8))


def _g4md4(rng: random.Random) -> Made:
    base = rng.randint(1, 5)
    values = sorted({base + pick(rng, _EIGHTHS) for _ in range(rng.randint(6, 9))})
    while len(values) < 3:
        values = sorted(set(values) | {base + pick(rng, _EIGHTHS)})
    thing = pick(rng, ("insects", "leaves", "seeds", "ribbons", "worms", "crayons"))
    data = ", ".join(fraction_text(v, mixed=True) for v in values)
    lead = f"A line plot shows the lengths of {thing} in inches: {data}. "
    hi, lo = values[-1], values[0]
    eh = f"({hi.numerator}/{hi.denominator})"
    el = f"({lo.numerator}/{lo.denominator})"
    mode = rng.randrange(3)
    if mode == 0:
        q = pick(
            rng,
            (
                "What is the difference between the longest and the shortest?",
                "how much longer is the longest than the shortest",
            ),
        )
        return _voice(rng, lead + q), f"{eh} - {el}", fraction_text(hi - lo, mixed=True)
    if mode == 1:
        q = pick(
            rng,
            (
                "What is the total length of the longest and shortest together?",
                "If the two longest are put end to end, how long are they?",
            ),
        )
        if "two longest" in q:
            mid = values[-2]
            return (
                _voice(rng, lead + q),
                f"{eh} + ({mid.numerator}/{mid.denominator})",
                fraction_text(hi + mid, mixed=True),
            )
        return _voice(rng, lead + q), f"{eh} + {el}", fraction_text(hi + lo, mixed=True)
    total = sum(values, Fraction(0))
    q = "What is the total length of all of them?"
    return (
        _voice(rng, lead + q),
        " + ".join(f"({v.numerator}/{v.denominator})" for v in values),
        fraction_text(total, mixed=True),
    )


def _g4md5a(rng: random.Random) -> Made:
    mode = rng.randrange(3)
    if mode == 0:
        d = pick(rng, (2, 3, 4, 5, 6, 8, 9, 10, 12, 36))
        n = rng.randint(1, d - 1)
        text = pick(rng, (
            f"An angle turns through {n}/{d} of a circle. How many degrees is it?",
            f"how many degrees is {n}/{d} of a full turn",
            f"A circle is 360 degrees. What angle turns through {n}/{d} of it?",
        ))  # fmt: skip
        return text, f"360 * {n}/{d}", str(360 * n // d)
    if mode == 1:
        m = rng.randint(1, 11) * 5
        text = pick(rng, (
            f"The minute hand of a clock moves for {m} minutes. Through how many degrees does it "
            "turn?",
            f"how many degrees does the minute hand turn in {m} minutes",
        ))  # fmt: skip
        return text, f"360 * {m}/60", str(360 * m // 60)
    deg = pick(rng, (30, 45, 60, 90, 120, 180, 270, 10, 20, 40))
    text = pick(
        rng,
        (
            f"What fraction of a full circle does a {deg}° angle turn through?",
            f"a {deg} degree angle is what fraction of a circle",
        ),
    )
    return text, f"{deg}/360", _f(Fraction(deg, 360).numerator, Fraction(deg, 360).denominator)


def _g4md5b(rng: random.Random) -> Made:
    a, b = rng.randint(10, 90), rng.randint(5, 80)
    text = pick(rng, (
        f"An angle turns through {a} one-degree angles and then {b} more. What is its measure in "
        "degrees?",
        f"how many degrees is an angle made of {a} one-degree angles plus {b} one-degree angles",
        f"An angle is made of {a + b} one-degree angles. What is its measure?",
        f"{pick(rng, NAMES)} turns a dial {a} one-degree clicks, then {b} more. How many degrees "
        "did it turn?",
        f"A fan blade turns through {a + b} one-degree angles. How many degrees did it turn?",
    ))  # fmt: skip
    if f"{a + b} one" in text:
        return text, f"{a + b} * 1", str(a + b)
    return text, f"{a} + {b}", str(a + b)


def _g4md6(rng: random.Random) -> Made:
    mode = rng.randrange(3)
    if mode == 0:
        a = rng.randint(0, 12) * 10
        b = a + rng.randint(15, 180 - a) if a < 165 else 180
        text = pick(rng, (
            f"On a protractor, one ray of an angle passes through {a} and the other through {b} on "
            "the same scale. What is the angle's measure?",
            f"the protractor shows one side at {a} and the other at {b}, how big is the angle",
        ))  # fmt: skip
        return text, f"{b} - {a}", str(b - a)
    if mode == 1:
        o = rng.randint(10, 170)
        text = pick(rng, (
            f"A ray crosses {o} on the outer scale of a protractor. What number does it cross on "
            "the inner scale?",
            f"outer scale says {o}, what does the inner scale say",
        ))  # fmt: skip
        return text, f"180 - {o}", str(180 - o)
    deg = rng.randint(10, 170)
    text = pick(rng, (
        f"You sketch a {deg}° angle with one ray on 0 of the protractor. At what mark should the "
        "other ray be?",
        f"to draw a {deg} degree angle starting at 0, where does the second ray go on the "
        "protractor",
    ))  # fmt: skip
    return text, f"0 + {deg}", str(deg)


def _g4md7(rng: random.Random) -> Made:
    whole = pick(rng, (90, 180, 360, rng.randint(60, 170)))
    part = rng.randint(10, whole - 10)
    mode = rng.randrange(3)
    name = {90: "a right angle", 180: "a straight angle", 360: "a full turn"}.get(
        whole, f"a {whole}° angle"
    )
    if mode == 0:
        text = pick(rng, (
            f"{name[0].upper() + name[1:]} is split into two angles. One is {part}°. What is the "
            "other?",
            f"angle ABC is {whole} degrees and is made of two parts. one part is {part}. what is "
            "the other part",
            f"Write an equation: {part} + x = {whole}. Find the unknown angle x.",
        ))  # fmt: skip
        return text, f"{whole} - {part}", str(whole - part)
    if mode == 1:
        a, b = rng.randint(15, 80), rng.randint(15, 80)
        text = pick(rng, (
            f"Angle ABD is {a}° and angle DBC is {b}°. They do not overlap. What is angle ABC?",
            f"two angles side by side are {a} degrees and {b} degrees what is the whole angle",
        ))  # fmt: skip
        return text, f"{a} + {b}", str(a + b)
    a = rng.randint(10, 60)
    b = rng.randint(10, 170 - a)
    text = pick(rng, (
        f"A straight angle is split into three angles. Two of them are {a}° and {b}°. What is the "
        "third?",
        f"three angles make a straight line, two are {a} and {b}, find the missing one",
    ))  # fmt: skip
    return text, f"180 - {a} - {b}", str(180 - a - b)


def _g4md7_story(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    a = rng.randint(15, 75)
    mode = rng.randrange(3)
    if mode == 0:
        text = _say(rng, (
            "{name} cuts a slice from the corner of a square sheet. The corner is a right angle "
            "and the cut makes a {a}° angle. What is the other angle at the corner?",
            "A door opens to make a right angle with the wall. {name} closes it {a} degrees. What "
            "angle does the door make with the wall now?",
        ), name=name, a=a)  # fmt: skip
        return text, f"90 - {a}", str(90 - a)
    if mode == 1:
        b = rng.randint(15, 75)
        text = _say(rng, (
            "A skateboarder turns {a} degrees and then {b} degrees more. How many degrees did she "
            "turn in all?",
            "{name} turns a dial {a}° and then another {b}°. What is the total turn?",
        ), name=name, a=a, b=b)  # fmt: skip
        return text, f"{a} + {b}", str(a + b)
    text = _say(rng, (
        "A pizza is cut so one slice has a {a}° angle at the center. What is the angle of the rest "
        "of the pizza?",
        "{name} spins {a} degrees. How many more degrees to make a full turn?",
    ), name=name, a=a)  # fmt: skip
    return text, f"360 - {a}", str(360 - a)


# --- 4.G: lines, angles, symmetry -------------------------------------------------------------


def _g4g1(rng: random.Random) -> Made:
    angles = [
        pick(rng, (rng.randint(10, 89), 90, rng.randint(91, 170))) for _ in range(rng.randint(5, 7))
    ]
    listed = ", ".join(f"{a}°" for a in angles)
    kind = pick(rng, ("acute", "right", "obtuse"))
    count = sum(
        1 for a in angles if (a < 90 if kind == "acute" else a == 90 if kind == "right" else a > 90)
    )
    text = pick(rng, (
        f"How many of these angles are {kind}: {listed}?",
        f"count the {kind} angles {listed}",
        f"Sort the angles {listed}. How many are {kind}?",
    ))  # fmt: skip
    return text, _ones(count), str(count)


_SHAPES_4G = {
    "square": (2, 4),
    "rectangle": (2, 4),
    "trapezoid": (1, 0),
    "rhombus": (2, 0),
    "parallelogram": (2, 0),
    "right triangle": (0, 1),
    "equilateral triangle": (0, 0),
    "regular hexagon": (3, 0),
    "kite": (0, 0),
}


def _g4g2(rng: random.Random) -> Made:
    shapes = rng.sample(sorted(_SHAPES_4G), rng.randint(4, 6))
    listed = ", ".join(shapes)
    mode = rng.randrange(3)
    if mode == 0:
        n = sum(1 for s in shapes if _SHAPES_4G[s][0] > 0)
        text = pick(
            rng,
            (
                f"How many of these shapes have at least one pair of parallel sides: {listed}?",
                f"which shapes have parallel sides? {listed} how many",
            ),
        )
        return text, _ones(n), str(n)
    if mode == 1:
        n = sum(1 for s in shapes if _SHAPES_4G[s][1] > 0)
        text = pick(
            rng,
            (
                f"How many of these shapes have a right angle: {listed}?",
                f"count the shapes with right angles {listed}",
            ),
        )
        return text, _ones(n), str(n)
    total = sum(_SHAPES_4G[s][1] for s in shapes)
    text = pick(
        rng,
        (
            f"How many right angles are there in all in these shapes: {listed}?",
            f"add up the right angles in {listed}",
        ),
    )
    return text, " + ".join(str(_SHAPES_4G[s][1]) for s in shapes), str(total)


_SYMMETRY = {
    "square": 4, "rectangle": 2, "equilateral triangle": 3, "isosceles triangle": 1,
    "regular pentagon": 5, "regular hexagon": 6, "rhombus": 2, "regular octagon": 8,
    "letter H": 2, "letter A": 1, "letter M": 1, "letter X": 2, "heart": 1, "letter F": 0,
}  # fmt: skip


def _g4g3(rng: random.Random) -> Made:
    if rng.random() < 0.5:
        shape = pick(rng, sorted(_SYMMETRY))
        text = pick(
            rng,
            (
                f"How many lines of symmetry does {_an(shape)} have?",
                f"how many lines of symmetry in {_an(shape)}",
                f"Draw all the lines of symmetry of {_an(shape)}. How many are there?",
            ),
        )
        return text, str(_SYMMETRY[shape]), str(_SYMMETRY[shape])
    a, b = rng.sample(sorted(_SYMMETRY), 2)
    text = pick(
        rng,
        (
            f"How many lines of symmetry do {_an(a)} and {_an(b)} have altogether?",
            f"add the lines of symmetry of {_an(a)} and {_an(b)}",
        ),
    )
    return text, f"{_SYMMETRY[a]} + {_SYMMETRY[b]}", str(_SYMMETRY[a] + _SYMMETRY[b])


# --- the table ---------------------------------------------------------------------------------

_TABLE: tuple[tuple[str, Kind, Callable[[random.Random], Made]], ...] = (
    ("3.OA.A.1/equal-groups-meaning", "word", _g3oa1_story),
    ("3.OA.A.1/product-meaning", "bare", _g3oa1_bare),
    ("3.OA.A.2/quotient-meaning", "word", _g3oa2_story),
    ("3.OA.A.3/equal-groups-story", "word", _g3oa3_groups),
    ("3.OA.A.3/array-story", "word", _g3oa3_array),
    ("3.OA.A.3/measurement-story", "word", _g3oa3_measure),
    ("3.OA.A.4/unknown-number", "bare", _g3oa4),
    ("3.OA.B.5/properties", "bare", _g3oa5),
    ("3.OA.B.6/unknown-factor", "bare", _g3oa6),
    ("3.OA.C.7/facts", "bare", _g3oa7),
    ("3.OA.D.8/two-step-story", "word", _g3oa8_story),
    ("3.OA.D.8/two-step-equation", "bare", _g3oa8_bare),
    ("3.OA.D.9/number-pattern", "bare", _g3oa9),
    ("3.OA.D.9/pattern-story", "word", _g3oa9_story),
    ("3.NBT.A.1/round", "bare", _g3nbt1),
    ("3.NBT.A.1/round-story", "word", _g3nbt1_story),
    ("3.NBT.A.2/add-subtract", "bare", _g3nbt2),
    ("3.NBT.A.2/add-subtract-story", "word", _g3nbt2_story),
    ("3.NBT.A.3/times-tens", "bare", _g3nbt3),
    ("3.NBT.A.3/times-tens-story", "word", _g3nbt3_story),
    ("3.NF.A.1/parts-story", "word", _g3nf1_story),
    ("3.NF.A.1/unit-fractions", "bare", _g3nf1_bare),
    ("3.NF.A.2.a/unit-on-line", "bare", _g3nf2a),
    ("3.NF.A.2.b/mark-off", "bare", _g3nf2b),
    ("3.NF.A.2.b/hops-story", "word", _g3nf2b_story),
    ("3.NF.A.3.a/same-point", "bare", _g3nf3a),
    ("3.NF.A.3.b/equivalent", "bare", _g3nf3b),
    ("3.NF.A.3.b/equivalent-story", "word", _g3nf3b_story),
    ("3.NF.A.3.c/whole-numbers", "bare", _g3nf3c),
    ("3.NF.A.3.d/compare", "bare", _g3nf3d),
    ("3.NF.A.3.d/compare-story", "word", _g3nf3d_story),
    ("3.MD.A.1/elapsed-story", "word", _g3md1_story),
    ("3.MD.A.1/clock-minutes", "bare", _g3md1_bare),
    ("3.MD.A.2/mass-volume-story", "word", _g3md2_story),
    ("3.MD.B.3/scaled-graph", "word", _g3md3),
    ("3.MD.B.4/line-plot", "word", _g3md4),
    ("3.MD.C.5.b/unit-squares", "word", _g3md5b),
    ("3.MD.C.5.a/unit-square", "bare", _g3md5a),
    ("3.MD.C.6/count-squares", "word", _g3md6),
    ("3.MD.C.7.a/tiling", "word", _g3md7a),
    ("3.MD.C.7.b/area-story", "word", _g3md7b_story),
    ("3.MD.C.7.b/area", "bare", _g3md7b_bare),
    ("3.MD.C.7.c/distributive-area", "bare", _g3md7c),
    ("3.MD.C.7.d/rectilinear", "word", _g3md7d),
    ("3.MD.D.8/perimeter", "bare", _g3md8),
    ("3.MD.D.8/perimeter-story", "word", _g3md8_story),
    ("3.G.A.1/count-quadrilaterals", "bare", _g3g1_count),
    ("3.G.A.1/name-quadrilateral", "bare", _g3g1_name),
    ("3.G.A.2/equal-area-parts", "bare", _g3g2),
    ("4.OA.A.1/comparison-equation", "bare", _g4oa1),
    ("4.OA.A.2/times-as-many-story", "word", _g4oa2),
    ("4.OA.A.3/multistep-story", "word", _g4oa3_story),
    ("4.OA.A.3/remainder-story", "word", _g4oa3_remainder),
    ("4.OA.B.4/factors-multiples-primes", "bare", _g4oa4),
    ("4.OA.B.4/multiple-story", "word", _g4oa4_story),
    ("4.OA.C.5/rule-pattern", "bare", _g4oa5),
    ("4.OA.C.5/pattern-story", "word", _g4oa5_story),
    ("4.NBT.A.1/ten-times", "bare", _g4nbt1),
    ("4.NBT.A.2/read-write-compare", "bare", _g4nbt2),
    ("4.NBT.A.3/round", "bare", _g4nbt3),
    ("4.NBT.A.3/round-story", "word", _g4nbt3_story),
    ("4.NBT.B.4/add-subtract", "bare", _g4nbt4),
    ("4.NBT.B.4/add-subtract-story", "word", _g4nbt4_story),
    ("4.NBT.B.5/multiply", "bare", _g4nbt5),
    ("4.NBT.B.5/multiply-story", "word", _g4nbt5_story),
    ("4.NBT.B.6/divide", "bare", _g4nbt6),
    ("4.NBT.B.6/divide-story", "word", _g4nbt6_story),
    ("4.NF.A.1/equivalent", "bare", _g4nf1),
    ("4.NF.A.1/equivalent-story", "word", _g4nf1_story),
    ("4.NF.A.2/compare", "bare", _g4nf2),
    ("4.NF.A.2/compare-story", "word", _g4nf2_story),
    ("4.NF.B.3/unit-fraction-sum", "bare", _g4nf3),
    ("4.NF.B.3.a/join-separate", "bare", _g4nf3a),
    ("4.NF.B.3.b/decompose", "bare", _g4nf3b),
    ("4.NF.B.3.c/mixed-numbers", "bare", _g4nf3c),
    ("4.NF.B.3.d/like-denominators-story", "word", _g4nf3d),
    ("4.NF.B.4.a/multiple-of-unit", "bare", _g4nf4a),
    ("4.NF.B.4.b/whole-times-fraction", "bare", _g4nf4b),
    ("4.NF.B.4.c/fraction-times-whole-story", "word", _g4nf4c),
    ("4.NF.C.5/tenths-hundredths", "bare", _g4nf5),
    ("4.NF.C.5/tenths-hundredths-story", "word", _g4nf5_story),
    ("4.NF.C.6/decimal-notation", "bare", _g4nf6),
    ("4.NF.C.7/compare-decimals", "bare", _g4nf7),
    ("4.NF.C.7/compare-decimals-story", "word", _g4nf7_story),
    ("4.MD.A.1/convert", "bare", _g4md1),
    ("4.MD.A.2/measurement-story", "word", _g4md2),
    ("4.MD.A.3/area-perimeter", "bare", _g4md3),
    ("4.MD.A.3/area-perimeter-story", "word", _g4md3_story),
    ("4.MD.B.4/line-plot", "word", _g4md4),
    ("4.MD.C.5.a/fraction-of-circle", "bare", _g4md5a),
    ("4.MD.C.5.b/one-degree-angles", "bare", _g4md5b),
    ("4.MD.C.6/protractor", "bare", _g4md6),
    ("4.MD.C.7/unknown-angle", "bare", _g4md7),
    ("4.MD.C.7/angle-story", "word", _g4md7_story),
    ("4.G.A.1/angle-types", "bare", _g4g1),
    ("4.G.A.2/classify-shapes", "bare", _g4g2),
    ("4.G.A.3/symmetry", "bare", _g4g3),
)

GENERATORS: tuple[Generator, ...] = tuple(
    Generator(name, "ccss:" + name.split("/")[0], kind, make) for name, kind, make in _TABLE
)
