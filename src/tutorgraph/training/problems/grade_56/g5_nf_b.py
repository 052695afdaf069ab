"""Grade 5 problem generators: Number and Operations—Fractions, cluster B.

The standards 5.NF.B.3 to 5.NF.B.7; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_56._shared import (
    _DENS5,
    F,
    _ask,
    _f,
    _fa,
    _fe,
    _frac,
    _m,
    _name,
)

__all__ = ["GENERATORS"]


def _nf_share_story(rng: random.Random) -> Made:
    people = rng.randint(3, 12)
    total = rng.randint(people + 1, 60)
    if total % people == 0:
        total += 1
    stuff, unit = pick(
        rng,
        (
            ("a sack of rice", "pounds"),
            ("a length of rope", "feet"),
            ("a jug of juice", "liters"),
            ("a bag of soil", "kilograms"),
            ("a roll of paper", "meters"),
        ),
    )
    share = F(total, people)
    if rng.random() < 0.75:
        q = pick(
            rng,
            (
                f"{people} people share {stuff} of {total} {unit} equally. How many {unit} does "
                "each person get?",
                f"{_name(rng)} has {stuff} of {total} {unit} and splits it evenly into {people} "
                "parts. How much is in each part?",
                f"if {total} {unit} is shared by {people} friends, how much does each one get",
            ),
        )
        return _ask(rng, q), f"{total} / {people}", _fa(rng, share)
    q = (
        f"{people} people share {stuff} of {total} {unit} equally. Each share is between which "
        "whole numbers? Give the smaller one."
    )
    return _ask(rng, q), f"floor({total} / {people})", str(total // people)


def _nf_as_division(rng: random.Random) -> Made:
    b = rng.randint(2, 12)
    a = pick(rng, [n for n in range(1, 21) if n % b])
    kind = rng.randrange(3)
    if kind == 0:
        q = pick(
            rng,
            (
                f"Write {a} ÷ {b} as a fraction.",
                f"{a} divided by {b} is what fraction?",
                f"what fraction is {a}/{b} as a division {a} ÷ {b}",
            ),
        )
        return _ask(rng, q), f"{a} / {b}", _fa(rng, F(a, b))
    if kind == 1:
        q = pick(rng, (f"{_f(F(a, b))} × {b} = ?", f"What is {b} times {_f(F(a, b))}?"))
        return _ask(rng, q), f"{a} / {b} * {b}", str(a)
    q = f"Interpret {a}/{b} as division: {a} ÷ ? = {a}/{b}"
    return _ask(rng, q), f"{a} / ({a} / {b})", str(b)


def _nf_times_whole(rng: random.Random) -> Made:
    f = _frac(rng, _DENS5)
    q_ = rng.randint(2, 30)
    if rng.random() < 0.5:
        q_ = f.denominator * rng.randint(1, 6)
    a, b = f.numerator, f.denominator
    q = pick(
        rng,
        (
            f"{_f(f)} × {q_} = ?",
            f"Find {_f(f)} of {q_}.",
            f"What is {q_} × {_f(f)}?",
            f"Multiply {_f(f)} by {q_}. (Think {a} × {q_} ÷ {b}.)",
            f"whats {_f(f)} of {q_}",
            f"Use a visual model to find {_f(f)} × {q_}.",
        ),
    )
    return _ask(rng, q), f"{a}/{b} * {q_}", _fa(rng, f * q_)


def _nf_times_fraction(rng: random.Random) -> Made:
    f, g = _frac(rng, _DENS5), _frac(rng, _DENS5)
    q = pick(
        rng,
        (
            f"{_f(f)} × {_f(g)} = ?",
            f"Find the product: {_f(f)} × {_f(g)}",
            f"What is {_f(f)} of {_f(g)}?",
            f"multiply {_f(f)} times {_f(g)}",
            f"Solve. {_f(f)} x {_f(g)}. Write your answer in simplest form.",
        ),
    )
    return _ask(rng, q), f"{_fe(f)} * {_fe(g)}", _f(f * g)


def _nf_area_bare(rng: random.Random) -> Made:
    a, b = _frac(rng, (3, 4, 5, 6, 8), proper=rng.random() < 0.6), _frac(rng, (2, 3, 4, 5, 6, 8))
    if a.numerator == 1:
        a += 1
    if rng.random() < 0.3:
        ta, tb = F(1, a.denominator), F(1, b.denominator)
        q = (
            f"A rectangle is {_m(a)} units by {_m(b)} units. It is tiled with rectangles "
            f"{_f(ta)} unit by {_f(tb)} unit. How many tiles does it take?"
        )
        return (
            _ask(rng, q),
            f"({_fe(a)} / {_fe(ta)}) * ({_fe(b)} / {_fe(tb)})",
            str(a / ta * (b / tb)),
        )
    q = pick(
        rng,
        (
            f"Find the area of a rectangle with side lengths {_m(a)} and {_m(b)} units.",
            f"A rectangle is {_m(a)} m long and {_m(b)} m wide. What is its area in square meters?",
            f"What is the area of a {_m(a)} by {_m(b)} rectangle?",
            f"area of rectangle length {_m(a)} width {_m(b)}",
            f"Multiply the side lengths to find the area: {_m(a)} ft and {_m(b)} ft.",
        ),
    )
    return _ask(rng, q), f"{_fe(a)} * {_fe(b)}", _fa(rng, a * b)


def _nf_area_story(rng: random.Random) -> Made:
    who = _name(rng)
    a, b = _frac(rng, (2, 3, 4, 8), proper=False), _frac(rng, (2, 3, 4, 8))
    what = pick(rng, ("garden bed", "poster", "tile", "piece of fabric", "patio", "rug"))
    unit = pick(rng, ("yard", "foot", "meter"))
    units = {"yard": "yards", "foot": "feet", "meter": "meters"}[unit]
    q = pick(
        rng,
        (
            f"{who}'s {what} is {_m(a)} {units} long and {_f(b)} {unit} wide. What is its area?",
            f"A rectangular {what} measures {_m(a)} {units} by {_f(b)} {unit}. How many square "
            f"{units} does it cover?",
            f"{who} wants to cover a {what} that is {_f(b)} {unit} by {_m(a)} {units}. find the "
            "area",
        ),
    )
    return _ask(rng, q), f"{_fe(a)} * {_fe(b)}", _fa(rng, a * b)


def _nf_scaling_compare(rng: random.Random) -> Made:
    n = rng.randint(12, 500)
    f = pick(rng, (_frac(rng, _DENS5), _frac(rng, _DENS5, proper=False)))
    kind = rng.randrange(3)
    if kind == 0:
        q = pick(
            rng,
            (
                f"Without multiplying, which is greater: {_f(f)} × {n} or {n}? Give the greater "
                "value.",
                f"Which is larger, {n} × {_f(f)} or {n}? dont multiply, then find it",
            ),
        )
        return _ask(rng, q), f"max({_fe(f)} * {n}, {n})", _fa(rng, max(f * n, F(n)))
    if kind == 1:
        q = (
            f"Which is smaller, {n} or {n} × {_f(f)}? Decide by looking at the fraction, then give "
            "the smaller value."
        )
        return _ask(rng, q), f"min({n} * {_fe(f)}, {n})", _fa(rng, min(f * n, F(n)))
    k, j = rng.randint(2, 9), rng.randint(2, 5)
    q = f"How many times as large is {n} × {k * j} as {n} × {k}? Do not multiply."
    return _ask(rng, q), f"{n} * {k * j} / ({n} * {k})", str(j)


def _nf_scaling_story(rng: random.Random) -> Made:
    who = _name(rng)
    n = rng.randint(4, 60)
    f = pick(rng, (F(1, 2), F(2, 3), F(3, 4), F(3, 2), F(5, 4), F(2, 1), F(5, 2)))
    what = pick(rng, ("photo", "drawing", "model car", "map"))
    if rng.random() < 0.5:
        q = (
            f"{who} resizes a {what} that is {n} cm wide by a factor of {_m(f)}. Is the new {what} "
            "wider or narrower? How wide is it?"
        )
        return _ask(rng, q), f"{n} * {_fe(f)}", _fa(rng, n * f)
    q = (
        f"{who}'s {what} is {n} inches long. A copy is {_m(f)} times as long. Which is longer, the "
        "copy or the original? Give its length."
    )
    return _ask(rng, q), f"max({n} * {_fe(f)}, {n})", _fa(rng, max(n * f, F(n)))


def _nf_times_one(rng: random.Random) -> Made:
    f = _frac(rng, (2, 3, 4, 5, 6, 8))
    k = rng.randint(2, 9)
    g = F(f.numerator * k, f.denominator * k)
    kind = rng.randrange(3)
    if kind == 0:
        q = f"{_f(f)} × {k}/{k} = ?/{f.denominator * k}. What is the missing numerator?"
        return _ask(rng, q), f"{_fe(f)} * {k}/{k} * {f.denominator * k}", str(f.numerator * k)
    if kind == 1:
        q = pick(
            rng,
            (
                f"{_f(f)} is multiplied by n/n to get {f.numerator * k}/{f.denominator * k}. What "
                "is n?",
                f"what number over itself do you multiply {_f(f)} by to get "
                f"{f.numerator * k}/{f.denominator * k}",
            ),
        )
        return _ask(rng, q), f"{f.denominator * k} / {f.denominator}", str(k)
    n = rng.randint(3, 40)
    q = pick(
        rng,
        (
            f"Multiplying by a fraction greater than 1 makes a number bigger. "
            f"Find {n} × {_m(g + 1)}.",
            f"Will {n} × {_m(g + 1)} be more or less than {n}? Find the product.",
        ),
    )
    return _ask(rng, q), f"{n} * {_fe(g + 1)}", _fa(rng, n * (g + 1))


def _nf_multiply_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(5)
    a = _frac(rng, (2, 3, 4, 5, 6, 8))
    b = _frac(rng, (2, 3, 4, 5, 6, 8))
    if kind == 0:
        q = (
            f"{who} had {_f(a)} of a pan of lasagna and ate {_f(b)} of it. What fraction of the "
            f"whole pan did {who} eat?"
        )
        return _ask(rng, q), f"{_fe(b)} * {_fe(a)}", _f(a * b)
    if kind == 1:
        m = rng.randint(1, 4) + a
        n = rng.randint(2, 6)
        q = (
            f"A recipe uses {_m(m)} cups of milk. {who} makes {n} batches. How many cups of milk "
            "is that?"
        )
        return _ask(rng, q), f"{_fe(m)} * {n}", _fa(rng, m * n)
    if kind == 2:
        m = rng.randint(2, 8) + a
        q = (
            f"A board is {_m(m)} feet long. A shelf is {_f(b)} as long as the board. How long is "
            "the shelf?"
        )
        return _ask(rng, q), f"{_fe(b)} * {_fe(m)}", _fa(rng, m * b)
    if kind == 3:
        m = rng.randint(1, 5) + a
        speed = rng.randint(2, 6)
        q = f"{who} walks {speed} miles each hour. How far does {who} walk in {_m(m)} hours?"
        return _ask(rng, q), f"{speed} * {_fe(m)}", _fa(rng, m * speed)
    n = b.denominator * rng.randint(2, 8)
    q = (
        f"There are {n} students in the class and {_f(b)} of them ride the bus. How many students "
        "ride the bus?"
    )
    return _ask(rng, q), f"{_fe(b)} * {n}", str(b * n)


def _nf_unit_div_whole(rng: random.Random) -> Made:
    b, n = rng.randint(2, 10), rng.randint(2, 9)
    q = pick(
        rng,
        (
            f"1/{b} ÷ {n} = ?",
            f"Divide: 1/{b} ÷ {n}",
            f"What is one {_ORD.get(b, f'{b}th')} divided by {n}?",
            f"? × {n} = 1/{b}",
            f"how do you divide 1/{b} by {n}",
            f"Find the quotient (1/{b}) ÷ {n} and check it with multiplication.",
        ),
    )
    return _ask(rng, q), f"(1/{b}) / {n}", f"1/{b * n}"


_ORD = {2: "half", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 8: "eighth", 10: "tenth"}


def _nf_whole_div_unit(rng: random.Random) -> Made:
    b, n = rng.randint(2, 10), rng.randint(2, 12)
    q = pick(
        rng,
        (
            f"{n} ÷ 1/{b} = ?",
            f"How many 1/{b}s are in {n}?",
            f"Divide: {n} ÷ (1/{b})",
            f"what is {n} divided by 1/{b}",
            f"? × 1/{b} = {n}",
            f"Find {n} ÷ 1/{b}. Draw a model to check.",
        ),
    )
    return _ask(rng, q), f"{n} / (1/{b})", str(n * b)


def _nf_share_unit_story(rng: random.Random) -> Made:
    b, n = rng.randint(2, 8), rng.randint(2, 6)
    stuff, unit = pick(
        rng,
        (
            ("chocolate", "lb"),
            ("a pizza", ""),
            ("juice", "liter"),
            ("a bag of trail mix", "kg"),
            ("paint", "gallon"),
        ),
    )
    who = _name(rng)
    q = pick(
        rng,
        (
            f"{n} people share 1/{b} {unit} of {stuff} equally. How much does each person get?",
            f"{who} has 1/{b} {unit} of {stuff} to split evenly among {n} friends. How much does "
            "each friend get?",
            f"if {n} kids split 1/{b} {unit} of {stuff} how much does each kid get",
        ),
    )
    return _ask(rng, q), f"(1/{b}) / {n}", f"1/{b * n}"


def _nf_servings_story(rng: random.Random) -> Made:
    b, n = rng.randint(2, 8), rng.randint(2, 9)
    who = _name(rng)
    food, unit = pick(
        rng,
        (
            ("raisins", "cup"),
            ("rice", "cup"),
            ("ribbon", "yard"),
            ("cheese", "pound"),
            ("rope", "meter"),
        ),
    )
    q = pick(
        rng,
        (
            f"How many 1/{b}-{unit} servings are in {n} {unit}s of {food}?",
            f"{who} has {n} {unit}s of {food} and uses 1/{b} {unit} at a time. How many times can "
            f"{who} do this?",
            f"{who} cuts {n} {unit}s of {food} into pieces 1/{b} {unit} each. How many pieces are "
            "there?",
            f"how many 1/{b} {unit} scoops fit in {n} {unit}s",
        ),
    )
    return _ask(rng, q), f"{n} / (1/{b})", str(n * b)


GENERATORS: tuple[Generator, ...] = table(
    ("5.NF.B.3/share-story", "word", _nf_share_story),
    ("5.NF.B.3/fraction-as-division", "bare", _nf_as_division),
    ("5.NF.B.4.a/fraction-times-whole", "bare", _nf_times_whole),
    ("5.NF.B.4.a/fraction-times-fraction", "bare", _nf_times_fraction),
    ("5.NF.B.4.b/rectangle-area", "bare", _nf_area_bare),
    ("5.NF.B.4.b/rectangle-area-story", "word", _nf_area_story),
    ("5.NF.B.5.a/compare-product", "bare", _nf_scaling_compare),
    ("5.NF.B.5.a/resize-story", "word", _nf_scaling_story),
    ("5.NF.B.5.b/multiply-by-one", "bare", _nf_times_one),
    ("5.NF.B.6/multiply-story", "word", _nf_multiply_story),
    ("5.NF.B.7.a/unit-fraction-by-whole", "bare", _nf_unit_div_whole),
    ("5.NF.B.7.b/whole-by-unit-fraction", "bare", _nf_whole_div_unit),
    ("5.NF.B.7.c/share-story", "word", _nf_share_unit_story),
    ("5.NF.B.7.c/servings-story", "word", _nf_servings_story),
)
