"""Grade 4 problem generators: Operations and Algebraic Thinking.

The standards 4.OA.A.1 to 4.OA.C.5; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import NAMES, THINGS, pick
from tutorgraph.training.problems.grade_34._shared import _ordinal, _say, _two, _x

__all__ = ["GENERATORS"]


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


GENERATORS: tuple[Generator, ...] = table(
    ("4.OA.A.1/comparison-equation", "bare", _g4oa1),
    ("4.OA.A.2/times-as-many-story", "word", _g4oa2),
    ("4.OA.A.3/multistep-story", "word", _g4oa3_story),
    ("4.OA.A.3/remainder-story", "word", _g4oa3_remainder),
    ("4.OA.B.4/factors-multiples-primes", "bare", _g4oa4),
    ("4.OA.B.4/multiple-story", "word", _g4oa4_story),
    ("4.OA.C.5/rule-pattern", "bare", _g4oa5),
    ("4.OA.C.5/pattern-story", "word", _g4oa5_story),
)
