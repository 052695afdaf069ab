"""Grade 4 problem generators: Number and Operations—Fractions.

The standards 4.NF.A.1 to 4.NF.C.7; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import NAMES, fraction_text, pick
from tutorgraph.training.problems.grade_34._shared import (
    _FOODS,
    _bare,
    _cmp_text,
    _dec,
    _eq,
    _f,
    _say,
    _two,
    _x,
)

__all__ = ["GENERATORS"]


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


GENERATORS: tuple[Generator, ...] = table(
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
)
