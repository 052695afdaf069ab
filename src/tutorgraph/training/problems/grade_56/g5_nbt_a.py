"""Grade 5 problem generators: Number and Operations in Base Ten, cluster A.

The standards 5.NBT.A.1 to 5.NBT.A.4; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_56._shared import (
    F,
    _ask,
    _d,
    _dec,
    _div,
    _f,
    _fe,
    _money,
    _name,
    _two_names,
    _x,
)

__all__ = ["GENERATORS"]


_PLACES = (
    (1000, "thousands"),
    (100, "hundreds"),
    (10, "tens"),
    (1, "ones"),
    (F(1, 10), "tenths"),
    (F(1, 100), "hundredths"),
    (F(1, 1000), "thousandths"),
)


def _nbt_times_as_much(rng: random.Random) -> Made:
    digit = rng.randint(1, 9)
    i = rng.randrange(len(_PLACES) - 1)
    gap = 1 if rng.random() < 0.7 else 2
    j = min(i + gap, len(_PLACES) - 1)
    hi, lo = _PLACES[i], _PLACES[j]
    number = _d(sum((digit * p for p, _ in _PLACES[i : j + 1]), F(0)))
    if rng.random() < 0.5:
        q = pick(
            rng,
            (
                f"In {number}, the {digit} in the {hi[1]} place is how many times the {digit} in "
                f"the {lo[1]} place?",
                f"How many times as much is the {digit} in the {hi[1]} place worth as the {digit} "
                f"in the {lo[1]} place in {number}?",
                f"in {number} why is the {hi[1]} {digit} bigger than the {lo[1]} {digit}, how many "
                "times bigger",
            ),
        )
        expr, ans = f"{digit} * {_fe(hi[0])} / ({digit} * {_fe(lo[0])})", _d(F(hi[0]) / lo[0])
    else:
        q = pick(
            rng,
            (
                f"In {number}, the value of the {digit} in the {lo[1]} place is what fraction of "
                f"the value of the {digit} in the {hi[1]} place?",
                f"The {digit} in the {lo[1]} place of {number} is worth what fraction of the "
                f"{digit} in the {hi[1]} place?",
            ),
        )
        expr, ans = f"{digit} * {_fe(lo[0])} / ({digit} * {_fe(hi[0])})", _f(F(lo[0]) / hi[0])
    return _ask(rng, q), expr, ans


def _nbt_digit_value(rng: random.Random) -> Made:
    x = _dec(rng, 1, 999, 3)
    digits = [(p, name) for p, name in _PLACES if p <= x and (x // p) % 10 != 0]
    p, name = pick(rng, digits)
    digit = int(x / p) % 10
    q = pick(
        rng,
        (
            f"What is the value of the digit {digit} in {_d(x)}?",
            f"In the number {_d(x)}, what is the {digit} worth?",
            f"Find the value of the {digit} in {_d(x)}.",
            f"what does the {digit} stand for in {_d(x)}",
            f"Write the value of the underlined digit: {_d(x)} (the {digit} in the {name} place).",
        ),
    )
    return _ask(rng, q), f"{digit} * {_fe(p)}", _d(digit * p)


def _nbt_powers_bare(rng: random.Random) -> Made:
    e = rng.randint(1, 4)
    x = _dec(rng, 0, 99, rng.randint(1, 3)) if rng.random() < 0.7 else F(rng.randint(2, 900))
    kind = rng.randrange(3)
    power = pick(rng, (f"10^{e}", f"10^{e}", str(10**e)))
    if kind == 0:
        text, expr, ans = f"{_d(x)}{_x(rng)}{power}", f"{_d(x)} * 10 ** {e}", _d(x * 10**e)
    elif kind == 1:
        text, expr, ans = f"{_d(x)}{_div(rng)}{power}", f"{_d(x)} / 10 ** {e}", _d(x / 10**e)
    else:
        n = rng.randint(2, 9)
        text, expr, ans = f"{n} × 10^{e}", f"{n} * 10 ** {e}", _d(n * 10**e)
    q = pick(
        rng,
        (
            f"{text} = ?",
            f"Find {text}.",
            f"What is {text}? Think about where the decimal point moves.",
            f"Compute {text}.",
            f"how many places does the decimal move in {text}, whats the answer",
            f"Solve: {text}",
        ),
    )
    return _ask(rng, q), expr, ans


def _nbt_powers_story(rng: random.Random) -> Made:
    who = _name(rng)
    e = rng.randint(1, 3)
    n = 10**e
    kind = rng.randrange(4)
    if kind == 0:
        price = _dec(rng, 0, 9, 2)
        q = f"One pack of stickers costs {_money(price)}. How much do {n} packs cost, in dollars?"
        expr, ans = f"{_d(price)} * 10 ** {e}", _d(price * n)
    elif kind == 1:
        total = _dec(rng, 2, 90, 1)
        q = (
            f"A box of {n} paper clips weighs {_d(total)} grams. How many grams does one clip "
            "weigh?"
        )
        expr, ans = f"{_d(total)} / 10 ** {e}", _d(total / n)
    elif kind == 2:
        step = _dec(rng, 0, 3, 2)
        q = f"{who} walks {_d(step)} km to school. How many km is that in {n} trips?"
        expr, ans = f"{_d(step)} * 10 ** {e}", _d(step * n)
    else:
        h = _dec(rng, 1, 20, 1)
        q = f"A stack of {n} sheets of card is {_d(h)} cm tall. How thick is one sheet, in cm?"
        expr, ans = f"{_d(h)} / 10 ** {e}", _d(h / n)
    return _ask(rng, q), expr, ans


_ONES = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
)  # fmt: skip
_TENS = (
    "zero",
    "ten",
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "sixty",
    "seventy",
    "eighty",
    "ninety",
)


def _words(n: int) -> str:
    """A number from 0 to 999 in words."""
    parts: list[str] = []
    if n >= 100:
        parts.append(f"{_ONES[n // 100]} hundred")
        n %= 100
        if n == 0:
            return parts[0]
    if n < 20:
        parts.append(_ONES[n])
    else:
        parts.append(_TENS[n // 10] + ("" if n % 10 == 0 else "-" + _ONES[n % 10]))
    return " ".join(parts)


def _nbt_expanded(rng: random.Random) -> Made:
    x = _dec(rng, 1, 999, rng.randint(2, 3))
    terms = [(int(x / p) % 10, p) for p, _ in _PLACES if p <= x or p < 1]
    terms = [(dg, p) for dg, p in terms if dg]
    shown = " + ".join(f"{dg} × {p}" if p >= 1 else f"{dg} × (1/{int(1 / p)})" for dg, p in terms)
    expr = " + ".join(f"{dg} * {_fe(p)}" for dg, p in terms)
    q = pick(
        rng,
        (
            f"Write the number in standard form: {shown}",
            f"What decimal is {shown}?",
            f"{shown} = ?",
            f"Write as a decimal: {shown}.",
            f"expanded form to normal number {shown}",
        ),
    )
    return _ask(rng, q), expr, _d(x)


def _nbt_number_name(rng: random.Random) -> Made:
    whole = rng.randint(0, 999)
    places = rng.randint(1, 3)
    part = rng.randint(1, 10**places - 1)
    unit = ("tenths", "hundredths", "thousandths")[places - 1]
    if part == 1:
        unit = unit[:-1]
    name = f"{_words(whole)} and {_words(part)} {unit}" if whole else f"{_words(part)} {unit}"
    x = whole + F(part, 10**places)
    q = pick(
        rng,
        (
            f"Write {name} as a decimal.",
            f"Write the number in digits: {name}.",
            f"What is {name} in standard form?",
            f"how do you write {name} with numbers",
            f"Ms. Lee reads aloud: {name}. Write the decimal she read.",
        ),
    )
    return _ask(rng, q), f"{whole} + {part} / {10**places}", _d(x)


def _nbt_compare_bare(rng: random.Random) -> Made:
    a = _dec(rng, 0, 20, rng.randint(1, 3))
    b = a + pick(rng, (F(1, 100), F(-1, 100), F(1, 1000), F(-1, 1000), F(9, 1000), F(-9, 100)))
    if b < 0:
        b = a + F(1, 10)
    style = rng.randrange(4)
    if style == 0:
        q = pick(
            rng,
            (f"Compare using >, <, or =: {_d(a)} ___ {_d(b)}", f"{_d(a)} ? {_d(b)} write > < or ="),
        )
        return _ask(rng, q), f"cmp({_d(a)}, {_d(b)})", ">" if a > b else "<" if a < b else "="
    if style in (1, 2):
        q = pick(
            rng,
            (
                f"Which is greater, {_d(a)} or {_d(b)}?",
                f"Which decimal is larger: {_d(a)} or {_d(b)}?",
                f"is {_d(a)} or {_d(b)} bigger",
            ),
        )
        return _ask(rng, q), f"max({_d(a)}, {_d(b)})", _d(max(a, b))
    c = a + pick(rng, (F(1, 10), F(2, 100), F(-3, 1000)))
    q = pick(
        rng,
        (
            f"Which of these is the least: {_d(a)}, {_d(b)}, {_d(c)}?",
            f"Put {_d(a)}, {_d(b)} and {_d(c)} in order. Which comes first from least to greatest?",
            f"whats the smallest out of {_d(a)}, {_d(b)}, {_d(c)}",
        ),
    )
    return _ask(rng, q), f"min({_d(a)}, {_d(b)}, {_d(c)})", _d(min(a, b, c))


def _nbt_compare_story(rng: random.Random) -> Made:
    p, r = _two_names(rng)
    a = _dec(rng, 1, 9, rng.randint(2, 3))
    b = a + pick(rng, (F(1, 100), F(-1, 100), F(5, 1000), F(-5, 1000), F(-4, 100)))
    unit, verb, more = pick(
        rng,
        (
            ("km", "ran", "farther"),
            ("kg", "picked", "more"),
            ("seconds", "took", "longer"),
            ("liters", "collected", "more"),
            ("meters", "jumped", "farther"),
        ),
    )
    if rng.random() < 0.6:
        q = (
            f"{p} {verb} {_d(a)} {unit} and {r} {verb} {_d(b)} {unit}. Who {verb} {more}? Give "
            "that amount."
        )
        return _ask(rng, q), f"max({_d(a)}, {_d(b)})", _d(max(a, b))
    q = f"{p} {verb} {_d(a)} {unit} and {r} {verb} {_d(b)} {unit}. Which amount is less?"
    return _ask(rng, q), f"min({_d(a)}, {_d(b)})", _d(min(a, b))


def _round(x: Fraction, unit: Fraction) -> Fraction:
    return F((x / unit + F(1, 2)).__floor__()) * unit


_ROUND_UNITS = ((F(1), "whole number"), (F(1, 10), "tenth"), (F(1, 100), "hundredth"))


def _nbt_round_bare(rng: random.Random) -> Made:
    x = _dec(rng, 0, 99, 3)
    unit, name = pick(rng, _ROUND_UNITS)
    q = pick(
        rng,
        (
            f"Round {_d(x)} to the nearest {name}.",
            f"What is {_d(x)} rounded to the nearest {name}?",
            f"round {_d(x)} to the nearest {name}",
            f"Use place value to round {_d(x)} to the nearest {name}.",
            f"{_d(x)} rounded to the {name}s place is what?",
        ),
    )
    return _ask(rng, q), f"round_to({_d(x)}, {_d(unit)})", _d(_round(x, unit))


def _nbt_round_story(rng: random.Random) -> Made:
    who = _name(rng)
    x = _dec(rng, 1, 60, 3)
    unit, name = pick(rng, _ROUND_UNITS)
    what = pick(
        rng,
        (
            f"{who}'s time in the 100 m race was {_d(x)} seconds.",
            f"{who}'s pumpkin weighs {_d(x)} kg.",
            f"A rain gauge measured {_d(x)} mm of rain.",
            f"{who} measured a leaf at {_d(x)} cm.",
            f"The bottle holds {_d(x)} ounces.",
        ),
    )
    q = f"{what} Round this to the nearest {name}."
    return _ask(rng, q), f"round_to({_d(x)}, {_d(unit)})", _d(_round(x, unit))


GENERATORS: tuple[Generator, ...] = table(
    ("5.NBT.A.1/times-as-much", "bare", _nbt_times_as_much),
    ("5.NBT.A.1/digit-value", "bare", _nbt_digit_value),
    ("5.NBT.A.2/powers-of-ten", "bare", _nbt_powers_bare),
    ("5.NBT.A.2/powers-of-ten-story", "word", _nbt_powers_story),
    ("5.NBT.A.3.a/expanded-form", "bare", _nbt_expanded),
    ("5.NBT.A.3.a/number-name", "bare", _nbt_number_name),
    ("5.NBT.A.3.b/compare", "bare", _nbt_compare_bare),
    ("5.NBT.A.3.b/compare-story", "word", _nbt_compare_story),
    ("5.NBT.A.4/round-decimal", "bare", _nbt_round_bare),
    ("5.NBT.A.4/round-story", "word", _nbt_round_story),
)
