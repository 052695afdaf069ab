"""Grade 6 problem generators: The Number System, cluster C.

The standards 6.NS.C.5 to 6.NS.C.8; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_56._shared import F, _ask, _f, _name, _two_names

__all__ = ["GENERATORS"]


def _ns_signed_story(rng: random.Random) -> Made:
    n, small = rng.randint(2, 500), rng.randint(1, 40)
    phrase, value = pick(
        rng,
        (
            (f"a temperature of {small} degrees below zero", -small),
            (f"{n} feet below sea level", -n),
            (f"a withdrawal of ${n}", -n),
            (f"a deposit of ${n}", n),
            (f"{n} feet above sea level", n),
            (f"a loss of {small} yards in a football play", -small),
            (f"a gain of {small} yards", small),
            (f"a temperature of {small} degrees above zero", small),
        ),
    )
    q = pick(
        rng,
        (
            f"Write an integer to represent {phrase}.",
            f"What signed number stands for {phrase}?",
            f"use a positive or negative number for {phrase}",
            f"Zero is the starting point. Which integer shows {phrase}?",
        ),
    )
    return _ask(rng, q), str(value), str(value)


def _ns_opposite(rng: random.Random) -> Made:
    n = rng.randint(-50, 50)
    kind = rng.randrange(3)
    if kind == 0:
        q = pick(
            rng,
            (
                f"What is the opposite of {n}?",
                f"Find the opposite of {n} on the number line.",
                f"opposite of {n}",
            ),
        )
        return _ask(rng, q), f"-({n})", str(-n)
    if kind == 1:
        q = pick(
            rng,
            (
                f"What is -(-{abs(n)})?",
                f"Simplify -(-{abs(n)}).",
                f"what is the opposite of the opposite of {abs(n)}",
            ),
        )
        return _ask(rng, q), f"-(-{abs(n)})", str(abs(n))
    q = (
        f"A number is {abs(n)} units from 0 on the left side of the number line. What is its "
        "opposite?"
    )
    return _ask(rng, q), f"-(-{abs(n)})", str(abs(n))


def _ns_reflect(rng: random.Random) -> Made:
    x, y = rng.choice([-1, 1]) * rng.randint(1, 10), rng.choice([-1, 1]) * rng.randint(1, 10)
    kind = rng.randrange(4)
    if kind == 0:
        q = (
            f"The point ({x}, {y}) is reflected across the x-axis. What is the y-coordinate of the "
            "new point?"
        )
        return _ask(rng, q), f"-({y})", str(-y)
    if kind == 1:
        q = f"Reflect ({x}, {y}) across the y-axis. What is the new x-coordinate?"
        return _ask(rng, q), f"-({x})", str(-x)
    if kind == 2:
        q = f"The points ({x}, {y}) and ({-x}, {y}) differ only in sign. How far apart are they?"
        return _ask(rng, q), f"2 * abs({x})", str(2 * abs(x))
    q = f"({x}, {y}) is reflected across both axes. What is the sum of the new coordinates?"
    return _ask(rng, q), f"-({x}) + -({y})", str(-x - y)


def _ns_number_line(rng: random.Random) -> Made:
    kind = rng.randrange(4)
    if kind == 0:
        a, b = rng.randint(-12, 0), rng.randint(1, 12)
        if (a + b) % 2:
            b += 1
        q = f"What number is halfway between {a} and {b} on the number line?"
        return _ask(rng, q), f"({a} + {b}) / 2", str((a + b) // 2)
    if kind == 1:
        s, m = rng.randint(-8, 8), rng.randint(1, 12)
        q = f"A point is {m} units to the left of {s} on a number line. What number is it?"
        return _ask(rng, q), f"{s} - {m}", str(s - m)
    if kind == 2:
        start, den = rng.randint(-3, -1), pick(rng, (2, 4, 5))
        k = rng.randint(1, 2 * den)
        q = (
            f"A number line starts at {start} and has tick marks every 1/{den}. What number is at "
            f"the tick {k} steps to the right of {start}?"
        )
        return _ask(rng, q), f"{start} + {k}/{den}", _f(start + F(k, den))
    x, y = rng.randint(1, 9), rng.randint(1, 9)
    q = (
        f"From the origin, move {x} units left and {y} units down. What is the x-coordinate of the "
        "point?"
    )
    return _ask(rng, q), f"-{x}", str(-x)


def _ns_order_bare(rng: random.Random) -> Made:
    a, b, c = rng.sample(range(-20, 15), 3)
    kind = rng.randrange(4)
    if kind == 0:
        q = pick(
            rng,
            (
                f"Which is farther to the right on a number line, {a} or {b}?",
                f"which is greater {a} or {b}",
            ),
        )
        return _ask(rng, q), f"max({a}, {b})", str(max(a, b))
    if kind == 1:
        q = pick(
            rng,
            (
                f"Which number is farther left on the number line: {a}, {b} or {c}?",
                f"Order {a}, {b}, {c} from least to greatest. Which is first?",
            ),
        )
        return _ask(rng, q), f"min({a}, {b}, {c})", str(min(a, b, c))
    if kind == 2:
        q = f"Write <, > or =: {a} ___ {b}"
        return _ask(rng, q), f"cmp({a}, {b})", ">" if a > b else "<"
    q = f"Order {a}, {b}, {c} from greatest to least. Which is first?"
    return _ask(rng, q), f"max({a}, {b}, {c})", str(max(a, b, c))


def _ns_order_story(rng: random.Random) -> Made:
    p, r = _two_names(rng)
    a, b = rng.sample(range(-30, 10), 2)
    kind = rng.randrange(3)
    if kind == 0:
        q = (
            f"At 6 a.m. it was {a}°C in {p}'s town and {b}°C in {r}'s town. Which temperature is "
            "colder?"
        )
        return _ask(rng, q), f"min({a}, {b})", str(min(a, b))
    if kind == 1:
        a, b = -abs(a) - 1, -abs(b) - 1
        if a == b:
            b -= 1
        q = (
            f"{p}'s account balance is -${abs(a)} and {r}'s is -${abs(b)}. Which balance is "
            "greater?"
        )
        return _ask(rng, q), f"max({a}, {b})", str(max(a, b))
    q = (
        f"A fish swims at {a * 3} feet and a diver is at {b * 3} feet (sea level is 0). Which is "
        "higher? Give its elevation."
    )
    return _ask(rng, q), f"max({a * 3}, {b * 3})", str(3 * max(a, b))


def _ns_abs_bare(rng: random.Random) -> Made:
    n = rng.randint(-99, 99)
    if rng.random() < 0.5:
        q = pick(
            rng,
            (
                f"|{n}| = ?",
                f"What is the absolute value of {n}?",
                f"Find |{n}|.",
                f"abs value of {n}",
            ),
        )
        return _ask(rng, q), f"abs({n})", str(abs(n))
    m = rng.randint(-99, 99)
    q = f"Find |{n}| + |{m}|."
    return _ask(rng, q), f"abs({n}) + abs({m})", str(abs(n) + abs(m))


def _ns_abs_story(rng: random.Random) -> Made:
    who = _name(rng)
    n = rng.randint(5, 300)
    q = pick(
        rng,
        (
            f"{who}'s account balance is -${n}. What is the size of the debt in dollars?",
            f"A submarine is at an elevation of -{n} feet. How far below sea level is it?",
            f"The temperature is -{n % 40 + 1}°F. How many degrees is that from 0?",
            f"A stock changed by -{n} cents today. What is the size of the change?",
        ),
    )
    value = n % 40 + 1 if "°F" in q else n
    return _ask(rng, q), f"abs(-{value})", str(value)


def _ns_abs_vs_order(rng: random.Random) -> Made:
    p, r = _two_names(rng)
    a, b = rng.sample(range(5, 120), 2)
    kind = rng.randrange(3)
    if kind == 0:
        q = f"An account balance less than -${a} means a debt greater than how many dollars?"
        return _ask(rng, q), f"abs(-{a})", str(a)
    if kind == 1:
        q = f"{p}'s balance is -${a} and {r}'s is -${b}. Who owes more? Give the size of that debt."
        return _ask(rng, q), f"max(abs(-{a}), abs(-{b}))", str(max(a, b))
    q = (
        f"{p}'s balance is -${a} and {r}'s is -${b}. Whose balance is lower, and by how many "
        "dollars is that debt bigger?"
    )
    return _ask(rng, q), f"abs(min(-{a}, -{b})) - abs(max(-{a}, -{b}))", str(abs(a - b))


def _ns_distance_bare(rng: random.Random) -> Made:
    c = rng.randint(-9, 9)
    u, v = rng.randint(-10, -1), rng.randint(1, 10)
    if rng.random() < 0.5:
        p1, p2, expr = f"({c}, {u})", f"({c}, {v})", f"abs({u} - {v})"
    else:
        p1, p2, expr = f"({u}, {c})", f"({v}, {c})", f"abs({u} - {v})"
    q = pick(
        rng,
        (
            f"Find the distance between {p1} and {p2}.",
            f"How far apart are the points {p1} and {p2}?",
            f"distance from {p1} to {p2}",
            f"What is the length of the segment from {p1} to {p2}?",
        ),
    )
    return _ask(rng, q), expr, str(v - u)


def _ns_distance_story(rng: random.Random) -> Made:
    who = _name(rng)
    c = rng.randint(-6, 6)
    u, v = rng.randint(-10, -1), rng.randint(1, 10)
    a, b = pick(
        rng,
        (
            ("the zoo", "the museum"),
            ("home", "school"),
            ("the tent", "the lake"),
            ("the café", "the bank"),
        ),
    )
    q = pick(
        rng,
        (
            f"On a city grid, {a} is at ({c}, {u}) and {b} is at ({c}, {v}). Each unit is 1 block. "
            f"How many blocks does {who} walk going straight from {a} to {b}?",
            f"{who} marks {a} at ({u}, {c}) and {b} at ({v}, {c}) on a map where each unit is 1 "
            "km. How far apart are they?",
        ),
    )
    return _ask(rng, q), f"abs({v} - ({u}))", str(v - u)


GENERATORS: tuple[Generator, ...] = table(
    ("6.NS.C.5/signed-quantity", "word", _ns_signed_story),
    ("6.NS.C.6.a/opposite", "bare", _ns_opposite),
    ("6.NS.C.6.b/reflect-point", "bare", _ns_reflect),
    ("6.NS.C.6.c/number-line", "bare", _ns_number_line),
    ("6.NS.C.7.a/order-on-line", "bare", _ns_order_bare),
    ("6.NS.C.7.b/order-story", "word", _ns_order_story),
    ("6.NS.C.7.c/absolute-value", "bare", _ns_abs_bare),
    ("6.NS.C.7.c/absolute-value-story", "word", _ns_abs_story),
    ("6.NS.C.7.d/debt-story", "word", _ns_abs_vs_order),
    ("6.NS.C.8/distance", "bare", _ns_distance_bare),
    ("6.NS.C.8/map-distance-story", "word", _ns_distance_story),
)
