"""Grade 4 problem generators: Measurement and Data.

The standards 4.MD.A.1 to 4.MD.C.7; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import NAMES, fraction_text, number_text, pick
from tutorgraph.training.problems.grade_34._shared import _dec, _f, _say, _voice

__all__ = ["GENERATORS"]


_CONV = (
    ("km", "m", 1000), ("m", "cm", 100), ("kg", "g", 1000), ("lb", "oz", 16), ("L", "mL", 1000),
    ("hr", "min", 60), ("min", "sec", 60), ("ft", "in", 12), ("yd", "ft", 3), ("yd", "in", 36),
    ("day", "hr", 24), ("week", "day", 7),
)  # fmt: skip


_LONG = {
    "km": "kilometers", "m": "meters", "cm": "centimeters", "kg": "kilograms", "g": "grams",
    "lb": "pounds", "oz": "ounces", "L": "liters", "mL": "milliliters", "hr": "hours",
    "min": "minutes", "sec": "seconds", "ft": "feet", "in": "inches", "yd": "yards",
    "day": "days", "week": "weeks",
}  # fmt: skip


def _g4md1(rng: random.Random) -> Made:
    ab_big, ab_small, k = pick(rng, _CONV)
    big, small = ab_big, ab_small
    if rng.random() < 0.5:
        big, small = _LONG[big], _LONG[small]
    elif big in ("day", "week"):
        big = big + "s"
    n = rng.randint(2, 12)
    mode = rng.randrange(4)
    if mode == 0:
        text = pick(rng, (
            f"{n} {big} = ? {small}",
            f"How many {small} are in {n} {big}?",
            f"convert {n} {big} to {small}",
            f"Express {n} {big} in {_LONG[ab_small]}.",
            f"a snake is {n} {big} long, how long is it in {_LONG[ab_small]}",
        ))  # fmt: skip
        if "snake" in text and ab_big not in ("ft", "yd", "m"):
            text = f"How many {_LONG[ab_small]} are in {n} {_LONG[ab_big]}?"
        return text, f"{n} * {k}", number_text(n * k)
    if mode == 1:
        r = rng.randint(1, k - 1)
        text = pick(rng, (
            f"{n} {big} {r} {small} = ? {small}",
            f"how many {small} is {n} {big} and {r} {small}",
        ))  # fmt: skip
        return text, f"{n} * {k} + {r}", number_text(n * k + r)
    if mode == 2:
        rows = ", ".join(f"({i}, {i * k})" for i in range(1, 4))
        text = pick(rng, (
            f"A conversion table for {_LONG[ab_big]} and {_LONG[ab_small]} lists {rows}, ... "
            f"What goes next to {n}?",
            f"finish the table {big} to {small}: {rows} ... what is the pair for {n}",
        ))  # fmt: skip
        return text, f"{n} * {k}", number_text(n * k)
    one = {"ft": "foot", "in": "inch", "yd": "yard", "km": "kilometer", "m": "meter"}
    if (ab_big in one and ab_small in one) or ab_small == "cm":
        text = f"1 {one[ab_big]} is how many times as long as 1 {one.get(ab_small, 'centimeter')}?"
    else:
        text = pick(
            rng, (f"How many {_LONG[ab_small]} make 1 {ab_big}?", f"1 {ab_big} = ? {ab_small}")
        )
    return text, str(k), number_text(k)


def _g4md2(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    mode = rng.randrange(6)
    if mode == 0:
        km, m = rng.randint(1, 5), rng.randint(100, 900)
        text = _say(rng, (
            "{name} ran {km} km and then {m} m more. How many meters did {name} run?",
            "A trail is {km} km long. {name} has walked {m} m. How many meters are left?",
        ), name=name, km=km, m=m)  # fmt: skip
        if "left" in text:
            return text, f"{km} * 1000 - {m}", number_text(km * 1000 - m)
        return text, f"{km} * 1000 + {m}", number_text(km * 1000 + m)
    if mode == 1:
        h, a, b = rng.randint(2, 4), rng.randint(10, 50), rng.randint(5, 40)
        text = _say(rng, (
            "A movie is {h} hours and {a} minutes long. How many minutes is that?",
            "{name} practiced for {h} hours on Saturday and {b} minutes on Sunday. How many "
            "minutes in all?",
            "a trip takes {h} hours and {a} minutes, how many minutes",
        ), name=name, h=h, a=a, b=b)  # fmt: skip
        if "Sunday" in text:
            return text, f"{h} * 60 + {b}", str(h * 60 + b)
        return text, f"{h} * 60 + {a}", str(h * 60 + a)
    if mode == 2:
        liters, cups = rng.randint(2, 6), pick(rng, (200, 250, 500))
        text = _say(rng, (
            "{name} has {L} liters of juice and pours glasses of {c} mL each. How many glasses can "
            "{name} fill?",
            "A pot holds {L} L. How many {c} mL cups does it take to fill it?",
        ), name=name, L=liters, c=cups)  # fmt: skip
        return text, f"{liters} * 1000 / {cups}", str(liters * 1000 // cups)
    if mode == 3:
        kg, g = rng.randint(1, 4), rng.randint(100, 900)
        n = rng.randint(2, 5)
        text = _say(rng, (
            "A bag of rice has a mass of {kg} kg. {name} uses {g} g. How many grams are left?",
            "{name} buys {n} melons of {g} g each. What is their total mass in grams?",
        ), name=name, kg=kg, g=g, n=n)  # fmt: skip
        if "melons" in text:
            return text, f"{n} * {g}", number_text(n * g)
        return text, f"{kg} * 1000 - {g}", number_text(kg * 1000 - g)
    if mode == 4:
        price, n = rng.randint(25, 350), rng.randint(2, 6)
        paid = -(-(price * n) // 100) * 100 + pick(rng, (0, 100, 500))
        d = _dec(Fraction(price, 100))
        text = _say(rng, (
            "{name} buys {n} notebooks at ${d} each and pays with ${p}. How much change, in cents?",
            "Pens cost ${d} each. {name} buys {n} pens and pays ${p}. How many cents of change?",
        ), name=name, n=n, d=d, p=_dec(Fraction(paid, 100)))  # fmt: skip
        return text, f"{paid} - {n} * {price}", number_text(paid - n * price)
    a, b = rng.randint(1, 7), pick(rng, (2, 4))
    n = rng.randint(2, 6)
    text = _say(rng, (
        "{name} walks {a}/{b} mile to school and the same back, {n} days a week. How many miles is "
        "that?",
        "Each of {n} pitchers holds 1/{b} gallon more than {a} gallons. How many gallons do they "
        "hold in all?",
    ), name=name, a=a, b=b, n=n)  # fmt: skip
    if "pitchers" in text:
        return text, f"{n} * ({a} + 1/{b})", fraction_text(n * (a + Fraction(1, b)), mixed=True)
    return text, f"2 * {n} * {a}/{b}", fraction_text(2 * n * Fraction(a, b), mixed=True)


def _g4md3(rng: random.Random) -> Made:
    ln, w = rng.randint(3, 40), rng.randint(2, 25)
    unit = pick(rng, ("m", "ft", "cm", "in", "yd"))
    mode = rng.randrange(4)
    if mode == 0:
        text = pick(
            rng,
            (
                f"Find the area of a rectangle {ln} {unit} by {w} {unit}.",
                f"area of rectangle length {ln} width {w} = ?",
                f"A = l × w. What is A when l = {ln} {unit} and w = {w} {unit}?",
            ),
        )
        return text, f"{ln} * {w}", number_text(ln * w)
    if mode == 1:
        text = pick(
            rng,
            (
                f"Find the perimeter of a rectangle {ln} {unit} by {w} {unit}.",
                f"P = 2l + 2w. l = {ln}, w = {w}. P = ?",
                f"perimeter of a rectangle {ln} by {w}",
            ),
        )
        return text, f"2 * {ln} + 2 * {w}", str(2 * ln + 2 * w)
    if mode == 2:
        text = pick(
            rng,
            (
                f"A rectangle has an area of {ln * w} square {unit} and a length of {ln} {unit}. "
                "What is its width?",
                f"area {ln * w}, length {ln}, what is the width of the rectangle",
            ),
        )
        return text, f"{ln * w} / {ln}", str(w)
    text = pick(
        rng,
        (
            f"A rectangle has a perimeter of {2 * (ln + w)} {unit}. Its length is {ln} {unit}. "
            "What "
            "is its width?",
            f"perimeter {2 * (ln + w)} and one side {ln}, find the other side",
        ),
    )
    return text, f"{2 * (ln + w)} / 2 - {ln}", str(w)


def _g4md3_story(rng: random.Random) -> Made:
    ln, w = rng.randint(6, 30), rng.randint(4, 20)
    name = pick(rng, NAMES)
    mode = rng.randrange(3)
    if mode == 0:
        text = _say(rng, (
            "The flooring for a rectangular room covers {A} square feet. The room is {ln} feet "
            "long. How wide is the room?",
            "{name}'s garden has an area of {A} square meters and a length of {ln} meters. What is "
            "its width?",
            "a poster is {A} square inches and {ln} inches long how wide is it",
        ), A=ln * w, ln=ln, name=name)  # fmt: skip
        return text, f"{ln * w} / {ln}", str(w)
    if mode == 1:
        text = _say(rng, (
            "{name} needs {P} feet of fence for a rectangular yard that is {ln} feet long. How "
            "wide "
            "is the yard?",
            "A rectangular field has a perimeter of {P} m. It is {ln} m long. How wide is it?",
        ), P=2 * (ln + w), ln=ln, name=name)  # fmt: skip
        return text, f"({2 * (ln + w)} - 2 * {ln}) / 2", str(w)
    text = _say(rng, (
        "{name} is carpeting a room {ln} ft by {w} ft. How many square feet of carpet are needed?",
        "A rectangular pool is {ln} m long and {w} m wide. What is the area of its surface?",
        "How many square yards of grass does a lawn {ln} yd by {w} yd need?",
    ), ln=ln, w=w, name=name)  # fmt: skip
    return text, f"{ln} * {w}", str(ln * w)


_EIGHTHS = tuple(Fraction(i, 8) for i in range(8))


def _g4md4(rng: random.Random) -> Made:
    base = rng.randint(1, 5)
    values = sorted({base + pick(rng, _EIGHTHS) for _ in range(rng.randint(6, 9))})
    while len(values) < 3:
        values = sorted(set(values) | {base + pick(rng, _EIGHTHS)})
    thing = pick(rng, ("insects", "leaves", "seeds", "ribbons", "worms", "crayons"))
    data = ", ".join(fraction_text(v, mixed=True) for v in values)
    lead = f"A line plot shows the lengths of {thing} in inches: {data}. "
    hi, lo = values[-1], values[0]
    eh = f"({hi.numerator}/{hi.denominator})"
    el = f"({lo.numerator}/{lo.denominator})"
    mode = rng.randrange(3)
    if mode == 0:
        q = pick(
            rng,
            (
                "What is the difference between the longest and the shortest?",
                "how much longer is the longest than the shortest",
            ),
        )
        return _voice(rng, lead + q), f"{eh} - {el}", fraction_text(hi - lo, mixed=True)
    if mode == 1:
        q = pick(
            rng,
            (
                "What is the total length of the longest and shortest together?",
                "If the two longest are put end to end, how long are they?",
            ),
        )
        if "two longest" in q:
            mid = values[-2]
            return (
                _voice(rng, lead + q),
                f"{eh} + ({mid.numerator}/{mid.denominator})",
                fraction_text(hi + mid, mixed=True),
            )
        return _voice(rng, lead + q), f"{eh} + {el}", fraction_text(hi + lo, mixed=True)
    total = sum(values, Fraction(0))
    q = "What is the total length of all of them?"
    return (
        _voice(rng, lead + q),
        " + ".join(f"({v.numerator}/{v.denominator})" for v in values),
        fraction_text(total, mixed=True),
    )


def _g4md5a(rng: random.Random) -> Made:
    mode = rng.randrange(3)
    if mode == 0:
        d = pick(rng, (2, 3, 4, 5, 6, 8, 9, 10, 12, 36))
        n = rng.randint(1, d - 1)
        text = pick(rng, (
            f"An angle turns through {n}/{d} of a circle. How many degrees is it?",
            f"how many degrees is {n}/{d} of a full turn",
            f"A circle is 360 degrees. What angle turns through {n}/{d} of it?",
        ))  # fmt: skip
        return text, f"360 * {n}/{d}", str(360 * n // d)
    if mode == 1:
        m = rng.randint(1, 11) * 5
        text = pick(rng, (
            f"The minute hand of a clock moves for {m} minutes. Through how many degrees does it "
            "turn?",
            f"how many degrees does the minute hand turn in {m} minutes",
        ))  # fmt: skip
        return text, f"360 * {m}/60", str(360 * m // 60)
    deg = pick(rng, (30, 45, 60, 90, 120, 180, 270, 10, 20, 40))
    text = pick(
        rng,
        (
            f"What fraction of a full circle does a {deg}° angle turn through?",
            f"a {deg} degree angle is what fraction of a circle",
        ),
    )
    return text, f"{deg}/360", _f(Fraction(deg, 360).numerator, Fraction(deg, 360).denominator)


def _g4md5b(rng: random.Random) -> Made:
    a, b = rng.randint(10, 90), rng.randint(5, 80)
    text = pick(rng, (
        f"An angle turns through {a} one-degree angles and then {b} more. What is its measure in "
        "degrees?",
        f"how many degrees is an angle made of {a} one-degree angles plus {b} one-degree angles",
        f"An angle is made of {a + b} one-degree angles. What is its measure?",
        f"{pick(rng, NAMES)} turns a dial {a} one-degree clicks, then {b} more. How many degrees "
        "did it turn?",
        f"A fan blade turns through {a + b} one-degree angles. How many degrees did it turn?",
    ))  # fmt: skip
    if f"{a + b} one" in text:
        return text, f"{a + b} * 1", str(a + b)
    return text, f"{a} + {b}", str(a + b)


def _g4md6(rng: random.Random) -> Made:
    mode = rng.randrange(3)
    if mode == 0:
        a = rng.randint(0, 12) * 10
        b = a + rng.randint(15, 180 - a) if a < 165 else 180
        text = pick(rng, (
            f"On a protractor, one ray of an angle passes through {a} and the other through {b} on "
            "the same scale. What is the angle's measure?",
            f"the protractor shows one side at {a} and the other at {b}, how big is the angle",
        ))  # fmt: skip
        return text, f"{b} - {a}", str(b - a)
    if mode == 1:
        o = rng.randint(10, 170)
        text = pick(rng, (
            f"A ray crosses {o} on the outer scale of a protractor. What number does it cross on "
            "the inner scale?",
            f"outer scale says {o}, what does the inner scale say",
        ))  # fmt: skip
        return text, f"180 - {o}", str(180 - o)
    deg = rng.randint(10, 170)
    text = pick(rng, (
        f"You sketch a {deg}° angle with one ray on 0 of the protractor. At what mark should the "
        "other ray be?",
        f"to draw a {deg} degree angle starting at 0, where does the second ray go on the "
        "protractor",
    ))  # fmt: skip
    return text, f"0 + {deg}", str(deg)


def _g4md7(rng: random.Random) -> Made:
    whole = pick(rng, (90, 180, 360, rng.randint(60, 170)))
    part = rng.randint(10, whole - 10)
    mode = rng.randrange(3)
    name = {90: "a right angle", 180: "a straight angle", 360: "a full turn"}.get(
        whole, f"a {whole}° angle"
    )
    if mode == 0:
        text = pick(rng, (
            f"{name[0].upper() + name[1:]} is split into two angles. One is {part}°. What is the "
            "other?",
            f"angle ABC is {whole} degrees and is made of two parts. one part is {part}. what is "
            "the other part",
            f"Write an equation: {part} + x = {whole}. Find the unknown angle x.",
        ))  # fmt: skip
        return text, f"{whole} - {part}", str(whole - part)
    if mode == 1:
        a, b = rng.randint(15, 80), rng.randint(15, 80)
        text = pick(rng, (
            f"Angle ABD is {a}° and angle DBC is {b}°. They do not overlap. What is angle ABC?",
            f"two angles side by side are {a} degrees and {b} degrees what is the whole angle",
        ))  # fmt: skip
        return text, f"{a} + {b}", str(a + b)
    a = rng.randint(10, 60)
    b = rng.randint(10, 170 - a)
    text = pick(rng, (
        f"A straight angle is split into three angles. Two of them are {a}° and {b}°. What is the "
        "third?",
        f"three angles make a straight line, two are {a} and {b}, find the missing one",
    ))  # fmt: skip
    return text, f"180 - {a} - {b}", str(180 - a - b)


def _g4md7_story(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    a = rng.randint(15, 75)
    mode = rng.randrange(3)
    if mode == 0:
        text = _say(rng, (
            "{name} cuts a slice from the corner of a square sheet. The corner is a right angle "
            "and the cut makes a {a}° angle. What is the other angle at the corner?",
            "A door opens to make a right angle with the wall. {name} closes it {a} degrees. What "
            "angle does the door make with the wall now?",
        ), name=name, a=a)  # fmt: skip
        return text, f"90 - {a}", str(90 - a)
    if mode == 1:
        b = rng.randint(15, 75)
        text = _say(rng, (
            "A skateboarder turns {a} degrees and then {b} degrees more. How many degrees did she "
            "turn in all?",
            "{name} turns a dial {a}° and then another {b}°. What is the total turn?",
        ), name=name, a=a, b=b)  # fmt: skip
        return text, f"{a} + {b}", str(a + b)
    text = _say(rng, (
        "A pizza is cut so one slice has a {a}° angle at the center. What is the angle of the rest "
        "of the pizza?",
        "{name} spins {a} degrees. How many more degrees to make a full turn?",
    ), name=name, a=a)  # fmt: skip
    return text, f"360 - {a}", str(360 - a)


GENERATORS: tuple[Generator, ...] = table(
    ("4.MD.A.1/convert", "bare", _g4md1),
    ("4.MD.A.2/measurement-story", "word", _g4md2),
    ("4.MD.A.3/area-perimeter", "bare", _g4md3),
    ("4.MD.A.3/area-perimeter-story", "word", _g4md3_story),
    ("4.MD.B.4/line-plot", "word", _g4md4),
    ("4.MD.C.5.a/fraction-of-circle", "bare", _g4md5a),
    ("4.MD.C.5.b/one-degree-angles", "bare", _g4md5b),
    ("4.MD.C.6/protractor", "bare", _g4md6),
    ("4.MD.C.7/unknown-angle", "bare", _g4md7),
    ("4.MD.C.7/angle-story", "word", _g4md7_story),
)
