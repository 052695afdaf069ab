"""Generators for the computable standards of grades 5 and 6 (issue 48).

Grade 5: expressions with grouping symbols and patterns (OA), place value, decimals and
multi-digit arithmetic (NBT), fraction sums, products and unit-fraction quotients (NF),
conversions, line plots and volume (MD), the first-quadrant coordinate plane and the
attributes shared down the quadrilateral hierarchy (G). Grade 6: ratios, rates and percents
(RP), fraction division, GCF/LCM, decimals and the rational number line (NS), exponents,
expressions, equations and inequalities (EE), area, volume, coordinates and nets (G), and
summaries of data sets (SP). Each standard has word and bare generators where it has both.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from math import gcd

from tutorgraph.training.problems._registry import Generator, Kind, Made
from tutorgraph.training.problems._words import (
    CONTAINERS,
    NAMES,
    THINGS,
    fraction_text,
    number_text,
    pick,
    plural,
)

__all__ = ["GENERATORS"]

F = Fraction
_Make = Callable[[random.Random], Made]

_WORKSHEET = (
    "{q}",
    "Solve. {q}",
    "{q} Show your work.",
    "Find the answer. {q}",
    "Problem: {q}",
    "{q} Explain your answer.",
)
_STUDENT = (
    "my homework says {q}",
    "i dont get this one: {q}",
    "how do you do this? {q}",
    "can someone help me with this {q}",
    "stuck on this one {q}",
    "{q} i keep getting the wrong answer",
    "ok so {q}",
)


def _ask(rng: random.Random, q: str) -> str:
    """Worksheet wording or a student's own words around the question."""
    if rng.random() < 0.6:
        return pick(rng, _WORKSHEET).replace("{q}", q)
    text = pick(rng, _STUDENT).replace("{q}", q)
    if rng.random() < 0.6:
        text = text.lower()
    if rng.random() < 0.4:
        text = text.rstrip("?.!")
    return text


def _d(x: Fraction | int) -> str:
    """A terminating decimal as digits: 3.45, 0.05, 12."""
    x = F(x)
    sign = "-" if x < 0 else ""
    x = abs(x)
    k = 0
    while (x * 10**k).denominator != 1:
        k += 1
        if k > 9:
            raise ValueError(f"{x} is not a short decimal")
    n = int(x * 10**k)
    if k == 0:
        return sign + (f"{n:,}" if n >= 10_000 else str(n))
    s = str(n).rjust(k + 1, "0")
    return f"{sign}{s[:-k]}.{s[-k:]}"


def _money(x: Fraction | int) -> str:
    x = F(x)
    cents = int(x * 100)
    return f"${cents // 100}.{cents % 100:02d}"


def _f(x: Fraction | int) -> str:
    return number_text(F(x))


def _m(x: Fraction | int) -> str:
    """A fraction over 1 as a mixed number."""
    return fraction_text(F(x), mixed=True)


def _fe(x: Fraction | int) -> str:
    """A fraction or mixed number in an expression, in parentheses."""
    x = F(x)
    if x.denominator == 1:
        return str(x.numerator) if x >= 0 else f"({x.numerator})"
    if x > 1:
        whole = x.numerator // x.denominator
        rest = x - whole
        return f"({whole} + {rest.numerator}/{rest.denominator})"
    return f"({x.numerator}/{x.denominator})"


def _fa(rng: random.Random, x: Fraction | int) -> str:
    """A fraction answer, mixed or improper."""
    return _m(x) if rng.random() < 0.6 else _f(x)


def _dec(rng: random.Random, lo: int, hi: int, places: int) -> Fraction:
    """A decimal between lo and hi with exactly `places` places (last digit not zero)."""
    scale = 10**places
    n = rng.randint(lo * scale, hi * scale)
    if places and n % 10 == 0:
        n += rng.randint(1, 9)
    return F(n, scale)


def _frac(rng: random.Random, dens: Sequence[int], proper: bool = True) -> Fraction:
    d = pick(rng, dens)
    n = rng.randint(1, d - 1) if proper else rng.randint(d + 1, 3 * d)
    return F(n, d)


def _x(rng: random.Random) -> str:
    return pick(rng, (" × ", " × ", " x ", " * "))


def _div(rng: random.Random) -> str:
    return pick(rng, (" ÷ ", " ÷ ", " / "))


def _name(rng: random.Random) -> str:
    return pick(rng, NAMES)


def _two_names(rng: random.Random) -> tuple[str, str]:
    a = pick(rng, NAMES)
    b = pick(rng, [n for n in NAMES if n != a])
    return a, b


# ---------------------------------------------------------------- 5.OA


def _oa_grouping(rng: random.Random) -> Made:
    a, b, c, d = (rng.randint(2, 12) for _ in range(4))
    t = _x(rng)
    shape = rng.randrange(6)
    if shape == 0:
        text, expr, ans = f"{a}{t}({b} + {c})", f"{a} * ({b} + {c})", a * (b + c)
    elif shape == 1:
        d = rng.randint(1, (a + b) * c - 1)
        text, expr, ans = f"({a} + {b}){t}{c} - {d}", f"({a} + {b}) * {c} - {d}", (a + b) * c - d
    elif shape == 2:
        b, c = max(b, c) + 1, min(b, c)
        text = f"[{a} + ({b} - {c})]{t}{d}"
        expr, ans = f"({a} + ({b} - {c})) * {d}", (a + b - c) * d
    elif shape == 3:
        c, d = max(c, d) + 1, min(c, d)
        text = f"{{{a}{t}[{b} + ({c} - {d})]}}{_div(rng)}{a}"
        expr, ans = f"({a} * ({b} + ({c} - {d}))) / {a}", b + c - d
    elif shape == 4:
        c, d = max(c, d) + 1, min(c, d)
        text, expr, ans = f"{a} + {b}{t}({c} - {d})", f"{a} + {b} * ({c} - {d})", a + b * (c - d)
    else:
        k = rng.randint(2, 9)
        a = rng.randint(1, c * k - 1)
        b = c * k - a
        text = f"[({a} + {b}){_div(rng)}{c}]{t}{d}"
        expr, ans = f"(({a} + {b}) / {c}) * {d}", k * d
    q = pick(
        rng,
        (
            f"Evaluate {text}.",
            f"What is the value of {text}?",
            f"Find the value of the expression {text}.",
            f"{text} = ?",
            f"simplify {text}",
            f"Work out {text}. Do the grouping symbols first.",
            f"what does {text} equal",
        ),
    )
    return _ask(rng, q), expr, str(ans)


def _oa_nested(rng: random.Random) -> Made:
    a, b, c, d, e = (rng.randint(2, 9) for _ in range(5))
    t = _x(rng)
    if rng.random() < 0.5:
        text = f"{a}{t}{{{b} + [{c}{t}({d} + {e})]}}"
        expr, ans = f"{a} * ({b} + ({c} * ({d} + {e})))", a * (b + c * (d + e))
    else:
        big = (c + d) * e + rng.randint(1, 30)
        text = f"{{{big} - [({c} + {d}){t}{e}]}} + {a}"
        expr, ans = f"({big} - (({c} + {d}) * {e})) + {a}", big - (c + d) * e + a
    q = pick(
        rng,
        (
            f"Evaluate the expression {text}.",
            f"Find {text}.",
            f"What number is {text}?",
            f"Use the order of operations: {text}",
            f"{text}, what do i do first with the braces and brackets",
            f"Simplify: {text}",
        ),
    )
    return _ask(rng, q), expr, str(ans)


def _oa_write(rng: random.Random) -> Made:
    a, b, c = rng.randint(2, 20), rng.randint(2, 20), rng.randint(2, 9)
    kind = rng.randrange(6)
    if kind == 0:
        phrase, expr, ans = (
            f"add {a} and {b}, then multiply by {c}",
            f"({a} + {b}) * {c}",
            (a + b) * c,
        )
    elif kind == 1:
        phrase, expr, ans = f"multiply {a} by {b}, then subtract {c}", f"{a} * {b} - {c}", a * b - c
    elif kind == 2:
        k = rng.randint(2, 12)
        a = b + c * k
        phrase, expr, ans = f"subtract {b} from {a}, then divide by {c}", f"({a} - {b}) / {c}", k
    elif kind == 3:
        a, b = max(a, b) + 1, min(a, b)
        phrase = f"{c} times the difference of {a} and {b}"
        expr, ans = f"{c} * ({a} - {b})", c * (a - b)
    elif kind == 4:
        b = b if (a + b) % 2 == 0 else b + 1
        phrase, expr, ans = f"half of the sum of {a} and {b}", f"({a} + {b}) / 2", (a + b) // 2
    else:
        phrase = f"add {c} to the product of {a} and {b}"
        expr, ans = f"{a} * {b} + {c}", a * b + c
    q = pick(
        rng,
        (
            f'Write an expression for "{phrase}" and evaluate it.',
            f'What is the value of the expression that records "{phrase}"?',
            f"Write the calculation {phrase} as an expression. What is its value?",
            f"how do i write {phrase} as an expression and what does it come out to",
            f'The teacher says: "{phrase}." Write this with parentheses and find the answer.',
            f"Write a numerical expression: {phrase}. Then find its value.",
        ),
    )
    return _ask(rng, q), expr, str(ans)


