"""Grade 3 problem generators: Operations and Algebraic Thinking, cluster A.

The standards 3.OA.A.1 to 3.OA.A.4; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import CONTAINERS, NAMES, THINGS, pick
from tutorgraph.training.problems.grade_34._shared import _d, _eq, _say, _x

__all__ = ["GENERATORS"]


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


GENERATORS: tuple[Generator, ...] = table(
    ("3.OA.A.1/equal-groups-meaning", "word", _g3oa1_story),
    ("3.OA.A.1/product-meaning", "bare", _g3oa1_bare),
    ("3.OA.A.2/quotient-meaning", "word", _g3oa2_story),
    ("3.OA.A.3/equal-groups-story", "word", _g3oa3_groups),
    ("3.OA.A.3/array-story", "word", _g3oa3_array),
    ("3.OA.A.3/measurement-story", "word", _g3oa3_measure),
    ("3.OA.A.4/unknown-number", "bare", _g3oa4),
)
