"""Grade 7 problem generators: The Number System.

The standards 7.NS.A.2 to 7.NS.A.3; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import fraction_text, pick
from tutorgraph.training.problems.grade_78._shared import (
    _ans,
    _e,
    _fr,
    _money,
    _name,
    _num,
    _nz,
    _paren,
    _rat,
    _say,
    _show,
)

__all__ = ["GENERATORS"]


def _ns2a_bare(rng: random.Random) -> Made:
    style = pick(rng, ("int", "int", "dec", "frac"))
    if style == "int":
        nums = [Fraction(_nz(rng, -12, 12)) for _ in range(rng.choice((2, 2, 3)))]
    else:
        nums = [_rat(rng, style), _rat(rng, style)]
    value = Fraction(1)
    for x in nums:
        value *= x
    shown_dot = " × ".join(_paren(_show(x, style)) for x in nums)
    shown_par = "".join(f"({_show(x, style)})" for x in nums)
    text = _say(
        rng,
        (
            "Multiply: {d}",
            "Find the product {p}.",
            "What is {d}?",
            "Evaluate {p}.",
            "{d} = ?",
        ),
        d=shown_dot,
        p=shown_par,
    )
    return text, " * ".join(_e(x) for x in nums), _ans(value)


def _ns2a_story(rng: random.Random) -> Made:
    n = _name(rng)
    times = rng.randint(2, 12)
    kind = rng.randrange(4)
    if kind == 0:
        drop = Fraction(rng.randint(2, 30), pick(rng, (1, 2, 4)))
        text = _say(
            rng,
            (
                "The temperature drops {d}°F every hour for {t} hours. What is the total change "
                "in temperature?",
                "A freezer's temperature changes by -{d} degrees each hour. What is the change "
                "after {t} hours?",
            ),
            d=_num(drop),
            t=times,
        )
        return text, f"{times} * (-{_e(drop)})", _ans(-drop * times)
    if kind == 1:
        rate = rng.randint(3, 25)
        text = _say(
            rng,
            (
                "A diver descends {r} feet per minute. What is her change in elevation after "
                "{t} minutes?",
                "A submarine goes down {r} m every minute. Write its change in depth after {t} "
                "minutes as a signed number.",
            ),
            r=rate,
            t=times,
        )
        return text, f"{times} * (-{rate})", _ans(-rate * times)
    if kind == 2:
        cost = Fraction(rng.randint(150, 1500), 100)
        text = _say(
            rng,
            (
                "{n} spends {c} on lunch every school day. What is the change in {n}'s money "
                "after {t} days?",
                "{n} pays {c} each week for a music app. Write the change in savings after {t} "
                "weeks as a negative number.",
            ),
            n=n,
            c=_money(cost),
            t=times,
        )
        return text, f"{times} * (-{_e(cost)})", _ans(-cost * times)
    loss = rng.randint(2, 9)
    text = _say(
        rng,
        (
            "In a game, {n} loses {l} points each turn for {t} turns. What is the total change "
            "in points?",
            "A stock loses ${l} each day for {t} days. What is the total change in value?",
        ),
        n=n,
        l=loss,
        t=times,
    )
    return text, f"{times} * (-{loss})", _ans(-loss * times)


def _ns2b_bare(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    if kind == 0:
        q = _nz(rng, -15, 15)
        d = _nz(rng, -12, 12)
        p = q * d
        text = _say(
            rng,
            ("Divide: {p} ÷ {d}", "Find {p} / {d}.", "What is {p} ÷ {d}?", "{p} ÷ {d} = ?"),
            p=p,
            d=_paren(str(d)),
        )
        return text, f"{_e(p)} / {_e(d)}", _ans(Fraction(q))
    if kind == 1:
        a = Fraction(_nz(rng, -9, 9), pick(rng, (2, 3, 4, 5, 8)))
        b = Fraction(_nz(rng, -9, 9), pick(rng, (2, 3, 4, 6)))
        text = _say(
            rng,
            (
                "Divide: {a} ÷ {b}",
                "Find the quotient of {a} and {b}.",
                "What is {a} ÷ {b}?",
                "Simplify {a} / ({b}).",
            ),
            a=_fr(a),
            b=_paren(_fr(b)),
        )
        return text, f"{_e(a)} / {_e(b)}", _ans(a / b)
    p = rng.randint(1, 20)
    q = rng.randint(2, 9)
    text = _say(
        rng,
        (
            "Write -({p}/{q}) as a single fraction with a positive denominator.",
            "What is {p} ÷ (-{q}) as a fraction?",
            "Find (-{p})/{q} in simplest form.",
            "Simplify -{p}/{q}.",
        ),
        p=p,
        q=q,
    )
    return text, f"-{p} / {q}", _ans(Fraction(-p, q))


def _ns2b_story(rng: random.Random) -> Made:
    n = _name(rng)
    parts = rng.randint(2, 10)
    each = rng.randint(2, 30)
    total = parts * each
    text = _say(
        rng,
        (
            "A stock lost ${t} over {p} days. If it lost the same amount each day, what was "
            "the change per day?",
            "A diver descended {t} feet in {p} minutes at a steady rate. What was her change "
            "in elevation each minute?",
            "The temperature fell {t} degrees over {p} hours evenly. What was the change per hour?",
            "{n} and friends owe ${t} in all and split it equally among {p} people. Write "
            "each person's share as a signed number.",
            "a balance of -{t} is spread evenly over {p} months. what is the change each month",
        ),
        t=total,
        p=parts,
        n=n,
    )
    return text, f"-{total} / {parts}", _ans(Fraction(-each))


def _ns2c(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    if kind == 0:
        a = pick(rng, (25, 50, 125, 20, 5))
        b = {25: 4, 50: 2, 125: 8, 20: 5, 5: 2}[a]
        c = _nz(rng, -15, 15)
        sa, sb = pick(rng, (1, -1)), pick(rng, (1, -1))
        nums = [sa * a, c, sb * b]
        text = _say(
            rng,
            (
                "Use properties of multiplication to evaluate {s} mentally.",
                "Find the product the easy way: {s}",
                "Evaluate {s}.",
                "Rearrange the factors to multiply {s}.",
            ),
            s=" × ".join(_paren(str(x)) for x in nums),
        )
        return text, " * ".join(_e(x) for x in nums), _ans(math.prod(nums))
    if kind == 1:
        m = _nz(rng, -9, 9)
        whole = rng.randint(2, 20)
        part = Fraction(1, pick(rng, (2, 4, 3)))
        text = _say(
            rng,
            (
                "Use the distributive property to find {m} × {w} {p}.",
                "Evaluate {m} × ({w} + {p}) using the distributive property.",
                "Find {m} times {w} {p} by breaking it into {m} × {w} + {m} × {p}.",
            ),
            m=_paren(str(m)),
            w=whole,
            p=_fr(part),
        )
        return text, f"{_e(m)} * ({whole} + {_e(part)})", _ans(m * (whole + part))
    f = Fraction(_nz(rng, -9, 9), pick(rng, (3, 4, 5, 7)))
    g = Fraction(_nz(rng, -12, 12))
    text = _say(
        rng,
        (
            "Evaluate {a} × {b} × {ra}.",
            "Use the commutative property to find {a} · {b} · {ra}.",
            "Find the product: ({a})({b})({ra})",
        ),
        a=_fr(f),
        b=_paren(_fr(g)),
        ra=_paren(_fr(1 / f)),
    )
    return text, f"{_e(f)} * {_e(g)} * {_e(1 / f)}", _ans(g)


def _ns2d_bare(rng: random.Random) -> Made:
    if rng.random() < 0.7:
        d = pick(rng, (2, 4, 5, 8, 16, 20, 25, 40))
        n = rng.randint(1, 2 * d)
        if n % d == 0:
            n += 1
        sign = pick(rng, (1, 1, -1))
        x = Fraction(sign * n, d)
        text = _say(
            rng,
            (
                "Write {f} as a decimal.",
                "Use long division to convert {f} to a decimal.",
                "Convert {f} to a decimal.",
                "What is {f} as a decimal?",
                "change {f} into a decimal",
            ),
            f=f"{'-' if sign < 0 else ''}{n}/{d}",
        )
        return text, f"{sign * n} / {d}", _ans(x)
    d = pick(rng, (3, 6, 7, 9, 11, 12, 13))
    n = rng.randint(1, d - 1)
    k = rng.randint(1, 6)
    text = _say(
        rng,
        (
            "Use long division to write {n}/{d} as a decimal. What is digit number {k} after "
            "the decimal point?",
            "The decimal for {n}/{d} repeats. What digit is in place {k} after the decimal point?",
            "Divide {n} by {d}. Which digit is {k} places after the decimal point?",
        ),
        n=n,
        d=d,
        k=k,
    )
    digit = (n * 10**k // d) % 10
    return text, f"floor({n} / {d} * 10**{k}) % 10", str(digit)


def _ns2d_story(rng: random.Random) -> Made:
    d = pick(rng, (4, 8, 5, 20, 16))
    n = rng.randint(1, d - 1)
    who = _name(rng)
    text = _say(
        rng,
        (
            "{w} ran {n}/{d} of a mile. Write the distance as a decimal.",
            "A recipe uses {n}/{d} cup of oil. The measuring cup is marked in decimals. What "
            "decimal amount is that?",
            "{w} got {n}/{d} of the quiz questions right. Write this as a decimal.",
            "A board is {n}/{d} inch thick. What is its thickness as a decimal?",
            "{w}s calculator only shows decimals. what decimal is {n}/{d}",
        ),
        w=who,
        n=n,
        d=d,
    )
    return text, f"{n} / {d}", _ans(Fraction(n, d))


def _ns3_story(rng: random.Random) -> Made:
    n = _name(rng)
    kind = rng.randrange(5)
    if kind == 0:
        start = Fraction(-rng.randint(2, 12)) - Fraction(rng.choice((0, 1, 2)), 4)
        rate = Fraction(rng.randint(3, 12), 4)
        hrs = rng.randint(2, 6)
        text = _say(
            rng,
            (
                "At 5 a.m. the temperature was {s}°C. It rose {r}°C each hour for {h} hours. "
                "What was the temperature then?",
                "The temperature started at {s} degrees and went up {r} degrees per hour. What "
                "was it after {h} hours?",
            ),
            s=_num(start),
            r=_num(rate),
            h=hrs,
        )
        return text, f"{_e(start)} + {_e(rate)} * {hrs}", _ans(start + rate * hrs)
    if kind == 1:
        per = Fraction(rng.randint(1, 7), pick(rng, (2, 3, 4)))
        have = per * rng.randint(3, 12)
        text = _say(
            rng,
            (
                "{n} has {h} cups of flour. Each batch of muffins needs {p} cup. How many "
                "batches can {n} make?",
                "A ribbon is {h} yards long. It is cut into pieces {p} yard long. How many "
                "pieces are there?",
            ),
            n=n,
            h=fraction_text(have, mixed=True),
            p=_fr(per),
        )
        return text, f"{_e(have)} / {_e(per)}", _ans(have / per)
    if kind == 2:
        depth = rng.randint(20, 120)
        rate = Fraction(rng.randint(5, 30), 2)
        text = _say(
            rng,
            (
                "A diver is at -{d} feet and rises {r} feet per minute. How many minutes until "
                "she is at the surface?",
                "A submarine at -{d} m rises at {r} m per minute. How long until it reaches 0 m?",
            ),
            d=depth,
            r=_num(rate),
        )
        return text, f"(0 - (-{depth})) / {_e(rate)}", _ans(depth / rate)
    if kind == 3:
        price = Fraction(rng.randint(120, 900), 100)
        qty = rng.randint(2, 8)
        paid = (price * qty // 10 + 1) * 10
        text = _say(
            rng,
            (
                "{n} buys {q} notebooks at {p} each and pays with {m}. How much change does "
                "{n} get?",
                "Tickets cost {p} each. {n} buys {q} tickets and hands over {m}. What is the "
                "change?",
            ),
            n=n,
            q=qty,
            p=_money(price),
            m=_money(paid),
        )
        return text, f"{_e(paid)} - {qty} * {_e(price)}", _ans(paid - qty * price)
    a = Fraction(rng.randint(1, 9), pick(rng, (2, 4, 3)))
    b = Fraction(rng.randint(1, 9), pick(rng, (2, 4, 8)))
    text = _say(
        rng,
        (
            "A hose fills {a} of a tank in {b} hour. How many tanks does it fill per hour?",
            "{n} walked {a} km in {b} hour. How many km per hour is that?",
        ),
        n=n,
        a=_fr(a),
        b=_fr(b),
    )
    return text, f"{_e(a)} / {_e(b)}", _ans(a / b)


def _ns3_bare(rng: random.Random) -> Made:
    a = _rat(rng, "frac")
    b = _rat(rng, "frac")
    c = _rat(rng, pick(rng, ("int", "frac")))
    kind = rng.randrange(3)
    if kind == 0:
        shown = f"{_fr(a)} × {_paren(_fr(b))} + {_paren(_fr(c))}"
        expr, value = f"{_e(a)} * {_e(b)} + {_e(c)}", a * b + c
    elif kind == 1:
        shown = f"({_fr(a)}) / ({_fr(b)})"
        expr, value = f"{_e(a)} / {_e(b)}", a / b
    else:
        shown = f"{_paren(_fr(c))} - {_fr(a)} ÷ {_paren(_fr(b))}"
        expr, value = f"{_e(c)} - {_e(a)} / {_e(b)}", c - a / b
    text = _say(
        rng,
        (
            "Evaluate {s}.",
            "Simplify {s}.",
            "Find the value of {s}.",
            "{s} = ?",
            "Simplify the complex fraction: {s}" if kind == 1 else "Compute {s}.",
        ),
        s=shown,
    )
    return text, expr, _ans(value)


GENERATORS: tuple[Generator, ...] = table(
    ("7.NS.A.2.a/multiply-signed", "bare", _ns2a_bare),
    ("7.NS.A.2.a/repeated-change-story", "word", _ns2a_story),
    ("7.NS.A.2.b/divide-signed", "bare", _ns2b_bare),
    ("7.NS.A.2.b/share-a-loss-story", "word", _ns2b_story),
    ("7.NS.A.2.c/multiply-with-properties", "bare", _ns2c),
    ("7.NS.A.2.d/fraction-to-decimal", "bare", _ns2d_bare),
    ("7.NS.A.2.d/decimal-story", "word", _ns2d_story),
    ("7.NS.A.3/rational-operations-story", "word", _ns3_story),
    ("7.NS.A.3/rational-expression", "bare", _ns3_bare),
)