def _oa_interpret(rng: random.Random) -> Made:
    a, b = rng.randint(1000, 99999), rng.randint(100, 9999)
    k = rng.randint(2, 12)
    kind = rng.randrange(3)
    if kind == 0:
        text_big, text_small = f"{k} × ({_d(a)} + {_d(b)})", f"{_d(a)} + {_d(b)}"
        expr, ans = f"{k} * ({a} + {b}) / ({a} + {b})", str(k)
    elif kind == 1:
        text_big, text_small = f"({_d(a)} - {_d(b)}) × {k}", f"{_d(a)} - {_d(b)}"
        expr, ans = f"({a} - {b}) * {k} / ({a} - {b})", str(k)
    else:
        j = k * rng.randint(2, 4)
        text_big, text_small = f"{_d(a)} × {j}", f"{_d(a)} × {k}"
        expr, ans = f"{a} * {j} / ({a} * {k})", str(j // k)
    q = pick(
        rng,
        (
            f"Without calculating, how many times as large is {text_big} as {text_small}?",
            f"{text_big} is how many times as large as {text_small}? Do not compute the values.",
            f"Compare {text_big} and {text_small} without evaluating. The first is how many "
            "times the second?",
            f"how many times bigger is {text_big} than {text_small}, we arent allowed to "
            "work them out",
            f"Interpret the expressions: {text_big} is ___ times as large as {text_small}.",
        ),
    )
    return _ask(rng, q), expr, ans


def _oa_patterns(rng: random.Random) -> Made:
    a = rng.randint(1, 6)
    m = rng.randint(2, 4)
    b = a * m
    n = rng.randint(4, 8)
    kind = rng.randrange(3)
    rules = (
        f'Pattern A starts at 0 and uses the rule "add {a}". '
        f'Pattern B starts at 0 and uses the rule "add {b}".'
    )
    if kind == 0:
        q, expr, ans = (
            f"What is term {n} of pattern B (counting the 0 as term 1)?",
            f"{b} * ({n} - 1)",
            b * (n - 1),
        )
    elif kind == 1:
        q, expr, ans = (
            "Each term of pattern B is how many times the matching term of pattern A?",
            f"{b} / {a}",
            m,
        )
    else:
        v = a * n
        q, expr, ans = (
            f"When pattern A's term is {v}, what is the matching term in pattern B?",
            f"{v} / {a} * {b}",
            b * n,
        )
    lead = pick(
        rng,
        (
            "",
            "Generate both patterns. ",
            "Make a table of the two patterns. ",
            "ordered pairs question. ",
        ),
    )
    return _ask(rng, f"{lead}{rules} {q}"), expr, str(ans)


def _oa_patterns_story(rng: random.Random) -> Made:
    p, r = _two_names(rng)
    a = rng.randint(2, 6)
    m = rng.randint(2, 3)
    b = a * m
    unit, verb = pick(
        rng,
        (
            ("dollars", "saves"),
            ("pages", "reads"),
            ("laps", "swims"),
            ("stamps", "collects"),
            ("miles", "bikes"),
        ),
    )
    w = rng.randint(3, 9)
    setup = (
        f"{p} {verb} {a} {unit} each week and {r} {verb} {b} {unit} each week. Both start with 0."
    )
    kind = rng.randrange(3)
    if kind == 0:
        q, expr, ans = f"How many {unit} will {r} have after {w} weeks?", f"{b} * {w}", b * w
    elif kind == 1:
        q = f"When {p} has {a * w} {unit}, how many does {r} have?"
        expr, ans = f"{a * w} / {a} * {b}", b * w
    else:
        q = f"After {w} weeks, how many more {unit} does {r} have than {p}?"
        expr, ans = f"{b} * {w} - {a} * {w}", (b - a) * w
    tail = pick(
        rng, ("", " Make a table of the two patterns.", " Use ordered pairs (weeks, amount).")
    )
    return _ask(rng, f"{setup} {q}{tail}"), expr, str(ans)


# ---------------------------------------------------------------- 5.NBT

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


def _nbt_multiply_bare(rng: random.Random) -> Made:
    a = rng.randint(100, 9999)
    b = rng.randint(12, 999)
    q = pick(
        rng,
        (
            f"{a}{_x(rng)}{b} = ?",
            f"Multiply: {a}{_x(rng)}{b}",
            f"Find the product of {a} and {b}.",
            f"What is {a} times {b}?",
            f"use the standard algorithm {a}{_x(rng)}{b}",
            f"Solve. {b}{_x(rng)}{a}",
        ),
    )
    return _ask(rng, q), f"{a} * {b}", _d(a * b)


def _nbt_multiply_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(5)
    a, b = rng.randint(12, 99), rng.randint(100, 999)
    _, boxes = pick(rng, CONTAINERS)
    thing = pick(rng, THINGS)
    if kind == 0:
        q = f"A store gets {a} {boxes} with {b} {thing[1]} in each. How many {thing[1]} in all?"
    elif kind == 1:
        a, b = b, a
        q = f"{who}'s school prints {a} copies of a {b}-page booklet. How many pages are printed?"
    elif kind == 2:
        q = f"A theater has {a} rows with {b} seats in each row. How many seats are there?"
    elif kind == 3:
        q = f"Each ticket costs ${a}. The school sells {b} tickets. How many dollars is that?"
    else:
        q = f"A farm packs {b} eggs a day. How many eggs are packed in {a} days?"
    return _ask(rng, q), f"{a} * {b}", _d(a * b)


def _nbt_divide_bare(rng: random.Random) -> Made:
    d = rng.randint(11, 99)
    qt = rng.randint(12, 9999 // d)
    n = d * qt
    if rng.random() < 0.25:
        r = rng.randint(1, d - 1)
        n2 = n + r if n + r < 10000 else n - d + r
        q = pick(
            rng,
            (
                f"What is the remainder when {n2} is divided by {d}?",
                f"{n2} ÷ {d}: find the remainder.",
            ),
        )
        return _ask(rng, q), f"{n2} % {d}", str(n2 % d)
    q = pick(
        rng,
        (
            f"{n}{_div(rng)}{d} = ?",
            f"Divide: {n}{_div(rng)}{d}",
            f"Find the quotient of {n} and {d}.",
            f"What is {n} divided by {d}?",
            f"{d} × ? = {n}",
            f"how do you do long division {n}{_div(rng)}{d}",
        ),
    )
    return _ask(rng, q), f"{n} / {d}", str(qt)


def _nbt_divide_story(rng: random.Random) -> Made:
    d = rng.randint(12, 60)
    qt = rng.randint(11, 9999 // d)
    n = d * qt
    thing = pick(rng, THINGS)
    box, boxes = pick(rng, CONTAINERS)
    kind = rng.randrange(4)
    if kind == 0:
        q = (
            f"There are {n} {thing[1]} packed equally into {d} {boxes}. How many {thing[1]} are in "
            f"each {box}?"
        )
        return _ask(rng, q), f"{n} / {d}", str(qt)
    if kind == 1:
        q = (
            f"A factory puts {d} {thing[1]} in each {box}. How many {boxes} does it fill with {n} "
            f"{thing[1]}?"
        )
        return _ask(rng, q), f"{n} / {d}", str(qt)
    n2 = n + rng.randint(1, d - 1)
    if n2 > 9999:
        n2 = n - rng.randint(1, d - 1)
    if kind == 2:
        q = (
            f"{n2} students are going on a trip. Each bus holds {d} students. How many buses are "
            "needed?"
        )
        return _ask(rng, q), f"ceil({n2} / {d})", str(-(-n2 // d))
    q = (
        f"{_name(rng)} has {n2} {thing[1]} and fills {boxes} of {d}. How many {boxes} can be "
        "filled completely?"
    )
    return _ask(rng, q), f"{n2} // {d}", str(n2 // d)


def _nbt_decimal_bare(rng: random.Random) -> Made:
    op = rng.randrange(4)
    a, b = _dec(rng, 0, 99, rng.randint(1, 2)), _dec(rng, 0, 40, rng.randint(1, 2))
    if op == 0:
        text, expr, ans = f"{_d(a)} + {_d(b)}", f"{_d(a)} + {_d(b)}", a + b
    elif op == 1:
        a, b = max(a, b), min(a, b)
        text, expr, ans = f"{_d(a)} - {_d(b)}", f"{_d(a)} - {_d(b)}", a - b
    elif op == 2:
        a, b = (
            _dec(rng, 0, 9, 1),
            F(rng.randint(2, 9)) if rng.random() < 0.5 else _dec(rng, 0, 9, 1),
        )
        text, expr, ans = f"{_d(a)}{_x(rng)}{_d(b)}", f"{_d(a)} * {_d(b)}", a * b
    else:
        b = pick(rng, (F(rng.randint(2, 9)), F(1, 10), F(rng.randint(2, 9), 10)))
        ans = _dec(rng, 0, 20, 1)
        a = ans * b
        text, expr = f"{_d(a)}{_div(rng)}{_d(b)}", f"{_d(a)} / {_d(b)}"
    q = pick(
        rng,
        (
            f"{text} = ?",
            f"Find {text}.",
            f"Compute {text}.",
            f"what is {text}",
            f"Solve using place value: {text}",
            f"Work out {text} and check with an estimate.",
        ),
    )
    return _ask(rng, q), expr, _d(ans)


def _nbt_decimal_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(5)
    if kind == 0:
        p, n = _dec(rng, 1, 9, 2), rng.randint(2, 6)
        item = pick(rng, ("notebooks", "juice boxes", "markers", "sandwiches"))
        q = f"{who} buys {n} {item} at {_money(p)} each. How much does {who} spend, in dollars?"
        return _ask(rng, q), f"{n} * {_d(p)}", _d(n * p)
    if kind == 1:
        have, cost = _dec(rng, 10, 20, 2), _dec(rng, 1, 9, 2)
        q = f"{who} has {_money(have)} and buys a book for {_money(cost)}. How much money is left?"
        return _ask(rng, q), f"{_d(have)} - {_d(cost)}", _d(have - cost)
    if kind == 2:
        a, b = _dec(rng, 1, 5, 2), _dec(rng, 1, 5, 2)
        q = (
            f"{who} ran {_d(a)} km on Monday and {_d(b)} km on Tuesday. How far did {who} run in "
            "all?"
        )
        return _ask(rng, q), f"{_d(a)} + {_d(b)}", _d(a + b)
    if kind == 3:
        n = rng.randint(2, 8)
        each = _dec(rng, 0, 3, 2)
        total = each * n
        q = f"A {_d(total)} m ribbon is cut into {n} equal pieces. How long is each piece?"
        return _ask(rng, q), f"{_d(total)} / {n}", _d(each)
    w, ln = _dec(rng, 1, 9, 1), _dec(rng, 1, 9, 1)
    q = f"A rug is {_d(ln)} m long and {_d(w)} m wide. What is its area in square meters?"
    return _ask(rng, q), f"{_d(ln)} * {_d(w)}", _d(ln * w)


# ---------------------------------------------------------------- 5.NF

_DENS5 = (2, 3, 4, 5, 6, 8, 10, 12)


def _unlike(rng: random.Random) -> tuple[Fraction, Fraction]:
    while True:
        a, b = _frac(rng, _DENS5), _frac(rng, _DENS5)
        if a.denominator != b.denominator and a != b:
            return a, b


def _nf_unlike_bare(rng: random.Random) -> Made:
    a, b = _unlike(rng)
    kind = rng.randrange(4)
    if kind == 0:
        text, expr, ans = f"{_f(a)} + {_f(b)}", f"{_fe(a)} + {_fe(b)}", a + b
    elif kind == 1:
        a, b = max(a, b), min(a, b)
        text, expr, ans = f"{_f(a)} - {_f(b)}", f"{_fe(a)} - {_fe(b)}", a - b
    elif kind == 2:
        s = a + b
        text, expr, ans = f"{_f(a)} + ? = {_f(s)}", f"{_fe(s)} - {_fe(a)}", b
    else:
        a, b = max(a, b), min(a, b)
        text, expr, ans = f"? - {_f(b)} = {_f(a - b)}", f"{_fe(a - b)} + {_fe(b)}", a
    q = pick(
        rng,
        (
            f"{text}",
            f"Find {text}. Use equivalent fractions with a common denominator.",
            f"Solve: {text}",
            f"what is {text} in simplest form",
            f"Add or subtract. Write the answer in simplest form: {text}",
            f"how do you do {text} when the bottoms are different",
        ),
    )
    return _ask(rng, q), expr, _fa(rng, ans)


def _nf_mixed_bare(rng: random.Random) -> Made:
    a, b = _unlike(rng)
    wa, wb = rng.randint(1, 6), rng.randint(1, 5)
    x, y = wa + a, wb + b
    if rng.random() < 0.5:
        text, expr, ans = f"{_m(x)} + {_m(y)}", f"{_fe(x)} + {_fe(y)}", x + y
    else:
        x, y = max(x, y), min(x, y)
        text, expr, ans = f"{_m(x)} - {_m(y)}", f"{_fe(x)} - {_fe(y)}", x - y
    q = pick(
        rng,
        (
            f"{text} = ?",
            f"Find the sum or difference: {text}",
            f"Solve {text}. Write your answer as a mixed number.",
            f"{text} i dont know how to do mixed numbers with different denominators",
            f"Compute {text}.",
        ),
    )
    return _ask(rng, q), expr, _m(ans) if ans > 1 else _f(ans)


def _nf_add_story(rng: random.Random) -> Made:
    who = _name(rng)
    a, b = _unlike(rng)
    kind = rng.randrange(5)
    if kind == 0:
        q = (
            f"{who} walked {_f(a)} mile to the park and then {_f(b)} mile to the store. How far "
            f"did {who} walk in all?"
        )
        return _ask(rng, q), f"{_fe(a)} + {_fe(b)}", _fa(rng, a + b)
    if kind == 1:
        q = (
            f"{who} used {_f(a)} cup of flour and {_f(b)} cup of sugar. How many cups is that "
            "altogether?"
        )
        return _ask(rng, q), f"{_fe(a)} + {_fe(b)}", _fa(rng, a + b)
    a, b = max(a, b), min(a, b)
    if kind == 2:
        q = f"A ribbon is {_f(a)} yard long. {who} cuts off {_f(b)} yard. How much ribbon is left?"
        return _ask(rng, q), f"{_fe(a)} - {_fe(b)}", _f(a - b)
    if kind == 3:
        q = (
            f"{who} painted {_f(b)} of a fence in the morning. By evening {_f(a)} of the fence was "
            "painted. What fraction was painted in the afternoon?"
        )
        return _ask(rng, q), f"{_fe(a)} - {_fe(b)}", _f(a - b)
    p = _name(rng)
    q = (
        f"{who} ate {_f(b)} of a pizza and {p} ate {_f(a)} of the same pizza. How much more did "
        f"{p} eat?"
    )
    return _ask(rng, q), f"{_fe(a)} - {_fe(b)}", _f(a - b)


def _nf_left_story(rng: random.Random) -> Made:
    while True:
        a, b = _unlike(rng)
        if a + b < 1:
            break
    p, r = _two_names(rng)
    what = pick(
        rng, ("a pizza", "a pan of brownies", "a garden", "a cake", "the class's reading list")
    )
    q = pick(
        rng,
        (
            f"{p} ate {_f(a)} of {what} and {r} ate {_f(b)} of it. What fraction of {what} is "
            "left?",
            f"{p} used {_f(a)} of {what} and {r} used {_f(b)}. How much of {what} is left over?",
            f"{what} is shared: {p} gets {_f(a)}, {r} gets {_f(b)}, the rest is saved. what "
            "fraction is saved",
            f"{_f(a)} of {what} went to {p} and {_f(b)} went to {r}. Write an equation and find "
            "how much is left.",
        ),
    )
    return _ask(rng, q), f"1 - {_fe(a)} - {_fe(b)}", _f(1 - a - b)


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


# ---------------------------------------------------------------- 5.MD

# (big unit, small unit, small per big)
_CONV = (
    ("m", "cm", 100),
    ("m", "mm", 1000),
    ("cm", "mm", 10),
    ("km", "m", 1000),
    ("kg", "g", 1000),
    ("L", "mL", 1000),
    ("ft", "in", 12),
    ("yd", "ft", 3),
    ("yd", "in", 36),
    ("lb", "oz", 16),
    ("gal", "qt", 4),
    ("hr", "min", 60),
    ("min", "s", 60),
)


def _md_convert_bare(rng: random.Random) -> Made:
    big, small, k = pick(rng, _CONV)
    metric = k in (10, 100, 1000)
    if rng.random() < 0.5:
        x = _dec(rng, 1, 20, 1) if metric and rng.random() < 0.5 else F(rng.randint(2, 30))
        q = pick(
            rng,
            (
                f"Convert {_d(x)} {big} to {small}.",
                f"{_d(x)} {big} = ___ {small}",
                f"how many {small} in {_d(x)} {big}",
            ),
        )
        return _ask(rng, q), f"{_d(x)} * {k}", _d(x * k)
    if metric:
        x = F(rng.randint(1, 5000))
        ans = x / k
    else:
        ans = F(rng.randint(2, 12)) + F(pick(rng, (0, k // 2)) if k % 2 == 0 else 0, k)
        x = ans * k
    q = pick(
        rng,
        (
            f"Convert {_d(x)} {small} to {big}.",
            f"{_d(x)} {small} = ___ {big}",
            f"how many {big} is {_d(x)} {small}",
            f"Write {_d(x)} {small} in {big}.",
        ),
    )
    return _ask(rng, q), f"{_d(x)} / {k}", _d(ans)


def _md_convert_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(5)
    if kind == 0:
        m, piece = rng.randint(2, 9), pick(rng, (20, 25, 50))
        q = (
            f"{who} has a {m} m ribbon and cuts it into pieces {piece} cm long. How many pieces "
            "are there?"
        )
        return _ask(rng, q), f"{m} * 100 / {piece}", str(m * 100 // piece)
    if kind == 1:
        liters, glasses, ml = (
            rng.randint(2, 4),
            rng.randint(2, 5),
            pick(rng, (150, 200, 250, 300, 350)),
        )
        q = (
            f"A bottle holds {liters} L of water. {who} pours {glasses} glasses of {ml} mL. How "
            "many mL are left?"
        )
        return (
            _ask(rng, q),
            f"{liters} * 1000 - {glasses} * {ml}",
            str(liters * 1000 - glasses * ml),
        )
    if kind == 2:
        ft, inch = rng.randint(3, 8), rng.randint(1, 11)
        q = f"{who} is {ft} feet {inch} inches tall. How many inches tall is {who}?"
        return _ask(rng, q), f"{ft} * 12 + {inch}", str(ft * 12 + inch)
    if kind == 3:
        n, g = rng.randint(3, 12), pick(rng, (125, 250, 400, 500, 750))
        q = f"{who} buys {n} bags of flour, each {g} g. How many kilograms of flour is that?"
        return _ask(rng, q), f"{n} * {g} / 1000", _d(F(n * g, 1000))
    laps, m = rng.randint(4, 20), pick(rng, (200, 400, 250))
    q = f"{who} runs {laps} laps of a {m} m track. How many kilometers is that?"
    return _ask(rng, q), f"{laps} * {m} / 1000", _d(F(laps * m, 1000))


def _line_plot(rng: random.Random) -> tuple[list[Fraction], str]:
    den = pick(rng, (2, 4, 8))
    values = sorted(F(rng.randint(1, 2 * den), den) for _ in range(rng.randint(5, 9)))
    counts: dict[Fraction, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    shown = ", ".join(f"{_m(v)} ({c} X{'s' if c > 1 else ''})" for v, c in counts.items())
    return values, shown


def _md_line_plot(rng: random.Random) -> Made:
    values, shown = _line_plot(rng)
    unit, what = pick(
        rng,
        (("liter", "beakers"), ("cup", "cups"), ("inch", "seedlings"), ("pound", "bags of beans")),
    )
    kind = rng.randrange(3)
    lead = f"A line plot shows the amounts in {len(values)} {what}, in {unit}s: {shown}."
    if kind == 0:
        q = (
            f"{lead} If the total were shared equally among all the {what}, how much would each "
            "have?"
        )
        return (
            _ask(rng, q),
            f"mean({', '.join(_fe(v) for v in values)})",
            _fa(rng, sum(values, F(0)) / len(values)),
        )
    if kind == 1:
        q = f"{lead} What is the total amount?"
        return _ask(rng, q), " + ".join(_fe(v) for v in values), _fa(rng, sum(values, F(0)))
    q = f"{lead} What is the difference between the greatest and least amounts?"
    return (
        _ask(rng, q),
        f"max({', '.join(_fe(v) for v in values)}) - min({', '.join(_fe(v) for v in values)})",
        _fa(rng, values[-1] - values[0]),
    )


def _md_cubes_packed(rng: random.Random) -> Made:
    rows, per, layers = rng.randint(2, 6), rng.randint(2, 8), rng.randint(2, 6)
    layer = rows * per
    kind = rng.randrange(3)
    if kind == 0:
        q = (
            f"A box is packed with unit cubes, with no gaps or overlaps. Each layer has {layer} "
            f"cubes and there are {layers} layers. What is the volume in cubic units?"
        )
        return _ask(rng, q), f"{layer} * {layers}", str(layer * layers)
    if kind == 1:
        n = layer * layers
        q = pick(
            rng,
            (
                f"A solid is filled with {n} unit cubes with no gaps. What is its volume?",
                f"if it takes {n} unit cubes to fill a box what is the volume in cubic units",
            ),
        )
        return _ask(rng, q), str(n), str(n)
    a, b = layer * layers, rng.randint(4, 30)
    q = (
        f"Two solids are packed with {a} and {b} unit cubes. What is their total volume in cubic "
        "units?"
    )
    return _ask(rng, q), f"{a} + {b}", str(a + b)


def _md_count_cubes(rng: random.Random) -> Made:
    ln, w, h = rng.randint(2, 6), rng.randint(2, 5), rng.randint(2, 5)
    one, unit = pick(
        rng,
        (
            ("cubic centimeter", "cubic centimeters"),
            ("cubic inch", "cubic inches"),
            ("cubic foot", "cubic feet"),
            ("sugar cube", "sugar cubes"),
            ("die", "dice"),
        ),
    )
    q = pick(
        rng,
        (
            f"A figure is built from cubes: {h} layers, each {ln} cubes long and {w} cubes wide. "
            f"Each cube is one {one}. Count the volume in {unit}.",
            f"{_name(rng)} stacks {unit} into a box shape {ln} by {w} by {h}. How many {unit} is "
            "the volume?",
            f"Count the unit cubes: the bottom layer is {ln} rows of {w} and there are {h} layers. "
            f"What is the volume in {unit}?",
            f"how many {unit} are in a stack {ln} long {w} wide {h} tall",
        ),
    )
    return _ask(rng, q), f"{ln} * {w} * {h}", str(ln * w * h)


def _md_volume_pack(rng: random.Random) -> Made:
    ln, w, h = rng.randint(2, 9), rng.randint(2, 9), rng.randint(2, 9)
    kind = rng.randrange(3)
    if kind == 0:
        q = (
            f"A prism is packed with unit cubes: {ln} cubes along the length, {w} along the width "
            f"and {h} layers high. How many cubes fill it?"
        )
        return _ask(rng, q), f"{ln} * {w} * {h}", str(ln * w * h)
    if kind == 1:
        q = (
            f"({ln} × {w}) × {h} and {ln} × ({w} × {h}) both give the volume of a {ln} by {w} by "
            f"{h} "
            "prism. What is that volume?"
        )
        return _ask(rng, q), f"({ln} * {w}) * {h}", str(ln * w * h)
    q = (
        f"The base layer of a box holds {ln * w} unit cubes. The box is {h} cubes tall. How many "
        "unit cubes fill the box?"
    )
    return _ask(rng, q), f"{ln * w} * {h}", str(ln * w * h)


def _md_volume_formula_bare(rng: random.Random) -> Made:
    ln, w, h = rng.randint(2, 15), rng.randint(2, 12), rng.randint(2, 12)
    kind = rng.randrange(3)
    if kind == 0:
        q = pick(
            rng,
            (
                f"Find the volume of a rectangular prism with l = {ln}, w = {w}, h = {h}.",
                f"V = l × w × h. l = {ln} cm, w = {w} cm, h = {h} cm. Find V.",
                f"volume of a box {ln} by {w} by {h}",
            ),
        )
        return _ask(rng, q), f"{ln} * {w} * {h}", str(ln * w * h)
    if kind == 1:
        q = (
            f"A prism has a base area of {ln * w} square units and a height of {h} units. Use V = "
            "b "
            "× h to find its volume."
        )
        return _ask(rng, q), f"{ln * w} * {h}", str(ln * w * h)
    q = (
        f"A rectangular prism has volume {ln * w * h} cubic units, length {ln} and width {w}. What "
        "is its height?"
    )
    return _ask(rng, q), f"{ln * w * h} / ({ln} * {w})", str(h)


def _md_volume_story(rng: random.Random) -> Made:
    who = _name(rng)
    ln, w, h = rng.randint(3, 20), rng.randint(2, 12), rng.randint(2, 10)
    what, unit = pick(
        rng,
        (
            ("fish tank", "inches"),
            ("sandbox", "feet"),
            ("shoe box", "inches"),
            ("storage bin", "inches"),
            ("garden bed", "feet"),
        ),
    )
    if rng.random() < 0.7:
        q = pick(
            rng,
            (
                f"{who}'s {what} is {ln} {unit} long, {w} {unit} wide and {h} {unit} high. What is "
                "its volume?",
                f"How much space is inside a {what} that measures {ln} {unit} by {w} {unit} by {h} "
                f"{unit}?",
                f"{who} fills a {what} {ln} {unit} long, {w} wide and {h} deep. how many cubic "
                f"{unit} does it hold",
            ),
        )
        return _ask(rng, q), f"{ln} * {w} * {h}", str(ln * w * h)
    q = (
        f"A {what} holds {ln * w * h} cubic {unit}. It is {ln} {unit} long and {w} {unit} wide. "
        "How "
        "tall is it?"
    )
    return _ask(rng, q), f"{ln * w * h} / ({ln} * {w})", str(h)


def _md_composite(rng: random.Random) -> Made:
    a = (rng.randint(2, 10), rng.randint(2, 8), rng.randint(2, 6))
    b = (rng.randint(2, 10), rng.randint(2, 8), rng.randint(2, 6))
    va, vb = a[0] * a[1] * a[2], b[0] * b[1] * b[2]
    who = _name(rng)
    q = pick(
        rng,
        (
            f"A solid is made of two rectangular prisms that do not overlap: one is {a[0]} × "
            f"{a[1]} × {a[2]} and the other is {b[0]} × {b[1]} × {b[2]}. What is the total volume?",
            f"{who} builds an L-shaped planter from two boxes, {a[0]} ft by {a[1]} ft by {a[2]} ft "
            f"and {b[0]} ft by {b[1]} ft by {b[2]} ft. How many cubic feet of soil fill it?",
            f"A building has two parts: {a[0]} m by {a[1]} m by {a[2]} m and {b[0]} m by {b[1]} m "
            f"by {b[2]} m. Find its volume.",
            f"find the volume of the shape made from a {a[0]} by {a[1]} by {a[2]} prism and a "
            f"{b[0]} by {b[1]} by {b[2]} prism",
        ),
    )
    return _ask(rng, q), f"{a[0]} * {a[1]} * {a[2]} + {b[0]} * {b[1]} * {b[2]}", str(va + vb)


# ---------------------------------------------------------------- 5.G


def _g_coordinates(rng: random.Random) -> Made:
    x, y = rng.randint(0, 10), rng.randint(0, 10)
    kind = rng.randrange(4)
    if kind == 0:
        q = pick(
            rng,
            (
                f"Point A is at ({x}, {y}). How far is it from the origin along the x-axis?",
                f"For the point ({x}, {y}), what is the x-coordinate?",
            ),
        )
        return _ask(rng, q), str(x), str(x)
    if kind == 1:
        q = (
            f"Start at the origin. Move {x} units right and {y} units up. What is the y-coordinate "
            "of the point?"
        )
        return _ask(rng, q), str(y), str(y)
    dx = rng.randint(1, 6)
    if kind == 2:
        q = f"Point P is at ({x}, {y}). It moves {dx} units up. What is its new y-coordinate?"
        return _ask(rng, q), f"{y} + {dx}", str(y + dx)
    q = (
        f"Point Q is at ({x}, {y}). Point R is {dx} units to the right of Q. What is the "
        "x-coordinate of R?"
    )
    return _ask(rng, q), f"{x} + {dx}", str(x + dx)


def _g_graph_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(3)
    if kind == 0:
        x, y1, y2 = rng.randint(0, 10), rng.randint(0, 6), rng.randint(7, 15)
        a, b = pick(
            rng, (("the school", "the library"), ("home", "the park"), ("the pool", "the gym"))
        )
        q = (
            f"On a town map, {a} is at ({x}, {y1}) and {b} is at ({x}, {y2}). Each unit is one "
            "block. How many blocks apart are they?"
        )
        return _ask(rng, q), f"{y2} - {y1}", str(y2 - y1)
    if kind == 1:
        rate, h = rng.randint(5, 15), rng.randint(2, 8)
        q = (
            f"{who} graphs (hours worked, dollars earned). One point is ({h}, {rate * h}). How "
            f"many dollars does {who} earn per hour?"
        )
        return _ask(rng, q), f"{rate * h} / {h}", str(rate)
    d1, d2 = rng.randint(1, 5), rng.randint(6, 12)
    h1, h2 = rng.randint(2, 10), rng.randint(11, 30)
    q = (
        f"A plant's growth is graphed as (day, height in cm). The points ({d1}, {h1}) and ({d2}, "
        f"{h2}) are on the graph. How many cm did it grow from day {d1} to day {d2}?"
    )
    return _ask(rng, q), f"{h2} - {h1}", str(h2 - h1)


def _g_attributes(rng: random.Random) -> Made:
    s = rng.randint(2, 20)
    t = rng.randint(2, 20)
    kind = rng.randrange(4)
    if kind == 0:
        q = (
            "All rhombuses have four equal sides, and every square is a rhombus. A square has a "
            f"side of {s} cm. What is its perimeter?"
        )
        return _ask(rng, q), f"4 * {s}", str(4 * s)
    if kind == 1:
        q = (
            "Opposite sides of a parallelogram are equal, and a rectangle is a parallelogram. A "
            f"rectangle has sides {s} and {t}. What is its perimeter?"
        )
        return _ask(rng, q), f"2 * ({s} + {t})", str(2 * (s + t))
    if kind == 2:
        ang = rng.randint(40, 140)
        q = (
            "Opposite angles of a parallelogram are equal, and a rhombus is a parallelogram. One "
            f"angle of a rhombus is {ang} degrees. What is the angle opposite it?"
        )
        return _ask(rng, q), str(ang), str(ang)
    q = pick(
        rng,
        (
            "All rectangles have four right angles, and every square is a rectangle. How many "
            "degrees do the four angles of a square add up to?",
            "A square is a special rectangle, and rectangles have four right angles. What is the "
            "sum of the angles of a square, in degrees?",
        ),
    )
    return _ask(rng, q), "4 * 90", "360"


def _g_classify(rng: random.Random) -> Made:
    desc, name = pick(
        rng,
        (
            ("four equal sides and four right angles", "square"),
            ("exactly one pair of parallel sides", "trapezoid"),
            ("four equal sides but no right angles", "rhombus"),
            (
                "two pairs of parallel sides and four right angles, with sides that are not all "
                "equal",
                "rectangle",
            ),
            (
                "two pairs of parallel sides, no right angles and sides not all equal",
                "parallelogram",
            ),
            ("three sides", "triangle"),
        ),
    )
    q = pick(
        rng,
        (
            f"What is the most specific name for a shape with {desc}?",
            f"Classify the figure: it has {desc}.",
            f"a shape has {desc}, what is it called",
        ),
    )
    return _ask(rng, q), repr(name), name


# ---------------------------------------------------------------- 6.RP


def _rp_ratio_story(rng: random.Random) -> Made:
    a, b = rng.randint(1, 5), rng.randint(1, 5)
    if a == b:
        b += 1
    k = rng.randint(2, 9)
    x, y = pick(
        rng,
        (
            ("pencils", "erasers"),
            ("boys", "girls"),
            ("red beads", "blue beads"),
            ("cups of water", "cups of juice"),
            ("dogs", "cats"),
            ("votes for Ana", "votes for Ben"),
        ),
    )
    kind = rng.randrange(3)
    if kind == 0:
        q = f"The ratio of {x} to {y} is {a}:{b}. If there are {a * k} {x}, how many {y} are there?"
        return _ask(rng, q), f"{a * k} / {a} * {b}", str(b * k)
    if kind == 1:
        q = f"There are {a * k} {x} and {b * k} {y}. For every {a} {x}, how many {y} are there?"
        return _ask(rng, q), f"{b * k} / ({a * k} / {a})", str(b)
    q = f"For every {a} {x} there are {b} {y}. There are {(a + b) * k} in all. How many are {y}?"
    return _ask(rng, q), f"{(a + b) * k} / ({a} + {b}) * {b}", str(b * k)


def _rp_simplify(rng: random.Random) -> Made:
    a, b = rng.randint(1, 9), rng.randint(1, 9)
    g = gcd(a, b)
    a, b = a // g, b // g
    k = rng.randint(2, 12)
    q = pick(
        rng,
        (
            f"Write the ratio {a * k}:{b * k} in simplest form as {a}:?. What is the missing "
            "number?",
            f"{a * k} to {b * k} is the same ratio as {a} to what?",
            f"simplify the ratio {a * k}:{b * k}, what is the second number",
            f"Find the missing value: {a * k}:{b * k} = {a}:?",
        ),
    )
    return _ask(rng, q), f"{b * k} / gcd({a * k}, {b * k})", str(b)


def _rp_unit_rate_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(4)
    if kind == 0:
        a, b = rng.sample(range(1, 10), 2)
        q = (
            f"A recipe uses {a} cups of flour for every {b} cups of sugar. How many cups of flour "
            "is that per cup of sugar?"
        )
        return _ask(rng, q), f"{a} / {b}", _fa(rng, F(a, b))
    n, r = rng.randint(2, 12), rng.randint(2, 15)
    if kind == 1:
        q = (
            f"{who} pays ${n * r} for {n} pounds of apples. What is the price per pound, in "
            "dollars?"
        )
        return _ask(rng, q), f"{n * r} / {n}", str(r)
    if kind == 2:
        q = (
            f"A car goes {n * r * 5} miles on {n} gallons of gas. How many miles per gallon is "
            "that?"
        )
        return _ask(rng, q), f"{n * r * 5} / {n}", str(r * 5)
    q = f"{who} types {n * r * 3} words in {n} minutes. What is the rate in words per minute?"
    return _ask(rng, q), f"{n * r * 3} / {n}", str(r * 3)


def _rp_unit_rate_bare(rng: random.Random) -> Made:
    n, r = rng.randint(2, 12), rng.randint(2, 20)
    u1, u2 = pick(
        rng,
        (
            ("miles", "hours"),
            ("dollars", "pounds"),
            ("pages", "days"),
            ("beats", "minutes"),
            ("liters", "minutes"),
        ),
    )
    q = pick(
        rng,
        (
            f"Find the unit rate: {n * r} {u1} in {n} {u2}.",
            f"What is the unit rate for {n * r} {u1} per {n} {u2}?",
            f"{n * r} {u1} : {n} {u2}. How many {u1} for 1 {u2[:-1]}?",
            f"unit rate of {n * r} {u1} for every {n} {u2}",
        ),
    )
    return _ask(rng, q), f"{n * r} / {n}", str(r)


def _rp_table_bare(rng: random.Random) -> Made:
    a, b = rng.sample(range(2, 10), 2)
    ks = sorted(rng.sample(range(1, 10), 4))
    miss = rng.randrange(4)
    xs = [a * k for k in ks]
    ys = [b * k for k in ks]
    if rng.random() < 0.5:
        shown_y = ["?" if i == miss else str(v) for i, v in enumerate(ys)]
        table = f"x: {', '.join(map(str, xs))}; y: {', '.join(shown_y)}"
        expr, ans = f"{xs[miss]} / {a} * {b}", ys[miss]
    else:
        shown_x = ["?" if i == miss else str(v) for i, v in enumerate(xs)]
        table = f"x: {', '.join(shown_x)}; y: {', '.join(map(str, ys))}"
        expr, ans = f"{ys[miss]} / {b} * {a}", xs[miss]
    q = pick(
        rng,
        (
            f"The table shows equivalent ratios. {table}. Find the missing value.",
            f"Complete the ratio table: {table}",
            f"whats the missing number in this ratio table {table}",
            f"Find ? in the table of equivalent ratios ({table}).",
        ),
    )
    return _ask(rng, q), expr, str(ans)


def _rp_table_story(rng: random.Random) -> Made:
    a, b = rng.sample(range(2, 9), 2)
    k = rng.randint(3, 12)
    x, y = pick(
        rng,
        (
            ("lemons", "cups of water"),
            ("scoops of mix", "liters of water"),
            ("cups of rice", "cups of water"),
            ("tickets", "dollars"),
        ),
    )
    if rng.random() < 0.5:
        q = (
            f"A table shows {a} {x} for {b} {y}, {2 * a} {x} for {2 * b} {y}, and so on. "
            f"How many {y} go with {a * k} {x}?"
        )
        return _ask(rng, q), f"{a * k} / {a} * {b}", str(b * k)
    q = (
        f"{_name(rng)} makes a table of equivalent ratios: {a} {x} to {b} {y}. "
        f"How many {x} are needed for {b * k} {y}?"
    )
    return _ask(rng, q), f"{b * k} / {b} * {a}", str(a * k)


def _rp_unit_price_story(rng: random.Random) -> Made:
    who = _name(rng)
    n = rng.randint(2, 8)
    each = _dec(rng, 1, 6, 2) if rng.random() < 0.5 else F(rng.randint(2, 12))
    m = rng.randint(n + 1, 20)
    item = pick(
        rng,
        ("pounds of grapes", "notebooks", "bottles of water", "yards of fabric", "movie tickets"),
    )
    if rng.random() < 0.6:
        q = (
            f"{n} {item} cost {_money(each * n)}. At the same rate, how much does {who} pay "
            f"for {m} {item}, in dollars?"
        )
        return _ask(rng, q), f"{_d(each * n)} / {n} * {m}", _d(each * m)
    other = each + pick(rng, (F(1, 4), F(1, 2), F(-1, 4)))
    m2 = rng.randint(2, 8)
    q = (
        f"Store A sells {n} {item} for {_money(each * n)}. "
        f"Store B sells {m2} for {_money(other * m2)}. What is the lower price for one, in dollars?"
    )
    return _ask(rng, q), f"min({_d(each * n)} / {n}, {_d(other * m2)} / {m2})", _d(min(each, other))


def _rp_speed_story(rng: random.Random) -> Made:
    who = _name(rng)
    t, r = rng.randint(2, 8), rng.randint(3, 70)
    t2 = rng.randint(2, 12)
    kind = rng.randrange(3)
    if kind == 0:
        q = (
            f"{who} drives {r * t} miles in {t} hours. At that speed, how far does {who} drive in "
            f"{t2} hours?"
        )
        return _ask(rng, q), f"{r * t} / {t} * {t2}", str(r * t2)
    if kind == 1:
        lawns, m = rng.randint(2, 8), rng.randint(2, 6)
        q = (
            f"It took {who} {t} hours to mow {lawns} lawns. At that rate, how many lawns "
            f"can {who} mow in {t * m} hours?"
        )
        return _ask(rng, q), f"{lawns} / {t} * {t * m}", str(lawns * m)
    q = (
        f"A train goes {r * t} km in {t} hours. How long does it take to go {r * t2} km at the "
        "same speed, in hours?"
    )
    return _ask(rng, q), f"{r * t2} / ({r * t} / {t})", str(t2)


def _rp_percent_bare(rng: random.Random) -> Made:
    p = pick(rng, (5, 10, 20, 25, 30, 40, 50, 60, 75, 80, 15, 35))
    whole = 20 * rng.randint(1, 25)
    part = F(p * whole, 100)
    kind = rng.randrange(3)
    if kind == 0:
        q = pick(
            rng,
            (f"What is {p}% of {whole}?", f"Find {p}% of {whole}.", f"{p} percent of {whole} = ?"),
        )
        return _ask(rng, q), f"{p} / 100 * {whole}", _d(part)
    if kind == 1:
        q = pick(
            rng,
            (
                f"{_d(part)} is {p}% of what number?",
                f"{p}% of a number is {_d(part)}. Find the number.",
            ),
        )
        return _ask(rng, q), f"{_d(part)} / ({p} / 100)", str(whole)
    q = pick(
        rng,
        (f"What percent of {whole} is {_d(part)}?", f"{_d(part)} out of {whole} is what percent?"),
    )
    return _ask(rng, q), f"{_d(part)} / {whole} * 100", str(p)


def _rp_percent_story(rng: random.Random) -> Made:
    who = _name(rng)
    p = pick(rng, (10, 20, 25, 30, 40, 50, 60, 75, 80))
    whole = 20 * rng.randint(1, 20)
    part = p * whole // 100
    kind = rng.randrange(4)
    if kind == 0:
        q = (
            f"A jacket costs ${whole}. It is on sale for {p}% off. How many dollars is the "
            "discount?"
        )
        return _ask(rng, q), f"{p} / 100 * {whole}", str(part)
    if kind == 1:
        q = (
            f"{who} has read {part} pages, which is {p}% of the book. How many pages are in the "
            "book?"
        )
        return _ask(rng, q), f"{part} / ({p} / 100)", str(whole)
    if kind == 2:
        q = f"{who} got {part} out of {whole} questions right. What percent is that?"
        return _ask(rng, q), f"{part} / {whole} * 100", str(p)
    q = f"{p}% of the {whole} students in the school walk to school. How many students walk?"
    return _ask(rng, q), f"{p} / 100 * {whole}", str(part)


def _rp_convert(rng: random.Random) -> Made:
    kind = rng.randrange(5)
    if kind == 0:
        n = rng.randint(2, 30)
        q = pick(
            rng,
            (
                f"1 inch = 2.54 cm. How many cm are in {n} inches?",
                f"convert {n} inches to centimeters (1 in = 2.54 cm)",
            ),
        )
        return _ask(rng, q), f"{n} * 2.54", _d(n * F(254, 100))
    if kind == 1:
        m = 30 * rng.randint(2, 20)
        q = pick(rng, (f"How many hours are in {m} minutes?", f"Convert {m} minutes to hours."))
        return _ask(rng, q), f"{m} / 60", _d(F(m, 60))
    if kind == 2:
        r = rng.randint(1, 5) * 60
        q = f"A car travels {r} miles per hour. How many miles is that per minute?"
        return _ask(rng, q), f"{r} / 60", str(r // 60)
    if kind == 3:
        y = rng.randint(2, 40)
        q = f"A garden is {y} yards long. How many feet is that? (3 feet = 1 yard)"
        return _ask(rng, q), f"{y} * 3", str(3 * y)
    c = rng.randint(2, 12) * 4
    q = f"{_name(rng)} needs {c} cups of punch. How many quarts is that? (4 cups = 1 quart)"
    return _ask(rng, q), f"{c} / 4", str(c // 4)


# ---------------------------------------------------------------- 6.NS

_DENS6 = (2, 3, 4, 5, 6, 8, 9, 10, 12)


def _ns_fraction_div_bare(rng: random.Random) -> Made:
    a = _frac(rng, _DENS6, proper=rng.random() < 0.7)
    b = _frac(rng, _DENS6)
    q = pick(
        rng,
        (
            f"{_f(a)} ÷ {_f(b)} = ?",
            f"Divide: {_m(a)} ÷ {_f(b)}",
            f"Find the quotient of {_f(a)} and {_f(b)}.",
            f"how do you do {_f(a)} divided by {_f(b)}",
            f"Compute ({_f(a)}) ÷ ({_f(b)}). Check with multiplication.",
        ),
    )
    return _ask(rng, q), f"{_fe(a)} / {_fe(b)}", _fa(rng, a / b)


def _ns_fraction_div_story(rng: random.Random) -> Made:
    who = _name(rng)
    a, b = _frac(rng, _DENS6, proper=rng.random() < 0.5), _frac(rng, (2, 3, 4, 6, 8))
    kind = rng.randrange(4)
    if kind == 0:
        q = f"How many {_f(b)}-cup servings are in {_m(a)} cup of yogurt?"
    elif kind == 1:
        sq = plural(("square mile", "square miles"), a)
        q = (
            f"A rectangular strip of land has an area of {_m(a)} {sq} and a length of {_f(b)} "
            "mile. How wide is it?"
        )
    elif kind == 2:
        q = (
            f"{who} has {_m(a)} yards of ribbon and cuts pieces {_f(b)} yard long. How many pieces "
            f"can {who} make?"
        )
    else:
        q = f"{who} walks {_m(a)} mile in {_f(b)} hour. How many miles is that per hour?"
    return _ask(rng, q), f"{_fe(a)} / {_fe(b)}", _fa(rng, a / b)


def _ns_long_div_bare(rng: random.Random) -> Made:
    d = rng.randint(12, 499)
    qt = rng.randint(21, 999)
    n = d * qt
    q = pick(
        rng,
        (
            f"{_d(n)} ÷ {d} = ?",
            f"Divide using the standard algorithm: {_d(n)} ÷ {d}",
            f"What is {_d(n)} divided by {d}?",
            f"long division {n} / {d}",
            f"Find the quotient: {_d(n)} ÷ {d}.",
        ),
    )
    return _ask(rng, q), f"{n} / {d}", str(qt)


def _ns_long_div_story(rng: random.Random) -> Made:
    d = rng.randint(12, 144)
    qt = rng.randint(21, 600)
    n = d * qt
    thing = pick(rng, THINGS)
    box, boxes = pick(rng, CONTAINERS)
    q = pick(
        rng,
        (
            f"A factory packs {_d(n)} {thing[1]} into {boxes} of {d}. How many {boxes} does it "
            "fill?",
            f"{_d(n)} {thing[1]} are shared equally among {d} {boxes}. How many go in each {box}?",
            f"A school raised ${_d(n)} for {d} classes, split equally. How many dollars does each "
            "class get?",
            f"{_d(n)} people are seated at {d} equal sections in a stadium. how many people per "
            "section",
        ),
    )
    return _ask(rng, q), f"{n} / {d}", str(qt)


def _ns_decimal_bare(rng: random.Random) -> Made:
    op = rng.randrange(4)
    if op == 0:
        a, b = _dec(rng, 10, 999, rng.randint(1, 3)), _dec(rng, 1, 999, rng.randint(1, 3))
        text, expr, ans = f"{_d(a)} + {_d(b)}", f"{_d(a)} + {_d(b)}", a + b
    elif op == 1:
        a, b = _dec(rng, 100, 999, rng.randint(1, 3)), _dec(rng, 1, 99, rng.randint(1, 3))
        text, expr, ans = f"{_d(a)} - {_d(b)}", f"{_d(a)} - {_d(b)}", a - b
    elif op == 2:
        a, b = _dec(rng, 1, 99, rng.randint(1, 2)), _dec(rng, 1, 20, rng.randint(1, 2))
        text, expr, ans = f"{_d(a)} × {_d(b)}", f"{_d(a)} * {_d(b)}", a * b
    else:
        b = _dec(rng, 1, 20, 1)
        ans = _dec(rng, 1, 99, rng.randint(0, 2))
        a = ans * b
        text, expr = f"{_d(a)} ÷ {_d(b)}", f"{_d(a)} / {_d(b)}"
    q = pick(
        rng,
        (
            f"{text} = ?",
            f"Compute {text}.",
            f"Find {text} using the standard algorithm.",
            f"whats {text}",
            f"Solve: {text}",
        ),
    )
    return _ask(rng, q), expr, _d(ans)


def _ns_decimal_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(4)
    if kind == 0:
        price, lbs = _dec(rng, 1, 9, 2), _dec(rng, 1, 5, 1)
        q = (
            f"Cheese costs {_money(price)} per pound. {who} buys {_d(lbs)} pounds. How much does "
            "it cost, in dollars?"
        )
        return _ask(rng, q), f"{_d(price)} * {_d(lbs)}", _d(price * lbs)
    if kind == 1:
        each = _dec(rng, 1, 30, 2)
        n = rng.randint(3, 12)
        q = (
            f"{n} friends split a bill of {_money(each * n)} equally. How much does each pay, in "
            "dollars?"
        )
        return _ask(rng, q), f"{_d(each * n)} / {n}", _d(each)
    if kind == 2:
        a, b, c = _dec(rng, 10, 99, 2), _dec(rng, 10, 99, 2), _dec(rng, 1, 9, 2)
        q = (
            f"{who} buys groceries for {_money(a)}, a shirt for {_money(b)} and a card for "
            f"{_money(c)}. What is the total, in dollars?"
        )
        return _ask(rng, q), f"{_d(a)} + {_d(b)} + {_d(c)}", _d(a + b + c)
    g = _dec(rng, 5, 15, 1)
    per = _dec(rng, 20, 40, 1)
    q = f"A car goes {_d(per)} miles per gallon. How far can it go on {_d(g)} gallons?"
    return _ask(rng, q), f"{_d(per)} * {_d(g)}", _d(per * g)


def _ns_gcf_bare(rng: random.Random) -> Made:
    g = rng.randint(2, 15)
    a, b = g * rng.randint(1, 100 // g), g * rng.randint(1, 100 // g)
    if a == b:
        b = g if a != g else 2 * g
    q = pick(
        rng,
        (
            f"Find the greatest common factor of {a} and {b}.",
            f"What is the GCF of {a} and {b}?",
            f"gcf of {a} and {b}",
            f"What is the greatest number that divides both {a} and {b}?",
        ),
    )
    return _ask(rng, q), f"gcd({a}, {b})", str(gcd(a, b))


def _ns_lcm_bare(rng: random.Random) -> Made:
    a, b = rng.sample(range(2, 13), 2)
    q = pick(
        rng,
        (
            f"Find the least common multiple of {a} and {b}.",
            f"What is the LCM of {a} and {b}?",
            f"lcm of {a} and {b}",
            f"What is the smallest number that is a multiple of both {a} and {b}?",
        ),
    )
    return _ask(rng, q), f"lcm({a}, {b})", str(a * b // gcd(a, b))


def _ns_gcf_lcm_story(rng: random.Random) -> Made:
    who = _name(rng)
    if rng.random() < 0.5:
        g = rng.randint(2, 12)
        a, b = g * rng.randint(2, 8), g * rng.randint(2, 8)
        if a == b:
            b += g
        x, y = pick(
            rng,
            (
                ("red beads", "blue beads"),
                ("pencils", "erasers"),
                ("apples", "oranges"),
                ("boys", "girls"),
            ),
        )
        q = (
            f"{who} has {a} {x} and {b} {y} and makes identical groups with none left over. What "
            "is the greatest number of groups?"
        )
        return _ask(rng, q), f"gcd({a}, {b})", str(gcd(a, b))
    a, b = rng.sample(range(2, 13), 2)
    x, y = pick(rng, (("hot dogs", "buns"), ("plates", "cups"), ("juice boxes", "granola bars")))
    q = (
        f"{x.capitalize()} come in packs of {a} and {y} in packs of {b}. What is the least number "
        f"of each {who} can buy to have the same amount?"
    )
    return _ask(rng, q), f"lcm({a}, {b})", str(a * b // gcd(a, b))


def _ns_distributive(rng: random.Random) -> Made:
    g = rng.randint(2, 12)
    while True:
        m, n = rng.randint(1, 100 // g), rng.randint(1, 100 // g)
        if gcd(m, n) == 1 and m != n:
            break
    a, b = g * m, g * n
    if rng.random() < 0.5:
        q = pick(
            rng,
            (
                f"Use the GCF to write {a} + {b} as ?({m} + {n}). What goes in front?",
                f"{a} + {b} = ?({m} + {n})",
            ),
        )
        return _ask(rng, q), f"gcd({a}, {b})", str(g)
    q = pick(
        rng,
        (
            f"Write {a} + {b} as {g}(? + {n}). What is the missing number?",
            f"{a} + {b} = {g}(? + {n}), find the missing number",
        ),
    )
    return _ask(rng, q), f"{a} / {g}", str(m)


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


# ---------------------------------------------------------------- 6.EE


def _ee_exponent_bare(rng: random.Random) -> Made:
    b, e = rng.randint(2, 9), rng.randint(2, 4)
    if b > 5:
        e = 2
    kind = rng.randrange(4)
    if kind == 0:
        q = pick(rng, (f"Evaluate {b}^{e}.", f"What is {b} to the power of {e}?", f"{b}^{e} = ?"))
        return _ask(rng, q), f"{b} ** {e}", str(b**e)
    if kind == 1:
        rep = " × ".join([str(b)] * e)
        q = f"Write {rep} using an exponent, then evaluate it."
        return _ask(rng, q), f"{b} ** {e}", str(b**e)
    c, d = rng.randint(2, 9), rng.randint(2, 9)
    if kind == 2:
        q = f"Evaluate {b}^{e} + {c} × {d}."
        return _ask(rng, q), f"{b} ** {e} + {c} * {d}", str(b**e + c * d)
    q = f"Evaluate ({c} + {d})^2 - {b}."
    return _ask(rng, q), f"({c} + {d}) ** 2 - {b}", str((c + d) ** 2 - b)


def _ee_exponent_story(rng: random.Random) -> Made:
    who = _name(rng)
    b, e = rng.randint(2, 4), rng.randint(2, 5)
    kind = rng.randrange(3)
    if kind == 0:
        q = (
            f"{who} sends a message to {b} friends. Each of them sends it to {b} more, and so on. "
            f"How many people get it in round {e}? Write it as a power."
        )
        return _ask(rng, q), f"{b} ** {e}", str(b**e)
    s = rng.randint(2, 12)
    if kind == 1:
        q = f"A square tile has sides of {s} inches. Write its area as a power and find it."
        return _ask(rng, q), f"{s} ** 2", str(s * s)
    q = f"A cube-shaped box has edges of {s} cm. Find its volume using an exponent."
    return _ask(rng, q), f"{s} ** 3", str(s**3)


def _ee_write_expr(rng: random.Random) -> Made:
    v = pick(rng, ("x", "y", "n", "m", "p"))
    a, val = rng.randint(2, 20), rng.randint(1, 12)
    kind = rng.randrange(5)
    if kind == 0:
        phrase, expr, ans = f"subtract {v} from {a + val}", f"{a + val} - {val}", a
    elif kind == 1:
        phrase, expr, ans = f"the product of {a} and {v}", f"{a} * {val}", a * val
    elif kind == 2:
        val = val * 4
        phrase, expr, ans = f"{v} divided by 4", f"{val} / 4", val // 4
    elif kind == 3:
        phrase, expr, ans = f"{a} more than twice {v}", f"2 * {val} + {a}", 2 * val + a
    else:
        phrase, expr, ans = f"{a} less than {v} squared", f"{val} ** 2 - {a}", val * val - a
    q = pick(
        rng,
        (
            f'Write an expression for "{phrase}". Then find its value when {v} = {val}.',
            f"Write {phrase} as an expression and evaluate it for {v} = {val}.",
            f"how do you write {phrase}, and what is it if {v} is {val}",
            f"Expression: {phrase}. What is its value if {v} = {val}?",
        ),
    )
    return _ask(rng, q), expr, str(ans)


def _ee_parts(rng: random.Random) -> Made:
    a, b, c = rng.randint(2, 12), rng.randint(2, 12), rng.randint(1, 20)
    v, w = pick(rng, (("x", "y"), ("a", "b"), ("m", "n")))
    expr_text = f"{a}{v} + {b}{w} + {c}"
    kind = rng.randrange(4)
    if kind == 0:
        q = pick(
            rng,
            (
                f"What is the coefficient of {w} in {expr_text}?",
                f"In {expr_text}, what number is multiplied by {w}?",
            ),
        )
        return _ask(rng, q), str(b), str(b)
    if kind == 1:
        q = pick(
            rng,
            (
                f"What is the constant term in {expr_text}?",
                f"which part of {expr_text} is the constant",
            ),
        )
        return _ask(rng, q), str(c), str(c)
    if kind == 2:
        q = f"How many terms are in the expression {a}{v} + {b}{w} + {c} - {v}?"
        return _ask(rng, q), "4", "4"
    q = (
        f"The expression {a}({b} + {c}) is a product of two factors. What is the value of the "
        "second factor, the sum?"
    )
    return _ask(rng, q), f"{b} + {c}", str(b + c)


def _ee_evaluate_bare(rng: random.Random) -> Made:
    x, y = rng.randint(1, 10), rng.randint(1, 10)
    a, b = rng.randint(2, 9), rng.randint(1, 20)
    kind = rng.randrange(4)
    if kind == 0:
        text, expr, ans = f"{a}x + {b}", f"{a} * {x} + {b}", a * x + b
        at = f"x = {x}"
    elif kind == 1:
        text, expr, ans = f"{a}x^2 - {b}", f"{a} * {x} ** 2 - {b}", a * x * x - b
        at = f"x = {x}"
    elif kind == 2:
        text, expr, ans = f"{a}(x + y)", f"{a} * ({x} + {y})", a * (x + y)
        at = f"x = {x} and y = {y}"
    else:
        text, expr, ans = f"x^2 + {a}y", f"{x} ** 2 + {a} * {y}", x * x + a * y
        at = f"x = {x} and y = {y}"
    q = pick(
        rng,
        (
            f"Evaluate {text} when {at}.",
            f"Find the value of {text} for {at}.",
            f"if {at} what is {text}",
            f"Substitute {at} into {text}.",
        ),
    )
    return _ask(rng, q), expr, str(ans)


def _ee_formula_story(rng: random.Random) -> Made:
    kind = rng.randrange(4)
    if kind == 0:
        s = pick(rng, (F(1, 2), F(1, 3), F(2, 3), F(3, 2), F(rng.randint(2, 9))))
        q = f"Use V = s^3 to find the volume of a cube with side length s = {_f(s)} unit."
        return _ask(rng, q), f"{_fe(s)} ** 3", _f(s**3)
    if kind == 1:
        s = pick(rng, (F(1, 2), F(1, 3), F(rng.randint(2, 9))))
        q = f"Use A = 6s^2 to find the surface area of a cube with sides of length s = {_f(s)}."
        return _ask(rng, q), f"6 * {_fe(s)} ** 2", _fa(rng, 6 * s * s)
    ln, w = rng.randint(3, 30), rng.randint(2, 20)
    if kind == 2:
        q = f"The perimeter of a rectangle is P = 2l + 2w. Find P when l = {ln} and w = {w}."
        return _ask(rng, q), f"2 * {ln} + 2 * {w}", str(2 * ln + 2 * w)
    q = (
        f"Distance is d = rt. {_name(rng)} rides at r = {w} miles per hour for t = {ln % 6 + 1} "
        "hours. Find d."
    )
    return _ask(rng, q), f"{w} * {ln % 6 + 1}", str(w * (ln % 6 + 1))


def _ee_equivalent(rng: random.Random) -> Made:
    a, b = rng.randint(2, 9), rng.randint(1, 12)
    kind = rng.randrange(4)
    if kind == 0:
        q = pick(
            rng,
            (
                f"Use the distributive property: {a}({b} + x) = ? + {a}x. What is the missing "
                "number?",
                f"{a}({b} + x) = __ + {a}x",
            ),
        )
        return _ask(rng, q), f"{a} * {b}", str(a * b)
    if kind == 1:
        c, d = rng.randint(2, 9), rng.randint(2, 9)
        q = f"Factor: {a * c}x + {a * d}y = {a}({c}x + ?y). What is the missing number?"
        return _ask(rng, q), f"{a * d} / {a}", str(d)
    if kind == 2:
        n = rng.randint(2, 7)
        q = (
            f"Write {' + '.join(['y'] * n)} as an equivalent expression ?y. What is the "
            "coefficient?"
        )
        return _ask(rng, q), str(n), str(n)
    c = rng.randint(2, 9)
    q = f"Combine like terms: {a}x + {b} + {c}x. What is the coefficient of x?"
    return _ask(rng, q), f"{a} + {c}", str(a + c)


def _ee_equivalent_check(rng: random.Random) -> Made:
    a, b, x = rng.randint(2, 9), rng.randint(1, 9), rng.randint(1, 10)
    if rng.random() < 0.5:
        q = f"The expressions {a}(x + {b}) and {a}x + k are equivalent for every x. What is k?"
        return _ask(rng, q), f"{a} * {b}", str(a * b)
    q = (
        f"Check that {a}(x + {b}) and {a}x + {a * b} are equivalent: what value do both give when "
        f"x = {x}?"
    )
    return _ask(rng, q), f"{a} * ({x} + {b})", str(a * (x + b))


def _ee_substitute(rng: random.Random) -> Made:
    a, x = rng.randint(2, 9), rng.randint(1, 10)
    b = rng.randint(1, 20)
    c = a * x + b
    options = sorted({x, x + 1, x + 2, max(0, x - 1), x + 3})
    rng.shuffle(options)
    if rng.random() < 0.6:
        q = pick(
            rng,
            (
                f"Which value from {{{', '.join(map(str, options))}}} makes {a}x + {b} = {c} true?",
                f"Use substitution: which of {', '.join(map(str, options))} is a solution of {a}x "
                f"+ {b} = {c}?",
                f"which number makes {a}x + {b} = {c} true: {', '.join(map(str, options))}",
            ),
        )
        return _ask(rng, q), f"({c} - {b}) / {a}", str(x)
    t = pick(rng, options)
    q = f"Is x = {t} a solution of {a}x + {b} = {c}? Substitute and give the value of {a}x + {b}."
    return _ask(rng, q), f"{a} * {t} + {b}", str(a * t + b)


def _ee_variable_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(4)
    n, a, b = rng.randint(2, 15), rng.randint(2, 9), rng.randint(2, 30)
    if kind == 0:
        q = (
            f"{who} has n stickers. {who}'s brother has {a} more than 3 times as many. Write an "
            f"expression. How many does the brother have if n = {n}?"
        )
        return _ask(rng, q), f"3 * {n} + {a}", str(3 * n + a)
    if kind == 1:
        q = (
            f"A gym costs ${b} to join and ${a} per month. Write an expression for m months. What "
            f"is the cost for m = {n}?"
        )
        return _ask(rng, q), f"{b} + {a} * {n}", str(b + a * n)
    if kind == 2:
        q = (
            f"{who} shares c cookies equally among {a} friends. Write an expression. How many does "
            f"each friend get when c = {a * n}?"
        )
        return _ask(rng, q), f"{a * n} / {a}", str(n)
    q = (
        f"A movie ticket costs t dollars and popcorn costs ${a}. Write an expression for the "
        f"total. What is the total when t = {n}?"
    )
    return _ask(rng, q), f"{n} + {a}", str(n + a)


def _ee_solve_bare(rng: random.Random) -> Made:
    kind = rng.randrange(4)
    v = pick(rng, ("x", "n", "y", "a"))
    if kind == 0:
        p, x = rng.randint(1, 50), rng.randint(1, 80)
        eq, expr, ans = f"{v} + {p} = {p + x}", f"{p + x} - {p}", str(x)
    elif kind == 1:
        pd, xd = _dec(rng, 1, 20, 1), _dec(rng, 1, 20, 2)
        eq, expr, ans = f"{v} + {_d(pd)} = {_d(pd + xd)}", f"{_d(pd + xd)} - {_d(pd)}", _d(xd)
    elif kind == 2:
        p, x = rng.randint(2, 12), rng.randint(2, 30)
        eq, expr, ans = f"{p}{v} = {p * x}", f"{p * x} / {p}", str(x)
    else:
        pf, x = _frac(rng, (2, 3, 4, 5)), rng.randint(1, 20)
        eq, expr, ans = f"({_f(pf)}){v} = {_f(pf * x)}", f"{_fe(pf * x)} / {_fe(pf)}", str(x)
    q = pick(
        rng,
        (
            f"Solve {eq}.",
            f"{eq}. What is {v}?",
            f"Find {v}: {eq}",
            f"how do i solve {eq}",
            f"Solve for {v}. {eq}",
        ),
    )
    return _ask(rng, q), expr, ans


def _ee_solve_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(4)
    if kind == 0:
        n, each = rng.randint(2, 9), _dec(rng, 1, 9, 2)
        q = (
            f"{who} bought {n} notebooks for {_money(n * each)} in all. Write and solve {n}x = "
            f"{_d(n * each)} to find the cost of one, in dollars."
        )
        return _ask(rng, q), f"{_d(n * each)} / {n}", _d(each)
    if kind == 1:
        have, need = _dec(rng, 5, 40, 2), _dec(rng, 1, 20, 2)
        q = (
            f"{who} has {_money(have)} and needs {_money(have + need)} for a game. How much more "
            f"does {who} need, in dollars? (x + {_d(have)} = {_d(have + need)})"
        )
        return _ask(rng, q), f"{_d(have + need)} - {_d(have)}", _d(need)
    if kind == 2:
        x, p = rng.randint(20, 120), rng.randint(5, 60)
        q = (
            f"After {who} read {p} more pages, the total was {x + p} pages. How many pages had "
            f"{who} read before? Write an equation and solve."
        )
        return _ask(rng, q), f"{x + p} - {p}", str(x)
    f, x = _frac(rng, (2, 3, 4)), rng.randint(2, 12) * 4
    q = (
        f"{_f(f)} of the class is {_f(f * x)} students. How many students are in the class? Solve "
        f"{_f(f)}n = {_f(f * x)}."
    )
    if (f * x).denominator != 1:
        x = x * f.denominator
        q = (
            f"{_f(f)} of the class is {_f(f * x)} students. How many students are in the class? "
            f"Solve {_f(f)}n = {_f(f * x)}."
        )
    return _ask(rng, q), f"{_fe(f * x)} / {_fe(f)}", str(x)


def _ee_inequality(rng: random.Random) -> Made:
    c = rng.randint(5, 100)
    kind = rng.randrange(4)
    if kind == 0:
        q = pick(
            rng,
            (
                f"What is the smallest whole number that makes x > {c} true?",
                f"x > {c}. least whole number solution?",
            ),
        )
        return _ask(rng, q), f"{c} + 1", str(c + 1)
    if kind == 1:
        q = pick(
            rng,
            (
                f"What is the greatest whole number that makes x < {c} true?",
                f"biggest whole number for x < {c}",
            ),
        )
        return _ask(rng, q), f"{c} - 1", str(c - 1)
    d = _dec(rng, 1, 50, 1)
    if kind == 2:
        q = f"What is the least whole number that is a solution of x > {_d(d)}?"
        return _ask(rng, q), f"floor({_d(d)}) + 1", str(int(d) + 1)
    q = f"What is the greatest whole number that is a solution of x < {_d(d)}?"
    return _ask(rng, q), f"floor({_d(d)})", str(int(d))


def _ee_inequality_story(rng: random.Random) -> Made:
    who = _name(rng)
    c = rng.randint(30, 60)
    kind = rng.randrange(3)
    if kind == 0:
        q = (
            f"Riders must be taller than {c} inches (h > {c}). {who} measures in whole inches. "
            "What is the shortest height that is allowed?"
        )
        return _ask(rng, q), f"{c} + 1", str(c + 1)
    if kind == 1:
        q = (
            f"A elevator can carry fewer than {c} people (p < {c}). What is the greatest number of "
            "people allowed?"
        )
        return _ask(rng, q).replace("A elevator", "An elevator"), f"{c} - 1", str(c - 1)
    q = (
        f"A team needs more than {c} points to win (x > {c}). Points are whole numbers. What is "
        "the fewest points that wins?"
    )
    return _ask(rng, q), f"{c} + 1", str(c + 1)


def _ee_dependent_story(rng: random.Random) -> Made:
    who = _name(rng)
    r, t = rng.randint(5, 70), rng.randint(2, 9)
    kind = rng.randrange(3)
    if kind == 0:
        q = (
            f"A car travels at a constant speed: d = {r}t, where t is hours. How far does it go in "
            f"{t} hours?"
        )
        return _ask(rng, q), f"{r} * {t}", str(r * t)
    if kind == 1:
        q = (
            f"{who} earns ${r % 20 + 5} per hour. Write an equation for earnings e after h hours. "
            f"How much does {who} earn in {t} hours?"
        )
        return _ask(rng, q), f"{r % 20 + 5} * {t}", str((r % 20 + 5) * t)
    q = (
        f"The cost c of n tickets is c = {r % 15 + 3}n. If {who} spends ${(r % 15 + 3) * t}, how "
        f"many tickets did {who} buy?"
    )
    return _ask(rng, q), f"{(r % 15 + 3) * t} / {r % 15 + 3}", str(t)


def _ee_dependent_table(rng: random.Random) -> Made:
    k = rng.randint(2, 15)
    xs = sorted(rng.sample(range(1, 10), 3))
    table = "; ".join(f"x = {x}, y = {k * x}" for x in xs)
    if rng.random() < 0.5:
        q = f"The table shows y in terms of x: {table}. Write an equation y = kx. What is k?"
        return _ask(rng, q), f"{k * xs[0]} / {xs[0]}", str(k)
    n = rng.randint(10, 20)
    q = f"The table shows y in terms of x: {table}. What is y when x = {n}?"
    return _ask(rng, q), f"{k * xs[0]} / {xs[0]} * {n}", str(k * n)


# ---------------------------------------------------------------- 6.G


def _g6_area_bare(rng: random.Random) -> Made:
    b, h = rng.randint(2, 30), rng.randint(2, 30)
    kind = rng.randrange(4)
    if kind == 0:
        q = pick(
            rng,
            (
                f"Find the area of a triangle with base {b} and height {h}.",
                f"A right triangle has legs {b} cm and {h} cm. What is its area?",
                f"area of triangle b = {b}, h = {h}",
            ),
        )
        return _ask(rng, q), f"{b} * {h} / 2", _d(F(b * h, 2))
    if kind == 1:
        q = f"Find the area of a parallelogram with base {b} m and height {h} m."
        return _ask(rng, q), f"{b} * {h}", str(b * h)
    if kind == 2:
        a = rng.randint(2, 30)
        q = f"A trapezoid has parallel sides {a} and {b} and a height of {h}. What is its area?"
        return _ask(rng, q), f"({a} + {b}) / 2 * {h}", _d(F((a + b) * h, 2))
    d1, d2 = rng.randint(2, 20) * 2, rng.randint(2, 20)
    q = (
        f"A rhombus has diagonals of {d1} and {d2} inches. Decompose it into triangles to find its "
        "area."
    )
    return _ask(rng, q), f"{d1} * {d2} / 2", str(d1 * d2 // 2)


def _g6_area_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(3)
    if kind == 0:
        b, h = rng.randint(3, 20), rng.randint(3, 20)
        q = (
            f"A triangular sail has a base of {b} feet and a height of {h} feet. How much fabric "
            "is in the sail?"
        )
        return _ask(rng, q), f"{b} * {h} / 2", _d(F(b * h, 2))
    if kind == 1:
        L, W, l2, w2 = rng.randint(10, 20), rng.randint(8, 15), rng.randint(2, 7), rng.randint(2, 6)
        q = (
            f"{who}'s room is a {L} ft by {W} ft rectangle with a {l2} ft by {w2} ft closet cut "
            "out of one corner. What is the floor area?"
        )
        return _ask(rng, q), f"{L} * {W} - {l2} * {w2}", str(L * W - l2 * w2)
    a, b, h = rng.randint(4, 20), rng.randint(4, 20), rng.randint(3, 12)
    q = (
        f"A garden is shaped like a trapezoid with parallel sides {a} m and {b} m, {h} m apart. "
        "What is its area?"
    )
    return _ask(rng, q), f"({a} + {b}) * {h} / 2", _d(F((a + b) * h, 2))


def _g6_volume_bare(rng: random.Random) -> Made:
    dims = [_frac(rng, (2, 3, 4), proper=rng.random() < 0.4) for _ in range(3)]
    ln, w, h = dims
    if rng.random() < 0.3:
        c = F(1, 2) if all(x.denominator == 2 for x in dims) else F(1, 12)
        q = (
            f"How many cubes with edge {_f(c)} unit fill a prism {_m(ln)} by {_m(w)} by {_m(h)} "
            "units?"
        )
        return (
            _ask(rng, q),
            f"{_fe(ln)} * {_fe(w)} * {_fe(h)} / {_fe(c)} ** 3",
            str(ln * w * h / c**3),
        )
    q = pick(
        rng,
        (
            f"Find the volume of a rectangular prism with edges {_m(ln)}, {_m(w)} and {_m(h)} "
            "units.",
            f"V = lwh with l = {_m(ln)}, w = {_m(w)}, h = {_m(h)}. Find V.",
            f"volume of a box {_m(ln)} by {_m(w)} by {_m(h)}",
        ),
    )
    return _ask(rng, q), f"{_fe(ln)} * {_fe(w)} * {_fe(h)}", _fa(rng, ln * w * h)


def _g6_volume_story(rng: random.Random) -> Made:
    who = _name(rng)
    ln, w, h = (
        F(rng.randint(2, 8)) + F(1, 2),
        F(rng.randint(1, 6)),
        _frac(rng, (2, 4), proper=False),
    )
    what = pick(rng, ("jewelry box", "fish tank", "planter", "drawer", "gift box"))
    if rng.random() < 0.6:
        q = (
            f"{who}'s {what} is {_m(ln)} in. long, {_m(w)} in. wide and {_m(h)} in. tall. What is "
            "its volume in cubic inches?"
        )
        return _ask(rng, q), f"{_fe(ln)} * {_fe(w)} * {_fe(h)}", _fa(rng, ln * w * h)
    b = ln * w
    q = (
        f"The base of a {what} has area {_m(b)} square feet and its height is {_m(h)} feet. Use V "
        "= bh to find its volume."
    )
    return _ask(rng, q), f"{_fe(b)} * {_fe(h)}", _fa(rng, b * h)


def _g6_coords_bare(rng: random.Random) -> Made:
    x1, x2 = rng.randint(-9, -1), rng.randint(1, 9)
    y1, y2 = rng.randint(-9, -1), rng.randint(1, 9)
    pts = f"({x1}, {y2}), ({x2}, {y2}), ({x2}, {y1}) and ({x1}, {y1})"
    kind = rng.randrange(3)
    if kind == 0:
        q = f"A rectangle has vertices {pts}. What is its perimeter?"
        return (
            _ask(rng, q),
            f"2 * (abs({x2} - ({x1})) + abs({y2} - ({y1})))",
            str(2 * (x2 - x1 + y2 - y1)),
        )
    if kind == 1:
        q = f"Draw the rectangle with vertices {pts}. What is its area?"
        return _ask(rng, q), f"abs({x2} - ({x1})) * abs({y2} - ({y1}))", str((x2 - x1) * (y2 - y1))
    q = f"A polygon has vertices {pts}. How long is the side from ({x2}, {y2}) to ({x2}, {y1})?"
    return _ask(rng, q), f"abs({y2} - ({y1}))", str(y2 - y1)


def _g6_coords_story(rng: random.Random) -> Made:
    who = _name(rng)
    x1, x2 = rng.randint(-8, 0), rng.randint(1, 8)
    y1, y2 = rng.randint(-8, 0), rng.randint(1, 8)
    q = pick(
        rng,
        (
            f"{who} fences a rectangular garden with corners at ({x1}, {y1}), ({x2}, {y1}), ({x2}, "
            f"{y2}) and ({x1}, {y2}). Each unit is 1 meter. How much fence is needed?",
            f"A park on a map has corners ({x1}, {y1}), ({x2}, {y1}), ({x2}, {y2}), ({x1}, {y2}), "
            "units in yards. What is the perimeter of the park?",
        ),
    )
    return _ask(rng, q), f"2 * (({x2} - ({x1})) + ({y2} - ({y1})))", str(2 * (x2 - x1 + y2 - y1))


def _g6_surface_bare(rng: random.Random) -> Made:
    kind = rng.randrange(4)
    if kind == 0:
        ln, w, h = rng.randint(2, 12), rng.randint(2, 10), rng.randint(2, 10)
        q = f"Use a net to find the surface area of a rectangular prism {ln} by {w} by {h}."
        return (
            _ask(rng, q),
            f"2 * ({ln} * {w} + {ln} * {h} + {w} * {h})",
            str(2 * (ln * w + ln * h + w * h)),
        )
    if kind == 1:
        s = rng.randint(2, 12)
        q = f"The net of a cube is made of 6 squares with side {s} cm. What is the surface area?"
        return _ask(rng, q), f"6 * {s} ** 2", str(6 * s * s)
    if kind == 2:
        s = rng.randint(2, 12)
        sl = rng.randint(s // 2 + 1, s // 2 + 12)
        q = (
            f"A square pyramid has a base side of {s} m and triangular faces with slant height "
            f"{sl} m. Find its surface area from the net."
        )
        return _ask(rng, q), f"{s} ** 2 + 4 * ({s} * {sl} / 2)", str(s * s + 2 * s * sl)
    k, L = rng.randint(1, 3), rng.randint(4, 15)
    a, b, c = 3 * k, 4 * k, 5 * k
    q = (
        f"A triangular prism has right-triangle ends with sides {a}, {b} and {c} in. and a length "
        f"of {L} in. What is its surface area?"
    )
    return (
        _ask(rng, q),
        f"2 * ({a} * {b} / 2) + {L} * ({a} + {b} + {c})",
        str(a * b + L * (a + b + c)),
    )


def _g6_surface_story(rng: random.Random) -> Made:
    who = _name(rng)
    ln, w, h = rng.randint(4, 20), rng.randint(3, 15), rng.randint(2, 10)
    q = pick(
        rng,
        (
            f"{who} wraps a gift box {ln} in. by {w} in. by {h} in. How many square inches of "
            "paper "
            "cover it exactly?",
            f"How much cardboard is needed to make a closed box {ln} cm long, {w} cm wide and {h} "
            "cm tall?",
            f"{who} paints all six faces of a crate {ln} ft by {w} ft by {h} ft. how many square "
            "feet get painted",
        ),
    )
    return (
        _ask(rng, q),
        f"2 * ({ln} * {w} + {ln} * {h} + {w} * {h})",
        str(2 * (ln * w + ln * h + w * h)),
    )


# ---------------------------------------------------------------- 6.SP


def _data(rng: random.Random, n: int, lo: int, hi: int) -> list[int]:
    return sorted(rng.randint(lo, hi) for _ in range(n))


def _args(xs: Sequence[int | Fraction]) -> str:
    return ", ".join(str(x) for x in xs)


def _sp_center_spread(rng: random.Random) -> Made:
    xs = _data(rng, rng.randint(5, 9), 1, 40)
    shuffled = list(xs)
    rng.shuffle(shuffled)
    if rng.random() < 0.5:
        q = pick(
            rng,
            (
                "A measure of variation sums up how spread out data are in one number. Find the "
                f"range of {_args(shuffled)}.",
                f"What is the range of the data: {_args(shuffled)}?",
            ),
        )
        return _ask(rng, q), f"max({_args(shuffled)}) - min({_args(shuffled)})", str(xs[-1] - xs[0])
    q = pick(
        rng,
        (
            f"A measure of center sums up the data {_args(shuffled)} in one number. Find the "
            "median.",
            f"what single number is the middle of {_args(shuffled)}",
        ),
    )
    return (
        _ask(rng, q),
        f"median({_args(shuffled)})",
        _d(F(sorted(xs)[len(xs) // 2] + sorted(xs)[(len(xs) - 1) // 2], 2)),
    )


def _sp_plots(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    if kind == 0:
        counts = [rng.randint(0, 6) for _ in range(5)]
        start = rng.randint(0, 10)
        shown = ", ".join(f"{c} dots above {start + i}" for i, c in enumerate(counts))
        q = f"A dot plot shows {shown}. How many dots are there in all?"
        return _ask(rng, q), " + ".join(map(str, counts)), str(sum(counts))
    xs = _data(rng, rng.choice([7, 9, 11]), 10, 60)
    if kind == 1:
        q = f"Make a box plot of {_args(xs)}. Where is the line inside the box (the median)?"
        return _ask(rng, q), f"median({_args(xs)})", str(xs[len(xs) // 2])
    half = xs[: len(xs) // 2]
    q = f"For a box plot of {_args(xs)}, what is the lower quartile (the left edge of the box)?"
    return (
        _ask(rng, q),
        f"median({_args(half)})",
        _d(F(half[len(half) // 2] + half[(len(half) - 1) // 2], 2)),
    )


def _sp_histogram(rng: random.Random) -> Made:
    xs = _data(rng, rng.randint(8, 14), 10, 49)
    lo = pick(rng, (10, 20, 30, 40))
    count = sum(1 for x in xs if lo <= x <= lo + 9)
    shuffled = list(xs)
    rng.shuffle(shuffled)
    who = _name(rng)
    q = pick(
        rng,
        (
            f"{who} makes a histogram of these test scores with bins 10-19, 20-29, 30-39, 40-49: "
            f"{_args(shuffled)}. How tall is the bar for {lo}-{lo + 9}?",
            f"Data: {_args(shuffled)}. In a histogram with intervals of 10 starting at 10, how "
            f"many values are in the {lo}-{lo + 9} bar?",
        ),
    )
    ones = " + ".join("1" for x in shuffled if lo <= x <= lo + 9) or "0"
    return _ask(rng, q), ones, str(count)


def _sp_observations(rng: random.Random) -> Made:
    counts = [rng.randint(1, 12) for _ in range(rng.randint(3, 5))]
    what = pick(rng, ("pets", "siblings", "books read last week", "hours of sleep"))
    table = ", ".join(
        f"{c} {plural(('student', 'students'), c)} said {i + 1}" for i, c in enumerate(counts)
    )
    q = pick(
        rng,
        (
            f"A class survey asked about {what}: {table}. How many observations are in the data "
            "set?",
            f"Survey on {what}: {table}. how many students were surveyed",
            f"Report the number of observations: {table} (question: how many {what}?).",
        ),
    )
    return _ask(rng, q), " + ".join(map(str, counts)), str(sum(counts))


def _sp_measures(rng: random.Random) -> Made:
    n = rng.randint(4, 8)
    while True:
        xs = [rng.randint(1, 30) for _ in range(n - 1)]
        # The last value makes the mean a whole number, as worksheets usually do.
        last = rng.randint(max(xs) // 2, 25) * n - sum(xs)
        if last >= 0:
            xs.append(last)
            break
    rng.shuffle(xs)
    mean = F(sum(xs), n)
    s = sorted(xs)
    kind = rng.randrange(4)
    ctx = pick(
        rng,
        ("", "Points scored in games: ", "Minutes spent reading: ", "Heights of seedlings (cm): "),
    )
    if kind == 0:
        q = pick(rng, (f"{ctx}{_args(xs)}. Find the mean.", f"what is the mean of {_args(xs)}"))
        return _ask(rng, q), f"mean({_args(xs)})", _d(mean)
    if kind == 1:
        q = pick(rng, (f"{ctx}{_args(xs)}. Find the median.", f"median of {_args(xs)}?"))
        return _ask(rng, q), f"median({_args(xs)})", _d(_median(s))
    if kind == 2:
        lower, upper = s[: n // 2], s[(n + 1) // 2 :]
        q = pick(
            rng,
            (f"{ctx}{_args(xs)}. Find the interquartile range.", f"whats the IQR of {_args(xs)}"),
        )
        expr = f"median({_args(upper)}) - median({_args(lower)})"
        return _ask(rng, q), expr, _d(_median(upper) - _median(lower))
    mad = sum((abs(x - mean) for x in xs), F(0)) / n
    q = pick(
        rng,
        (
            f"{ctx}{_args(xs)}. Find the mean absolute deviation.",
            f"how do you find the MAD of {_args(xs)}",
        ),
    )
    expr = f"mean({', '.join(f'abs({x} - {mean})' for x in xs)})"
    return _ask(rng, q), expr, _d(mad) if (mad * 1000).denominator == 1 else _fa(rng, mad)


def _median(xs: Sequence[int]) -> Fraction:
    s = sorted(xs)
    return F(s[len(s) // 2] + s[(len(s) - 1) // 2], 2)


def _rp_convert_bare(rng: random.Random) -> Made:
    big, small, k = pick(rng, _CONV)
    n = rng.randint(2, 12)
    if rng.random() < 0.5:
        q = pick(
            rng,
            (
                f"Use the rate 1 {big} = {k} {small}. How many {small} are in {n} {big}?",
                f"{n} {big} = ? {small} (use a ratio table)",
                f"convert {n} {big} to {small} using ratio reasoning",
            ),
        )
        return _ask(rng, q), f"{n} * {k}", str(n * k)
    q = pick(
        rng,
        (
            f"The ratio of {small} to {big} is {k} to 1. How many {big} is {n * k} {small}?",
            f"{n * k} {small} = ? {big}",
            f"Use a double number line to convert {n * k} {small} to {big}.",
        ),
    )
    return _ask(rng, q), f"{n * k} / {k}", str(n)


def _sp_measures_story(rng: random.Random) -> Made:
    who = _name(rng)
    n = rng.randint(5, 7)
    xs = [rng.randint(2, 20) for _ in range(n)]
    what, unit = pick(
        rng,
        (
            ("scores on a quiz", "points"),
            ("hours of practice each week", "hours"),
            ("books read last month", "books"),
            ("minutes to walk to school", "minutes"),
        ),
    )
    lead = f"{who} collected the {what} of {n} friends: {_args(xs)} {unit}."
    if rng.random() < 0.5:
        q = f"{lead} What is the median?"
        return _ask(rng, q), f"median({_args(xs)})", _d(_median(xs))
    mean = F(sum(xs), n)
    q = f"{lead} What is the mean?"
    ans = _d(mean) if (mean * 1000).denominator == 1 else _fa(rng, mean)
    return _ask(rng, q), f"mean({_args(xs)})", ans


def _gen(name: str, kind: Kind, make: _Make) -> Generator:
    return Generator(name, "ccss:" + name.split("/", 1)[0], kind, make)


GENERATORS: tuple[Generator, ...] = (
    # grade 5
    _gen("5.OA.A.1/grouping-symbols", "bare", _oa_grouping),
    _gen("5.OA.A.1/nested-brackets", "bare", _oa_nested),
    _gen("5.OA.A.2/write-and-evaluate", "bare", _oa_write),
    _gen("5.OA.A.2/times-as-large", "bare", _oa_interpret),
    _gen("5.OA.B.3/two-rules", "bare", _oa_patterns),
    _gen("5.OA.B.3/two-rules-story", "word", _oa_patterns_story),
    _gen("5.NBT.A.1/times-as-much", "bare", _nbt_times_as_much),
    _gen("5.NBT.A.1/digit-value", "bare", _nbt_digit_value),
    _gen("5.NBT.A.2/powers-of-ten", "bare", _nbt_powers_bare),
    _gen("5.NBT.A.2/powers-of-ten-story", "word", _nbt_powers_story),
    _gen("5.NBT.A.3.a/expanded-form", "bare", _nbt_expanded),
    _gen("5.NBT.A.3.a/number-name", "bare", _nbt_number_name),
    _gen("5.NBT.A.3.b/compare", "bare", _nbt_compare_bare),
    _gen("5.NBT.A.3.b/compare-story", "word", _nbt_compare_story),
    _gen("5.NBT.A.4/round-decimal", "bare", _nbt_round_bare),
    _gen("5.NBT.A.4/round-story", "word", _nbt_round_story),
    _gen("5.NBT.B.5/multiply", "bare", _nbt_multiply_bare),
    _gen("5.NBT.B.5/multiply-story", "word", _nbt_multiply_story),
    _gen("5.NBT.B.6/divide", "bare", _nbt_divide_bare),
    _gen("5.NBT.B.6/divide-story", "word", _nbt_divide_story),
    _gen("5.NBT.B.7/decimal-operations", "bare", _nbt_decimal_bare),
    _gen("5.NBT.B.7/decimal-story", "word", _nbt_decimal_story),
    _gen("5.NF.A.1/unlike-denominators", "bare", _nf_unlike_bare),
    _gen("5.NF.A.1/mixed-numbers", "bare", _nf_mixed_bare),
    _gen("5.NF.A.2/add-subtract-story", "word", _nf_add_story),
    _gen("5.NF.A.2/left-over-story", "word", _nf_left_story),
    _gen("5.NF.B.3/share-story", "word", _nf_share_story),
    _gen("5.NF.B.3/fraction-as-division", "bare", _nf_as_division),
    _gen("5.NF.B.4.a/fraction-times-whole", "bare", _nf_times_whole),
    _gen("5.NF.B.4.a/fraction-times-fraction", "bare", _nf_times_fraction),
    _gen("5.NF.B.4.b/rectangle-area", "bare", _nf_area_bare),
    _gen("5.NF.B.4.b/rectangle-area-story", "word", _nf_area_story),
    _gen("5.NF.B.5.a/compare-product", "bare", _nf_scaling_compare),
    _gen("5.NF.B.5.a/resize-story", "word", _nf_scaling_story),
    _gen("5.NF.B.5.b/multiply-by-one", "bare", _nf_times_one),
    _gen("5.NF.B.6/multiply-story", "word", _nf_multiply_story),
    _gen("5.NF.B.7.a/unit-fraction-by-whole", "bare", _nf_unit_div_whole),
    _gen("5.NF.B.7.b/whole-by-unit-fraction", "bare", _nf_whole_div_unit),
    _gen("5.NF.B.7.c/share-story", "word", _nf_share_unit_story),
    _gen("5.NF.B.7.c/servings-story", "word", _nf_servings_story),
    _gen("5.MD.A.1/convert", "bare", _md_convert_bare),
    _gen("5.MD.A.1/convert-story", "word", _md_convert_story),
    _gen("5.MD.B.2/line-plot", "word", _md_line_plot),
    _gen("5.MD.C.3.b/packed-cubes", "word", _md_cubes_packed),
    _gen("5.MD.C.4/count-cubes", "word", _md_count_cubes),
    _gen("5.MD.C.5.a/pack-and-multiply", "bare", _md_volume_pack),
    _gen("5.MD.C.5.b/volume-formula", "bare", _md_volume_formula_bare),
    _gen("5.MD.C.5.b/volume-story", "word", _md_volume_story),
    _gen("5.MD.C.5.c/two-prisms", "word", _md_composite),
    _gen("5.G.A.1/coordinates", "bare", _g_coordinates),
    _gen("5.G.A.2/graph-story", "word", _g_graph_story),
    _gen("5.G.B.3/shared-attributes", "bare", _g_attributes),
    _gen("5.G.B.4/classify", "bare", _g_classify),
    # grade 6
    _gen("6.RP.A.1/ratio-story", "word", _rp_ratio_story),
    _gen("6.RP.A.1/simplest-ratio", "bare", _rp_simplify),
    _gen("6.RP.A.2/unit-rate-story", "word", _rp_unit_rate_story),
    _gen("6.RP.A.2/unit-rate", "bare", _rp_unit_rate_bare),
    _gen("6.RP.A.3.a/ratio-table", "bare", _rp_table_bare),
    _gen("6.RP.A.3.a/ratio-table-story", "word", _rp_table_story),
    _gen("6.RP.A.3.b/unit-price-story", "word", _rp_unit_price_story),
    _gen("6.RP.A.3.b/constant-speed-story", "word", _rp_speed_story),
    _gen("6.RP.A.3.c/percent", "bare", _rp_percent_bare),
    _gen("6.RP.A.3.c/percent-story", "word", _rp_percent_story),
    _gen("6.RP.A.3.d/convert-units", "word", _rp_convert),
    _gen("6.RP.A.3.d/convert-units-ratio", "bare", _rp_convert_bare),
    _gen("6.NS.A.1/divide-fractions", "bare", _ns_fraction_div_bare),
    _gen("6.NS.A.1/divide-fractions-story", "word", _ns_fraction_div_story),
    _gen("6.NS.B.2/long-division", "bare", _ns_long_div_bare),
    _gen("6.NS.B.2/long-division-story", "word", _ns_long_div_story),
    _gen("6.NS.B.3/decimal-operations", "bare", _ns_decimal_bare),
    _gen("6.NS.B.3/decimal-story", "word", _ns_decimal_story),
    _gen("6.NS.B.4/gcf", "bare", _ns_gcf_bare),
    _gen("6.NS.B.4/lcm", "bare", _ns_lcm_bare),
    _gen("6.NS.B.4/gcf-lcm-story", "word", _ns_gcf_lcm_story),
    _gen("6.NS.B.4/factor-out-gcf", "bare", _ns_distributive),
    _gen("6.NS.C.5/signed-quantity", "word", _ns_signed_story),
    _gen("6.NS.C.6.a/opposite", "bare", _ns_opposite),
    _gen("6.NS.C.6.b/reflect-point", "bare", _ns_reflect),
    _gen("6.NS.C.6.c/number-line", "bare", _ns_number_line),
    _gen("6.NS.C.7.a/order-on-line", "bare", _ns_order_bare),
    _gen("6.NS.C.7.b/order-story", "word", _ns_order_story),
    _gen("6.NS.C.7.c/absolute-value", "bare", _ns_abs_bare),
    _gen("6.NS.C.7.c/absolute-value-story", "word", _ns_abs_story),
    _gen("6.NS.C.7.d/debt-story", "word", _ns_abs_vs_order),
    _gen("6.NS.C.8/distance", "bare", _ns_distance_bare),
    _gen("6.NS.C.8/map-distance-story", "word", _ns_distance_story),
    _gen("6.EE.A.1/exponents", "bare", _ee_exponent_bare),
    _gen("6.EE.A.1/exponents-story", "word", _ee_exponent_story),
    _gen("6.EE.A.2.a/write-expression", "bare", _ee_write_expr),
    _gen("6.EE.A.2.b/parts-of-expression", "bare", _ee_parts),
    _gen("6.EE.A.2.c/evaluate", "bare", _ee_evaluate_bare),
    _gen("6.EE.A.2.c/formula-story", "word", _ee_formula_story),
    _gen("6.EE.A.3/equivalent-expression", "bare", _ee_equivalent),
    _gen("6.EE.A.4/equivalent-check", "bare", _ee_equivalent_check),
    _gen("6.EE.B.5/which-value", "bare", _ee_substitute),
    _gen("6.EE.B.6/variable-story", "word", _ee_variable_story),
    _gen("6.EE.B.7/one-step-equation", "bare", _ee_solve_bare),
    _gen("6.EE.B.7/one-step-story", "word", _ee_solve_story),
    _gen("6.EE.B.8/inequality", "bare", _ee_inequality),
    _gen("6.EE.B.8/inequality-story", "word", _ee_inequality_story),
    _gen("6.EE.C.9/dependent-story", "word", _ee_dependent_story),
    _gen("6.EE.C.9/table-equation", "bare", _ee_dependent_table),
    _gen("6.G.A.1/area", "bare", _g6_area_bare),
    _gen("6.G.A.1/area-story", "word", _g6_area_story),
    _gen("6.G.A.2/fractional-volume", "bare", _g6_volume_bare),
    _gen("6.G.A.2/fractional-volume-story", "word", _g6_volume_story),
    _gen("6.G.A.3/polygon-coordinates", "bare", _g6_coords_bare),
    _gen("6.G.A.3/coordinates-story", "word", _g6_coords_story),
    _gen("6.G.A.4/surface-area", "bare", _g6_surface_bare),
    _gen("6.G.A.4/surface-area-story", "word", _g6_surface_story),
    _gen("6.SP.A.3/center-and-spread", "bare", _sp_center_spread),
    _gen("6.SP.B.4/read-plots", "word", _sp_plots),
    _gen("6.SP.B.4/histogram", "word", _sp_histogram),
    _gen("6.SP.B.5.a/observations", "word", _sp_observations),
    _gen("6.SP.B.5.c/measures", "bare", _sp_measures),
    _gen("6.SP.B.5.c/measures-story", "word", _sp_measures_story),
)
