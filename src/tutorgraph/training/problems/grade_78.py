"""Generators for the computable standards of grades 7 and 8 (issue 48).

Grade 7: rational-number arithmetic (7.NS), expressions, equations and inequalities (7.EE),
proportional relationships and percent (7.RP), scale drawings, circles, angles, area, surface
area and volume (7.G), sampling and probability (7.SP). Grade 8: exponents, roots and scientific
notation, slope, linear equations and systems (8.EE), functions (8.F), transformations, angle
facts, the Pythagorean Theorem and volumes (8.G), repeating decimals and estimates of irrational
numbers (8.NS), linear models and two-way tables (8.SP). Each problem comes as worksheet wording
or a student's own words, with the expression that computes its answer.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from fractions import Fraction

from tutorgraph.training.problems._registry import Generator, Kind, Made
from tutorgraph.training.problems._words import NAMES, fraction_text, number_text, pick

__all__ = ["GENERATORS"]

_Make = Callable[[random.Random], Made]
_ALL: list[Generator] = []


def _gen(name: str, kind: Kind) -> Callable[[_Make], _Make]:
    """Register a generator under `name`; its standard is the code before the slash."""

    def register(make: _Make) -> _Make:
        _ALL.append(Generator(name, f"ccss:{name.split('/')[0]}", kind, make))
        return make

    return register


# ---- numbers as text


def _decimal(x: Fraction, places: int = 12) -> str | None:
    """The exact decimal text of `x`, or None when it does not terminate within `places`."""
    for k in range(places + 1):
        scaled = x * 10**k
        if scaled.denominator == 1:
            n = abs(scaled.numerator)
            sign = "-" if x < 0 else ""
            if k == 0:
                return f"{sign}{n}"
            digits = str(n).rjust(k + 1, "0")
            return f"{sign}{digits[:-k]}.{digits[-k:]}"
    return None


def _num(x: Fraction | int) -> str:
    """Text for a number: an integer, a short decimal, else a fraction."""
    x = Fraction(x)
    if x.denominator == 1:
        return number_text(x)
    dec = _decimal(x, 4)
    return dec if dec is not None else fraction_text(x)


def _fr(x: Fraction | int) -> str:
    """Text for a number in fraction form ("-3/4")."""
    return number_text(Fraction(x))


def _ans(x: Fraction | int) -> str:
    """An answer: an integer, an exact decimal, else a fraction."""
    x = Fraction(x)
    if x.denominator == 1:
        return number_text(x)
    dec = _decimal(x, 12)
    return dec if dec is not None else fraction_text(x)


def _e(x: Fraction | int) -> str:
    """A number inside an expression (negatives and fractions in parentheses)."""
    x = Fraction(x)
    if x.denominator == 1:
        text = str(x.numerator)
    else:
        dec = _decimal(x, 6)
        text = dec if dec is not None else f"{x.numerator}/{x.denominator}"
    return f"({text})" if x < 0 or "/" in text else text


def _money(x: Fraction | int) -> str:
    x = Fraction(x)
    cents = round(x * 100)
    return f"${cents // 100:,}.{cents % 100:02d}" if cents % 100 else f"${cents // 100:,}"


def _paren(text: str) -> str:
    return f"({text})" if text.startswith("-") else text


def _round_to(x: Fraction, unit: Fraction) -> Fraction:
    # Half rounds up, as the answer test and schools do.
    return Fraction(math.floor(x / unit + Fraction(1, 2))) * unit


def _nz(rng: random.Random, lo: int, hi: int) -> int:
    """A nonzero integer in [lo, hi]."""
    while True:
        n = rng.randint(lo, hi)
        if n:
            return n


def _rat(rng: random.Random, style: str) -> Fraction:
    """A signed rational number of one style: "int", "dec" or "frac"."""
    if style == "int":
        return Fraction(_nz(rng, -25, 25))
    if style == "dec":
        return Fraction(_nz(rng, -200, 200), pick(rng, (10, 100, 4)))
    return Fraction(_nz(rng, -11, 11), pick(rng, (2, 3, 4, 5, 6, 8, 10, 12)))


def _show(x: Fraction, style: str) -> str:
    return _fr(x) if style == "frac" else _num(x)


# ---- phrasing

_LEADS = (
    "my homework says ",
    "i dont get this one: ",
    "how do you do this? ",
    "can someone help me with this ",
    "stuck on this: ",
    "pls help ",
    "our teacher gave us this: ",
    "wait how do i solve this one ",
    "im confused about this question: ",
    "help!! ",
)


def _voice(rng: random.Random, text: str) -> str:
    """Worksheet wording most of the time, otherwise a student retyping it."""
    if rng.random() < 0.62:
        return text
    if rng.random() < 0.6:
        text = text[0].lower() + text[1:] if rng.random() < 0.5 else text.lower()
    if rng.random() < 0.45:
        text = text.rstrip(".?!")
    return pick(rng, _LEADS) + text


def _say(rng: random.Random, templates: Sequence[str], **fields: object) -> str:
    return _voice(rng, pick(rng, templates).format(**fields))


def _name(rng: random.Random) -> str:
    return pick(rng, NAMES)


# ---- grade 7: the number system


@_gen("7.NS.A.1/add-subtract-rationals", "bare")
def _ns1_bare(rng: random.Random) -> Made:
    style = pick(rng, ("int", "dec", "frac", "frac"))
    a, b = _rat(rng, style), _rat(rng, style)
    op = pick(rng, ("+", "-"))
    value = a + b if op == "+" else a - b
    text = _say(
        rng,
        (
            "Find {a} {op} {b}.",
            "Evaluate: {a} {op} {b}",
            "What is {a} {op} {b}?",
            "Compute {a} {op} {b}.",
            "{a} {op} {b} = ?",
            "Add or subtract. {a} {op} {b}",
            "Simplify {a} {op} {b}.",
        ),
        a=_show(a, style),
        b=_paren(_show(b, style)),
        op=op,
    )
    return text, f"{_e(a)} {op} {_e(b)}", _ans(value)


@_gen("7.NS.A.1/number-line-jump", "word")
def _ns1_line(rng: random.Random) -> Made:
    style = pick(rng, ("int", "dec", "frac"))
    start = _rat(rng, style)
    move = abs(_rat(rng, style))
    right = rng.random() < 0.5
    end = start + move if right else start - move
    text = _say(
        rng,
        (
            "On a number line, start at {s} and move {m} units to the {d}. Where do you land?",
            "A point is at {s} on a number line. It moves {m} units {d}. What number is it at now?",
            "Draw a number line. Begin at {s} and jump {m} to the {d}. What number do you end on?",
            "{n} puts a chip on {s} on a number line and slides it {m} units {d}. "
            "Where is the chip now?",
            "if you start at {s} and go {m} to the {d} on the number line what do you get",
            "On a vertical number line, a marker at {s} moves {m} units {ud}. Where does it stop?",
        ),
        s=_show(start, style),
        m=_show(move, style),
        d="right" if right else "left",
        ud="up" if right else "down",
        n=_name(rng),
    )
    return text, f"{_e(start)} {'+' if right else '-'} {_e(move)}", _ans(end)


@_gen("7.NS.A.1.a/opposites-make-zero", "word")
def _ns1a(rng: random.Random) -> Made:
    kind = rng.randrange(5)
    n = _name(rng)
    if kind == 0:
        debt = Fraction(rng.randint(5, 90))
        text = _say(
            rng,
            (
                "{n} owes a friend {m}. How much money must {n} pay back to have a balance of 0?",
                "{n}'s account shows -{v} dollars. How many dollars must be deposited to bring "
                "it to 0?",
                "if my balance is -{v} how much do i need to add to get to zero",
            ),
            n=n,
            m=_money(debt),
            v=_num(debt),
        )
        return text, f"0 - (-{_e(debt)})", _ans(debt)
    if kind == 1:
        protons = rng.randint(2, 20)
        text = _say(
            rng,
            (
                "An atom has {p} protons, each with a charge of +1. How many electrons (charge "
                "-1 each) must it have for a total charge of 0?",
                "Each proton is +1 and each electron is -1. A neutral atom has {p} protons. "
                "How many electrons does it have?",
            ),
            p=protons,
        )
        return text, f"0 - {protons} * (-1)", str(protons)
    if kind == 2:
        down = Fraction(rng.randint(3, 60))
        text = _say(
            rng,
            (
                "A diver is {d} feet below sea level. How many feet must she rise to reach sea "
                "level (0)?",
                "A submarine sits at -{d} m. How many meters up does it have to go to reach the "
                "surface at 0 m?",
                "A hiker in a canyon is at an elevation of -{d} feet. How far up is 0 feet?",
            ),
            d=_num(down),
        )
        return text, f"0 - (-{_e(down)})", _ans(down)
    if kind == 3:
        lost = rng.randint(3, 15)
        text = _say(
            rng,
            (
                "A football team loses {y} yards on one play. How many yards must they gain on "
                "the next play to be back where they started?",
                "In a game you lose {y} points, then win some points. How many points must you "
                "win to end at 0 overall?",
            ),
            y=lost,
        )
        return text, f"0 - (-{lost})", str(lost)
    x = _rat(rng, pick(rng, ("int", "dec", "frac")))
    text = _say(
        rng,
        (
            "What number added to {x} makes 0?",
            "Find the additive inverse of {x}.",
            "{x} + ? = 0",
            "What is the opposite of {x}?",
        ),
        x=_paren(_num(x)) if rng.random() < 0.5 else _num(x),
    )
    return text, f"0 - {_e(x)}", _ans(-x)


@_gen("7.NS.A.1.b/signed-sum-story", "word")
def _ns1b_story(rng: random.Random) -> Made:
    n = _name(rng)
    kind = rng.randrange(4)
    if kind == 0:
        start = Fraction(rng.randint(-15, 12))
        change = Fraction(_nz(rng, -18, 18))
        text = _say(
            rng,
            (
                "At 6 a.m. the temperature was {s}°F. By noon it had changed by {c}°F. What was "
                "the temperature at noon?",
                "The temperature is {s} degrees. It {rf} {a} degrees. What is the new temperature?",
                "it was {s} degrees this morning and it {rf} {a} degrees what is it now",
            ),
            s=_num(start),
            c=("+" if change > 0 else "") + _num(change),
            rf="rises" if change > 0 else "drops",
            a=_num(abs(change)),
        )
        return text, f"{_e(start)} + {_e(change)}", _ans(start + change)
    if kind == 1:
        bal = Fraction(rng.randint(-40, 80)) + Fraction(rng.randrange(0, 100, 25), 100)
        amt = Fraction(rng.randint(5, 120)) + Fraction(rng.randrange(0, 100, 5), 100)
        sign = pick(rng, (1, -1))
        text = _say(
            rng,
            (
                "{n}'s bank balance is {b}. Then {n} {act} {a}. What is the new balance?",
                "A bank account has a balance of {b}. A {tr} of {a} is made. What is the "
                "balance now?",
                "{n} had {b} in the account and {act} {a}. Write the new balance.",
            ),
            n=n,
            b=_money(bal) if bal >= 0 else "-" + _money(-bal),
            act="deposits" if sign > 0 else "spends",
            tr="deposit" if sign > 0 else "withdrawal",
            a=_money(amt),
        )
        return text, f"{_e(bal)} + {sign} * {_e(amt)}", _ans(bal + sign * amt)
    if kind == 2:
        start = Fraction(rng.randint(-120, 300))
        change = Fraction(_nz(rng, -150, 150))
        text = _say(
            rng,
            (
                "A bird is flying at {s} feet. It changes altitude by {c} feet. What is its "
                "new altitude?",
                "A diver starts at {s} m relative to sea level and then moves {a} m {ud}. "
                "Where is she now?",
                "An elevator starts at level {s} and moves {c} levels. What level is it on?",
            ),
            s=_num(start),
            c=_num(change),
            a=_num(abs(change)),
            ud="up" if change > 0 else "down",
        )
        return text, f"{_e(start)} + {_e(change)}", _ans(start + change)
    plays = [_nz(rng, -12, 15) for _ in range(3)]
    text = _say(
        rng,
        (
            "On three plays a team gains or loses yards: {p}. What is the total change in yards?",
            "A stock changes by {p} dollars on three days. What is the total change?",
            "Add the changes {p}. What is the sum?",
        ),
        p=", ".join(_num(p) for p in plays),
    )
    return text, " + ".join(_e(p) for p in plays), _ans(sum(plays))


@_gen("7.NS.A.1.b/distance-from-p", "bare")
def _ns1b_bare(rng: random.Random) -> Made:
    style = pick(rng, ("int", "dec", "frac"))
    p, q = _rat(rng, style), _rat(rng, style)
    if rng.random() < 0.35:
        text = _say(
            rng,
            (
                "What is {p} + {q}? Explain it as the number {aq} units from {p}.",
                "The number {p} + {q} is {aq} units from {p}. Which number is it?",
            ),
            p=_show(p, style),
            q=_paren(_show(q, style)),
            aq=_show(abs(q), style),
        )
        return text, f"{_e(p)} + {_e(q)}", _ans(p + q)
    text = _say(
        rng,
        (
            "Find the sum: {p} + {q}",
            "Add {p} + {q}.",
            "Use a number line to add {p} + {q}.",
            "{p} + {q} = ___",
            "What is {q} + {p}?",
        ),
        p=_show(p, style),
        q=_paren(_show(q, style)),
    )
    return text, f"{_e(p)} + {_e(q)}", _ans(p + q)


@_gen("7.NS.A.1.c/distance-apart-story", "word")
def _ns1c_story(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    if kind == 0:
        hi = Fraction(rng.randint(-5, 40))
        lo = hi - rng.randint(3, 40)
        text = _say(
            rng,
            (
                "The high temperature was {h}°F and the low was {l}°F. What is the difference "
                "between the high and the low?",
                "In one city it is {h} degrees and in another it is {l} degrees. How many "
                "degrees warmer is the first city?",
                "how many degrees apart are {h} and {l}",
            ),
            h=_num(hi),
            l=_num(lo),
        )
        return text, f"{_e(hi)} - {_e(lo)}", _ans(hi - lo)
    if kind == 1:
        top = Fraction(rng.randint(5, 3000))
        bottom = Fraction(-rng.randint(5, 500))
        text = _say(
            rng,
            (
                "A mountain peak is {t} ft above sea level and a valley floor is {b} ft "
                "(below sea level). What is the vertical distance between them?",
                "A plane flies at {t} m and a submarine is at {b} m. How far apart are they "
                "vertically?",
                "A kite is at {t} feet and a diver is at {b} feet. Find the distance between them.",
            ),
            t=_num(top),
            b=_num(bottom),
        )
        return text, f"abs({_e(top)} - {_e(bottom)})", _ans(top - bottom)
    a = _rat(rng, "dec")
    b = _rat(rng, "dec")
    text = _say(
        rng,
        (
            "Two points on a number line are at {a} and {b}. What is the distance between them?",
            "How far apart are {a} and {b} on a number line?",
            "Find the distance between {a} and {b}.",
        ),
        a=_num(a),
        b=_num(b),
    )
    return text, f"abs({_e(a)} - {_e(b)})", _ans(abs(a - b))


@_gen("7.NS.A.1.c/subtract-by-adding-opposite", "bare")
def _ns1c_bare(rng: random.Random) -> Made:
    style = pick(rng, ("int", "dec", "frac"))
    p, q = _rat(rng, style), _rat(rng, style)
    text = _say(
        rng,
        (
            "Subtract: {p} - {q}",
            "Rewrite {p} - {q} as adding the opposite, then find the answer.",
            "Find {p} - {q}.",
            "What is {p} minus {q}?",
            "{p} - {q} = {p} + ({nq}) = ?",
            "Evaluate {p} - {q}.",
        ),
        p=_show(p, style),
        q=_paren(_show(q, style)),
        nq=_show(-q, style),
    )
    return text, f"{_e(p)} - {_e(q)}", _ans(p - q)


@_gen("7.NS.A.1.d/add-with-properties", "bare")
def _ns1d(rng: random.Random) -> Made:
    style = pick(rng, ("int", "dec", "frac"))
    a = _rat(rng, style)
    b = _rat(rng, style)
    c = Fraction(_nz(rng, -30, 30))
    terms = [a, c, -a, b] if rng.random() < 0.5 else [a, b, c, -b]
    shown = " + ".join(_paren(_show(t, style)) for t in terms)
    text = _say(
        rng,
        (
            "Use properties of operations to find the sum: {s}",
            "Find the sum the easy way: {s}",
            "Evaluate {s}. (Hint: look for opposites.)",
            "Use the commutative and associative properties to add {s}.",
            "{s} = ?",
        ),
        s=shown,
    )
    return text, " + ".join(_e(t) for t in terms), _ans(sum(terms, Fraction(0)))


@_gen("7.NS.A.2.a/multiply-signed", "bare")
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


@_gen("7.NS.A.2.a/repeated-change-story", "word")
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


@_gen("7.NS.A.2.b/divide-signed", "bare")
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


@_gen("7.NS.A.2.b/share-a-loss-story", "word")
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


@_gen("7.NS.A.2.c/multiply-with-properties", "bare")
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


@_gen("7.NS.A.2.d/fraction-to-decimal", "bare")
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


@_gen("7.NS.A.2.d/decimal-story", "word")
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


@_gen("7.NS.A.3/rational-operations-story", "word")
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


@_gen("7.NS.A.3/rational-expression", "bare")
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


# ---- grade 7: ratios and proportion


@_gen("7.RP.A.1/unit-rate-fractions-story", "word")
def _rp1_story(rng: random.Random) -> Made:
    n = _name(rng)
    a = Fraction(rng.randint(1, 9), pick(rng, (2, 3, 4, 5, 8)))
    b = Fraction(rng.randint(1, 5), pick(rng, (2, 3, 4, 6)))
    if a == b:
        a += Fraction(1, 2)
    text = _say(
        rng,
        (
            "{n} walks {a} mile in {b} hour. How many miles per hour is that?",
            "A machine paints {a} of a wall in {b} hour. How much of the wall does it paint "
            "per hour?",
            "A recipe uses {a} cup of sugar for {b} of a batch. How many cups of sugar per batch?",
            "{n} mows {a} acre in {b} hour. What is the unit rate in acres per hour?",
            "A snail crawls {a} foot in {b} minute. How many feet per minute is that?",
            "i dont get unit rates with fractions. {n} reads {a} of a chapter in {b} hour. "
            "how much per hour",
            "A faucet drips {a} liter every {b} hour. Find the liters per hour.",
        ),
        n=n,
        a=_fr(a),
        b=_fr(b),
    )
    return text, f"{_e(a)} / {_e(b)}", _ans(a / b)


@_gen("7.RP.A.1/complex-fraction-rate", "bare")
def _rp1_bare(rng: random.Random) -> Made:
    a = Fraction(rng.randint(1, 9), pick(rng, (2, 3, 4, 5)))
    b = Fraction(rng.randint(1, 7), pick(rng, (2, 4, 6, 8)))
    if a.denominator == 1:
        a += Fraction(1, 2)
    if b.denominator == 1:
        b /= 4
    text = _say(
        rng,
        (
            "Find the unit rate: {a} mile per {b} hour.",
            "Simplify the complex fraction ({a}) / ({b}).",
            "What is the unit rate for {a} gallon every {b} minute?",
            "Compute the rate {a} : {b} as a number per 1 unit.",
            "{a} ÷ {b} = ?",
            "Write the unit rate for {a} pound for {b} dollar.",
        ),
        a=_fr(a),
        b=_fr(b),
    )
    return text, f"{_e(a)} / {_e(b)}", _ans(a / b)


def _table(xs: Sequence[Fraction | int], ys: Sequence[Fraction | int], xn: str, yn: str) -> str:
    return f"{xn}: {', '.join(_num(x) for x in xs)}; {yn}: {', '.join(_num(y) for y in ys)}"


@_gen("7.RP.A.2.a/fix-the-table", "bare")
def _rp2a(rng: random.Random) -> Made:
    k = Fraction(rng.randint(2, 12), pick(rng, (1, 1, 2)))
    xs = sorted(rng.sample(range(1, 13), 4))
    ys = [k * x for x in xs]
    bad = rng.randrange(1, 4)
    ys[bad] += pick(rng, (1, 2, 3, -1, -2))
    names = pick(rng, (("x", "y"), ("hours", "dollars"), ("cups", "servings"), ("days", "pages")))
    text = _say(
        rng,
        (
            "The table is meant to show a proportional relationship, but one {y} value is "
            "wrong. {t}. What should the {y} value for {x} = {xb} be?",
            "Test the ratios in this table: {t}. One pair is not in the same ratio as "
            "{y0}/{x0}. What value of {y} at {x} = {xb} would make it proportional?",
            "Is the table proportional? {t}. If not, fix the entry for {x} = {xb} so that "
            "every ratio is equal. What is the fixed value?",
            "my teacher says this table is almost proportional: {t}. what should the "
            "{y} be when {x} is {xb}",
        ),
        t=_table(xs, ys, names[0], names[1]),
        x=names[0],
        y=names[1],
        xb=xs[bad],
        x0=xs[0],
        y0=_num(ys[0]),
    )
    return text, f"{_e(ys[0])} / {xs[0]} * {xs[bad]}", _ans(k * xs[bad])


@_gen("7.RP.A.2.b/constant-from-table", "bare")
def _rp2b_bare(rng: random.Random) -> Made:
    k = Fraction(rng.randint(1, 30), pick(rng, (1, 2, 4, 5)))
    xs = sorted(rng.sample(range(1, 15), 3))
    kind = rng.randrange(3)
    if kind == 0:
        text = _say(
            rng,
            (
                "Find the constant of proportionality in the table. {t}",
                "The table shows a proportional relationship: {t}. What is k in y = kx?",
                "what is the constant of proportionality for this table {t}",
            ),
            t=_table(xs, [k * x for x in xs], "x", "y"),
        )
        return text, f"{_e(k * xs[0])} / {xs[0]}", _ans(k)
    if kind == 1:
        x = xs[1]
        text = _say(
            rng,
            (
                "The graph of a proportional relationship passes through ({x}, {y}). What is "
                "the constant of proportionality?",
                "A line through the origin goes through the point ({x}, {y}). Find k.",
            ),
            x=x,
            y=_num(k * x),
        )
        return text, f"{_e(k * x)} / {x}", _ans(k)
    text = _say(
        rng,
        (
            "What is the constant of proportionality in the equation y = {k}x?",
            "Identify the unit rate in y = {k}x.",
            "In the equation c = {k}n, what is the constant of proportionality?",
        ),
        k=_num(k),
    )
    return text, _e(k), _ans(k)


@_gen("7.RP.A.2.b/constant-from-story", "word")
def _rp2b_story(rng: random.Random) -> Made:
    n = _name(rng)
    qty = rng.randint(2, 16)
    unit = Fraction(rng.randint(50, 1500), 100)
    total = unit * qty
    text = _say(
        rng,
        (
            "{q} gallons of gas cost {t}. What is the constant of proportionality (cost per "
            "gallon)?",
            "{n} earns {t} for {q} hours of babysitting. What is the constant of "
            "proportionality between pay and hours?",
            "A store sells {q} pounds of apples for {t}. Find the unit price.",
            "{n} paid {t} for {q} tickets. What is the cost per ticket?",
            "if {q} bags of chips cost {t} what is the constant of proportionality",
        ),
        n=n,
        q=qty,
        t=_money(total),
    )
    return text, f"{_e(total)} / {qty}", _ans(unit)


@_gen("7.RP.A.2.c/write-and-use-equation", "word")
def _rp2c_story(rng: random.Random) -> Made:
    n = _name(rng)
    price = (
        Fraction(rng.randint(50, 1200), 100) if rng.random() < 0.6 else Fraction(rng.randint(2, 25))
    )
    count = rng.randint(3, 40)
    text = _say(
        rng,
        (
            "Each ticket costs {p}. Write an equation t = pn for the total cost t of n tickets, "
            "then find the cost of {c} tickets.",
            "{n} earns {p} per hour. Write an equation for pay in terms of hours and use it "
            "to find the pay for {c} hours.",
            "Pens cost {p} each. The total cost is proportional to the number bought. Use an "
            "equation to find the cost of {c} pens.",
            "A car uses gas at a constant price of {p} per gallon. Write t = pn and find t "
            "when n = {c}.",
            "how do i write an equation for this: stickers are {p} each and {n} buys {c} of "
            "them. how much in all",
        ),
        n=n,
        p=_money(price),
        c=count,
    )
    return text, f"{_e(price)} * {count}", _ans(price * count)


@_gen("7.RP.A.2.c/proportional-equation", "bare")
def _rp2c_bare(rng: random.Random) -> Made:
    k = Fraction(rng.randint(2, 20), pick(rng, (1, 2, 4)))
    x1 = rng.randint(2, 12)
    x2 = rng.randint(2, 20)
    y1 = k * x1
    text = _say(
        rng,
        (
            "y is proportional to x, and y = {y1} when x = {x1}. Write an equation y = kx and "
            "find y when x = {x2}.",
            "If y varies directly with x and y = {y1} when x = {x1}, what is y when x = {x2}?",
            "A proportional relationship has y = {y1} at x = {x1}. Use y = kx to find y for "
            "x = {x2}.",
            "y = kx. y is {y1} when x is {x1}. what is y when x is {x2}",
        ),
        y1=_num(y1),
        x1=x1,
        x2=x2,
    )
    return text, f"{_e(y1)} / {x1} * {x2}", _ans(k * x2)


@_gen("7.RP.A.2.d/point-one-r", "bare")
def _rp2d_bare(rng: random.Random) -> Made:
    k = Fraction(rng.randint(1, 24), pick(rng, (1, 2, 4)))
    x = rng.randint(2, 10)
    y = k * x
    text = _say(
        rng,
        (
            "The graph of a proportional relationship passes through ({x}, {y}). What is the "
            "y-coordinate of the point where x = 1?",
            "A proportional graph contains the point ({x}, {y}). Find r so that (1, r) is on "
            "the graph.",
            "The point ({x}, {y}) is on a line through the origin. What point (1, r) is on the "
            "line? Give r.",
            "line goes through (0,0) and ({x},{y}). what is y when x = 1",
        ),
        x=x,
        y=_num(y),
    )
    return text, f"{_e(y)} / {x}", _ans(k)


@_gen("7.RP.A.2.d/point-meaning-story", "word")
def _rp2d_story(rng: random.Random) -> Made:
    k = Fraction(rng.randint(2, 60), pick(rng, (1, 2)))
    x = rng.randint(2, 9)
    y = k * x
    text = _say(
        rng,
        (
            "A graph shows the miles a cyclist rides against hours. The point ({x}, {y}) is on "
            "the graph. How many miles does the cyclist ride in 1 hour?",
            "The graph of cost against pounds of cheese passes through (0, 0) and ({x}, {y}). "
            "What does the point (1, r) tell you? Find r in dollars.",
            "A graph of pages read against days goes through ({x}, {y}). What is the "
            "y-value at x = 1, and what does it mean?",
            "On a graph of liters against minutes, the point ({x}, {y}) appears. How many "
            "liters flow in 1 minute?",
        ),
        x=x,
        y=_num(y),
    )
    return text, f"{_e(y)} / {x}", _ans(k)


@_gen("7.RP.A.3/tax-tip-discount-markup", "word")
def _rp3_money(rng: random.Random) -> Made:
    n = _name(rng)
    price = Fraction(rng.randint(8, 240))
    pct = pick(rng, (5, 6, 8, 10, 12, 15, 18, 20, 25, 30, 35, 40, 50))
    kind = rng.randrange(5)
    item = pick(rng, ("jacket", "video game", "pair of shoes", "backpack", "bike helmet", "lamp"))
    if kind == 0:
        text = _say(
            rng,
            (
                "A {i} costs {p}. Sales tax is {r}%. What is the total cost?",
                "{n} buys a {i} for {p} plus {r}% tax. How much does {n} pay in all?",
            ),
            i=item,
            p=_money(price),
            r=pct,
            n=n,
        )
        return text, f"{price} * (1 + {pct}/100)", _ans(price * (1 + Fraction(pct, 100)))
    if kind == 1:
        text = _say(
            rng,
            (
                "A meal costs {p}. {n} leaves a {r}% tip. How much is the tip?",
                "The dinner bill is {p}. What is a {r}% gratuity?",
            ),
            p=_money(price),
            r=pct,
            n=n,
        )
        return text, f"{price} * {pct}/100", _ans(price * Fraction(pct, 100))
    if kind == 2:
        text = _say(
            rng,
            (
                "A {i} is on sale for {r}% off. The original price is {p}. What is the sale price?",
                "A store marks down a {i} by {r}%. It was {p}. What does it cost now?",
                "{i} was {p} and now its {r}% off. how much is it now",
            ),
            i=item,
            p=_money(price),
            r=pct,
        )
        return text, f"{price} * (1 - {pct}/100)", _ans(price * (1 - Fraction(pct, 100)))
    if kind == 3:
        text = _say(
            rng,
            (
                "A store buys a {i} for {p} and marks it up {r}%. What is the selling price?",
                "The wholesale cost of a {i} is {p}. The markup is {r}%. Find the retail price.",
            ),
            i=item,
            p=_money(price),
            r=pct,
        )
        return text, f"{price} * (1 + {pct}/100)", _ans(price * (1 + Fraction(pct, 100)))
    sales = Fraction(rng.randint(5, 80) * 100)
    text = _say(
        rng,
        (
            "{n} earns a {r}% commission on sales. Last week {n} sold {s} worth of goods. How "
            "much commission did {n} earn?",
            "A salesperson gets {r}% commission. How much is earned on {s} in sales?",
        ),
        n=n,
        r=pct,
        s=_money(sales),
    )
    return text, f"{sales} * {pct}/100", _ans(sales * Fraction(pct, 100))


@_gen("7.RP.A.3/interest-and-percent-change", "word")
def _rp3_change(rng: random.Random) -> Made:
    n = _name(rng)
    kind = rng.randrange(4)
    if kind == 0:
        principal = rng.randint(2, 50) * 100
        rate = pick(rng, tuple(Fraction(r, 2) for r in (4, 6, 8, 10, 12, 5, 7)))
        years = rng.randint(1, 8)
        text = _say(
            rng,
            (
                "{n} puts {p} in a savings account that pays {r}% simple interest per year. How "
                "much interest is earned in {y} years?",
                "Find the simple interest on {p} at {r}% per year for {y} years.",
                "A loan of {p} has {r}% simple interest each year. How much interest after {y} "
                "years?",
            ),
            n=n,
            p=_money(principal),
            r=_num(rate),
            y=years,
        )
        return text, f"{principal} * {_e(rate)}/100 * {years}", _ans(principal * rate / 100 * years)
    if kind == 1:
        old = rng.randint(2, 40) * 5
        pct = pick(rng, (10, 20, 25, 30, 40, 50, 60, 75))
        up = rng.random() < 0.5
        new = old * (100 + (pct if up else -pct)) // 100
        if (old * pct) % 100:
            old = 20 * rng.randint(1, 20)
            new = old * (100 + (pct if up else -pct)) // 100
        text = _say(
            rng,
            (
                "The number of students in a club went from {o} to {w}. What is the percent {ch}?",
                "A price changed from ${o} to ${w}. Find the percent {ch}.",
                "what is the percent {ch} from {o} to {w}",
                "A town's population was {o} thousand and is now {w} thousand. By what percent "
                "did it change?",
            ),
            o=old,
            w=new,
            ch="increase" if up else "decrease",
        )
        return text, f"abs({new} - {old}) / {old} * 100", _ans(Fraction(abs(new - old), old) * 100)
    if kind == 2:
        actual = rng.randint(2, 30) * 20
        err = actual * pick(rng, (5, 10, 15, 20, 25)) // 100
        guess = actual + pick(rng, (1, -1)) * err
        text = _say(
            rng,
            (
                "{n} estimated there were {g} jelly beans in a jar. There were actually {a}. "
                "What is the percent error?",
                "A scale reads {g} g for an object that really weighs {a} g. Find the percent "
                "error.",
                "guessed {g} but the real answer was {a}. whats the percent error",
            ),
            n=n,
            g=guess,
            a=actual,
        )
        return (
            text,
            f"abs({guess} - {actual}) / {actual} * 100",
            _ans(Fraction(abs(guess - actual), actual) * 100),
        )
    fee_pct = pick(rng, (3, 4, 5, 10))
    amount = rng.randint(2, 30) * 10
    text = _say(
        rng,
        (
            "A ticket website adds a {f}% fee. The tickets cost {a}. What is the total?",
            "{n} pays a {f}% service fee on a {a} order. How much does {n} pay in all?",
        ),
        f=fee_pct,
        a=_money(amount),
        n=n,
    )
    return text, f"{amount} * (1 + {fee_pct}/100)", _ans(amount * (1 + Fraction(fee_pct, 100)))


@_gen("7.RP.A.3/percent-change", "bare")
def _rp3_bare(rng: random.Random) -> Made:
    old = rng.randint(2, 50) * 4
    pct = pick(rng, (25, 50, 75, 100, 125, 150))
    if rng.random() < 0.5:
        new = old + old * pct // 100
        word = "increase"
    else:
        pct = min(pct, 75)
        new = old - old * pct // 100
        word = "decrease"
    text = _say(
        rng,
        (
            "Find the percent {w} from {o} to {n}.",
            "What is the percent of change from {o} to {n}?",
            "{o} to {n}: percent {w}?",
            "Calculate the percent {w}: original {o}, new {n}.",
        ),
        w=word,
        o=old,
        n=new,
    )
    return text, f"abs({new} - {old}) / {old} * 100", _ans(Fraction(abs(new - old), old) * 100)


# ---- grade 7: expressions and equations


@_gen("7.EE.A.1/expand-and-collect", "bare")
def _ee1_expand(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    if kind == 0:
        a = _nz(rng, -9, 9)
        b = Fraction(rng.randint(1, 4)) if rng.random() < 0.6 else Fraction(rng.randint(1, 9), 2)
        c = _nz(rng, -15, 15)
        sign = pick(rng, ("+", "-"))
        bb = b if sign == "+" else -b
        ask = pick(rng, ("coefficient of x", "constant term"))
        value = Fraction(a) * bb + c if ask == "constant term" else Fraction(a)
        expr = f"{_e(a)} * {_e(bb)} + {_e(c)}" if ask == "constant term" else _e(a)
        text = _say(
            rng,
            (
                "Expand and simplify {a}(x {s} {b}) + {c}. What is the {q}?",
                "Simplify {a}(x {s} {b}) + {c}. Give the {q}.",
                "Use the distributive property: {a}(x {s} {b}) + {c}. What is the {q} of the "
                "simplified expression?",
            ),
            a=a,
            s=sign,
            b=_num(b),
            c=_paren(str(c)),
            q=ask,
        )
        return text, expr, _ans(value)
    if kind == 1:
        cs = [_rat(rng, pick(rng, ("int", "frac"))) for _ in range(3)]
        terms = " + ".join(f"{_paren(_show(c, 'frac'))}x" for c in cs)
        text = _say(
            rng,
            (
                "Combine like terms: {t}. What is the coefficient of x?",
                "Simplify {t}. What number is in front of x?",
                "Collect like terms in {t}.",
                "simplify {t}",
            ),
            t=terms,
        )
        return text, " + ".join(_e(c) for c in cs), _ans(sum(cs, Fraction(0)))
    a1, b1 = _nz(rng, -8, 8), rng.randint(1, 12)
    a2, b2 = _nz(rng, -8, 8), rng.randint(1, 12)
    text = _say(
        rng,
        (
            "Subtract ({a}x + {b}) - ({c}x + {d}). What is the coefficient of x?",
            "Simplify ({a}x + {b}) - ({c}x + {d}) and give the coefficient of x.",
            "what is the x coefficient when you simplify ({a}x + {b}) - ({c}x + {d})",
        ),
        a=a1,
        b=b1,
        c=a2,
        d=b2,
    )
    return text, f"{_e(a1)} - {_e(a2)}", _ans(a1 - a2)


@_gen("7.EE.A.1/factor-linear", "bare")
def _ee1_factor(rng: random.Random) -> Made:
    g = rng.randint(2, 12)
    a = rng.randint(1, 9)
    b = rng.randint(1, 12)
    if math.gcd(a, b) != 1:
        b += 1 if math.gcd(a, b + 1) == 1 else 0
    sign = pick(rng, ("+", "-"))
    ask = rng.randrange(3)
    if ask == 0:
        text = _say(
            rng,
            (
                "Factor {ga}x {s} {gb} as {g}(?x {s} {b}). What goes in the blank?",
                "Fill in the blank: {ga}x {s} {gb} = {g}(__x {s} {b})",
            ),
            ga=g * a,
            gb=g * b,
            g=g,
            b=b,
            s=sign,
        )
        return text, f"{g * a} / {g}", str(a)
    if ask == 1:
        text = _say(
            rng,
            (
                "Factor {ga}x {s} {gb} as {g}({a}x {s} ?). What is the missing number?",
                "{ga}x {s} {gb} = {g}({a}x {s} __). find the blank",
            ),
            ga=g * a,
            gb=g * b,
            g=g,
            a=a,
            s=sign,
        )
        return text, f"{g * b} / {g}", str(b)
    gg = math.gcd(g * a, g * b)
    text = _say(
        rng,
        (
            "What is the greatest common factor you can factor out of {ga}x {s} {gb}?",
            "Factor {ga}x {s} {gb} completely. What number is outside the parentheses?",
            "factor out the GCF from {ga}x {s} {gb}. what is the GCF",
        ),
        ga=g * a,
        gb=g * b,
        s=sign,
    )
    return text, f"gcd({g * a}, {g * b})", str(gg)


@_gen("7.EE.A.2/rewrite-percent-story", "word")
def _ee2_story(rng: random.Random) -> Made:
    pct = pick(rng, (3, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40))
    up = rng.random() < 0.5
    n = _name(rng)
    if up:
        text = _say(
            rng,
            (
                "A price p goes up by {r}%. The new price is p + {d}p. What single number "
                "times p gives the new price?",
                "{n}'s pay of p dollars gets a {r}% raise. Write the new pay as a number times "
                "p. What is the number?",
                "A restaurant bill b plus a {r}% tip is b + {d}b. Rewrite it as ?b.",
                "Sales tax is {r}%. The total for a price x is x + {d}x = kx. Find k.",
                "increase by {r}% is the same as multiplying by what",
            ),
            r=pct,
            d=_num(Fraction(pct, 100)),
            n=n,
        )
        return text, f"1 + {pct}/100", _ans(1 + Fraction(pct, 100))
    text = _say(
        rng,
        (
            "A coat costs c dollars and is {r}% off. The sale price is c - {d}c. What number "
            "times c gives the sale price?",
            "A population P decreases by {r}%. Write the new population as a single number "
            "times P. What is the number?",
            "{n} gets {r}% off. The price becomes x - {d}x = kx. What is k?",
            "taking {r}% off is the same as multiplying by what number",
        ),
        r=pct,
        d=_num(Fraction(pct, 100)),
        n=n,
    )
    return text, f"1 - {pct}/100", _ans(1 - Fraction(pct, 100))


@_gen("7.EE.A.2/equivalent-form", "bare")
def _ee2_bare(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    if kind == 0:
        pct = Fraction(rng.randint(1, 60), 100)
        sign = pick(rng, ("+", "-"))
        text = _say(
            rng,
            (
                "Rewrite a {s} {d}a as a single term. What is the coefficient?",
                "a {s} {d}a = ?a",
                "Write x {s} {d}x in the form kx. Find k.",
            ),
            s=sign,
            d=_num(pct),
        )
        return text, f"1 {sign} {_e(pct)}", _ans(1 + pct if sign == "+" else 1 - pct)
    k = rng.randint(2, 6)
    b = rng.randint(1, 9)
    if kind == 1:
        k = 4
        text = _say(
            rng,
            (
                "The perimeter of a square with side s + {b} can be written 4(s + {b}) or "
                "4s + ?. What is the missing number?",
                "A square has sides of length (x + {b}). Its perimeter is 4x + ?. Find the "
                "missing number.",
            ),
            b=b,
        )
    else:
        text = _say(
            rng,
            (
                "A group of {k} friends each pay x dollars plus a ${b} fee each. The total is "
                "{k}(x + {b}) = {k}x + ?. Find the missing number.",
                "Rewrite {k}(n + {b}) as {k}n + __. What number goes in the blank?",
                "{k}(a + {b}) = {k}a + ?",
            ),
            k=k,
            b=b,
        )
    return text, f"{k} * {b}", str(k * b)


@_gen("7.EE.B.3/multi-step-story", "word")
def _ee3_story(rng: random.Random) -> Made:
    n = _name(rng)
    kind = rng.randrange(4)
    if kind == 0:
        wage = Fraction(rng.randint(24, 120), 4)
        pct = pick(rng, (5, 10, 15, 20))
        text = _say(
            rng,
            (
                "{n} makes {w} an hour and gets a {p}% raise. What is {n}'s new hourly pay?",
                "A worker earning {w} per hour gets a raise of {p}%. How much per hour now?",
                "my mom makes {w} an hour and got a {p}% raise. how much does she make now",
            ),
            n=n,
            w=_money(wage),
            p=pct,
        )
        return text, f"{_e(wage)} * (1 + {pct}/100)", _ans(wage * (1 + Fraction(pct, 100)))
    if kind == 1:
        door = Fraction(rng.randint(48, 80), 2)
        bar = Fraction(rng.randint(24, 80), 4)
        if bar >= door:
            bar = door / 2
        text = _say(
            rng,
            (
                "A towel bar {b} inches long goes in the center of a door {d} inches wide. How "
                "far from each edge should the bar be placed?",
                "A picture {b} in. wide is centered on a wall space {d} in. wide. How much space "
                "is on each side?",
                "{n} wants to center a shelf {b} inches long on a wall {d} inches wide. How many "
                "inches from each end?",
            ),
            b=fraction_text(bar, mixed=True),
            d=fraction_text(door, mixed=True),
            n=n,
        )
        return text, f"({_e(door)} - {_e(bar)}) / 2", _ans((door - bar) / 2)
    if kind == 2:
        price = Fraction(rng.randint(150, 2500), 100)
        qty = rng.randint(2, 6)
        coupon = Fraction(rng.randint(1, 5))
        text = _say(
            rng,
            (
                "{n} buys {q} shirts at {p} each and uses a {c} coupon. How much does {n} pay?",
                "Books cost {p} each. {n} buys {q} and has a coupon for {c} off the total. "
                "What is the cost?",
            ),
            n=n,
            q=qty,
            p=_money(price),
            c=_money(coupon),
        )
        return text, f"{qty} * {_e(price)} - {_e(coupon)}", _ans(qty * price - coupon)
    length = Fraction(rng.randint(10, 40)) + Fraction(rng.randint(0, 3), 4)
    pieces = rng.randint(2, 5)
    cut = Fraction(rng.randint(2, 8), 2)
    while pieces * cut >= length:
        pieces -= 1
    text = _say(
        rng,
        (
            "A board is {l} feet long. {n} cuts off {k} pieces, each {c} feet long. How much "
            "of the board is left?",
            "{n} has {l} m of rope and cuts {k} pieces of {c} m. How many meters remain?",
        ),
        l=fraction_text(length, mixed=True),
        n=n,
        k=pieces,
        c=_num(cut),
    )
    return text, f"{_e(length)} - {pieces} * {_e(cut)}", _ans(length - pieces * cut)


@_gen("7.EE.B.3/mixed-forms", "bare")
def _ee3_bare(rng: random.Random) -> Made:
    a = Fraction(rng.randint(1, 5)) + Fraction(rng.randint(1, 3), 4)
    b = Fraction(rng.randint(-40, 40), 10)
    c = Fraction(_nz(rng, -8, 8))
    text = _say(
        rng,
        (
            "Evaluate {a} + {b} × {c}.",
            "Compute {a} + ({b})({c}). Give the answer as a decimal or fraction.",
            "Find the value: {a} + {b} · {c}",
            "{a} + {b} × {c} = ?",
            "Convert to one form and compute: {a} + {b} × {c}",
        ),
        a=fraction_text(a, mixed=True),
        b=_paren(_num(b)),
        c=_paren(str(c)),
    )
    return text, f"{_e(a)} + {_e(b)} * {_e(c)}", _ans(a + b * c)


@_gen("7.EE.B.4.a/two-step-equation-story", "word")
def _ee4a_story(rng: random.Random) -> Made:
    n = _name(rng)
    kind = rng.randrange(5)
    if kind == 0:
        length = rng.randint(5, 30)
        width = rng.randint(2, length)
        per = 2 * (length + width)
        text = _say(
            rng,
            (
                "The perimeter of a rectangle is {p} cm. Its length is {l} cm. What is its width?",
                "A rectangular garden has a perimeter of {p} ft and a length of {l} ft. Find "
                "the width.",
                "perimeter is {p} and length is {l}. whats the width",
            ),
            p=per,
            l=length,
        )
        return text, f"({per} - 2 * {length}) / 2", str(width)
    if kind == 1:
        fee = rng.randint(10, 60)
        monthly = rng.randint(8, 40)
        months = rng.randint(2, 12)
        total = fee + monthly * months
        text = _say(
            rng,
            (
                "A gym charges a ${f} sign-up fee plus ${m} per month. {n} paid ${t} in all. "
                "How many months did {n} pay for? Write and solve an equation.",
                "A phone plan costs ${m} a month plus a one-time ${f} fee. The total was ${t}. "
                "How many months?",
            ),
            f=fee,
            m=monthly,
            t=total,
            n=n,
        )
        return text, f"({total} - {fee}) / {monthly}", str(months)
    if kind == 2:
        people = rng.randint(2, 8)
        extra = Fraction(rng.randint(2, 12), 2)
        ticket = Fraction(rng.randint(10, 60), 2)
        spent = people * (ticket + extra)
        text = _say(
            rng,
            (
                "{k} friends each buy a movie ticket and a {e} snack. They spend {t} in all. "
                "How much is one ticket?",
                "{n} buys {k} gift bags. Each bag has a toy and a {e} card. The spent is {t}. "
                "How much is each toy?",
            ),
            k=people,
            e=_money(extra),
            t=_money(spent),
            n=n,
        )
        return text, f"{_e(spent)} / {people} - {_e(extra)}", _ans(ticket)
    if kind == 3:
        saved = rng.randint(10, 80)
        weekly = rng.randint(5, 25)
        weeks = rng.randint(2, 15)
        goal = saved + weekly * weeks
        text = _say(
            rng,
            (
                "{n} has ${s} saved and adds ${w} each week. After how many weeks will {n} "
                "have ${g}?",
                "{n} wants ${g} for a bike. {n} already has ${s} and saves ${w} per week. How "
                "many weeks will it take?",
            ),
            n=n,
            s=saved,
            w=weekly,
            g=goal,
        )
        return text, f"({goal} - {saved}) / {weekly}", str(weeks)
    age = rng.randint(5, 15)
    mult = rng.randint(2, 4)
    plus = rng.randint(1, 8)
    other = mult * age + plus
    text = _say(
        rng,
        (
            "{n}'s mother is {o} years old. That is {plus} more than {m} times {n}'s age. How "
            "old is {n}?",
            "{plus} more than {m} times a number is {o}. What is the number?",
        ),
        n=n,
        o=other,
        plus=plus,
        m=mult,
    )
    return text, f"({other} - {plus}) / {mult}", str(age)


@_gen("7.EE.B.4.a/solve-px-q-r", "bare")
def _ee4a_bare(rng: random.Random) -> Made:
    style = pick(rng, ("int", "int", "frac", "dec"))
    x = _rat(rng, style)
    p = (
        Fraction(_nz(rng, -9, 9))
        if style != "frac"
        else Fraction(_nz(rng, -5, 5), pick(rng, (2, 3, 4)))
    )
    q = _rat(rng, "int" if style == "int" else style)
    if rng.random() < 0.5:
        r = p * x + q
        text = _say(
            rng,
            (
                "Solve {p}x + {q} = {r}.",
                "Find x: {p}x + {q} = {r}",
                "Solve for x. {p}x + {q} = {r}",
                "{p}x + {q} = {r}, what is x",
                "What value of x makes {p}x + {q} = {r} true?",
            ),
            p="" if p == 1 else "-" if p == -1 else _show(p, style),
            q=_paren(_show(q, style)),
            r=_show(r, style),
        )
        return text, f"({_e(r)} - {_e(q)}) / {_e(p)}", _ans(x)
    r = p * (x + q)
    text = _say(
        rng,
        (
            "Solve {p}(x + {q}) = {r}.",
            "Find x if {p}(x + {q}) = {r}.",
            "Solve the equation {p}(x + {q}) = {r}.",
            "how do you solve {p}(x + {q}) = {r}",
        ),
        p=_show(p, style),
        q=_paren(_show(q, style)),
        r=_show(r, style),
    )
    return text, f"{_e(r)} / {_e(p)} - {_e(q)}", _ans(x)


@_gen("7.EE.B.4.b/inequality-story", "word")
def _ee4b_story(rng: random.Random) -> Made:
    n = _name(rng)
    base = rng.randint(20, 100)
    per = rng.randint(2, 15)
    target = base + per * rng.randint(3, 20) + rng.randint(0, per - 1)
    kind = rng.randrange(3)
    if kind == 0:
        text = _say(
            rng,
            (
                "As a salesperson, {n} is paid ${b} per week plus ${p} per sale. {n} wants to "
                "earn at least ${t} this week. What is the least number of sales needed?",
                "{n} earns ${b} a week plus ${p} for each sale. Write an inequality for pay of "
                "at least ${t}. What is the fewest sales that works?",
                "i get ${b} plus ${p} per sale and i need at least ${t}. how many sales do i "
                "need at least",
            ),
            n=n,
            b=base,
            p=per,
            t=target,
        )
        return text, f"ceil(({target} - {base}) / {per})", str(-(-(target - base) // per))
    if kind == 1:
        text = _say(
            rng,
            (
                "{n} has ${t} and spends ${b} on a ticket. Rides cost ${p} each. What is the "
                "greatest number of rides {n} can go on?",
                "A taxi charges ${b} plus ${p} per mile. {n} has ${t}. What is the most whole "
                "miles {n} can ride?",
                "You can spend at most ${t}. A shirt is ${b} and socks are ${p} a pair. How "
                "many pairs of socks can you buy at most?",
            ),
            n=n,
            b=base,
            p=per,
            t=target,
        )
        return text, f"floor(({target} - {base}) / {per})", str((target - base) // per)
    cap = rng.randint(800, 3000)
    box = rng.randint(20, 90)
    driver = rng.randint(120, 250)
    text = _say(
        rng,
        (
            "An elevator can hold at most {c} pounds. The operator weighs {d} pounds. Boxes "
            "weigh {w} pounds each. What is the greatest number of boxes that can go with "
            "the operator?",
            "A truck can carry at most {c} kg. The driver is {d} kg and each crate is {w} kg. "
            "Solve an inequality for the most crates.",
        ),
        c=cap,
        d=driver,
        w=box,
    )
    return text, f"floor(({cap} - {driver}) / {box})", str((cap - driver) // box)


@_gen("7.EE.B.4.b/solve-inequality", "bare")
def _ee4b_bare(rng: random.Random) -> Made:
    p = _nz(rng, -9, 9)
    q = rng.randint(-20, 20)
    r = rng.randint(-30, 40)
    sym = pick(rng, (">", "<"))
    bound = Fraction(r - q, p)
    ask = rng.randrange(2)
    lhs = _lin(p, q)
    if ask == 0:
        text = _say(
            rng,
            (
                "Solve {l} {s} {r}. The solution is x compared with what number?",
                "Solve the inequality {l} {s} {r}. What is the boundary value of x?",
                "Graph the solution of {l} {s} {r}. At what number is the open circle?",
                "solve {l} {s} {r}",
            ),
            l=lhs,
            s=sym,
            r=r,
        )
        return text, f"({r} - {_e(q)}) / {_e(p)}", _ans(bound)
    greater = (sym == ">") == (p > 0)
    if greater:
        value = math.floor(bound) + 1
        expr = f"floor(({r} - {_e(q)}) / {_e(p)}) + 1"
        word = "smallest"
    else:
        value = math.ceil(bound) - 1
        expr = f"ceil(({r} - {_e(q)}) / {_e(p)}) - 1"
        word = "largest"
    text = _say(
        rng,
        (
            "What is the {w} integer that makes {l} {s} {r} true?",
            "Find the {w} integer solution of {l} {s} {r}.",
            "Solve {l} {s} {r}. Which is the {w} integer in the solution set?",
        ),
        w=word,
        l=lhs,
        s=sym,
        r=r,
    )
    return text, expr, str(value)


# ---- grade 7: geometry


@_gen("7.G.A.1/scale-drawing-story", "word")
def _g1_story(rng: random.Random) -> Made:
    n = _name(rng)
    kind = rng.randrange(4)
    if kind == 0:
        scale = pick(rng, (5, 10, 20, 25, 50, 100))
        d = Fraction(rng.randint(10, 120), 10)
        text = _say(
            rng,
            (
                "On a map, 1 cm represents {s} km. Two towns are {d} cm apart on the map. How "
                "far apart are they really?",
                "A map scale is 1 cm : {s} km. A road measures {d} cm. What is its actual "
                "length in km?",
                "map says 1 cm = {s} km and the distance is {d} cm. how many km",
            ),
            s=scale,
            d=_num(d),
        )
        return text, f"{_e(d)} * {scale}", _ans(d * scale)
    if kind == 1:
        ft = pick(rng, (2, 3, 4, 5, 8))
        a = Fraction(rng.randint(4, 20), 2)
        b = Fraction(rng.randint(4, 16), 2)
        text = _say(
            rng,
            (
                "In a floor plan, 1 inch represents {f} feet. A room is {a} in by {b} in on "
                "the plan. What is the actual area of the room in square feet?",
                "A scale drawing of a patio uses 1 in = {f} ft. The patio is {a} in long and "
                "{b} in wide on the drawing. Find its real area.",
            ),
            f=ft,
            a=_num(a),
            b=_num(b),
        )
        return text, f"({_e(a)} * {ft}) * ({_e(b)} * {ft})", _ans(a * ft * b * ft)
    if kind == 2:
        old = pick(rng, (2, 3, 4))
        new = pick(rng, (1, 5, 6, 8))
        length = rng.randint(2, 12) * new
        text = _say(
            rng,
            (
                "A drawing uses 1 cm for {o} m. A wall is {l} cm long on it. {n} redraws it "
                "at 1 cm for {w} m. How long is the wall in the new drawing (cm)?",
                "A scale drawing at 1 cm : {o} m shows a pool {l} cm long. How long would it "
                "be at 1 cm : {w} m?",
            ),
            o=old,
            l=length,
            w=new,
            n=n,
        )
        return text, f"{length} * {old} / {new}", _ans(Fraction(length * old, new))
    model = pick(rng, (24, 36, 48, 50, 64, 72, 100))
    size = rng.randint(2, 30)
    text = _say(
        rng,
        (
            "A model car is built at a scale of 1 : {m}. The model is {s} cm long. How long is "
            "the real car in cm?",
            "A model train uses a 1 to {m} scale. A model wagon is {s} inches long. What is "
            "the actual length in inches?",
        ),
        m=model,
        s=size,
    )
    return text, f"{size} * {model}", str(size * model)


@_gen("7.G.A.1/scale-factor", "bare")
def _g1_bare(rng: random.Random) -> Made:
    scale = pick(rng, (2, 3, 4, 5, 10, 50))
    drawn = rng.randint(2, 15)
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "A scale drawing has a scale of 1 : {s}. A side is {d} cm in the drawing. How "
                "long is it actually (cm)?",
                "Scale 1 unit : {s} units. Drawing length {d}. Actual length?",
                "The scale is 1 to {s}. Find the actual length of a {d} cm segment.",
            ),
            s=scale,
            d=drawn,
        )
        return text, f"{drawn} * {scale}", str(drawn * scale)
    w = rng.randint(2, 12)
    text = _say(
        rng,
        (
            "A rectangle in a scale drawing is {d} cm by {w} cm. The scale is 1 cm : {s} m. "
            "What is the actual area in square meters?",
            "Scale 1 : {s}. A drawn rectangle is {d} by {w}. Find the actual area.",
        ),
        d=drawn,
        w=w,
        s=scale,
    )
    return text, f"({drawn} * {scale}) * ({w} * {scale})", str(drawn * w * scale * scale)


@_gen("7.G.A.2/triangle-side-conditions", "bare")
def _g2(rng: random.Random) -> Made:
    a = rng.randint(2, 20)
    b = rng.randint(2, 20)
    big, small = max(a, b), min(a, b)
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "Two sides of a triangle are {a} cm and {b} cm. What is the greatest whole "
                "number length the third side can have?",
                "A triangle has sides {a} and {b}. What is the largest whole-number third "
                "side that still makes a triangle?",
                "{n} has straws {a} in and {b} in long. What is the longest whole-inch straw "
                "that can close a triangle?",
                "whats the biggest the third side can be if two sides are {a} and {b} "
                "(whole numbers)",
            ),
            a=a,
            b=b,
            n=_name(rng),
        )
        return text, f"{a} + {b} - 1", str(a + b - 1)
    text = _say(
        rng,
        (
            "Two sides of a triangle are {a} m and {b} m. What is the smallest whole number "
            "length the third side can have?",
            "Can you build a triangle? Sides {a} and {b} are given. What is the least "
            "whole-number third side that works?",
            "{n} cuts sticks of {a} cm and {b} cm. What is the shortest whole-cm third stick "
            "that makes a triangle?",
        ),
        a=a,
        b=b,
        n=_name(rng),
    )
    return text, f"abs({big} - {small}) + 1", str(big - small + 1)


@_gen("7.G.A.3/cross-section-area", "bare")
def _g3(rng: random.Random) -> Made:
    ln, w, h = rng.randint(2, 15), rng.randint(2, 12), rng.randint(2, 15)
    kind = rng.randrange(4)
    if kind == 0:
        text = _say(
            rng,
            (
                "A right rectangular prism is {l} cm long, {w} cm wide and {h} cm tall. It is "
                "sliced parallel to its base. What is the area of the cross section?",
                "A block of cheese {l} in by {w} in by {h} in tall is cut parallel to the "
                "bottom. Find the area of the cut face.",
                "a prism {l} by {w} by {h} gets sliced parallel to the base. area of the slice?",
            ),
            l=ln,
            w=w,
            h=h,
        )
        return text, f"{ln} * {w}", str(ln * w)
    if kind == 1:
        text = _say(
            rng,
            (
                "A rectangular prism has length {l}, width {w} and height {h}. A plane slices "
                "it perpendicular to the base, parallel to the {w}-by-{h} face. What is the "
                "area of the slice?",
                "A box {l} ft long, {w} ft wide, {h} ft high is cut vertically parallel to its "
                "end. What is the area of the cross section?",
            ),
            l=ln,
            w=w,
            h=h,
        )
        return text, f"{w} * {h}", str(w * h)
    if kind == 2:
        s = rng.randint(2, 12) * 2
        ph = rng.randint(3, 15)
        text = _say(
            rng,
            (
                "A right square pyramid has a base {s} cm on a side and a height of {p} cm. It "
                "is sliced through the top vertex, perpendicular to the base and parallel to a "
                "base edge. What is the area of the triangular cross section?",
                "A square pyramid (base side {s}, height {p}) is cut straight down through its "
                "apex parallel to one side of the base. Find the area of the cut.",
            ),
            s=s,
            p=ph,
        )
        return text, f"{s} * {ph} / 2", _ans(Fraction(s * ph, 2))
    text = _say(
        rng,
        (
            "A cube has edges of {l} in. It is sliced parallel to one face. What is the area "
            "of the cross section?",
            "Slice a cube with side {l} cm parallel to a face. What is the area of the "
            "square you get?",
        ),
        l=ln,
    )
    return text, f"{ln} * {ln}", str(ln * ln)


@_gen("7.G.B.4/circle-story", "word")
def _g4_story(rng: random.Random) -> Made:
    n = _name(rng)
    kind = rng.randrange(4)
    if kind == 0:
        d = rng.randint(10, 30)
        text = _say(
            rng,
            (
                "A bike wheel has a diameter of {d} inches. How far does the bike move in one "
                "full turn of the wheel? Use 3.14 for pi.",
                "{n}'s wheel is {d} in across. How far does it roll in one turn? (pi = 3.14)",
            ),
            d=d,
            n=n,
        )
        return text, f"3.14 * {d}", _ans(Fraction(314, 100) * d)
    if kind == 1:
        r = rng.randint(2, 20)
        text = _say(
            rng,
            (
                "A circular garden has a radius of {r} m. What is its area? Use 3.14 for pi.",
                "A round rug has a radius of {r} ft. How many square feet does it cover? Use 3.14.",
                "a pizza has radius {r} inches, whats the area (use 3.14)",
            ),
            r=r,
        )
        return text, f"3.14 * {r}**2", _ans(Fraction(314, 100) * r * r)
    if kind == 2:
        r = rng.randint(1, 15)
        text = _say(
            rng,
            (
                "A circular track has a circumference of {c} m. What is its radius? Use 3.14 "
                "for pi.",
                "The distance around a round table is {c} in. Find its radius (pi = 3.14).",
            ),
            c=_num(Fraction(628, 100) * r),
        )
        return text, f"{_e(Fraction(628, 100) * r)} / (2 * 3.14)", str(r)
    r = rng.randint(1, 10) * 7
    text = _say(
        rng,
        (
            "A fountain is a circle with radius {r} ft. Using 22/7 for pi, what is its "
            "circumference?",
            "Use pi = 22/7. What is the distance around a circular pond of radius {r} m?",
        ),
        r=r,
    )
    return text, f"2 * 22/7 * {r}", _ans(2 * Fraction(22, 7) * r)


@_gen("7.G.B.4/circle-formulas", "bare")
def _g4_bare(rng: random.Random) -> Made:
    r = rng.randint(1, 20)
    given = pick(rng, ("radius", "diameter"))
    size = r if given == "radius" else 2 * r
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "Find the area of a circle with a {g} of {s} cm. Use 3.14 for pi.",
                "Area of a circle, {g} = {s}. (pi ≈ 3.14)",
                "What is the area of a circle whose {g} is {s} units? Use 3.14.",
            ),
            g=given,
            s=size,
        )
        expr = f"3.14 * {r}**2" if given == "radius" else f"3.14 * ({size} / 2)**2"
        return text, expr, _ans(Fraction(314, 100) * r * r)
    text = _say(
        rng,
        (
            "Find the circumference of a circle with a {g} of {s} m. Use 3.14 for pi.",
            "Circumference when the {g} is {s}? Use 3.14.",
            "what is the circumference if the {g} is {s} (3.14 for pi)",
        ),
        g=given,
        s=size,
    )
    return text, f"3.14 * {2 * r}", _ans(Fraction(314, 100) * 2 * r)


@_gen("7.G.B.5/angle-relationships", "bare")
def _g5_bare(rng: random.Random) -> Made:
    kind = pick(rng, ("supplementary", "complementary", "vertical"))
    a = rng.randint(2, 6)
    b = rng.randint(-10, 20)
    if kind == "vertical":
        x = rng.randint(5, 30)
        angle = a * x + b
        if angle <= 0 or angle >= 180:
            b = 10
            angle = a * x + b
        text = _say(
            rng,
            (
                "Two vertical angles measure ({a}x + {b})° and {g}°. Find x.",
                "Vertical angles are equal. One is {g}° and the other is ({a}x + {b})°. What is x?",
                "vertical angles: {a}x + {b} and {g}. solve for x",
            ),
            a=a,
            b=b,
            g=angle,
        )
        return text, f"({angle} - {_e(b)}) / {a}", str(x)
    total = 180 if kind == "supplementary" else 90
    x = rng.randint(2, (total - 20) // (a + 1))
    angle = a * x + b
    if angle <= 0 or angle >= total:
        b = 5
        angle = a * x + b
    other = total - angle
    text = _say(
        rng,
        (
            "Angles A and B are {k}. Angle A = ({a}x + {b})° and angle B = {o}°. Find x.",
            "Two {k} angles measure {o}° and ({a}x + {b})°. What is x?",
            "Write and solve an equation: two angles are {k}; one is {o}° and the other is "
            "({a}x + {b})°. Find x.",
            "{k} angles {o} and {a}x+{b}, find x",
        ),
        k=kind,
        a=a,
        b=b,
        o=other,
    )
    return text, f"({total} - {other} - {_e(b)}) / {a}", _ans(Fraction(total - other - b, a))


@_gen("7.G.B.5/unknown-angle-story", "word")
def _g5_story(rng: random.Random) -> Made:
    kind = rng.randrange(4)
    if kind == 0:
        a = rng.randint(10, 170)
        text = _say(
            rng,
            (
                "Two angles form a straight line. One measures {a}°. What does the other measure?",
                "A board leans against a flat floor and makes a {a}° angle on one side. What "
                "angle does it make on the other side?",
                "Angles on a line: one is {a}°, find the adjacent angle.",
            ),
            a=a,
        )
        return text, f"180 - {a}", str(180 - a)
    if kind == 1:
        a = rng.randint(5, 85)
        text = _say(
            rng,
            (
                "A right angle is split into two adjacent angles. One is {a}°. What is the other?",
                "The corner of a picture frame is 90°. A brace cuts it into two angles, one "
                "{a}°. Find the other.",
            ),
            a=a,
        )
        return text, f"90 - {a}", str(90 - a)
    if kind == 2:
        total = pick(rng, (90, 180))
        k = pick(rng, (2, 3, 4, 5, 8, 9) if total == 180 else (2, 4, 5, 8, 9))
        text = _say(
            rng,
            (
                "Two angles are {w}. One is {k} times the other. What is the smaller angle?",
                "One of two {w} angles is {k} times as large as the other. Find the smaller angle.",
            ),
            w="supplementary" if total == 180 else "complementary",
            k=k,
        )
        return text, f"{total} / ({k} + 1)", str(total // (k + 1))
    a, b = rng.randint(20, 80), rng.randint(20, 70)
    text = _say(
        rng,
        (
            "Three angles together form a straight angle. Two of them are {a}° and {b}°. What "
            "is the third?",
            "Rays split a straight line into three angles: {a}°, {b}° and x°. Find x.",
        ),
        a=a,
        b=b,
    )
    return text, f"180 - {a} - {b}", str(180 - a - b)


@_gen("7.G.B.6/area-volume-story", "word")
def _g6_story(rng: random.Random) -> Made:
    n = _name(rng)
    kind = rng.randrange(4)
    ln, w, h = rng.randint(2, 20), rng.randint(2, 15), rng.randint(2, 12)
    if kind == 0:
        text = _say(
            rng,
            (
                "A fish tank is {l} in long, {w} in wide and {h} in tall. What is its volume?",
                "{n} fills a box {l} cm by {w} cm by {h} cm with sand. How many cubic cm of "
                "sand fit?",
                "how much does a {l} by {w} by {h} box hold",
            ),
            l=ln,
            w=w,
            h=h,
            n=n,
        )
        return text, f"{ln} * {w} * {h}", str(ln * w * h)
    if kind == 1:
        text = _say(
            rng,
            (
                "{n} wraps a gift box that is {l} in by {w} in by {h} in. How much wrapping "
                "paper covers it exactly (the surface area)?",
                "How much cardboard is needed to make a closed box {l} cm by {w} cm by {h} cm?",
                "A storage chest {l} ft by {w} ft by {h} ft is painted on all sides. What area "
                "is painted?",
            ),
            l=ln,
            w=w,
            h=h,
            n=n,
        )
        return text, f"2 * ({ln}*{w} + {ln}*{h} + {w}*{h})", str(2 * (ln * w + ln * h + w * h))
    if kind == 2:
        b = rng.randint(2, 12) * 2
        th = rng.randint(2, 10)
        text = _say(
            rng,
            (
                "A tent is a triangular prism. The triangle has a base of {b} ft and a height of "
                "{t} ft, and the tent is {l} ft long. What is the volume inside?",
                "A wedge of cheese is a triangular prism with a triangle base {b} cm and "
                "height {t} cm, and length {l} cm. Find its volume.",
            ),
            b=b,
            t=th,
            l=ln,
        )
        return text, f"{b} * {th} / 2 * {ln}", str(b * th // 2 * ln)
    cut_l, cut_w = rng.randint(1, ln - 1) if ln > 2 else 1, rng.randint(1, w - 1) if w > 2 else 1
    text = _say(
        rng,
        (
            "A rectangular yard is {l} m by {w} m. A {a} m by {b} m shed sits in it. How much "
            "grass area is left?",
            "{n}'s room is {l} ft by {w} ft with a {a} ft by {b} ft closet cut out of one "
            "corner. What is the floor area of the L-shaped room?",
        ),
        l=ln,
        w=w,
        a=cut_l,
        b=cut_w,
        n=n,
    )
    return text, f"{ln} * {w} - {cut_l} * {cut_w}", str(ln * w - cut_l * cut_w)


@_gen("7.G.B.6/prism-surface-volume", "bare")
def _g6_bare(rng: random.Random) -> Made:
    ln, w, h = rng.randint(2, 15), rng.randint(2, 12), rng.randint(2, 12)
    kind = rng.randrange(3)
    if kind == 0:
        text = _say(
            rng,
            (
                "Find the surface area of a rectangular prism {l} by {w} by {h}.",
                "Surface area of a right rectangular prism: l = {l}, w = {w}, h = {h}.",
                "What is the total surface area of a prism with dimensions {l} cm, {w} cm and "
                "{h} cm?",
            ),
            l=ln,
            w=w,
            h=h,
        )
        return text, f"2 * ({ln}*{w} + {ln}*{h} + {w}*{h})", str(2 * (ln * w + ln * h + w * h))
    if kind == 1:
        b = rng.randint(2, 10)
        th = rng.randint(2, 10) * 2
        text = _say(
            rng,
            (
                "Find the volume of a triangular prism. The triangular base has base {b} and "
                "height {t}; the prism is {h} long.",
                "Volume = (area of base) × height. Base triangle: b = {b}, h = {t}. Prism "
                "length {h}. Find V.",
            ),
            b=b,
            t=th,
            h=h,
        )
        return text, f"{b} * {th} / 2 * {h}", str(b * th // 2 * h)
    b1, b2 = rng.randint(2, 12), rng.randint(2, 12)
    th = rng.randint(1, 6) * 2
    text = _say(
        rng,
        (
            "Find the area of a trapezoid with bases {a} and {b} and height {h}.",
            "Trapezoid: bases {a} cm and {b} cm, height {h} cm. Area?",
            "area of trapezoid bases {a} and {b} height {h}",
        ),
        a=b1,
        b=b2,
        h=th,
    )
    return text, f"({b1} + {b2}) * {th} / 2", str((b1 + b2) * th // 2)


# ---- grade 7: statistics and probability


@_gen("7.SP.A.2/sample-to-population", "word")
def _sp2_count(rng: random.Random) -> Made:
    sample = pick(rng, (20, 25, 40, 50, 60, 80, 100))
    hits = rng.randint(2, sample - 2)
    pop = sample * rng.randint(5, 40)
    topic = pick(
        rng,
        (
            ("students", "prefer pizza for lunch"),
            ("voters", "plan to vote for Candidate A"),
            ("light bulbs", "are defective"),
            ("fish in the lake", "are trout"),
            ("students", "walk to school"),
            ("shoppers", "used a coupon"),
        ),
    )
    text = _say(
        rng,
        (
            "In a random sample of {s} {p}, {h} {q}. Estimate how many of the {n} {p} {q}.",
            "A random sample of {s} out of {n} {p} found that {h} {q}. Predict the number in "
            "the whole group.",
            "{h} of {s} randomly chosen {p} {q}. About how many of all {n} {p} would you expect?",
            "survey of {s} {p}: {h} {q}. total is {n}. how many in all would",
        ),
        s=sample,
        h=hits,
        n=pop,
        p=topic[0],
        q=topic[1],
    )
    return text, f"{hits} / {sample} * {pop}", _ans(Fraction(hits * pop, sample))


@_gen("7.SP.A.2/sample-mean-estimate", "word")
def _sp2_mean(rng: random.Random) -> Made:
    k = pick(rng, (4, 5, 8))
    data = [rng.randint(2, 12) for _ in range(k)]
    topic = pick(
        rng,
        (
            "word lengths (letters) from randomly chosen words in a book",
            "hours of sleep from randomly chosen students",
            "numbers of pets in randomly chosen homes",
            "minutes spent on homework by randomly picked 7th graders",
        ),
    )
    text = _say(
        rng,
        (
            "A random sample of {t}: {d}. Use the sample mean to estimate the mean of the "
            "population.",
            "Here are {t}: {d}. What is the best estimate of the population mean?",
            "estimate the mean for everyone using this sample: {d}",
        ),
        t=topic,
        d=", ".join(map(str, data)),
    )
    return text, f"mean({', '.join(map(str, data))})", _ans(Fraction(sum(data), k))


@_gen("7.SP.B.3/center-difference-in-mads", "word")
def _sp3(rng: random.Random) -> Made:
    mad = rng.randint(2, 8)
    times = Fraction(rng.randint(2, 8), pick(rng, (1, 2)))
    m2 = rng.randint(100, 170)
    m1 = m2 + times * mad
    groups = pick(
        rng, (("basketball", "soccer"), ("7th graders", "5th graders"), ("Team A", "Team B"))
    )
    text = _say(
        rng,
        (
            "The mean height of the {a} players is {m1} cm and of the {b} players is {m2} cm. "
            "Both groups have a mean absolute deviation of {d} cm. The difference in means is "
            "how many times the MAD?",
            "Mean of {a}: {m1}; mean of {b}: {m2}; MAD of each: {d}. Express the difference "
            "between the centers as a multiple of the MAD.",
            "two groups, means {m1} and {m2}, both have MAD {d}. how many MADs apart are they",
        ),
        a=groups[0],
        b=groups[1],
        m1=_num(m1),
        m2=m2,
        d=mad,
    )
    return text, f"({_e(m1)} - {m2}) / {mad}", _ans(times)


@_gen("7.SP.B.3/difference-of-means", "bare")
def _sp3_bare(rng: random.Random) -> Made:
    k = 5
    a = [rng.randint(10, 40) for _ in range(k)]
    b = [rng.randint(10, 40) for _ in range(k)]
    text = _say(
        rng,
        (
            "Data set A: {a}. Data set B: {b}. What is the difference between the means "
            "(A minus B)?",
            "Find the mean of each data set and subtract: A = {a}; B = {b}.",
            "How far apart are the centers (means) of {a} and {b}? Give mean A - mean B.",
        ),
        a=", ".join(map(str, a)),
        b=", ".join(map(str, b)),
    )
    return (
        text,
        f"mean({', '.join(map(str, a))}) - mean({', '.join(map(str, b))})",
        _ans(Fraction(sum(a) - sum(b), k)),
    )


@_gen("7.SP.B.4/compare-two-samples", "word")
def _sp4(rng: random.Random) -> Made:
    k = pick(rng, (5, 7))
    a = [rng.randint(3, 12) for _ in range(k)]
    b = [rng.randint(3, 12) for _ in range(k)]
    measure = pick(rng, ("median", "mean"))
    topic = pick(
        rng,
        (
            (
                "word lengths in a 7th-grade science book",
                "word lengths in a 4th-grade science book",
            ),
            (
                "minutes of reading by sampled 8th graders",
                "minutes of reading by sampled 6th graders",
            ),
            (
                "heights (in) of sampled bean plants in sun",
                "heights (in) of sampled bean plants in shade",
            ),
        ),
    )
    text = _say(
        rng,
        (
            "Random samples: {ta}: {a}. {tb}: {b}. By how much is the {m} of the first sample "
            "greater than the {m} of the second?",
            "Compare the {m}s of two random samples. Sample 1 ({ta}): {a}. Sample 2 ({tb}): "
            "{b}. Find {m} 1 minus {m} 2.",
            "sample A is {a} and sample B is {b}. whats the difference in {m}s (A - B)",
        ),
        ta=topic[0],
        tb=topic[1],
        a=", ".join(map(str, a)),
        b=", ".join(map(str, b)),
        m=measure,
    )
    fa, fb = (", ".join(map(str, a)), ", ".join(map(str, b)))
    if measure == "mean":
        return text, f"mean({fa}) - mean({fb})", _ans(Fraction(sum(a) - sum(b), k))
    sa, sb = sorted(a), sorted(b)
    return text, f"median({fa}) - median({fb})", _ans(sa[k // 2] - sb[k // 2])


@_gen("7.SP.C.5/complement-likelihood", "word")
def _spc5(rng: random.Random) -> Made:
    p = Fraction(rng.randint(1, 19), 20)
    as_dec = rng.random() < 0.6
    text = _say(
        rng,
        (
            "The probability of rain tomorrow is {p}. What is the probability that it does not "
            "rain?",
            "A spinner lands on blue with probability {p}. What is the probability it does not "
            "land on blue?",
            "The chance {n} wins a game is {p}. What is the chance {n} does not win?",
            "if the probability is {p} what is the probability it doesnt happen",
            "A probability is a number from 0 to 1. P(event) = {p}. What is P(not the event)?",
        ),
        p=_num(p) if as_dec else _fr(p),
        n=_name(rng),
    )
    return text, f"1 - {_e(p)}", _ans(1 - p)


@_gen("7.SP.C.6/predict-frequency", "word")
def _spc6(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    if kind == 0:
        rolls = rng.randint(2, 20) * 60
        faces = sorted(rng.sample(range(1, 7), rng.randint(1, 3)))
        text = _say(
            rng,
            (
                "A number cube is rolled {r} times. About how many times would you expect to "
                "roll {f}?",
                "If you roll a fair die {r} times, predict how many times it lands on {f}.",
                "rolling a die {r} times, how many times should i get {f}",
            ),
            r=rolls,
            f=" or ".join(map(str, faces)),
        )
        return text, f"{rolls} * {len(faces)}/6", str(rolls * len(faces) // 6)
    if kind == 1:
        parts = pick(rng, (4, 5, 8, 10))
        hit = rng.randint(1, parts - 1)
        spins = parts * rng.randint(5, 40)
        text = _say(
            rng,
            (
                "A spinner has {p} equal sections and {h} of them are red. If it is spun {s} "
                "times, about how many times will it land on red?",
                "The probability of landing on red is {h}/{p}. Predict the number of reds in "
                "{s} spins.",
            ),
            p=parts,
            h=hit,
            s=spins,
        )
        return text, f"{spins} * {hit}/{parts}", str(spins * hit // parts)
    trials = rng.randint(20, 200)
    hits = rng.randint(1, trials - 1)
    text = _say(
        rng,
        (
            "{n} flipped a coin {t} times and got heads {h} times. What is the relative "
            "frequency of heads?",
            "In {t} tries, a paper cup landed on its side {h} times. What is the experimental "
            "probability of landing on its side?",
        ),
        n=_name(rng),
        t=trials,
        h=hits,
    )
    return text, f"{hits} / {trials}", _ans(Fraction(hits, trials))


@_gen("7.SP.C.7.a/uniform-model-story", "word")
def _spc7a(rng: random.Random) -> Made:
    kind = rng.randrange(4)
    if kind == 0:
        girls, boys = rng.randint(5, 18), rng.randint(5, 18)
        text = _say(
            rng,
            (
                "A class has {g} girls and {b} boys. A student is chosen at random. What is "
                "the probability that a girl is chosen?",
                "The teacher picks one name at random from {g} girls and {b} boys. Find P(girl).",
                "there are {g} girls and {b} boys in my class, whats the chance a girl gets picked",
            ),
            g=girls,
            b=boys,
        )
        return text, f"{girls} / ({girls} + {boys})", _ans(Fraction(girls, girls + boys))
    if kind == 1:
        cols = [rng.randint(1, 9) for _ in range(3)]
        which = rng.randrange(3)
        names = ("red", "blue", "green")
        text = _say(
            rng,
            (
                "A bag has {r} red, {b} blue and {g} green marbles. One is drawn at random. "
                "What is P({c})?",
                "You pick one marble without looking from {r} red, {b} blue and {g} green. "
                "What is the probability it is {c}?",
            ),
            r=cols[0],
            b=cols[1],
            g=cols[2],
            c=names[which],
        )
        return (
            text,
            f"{cols[which]} / ({cols[0]} + {cols[1]} + {cols[2]})",
            _ans(Fraction(cols[which], sum(cols))),
        )
    if kind == 2:
        word = pick(rng, ("MISSISSIPPI", "BANANA", "PROBABILITY", "STATISTICS", "TENNESSEE"))
        letter = pick(rng, sorted(set(word)))
        text = _say(
            rng,
            (
                "Each letter of the word {w} is written on a card. One card is picked at "
                "random. What is the probability it shows {l}?",
                "The letters of {w} are put in a hat. Find P({l}).",
            ),
            w=word,
            l=letter,
        )
        return (
            text,
            f"{word.count(letter)} / {len(word)}",
            _ans(Fraction(word.count(letter), len(word))),
        )
    sides = pick(rng, (6, 8, 10, 12))
    event = pick(rng, ("an even number", "a number greater than 2", "a multiple of 3"))
    count = {
        "an even number": sides // 2,
        "a number greater than 2": sides - 2,
        "a multiple of 3": sides // 3,
    }[event]
    text = _say(
        rng,
        (
            "A fair {s}-sided number cube is numbered 1 to {s}. What is the probability of "
            "rolling {e}?",
            "You roll a fair {s}-sided die labeled 1-{s}. Find P({e}).",
        ),
        s=sides,
        e=event,
    )
    return text, f"{count} / {sides}", _ans(Fraction(count, sides))


@_gen("7.SP.C.7.b/observed-frequency-model", "word")
def _spc7b(rng: random.Random) -> Made:
    trials = pick(rng, (20, 25, 40, 50, 80, 100, 200))
    hits = rng.randint(1, trials - 1)
    thing = pick(
        rng,
        (
            ("a spinning penny", "landed heads up"),
            ("a paper cup", "landed open-end down"),
            ("a thumbtack", "landed point up"),
            ("a bottle flip", "landed upright"),
            ("a plastic spoon", "landed face up"),
        ),
    )
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "{n} tested {t} {k} times. It {w} {h} times. Based on this, what is the "
                "approximate probability it {w}?",
                "In {k} trials with {t}, it {w} {h} times. Estimate the probability.",
                "we did {t} {k} times and it {w} {h} times. whats the probability",
            ),
            n=_name(rng),
            t=thing[0],
            k=trials,
            w=thing[1],
            h=hits,
        )
        return text, f"{hits} / {trials}", _ans(Fraction(hits, trials))
    more = trials * rng.randint(2, 10)
    text = _say(
        rng,
        (
            "With {t}, it {w} {h} times out of {k} trials. Using this, predict how many times "
            "it would do so in {m} trials.",
            "{n} found that {t} {w} {h} out of {k} times. How many times would you expect in "
            "{m} tries?",
        ),
        n=_name(rng),
        t=thing[0],
        w=thing[1],
        h=hits,
        k=trials,
        m=more,
    )
    return text, f"{hits} / {trials} * {more}", _ans(Fraction(hits * more, trials))


@_gen("7.SP.C.8.a/compound-probability", "word")
def _spc8a(rng: random.Random) -> Made:
    kind = rng.randrange(4)
    if kind == 0:
        s = rng.randint(2, 12)
        ways = min(s - 1, 13 - s)
        text = _say(
            rng,
            (
                "Two fair number cubes are rolled. What is the probability that the sum is {s}?",
                "You roll two dice. Find P(sum = {s}).",
                "whats the probability of getting a sum of {s} with 2 dice",
            ),
            s=s,
        )
        return text, f"min({s} - 1, 13 - {s}) / (6 * 6)", _ans(Fraction(ways, 36))
    if kind == 1:
        face = rng.randint(1, 6)
        side = pick(rng, ("heads", "tails"))
        text = _say(
            rng,
            (
                "A coin is tossed and a number cube is rolled. What is the probability of "
                "{c} and a {f}?",
                "Flip a coin and roll a die. Find P({c}, {f}).",
            ),
            c=side,
            f=face,
        )
        return text, "1 / (2 * 6)", _ans(Fraction(1, 12))
    if kind == 2:
        n = rng.randint(2, 4)
        text = _say(
            rng,
            (
                "A fair coin is flipped {n} times. What is the probability of getting heads "
                "every time?",
                "What is the probability of {n} tails in a row with a fair coin?",
            ),
            n=n,
        )
        return text, f"1 / 2**{n}", _ans(Fraction(1, 2**n))
    a, b = rng.randint(2, 6), rng.randint(2, 6)
    text = _say(
        rng,
        (
            "A spinner has {a} equal parts numbered 1 to {a} and another has {b} equal parts "
            "numbered 1 to {b}. Both are spun. What is the probability both land on 1?",
            "Spin a {a}-part spinner and a {b}-part spinner (equal parts). What is P(1 and 1)?",
        ),
        a=a,
        b=b,
    )
    return text, f"1 / ({a} * {b})", _ans(Fraction(1, a * b))


@_gen("7.SP.C.8.b/sample-space-count", "word")
def _spc8b(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    n = _name(rng)
    if kind == 0:
        a, b, c = rng.randint(2, 6), rng.randint(2, 6), rng.randint(1, 4)
        text = _say(
            rng,
            (
                "{n} has {a} shirts, {b} pairs of pants and {c} hats. How many different "
                "outfits of one shirt, one pair of pants and one hat are there?",
                "A sandwich shop offers {a} breads, {b} meats and {c} cheeses. How many "
                "sandwiches with one of each can be made? Use a tree diagram or list.",
                "how many outcomes: {a} choices then {b} choices then {c} choices",
            ),
            n=n,
            a=a,
            b=b,
            c=c,
        )
        return text, f"{a} * {b} * {c}", str(a * b * c)
    if kind == 1:
        s = rng.randint(3, 11)
        text = _say(
            rng,
            (
                "List the sample space for rolling two number cubes. How many outcomes have a "
                "sum of {s}?",
                "Two dice are rolled. How many of the 36 outcomes give a sum of {s}?",
            ),
            s=s,
        )
        return text, f"min({s} - 1, 13 - {s})", str(min(s - 1, 13 - s))
    flips = rng.randint(2, 5)
    text = _say(
        rng,
        (
            "How many outcomes are in the sample space when a coin is flipped {f} times?",
            "Draw a tree diagram for flipping a coin {f} times. How many outcomes are there?",
            "A coin is tossed {f} times. How many different sequences of heads and tails are "
            "possible?",
        ),
        f=flips,
    )
    return text, f"2**{flips}", str(2**flips)


@_gen("7.SP.C.8.c/simulation-estimate", "word")
def _spc8c(rng: random.Random) -> Made:
    trials = pick(rng, (20, 25, 40, 50, 100))
    hits = rng.randint(1, trials - 1)
    setting = pick(
        rng,
        (
            "If 40% of donors have type A blood, a simulation uses random digits 0-3 for "
            "type A. In {t} simulated trials it took at least 4 donors to find type A in {h} "
            "trials",
            "A cereal box holds one of 6 prizes. {n} simulates buying boxes with a number "
            "cube. In {t} trials, getting all 6 prizes took more than 10 boxes {h} times",
            "A player makes 70% of free throws. A simulation with random digits (0-6 = make) "
            "ran {t} trials of two shots; both shots were made in {h} trials",
            "{n} uses a spinner to simulate a quiz guess. Out of {t} simulated quizzes, "
            "{h} had at least 3 correct",
        ),
    ).format(t=trials, h=hits, n=_name(rng))
    text = _voice(
        rng,
        pick(
            rng,
            (
                f"{setting}. What is the estimated probability?",
                f"{setting}. Use the simulation to estimate the probability of the event.",
                f"{setting}. Based on the results, what is the experimental probability?",
            ),
        ),
    )
    return text, f"{hits} / {trials}", _ans(Fraction(hits, trials))


# ---- grade 8: expressions and equations

_SUP = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _pow(base: int, exp: int, caret: bool) -> str:
    b = f"({base})" if base < 0 else str(base)
    if caret:
        return f"{b}^{exp}" if exp >= 0 else f"{b}^({exp})"
    return b + str(exp).translate(_SUP)


@_gen("8.EE.A.1/exponent-rules", "bare")
def _e8a1_rules(rng: random.Random) -> Made:
    base = pick(rng, (2, 2, 3, 3, 4, 5, 10, -2, -3))
    caret = rng.random() < 0.6
    kind = rng.randrange(3)
    m, n = _nz(rng, -6, 7), _nz(rng, -7, 6)
    if kind == 0:
        while abs(m + n) > 5:
            n = _nz(rng, -5, 5)
        shown = f"{_pow(base, m, caret)} × {_pow(base, n, caret)}"
        expr = f"({base})**({m}) * ({base})**({n})"
        value = Fraction(base) ** (m + n)
    elif kind == 1:
        while abs(m - n) > 5:
            n = _nz(rng, -5, 5)
        shown = f"{_pow(base, m, caret)} ÷ {_pow(base, n, caret)}"
        expr = f"({base})**({m}) / ({base})**({n})"
        value = Fraction(base) ** (m - n)
    else:
        m, n = _nz(rng, -3, 3), _nz(rng, -2, 2)
        if abs(base) > 3:
            base = pick(rng, (2, 3))
        inner = _pow(base, m, caret)
        shown = f"({inner})^{n}" if caret or n < 0 else f"({inner}){str(n).translate(_SUP)}"
        if caret and n < 0:
            shown = f"({inner})^({n})"
        expr = f"(({base})**({m}))**({n})"
        value = Fraction(base) ** (m * n)
    text = _say(
        rng,
        (
            "Simplify {s}. Write the answer as a number.",
            "Evaluate {s}.",
            "Use the properties of exponents to find the value of {s}.",
            "What is {s}?",
            "{s} = ?",
            "write {s} as a fraction or whole number",
        ),
        s=shown,
    )
    return text, expr, _ans(value)


@_gen("8.EE.A.1/zero-and-negative-exponents", "bare")
def _e8a1_zero(rng: random.Random) -> Made:
    a, b = rng.randint(2, 10), rng.randint(2, 6)
    k = rng.randint(1, 3)
    kind = rng.randrange(3)
    if kind == 0:
        text = _say(
            rng,
            (
                "Evaluate {a}^(-{k}).",
                "What is {a} to the power of -{k}?",
                "Write {a}^-{k} as a fraction.",
            ),
            a=a,
            k=k,
        )
        return text, f"{a}**(-{k})", _ans(Fraction(1, a**k))
    if kind == 1:
        text = _say(
            rng,
            ("Evaluate {a}^0 + {b}^(-1).", "What is {a}⁰ + {b}⁻¹?", "find {a}^0 + {b}^-1"),
            a=a,
            b=b,
        )
        return text, f"{a}**0 + {b}**(-1)", _ans(1 + Fraction(1, b))
    text = _say(
        rng,
        (
            "Evaluate (1/{b})^(-{k}).",
            "What is (1/{b}) to the power -{k}?",
            "Simplify (1/{b})^-{k}.",
        ),
        b=b,
        k=k,
    )
    return text, f"(1/{b})**(-{k})", _ans(b**k)


@_gen("8.EE.A.2/square-cube-roots", "bare")
def _e8a2_bare(rng: random.Random) -> Made:
    kind = rng.randrange(4)
    if kind == 0:
        r = rng.randint(2, 15)
        text = _say(
            rng,
            (
                "Solve x² = {p} for the positive value of x.",
                "x^2 = {p}. What is the positive solution?",
                "Evaluate √{p}.",
                "What is the square root of {p}?",
                "sqrt({p}) = ?",
            ),
            p=r * r,
        )
        return text, f"sqrt({r * r})", str(r)
    if kind == 1:
        a, b = rng.randint(1, 9), rng.randint(2, 12)
        if a == b:
            b += 1
        text = _say(
            rng,
            (
                "Solve x^2 = {a}/{b} where x > 0.",
                "Find √({a}/{b}).",
                "x² = {a}/{b}, x positive. x = ?",
            ),
            a=a * a,
            b=b * b,
        )
        return text, f"sqrt({a * a}/{b * b})", _ans(Fraction(a, b))
    r = rng.randint(1, 10)
    # No cube root in the answer test: r is the root because c / r**2 == r.
    text = _say(
        rng,
        (
            "Solve x³ = {c}.",
            "x^3 = {c}. What is x?",
            "Evaluate the cube root of {c}.",
            "What is ∛{c}?",
            "what number cubed is {c}",
        ),
        c=r**3,
    )
    return text, f"{r**3} / {r}**2", str(r)


@_gen("8.EE.A.2/side-from-area-volume", "word")
def _e8a2_story(rng: random.Random) -> Made:
    n = _name(rng)
    if rng.random() < 0.55:
        s = rng.randint(3, 25)
        text = _say(
            rng,
            (
                "A square garden has an area of {a} square feet. How long is each side?",
                "{n}'s square rug covers {a} square meters. What is the length of one side?",
                "A square tile has area {a} cm². Find its side length.",
                "if a square has area {a} how long is a side",
            ),
            a=s * s,
            n=n,
        )
        return text, f"sqrt({s * s})", str(s)
    r = rng.randint(2, 10)
    text = _say(
        rng,
        (
            "A cube-shaped box has a volume of {v} cubic inches. How long is each edge?",
            "{n} builds a cube from {v} unit cubes. How many cubes long is each edge?",
            "A cube has volume {v} cm³. What is its edge length?",
        ),
        v=r**3,
        n=n,
    )
    return text, f"{r**3} / {r}**2", str(r)


@_gen("8.EE.A.3/power-of-ten-estimate", "word")
def _e8a3(rng: random.Random) -> Made:
    if rng.random() < 0.5:
        a, b = rng.randint(1, 9), rng.randint(1, 9)
        m = rng.randint(3, 9)
        n = m + rng.randint(1, 3)
        things = pick(
            rng,
            (
                ("the population of a country", "the population of the world"),
                ("the number of ants in a colony", "the number of ants in a forest"),
                ("the distance to the Moon in meters", "the distance to Mars in meters"),
                ("a town's yearly water use in liters", "a state's yearly water use in liters"),
            ),
        )
        text = _say(
            rng,
            (
                "Estimate {x} as {a} × 10^{m} and {y} as {b} × 10^{n}. About how many times "
                "as large is the second? Round to the nearest whole number.",
                "{a} × 10^{m} and {b} × 10^{n}: the second is about how many times the first "
                "(nearest whole number)?",
                "how many times bigger is {b} x 10^{n} than {a} x 10^{m} (round to a whole number)",
            ),
            x=things[0],
            y=things[1],
            a=a,
            b=b,
            m=m,
            n=n,
        )
        return (
            text,
            f"round_to({b} * 10**{n} / ({a} * 10**{m}), 1)",
            _ans(_round_to(Fraction(b * 10**n, a * 10**m), Fraction(1))),
        )
    digits = rng.randint(5, 9)
    value = rng.randint(10 ** (digits - 1), 10**digits - 1)
    unit = 10 ** (digits - 1)
    if _round_to(Fraction(value), Fraction(unit)) >= 10**digits:
        value = 10 ** (digits - 1) * rng.randint(1, 8) + rng.randint(0, unit // 2 - 1)
    text = _say(
        rng,
        (
            "Estimate {v} as a single digit times a power of 10. Write the estimate in "
            "standard form.",
            "Round {v} to one significant digit (a single digit times a power of ten). What "
            "number is that?",
            "A city has {v} people. Estimate the population as a single digit times 10 to a "
            "power. What is the estimate?",
        ),
        v=f"{value:,}",
    )
    return (
        text,
        f"round_to({value}, 10**{digits - 1})",
        _ans(_round_to(Fraction(value), Fraction(unit))),
    )


@_gen("8.EE.A.4/scientific-notation-operations", "bare")
def _e8a4_bare(rng: random.Random) -> Made:
    a = Fraction(rng.randint(11, 95), 10)
    b = Fraction(rng.randint(1, 9))
    m, n = rng.randint(-6, 8), rng.randint(-5, 6)
    kind = rng.randrange(3)
    left, right = f"({_num(a)} × 10^{m})", f"({_num(b)} × 10^{n})"
    if kind == 0:
        shown, expr = f"{left} × {right}", f"{_e(a)} * 10**({m}) * {_e(b)} * 10**({n})"
        value = a * b * Fraction(10) ** (m + n)
    elif kind == 1:
        shown, expr = f"{left} ÷ {right}", f"{_e(a)} * 10**({m}) / ({_e(b)} * 10**({n}))"
        value = a / b * Fraction(10) ** (m - n)
        if _decimal(value) is None:
            b = Fraction(pick(rng, (2, 4, 5)))
            right = f"({_num(b)} × 10^{n})"
            shown, expr = f"{left} ÷ {right}", f"{_e(a)} * 10**({m}) / ({_e(b)} * 10**({n}))"
            value = a / b * Fraction(10) ** (m - n)
    else:
        n = m + pick(rng, (-1, 0, 1))
        right = f"({_num(b)} × 10^{n})"
        shown, expr = f"{left} + {right}", f"{_e(a)} * 10**({m}) + {_e(b)} * 10**({n})"
        value = a * Fraction(10) ** m + b * Fraction(10) ** n
    text = _say(
        rng,
        (
            "Compute {s}. Write the answer in standard form.",
            "Evaluate {s} and give the result as a decimal number.",
            "{s} = ? (standard form)",
            "Find {s}.",
            "what is {s} written out as a normal number",
        ),
        s=shown,
    )
    return text, expr, _ans(value)


@_gen("8.EE.A.4/scientific-notation-story", "word")
def _e8a4_story(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    if kind == 0:
        d = pick(rng, (Fraction(15, 10), Fraction(3), Fraction(45, 10), Fraction(6), Fraction(9)))
        text = _say(
            rng,
            (
                "Light travels about 3 × 10^5 km per second. A star's light travels {d} × 10^8 "
                "km to reach a planet. How many seconds does it take?",
                "A signal moves at 3 × 10^5 km/s. How long, in seconds, to cover {d} × 10^8 km?",
            ),
            d=_num(d),
        )
        return text, f"{_e(d)} * 10**8 / (3 * 10**5)", _ans(d * 10**8 / (3 * 10**5))
    if kind == 1:
        a = Fraction(rng.randint(12, 90), 10)
        count = rng.randint(2, 9) * 1000
        text = _say(
            rng,
            (
                "One grain of sand has a mass of about {a} × 10^-3 grams. What is the mass of "
                "{c} grains, in grams?",
                "A bacterium is {a} × 10^-3 mm long. How long would {c} of them be end to end "
                "(mm)?",
            ),
            a=_num(a),
            c=f"{count:,}",
        )
        return text, f"{_e(a)} * 10**(-3) * {count}", _ans(a * count / 1000)
    a = Fraction(rng.randint(11, 99), 10)
    b = Fraction(rng.randint(11, 99), 10)
    p = rng.randint(5, 9)
    text = _say(
        rng,
        (
            "Country A has {a} × 10^{p} people and country B has {b} × 10^{p}. How many people "
            "do they have together? Write the number in standard form.",
            "Two stores sold {a} × 10^{p} and {b} × 10^{p} items last year. What is the total?",
        ),
        a=_num(a),
        b=_num(b),
        p=p,
    )
    return text, f"({_e(a)} + {_e(b)}) * 10**{p}", _ans((a + b) * 10**p)


@_gen("8.EE.B.5/compare-unit-rates", "word")
def _e8b5_story(rng: random.Random) -> Made:
    r1, r2 = rng.randint(20, 70), rng.randint(20, 70)
    if r1 == r2:
        r2 += 3
    t = rng.randint(2, 6)
    pair = pick(
        rng,
        (
            ("Car A", "Car B", "miles", "hours", "d", "t"),
            ("Pump A", "Pump B", "gallons", "minutes", "g", "m"),
            ("Printer A", "Printer B", "pages", "minutes", "p", "m"),
            ("Runner A", "Runner B", "meters", "seconds", "d", "s"),
        ),
    )
    text = _say(
        rng,
        (
            "{a}'s graph of {u} against {v} is a line through (0, 0) and ({t}, {y}). {b} "
            "follows the equation {ys} = {r2}{xs}. How many more {u} per {v1} does the faster "
            "one do?",
            "Compare: {a} goes through the point ({t}, {y}) on a proportional graph; {b} is "
            "{ys} = {r2}{xs}. What is the difference in their unit rates?",
            "{a}: graph through ({t}, {y}). {b}: {ys} = {r2}{xs}. which has the greater slope, "
            "and by how much? give the difference",
        ),
        a=pair[0],
        b=pair[1],
        u=pair[2],
        v=pair[3],
        v1=pair[3].rstrip("s"),
        t=t,
        y=r1 * t,
        r2=r2,
        ys=pair[4],
        xs=pair[5],
    )
    return text, f"abs({r1 * t} / {t} - {r2})", str(abs(r1 - r2))


@_gen("8.EE.B.5/slope-as-unit-rate", "bare")
def _e8b5_bare(rng: random.Random) -> Made:
    k = Fraction(rng.randint(1, 40), pick(rng, (1, 2, 4)))
    x = rng.randint(2, 12)
    text = _say(
        rng,
        (
            "The graph of a proportional relationship passes through (0, 0) and ({x}, {y}). "
            "What is the slope?",
            "A line through the origin passes through ({x}, {y}). What unit rate does the "
            "slope show?",
            "Find the slope of the graph of a proportional relationship that contains ({x}, {y}).",
            "slope of the line from (0,0) to ({x},{y})?",
        ),
        x=x,
        y=_num(k * x),
    )
    return text, f"{_e(k * x)} / {x}", _ans(k)


@_gen("8.EE.B.6/slope-two-points", "bare")
def _e8b6_slope(rng: random.Random) -> Made:
    x1, y1 = rng.randint(-10, 10), rng.randint(-10, 10)
    x2 = x1 + _nz(rng, -8, 8)
    y2 = rng.randint(-12, 12)
    text = _say(
        rng,
        (
            "Find the slope of the line through ({a}, {b}) and ({c}, {d}).",
            "What is the slope between the points ({a}, {b}) and ({c}, {d})?",
            "A line passes through ({a}, {b}) and ({c}, {d}). Use rise over run to find m.",
            "slope of ({a},{b}) and ({c},{d})",
            "Use similar slope triangles: the line through ({a}, {b}) and ({c}, {d}) has what "
            "slope?",
        ),
        a=x1,
        b=y1,
        c=x2,
        d=y2,
    )
    return text, f"({y2} - {_e(y1)}) / ({x2} - {_e(x1)})", _ans(Fraction(y2 - y1, x2 - x1))


@_gen("8.EE.B.6/y-intercept-from-point", "bare")
def _e8b6_b(rng: random.Random) -> Made:
    m = _nz(rng, -6, 6)
    x, y = rng.randint(-6, 8), rng.randint(-15, 20)
    text = _say(
        rng,
        (
            "A line has slope {m} and passes through ({x}, {y}). Write it as y = mx + b. What "
            "is b?",
            "Find the y-intercept of the line with slope {m} through the point ({x}, {y}).",
            "y = {m}x + b goes through ({x}, {y}). Find b.",
            "what is b if the slope is {m} and the line goes through ({x},{y})",
        ),
        m=m,
        x=x,
        y=y,
    )
    return text, f"{_e(y)} - {_e(m)} * {_e(x)}", str(y - m * x)


@_gen("8.EE.C.7.a/no-or-infinite-solutions", "bare")
def _e8c7a(rng: random.Random) -> Made:
    a = _nz(rng, -9, 9)
    b, c = rng.randint(-12, 12), rng.randint(-12, 12)
    if b == c:
        c += 1
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "For what value of k does {a}x + {b} = kx + {c} have no solution?",
                "Find k so that the equation {a}x + {b} = kx + {c} has no solutions.",
                "what number k makes {a}x + {b} = kx + {c} have no solution",
            ),
            a=a,
            b=_paren(str(b)),
            c=_paren(str(c)),
        )
        return text, _e(a), str(a)
    m = rng.randint(2, 6)
    d = rng.randint(-9, 9)
    text = _say(
        rng,
        (
            "What value of c makes {m}(x + {d}) = {m}x + c true for every x (infinitely many "
            "solutions)?",
            "Find c so that {m}(x + {d}) = {m}x + c has infinitely many solutions.",
            "{m}(x + {d}) = {m}x + c. For which c is every x a solution?",
        ),
        m=m,
        d=_paren(str(d)),
    )
    return text, f"{m} * {_e(d)}", str(m * d)


@_gen("8.EE.C.7.b/multi-step-equation", "bare")
def _e8c7b_bare(rng: random.Random) -> Made:
    x = Fraction(rng.randint(-12, 12)) if rng.random() < 0.7 else Fraction(_nz(rng, -9, 9), 2)
    a, c = _nz(rng, -6, 6), _nz(rng, -6, 6)
    while c == a:
        c = _nz(rng, -6, 6)
    b = rng.randint(-9, 9)
    d = rng.randint(-15, 15)
    kind = rng.randrange(2)
    if kind == 0:
        # a(x + b) + d = c x + e
        e = a * (x + b) + d - c * x
        inside = f"x + {b}" if b >= 0 else f"x - {-b}"
        left = f"{a}({inside}) + {d}" if d >= 0 else f"{a}({inside}) - {-d}"
        shown = f"{left} = {_lin(c, 0)} + {_paren(_num(e))}"
        expr = f"({_e(e)} - {_e(a)} * {_e(b)} - {_e(d)}) / ({_e(a)} - {_e(c)})"
    else:
        e = a * x + b - c * x
        shown = f"{_lin(a, b)} = {_lin(c, 0)} + {_paren(_num(e))}"
        expr = f"({_e(e)} - {_e(b)}) / ({_e(a)} - {_e(c)})"
    text = _say(
        rng,
        (
            "Solve {s}.",
            "Solve for x: {s}",
            "Find x. {s}",
            "{s}, solve for x",
            "What value of x makes {s} true?",
            "Use the distributive property and collect like terms to solve {s}.",
        ),
        s=shown,
    )
    return text, expr, _ans(x)


@_gen("8.EE.C.7.b/variables-both-sides-story", "word")
def _e8c7b_story(rng: random.Random) -> Made:
    n = _name(rng)
    fee_a, rate_a = rng.randint(10, 40), rng.randint(6, 15)
    rate_b = rate_a - rng.randint(1, 5)
    months = rng.randint(2, 15)
    fee_b = fee_a + (rate_a - rate_b) * months
    text = _say(
        rng,
        (
            "Gym A charges ${fa} to join plus ${ra} a month. Gym B charges ${fb} to join plus "
            "${rb} a month. After how many months do they cost the same?",
            "{n} compares two plans: ${fa} + ${ra} per month, or ${fb} + ${rb} per month. "
            "When are the totals equal?",
            "Plan A: {fa} + {ra}x. Plan B: {fb} + {rb}x. Solve {fa} + {ra}x = {fb} + {rb}x.",
            "two phone plans one is {fa} dollars plus {ra} a month and the other is {fb} "
            "dollars plus {rb} a month. when do they cost the same",
        ),
        fa=fee_a,
        ra=rate_a,
        fb=fee_b,
        rb=rate_b,
        n=n,
    )
    return text, f"({fee_b} - {fee_a}) / ({rate_a} - {rate_b})", str(months)


def _lin(m: int, b: int) -> str:
    """mx + b as written by hand: "x", "-x", "3x - 7"."""
    head = "x" if m == 1 else "-x" if m == -1 else f"{m}x"
    if b == 0:
        return head
    return f"{head} + {b}" if b > 0 else f"{head} - {-b}"


def _line(m: int, b: int) -> str:
    return f"y = {_lin(m, b)}"


@_gen("8.EE.C.8.a/intersection-of-lines", "bare")
def _e8c8a(rng: random.Random) -> Made:
    x, y = rng.randint(-6, 6), rng.randint(-8, 8)
    m1 = _nz(rng, -5, 5)
    m2 = _nz(rng, -5, 5)
    while m2 == m1:
        m2 = _nz(rng, -5, 5)
    b1, b2 = y - m1 * x, y - m2 * x
    ask = pick(rng, ("x", "y"))
    text = _say(
        rng,
        (
            "The graphs of {l1} and {l2} intersect at one point. What is its {a}-coordinate?",
            "Where do the lines {l1} and {l2} cross? Give the {a}-coordinate.",
            "Graph {l1} and {l2}. What is the {a}-value of the point of intersection?",
            "at what {a} value do {l1} and {l2} meet",
        ),
        l1=_line(m1, b1),
        l2=_line(m2, b2),
        a=ask,
    )
    xe = f"({_e(b2)} - {_e(b1)}) / ({_e(m1)} - {_e(m2)})"
    if ask == "x":
        return text, xe, str(x)
    return text, f"{_e(m1)} * {xe} + {_e(b1)}", str(y)


@_gen("8.EE.C.8.b/solve-system", "bare")
def _e8c8b(rng: random.Random) -> Made:
    x, y = rng.randint(-8, 8), rng.randint(-8, 8)
    a, b = _nz(rng, -5, 5), _nz(rng, -5, 5)
    c, d = _nz(rng, -5, 5), _nz(rng, -5, 5)
    while a * d - b * c == 0:
        d = _nz(rng, -5, 5)
    e, f = a * x + b * y, c * x + d * y

    def eq(p: int, q: int, r: int) -> str:
        return f"{_lin(p, 0)} {'+' if q > 0 else '-'} {'' if abs(q) == 1 else abs(q)}y = {r}"

    ask = pick(rng, ("x", "y", "x + y"))
    text = _say(
        rng,
        (
            "Solve the system: {e1} and {e2}. What is {a}?",
            "Solve by elimination or substitution. {e1}; {e2}. Find {a}.",
            "{e1}, {e2}. solve for {a}",
            "Find the solution of the system {e1}, {e2}, and give {a}.",
        ),
        e1=eq(a, b, e),
        e2=eq(c, d, f),
        a=ask,
    )
    det = f"({_e(a)} * {_e(d)} - {_e(b)} * {_e(c)})"
    xe = f"({_e(e)} * {_e(d)} - {_e(b)} * {_e(f)}) / {det}"
    ye = f"({_e(a)} * {_e(f)} - {_e(e)} * {_e(c)}) / {det}"
    if ask == "x":
        return text, xe, str(x)
    if ask == "y":
        return text, ye, str(y)
    return text, f"{xe} + {ye}", str(x + y)


@_gen("8.EE.C.8.c/two-unknowns-story", "word")
def _e8c8c(rng: random.Random) -> Made:
    n = _name(rng)
    kind = rng.randrange(3)
    if kind == 0:
        pa, pc = rng.randint(8, 20), rng.randint(3, 7)
        adults, kids = rng.randint(5, 80), rng.randint(5, 80)
        total, money = adults + kids, adults * pa + kids * pc
        text = _say(
            rng,
            (
                "Adult tickets cost ${a} and student tickets cost ${c}. {t} tickets were sold "
                "for ${m}. How many adult tickets were sold?",
                "A play sold {t} tickets for ${m} in all. Adults paid ${a} and kids paid ${c}. "
                "How many adults went?",
                "{t} tickets, ${m} total, adults ${a}, kids ${c}. how many adult tickets",
            ),
            a=pa,
            c=pc,
            t=total,
            m=money,
        )
        return text, f"({money} - {pc} * {total}) / ({pa} - {pc})", str(adults)
    if kind == 1:
        big, small = rng.randint(10, 60), rng.randint(1, 40)
        if big <= small:
            big, small = small + 10, big
        text = _say(
            rng,
            (
                "The sum of two numbers is {s} and their difference is {d}. What is the "
                "larger number?",
                "Two numbers add to {s}. One is {d} more than the other. Find the larger one.",
            ),
            s=big + small,
            d=big - small,
        )
        return text, f"({big + small} + {big - small}) / 2", str(big)
    q, d_ = rng.randint(2, 30), rng.randint(2, 30)
    text = _say(
        rng,
        (
            "{n} has {c} coins, all quarters and dimes, worth ${v}. How many quarters does "
            "{n} have?",
            "A jar holds {c} dimes and quarters worth ${v} in all. How many are quarters?",
        ),
        n=n,
        c=q + d_,
        v=_decimal(Fraction(25 * q + 10 * d_, 100)),
    )
    return text, f"({_e(Fraction(25 * q + 10 * d_, 100))} - 0.1 * {q + d_}) / (0.25 - 0.1)", str(q)


# ---- grade 8: functions


@_gen("8.F.A.1/function-rule-output", "bare")
def _f1_bare(rng: random.Random) -> Made:
    m, b = _nz(rng, -6, 6), rng.randint(-10, 10)
    x = rng.randint(-8, 10)
    if rng.random() < 0.7:
        text = _say(
            rng,
            (
                "A function's rule is: multiply the input by {m}, then add {b}. What is the "
                "output for an input of {x}?",
                "The rule y = {m}x + {b} assigns one output to each input. What output goes "
                "with x = {x}?",
                "Input {x} into the rule output = {m} × input + {b}. What comes out?",
                "function rule is {m}x + {b}, input is {x}, what is the output",
            ),
            m=m,
            b=_paren(str(b)),
            x=x,
        )
        return text, f"{_e(m)} * {_e(x)} + {_e(b)}", str(m * x + b)
    text = _say(
        rng,
        (
            "A function squares its input and then adds {b}. What is the output when the "
            "input is {x}?",
            "For the rule y = x² + {b}, find the output for x = {x}.",
        ),
        b=_paren(str(b)),
        x=x,
    )
    return text, f"{_e(x)}**2 + {_e(b)}", str(x * x + b)


@_gen("8.F.A.1/input-output-machine", "word")
def _f1_story(rng: random.Random) -> Made:
    n = _name(rng)
    rate = rng.randint(2, 15)
    base = rng.randint(0, 20)
    x = rng.randint(1, 20)
    text = _say(
        rng,
        (
            "A function machine takes a number of hours worked and outputs pay: ${r} per hour "
            "plus a ${b} bonus. What is the output for {x} hours?",
            "{n}'s rule: each number of songs bought is assigned a cost of ${r} per song plus "
            "${b}. What cost is assigned to {x} songs?",
            "The number of legs is a function of the number of spiders: 8 per spider plus {b} "
            "extra legs from a toy. How many legs for {x} spiders?",
            "For every input x, a machine gives out {r}x + {b}. What does it give for {x}?",
        ),
        r=rate,
        b=base,
        x=x,
        n=n,
    )
    if "spider" in text:
        return text, f"8 * {x} + {base}", str(8 * x + base)
    return text, f"{rate} * {x} + {base}", str(rate * x + base)


@_gen("8.F.A.2/compare-two-functions", "bare")
def _f2_bare(rng: random.Random) -> Made:
    m1, b1 = _nz(rng, -8, 8), rng.randint(-10, 10)
    m2, b2 = _nz(rng, -8, 8), rng.randint(-10, 10)
    xs = [0, 2, 4] if rng.random() < 0.5 else [1, 3, 5]
    ys = [m2 * x + b2 for x in xs]
    ask = pick(rng, ("rate", "initial"))
    table = _table(xs, ys, "x", "y")
    if ask == "rate":
        text = _say(
            rng,
            (
                "Function A is y = {m}x + {b}. Function B is given by the table {t}. What is "
                "the greater rate of change?",
                "Compare the rates of change: A: y = {m}x + {b}; B: {t}. Give the larger rate.",
                "which function has the bigger rate of change, y = {m}x + {b} or the table "
                "{t}? give the rate",
            ),
            m=m1,
            b=_paren(str(b1)),
            t=table,
        )
        rate_b = f"({ys[1]} - {_e(ys[0])}) / ({xs[1]} - {xs[0]})"
        return text, f"max({_e(m1)}, {rate_b})", str(max(m1, m2))
    text = _say(
        rng,
        (
            "Function A is y = {m}x + {b}. Function B is the table {t}. By how much is A's "
            "initial value (y at x = 0) greater than B's?",
            "Compare the y-intercepts: A: y = {m}x + {b}; B: {t}. Find A's intercept minus B's.",
        ),
        m=m1,
        b=_paren(str(b1)),
        t=table,
    )
    slope = f"({ys[1]} - {_e(ys[0])}) / ({xs[1]} - {xs[0]})"
    return text, f"{_e(b1)} - ({_e(ys[0])} - {slope} * {xs[0]})", str(b1 - b2)


@_gen("8.F.A.2/compare-plans-story", "word")
def _f2_story(rng: random.Random) -> Made:
    r1 = rng.randint(5, 40)
    r2 = rng.randint(5, 40)
    if r1 == r2:
        r2 += 2
    f1, f2 = rng.randint(0, 50), rng.randint(0, 50)
    xs = [1, 2, 3]
    ctx = pick(
        rng,
        (
            (
                "Plan A costs ${f} plus ${r} per month. Plan B's costs are shown in a table: {t}. "
                "How much more per month does the plan with the greater rate of change cost?",
                "months",
                "cost ($)",
            ),
            (
                "{n} compares two savings plans. Plan A: starts with ${f} and adds ${r} a week. "
                "Plan B: {t}. What is the difference between their weekly rates?",
                "weeks",
                "savings ($)",
            ),
            (
                "job A pays {r} an hour plus a {f} bonus. job B table: {t}. how much more per "
                "hour does the better-paying job give",
                "hours",
                "pay ($)",
            ),
            (
                "Tank A starts with {f} liters and fills at {r} liters per minute. Tank B: {t}. "
                "What is the difference in their rates of change?",
                "minutes",
                "liters",
            ),
        ),
    )
    text = _voice(
        rng,
        ctx[0].format(
            f=f1, r=r1, t=_table(xs, [f2 + r2 * x for x in xs], ctx[1], ctx[2]), n=_name(rng)
        ),
    )
    return text, f"abs({r1} - ({f2 + 2 * r2} - {f2 + r2}) / (2 - 1))", str(abs(r1 - r2))


@_gen("8.F.A.3/linear-function-change", "bare")
def _f3_bare(rng: random.Random) -> Made:
    m = Fraction(_nz(rng, -8, 8), pick(rng, (1, 1, 2)))
    b = rng.randint(-10, 10)
    x1 = rng.randint(-5, 5)
    x2 = x1 + rng.randint(1, 8)
    if rng.random() < 0.6:
        text = _say(
            rng,
            (
                "For the linear function y = {m}x + {b}, how much does y change when x goes "
                "from {a} to {c}?",
                "y = {m}x + {b} is linear. If x increases from {a} to {c}, by how much does y "
                "change?",
                "how much does y go up or down from x = {a} to x = {c} for y = {m}x + {b}",
            ),
            m=_num(m),
            b=_paren(str(b)),
            a=x1,
            c=x2,
        )
        return text, f"{_e(m)} * ({x2} - {_e(x1)})", _ans(m * (x2 - x1))
    s = rng.randint(1, 6)
    text = _say(
        rng,
        (
            "The area of a square A = s² is not linear. How much does A increase from s = {s} "
            "to s = {t}, compared with from s = {t} to s = {u}? Give the difference of the two "
            "increases.",
            "Show A = s^2 is not a linear function: find (increase from {t} to {u}) minus "
            "(increase from {s} to {t}).",
        ),
        s=s,
        t=s + 1,
        u=s + 2,
    )
    return text, f"({s + 2}**2 - {s + 1}**2) - ({s + 1}**2 - {s}**2)", "2"


@_gen("8.F.A.3/evaluate-linear-story", "word")
def _f3_story(rng: random.Random) -> Made:
    m = Fraction(rng.randint(5, 40), 2)
    b = rng.randint(2, 15)
    x = rng.randint(1, 20)
    text = _say(
        rng,
        (
            "A taxi fare is y = {m}x + {b}, where x is miles. What is the fare for {x} miles?",
            "A plant's height in cm is y = {m}x + {b} after x weeks. How tall is it after {x} "
            "weeks?",
            "The linear function y = {m}x + {b} gives the cost of x pounds of fruit plus a bag. "
            "Find y when x = {x}.",
            "y = {m}x + {b} for the number of points after x games. how many points after {x} "
            "games",
        ),
        m=_num(m),
        b=b,
        x=x,
    )
    return text, f"{_e(m)} * {x} + {b}", _ans(m * x + b)


@_gen("8.F.B.4/model-from-description", "word")
def _f4_story(rng: random.Random) -> Made:
    n = _name(rng)
    start = rng.randint(10, 90)
    rate = rng.randint(2, 40)
    x1 = rng.randint(1, 5)
    x2 = x1 + rng.randint(1, 6)
    y1, y2 = start + rate * x1, start + rate * x2
    kind = rng.randrange(3)
    if kind == 0:
        text = _say(
            rng,
            (
                "A plumber charged ${a} for {p} hours and ${b} for {q} hours. The cost is a "
                "linear function of time. What is the rate of change in dollars per hour?",
                "{n}'s savings were ${a} after {p} weeks and ${b} after {q} weeks, growing "
                "steadily. How much is saved each week?",
                "after {p} days the plant was {a} mm and after {q} days it was {b} mm. whats "
                "the rate of change",
            ),
            a=y1,
            b=y2,
            p=x1,
            q=x2,
            n=n,
        )
        return text, f"({y2} - {y1}) / ({x2} - {x1})", str(rate)
    if kind == 1:
        text = _say(
            rng,
            (
                "A phone plan cost ${a} after {p} months and ${b} after {q} months, with a "
                "one-time fee at the start. What was the initial fee?",
                "a linear function has value {a} at x = {p} and {b} at x = {q}. What is its "
                "initial value?",
            ),
            a=y1,
            b=y2,
            p=x1,
            q=x2,
            n=n,
        )
        return text, f"{y1} - ({y2} - {y1}) / ({x2} - {x1}) * {x1}", str(start)
    x3 = rng.randint(1, 30)
    text = _say(
        rng,
        (
            "A gym charges a ${s} fee plus ${r} per visit. Write a function for the cost of x "
            "visits and find the cost of {x} visits.",
            "{n} starts with {s} stickers and gets {r} more each day. Model this with a linear "
            "function. How many stickers after {x} days?",
            "A pool has {s} gallons and fills at {r} gallons per minute. How many gallons "
            "after {x} minutes?",
        ),
        s=start,
        r=rate,
        x=x3,
        n=n,
    )
    return text, f"{start} + {rate} * {x3}", str(start + rate * x3)


@_gen("8.F.B.4/rate-and-initial-value", "bare")
def _f4_bare(rng: random.Random) -> Made:
    m = _nz(rng, -7, 7)
    b = rng.randint(-12, 12)
    x1 = rng.randint(-3, 4)
    x2 = x1 + rng.randint(1, 5)
    y1, y2 = m * x1 + b, m * x2 + b
    ask = pick(rng, ("rate of change", "initial value"))
    text = _say(
        rng,
        (
            "A linear function passes through ({a}, {c}) and ({p}, {q}). What is its {k}?",
            "The table shows a linear function: x: {a}, {p}; y: {c}, {q}. Find the {k}.",
            "Find the {k} of the line through ({a}, {c}) and ({p}, {q}).",
            "line through ({a},{c}) and ({p},{q}), {k}?",
        ),
        a=x1,
        c=y1,
        p=x2,
        q=y2,
        k=ask,
    )
    slope = f"({_e(y2)} - {_e(y1)}) / ({x2} - {_e(x1)})"
    if ask == "rate of change":
        return text, slope, str(m)
    return text, f"{_e(y1)} - {slope} * {_e(x1)}", str(b)


# ---- grade 8: geometry


@_gen("8.G.A.1.a/segment-length-kept", "bare")
def _g8a1a(rng: random.Random) -> Made:
    x1, y = rng.randint(-8, 3), rng.randint(-6, 6)
    x2 = x1 + rng.randint(2, 10)
    move = pick(
        rng,
        (
            "translated 3 units up",
            "reflected across the y-axis",
            "rotated 90° about the origin",
            "reflected across the x-axis",
            "translated 4 left and 2 down",
            "rotated 180° about the origin",
        ),
    )
    text = _say(
        rng,
        (
            "Segment AB goes from ({a}, {y}) to ({b}, {y}). It is {m}. How long is the image "
            "segment A'B'?",
            "A segment with endpoints ({a}, {y}) and ({b}, {y}) is {m}. What is the length of "
            "its image?",
            "if the segment from ({a},{y}) to ({b},{y}) gets {m}, how long is the new segment",
        ),
        a=x1,
        b=x2,
        y=y,
        m=move,
    )
    return text, f"abs({x2} - {_e(x1)})", str(x2 - x1)


@_gen("8.G.A.1.b/angle-measure-kept", "bare")
def _g8a1b(rng: random.Random) -> Made:
    a, b = rng.randint(20, 90), rng.randint(20, 70)
    move = pick(
        rng, ("rotated 90°", "reflected over a line", "translated 5 units right", "rotated 180°")
    )
    text = _say(
        rng,
        (
            "Triangle ABC has angle A = {a}° and angle B = {b}°. It is {m} to make triangle "
            "A'B'C'. What is the measure of angle C'?",
            "A triangle with angles {a}° and {b}° is {m}. What is the third angle of the image?",
            "triangle angles {a} and {b}, then it gets {m}. what is angle C' in the image",
        ),
        a=a,
        b=b,
        m=move,
    )
    return text, f"180 - {a} - {b}", str(180 - a - b)


@_gen("8.G.A.3/transform-coordinates", "bare")
def _g8a3_bare(rng: random.Random) -> Made:
    x, y = _nz(rng, -9, 9), _nz(rng, -9, 9)
    kind = rng.randrange(5)
    ask = pick(rng, ("x", "y"))
    if kind == 0:
        dx, dy = _nz(rng, -6, 6), _nz(rng, -6, 6)
        how = f"translated by (x + {dx}, y + {dy})".replace("+ -", "- ")
        nx, ny, ex, ey = x + dx, y + dy, f"{_e(x)} + {_e(dx)}", f"{_e(y)} + {_e(dy)}"
    elif kind == 1:
        how = "reflected across the x-axis"
        nx, ny, ex, ey = x, -y, _e(x), f"-{_e(y)}"
    elif kind == 2:
        how = "reflected across the y-axis"
        nx, ny, ex, ey = -x, y, f"-{_e(x)}", _e(y)
    elif kind == 3:
        how = "rotated 90° counterclockwise about the origin"
        nx, ny, ex, ey = -y, x, f"-{_e(y)}", _e(x)
    else:
        k = pick(rng, (Fraction(2), Fraction(3), Fraction(4), Fraction(1, 2)))
        if k == Fraction(1, 2):
            x, y = 2 * x, 2 * y
        how = f"dilated by a scale factor of {_num(k)} centered at the origin"
        nx, ny = int(k * x), int(k * y)
        ex, ey = f"{_e(k)} * {_e(x)}", f"{_e(k)} * {_e(y)}"
    text = _say(
        rng,
        (
            "The point ({x}, {y}) is {h}. What is the {a}-coordinate of its image?",
            "Point P({x}, {y}) is {h}. Give the {a}-coordinate of P'.",
            "A vertex of a triangle at ({x}, {y}) is {h}. What is the new {a}-coordinate?",
            "({x}, {y}) {h}, what's the {a} coordinate after",
        ),
        x=x,
        y=y,
        h=how,
        a=ask,
    )
    return (text, ex, str(nx)) if ask == "x" else (text, ey, str(ny))


@_gen("8.G.A.3/transform-drawing-story", "word")
def _g8a3_story(rng: random.Random) -> Made:
    n = _name(rng)
    x, y = rng.randint(-8, 8), rng.randint(-8, 8)
    dx, dy = rng.randint(1, 7), rng.randint(1, 7)
    left, down = rng.random() < 0.5, rng.random() < 0.5
    sx, sy = -dx if left else dx, -dy if down else dy
    ask = pick(rng, ("x", "y"))
    text = _say(
        rng,
        (
            "{n} is designing a video game. A character at ({x}, {y}) moves {dx} units {lr} "
            "and {dy} units {ud}. What is its new {a}-coordinate?",
            "On a map grid, a boat at ({x}, {y}) sails {dx} units {lr} and {dy} units {ud}. "
            "What is the {a}-coordinate of its new position?",
            "{n} slides a shape so the corner at ({x}, {y}) moves {dx} {lr} and {dy} {ud}. "
            "what is the new {a}",
        ),
        n=n,
        x=x,
        y=y,
        dx=dx,
        dy=dy,
        lr="left" if left else "right",
        ud="down" if down else "up",
        a=ask,
    )
    if ask == "x":
        return text, f"{_e(x)} + {_e(sx)}", str(x + sx)
    return text, f"{_e(y)} + {_e(sy)}", str(y + sy)


@_gen("8.G.A.4/similar-figures", "bare")
def _g8a4(rng: random.Random) -> Made:
    sides = sorted(rng.sample(range(2, 13), 3))
    k = pick(rng, tuple(Fraction(v, 2) for v in (4, 6, 8, 10, 1, 3)))
    if k.denominator != 1:
        sides = [2 * s for s in sides]
    image = [k * s for s in sides]
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "Triangle ABC has sides {a}. It is dilated, then rotated, to get a similar "
                "triangle with sides {b}. What is the scale factor of the dilation?",
                "Two similar triangles have sides {a} and {b}. What scale factor takes the "
                "first to the second?",
                "a triangle with sides {a} becomes one with sides {b}. whats the scale factor",
            ),
            a=", ".join(map(str, sides)),
            b=", ".join(_num(s) for s in image),
        )
        return text, f"{_e(image[0])} / {sides[0]}", _ans(k)
    text = _say(
        rng,
        (
            "Triangle ABC with sides {a} is similar to triangle DEF. The side matching {s0} is "
            "{t0}. How long is the side of DEF matching {s2}?",
            "A figure with sides {a} is dilated and reflected. The side that was {s0} is now "
            "{t0}. What is the image of the side that was {s2}?",
        ),
        a=", ".join(map(str, sides)),
        s0=sides[0],
        t0=_num(image[0]),
        s2=sides[2],
    )
    return text, f"{_e(image[0])} / {sides[0]} * {sides[2]}", _ans(image[2])


@_gen("8.G.A.4/enlarge-photo-story", "word")
def _g8a4_story(rng: random.Random) -> Made:
    w, h = rng.randint(2, 8), rng.randint(3, 10)
    k = rng.randint(2, 5)
    text = _say(
        rng,
        (
            "A photo is {w} in wide and {h} in tall. It is enlarged to a similar photo {W} in "
            "wide. How tall is the enlargement?",
            "{n} scales a drawing {w} cm by {h} cm up so the width becomes {W} cm. Keeping it "
            "similar, what is the new height?",
            "a {w} by {h} picture gets blown up so the {w} side is {W}. how long is the {h} "
            "side now",
        ),
        w=w,
        h=h,
        W=w * k,
        n=_name(rng),
    )
    return text, f"{w * k} / {w} * {h}", str(h * k)


@_gen("8.G.A.5/triangle-angles", "bare")
def _g8a5_tri(rng: random.Random) -> Made:
    a, b = rng.randint(15, 100), rng.randint(15, 60)
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "Two angles of a triangle measure {a}° and {b}°. What is the third angle?",
                "A triangle has angles of {a}° and {b}°. Find the missing angle.",
                "triangle angles {a} and {b}, what's the third",
                "In triangle PQR, angle P = {a}° and angle Q = {b}°. Find angle R.",
            ),
            a=a,
            b=b,
        )
        return text, f"180 - {a} - {b}", str(180 - a - b)
    text = _say(
        rng,
        (
            "The two remote interior angles of a triangle are {a}° and {b}°. What is the "
            "exterior angle?",
            "An exterior angle of a triangle is formed at C. Angles A and B are {a}° and {b}°. "
            "Find the exterior angle at C.",
            "exterior angle of a triangle when the other two inside angles are {a} and {b}?",
        ),
        a=a,
        b=b,
    )
    return text, f"{a} + {b}", str(a + b)


@_gen("8.G.A.5/parallel-lines-transversal", "bare")
def _g8a5_par(rng: random.Random) -> Made:
    ang = rng.randint(25, 155)
    kind = pick(
        rng, ("alternate interior", "corresponding", "same-side interior", "alternate exterior")
    )
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "Two parallel lines are cut by a transversal. One angle is {a}°. What is the "
                "measure of its {k} angle?",
                "Lines m and n are parallel. An angle of {a}° and its {k} angle are formed by "
                "a transversal. Find the {k} angle.",
                "parallel lines, transversal, angle is {a}. whats the {k} angle",
            ),
            a=ang,
            k=kind,
        )
        if kind == "same-side interior":
            return text, f"180 - {ang}", str(180 - ang)
        return text, f"{ang}", str(ang)
    m = rng.randint(2, 5)
    x = rng.randint(5, 30)
    c = rng.randint(-10, 20)
    value = m * x + c
    if not 0 < value < 180:
        c = 10
        value = m * x + c
    equal = kind != "same-side interior"
    other = value if equal else 180 - value
    text = _say(
        rng,
        (
            "Parallel lines are cut by a transversal. Two {k} angles measure ({m}x + {c})° "
            "and {o}°. Find x.",
            "The {k} angles are ({m}x + {c})° and {o}° (the lines are parallel). What is x?",
        ),
        k=kind,
        m=m,
        c=c,
        o=other,
    )
    expr = f"({other} - {_e(c)}) / {m}" if equal else f"(180 - {other} - {_e(c)}) / {m}"
    return text, expr, str(x)


_TRIPLES = ((3, 4, 5), (5, 12, 13), (8, 15, 17), (7, 24, 25), (6, 8, 10), (9, 12, 15), (20, 21, 29))


@_gen("8.G.B.7/pythagorean-story", "word")
def _g8b7_story(rng: random.Random) -> Made:
    a, b, c = pick(rng, _TRIPLES)
    k = pick(rng, (1, 1, 2, 3))
    a, b, c = a * k, b * k, c * k
    n = _name(rng)
    kind = rng.randrange(4)
    if kind == 0:
        text = _say(
            rng,
            (
                "A {c}-foot ladder leans against a wall. Its foot is {a} feet from the wall. "
                "How high up the wall does it reach?",
                "{n} leans a {c} m ladder on a house with the bottom {a} m away. How high is "
                "the top?",
            ),
            a=a,
            c=c,
            n=n,
        )
        return text, f"sqrt({c}**2 - {a}**2)", str(b)
    if kind == 1:
        text = _say(
            rng,
            (
                "A TV screen is {a} in wide and {b} in tall. How long is its diagonal?",
                "A rectangular park is {a} m by {b} m. How long is the path straight across "
                "from corner to corner?",
                "{n} walks {a} blocks east and {b} blocks north. How far is {n} from the start "
                "in a straight line?",
                "how long is the diagonal of a {a} by {b} rectangle",
            ),
            a=a,
            b=b,
            n=n,
        )
        return text, f"sqrt({a}**2 + {b}**2)", str(c)
    if kind == 2:
        text = _say(
            rng,
            (
                "A kite string is {c} m long and the kite is directly above a point {a} m "
                "from {n}. How high is the kite?",
                "A ramp is {c} ft long and covers {a} ft along the ground. How tall is it?",
            ),
            a=a,
            c=c,
            n=n,
        )
        return text, f"sqrt({c}**2 - {a}**2)", str(b)
    l3, w3, h3, d3 = pick(
        rng,
        (
            (1, 2, 2, 3),
            (2, 3, 6, 7),
            (1, 4, 8, 9),
            (2, 6, 9, 11),
            (4, 4, 7, 9),
            (3, 4, 12, 13),
            (2, 10, 11, 15),
        ),
    )
    text = _say(
        rng,
        (
            "A box is {l} ft by {w} ft by {h} ft. What is the length of the longest pole that "
            "fits diagonally from one bottom corner to the opposite top corner?",
            "Find the length of the space diagonal of a rectangular prism {l} by {w} by {h}.",
        ),
        l=l3 * k,
        w=w3 * k,
        h=h3 * k,
    )
    return text, f"sqrt({l3 * k}**2 + {w3 * k}**2 + {h3 * k}**2)", str(d3 * k)


@_gen("8.G.B.7/missing-side", "bare")
def _g8b7_bare(rng: random.Random) -> Made:
    a, b, c = pick(rng, _TRIPLES)
    k = pick(rng, (1, 2, 3, 4))
    a, b, c = a * k, b * k, c * k
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "A right triangle has legs {a} and {b}. Find the hypotenuse.",
                "The legs of a right triangle are {a} cm and {b} cm. How long is the hypotenuse?",
                "legs {a} and {b}, hypotenuse = ?",
                "Use the Pythagorean Theorem: a = {a}, b = {b}. Find c.",
            ),
            a=a,
            b=b,
        )
        return text, f"sqrt({a}**2 + {b}**2)", str(c)
    text = _say(
        rng,
        (
            "A right triangle has hypotenuse {c} and one leg {a}. Find the other leg.",
            "c = {c}, a = {a}. Find b in a right triangle.",
            "hypotenuse is {c} and a leg is {a}. how long is the other leg",
        ),
        a=a,
        c=c,
    )
    return text, f"sqrt({c}**2 - {a}**2)", str(b)


@_gen("8.G.B.8/distance-between-points", "bare")
def _g8b8(rng: random.Random) -> Made:
    a, b, c = pick(rng, _TRIPLES[:5])
    if rng.random() < 0.5:
        a, b = b, a
    x1, y1 = rng.randint(-8, 8), rng.randint(-8, 8)
    x2, y2 = x1 + pick(rng, (1, -1)) * a, y1 + pick(rng, (1, -1)) * b
    text = _say(
        rng,
        (
            "Find the distance between ({a}, {b}) and ({c}, {d}).",
            "How far apart are the points ({a}, {b}) and ({c}, {d})?",
            "Use the Pythagorean Theorem to find the length of the segment from ({a}, {b}) to "
            "({c}, {d}).",
            "distance from ({a},{b}) to ({c},{d})",
        ),
        a=x1,
        b=y1,
        c=x2,
        d=y2,
    )
    return text, f"sqrt(({x2} - {_e(x1)})**2 + ({y2} - {_e(y1)})**2)", str(c)


@_gen("8.G.B.8/grid-map-story", "word")
def _g8b8_story(rng: random.Random) -> Made:
    a, b, c = pick(rng, _TRIPLES[:5])
    x1, y1 = rng.randint(0, 6), rng.randint(0, 6)
    x2, y2 = x1 + a, y1 + b
    n = _name(rng)
    text = _say(
        rng,
        (
            "On a town map, {n}'s house is at ({a}, {b}) and the school is at ({c}, {d}). Each "
            "unit is 1 block. How far is it in a straight line?",
            "A drone flies straight from ({a}, {b}) to ({c}, {d}) on a grid measured in miles. "
            "How far does it fly?",
            "the library is at ({a},{b}) and the park is at ({c},{d}) on the grid. how far "
            "apart are they",
        ),
        n=n,
        a=x1,
        b=y1,
        c=x2,
        d=y2,
    )
    return text, f"sqrt(({x2} - {x1})**2 + ({y2} - {y1})**2)", str(c)


@_gen("8.G.C.9/cylinder-cone-sphere", "bare")
def _g8c9_bare(rng: random.Random) -> Made:
    r, h = rng.randint(1, 10), rng.randint(2, 15)
    shape = pick(rng, ("cylinder", "cone", "sphere"))
    if shape == "cylinder":
        expr, value = f"3.14 * {r}**2 * {h}", Fraction(314, 100) * r * r * h
        desc = f"a cylinder with radius {r} and height {h}"
    elif shape == "cone":
        expr, value = f"1/3 * 3.14 * {r}**2 * {h}", Fraction(314, 300) * r * r * h
        desc = f"a cone with radius {r} and height {h}"
    else:
        expr, value = f"4/3 * 3.14 * {r}**3", Fraction(4 * 314, 300) * r**3
        desc = f"a sphere with radius {r}"
    if value * 100 != int(value * 100):
        expr, value = f"round_to({expr}, 0.01)", _round_to(value, Fraction(1, 100))
        tail = " Round to the nearest hundredth."
    else:
        tail = ""
    text = _say(
        rng,
        (
            "Find the volume of {d}. Use 3.14 for pi.{t}",
            "What is the volume of {d}? (pi ≈ 3.14){t}",
            "Volume of {d}, using 3.14.{t}",
        ),
        d=desc,
        t=tail,
    )
    return text, expr, _ans(value)


@_gen("8.G.C.9/volume-story", "word")
def _g8c9_story(rng: random.Random) -> Made:
    r = rng.randint(1, 8)
    h = rng.randint(2, 12) * 3
    n = _name(rng)
    kind = rng.randrange(3)
    if kind == 0:
        text = _say(
            rng,
            (
                "A can of soup is a cylinder with radius {r} cm and height {h} cm. How much "
                "soup does it hold? Use 3.14 for pi.",
                "{n}'s water tank is a cylinder {h} ft tall with a radius of {r} ft. What is "
                "its volume? Use 3.14.",
            ),
            r=r,
            h=h,
            n=n,
        )
        return text, f"3.14 * {r}**2 * {h}", _ans(Fraction(314, 100) * r * r * h)
    if kind == 1:
        text = _say(
            rng,
            (
                "An ice cream cone is {h} cm tall with a radius of {r} cm. What is its volume? "
                "Use 3.14 for pi.",
                "A pile of sand is a cone with radius {r} m and height {h} m. How many cubic "
                "meters of sand? Use 3.14.",
            ),
            r=r,
            h=h,
        )
        return text, f"1/3 * 3.14 * {r}**2 * {h}", _ans(Fraction(314, 300) * r * r * h)
    r = rng.randint(1, 4) * 3
    text = _say(
        rng,
        (
            "A ball has a radius of {r} in. How much air fits inside? Use 3.14 for pi.",
            "A spherical water balloon has radius {r} cm. Find its volume using 3.14.",
            "how much space is in a ball with radius {r} (use 3.14)",
        ),
        r=r,
    )
    return text, f"4/3 * 3.14 * {r}**3", _ans(Fraction(4 * 314, 300) * r**3)


# ---- grade 8: the number system


@_gen("8.NS.A.1/repeating-to-fraction", "bare")
def _ns8a1(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    if kind == 0:
        d = rng.randint(1, 8)
        shown, dots = f"0.{d}{d}{d}{d}...", f"0.{d} repeating"
        expr, value = f"{d}/9", Fraction(d, 9)
    elif kind == 1:
        ab = rng.randint(1, 98)
        if ab % 11 == 0:
            ab += 1
        s2 = f"{ab:02d}"
        shown, dots = f"0.{s2 * 3}...", f"0.{s2} repeating (the {s2} repeats)"
        expr, value = f"{ab}/99", Fraction(ab, 99)
    else:
        a, b = rng.randint(1, 9), rng.randint(1, 9)
        if a == b:
            b = (b % 9) + 1
        shown, dots = f"0.{a}{b}{b}{b}...", f"0.{a} with the {b} repeating"
        expr, value = f"({a}{b} - {a}) / 90", Fraction(10 * a + b - a, 90)
    whole = rng.randint(0, 3) if rng.random() < 0.3 else 0
    if whole:
        shown, dots = f"{whole}{shown[1:]}", f"{whole}{dots[1:]}"
        expr, value = f"{whole} + {expr}", whole + value
    text = _say(
        rng,
        (
            "Write {s} as a fraction in simplest form.",
            "Convert the repeating decimal {s} to a fraction.",
            "Express {r} as a fraction.",
            "how do you turn {s} into a fraction",
            "{r} = ? (fraction)",
        ),
        s=shown,
        r=dots,
    )
    return text, expr, fraction_text(value)


@_gen("8.NS.A.1/calculator-decimal-story", "word")
def _ns8a1_story(rng: random.Random) -> Made:
    d = pick(rng, (3, 9, 11, 33, 99))
    n = rng.randint(1, d - 1)
    while math.gcd(n, d) != 1 and d != 9:
        n = rng.randint(1, d - 1)
    value = Fraction(n, d)
    digits = str(n * 10**12 // d).rjust(12, "0")
    who = _name(rng)
    text = _say(
        rng,
        (
            "{w}'s calculator shows 0.{g}... and the digits keep repeating. What fraction in "
            "simplest form is it?",
            "A recipe scale reads 0.{g}... (repeating). Which fraction is that?",
            "i got 0.{g}... on my calculator and it keeps going. what fraction is this",
        ),
        w=who,
        g=digits[:8],
    )
    period = 1 if d in (3, 9) else 2
    rep = int(digits[:period])
    return text, f"{rep} / {10**period - 1}", fraction_text(value)


@_gen("8.NS.A.2/estimate-irrationals", "bare")
def _ns8a2(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    if kind == 0:
        k = rng.randint(2, 12)
        n = rng.randint(k * k + 1, (k + 1) ** 2 - 1)
        text = _say(
            rng,
            (
                "√{n} lies between which two consecutive whole numbers? Give the smaller one.",
                "Between what two integers is the square root of {n}? Give the lower one.",
                "sqrt({n}) is between what two whole numbers (the smaller)",
            ),
            n=n,
        )
        return text, f"sqrt({k * k})", str(k)
    if kind == 1:
        c = rng.randint(2, 6)
        root = pick(rng, ((2, "1.41"), (3, "1.73"), (5, "2.24")))
        text = _say(
            rng,
            (
                "Use √{r} ≈ {v} to estimate {c}√{r}.",
                "Estimate {c} × sqrt({r}) using sqrt({r}) ≈ {v}.",
                "If √{r} is about {v}, about what is {c}√{r}?",
            ),
            r=root[0],
            v=root[1],
            c=c,
        )
        return text, f"{c} * {root[1]}", _ans(c * Fraction(root[1]))
    which = pick(rng, ("π²", "2π", "π + √2"))
    text = _say(
        rng,
        (
            "Using π ≈ 3.14 and √2 ≈ 1.41, estimate {w} to the nearest tenth.",
            "Estimate the value of {w} to one decimal place (π ≈ 3.14, √2 ≈ 1.41).",
        ),
        w=which,
    )
    inner = {"π²": "3.14**2", "2π": "2 * 3.14", "π + √2": "3.14 + 1.41"}[which]
    value = {
        "π²": Fraction(314, 100) ** 2,
        "2π": 2 * Fraction(314, 100),
        "π + √2": Fraction(314, 100) + Fraction(141, 100),
    }[which]
    return text, f"round_to({inner}, 0.1)", _ans(_round_to(value, Fraction(1, 10)))


# ---- grade 8: statistics


@_gen("8.SP.A.3/linear-model-predict", "word")
def _sp8a3(rng: random.Random) -> Made:
    m = Fraction(rng.randint(2, 40), pick(rng, (1, 2, 10)))
    b = rng.randint(0, 60)
    x = rng.randint(1, 20)
    ctx = pick(
        rng,
        (
            ("plant height (cm)", "hours of sunlight per day"),
            ("test score", "hours studied"),
            ("sales ($)", "ads run"),
            ("weight of a puppy (lb)", "age in months"),
            ("ice cream cones sold", "temperature above 60°F"),
        ),
    )
    if rng.random() < 0.6:
        text = _say(
            rng,
            (
                "A line of fit for {y} against {x} is y = {m}x + {b}. Predict y when x = {v}.",
                "The linear model y = {m}x + {b} relates {y} to {x}. What does the model "
                "predict for x = {v}?",
                "scatter plot line is y = {m}x + {b} ({y} vs {x}). what is the prediction at {v}",
            ),
            y=ctx[0],
            x=ctx[1],
            m=_num(m),
            b=b,
            v=x,
        )
        return text, f"{_e(m)} * {x} + {b}", _ans(m * x + b)
    dx = rng.randint(2, 6)
    text = _say(
        rng,
        (
            "A model for {y} is y = {m}x + {b}, where x is {x}. According to the slope, how "
            "much does y change when x increases by {d}?",
            "In the model y = {m}x + {b} for {y} vs {x}, what is the predicted increase in y "
            "for {d} more units of x?",
        ),
        y=ctx[0],
        x=ctx[1],
        m=_num(m),
        b=b,
        d=dx,
    )
    return text, f"{_e(m)} * {dx}", _ans(m * dx)


@_gen("8.SP.A.3/interpret-intercept-slope", "word")
def _sp8a3_b(rng: random.Random) -> Made:
    m = Fraction(rng.randint(5, 50), 10)
    b = rng.randint(2, 40)
    ask = pick(rng, ("slope", "intercept"))
    text = _say(
        rng,
        (
            "In a biology experiment, plant height (cm) = {m} × (hours of sunlight) + {b}. "
            "What is the {a} of the model, the number that tells {what}?",
            "A trend line for savings is y = {m}x + {b}, with x in weeks. What is the {a}, "
            "the value that tells {what}?",
            "model y = {m}x + {b}. whats the {a} ({what})",
        ),
        m=_num(m),
        b=b,
        a=ask,
        what="the change per unit of x" if ask == "slope" else "the value when x = 0",
    )
    return (text, _e(m), _ans(m)) if ask == "slope" else (text, str(b), str(b))


@_gen("8.SP.A.4/two-way-table", "word")
def _sp8a4(rng: random.Random) -> Made:
    a, b = rng.randint(5, 40), rng.randint(5, 40)
    c, d = rng.randint(5, 40), rng.randint(5, 40)
    rows = pick(
        rng,
        (
            ("curfew", "no curfew", "chores", "no chores"),
            ("plays a sport", "no sport", "has a pet", "no pet"),
            ("7th grade", "8th grade", "likes math", "does not like math"),
        ),
    )
    table = f"{rows[0]}: {a} {rows[2]}, {b} {rows[3]}; {rows[1]}: {c} {rows[2]}, {d} {rows[3]}"
    kind = rng.randrange(3)
    if kind == 0:
        text = _say(
            rng,
            (
                "A survey two-way table: {t}. What fraction of the students with {r} also "
                "have {c}? (relative frequency for the row)",
                "Use the table ({t}). Among those with {r}, what is the relative frequency of {c}?",
            ),
            t=table,
            r=rows[0],
            c=rows[2],
        )
        return text, f"{a} / ({a} + {b})", _ans(Fraction(a, a + b))
    if kind == 1:
        text = _say(
            rng,
            (
                "Two-way table: {t}. How many students were surveyed in all?",
                "From this table, find the total number of students: {t}.",
                "how many people total in this two way table {t}",
            ),
            t=table,
        )
        return text, f"{a} + {b} + {c} + {d}", str(a + b + c + d)
    text = _say(
        rng,
        (
            "Two-way table: {t}. What fraction of all students have {c}?",
            "In the table {t}, what is the relative frequency of {c} for the whole group?",
        ),
        t=table,
        c=rows[2],
    )
    return text, f"({a} + {c}) / ({a} + {b} + {c} + {d})", _ans(Fraction(a + c, a + b + c + d))


@_gen("8.SP.A.4/missing-cell", "bare")
def _sp8a4_b(rng: random.Random) -> Made:
    a, b = rng.randint(5, 60), rng.randint(5, 60)
    total = a + b
    text = _say(
        rng,
        (
            "In a two-way table, the row total is {t}. One cell in the row is {a}. What is the "
            "other cell?",
            "A two-way table row reads: yes {a}, no ?, total {t}. Find the missing number.",
            "two way table: {a} and blank with total {t}, whats the blank",
            "Complete the table: a column has {a} in the top cell and a total of {t}. What is "
            "the bottom cell?",
        ),
        a=a,
        t=total,
    )
    return text, f"{total} - {a}", str(b)


GENERATORS: tuple[Generator, ...] = tuple(_ALL)
