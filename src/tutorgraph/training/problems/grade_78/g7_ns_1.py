"""Grade 7 problem generators: The Number System.

The standard 7.NS.A.1; `GENERATORS` lists its generators in the registry's order.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_78._shared import (
    _ans,
    _e,
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


GENERATORS: tuple[Generator, ...] = table(
    ("7.NS.A.1/add-subtract-rationals", "bare", _ns1_bare),
    ("7.NS.A.1/number-line-jump", "word", _ns1_line),
    ("7.NS.A.1.a/opposites-make-zero", "word", _ns1a),
    ("7.NS.A.1.b/signed-sum-story", "word", _ns1b_story),
    ("7.NS.A.1.b/distance-from-p", "bare", _ns1b_bare),
    ("7.NS.A.1.c/distance-apart-story", "word", _ns1c_story),
    ("7.NS.A.1.c/subtract-by-adding-opposite", "bare", _ns1c_bare),
    ("7.NS.A.1.d/add-with-properties", "bare", _ns1d),
)
