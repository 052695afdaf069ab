"""Grade 7 problem generators: Expressions and Equations, cluster B.

The standards 7.EE.B.3 to 7.EE.B.4; `GENERATORS` lists their generators in the registry's order.
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
    _lin,
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


GENERATORS: tuple[Generator, ...] = table(
    ("7.EE.B.3/multi-step-story", "word", _ee3_story),
    ("7.EE.B.3/mixed-forms", "bare", _ee3_bare),
    ("7.EE.B.4.a/two-step-equation-story", "word", _ee4a_story),
    ("7.EE.B.4.a/solve-px-q-r", "bare", _ee4a_bare),
    ("7.EE.B.4.b/inequality-story", "word", _ee4b_story),
    ("7.EE.B.4.b/solve-inequality", "bare", _ee4b_bare),
)
