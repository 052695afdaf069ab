"""Grade 3 problem generators: Number and Operations—Fractions.

The standards 3.NF.A.1 to 3.NF.A.3; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import NAMES, pick
from tutorgraph.training.problems.grade_34._shared import (
    _FOODS,
    _cmp_text,
    _eq,
    _f,
    _ordinal,
    _say,
    _two,
)

__all__ = ["GENERATORS"]


_D3 = (2, 3, 4, 6, 8)


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


GENERATORS: tuple[Generator, ...] = table(
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
)
