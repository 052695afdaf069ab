"""Generators for the computable standards of kindergarten, grade 1 and grade 2.

Counting and cardinality (K.CC), operations and algebraic thinking (K-2 OA: add and subtract
within 5, 10, 20 and 100 with the unknown in every position, three addends, properties, the
equal sign, odd and even, arrays), place value (K-2 NBT: teens, tens and ones, hundreds, skip
counting, number names and expanded form, comparing, adding and subtracting within 100 and
1000), measurement and data (length in units and standard units, time to the hour, half hour
and five minutes, coins and dollar bills, picture and bar graphs, line plots) and geometry
(sides, corners, faces, composing shapes, equal shares, rows and columns of squares). Each
generator makes word problems ("word") or bare exercises ("bare") in worksheet wording and in
students' own words; every answer is computed and comes with the expression that computes it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction

from tutorgraph.training.problems._registry import Generator, Kind, Made
from tutorgraph.training.problems._words import CONTAINERS, NAMES, THINGS, pick, plural

__all__ = ["GENERATORS"]

_Make = Callable[[random.Random], Made]
# One way to ask: the text, the expression and the answer's value.
_Option = tuple[str, str, int | Fraction | str]

_GENS: list[Generator] = []


def _gen(name: str, kind: Kind) -> Callable[[_Make], _Make]:
    """Registers a generator for the standard named by `name`'s code."""

    def register(make: _Make) -> _Make:
        _GENS.append(Generator(name, "ccss:" + name.split("/", 1)[0], kind, make))
        return make

    return register


_WORKSHEET_LEADS = ("", "", "", "Solve. ", "Find the answer. ", "Problem: ", "Show your work. ")
_STUDENT_LEADS = (
    "my homework says ",
    "i dont get this one: ",
    "how do you do this ",
    "can someone help me with this? ",
    "my teacher gave us this: ",
    "help pls ",
    "how do i solve ",
)


def _wrap(rng: random.Random, text: str) -> str:
    """The text as a worksheet prints it or as a student types it."""
    # A time that ends a sentence keeps one period ("7:05 a.m. It ...").
    text = text.replace("m.. ", "m. ")
    if rng.random() < 0.6:
        return pick(rng, _WORKSHEET_LEADS) + text[:1].upper() + text[1:]
    out = pick(rng, _STUDENT_LEADS) + text[:1].lower() + text[1:]
    if rng.random() < 0.5:
        out = out.lower().rstrip("?.!")
    return out


def _answer(value: int | Fraction | str) -> str:
    if isinstance(value, str):
        return value
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else str(value)


def _choose(rng: random.Random, options: Sequence[_Option]) -> Made:
    """One of the ways to ask, wrapped in a lead."""
    text, expression, value = pick(rng, options)
    return _wrap(rng, text), expression, _answer(value)


def _thing(rng: random.Random) -> str:
    return pick(rng, THINGS)[1]


def _two_names(rng: random.Random) -> tuple[str, str]:
    a = pick(rng, NAMES)
    b = pick(rng, [n for n in NAMES if n != a])
    return a, b


_ONES_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
)  # fmt: skip
_ORDINALS = ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth")
_TENS_WORDS = (
    "_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
)  # fmt: skip


def _name_of(n: int) -> str:
    """The number's name in words, 0 to 999."""
    if n < 20:
        return _ONES_WORDS[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS_WORDS[tens] + ("-" + _ONES_WORDS[ones] if ones else "")
    hundreds, rest = divmod(n, 100)
    return _ONES_WORDS[hundreds] + " hundred" + (" " + _name_of(rest) if rest else "")


def _comparison(a: int, b: int, what: str) -> Sequence[_Option]:
    """Ways to compare two numbers; the symbol form is one way in several, being categorical."""
    big, small = max(a, b), min(a, b)
    return (
        (f"Which number is greater, {a} or {b}?", f"max({a}, {b})", big),
        (f"Circle the smaller number: {a} {b}", f"min({a}, {b})", small),
        (f"Which is less: {a} or {b}?", f"min({a}, {b})", small),
        (f"which {what} is bigger {a} or {b}", f"max({a}, {b})", big),
        (f"Write the larger of the two numbers {a} and {b}.", f"max({a}, {b})", big),
        (f"Compare {a} and {b}. Write >, < or =: {a} __ {b}", f"cmp({a}, {b})", _cmp(a, b)),
    )


def _cmp(a: int, b: int) -> str:
    return "<" if a < b else ">" if a > b else "="


def _add_take_story(rng: random.Random, lo: int, hi: int) -> Made:
    """Add to and take from, with the result, the change or the start unknown (total in lo..hi)."""
    name = pick(rng, NAMES)
    forms = pick(rng, THINGS)
    things = forms[1]
    total = rng.randint(lo, hi)
    part = rng.randint(2, total - 2)
    rest = total - part
    options: list[_Option] = [
        (
            f"{name} has {part} {things}. {name} gets {rest} more. How many {things} does "
            f"{name} have now?",
            f"{part} + {rest}",
            total,
        ),
        (
            f"{name} had {part} {things}. A friend gave {name} some more. Now {name} has "
            f"{total} {things}. How many {things} did the friend give?",
            f"{total} - {part}",
            rest,
        ),
        (
            f"{name} had some {things}. Then {name} found {rest} more. Now there are {total}. "
            f"How many {things} did {name} have at first?",
            f"{total} - {rest}",
            part,
        ),
        (
            f"{name} had {total} {things} and gave {part} away. How many {things} are left?",
            f"{total} - {part}",
            rest,
        ),
        (
            f"There were {total} {things} on the table. {name} took some. Now there are {rest}."
            f" How many did {name} take?",
            f"{total} - {rest}",
            part,
        ),
        (
            f"{name} had some {things}. {name} lost {part} of them and has {rest} left. "
            f"How many {things} did {name} start with? Write an equation.",
            f"{rest} + {part}",
            total,
        ),
        (
            f"{part} {things} were in a {pick(rng, CONTAINERS)[0]}. {name} put in {rest} more. "
            f"How many {things} are in it in all?",
            f"{part} + {rest}",
            total,
        ),
    ]
    return _choose(rng, options)


def _together_compare_story(rng: random.Random, lo: int, hi: int) -> Made:
    """Put together, take apart and compare, with the unknown in each position."""
    a_name, b_name = _two_names(rng)
    things = _thing(rng)
    big = rng.randint(lo, hi)
    small = rng.randint(2, big - 1)
    diff = big - small
    options: list[_Option] = [
        (
            f"{a_name} has {big} {things}. {b_name} has {small} {things}. How many more "
            f"{things} does {a_name} have than {b_name}?",
            f"{big} - {small}",
            diff,
        ),
        (
            f"{b_name} has {small} {things}. {a_name} has {diff} more than {b_name}. "
            f"How many {things} does {a_name} have?",
            f"{small} + {diff}",
            big,
        ),
        (
            f"{a_name} has {big} {things}. {b_name} has {diff} fewer {things} than {a_name}. "
            f"How many {things} does {b_name} have?",
            f"{big} - {diff}",
            small,
        ),
        (
            f"{a_name} has {small} red {things} and {diff} blue {things}. How many {things} "
            f"does {a_name} have in all?",
            f"{small} + {diff}",
            big,
        ),
        (
            f"There are {big} {things}. {small} of them are big and the rest are small. "
            f"How many are small?",
            f"{big} - {small}",
            diff,
        ),
        (
            f"{b_name} has {small} {things}. How many more does {b_name} need to have as many "
            f"as {a_name}, who has {big}?",
            f"{big} - {small}",
            diff,
        ),
    ]
    return _choose(rng, options)


# --- Kindergarten ---------------------------------------------------------------------------


@_gen("K.CC.A.1/count-by-tens", "bare")
def _k_count_tens(rng: random.Random) -> Made:
    start = rng.randint(1, 7) * 10
    seq = ", ".join(str(start + 10 * i) for i in range(3))
    name = pick(rng, NAMES)
    nxt = start + 30
    return _choose(
        rng,
        (
            (f"Count by tens: {seq}, ___. What number comes next?", f"{start} + 30", nxt),
            (f"Fill in the missing number: {seq}, __", f"{start} + 30", nxt),
            (f"what comes next when you count by 10s {seq}", f"{start} + 30", nxt),
            (f"{name} counts by tens: {seq}. What does {name} say next?", f"{start} + 30", nxt),
            (f"Count by tens. What number comes right before {start + 10}?", f"{start}", start),
            (f"Count by tens to 100. What comes after {start}?", f"{start} + 10", start + 10),
        ),
    )


@_gen("K.CC.A.1/count-by-ones", "bare")
def _k_count_ones(rng: random.Random) -> Made:
    n = rng.randint(11, 98)
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (f"What number comes after {n}?", f"{n} + 1", n + 1),
            (f"What number comes just before {n}?", f"{n} - 1", n - 1),
            (f"Count by ones: {n - 2}, {n - 1}, {n}, __", f"{n} + 1", n + 1),
            (
                f"{name} is counting to 100 and just said {n}. What number is next?",
                f"{n} + 1",
                n + 1,
            ),
            (f"fill in the blank {n - 1}, __, {n + 1}", f"{n + 1} - 1", n),
            (f"What is the missing number? {n}, {n + 1}, __, {n + 3}", f"{n} + 2", n + 2),
        ),
    )


@_gen("K.CC.A.2/count-on-from", "bare")
def _k_count_on(rng: random.Random) -> Made:
    start = rng.randint(3, 90)
    steps = rng.randint(2, 5)
    end = start + steps
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"Start at {start}. Count forward {steps} numbers. Where do you stop?",
                f"{start} + {steps}",
                end,
            ),
            (f"Count on from {start}: {start}, {start + 1}, __", f"{start} + 2", start + 2),
            (
                f"{name} starts counting at {start} and says {steps} more numbers. What "
                f"is the last number {name} says?",
                f"{start} + {steps}",
                end,
            ),
            (
                f"Begin at {start} and count up to {end}. How many numbers do you say "
                f"after {start}?",
                f"{end} - {start}",
                steps,
            ),
            (
                f"count forward from {start}. what is the {_ORDINALS[steps]} number you say",
                f"{start} + {steps}",
                end,
            ),
            (f"Keep counting: {start}, {start + 1}, {start + 2}, ___", f"{start} + 3", start + 3),
        ),
    )


@_gen("K.CC.A.2/count-on-story", "word")
def _k_count_on_word(rng: random.Random) -> Made:
    start = rng.randint(4, 60)
    k = rng.randint(2, 5)
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} has {start} {things} in a box and counts on as {k} more are "
                f"added: {start}, ... What number does {name} stop on?",
                f"{start} + {k}",
                start + k,
            ),
            (
                f"Hide-and-seek! {name} starts counting at {start} and counts {k} more "
                f"numbers. What is the last number {name} says?",
                f"{start} + {k}",
                start + k,
            ),
            (
                f"The elevator is on floor {start} and goes up {k} floors, one at a time. "
                "What floor is it on?",
                f"{start} + {k}",
                start + k,
            ),
            (
                f"{name} is on page {start} and reads {k} more pages, one by one. what "
                f"page is {name} on",
                f"{start} + {k}",
                start + k,
            ),
            (
                f"{name} counts forward from {start} and stops at {start + k}. How many "
                f"numbers did {name} say after {start}?",
                f"{start + k} - {start}",
                k,
            ),
            (
                f"A jar has {start} {things}. {name} drops in {k} more and counts on. How "
                f"many {things} now?",
                f"{start} + {k}",
                start + k,
            ),
        ),
    )


@_gen("K.CC.A.3/write-the-numeral", "bare")
def _k_write_numeral(rng: random.Random) -> Made:
    n = rng.randint(0, 20)
    word = _ONES_WORDS[n] if n < 20 else "twenty"
    forms = pick(rng, THINGS)
    name = pick(rng, NAMES)
    dots = " ".join("*" * n) if n else "(no stars)"
    return _choose(
        rng,
        (
            (f"Write the number {word} using digits.", f"{n}", n),
            (f"Write the numeral that shows how many stars: {dots}", f"{n}", n),
            (f"{name} has {word} {plural(forms, n)}. Write the number.", f"{n}", n),
            (f"how do you write {word} as a number", f"{n}", n),
            ("A nest has no eggs. What number tells how many eggs are in the nest?", "0", 0),
            (f"Write the number for {word}.", f"{n}", n),
        ),
    )


@_gen("K.CC.B.4.a/one-to-one", "word")
def _k_one_to_one(rng: random.Random) -> Made:
    n = rng.randint(3, 15)
    name = pick(rng, NAMES)
    forms = pick(rng, THINGS)
    things = forms[1]
    return _choose(
        rng,
        (
            (
                f"There are {n} children. Each child gets one chair. How many chairs are needed?",
                f"{n}",
                n,
            ),
            (
                f"{name} touches each of the {things} once while counting and says the "
                f"numbers one to {_name_of(n)}. How many {things} are there?",
                f"{n}",
                n,
            ),
            (
                f"{name} puts one {forms[0]} on each of {n} plates. How many plates have one?",
                f"{n}",
                n,
            ),
            (f"Each of {n} kids holds one balloon. How many balloons are there?", f"{n}", n),
            (
                f"{name} counts the cups, one number for each cup: 1, 2, ..., {n}. How many cups?",
                f"{n}",
                n,
            ),
            (
                f"There are {n} dogs and each dog gets exactly one bone. How many bones "
                "do you need?",
                f"{n}",
                n,
            ),
        ),
    )


@_gen("K.CC.B.4.b/last-number-counted", "word")
def _k_last_number(rng: random.Random) -> Made:
    n = rng.randint(3, 12)
    name = pick(rng, NAMES)
    things = _thing(rng)
    said = ", ".join(str(i) for i in range(1, n + 1))
    return _choose(
        rng,
        (
            (f"{name} counts {things}: {said}. How many {things} does {name} have?", f"{n}", n),
            (
                f"{name} counted {n} {things} in a line. Then {name} moved them into a "
                f"circle. How many {things} are there now?",
                f"{n}",
                n,
            ),
            (
                f"{name} counts the {things} from left to right and gets {n}. How many "
                f"will {name} get counting from right to left?",
                f"{n}",
                n,
            ),
            (f"i counted my {things} {said} so how many do i have", f"{n}", n),
            (
                f"{name} mixes up {n} {things} in a pile. How many {things} are in the pile?",
                f"{n}",
                n,
            ),
            (
                f"The last number {name} said when counting the {things} was {n}. How "
                f"many {things} are there?",
                f"{n}",
                n,
            ),
        ),
    )


@_gen("K.CC.B.4.c/one-more", "bare")
def _k_one_more(rng: random.Random) -> Made:
    n = rng.randint(1, 19)
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (f"What number is one more than {n}?", f"{n} + 1", n + 1),
            (
                f"There are {n} {things}. One more is added. How many {things} now?",
                f"{n} + 1",
                n + 1,
            ),
            (
                f"{name} has {n} {things} and gets 1 more. How many does {name} have?",
                f"{n} + 1",
                n + 1,
            ),
            (f"one more than {n} is what", f"{n} + 1", n + 1),
            (f"What number is one less than {n + 1}?", f"{n + 1} - 1", n),
            (
                f"{n} ducks are in a pond. One more duck swims over. How many ducks?",
                f"{n} + 1",
                n + 1,
            ),
        ),
    )


@_gen("K.CC.B.5/how-many", "bare")
def _k_how_many(rng: random.Random) -> Made:
    n = rng.randint(4, 20)
    rows = rng.randint(2, 4)
    cols = rng.randint(2, 5)
    symbol = pick(rng, ("*", "o", "x", "@"))
    line = " ".join(symbol * n)
    grid = " / ".join(" ".join(symbol * cols) for _ in range(rows))
    things = _thing(rng)
    name = pick(rng, NAMES)
    k = rng.randint(3, 10)
    return _choose(
        rng,
        (
            (f"How many are there? {line}", f"{n}", n),
            (
                f"Count the dots in the rows: {grid}. How many dots?",
                f"{cols} * {rows}",
                rows * cols,
            ),
            (f"count these for me {line}", f"{n}", n),
            (
                f"{name} puts {things} in a circle: {line}. How many {things} are in the circle?",
                f"{n}",
                n,
            ),
            (
                f"{name} is asked to count out {k} {things} and puts them in a row. How "
                f"many {things} are in the row?",
                f"{k}",
                k,
            ),
            (f"How many {symbol}'s do you see? {line}", f"{n}", n),
        ),
    )


@_gen("K.CC.B.5/count-out-story", "word")
def _k_count_out(rng: random.Random) -> Made:
    n = rng.randint(3, 20)
    k = rng.randint(1, min(n - 1, 10))
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} lines up {things} in a row: {' '.join('o' * n)}. How many "
                f"{things} are in the row?",
                f"{n}",
                n,
            ),
            (
                f"There are {n} {things} in a circle. {name} counts them all. What number "
                f"does {name} say last?",
                f"{n}",
                n,
            ),
            (
                f"The teacher asks {name} to count out {n} {things} from a big pile. "
                f"{name} has counted {k} so far. How many more to count?",
                f"{n} - {k}",
                n - k,
            ),
            (
                f"{name} sets out {n} cups in a line and puts one {pick(rng, THINGS)[0]} "
                "in each. how many are in the cups",
                f"{n}",
                n,
            ),
            (
                f"{name} sees {things} scattered on the rug: "
                f"{' '.join('x' * min(n, 10))}. How many are there?",
                f"{min(n, 10)}",
                min(n, 10),
            ),
            (
                f"Count the {things} in the array: "
                f"{' / '.join(' '.join('o' * 4) for _ in range(max(1, n // 4)))}",
                f"4 * {max(1, n // 4)}",
                4 * max(1, n // 4),
            ),
        ),
    )


@_gen("K.CC.C.6/compare-groups", "word")
def _k_compare_groups(rng: random.Random) -> Made:
    a, b = rng.randint(1, 10), rng.randint(1, 10)
    a_name, b_name = _two_names(rng)
    things = _thing(rng)
    sa, sb = " ".join("o" * a), " ".join("x" * b)
    return _choose(
        rng,
        (
            (
                f"{a_name} has {a} {things}. {b_name} has {b} {things}. How many are in "
                "the bigger group?",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"Group A: {sa}. Group B: {sb}. How many are in the group with fewer?",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"A plate has {a} cookies and another plate has {b}. How many cookies are "
                "on the plate with more?",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"Match the cats and the dogs: {a} cats, {b} dogs. How many are in the "
                "smaller group?",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"which group has more? {sa} or {sb} how many is that group",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                "Is the number of o's greater than, less than or equal to the number of "
                f"x's? Write >, < or =. {sa} | {sb}",
                f"cmp({a}, {b})",
                _cmp(a, b),
            ),
        ),
    )


@_gen("K.CC.C.6/compare-drawn-groups", "bare")
def _k_compare_drawn(rng: random.Random) -> Made:
    a, b = rng.randint(1, 10), rng.randint(1, 10)
    sym_a, sym_b = rng.sample(("o", "x", "*", "#", "@"), 2)
    ga, gb = " ".join(sym_a * a), " ".join(sym_b * b)
    return _choose(
        rng,
        (
            (
                f"Which group has more? Write how many are in it. {ga} | {gb}",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"Which group has fewer? Write how many are in it. {ga} | {gb}",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"Match each {sym_a} with a {sym_b}: {ga} | {gb}. How many are in the "
                "bigger group?",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"count both groups {ga} and {gb} how many in the smaller one",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"Group 1: {ga}. Group 2: {gb}. How many are in the group with more?",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"Circle the group with less: {ga} or {gb}. How many does it have?",
                f"min({a}, {b})",
                min(a, b),
            ),
        ),
    )


@_gen("K.CC.C.7/compare-numerals", "bare")
def _k_compare_numerals(rng: random.Random) -> Made:
    a = rng.randint(1, 10)
    b = rng.choice([n for n in range(1, 11) if n != a])
    return _choose(rng, _comparison(a, b, "number"))


@_gen("K.CC.C.7/number-cards", "word")
def _k_cards(rng: random.Random) -> Made:
    a = rng.randint(1, 10)
    b = rng.choice([n for n in range(1, 11) if n != a])
    a_name, b_name = _two_names(rng)
    return _choose(
        rng,
        (
            (
                f"{a_name} draws the card {a} and {b_name} draws {b}. The bigger number "
                "wins. What number wins?",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"Two dice show {a} and {b}. What is the smaller number?",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"{a_name}'s card says {a} and {b_name}'s says {b}. which number is greater",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"In a game the lowest card wins. The cards are {a} and {b}. Which card wins?",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"A sign says {a} and another sign says {b}. Write the greater number.",
                f"max({a}, {b})",
                max(a, b),
            ),
            (f"Circle the number that is less: {a} or {b}.", f"min({a}, {b})", min(a, b)),
        ),
    )


@_gen("K.NBT.A.1/ten-and-ones", "bare")
def _k_teen_bare(rng: random.Random) -> Made:
    ones = rng.randint(1, 9)
    n = 10 + ones
    return _choose(
        rng,
        (
            (f"{n} = 10 + ?", f"{n} - 10", ones),
            (f"10 + {ones} = ?", f"10 + {ones}", n),
            (f"How many ones are in {n} after you take out a ten?", f"{n} - 10", ones),
            (f"what is ten and {_ONES_WORDS[ones]} more", f"10 + {ones}", n),
            (f"Fill in: ? = 10 + {ones}", f"10 + {ones}", n),
            (f"{n} is ten ones and how many more ones?", f"{n} - 10", ones),
        ),
    )


@_gen("K.NBT.A.1/ten-frame-story", "word")
def _k_teen_word(rng: random.Random) -> Made:
    ones = rng.randint(1, 9)
    n = 10 + ones
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"A ten frame is full and there are {ones} more dots below it. How many "
                "dots are there?",
                f"10 + {ones}",
                n,
            ),
            (
                f"{name} has a bag of 10 {things} and {ones} loose {things}. How many "
                f"{things} in all?",
                f"10 + {ones}",
                n,
            ),
            (
                f"{name} has {n} {things}. {name} puts 10 in a cup. How many are not in the cup?",
                f"{n} - 10",
                ones,
            ),
            (
                f"{name} makes {n} with 10 red cubes and some blue cubes. How many blue cubes?",
                f"{n} - 10",
                ones,
            ),
            (
                f"{name} shows {n} on two ten frames. One frame is full. How many dots "
                "are on the other frame?",
                f"{n} - 10",
                ones,
            ),
            (f"ten fingers and {ones} toes how many is that", f"10 + {ones}", n),
        ),
    )


@_gen("K.OA.A.1/act-it-out", "word")
def _k_act_out(rng: random.Random) -> Made:
    a = rng.randint(1, 5)
    b = rng.randint(1, 5)
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"Hold up {a} fingers on one hand and {b} on the other. How many fingers are up?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"{name} claps {a} times and then {b} more times. How many claps in all?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"{a + b} frogs sit on a log. {b} hop away. How many frogs are still on the log?",
                f"{a + b} - {b}",
                a,
            ),
            (
                f"Draw {a + b} circles and cross out {a}. How many circles are left?",
                f"{a + b} - {a}",
                b,
            ),
            (
                f"{name} hears {a} knocks and then {b} knocks. how many knocks is that",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"Write an expression for {a} cats and {b} more cats, then find how many cats.",
                f"{a} + {b}",
                a + b,
            ),
        ),
    )


@_gen("K.OA.A.2/story-within-10", "word")
def _k_story(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    things = _thing(rng)
    total = rng.randint(4, 10)
    a = rng.randint(2, total - 2)
    b = total - a
    return _choose(
        rng,
        (
            (
                f"{name} has {a} {things}. {name} gets {b} more. How many {things} does "
                f"{name} have now?",
                f"{a} + {b}",
                total,
            ),
            (
                f"There are {total} {things}. {a} roll away. How many {things} are left?",
                f"{total} - {a}",
                b,
            ),
            (
                f"{a} red {things} and {b} green {things} are in a box. How many {things} "
                "are in the box?",
                f"{a} + {b}",
                total,
            ),
            (f"{name} had {total} {things} and ate {b}. How many are left?", f"{total} - {b}", a),
            (
                f"{total} birds sat in a tree. {a} flew away. how many birds are in the tree now",
                f"{total} - {a}",
                b,
            ),
            (
                f"{name} picked {a} flowers and then {b} more flowers. How many flowers in all?",
                f"{a} + {b}",
                total,
            ),
        ),
    )


@_gen("K.OA.A.2/add-subtract-within-10", "bare")
def _k_within_10(rng: random.Random) -> Made:
    total = rng.randint(2, 10)
    a = rng.randint(0, total)
    b = total - a
    return _choose(
        rng,
        (
            (f"{a} + {b} = ?", f"{a} + {b}", total),
            (f"{total} - {a} = ?", f"{total} - {a}", b),
            (f"What is {a} plus {b}?", f"{a} + {b}", total),
            (f"what is {total} take away {b}", f"{total} - {b}", a),
            (f"Add: {b} + {a}", f"{b} + {a}", total),
            (f"Subtract: {total} - {b}", f"{total} - {b}", a),
        ),
    )


@_gen("K.OA.A.3/decompose", "bare")
def _k_decompose(rng: random.Random) -> Made:
    total = rng.randint(2, 10)
    a = rng.randint(1, total - 1)
    b = total - a
    return _choose(
        rng,
        (
            (f"{total} = {a} + ?", f"{total} - {a}", b),
            (f"{total} = ? + {b}", f"{total} - {b}", a),
            (
                f"Break {total} into two parts. One part is {a}. What is the other part?",
                f"{total} - {a}",
                b,
            ),
            (f"{a} and what make {total}?", f"{total} - {a}", b),
            (f"Find the missing part: {total} is {b} and ___.", f"{total} - {b}", a),
            (f"what goes with {b} to make {total}", f"{total} - {b}", a),
        ),
    )


@_gen("K.OA.A.3/two-colors", "word")
def _k_decompose_word(rng: random.Random) -> Made:
    total = rng.randint(4, 10)
    a = rng.randint(2, total - 2)
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} has {total} {things}. Some are red and some are blue. {a} are "
                "red. How many are blue?",
                f"{total} - {a}",
                total - a,
            ),
            (
                f"{total} {things} are in two bags. One bag has {a}. How many are in the "
                "other bag?",
                f"{total} - {a}",
                total - a,
            ),
            (
                f"{name} has {total} {things} in two hands. {a} are in the left hand. How "
                "many are in the right hand?",
                f"{total} - {a}",
                total - a,
            ),
            (
                f"There are {total} kids. {a} are on the slide and the rest are on the "
                "swings. How many are on the swings?",
                f"{total} - {a}",
                total - a,
            ),
            (
                f"{total} fish swim in two tanks. {a} are in the big tank. how many are "
                "in the small tank",
                f"{total} - {a}",
                total - a,
            ),
            (
                f"{name} sorts {total} {things} into two piles. One pile has {total - a}. "
                "How many are in the other pile?",
                f"{total} - {total - a}",
                a,
            ),
        ),
    )


@_gen("K.OA.A.4/make-ten", "bare")
def _k_make_ten(rng: random.Random) -> Made:
    n = rng.randint(1, 9)
    return _choose(
        rng,
        (
            (f"{n} + ? = 10", f"10 - {n}", 10 - n),
            (f"What number makes 10 when added to {n}?", f"10 - {n}", 10 - n),
            (f"? + {n} = 10", f"10 - {n}", 10 - n),
            (f"how many more to make 10 if you have {n}", f"10 - {n}", 10 - n),
            (f"Find the partner of {n} that makes ten.", f"10 - {n}", 10 - n),
            (f"A ten frame has {n} dots. How many empty boxes are there?", f"10 - {n}", 10 - n),
        ),
    )


@_gen("K.OA.A.4/make-ten-story", "word")
def _k_make_ten_word(rng: random.Random) -> Made:
    n = rng.randint(1, 9)
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} has {n} {things}. How many more does {name} need to have 10?",
                f"10 - {n}",
                10 - n,
            ),
            (f"A box holds 10 {things}. It has {n} in it. How many more fit?", f"10 - {n}", 10 - n),
            (f"{name} wants 10 {things} and has {n}. how many more", f"10 - {n}", 10 - n),
            (
                f"There are 10 seats on the bus and {n} kids are sitting. How many seats "
                "are empty?",
                f"10 - {n}",
                10 - n,
            ),
            (f"{name} holds up {n} fingers. How many more fingers make 10?", f"10 - {n}", 10 - n),
            (
                f"{name} needs 10 points to win and has {n}. How many points are still needed?",
                f"10 - {n}",
                10 - n,
            ),
        ),
    )


@_gen("K.OA.A.5/within-5", "bare")
def _k_within_5(rng: random.Random) -> Made:
    total = rng.randint(1, 5)
    a = rng.randint(0, total)
    b = total - a
    return _choose(
        rng,
        (
            (f"{a} + {b} =", f"{a} + {b}", total),
            (f"{total} - {a} =", f"{total} - {a}", b),
            (f"Quick! What is {b} + {a}?", f"{b} + {a}", total),
            (f"what is {total} minus {b}", f"{total} - {b}", a),
            (f"Add: {a} + {b}", f"{a} + {b}", total),
            (f"Subtract: {total} - {b}", f"{total} - {b}", a),
        ),
    )


@_gen("K.OA.A.5/within-5-story", "word")
def _k_within_5_word(rng: random.Random) -> Made:
    total = rng.randint(2, 5)
    a = rng.randint(1, total - 1)
    b = total - a
    name = pick(rng, NAMES)
    animal = pick(rng, ("frogs", "ducks", "bees", "kittens", "ants"))
    return _choose(
        rng,
        (
            (
                f"{a} {animal} are on a rock. {b} more {animal} come. How many {animal} now?",
                f"{a} + {b}",
                total,
            ),
            (
                f"{total} {animal} are in the grass. {a} ran away. How many are left?",
                f"{total} - {a}",
                b,
            ),
            (
                f"{name} holds up {a} fingers and then {b} more. How many fingers?",
                f"{a} + {b}",
                total,
            ),
            (
                f"{name} had {total} balloons. {b} popped. how many balloons are left",
                f"{total} - {b}",
                a,
            ),
            (
                f"There are {a} big {animal} and {b} little {animal}. How many {animal} in all?",
                f"{a} + {b}",
                total,
            ),
            (
                f"{name} has {total} grapes and eats {a}. How many grapes are left?",
                f"{total} - {a}",
                b,
            ),
        ),
    )


@_gen("K.MD.A.2/taller-longer", "word")
def _k_compare_lengths(rng: random.Random) -> Made:
    a = rng.randint(4, 10)
    b = rng.randint(2, a - 1)
    a_name, b_name = _two_names(rng)
    return _choose(
        rng,
        (
            (
                f"{a_name}'s tower is {a} blocks tall. {b_name}'s tower is {b} blocks "
                f"tall. How many blocks taller is {a_name}'s tower?",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"The red pencil is {a} cubes long and the blue pencil is {b} cubes long. "
                "How many cubes longer is the red pencil?",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"A bag of rice weighs as much as {a} blocks and a bag of beans as much "
                f"as {b} blocks. How many more blocks does the rice weigh?",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"{a_name} is {a} hands tall and {b_name} is {b} hands tall. how much "
                f"taller is {a_name}",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"A snake is {a} paper clips long and a worm is {b} paper clips long. How "
                "much shorter is the worm?",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"One cup holds {a} scoops and another holds {b} scoops. How many more "
                "scoops does the bigger cup hold?",
                f"{a} - {b}",
                a - b,
            ),
        ),
    )


@_gen("K.MD.B.3/sort-and-count", "word")
def _k_sort_count(rng: random.Random) -> Made:
    counts = [rng.randint(1, 10) for _ in range(3)]
    colors = ("red", "blue", "yellow")
    items = [c for c, n in zip(colors, counts, strict=True) for _ in range(n)]
    rng.shuffle(items)
    listing = ", ".join(items)
    a, b, c = counts
    i = rng.randrange(3)
    return _choose(
        rng,
        (
            (
                f"Sort the buttons by color: {listing}. How many {colors[i]} buttons are there?",
                f"{counts[i]}",
                counts[i],
            ),
            (
                f"A bin has {a} red blocks, {b} blue blocks and {c} yellow blocks. How "
                "many blocks are in the biggest group?",
                f"max({a}, {b}, {c})",
                max(counts),
            ),
            (
                f"Sort these cubes: {listing}. How many cubes are in the smallest group?",
                f"min({a}, {b}, {c})",
                min(counts),
            ),
            (f"sort {listing} by color how many are {colors[i]}", f"{counts[i]}", counts[i]),
            (
                f"There are {a} cars, {b} trucks and {c} bikes in the toy box. Put the "
                "groups in order by count. What is the count of the middle group?",
                f"median({a}, {b}, {c})",
                sorted(counts)[1],
            ),
            (
                f"A class sorts leaves: {a} big, {b} small and {c} medium. How many are "
                "in the group with the most?",
                f"max({a}, {b}, {c})",
                max(counts),
            ),
        ),
    )


_SHAPE_SIDES = (("triangle", 3), ("square", 4), ("rectangle", 4), ("hexagon", 6))


@_gen("K.G.A.2/name-the-shape", "bare")
def _k_name_shape(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    size = pick(rng, ("big", "tiny", "tilted", "upside-down", "long", "small"))
    color = pick(rng, ("red", "green", "blue", "orange"))
    options: list[_Option] = [
        (
            f"{name} draws a {size} {color} shape with 3 straight sides and 3 "
            "corners. What shape is it?",
            '"triangle"',
            "triangle",
        ),
        (
            f"A {size} shape has 4 equal sides and 4 square corners. What is it called?",
            '"square"',
            "square",
        ),
        (f"what shape is round with no corners even if its {size}", '"circle"', "circle"),
        (
            f"A {color} road sign has 6 sides and 6 corners. What shape is it?",
            '"hexagon"',
            "hexagon",
        ),
        (f"{name} turns a triangle so it is {size}. How many sides does it have now?", "3", 3),
        (
            f"A {size} {color} square is turned on its corner. How many corners does it have?",
            "4",
            4,
        ),
    ]
    return _choose(rng, options)


@_gen("K.G.A.3/flat-or-solid", "word")
def _k_flat_solid(rng: random.Random) -> Made:
    flat = ("circle", "square", "triangle", "rectangle", "hexagon")
    solid = ("cube", "sphere", "cone", "cylinder")
    n_flat = rng.randint(1, 4)
    n_solid = rng.randint(1, 4)
    shapes = rng.sample(flat, n_flat) + rng.sample(solid, n_solid)
    rng.shuffle(shapes)
    listing = ", ".join(shapes)
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (f"How many of these shapes are flat? {listing}", f"{n_flat}", n_flat),
            (f"How many of these shapes are solid? {listing}", f"{n_solid}", n_solid),
            (
                f"{name} sorts shapes into flat and solid: {listing}. How many go in the "
                "solid pile?",
                f"{n_solid}",
                n_solid,
            ),
            (f"which of these are 2D: {listing}. how many is that", f"{n_flat}", n_flat),
            (f"Count the 3D shapes: {listing}.", f"{n_solid}", n_solid),
            (
                f"{name} has these: {listing}. How many more flat shapes than solid "
                "shapes? (Write 0 if not more.)",
                f"max(0, {n_flat} - {n_solid})",
                max(0, n_flat - n_solid),
            ),
        ),
    )


@_gen("K.G.B.4/sides-and-corners", "bare")
def _k_sides_corners(rng: random.Random) -> Made:
    s1, n1 = pick(rng, _SHAPE_SIDES)
    s2, n2 = pick(rng, _SHAPE_SIDES)
    return _choose(
        rng,
        (
            (f"How many sides does a {s1} have?", f"{n1}", n1),
            (f"How many corners does a {s1} have?", f"{n1}", n1),
            (f"How many sides do a {s1} and a {s2} have together?", f"{n1} + {n2}", n1 + n2),
            (f"how many corners on a {s2}", f"{n2}", n2),
            (f"How many more corners does a hexagon have than a {s1}?", f"6 - {n1}", 6 - n1),
            ("A cube has flat faces. How many faces does a cube have?", "6", 6),
            (f"How many vertices does a {s2} have?", f"{n2}", n2),
        ),
    )


@_gen("K.G.B.4/compare-shapes-story", "word")
def _k_shapes_word(rng: random.Random) -> Made:
    s1, n1 = pick(rng, _SHAPE_SIDES)
    s2, n2 = pick(rng, [s for s in _SHAPE_SIDES if s[0] != s1])
    name = pick(rng, NAMES)
    k = rng.randint(2, 3)
    return _choose(
        rng,
        (
            (
                f"{name} draws a {s1} and a {s2}. How many corners do the two shapes have in all?",
                f"{n1} + {n2}",
                n1 + n2,
            ),
            (
                f"{name} compares a {s1} and a {s2}. How many more sides does the one "
                "with more sides have?",
                f"abs({n1} - {n2})",
                abs(n1 - n2),
            ),
            (
                f"{name} traces {k} {s1}s. how many sides did {name} trace",
                " + ".join([str(n1)] * k),
                n1 * k,
            ),
            (
                f"A big {s1} and a small {s1}: how many corners does the small one have?",
                f"{n1}",
                n1,
            ),
            (f"{name} puts a sticker on every corner of a {s2}. How many stickers?", f"{n2}", n2),
            (
                "A cube and a square: how many more flat faces does the cube have than "
                "the square's 1 face?",
                "6 - 1",
                5,
            ),
        ),
    )


@_gen("K.G.B.5/build-with-sticks", "word")
def _k_build_shapes(rng: random.Random) -> Made:
    s1, n1 = pick(rng, _SHAPE_SIDES[:3])
    s2, n2 = pick(rng, _SHAPE_SIDES[:3])
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"{name} builds a {s1} with sticks and clay balls. How many sticks does "
                f"{name} need?",
                f"{n1}",
                n1,
            ),
            (
                f"{name} builds a {s1} with sticks and clay balls at the corners. How "
                "many clay balls?",
                f"{n1}",
                n1,
            ),
            (
                f"{name} makes a {s1} and a {s2} out of straws. How many straws in all?",
                f"{n1} + {n2}",
                n1 + n2,
            ),
            (f"how many toothpicks do you need to make a {s2}", f"{n2}", n2),
            (
                f"{name} has 10 sticks and builds a {s1}. How many sticks are left?",
                f"10 - {n1}",
                10 - n1,
            ),
            (
                f"To build a {s2}, {name} uses one marshmallow at each corner. How many "
                "marshmallows?",
                f"{n2}",
                n2,
            ),
        ),
    )


@_gen("K.G.B.6/compose-shapes", "word")
def _k_compose(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    k = rng.randint(2, 4)
    return _choose(
        rng,
        (
            (
                f"{name} joins triangles with full sides touching to make a rectangle. "
                "How many triangles does it take?",
                "2",
                2,
            ),
            (
                f"How many small squares does {name} need to make a bigger square that is "
                "2 squares wide and 2 squares tall?",
                "2 + 2",
                4,
            ),
            (
                f"{name} puts {k} squares in a row. How many squares make the long rectangle?",
                f"{k}",
                k,
            ),
            ("How many pattern-block triangles make a hexagon?", "6", 6),
            ("how many trapezoids make a hexagon", "2", 2),
            (
                f"{name} makes {k} rectangles out of triangles, 2 triangles for each. How "
                f"many triangles does {name} use?",
                " + ".join(["2"] * k),
                2 * k,
            ),
        ),
    )


# --- Grade 1 --------------------------------------------------------------------------------


@_gen("1.OA.A.1/add-take-story", "word")
def _g1_add_take(rng: random.Random) -> Made:
    return _add_take_story(rng, 6, 20)


@_gen("1.OA.A.1/compare-story", "word")
def _g1_compare(rng: random.Random) -> Made:
    return _together_compare_story(rng, 6, 20)


@_gen("1.OA.A.1/equation-for-story", "word")
def _g1_equation(rng: random.Random) -> Made:
    total = rng.randint(8, 20)
    a = rng.randint(2, total - 2)
    b = total - a
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"Write an equation with a box for the unknown and solve: {name} has {a} "
                f"{things} and gets some more. Now {name} has {total}.",
                f"{total} - {a}",
                b,
            ),
            (
                f"{name} had a box of {things}. After giving {b} away, {a} were left. Use "
                "? for the unknown and solve.",
                f"{a} + {b}",
                total,
            ),
            (
                f"Draw a picture and solve: {a} {things} and {b} {things}. How many in all?",
                f"{a} + {b}",
                total,
            ),
            (
                f"{total} {things} are on the shelf. Some fall off. {a} are still on the "
                "shelf. How many fell off?",
                f"{total} - {a}",
                b,
            ),
            (
                f"i need an equation for this: {name} read {a} pages and then some more. "
                f"{name} read {total} pages in all. how many more pages",
                f"{total} - {a}",
                b,
            ),
            (
                f"{name} scored {a} points. {name}'s friend scored {b} more than {name}. "
                "How many points did the friend score?",
                f"{a} + {b}",
                total,
            ),
        ),
    )


@_gen("1.OA.A.2/three-addends-story", "word")
def _g1_three(rng: random.Random) -> Made:
    a, b = rng.randint(2, 8), rng.randint(2, 8)
    c = rng.randint(2, 20 - a - b)
    total = a + b + c
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} has {a} red {things}, {b} blue {things} and {c} green {things}. "
                f"How many {things} in all?",
                f"{a} + {b} + {c}",
                total,
            ),
            (
                f"{name} picked {a} apples on Monday, {b} on Tuesday and {c} on "
                f"Wednesday. How many apples did {name} pick?",
                f"{a} + {b} + {c}",
                total,
            ),
            (
                f"There are {a} cats, {b} dogs and {c} rabbits at the pet shop. How many "
                "animals are there?",
                f"{a} + {b} + {c}",
                total,
            ),
            (
                f"{name} read {a} books, then {b} books, then {c} more books. how many "
                "books altogether",
                f"{a} + {b} + {c}",
                total,
            ),
            (
                f"Three friends have {things}: {a}, {b} and {c}. Write an equation and "
                "find how many they have together.",
                f"{a} + {b} + {c}",
                total,
            ),
            (
                f"A vase has {a} roses, {b} daisies and {c} tulips. How many flowers are "
                "in the vase?",
                f"{a} + {b} + {c}",
                total,
            ),
        ),
    )


@_gen("1.OA.A.2/unknown-third-addend", "word")
def _g1_three_unknown(rng: random.Random) -> Made:
    a, b = rng.randint(2, 7), rng.randint(2, 7)
    c = rng.randint(2, 20 - a - b)
    total = a + b + c
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} has {total} {things} in three bags. One bag has {a} and another "
                f"has {b}. How many are in the third bag?",
                f"{total} - {a} - {b}",
                c,
            ),
            (
                f"{a} + {b} + ? = {total}. {name} picked {things} on three days; how many "
                "on the third day?",
                f"{total} - {a} - {b}",
                c,
            ),
            (
                f"Three friends have {total} {things} together. Two of them have {a} and "
                f"{b}. how many does the third friend have",
                f"{total} - {a} - {b}",
                c,
            ),
            (
                f"{name} scored {a}, {b} and {c} points in three games. What is the "
                "total? Write an equation with a symbol for the unknown.",
                f"{a} + {b} + {c}",
                total,
            ),
            (
                f"A bus has {a} kids in front, {b} in the middle and {c} in the back. How "
                "many kids are on the bus?",
                f"{a} + {b} + {c}",
                total,
            ),
            (
                f"{name} needs {total} {things}. {name} has {a} and gets {b} from a "
                f"friend. How many more does {name} need?",
                f"{total} - {a} - {b}",
                c,
            ),
        ),
    )


@_gen("1.OA.B.3/properties", "bare")
def _g1_properties(rng: random.Random) -> Made:
    a, b = rng.randint(2, 9), rng.randint(2, 9)
    c = 10 - b
    return _choose(
        rng,
        (
            (f"If {a} + {b} = {a + b}, what is {b} + {a}?", f"{b} + {a}", a + b),
            (f"Fill in: {a} + {b} = {b} + ?", f"{a}", a),
            (f"Make a ten to add: {b} + {a} + {c} = ?", f"{b} + {a} + {c}", a + 10),
            (f"Add {a} + {b} + {c}. Hint: add {b} + {c} first.", f"{a} + {b} + {c}", a + 10),
            (f"if i know {a} + {b} = {a + b} what is {b} + {a}", f"{b} + {a}", a + b),
            (f"Find the missing number: ? + {a} = {a} + {b}", f"{b}", b),
        ),
    )


@_gen("1.OA.B.3/turnaround-story", "word")
def _g1_properties_word(rng: random.Random) -> Made:
    a, b = rng.randint(2, 8), rng.randint(2, 9)
    c = 10 - a
    a_name, b_name = _two_names(rng)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{a_name} has {a} red and {b} blue {things}. {b_name} has {b} red and "
                f"{a} blue. {a_name} has {a + b}. How many does {b_name} have?",
                f"{b} + {a}",
                a + b,
            ),
            (
                f"{a_name} adds {a} + {b} + {c} by adding {a} + {c} first. What total "
                f"does {a_name} get?",
                f"{a} + {c} + {b}",
                10 + b,
            ),
            (
                f"{a_name} knows {a} + {b} = {a + b}. {b_name} is asked {b} + {a}. what "
                f"should {b_name} say",
                f"{b} + {a}",
                a + b,
            ),
            (
                f"{a_name} buys {a} apples, {b} pears and {c} plums. Add the two that "
                "make 10 first. How many fruits?",
                f"{a} + {c} + {b}",
                10 + b,
            ),
            (
                f"{a_name} puts {b} {things} in a cup and then {a} more. {b_name} puts "
                f"{a} in first and then {b}. How many does {b_name} have?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"A train has {a} red cars, {b} blue cars and {c} green cars. How many "
                f"cars? (Hint: {a} + {c} = 10.)",
                f"{a} + {b} + {c}",
                10 + b,
            ),
        ),
    )


@_gen("1.OA.B.4/think-addition", "bare")
def _g1_unknown_addend(rng: random.Random) -> Made:
    total = rng.randint(8, 18)
    a = rng.randint(2, total - 2)
    return _choose(
        rng,
        (
            (
                f"To find {total} - {a}, think: {a} + ? = {total}. What is the answer?",
                f"{total} - {a}",
                total - a,
            ),
            (f"Solve {total} - {a} by adding up from {a}.", f"{total} - {a}", total - a),
            (
                f"What number added to {a} makes {total}? Use it to find {total} - {a}.",
                f"{total} - {a}",
                total - a,
            ),
            (f"how does {a} + ? = {total} help with {total} - {a}", f"{total} - {a}", total - a),
            (f"{a} + ___ = {total}, so {total} - {a} = ___", f"{total} - {a}", total - a),
            (f"Count up from {a} to {total}. How many did you count?", f"{total} - {a}", total - a),
        ),
    )


@_gen("1.OA.C.5/count-on-back", "bare")
def _g1_count_on(rng: random.Random) -> Made:
    a = rng.randint(4, 17)
    k = rng.randint(1, 3)
    return _choose(
        rng,
        (
            (f"Start at {a} and count on {k}. What number do you land on?", f"{a} + {k}", a + k),
            (f"Count back {k} from {a}. What number do you get?", f"{a} - {k}", a - k),
            (f"Add {a} + {k} by counting on.", f"{a} + {k}", a + k),
            (f"Subtract {a} - {k} by counting back.", f"{a} - {k}", a - k),
            (f"how do you count on to do {a} plus {k}", f"{a} + {k}", a + k),
            (
                f"Put {a} in your head and count on {k}: {a}, ... What is the last number?",
                f"{a} + {k}",
                a + k,
            ),
        ),
    )


@_gen("1.OA.C.5/number-path-story", "word")
def _g1_count_on_word(rng: random.Random) -> Made:
    a = rng.randint(4, 16)
    k = rng.randint(2, 3)
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"{name}'s game piece is on {a}. {name} rolls a {k} and counts on. What "
                "space does it land on?",
                f"{a} + {k}",
                a + k,
            ),
            (
                f"{name} is on step {a} and goes down {k} steps, counting back. What step "
                f"is {name} on?",
                f"{a} - {k}",
                a - k,
            ),
            (
                f"{name} has {a} crackers and counts on as {k} more are added. How many crackers?",
                f"{a} + {k}",
                a + k,
            ),
            (
                f"on the number path i start at {a} and count back {k} where do i end",
                f"{a} - {k}",
                a - k,
            ),
            (
                f"A frog is on {a} and hops forward {k} spaces. Where is the frog?",
                f"{a} + {k}",
                a + k,
            ),
            (
                f"{name} counts on from {a} to {a + k}. How many did {name} count on?",
                f"{a + k} - {a}",
                k,
            ),
        ),
    )


@_gen("1.OA.C.6/facts-within-20", "bare")
def _g1_facts(rng: random.Random) -> Made:
    total = rng.randint(5, 20)
    a = rng.randint(max(0, total - 10), min(10, total))
    b = total - a
    return _choose(
        rng,
        (
            (f"{a} + {b} = ?", f"{a} + {b}", total),
            (f"{total} - {a} = ?", f"{total} - {a}", b),
            (f"What is {b} + {a}?", f"{b} + {a}", total),
            (f"Subtract: {total} - {b}", f"{total} - {b}", a),
            (f"whats {total} minus {a}", f"{total} - {a}", b),
            (f"Add: {a} + {b}", f"{a} + {b}", total),
        ),
    )


@_gen("1.OA.C.6/make-ten-strategy", "bare")
def _g1_make_ten(rng: random.Random) -> Made:
    a = rng.randint(6, 9)
    b = rng.randint(11 - a, 9)
    total = a + b
    need = 10 - a
    teen = rng.randint(11, 18)
    k = rng.randint(teen - 9, 9)
    return _choose(
        rng,
        (
            (f"Make a ten: {a} + {b} = 10 + ?", f"{a} + {b} - 10", total - 10),
            (f"{a} + {b} = {a} + {need} + {b - need} = ?", f"{a} + {need} + {b - need}", total),
            (f"Use make-a-ten to add {a} + {b}.", f"{a} + {b}", total),
            (f"Subtract {teen} - {k} by going back to 10 first.", f"{teen} - {k}", teen - k),
            (
                f"{teen} - {k} = {teen} - {teen - 10} - {k - (teen - 10)} = ?",
                f"{teen} - {k}",
                teen - k,
            ),
            (f"how do you use doubles for {a} + {a + 1}", f"{a} + {a} + 1", 2 * a + 1),
        ),
    )


@_gen("1.OA.D.7/true-equations", "bare")
def _g1_true_false(rng: random.Random) -> Made:
    equations: list[tuple[str, str, str]] = []
    for _ in range(rng.randint(3, 4)):
        a, b = rng.randint(1, 9), rng.randint(1, 9)
        kind = rng.randrange(4)
        shift = rng.choice((0, 0, 1, -1))
        if kind == 0:
            equations.append((f"{a} + {b} = {b} + {a + shift}", f"{a} + {b}", f"{b} + {a + shift}"))
        elif kind == 1:
            equations.append((f"{a + b + shift} = {a} + {b}", f"{a + b + shift}", f"{a} + {b}"))
        elif kind == 2:
            equations.append((f"{a} = {a + b} - {b + shift}", f"{a}", f"{a + b} - {b + shift}"))
        else:
            equations.append((f"{a} + {b} = {a + b + shift}", f"{a} + {b}", f"{a + b + shift}"))
    listing = "; ".join(e[0] for e in equations)
    # An equation counts 1 when its sides are equal: 1 - min(1, |left - right|) for whole numbers.
    expression = " + ".join(f"(1 - min(1, abs(({lhs}) - ({rhs}))))" for _, lhs, rhs in equations)
    count = sum(
        1
        for _, lhs, rhs in equations
        if sum(int(t) for t in lhs.replace("- ", "+ -").split("+"))
        == sum(int(t) for t in rhs.replace("- ", "+ -").split("+"))
    )
    return _choose(
        rng,
        (
            (f"How many of these equations are true? {listing}", expression, count),
            (f"True or false? Count the true ones: {listing}", expression, count),
            (f"which of these are true {listing} how many", expression, count),
            (
                f"Look at each equation and decide if it is true. How many are true? {listing}",
                expression,
                count,
            ),
            (
                "The equal sign means both sides are the same. How many of these are "
                f"true? {listing}",
                expression,
                count,
            ),
        ),
    )


@_gen("1.OA.D.8/missing-number", "bare")
def _g1_missing(rng: random.Random) -> Made:
    total = rng.randint(5, 20)
    a = rng.randint(1, total - 1)
    b = total - a
    return _choose(
        rng,
        (
            (f"{a} + ? = {total}", f"{total} - {a}", b),
            (f"{b} = ? - {a}", f"{b} + {a}", total),
            (f"{a} + {b} = ?", f"{a} + {b}", total),
            (f"? - {a} = {b}", f"{b} + {a}", total),
            (f"{total} - ? = {b}", f"{total} - {b}", a),
            (f"what number goes in the box {a} + [] = {total}", f"{total} - {a}", b),
            (f"Find the unknown number: {total} = ? + {b}", f"{total} - {b}", a),
        ),
    )


@_gen("1.OA.D.8/number-puzzle", "word")
def _g1_missing_word(rng: random.Random) -> Made:
    total = rng.randint(6, 20)
    a = rng.randint(2, total - 2)
    b = total - a
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"{name} thinks of a number and adds {a}. The answer is {total}. What is "
                "the number?",
                f"{total} - {a}",
                b,
            ),
            (
                f"{name} thinks of a number and takes away {a}. The answer is {b}. What "
                f"number did {name} start with?",
                f"{b} + {a}",
                total,
            ),
            (f"{name} writes {a} + [] = {total}. What goes in the box?", f"{total} - {a}", b),
            (f"what number makes this true {b} = [] - {a}", f"{b} + {a}", total),
            (f"{name} says {total} - ? = {a}. What is the missing number?", f"{total} - {a}", b),
            (
                f"A card covers a number: {total} = {a} + ?. What number is under the card?",
                f"{total} - {a}",
                b,
            ),
        ),
    )


@_gen("1.NBT.A.1/count-to-120", "bare")
def _g1_count_120(rng: random.Random) -> Made:
    n = rng.randint(60, 118)
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (f"What number comes after {n}?", f"{n} + 1", n + 1),
            (f"Count on: {n - 2}, {n - 1}, {n}, ___", f"{n} + 1", n + 1),
            (f"What number comes just before {n + 1}?", f"{n + 1} - 1", n),
            (
                f"{name} counts from {n - 3} to 120. What is the fourth number {name} says?",
                f"{n - 3} + 3",
                n,
            ),
            (
                f"write the number that comes after {_name_of(n) if n < 100 else n}",
                f"{n} + 1",
                n + 1,
            ),
            (f"Fill in the missing number: {n - 1}, ___, {n + 1}", f"{n - 1} + 1", n),
        ),
    )


@_gen("1.NBT.A.1/count-objects", "word")
def _g1_count_objects(rng: random.Random) -> Made:
    groups = rng.randint(4, 11)
    extra = rng.randint(0, 9)
    n = groups * 10 + extra
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} has {groups} bags of 10 {things} and {extra} more. Write the "
                f"number of {things}.",
                f"{groups} * 10 + {extra}",
                n,
            ),
            (
                f"{name} counted {n - 5} {things}, then counted 5 more. What number did "
                f"{name} end on?",
                f"{n - 5} + 5",
                n,
            ),
            (
                f"A jar has {n} beads. {name} adds 1 more. How many beads are in the jar?",
                f"{n} + 1",
                n + 1,
            ),
            (
                f"{name} counts {things} by ones up to {n}. What is the next number "
                f"{name} would say?",
                f"{n} + 1",
                n + 1,
            ),
            (
                f"there are {groups} cups with 10 {things} each and {extra} extra. how "
                f"many {things}",
                f"{groups} * 10 + {extra}",
                n,
            ),
            (
                f"{name} has {n} {things} and finds 2 more. How many does {name} have now?",
                f"{n} + 2",
                n + 2,
            ),
        ),
    )


@_gen("1.NBT.B.2/tens-and-ones", "bare")
def _g1_tens_ones(rng: random.Random) -> Made:
    tens, ones = rng.randint(2, 9), rng.randint(0, 9)
    n = 10 * tens + ones
    return _choose(
        rng,
        (
            (f"How many tens are in {n}?", f"{n} // 10", tens),
            (f"How many ones are in {n} (the ones digit)?", f"{n} % 10", ones),
            (f"{tens} tens and {ones} ones is what number?", f"{tens} * 10 + {ones}", n),
            (f"what number has {tens} tens and {ones} ones", f"{tens} * 10 + {ones}", n),
            (f"{n} = ___ tens and {ones} ones", f"{n} // 10", tens),
            (f"Write the number: {ones} ones and {tens} tens.", f"{tens} * 10 + {ones}", n),
        ),
    )


@_gen("1.NBT.B.2/tens-ones-story", "word")
def _g1_tens_ones_word(rng: random.Random) -> Made:
    tens, ones = rng.randint(2, 9), rng.randint(1, 9)
    n = 10 * tens + ones
    name = pick(rng, NAMES)
    things = pick(rng, ("pencils", "crayons", "straws", "cubes", "markers"))
    return _choose(
        rng,
        (
            (
                f"{name} has {tens} boxes of 10 {things} and {ones} loose {things}. How "
                f"many {things}?",
                f"{tens} * 10 + {ones}",
                n,
            ),
            (
                f"{name} has {n} {things} and packs them in tens. How many full packs of ten?",
                f"{n} // 10",
                tens,
            ),
            (
                f"{name} has {n} {things} and packs them in tens. How many are left over?",
                f"{n} % 10",
                ones,
            ),
            (
                f"i have {tens} ten sticks and {ones} cubes how many cubes is that",
                f"{tens} * 10 + {ones}",
                n,
            ),
            (
                f"A store has {n} eggs in cartons of ten. How many cartons are full?",
                f"{n} // 10",
                tens,
            ),
            (
                f"{name} shows {n} with base-ten blocks. How many rods (tens) does {name} use?",
                f"{n} // 10",
                tens,
            ),
        ),
    )


@_gen("1.NBT.B.2.a/bundle-of-ten", "word")
def _g1_bundle(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    things = pick(rng, ("straws", "sticks", "cubes", "pencils", "crayons"))
    extra = rng.randint(0, 3)
    return _choose(
        rng,
        (
            (f"{name} puts 10 {things} in a bundle. How many tens is that?", "10 // 10", 1),
            ("How many ones are in one ten?", "10", 10),
            (
                f"{name} has 10 loose {things} and {extra} more. {name} bundles a ten. "
                f"How many loose {things} are left?",
                f"10 + {extra} - 10",
                extra,
            ),
            (f"how many {things} make a ten", "10", 10),
            (f"{name} makes a ten from loose {things}. How many {things} are in it?", "10", 10),
            (
                f"{name} has 1 ten and {extra} ones. How many {things} in all?",
                f"10 + {extra}",
                10 + extra,
            ),
        ),
    )


@_gen("1.NBT.B.2.b/teen-numbers", "bare")
def _g1_teens(rng: random.Random) -> Made:
    ones = rng.randint(1, 9)
    n = 10 + ones
    return _choose(
        rng,
        (
            (f"{n} is 1 ten and how many ones?", f"{n} - 10", ones),
            (f"1 ten and {ones} ones make what number?", f"10 + {ones}", n),
            (f"How many ones are in {n} besides the ten?", f"{n} % 10", ones),
            (f"what number is a ten and {_ONES_WORDS[ones]} ones", f"10 + {ones}", n),
            (f"{_ONES_WORDS[n].capitalize()} = 1 ten and ___ ones", f"{n} - 10", ones),
            (f"Write the number for 1 ten {ones} ones.", f"10 + {ones}", n),
        ),
    )


@_gen("1.NBT.B.2.c/decade-tens", "bare")
def _g1_decades(rng: random.Random) -> Made:
    tens = rng.randint(1, 9)
    n = 10 * tens
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (f"How many tens are in {n}?", f"{n} // 10", tens),
            (f"{tens} tens = ?", f"{tens} * 10", n),
            (f"{n} = ___ tens and 0 ones", f"{n} // 10", tens),
            (f"{name} has {tens} bundles of ten sticks. How many sticks?", f"{tens} * 10", n),
            (f"how many tens make {n}", f"{n} // 10", tens),
            (f"What number is {_ONES_WORDS[tens]} tens?", f"{tens} * 10", n),
        ),
    )


@_gen("1.NBT.B.3/compare-two-digit", "bare")
def _g1_compare_numbers(rng: random.Random) -> Made:
    a = rng.randint(10, 99)
    b = rng.choice([a + 10, a - 10, a + 1, a - 1, rng.randint(10, 99)])
    b = min(99, max(10, b))
    return _choose(rng, _comparison(a, b, "number"))


@_gen("1.NBT.B.3/compare-story", "word")
def _g1_compare_word(rng: random.Random) -> Made:
    a, b = rng.sample(range(10, 100), 2)
    a_name, b_name = _two_names(rng)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{a_name} has {a} {things} and {b_name} has {b}. How many {things} does "
                "the one with more have?",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"Class A read {a} books and class B read {b}. What is the smaller number "
                "of books?",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"{a_name} scored {a} and {b_name} scored {b}. who won and what was the "
                "winning score",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"{a_name} has {a} {things}. {b_name} has {b}. Compare with >, < or =: {a} __ {b}",
                f"cmp({a}, {b})",
                _cmp(a, b),
            ),
            (
                f"A red jar has {a} beads and a blue jar has {b}. How many beads are in "
                "the jar with fewer?",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"Two teams collected {a} and {b} cans. How many cans did the winning "
                "team collect?",
                f"max({a}, {b})",
                max(a, b),
            ),
        ),
    )


@_gen("1.NBT.C.4/add-within-100", "bare")
def _g1_add_100(rng: random.Random) -> Made:
    a = rng.randint(11, 89)
    one = rng.randint(1, 9)
    tens = rng.randint(1, (99 - a) // 10 or 1) * 10
    b = rng.randint(10, 99 - a) if a < 89 else 10
    return _choose(
        rng,
        (
            (f"{a} + {one} = ?", f"{a} + {one}", a + one),
            (f"{a} + {tens} = ?", f"{a} + {tens}", a + tens),
            (f"Add: {a} + {b}", f"{a} + {b}", a + b),
            (f"Add the tens and the ones: {a} + {b}", f"{a} + {b}", a + b),
            (f"what is {a} plus {one}", f"{a} + {one}", a + one),
            (f"Find the sum of {tens} and {a}.", f"{tens} + {a}", a + tens),
        ),
    )


@_gen("1.NBT.C.4/add-story", "word")
def _g1_add_story(rng: random.Random) -> Made:
    a = rng.randint(21, 79)
    one = rng.randint(2, 9)
    tens = rng.randint(1, (99 - a) // 10) * 10
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} has {a} {things} and gets {one} more. How many {things} does {name} have?",
                f"{a} + {one}",
                a + one,
            ),
            (
                f"A class has {a} {things}. Another class brings {tens}. How many "
                f"{things} are there in all?",
                f"{a} + {tens}",
                a + tens,
            ),
            (
                f"{name} scored {a} points and then {tens} more points. What is {name}'s score?",
                f"{a} + {tens}",
                a + tens,
            ),
            (
                f"there are {a} kids on the bus and {one} more get on how many kids",
                f"{a} + {one}",
                a + one,
            ),
            (
                f"{name} read {a} pages yesterday and {tens} pages today. How many pages in all?",
                f"{a} + {tens}",
                a + tens,
            ),
            (
                f"A farm has {a} hens and {one} ducks. How many birds are on the farm?",
                f"{a} + {one}",
                a + one,
            ),
        ),
    )


@_gen("1.NBT.C.5/ten-more-ten-less", "bare")
def _g1_ten_more(rng: random.Random) -> Made:
    n = rng.randint(11, 89)
    return _choose(
        rng,
        (
            (f"What is 10 more than {n}?", f"{n} + 10", n + 10),
            (f"What is 10 less than {n}?", f"{n} - 10", n - 10),
            (f"10 more than {n} is ___", f"{n} + 10", n + 10),
            (f"find 10 less than {n} without counting", f"{n} - 10", n - 10),
            (f"{n} + 10 = ?", f"{n} + 10", n + 10),
            (f"{n} - 10 = ?", f"{n} - 10", n - 10),
        ),
    )


@_gen("1.NBT.C.5/ten-more-story", "word")
def _g1_ten_more_word(rng: random.Random) -> Made:
    n = rng.randint(11, 89)
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} has {n} {things} and buys a pack of 10. How many {things} now?",
                f"{n} + 10",
                n + 10,
            ),
            (
                f"{name} had {n} {things} and gave away a bag of 10. How many are left?",
                f"{n} - 10",
                n - 10,
            ),
            (
                f"On the hundred chart {name} is on {n} and moves down one row. What "
                "number is that?",
                f"{n} + 10",
                n + 10,
            ),
            (
                f"On the hundred chart {name} is on {n} and moves up one row. What number is that?",
                f"{n} - 10",
                n - 10,
            ),
            (f"{name} has {n} cents and finds a dime. how many cents now", f"{n} + 10", n + 10),
            (
                f"A shelf had {n} {things}. 10 were sold. How many are on the shelf?",
                f"{n} - 10",
                n - 10,
            ),
        ),
    )


@_gen("1.NBT.C.6/subtract-tens", "bare")
def _g1_sub_tens(rng: random.Random) -> Made:
    a = rng.randint(2, 9)
    b = rng.randint(1, a)
    return _choose(
        rng,
        (
            (f"{a * 10} - {b * 10} = ?", f"{a * 10} - {b * 10}", (a - b) * 10),
            (f"Subtract: {a * 10} - {b * 10}", f"{a * 10} - {b * 10}", (a - b) * 10),
            (f"{a} tens - {b} tens = ___ (write the number)", f"{a * 10} - {b * 10}", (a - b) * 10),
            (f"whats {a * 10} take away {b * 10}", f"{a * 10} - {b * 10}", (a - b) * 10),
            (f"{b * 10} + ? = {a * 10}", f"{a * 10} - {b * 10}", (a - b) * 10),
            (
                f"Find the difference between {a * 10} and {b * 10}.",
                f"{a * 10} - {b * 10}",
                (a - b) * 10,
            ),
        ),
    )


@_gen("1.NBT.C.6/subtract-tens-story", "word")
def _g1_sub_tens_word(rng: random.Random) -> Made:
    a = rng.randint(3, 9)
    b = rng.randint(1, a - 1)
    name = pick(rng, NAMES)
    things = _thing(rng)
    big, small = a * 10, b * 10
    return _choose(
        rng,
        (
            (
                f"{name} has {big} {things} in packs of ten and gives away {small}. How "
                "many are left?",
                f"{big} - {small}",
                big - small,
            ),
            (
                f"A store had {big} {things} and sold {small}. How many {things} are left?",
                f"{big} - {small}",
                big - small,
            ),
            (
                f"{name} has {big} cents. A toy costs {small} cents. How much money is "
                "left after buying it?",
                f"{big} - {small}",
                big - small,
            ),
            (
                f"{name} needs {big} points and has {small}. how many more points",
                f"{big} - {small}",
                big - small,
            ),
            (
                f"There are {big} seats and {small} are taken. How many seats are empty?",
                f"{big} - {small}",
                big - small,
            ),
            (
                f"{name} had {big} stamps. After giving some away, {name} has {small}. "
                "How many stamps were given away?",
                f"{big} - {small}",
                big - small,
            ),
        ),
    )


@_gen("1.MD.A.1/order-by-length", "word")
def _g1_order(rng: random.Random) -> Made:
    a, b, c = rng.sample(range(3, 16), 3)
    items = rng.sample(("pencil", "crayon", "ribbon", "rope", "stick", "straw", "snake"), 3)
    x, y, z = items
    return _choose(
        rng,
        (
            (
                f"A {x} is {a} cubes long, a {y} is {b} cubes and a {z} is {c} cubes. How "
                "long is the longest one?",
                f"max({a}, {b}, {c})",
                max(a, b, c),
            ),
            (
                f"A {x} is {a} cubes long, a {y} is {b} cubes and a {z} is {c} cubes. How "
                "long is the shortest one?",
                f"min({a}, {b}, {c})",
                min(a, b, c),
            ),
            (
                f"Order by length: {x} {a} clips, {y} {b} clips, {z} {c} clips. How long "
                "is the one in the middle?",
                f"median({a}, {b}, {c})",
                sorted((a, b, c))[1],
            ),
            (
                f"The {x} is as long as a string. The string is {a} cubes long. How long "
                f"is the {x}?",
                f"{a}",
                a,
            ),
            (
                f"which is longest {x} {a} or {y} {b} or {z} {c} how long is it",
                f"max({a}, {b}, {c})",
                max(a, b, c),
            ),
            (
                f"Put in order from shortest to longest: {x} ({a}), {y} ({b}), {z} ({c}). "
                "What is the length of the first one?",
                f"min({a}, {b}, {c})",
                min(a, b, c),
            ),
        ),
    )


@_gen("1.MD.A.2/units-end-to-end", "word")
def _g1_units(rng: random.Random) -> Made:
    a, b = rng.randint(2, 9), rng.randint(2, 9)
    unit = pick(rng, ("paper clips", "cubes", "tiles", "erasers"))
    obj = pick(rng, ("book", "desk", "shoe", "notebook", "tray", "rug"))
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"{name} lays {a} red {unit} and {b} blue {unit} end to end along a "
                f"{obj}. How many {unit} long is the {obj}?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"A {obj} is {a} {unit} long. How many {unit} long are two {obj}s end to end?",
                f"{a} + {a}",
                2 * a,
            ),
            (
                f"{name} measures a {obj} with {unit} with no gaps. It takes {a + b}. How "
                f"long is the {obj}?",
                f"{a + b}",
                a + b,
            ),
            (
                f"The {obj} is {a + b} {unit} long. {name} has laid down {a}. How many "
                f"more {unit} are needed?",
                f"{a + b} - {a}",
                b,
            ),
            (
                f"my {obj} is {a} {unit} and my friends is {b} {unit} how much longer is "
                "the longer one",
                f"abs({a} - {b})",
                abs(a - b),
            ),
            (
                f"How long is a line of {a + b} {unit} placed end to end, in {unit}?",
                f"{a + b}",
                a + b,
            ),
        ),
    )


_TOPICS = (
    ("fruit", ("apples", "bananas", "grapes", "pears", "oranges")),
    ("pet", ("cats", "dogs", "fish", "birds", "rabbits")),
    ("lunch", ("pizza", "tacos", "soup", "pasta", "sandwiches")),
    ("color", ("red", "blue", "green", "yellow", "purple")),
    ("sport", ("soccer", "basketball", "tennis", "swimming", "baseball")),
    ("season", ("spring", "summer", "fall", "winter")),
)


@_gen("1.MD.B.3/hours-half-hours", "bare")
def _g1_time(rng: random.Random) -> Made:
    h = rng.randint(1, 12)
    nxt = h % 12 + 1
    half = pick(rng, ("half past", "thirty minutes after"))
    return _choose(
        rng,
        (
            (
                f"The short hand is on the {h} and the long hand is on the 12. What hour is it?",
                f"{h}",
                h,
            ),
            ("The long hand points to the 6. How many minutes past the hour is it?", "6 * 5", 30),
            (f"It is {h}:00. What hour will it be in one hour?", f"{h} % 12 + 1", nxt),
            (f"What time is {half} {h}? How many minutes after {h}:00 is it?", "30", 30),
            (f"the digital clock says {h}:30 what hour is the short hand near", f"{h}", h),
            (f"It is {h}:30. How many minutes until {nxt}:00?", "60 - 30", 30),
        ),
    )


@_gen("1.MD.B.3/clock-story", "word")
def _g1_time_word(rng: random.Random) -> Made:
    h = rng.randint(1, 10)
    d = rng.randint(1, 2)
    name = pick(rng, NAMES)
    event = pick(rng, ("soccer practice", "the party", "swimming", "the show", "story time"))
    return _choose(
        rng,
        (
            (
                f"{event.capitalize()} starts at {h}:00 and lasts {d} hours. At what hour "
                "does it end?",
                f"{h} + {d}",
                h + d,
            ),
            (
                f"{name} eats lunch at half past {h}. How many minutes after {h}:00 is that?",
                "30",
                30,
            ),
            (
                f"{name} goes to bed at {h}:00 and the clock's short hand points at the "
                f"{h}. where does the long hand point",
                "12",
                12,
            ),
            (
                f"{event.capitalize()} starts at {h}:30 and ends at {h + d}:30. How many "
                "hours long is it?",
                f"{h + d} - {h}",
                d,
            ),
            (
                f"{name}'s clock shows {h}:30. Half an hour later, what hour is it?",
                f"{h} + 1",
                h + 1,
            ),
            (
                f"{name} started reading at {h}:00 and stopped at {h}:30. How many "
                f"minutes did {name} read?",
                "30 - 0",
                30,
            ),
        ),
    )


@_gen("1.MD.C.4/three-category-data", "word")
def _g1_data(rng: random.Random) -> Made:
    a, b, c = rng.randint(2, 12), rng.randint(2, 12), rng.randint(2, 12)
    topic, choices = pick(rng, _TOPICS)
    x, y, z = rng.sample(choices, 3)
    intro = pick(
        rng,
        (
            f"A class voted for a favorite {topic}",
            f"The tally chart shows kids' favorite {topic}",
            f"Our chart shows each child's favorite {topic}",
        ),
    )
    data = f"{intro}: {x} {a}, {y} {b}, {z} {c}."
    return _choose(
        rng,
        (
            (f"{data} How many kids voted in all?", f"{a} + {b} + {c}", a + b + c),
            (
                f"{data} How many more chose {x if a >= b else y} than {y if a >= b else x}?",
                f"abs({a} - {b})",
                abs(a - b),
            ),
            (f"{data} How many chose {x} or {z}?", f"{a} + {c}", a + c),
            (
                f"{data} how many fewer picked {z if c <= b else y} than {y if c <= b else z}",
                f"abs({b} - {c})",
                abs(b - c),
            ),
            (f"{data} How many votes did the winner get?", f"max({a}, {b}, {c})", max(a, b, c)),
            (f"{data} How many did not choose {y}?", f"{a} + {c}", a + c),
        ),
    )


@_gen("1.MD.C.4/tally-chart", "word")
def _g1_tally(rng: random.Random) -> Made:
    topic, choices = pick(rng, _TOPICS)
    x, y, z = rng.sample(choices, 3)
    a, b, c = rng.randint(1, 12), rng.randint(1, 12), rng.randint(1, 12)

    def tally(n: int) -> str:
        return " ".join(["||||/"] * (n // 5) + (["|" * (n % 5)] if n % 5 else []))

    chart = f"{x}: {tally(a)}; {y}: {tally(b)}; {z}: {tally(c)}"
    return _choose(
        rng,
        (
            (f"Tally chart of favorite {topic} ({chart}). How many tallies for {x}?", f"{a}", a),
            (
                f"Tally chart ({chart}). How many kids answered in all?",
                f"{a} + {b} + {c}",
                a + b + c,
            ),
            (
                f"Tally chart of favorite {topic} ({chart}). How many more for "
                f"{y if b >= c else z} than {z if b >= c else y}?",
                f"abs({b} - {c})",
                abs(b - c),
            ),
            (
                f"the tally chart shows {chart} how many for {x} and {z} together",
                f"{a} + {c}",
                a + c,
            ),
            (f"Count the tallies ({chart}). How many picked {y}?", f"{b}", b),
            (
                f"Tally chart ({chart}). How many fewer chose {x if a <= c else z} than "
                f"{z if a <= c else x}?",
                f"abs({a} - {c})",
                abs(a - c),
            ),
        ),
    )


@_gen("1.G.A.1/defining-attributes", "bare")
def _g1_attributes(rng: random.Random) -> Made:
    size = pick(rng, ("big", "tiny", "blue", "striped", "upside-down", "skinny"))
    s1, n1 = pick(rng, _SHAPE_SIDES)
    s2, n2 = pick(rng, _SHAPE_SIDES)
    return _choose(
        rng,
        (
            (f"A {size} {s1}: how many sides does it have?", f"{n1}", n1),
            (
                f"Every {s1} has the same number of corners, no matter the color. How many?",
                f"{n1}",
                n1,
            ),
            (f"A {size} {s1} and a {s2}: how many sides in all?", f"{n1} + {n2}", n1 + n2),
            (
                f"if a {s2} is {size} does it still have {n2} sides? how many sides does it have",
                f"{n2}",
                n2,
            ),
            ("Draw a closed shape with 3 straight sides. How many corners does it have?", "3", 3),
            (f"How many more sides does a {s1} have than a triangle?", f"{n1} - 3", n1 - 3),
        ),
    )


@_gen("1.G.A.2/composite-shapes", "word")
def _g1_compose(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    k = rng.randint(2, 5)
    return _choose(
        rng,
        (
            (f"How many quarter-circles does {name} need to make a whole circle?", "4", 4),
            (
                f"{name} makes {k} squares, each from 2 triangles. How many triangles "
                f"does {name} use?",
                " + ".join(["2"] * k),
                2 * k,
            ),
            (
                f"{name} joins {k} half-circles in pairs to make circles. How many "
                f"circles can {name} make from {2 * k} half-circles?",
                f"{2 * k} // 2",
                k,
            ),
            (
                f"{name} stacks {k} cubes into a tower and puts a cone on top. How many "
                "solids are in the tower?",
                f"{k} + 1",
                k + 1,
            ),
            ("how many half circles make a circle", "2", 2),
            (
                f"{name} puts {k} rectangles side by side and adds {k} triangles on top. "
                "How many shapes are used?",
                f"{k} + {k}",
                2 * k,
            ),
        ),
    )


@_gen("1.G.A.3/halves-and-fourths", "word")
def _g1_shares(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    food = pick(rng, ("pizza", "pancake", "waffle", "cake", "pie", "tortilla"))
    eaten = rng.randint(1, 3)
    return _choose(
        rng,
        (
            (f"{name} cuts a {food} into fourths. How many equal shares are there?", "4", 4),
            (f"{name} cuts a {food} in half. How many halves make the whole {food}?", "2", 2),
            (
                f"A {food} is cut into 4 equal shares and {name} eats {eaten}. How many "
                "shares are left?",
                f"4 - {eaten}",
                4 - eaten,
            ),
            (f"how many quarters make a whole {food}", "4", 4),
            (f"{name} has 2 {food}s, each cut in half. How many halves are there?", "2 + 2", 4),
            (
                f"{name} cuts {eaten + 1} {food}s into fourths. How many fourths in all?",
                " + ".join(["4"] * (eaten + 1)),
                4 * (eaten + 1),
            ),
        ),
    )


# --- Grade 2 --------------------------------------------------------------------------------


@_gen("2.OA.A.1/one-step-story", "word")
def _g2_one_step(rng: random.Random) -> Made:
    return _add_take_story(rng, 25, 100)


@_gen("2.OA.A.1/compare-story", "word")
def _g2_compare(rng: random.Random) -> Made:
    return _together_compare_story(rng, 25, 100)


@_gen("2.OA.A.1/two-step-story", "word")
def _g2_two_step(rng: random.Random) -> Made:
    a = rng.randint(20, 60)
    b = rng.randint(5, 30)
    c = rng.randint(5, a + b - 5)
    d = rng.randint(5, 30)
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} had {a} {things}. {name} got {b} more and then gave away {c}. "
                f"How many {things} does {name} have now?",
                f"{a} + {b} - {c}",
                a + b - c,
            ),
            (
                f"A bus had {a} people. At the first stop {c if c < a else b} got off and "
                f"{d} got on. How many people are on the bus?",
                f"{a} - {c if c < a else b} + {d}",
                a - (c if c < a else b) + d,
            ),
            (
                f"{name} has {a} {things}. {name}'s friend has {b} more than {name}. How "
                f"many {things} do they have together?",
                f"{a} + {a} + {b}",
                2 * a + b,
            ),
            (
                f"There were {a} {things} in a box. {name} added {b} and then {d} more. "
                "how many are in the box now",
                f"{a} + {b} + {d}",
                a + b + d,
            ),
            (
                f"{name} had some {things}, got {b} more, then lost {d}. Now {name} has "
                f"{a}. How many did {name} start with?",
                f"{a} + {d} - {b}",
                a + d - b,
            ),
            (
                f"A shelf holds {a + b} {things}. {b} are sold in the morning and "
                f"{min(d, a)} in the afternoon. How many are left?",
                f"{a + b} - {b} - {min(d, a)}",
                a - min(d, a),
            ),
        ),
    )


@_gen("2.OA.B.2/mental-facts", "bare")
def _g2_facts(rng: random.Random) -> Made:
    a, b = rng.randint(2, 9), rng.randint(2, 9)
    total = a + b
    return _choose(
        rng,
        (
            (f"{a} + {b} = ?", f"{a} + {b}", total),
            (f"{total} - {a} = ?", f"{total} - {a}", b),
            (f"Quick! {b} + {a}", f"{b} + {a}", total),
            (f"Solve in your head: {total} - {b}", f"{total} - {b}", a),
            (f"whats {a} plus {b}", f"{a} + {b}", total),
            (f"Fill in: {a} + ___ = {total}", f"{total} - {a}", b),
        ),
    )


@_gen("2.OA.B.2/doubles-near-doubles", "bare")
def _g2_doubles(rng: random.Random) -> Made:
    a = rng.randint(2, 9)
    b = rng.randint(2, 9)
    return _choose(
        rng,
        (
            (f"Double {a}: {a} + {a} = ?", f"{a} + {a}", 2 * a),
            (f"Use a double to add {a} + {a + 1}.", f"{a} + {a} + 1", 2 * a + 1),
            (f"{2 * a} - {a} = ?", f"{2 * a} - {a}", a),
            (f"if {a} + {a} = {2 * a} then what is {a} + {a - 1}", f"{a} + {a} - 1", 2 * a - 1),
            (f"Solve mentally: {a + b} - {b}", f"{a + b} - {b}", a),
            (f"Near doubles: {b} + {b + 1} = ?", f"{b} + {b} + 1", 2 * b + 1),
        ),
    )


@_gen("2.OA.C.3/odd-even", "bare")
def _g2_odd_even(rng: random.Random) -> Made:
    half = rng.randint(2, 10)
    even = 2 * half
    n = rng.randint(5, 20)
    return _choose(
        rng,
        (
            (f"Write {even} as a sum of two equal addends: {even} = ? + ?", f"{even} / 2", half),
            (
                f"{even} is even. {even} = ___ + ___ with the same number twice. What number?",
                f"{even} / 2",
                half,
            ),
            (f"If you pair up {n} objects, how many are left over?", f"{n} % 2", n % 2),
            (f"Count by 2s to {even}. How many 2s did you count?", f"{even} / 2", half),
            (
                f"is {n} odd or even",
                f'"{"even" if n % 2 == 0 else "odd"}"',
                "even" if n % 2 == 0 else "odd",
            ),
            (f"What doubles fact makes {even}? ? + ? = {even}", f"{even} / 2", half),
        ),
    )


@_gen("2.OA.C.3/pairs-story", "word")
def _g2_pairs(rng: random.Random) -> Made:
    n = rng.randint(5, 20)
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (f"{n} kids line up in pairs. How many kids have no partner?", f"{n} % 2", n % 2),
            (
                f"{name} has {n} socks and matches them into pairs. How many pairs can "
                f"{name} make?",
                f"{n} // 2",
                n // 2,
            ),
            (
                f"{name} shares {2 * (n // 2)} {things} equally with a friend so both get "
                "the same. How many does each get?",
                f"{2 * (n // 2)} / 2",
                n // 2,
            ),
            (f"there are {n} shoes how many full pairs", f"{n} // 2", n // 2),
            (
                f"{name} puts {n} {things} in 2 equal rows with none left over if it can. "
                "How many are left over?",
                f"{n} % 2",
                n % 2,
            ),
            (
                f"{name} has {n} {things}. How many more does {name} need so the number "
                "is even? (0 if it is)",
                f"{n} % 2",
                n % 2,
            ),
        ),
    )


@_gen("2.OA.C.4/array-addition", "bare")
def _g2_array(rng: random.Random) -> Made:
    rows, cols = rng.randint(2, 5), rng.randint(2, 5)
    total = rows * cols
    sums = " + ".join([str(cols)] * rows)
    dots = " / ".join(" ".join("o" * cols) for _ in range(rows))
    return _choose(
        rng,
        (
            (
                f"An array has {rows} rows of {cols}. Write a repeated addition and find "
                "the total.",
                sums,
                total,
            ),
            (f"{sums} = ?", sums, total),
            (f"How many dots? {dots}", sums, total),
            (f"{rows} rows with {cols} in each row. How many in all?", sums, total),
            (f"what is the total for an array with {cols} columns and {rows} rows", sums, total),
            (
                f"An array has {total} dots in {rows} equal rows. How many dots are in each row?",
                f"{total} / {rows}",
                cols,
            ),
        ),
    )


@_gen("2.OA.C.4/array-story", "word")
def _g2_array_word(rng: random.Random) -> Made:
    rows, cols = rng.randint(2, 5), rng.randint(2, 5)
    total = rows * cols
    sums = " + ".join([str(cols)] * rows)
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} puts {things} in {rows} rows with {cols} in each row. How many "
                f"{things} in all?",
                sums,
                total,
            ),
            (
                f"A garden has {rows} rows of {cols} plants. How many plants are in the garden?",
                sums,
                total,
            ),
            (
                f"A muffin tray has {rows} rows and {cols} columns. How many muffins fit?",
                sums,
                total,
            ),
            (f"the desks are in {rows} rows of {cols} how many desks", sums, total),
            (
                f"{name} sets out {total} chairs in {rows} equal rows. How many chairs "
                "are in each row?",
                f"{total} / {rows}",
                cols,
            ),
            (
                f"Stickers come in a sheet of {rows} rows with {cols} stickers each. "
                "Write an equation with equal addends for the total.",
                sums,
                total,
            ),
        ),
    )


@_gen("2.NBT.A.1/hundreds-tens-ones", "bare")
def _g2_place(rng: random.Random) -> Made:
    h, t, o = rng.randint(1, 9), rng.randint(0, 9), rng.randint(0, 9)
    n = 100 * h + 10 * t + o
    return _choose(
        rng,
        (
            (f"What digit is in the tens place of {n}?", f"({n} // 10) % 10", t),
            (f"How many hundreds are in {n}?", f"{n} // 100", h),
            (
                f"{h} hundreds, {t} tens and {o} ones is what number?",
                f"{h} * 100 + {t} * 10 + {o}",
                n,
            ),
            (
                f"what number is {o} ones {t} tens and {h} hundreds",
                f"{h} * 100 + {t} * 10 + {o}",
                n,
            ),
            (f"{n} = {h} hundreds, ___ tens, {o} ones", f"({n} // 10) % 10", t),
            (f"What is the value of the digit {h} in {n}?", f"{h} * 100", 100 * h),
        ),
    )


@_gen("2.NBT.A.1/place-value-story", "word")
def _g2_place_word(rng: random.Random) -> Made:
    h, t, o = rng.randint(1, 9), rng.randint(0, 9), rng.randint(0, 9)
    n = 100 * h + 10 * t + o
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"{name} has {h} boxes of 100 stickers, {t} packs of 10 and {o} loose "
                "stickers. How many stickers?",
                f"{h} * 100 + {t} * 10 + {o}",
                n,
            ),
            (
                f"A store packs {n} pencils into boxes of 100, packs of 10 and singles. "
                "How many full boxes of 100?",
                f"{n} // 100",
                h,
            ),
            (
                f"{name} shows {n} with base-ten blocks using as few blocks as possible. "
                "How many rods (tens)?",
                f"({n} // 10) % 10",
                t,
            ),
            (
                f"i have {h} flats {t} rods and {o} cubes what number is that",
                f"{h} * 100 + {t} * 10 + {o}",
                n,
            ),
            (
                f"{name} has ${n} in $100 bills, $10 bills and $1 bills, as few bills as "
                "possible. How many $1 bills?",
                f"{n} % 10",
                o,
            ),
            (
                f"A school orders {h} crates of 100 apples and {o} single apples. How many apples?",
                f"{h} * 100 + {o}",
                100 * h + o,
            ),
        ),
    )


@_gen("2.NBT.A.1.a/hundred-is-ten-tens", "bare")
def _g2_ten_tens(rng: random.Random) -> Made:
    name = pick(rng, NAMES)
    k = rng.randint(2, 9)
    return _choose(
        rng,
        (
            ("How many tens make one hundred?", "100 // 10", 10),
            (f"{name} has 10 bundles of ten straws. How many straws is that?", "10 * 10", 100),
            (f"{name} has {10 * k} tens. How many hundreds can {name} make?", f"{10 * k} // 10", k),
            ("how many tens are in 100", "100 // 10", 10),
            (
                f"A flat is 100 cubes. {name} has 7 rods of ten. How many more rods make a flat?",
                "10 - 7",
                3,
            ),
            (
                f"{name} bundles {10 * k} ten-rods into hundreds. How many hundreds?",
                f"{10 * k} / 10",
                k,
            ),
        ),
    )


@_gen("2.NBT.A.1.b/hundreds", "bare")
def _g2_hundreds(rng: random.Random) -> Made:
    k = rng.randint(1, 9)
    n = 100 * k
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (f"How many hundreds are in {n}?", f"{n} // 100", k),
            (f"{k} hundreds = ?", f"{k} * 100", n),
            (f"{n} = ___ hundreds, 0 tens and 0 ones", f"{n} // 100", k),
            (f"{name} has {k} boxes of 100 cards. How many cards?", f"{k} * 100", n),
            (f"how many hundreds make {n}", f"{n} // 100", k),
            (f"What number is {_ONES_WORDS[k]} hundreds?", f"{k} * 100", n),
        ),
    )


@_gen("2.NBT.A.2/skip-count", "bare")
def _g2_skip(rng: random.Random) -> Made:
    step = pick(rng, (5, 10, 100))
    start = (
        rng.randint(1, 80) * 5 if step != 100 else rng.randint(1, 5) * 100 + rng.choice((0, 20, 50))
    )
    seq = ", ".join(str(start + step * i) for i in range(3))
    nxt = start + 3 * step
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (f"Skip count by {step}s: {seq}, ___", f"{start} + 3 * {step}", nxt),
            (f"What comes next? {seq}, ?", f"{start} + 3 * {step}", nxt),
            (
                f"{name} counts by {step}s starting at {start}. What is the fourth number "
                f"{name} says?",
                f"{start} + 3 * {step}",
                nxt,
            ),
            (f"count by {step}s {seq} whats next", f"{start} + 3 * {step}", nxt),
            (
                f"Fill in the missing number: {start}, ___, {start + 2 * step}",
                f"{start} + {step}",
                start + step,
            ),
            (
                f"Counting by {step}s, what number comes before {start + step}?",
                f"{start + step} - {step}",
                start,
            ),
        ),
    )


@_gen("2.NBT.A.2/skip-count-story", "word")
def _g2_skip_word(rng: random.Random) -> Made:
    k = rng.randint(3, 9)
    name = pick(rng, NAMES)
    start = rng.randint(1, 10 - k) * 100
    return _choose(
        rng,
        (
            (
                f"{name} has {k} nickels. Count by 5s. How many cents is that?",
                " + ".join(["5"] * k),
                5 * k,
            ),
            (
                f"{name} has {k} dimes. Skip count by 10s to find how many cents.",
                " + ".join(["10"] * k),
                10 * k,
            ),
            (
                f"Each bag has 100 beans. {name} counts {k} bags by 100s. How many beans?",
                " + ".join(["100"] * k),
                100 * k,
            ),
            (
                f"there are {k} hands and each has 5 fingers count by 5s how many fingers",
                " + ".join(["5"] * k),
                5 * k,
            ),
            (
                f"{name} starts at {start} and counts by 10s {k} times. What number does "
                f"{name} reach?",
                f"{start} + {k} * 10",
                start + 10 * k,
            ),
            (
                f"A ticket roll counts up by 100s from {start}. What is the number after "
                f"{k} jumps?",
                f"{start} + {k} * 100",
                start + 100 * k,
            ),
        ),
    )


@_gen("2.NBT.A.3/names-and-expanded", "bare")
def _g2_names(rng: random.Random) -> Made:
    n = rng.randint(101, 999)
    h, t, o = n // 100, n // 10 % 10, n % 10
    name = _name_of(n)
    parts = " + ".join(str(p) for p in (100 * h, 10 * t, o) if p)
    return _choose(
        rng,
        (
            (f"Write {name} as a number.", f"{h} * 100 + {t} * 10 + {o}", n),
            (f"Write the number: {parts}", parts, n),
            (f"{n} = {100 * h} + ___ + {o}", f"{t} * 10", 10 * t),
            (f"how do you write {name} in numbers", f"{h} * 100 + {t} * 10 + {o}", n),
            (f"Expanded form of {n} is {100 * h} + {10 * t} + ___", f"{o}", o),
            (f"What number is {parts}?", parts, n),
        ),
    )


@_gen("2.NBT.A.3/number-words-story", "word")
def _g2_names_word(rng: random.Random) -> Made:
    n = rng.randint(101, 999)
    h, t, o = n // 100, n // 10 % 10, n % 10
    words = _name_of(n)
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"{name}'s book has {words} pages. Write the number of pages with digits.",
                f"{h} * 100 + {t} * 10 + {o}",
                n,
            ),
            (
                f"A sign says the zoo is {words} steps away. What number is that?",
                f"{h} * 100 + {t} * 10 + {o}",
                n,
            ),
            (
                f"{name} wrote {n} as {100 * h} + {10 * t} + ?. What number is missing?",
                f"{n} - {100 * h} - {10 * t}",
                o,
            ),
            (f"my teacher said {words} what is that in numbers", f"{h} * 100 + {t} * 10 + {o}", n),
            (
                f"{name} has {100 * h} + {10 * t} + {o} points. What is the score as one number?",
                f"{100 * h} + {10 * t} + {o}",
                n,
            ),
            (
                f"A check is for {words} dollars. How many dollars, in digits?",
                f"{h} * 100 + {t} * 10 + {o}",
                n,
            ),
        ),
    )


@_gen("2.NBT.A.4/compare-three-digit", "bare")
def _g2_compare_numbers(rng: random.Random) -> Made:
    a = rng.randint(100, 999)
    b = rng.choice([a + 100, a - 100, a + 10, a - 10, a + 1, rng.randint(100, 999)])
    b = min(999, max(100, b))
    return _choose(rng, _comparison(a, b, "number"))


@_gen("2.NBT.A.4/compare-story", "word")
def _g2_compare_word(rng: random.Random) -> Made:
    a, b = rng.sample(range(100, 1000), 2)
    a_name, b_name = _two_names(rng)
    return _choose(
        rng,
        (
            (
                f"{a_name} has {a} points and {b_name} has {b} points. What is the higher score?",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"Book A has {a} pages and book B has {b} pages. How many pages does the "
                "shorter book have?",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"{a_name} counted {a} steps and {b_name} counted {b}. who counted fewer "
                "and how many",
                f"min({a}, {b})",
                min(a, b),
            ),
            (
                f"School A has {a} students and school B has {b}. Write >, < or = to "
                f"compare: {a} __ {b}",
                f"cmp({a}, {b})",
                _cmp(a, b),
            ),
            (
                f"Two towns are {a} and {b} miles away. How far is the farther town?",
                f"max({a}, {b})",
                max(a, b),
            ),
            (
                f"A jar has {a} beads and a box has {b} beads. How many beads are in the "
                "container with more?",
                f"max({a}, {b})",
                max(a, b),
            ),
        ),
    )


@_gen("2.NBT.B.5/add-subtract-within-100", "bare")
def _g2_within_100(rng: random.Random) -> Made:
    a = rng.randint(12, 88)
    b = rng.randint(5, 99 - a)
    total = a + b
    return _choose(
        rng,
        (
            (f"{a} + {b} = ?", f"{a} + {b}", total),
            (f"{total} - {b} = ?", f"{total} - {b}", a),
            (f"Add: {a} + {b}", f"{a} + {b}", total),
            (f"Subtract: {total} - {a}", f"{total} - {a}", b),
            (f"whats {total} minus {b}", f"{total} - {b}", a),
            (f"{a} + ? = {total}", f"{total} - {a}", b),
        ),
    )


@_gen("2.NBT.B.5/within-100-story", "word")
def _g2_within_100_word(rng: random.Random) -> Made:
    a = rng.randint(15, 80)
    b = rng.randint(5, 99 - a)
    name = pick(rng, NAMES)
    things = _thing(rng)
    return _choose(
        rng,
        (
            (
                f"{name} has {a} {things} and buys {b} more. How many {things} does {name} have?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"A library had {a + b} books out and {b} came back. How many are still out?",
                f"{a + b} - {b}",
                a,
            ),
            (
                f"{name} made {a + b} cookies and sold {a}. how many cookies are left",
                f"{a + b} - {a}",
                b,
            ),
            (
                f"There are {a} girls and {b} boys at the park. How many children are there?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"{name} needs {a + b} stickers for the album and has {a}. How many more "
                "are needed?",
                f"{a + b} - {a}",
                b,
            ),
            (
                f"A game has {a + b} cards. {name} has dealt {b}. How many cards are left to deal?",
                f"{a + b} - {b}",
                a,
            ),
        ),
    )


@_gen("2.NBT.B.6/add-up-to-four", "bare")
def _g2_four(rng: random.Random) -> Made:
    nums = [rng.randint(10, 99) for _ in range(rng.randint(3, 4))]
    expr = " + ".join(str(n) for n in nums)
    total = sum(nums)
    column = " / ".join(str(n) for n in nums)
    return _choose(
        rng,
        (
            (f"{expr} = ?", expr, total),
            (f"Add: {expr}", expr, total),
            (f"Add the column: {column}", expr, total),
            (f"whats {expr}", expr, total),
            (f"Find the sum of {', '.join(str(n) for n in nums)}.", expr, total),
            (f"Add the tens first, then the ones: {expr}", expr, total),
        ),
    )


@_gen("2.NBT.B.6/add-up-to-four-story", "word")
def _g2_four_word(rng: random.Random) -> Made:
    nums = [rng.randint(10, 99) for _ in range(rng.randint(3, 4))]
    expr = " + ".join(str(n) for n in nums)
    listing = ", ".join(str(n) for n in nums[:-1]) + f" and {nums[-1]}"
    name = pick(rng, NAMES)
    things = _thing(rng)
    days = ("Monday", "Tuesday", "Wednesday", "Thursday")
    by_day = ", ".join(f"{n} on {d}" for n, d in zip(nums, days, strict=False))
    return _choose(
        rng,
        (
            (f"{name} collected {things}: {by_day}. How many {things} in all?", expr, sum(nums)),
            (f"The teams scored {listing} points. What is the total?", expr, sum(nums)),
            (
                f"{name} read {listing} pages in four days. how many pages altogether",
                expr,
                sum(nums),
            ),
            (
                f"Four classes raised {listing} dollars. How much did they raise together?",
                expr,
                sum(nums),
            ),
            (f"A farmer picks {listing} apples from the trees. How many apples?", expr, sum(nums)),
            (f"Add to find the total number of {things}: {listing}.", expr, sum(nums)),
        ),
    )


@_gen("2.NBT.B.7/within-1000", "bare")
def _g2_within_1000(rng: random.Random) -> Made:
    a = rng.randint(100, 899)
    b = rng.randint(10, 999 - a)
    total = a + b
    return _choose(
        rng,
        (
            (f"{a} + {b} = ?", f"{a} + {b}", total),
            (f"{total} - {b} = ?", f"{total} - {b}", a),
            (f"Add: {a} + {b}. Regroup if you need to.", f"{a} + {b}", total),
            (f"Subtract: {total} - {a}", f"{total} - {a}", b),
            (f"how do you do {total} - {b} with regrouping", f"{total} - {b}", a),
            (f"Find the difference of {total} and {b}.", f"{total} - {b}", a),
        ),
    )


@_gen("2.NBT.B.7/within-1000-story", "word")
def _g2_within_1000_word(rng: random.Random) -> Made:
    a = rng.randint(100, 800)
    b = rng.randint(20, 999 - a)
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"A school has {a} students. {b} more join. How many students are there?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"{name} had {a + b} points and lost {b}. How many points are left?",
                f"{a + b} - {b}",
                a,
            ),
            (
                f"A farm had {a + b} chickens and sold {a}. how many chickens now",
                f"{a + b} - {a}",
                b,
            ),
            (
                f"{name} walked {a} steps in the morning and {b} in the afternoon. How "
                "many steps in all?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"A book has {a + b} pages. {name} has read {a}. How many pages are left?",
                f"{a + b} - {a}",
                b,
            ),
            (
                f"The zoo had {a} visitors on Saturday and {b} more on Sunday than on "
                "Saturday. How many came on Sunday?",
                f"{a} + {b}",
                a + b,
            ),
        ),
    )


@_gen("2.NBT.B.8/ten-or-hundred-more", "bare")
def _g2_mental(rng: random.Random) -> Made:
    n = rng.randint(100, 900)
    step = pick(rng, (10, 100))
    return _choose(
        rng,
        (
            (f"What is {step} more than {n}?", f"{n} + {step}", n + step),
            (f"What is {step} less than {n}?", f"{n} - {step}", n - step),
            (f"{n} + {step} = ?", f"{n} + {step}", n + step),
            (f"{n} - {step} = ?", f"{n} - {step}", n - step),
            (f"whats {step} more than {n} in your head", f"{n} + {step}", n + step),
            (f"Subtract {step} from {n} mentally.", f"{n} - {step}", n - step),
        ),
    )


@_gen("2.NBT.B.8/ten-or-hundred-story", "word")
def _g2_mental_word(rng: random.Random) -> Made:
    n = rng.randint(100, 900)
    step = pick(rng, (10, 100))
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"{name} has {n} points and earns {step} more. What is the score now?",
                f"{n} + {step}",
                n + step,
            ),
            (
                f"A jar holds {n} beans. {name} takes out {step}. How many beans are left?",
                f"{n} - {step}",
                n - step,
            ),
            (
                f"{name} had {n} cents and spent {step}. how many cents left",
                f"{n} - {step}",
                n - step,
            ),
            (
                f"A road sign says {n} meters. After {step} more meters, how far have you gone?",
                f"{n} + {step}",
                n + step,
            ),
            (
                f"{name} has {n} stamps and a friend gives {step} more. How many stamps?",
                f"{n} + {step}",
                n + step,
            ),
            (
                f"A video had {n} views. The next day it had {step} more. How many views?",
                f"{n} + {step}",
                n + step,
            ),
        ),
    )


@_gen("2.NBT.B.9/place-value-strategy", "bare")
def _g2_strategy(rng: random.Random) -> Made:
    a, b = rng.randint(21, 69), rng.randint(11, 29)
    at, ao, bt, bo = a // 10 * 10, a % 10, b // 10 * 10, b % 10
    shift = 10 - ao if ao else 1
    return _choose(
        rng,
        (
            (
                f"To add {a} + {b}, add the tens {at} + {bt} and the ones {ao} + {bo}. "
                "What is the sum?",
                f"{at} + {bt} + {ao} + {bo}",
                a + b,
            ),
            (
                f"{a} + {b} = ({at} + {bt}) + ({ao} + {bo}) = ?",
                f"({at} + {bt}) + ({ao} + {bo})",
                a + b,
            ),
            (
                f"Why does {a + b} - {b} = {a + b + shift} - {b + shift}? Find the answer.",
                f"{a + b + shift} - {b + shift}",
                a,
            ),
            (
                f"i added the tens and ones separately for {a} + {b} what do i get",
                f"{at} + {bt} + {ao} + {bo}",
                a + b,
            ),
            (f"Use {a} + {b} = {a + b} to find {a + b} - {a}.", f"{a + b} - {a}", b),
            (
                f"Make a friendly number: {a} + {b} = {a + shift} + {b - shift}. What is the sum?",
                f"{a + shift} + {b - shift}",
                a + b,
            ),
        ),
    )


@_gen("2.MD.A.1/ruler-reading", "word")
def _g2_ruler(rng: random.Random) -> Made:
    start = rng.randint(0, 5)
    length = rng.randint(3, 20)
    unit, units = pick(rng, (("inch", "inches"), ("centimeter", "centimeters")))
    obj = pick(rng, ("crayon", "pencil", "leaf", "key", "spoon", "feather"))
    name = pick(rng, NAMES)
    end = start + length
    return _choose(
        rng,
        (
            (
                f"A {obj} starts at 0 and ends at the {end} {unit} mark on a ruler. How "
                "long is it?",
                f"{end} - 0",
                end,
            ),
            (
                f"{name} lines up a {obj} from {start} to {end} on a {unit} ruler. "
                f"How many {units} long is it?",
                f"{end} - {start}",
                length,
            ),
            (
                f"the {obj} goes from {start} to {end} on the ruler how long is it",
                f"{end} - {start}",
                length,
            ),
            (
                f"{name} measures a table with a yardstick. It is 1 yard and "
                f"{length % 12 + 1} more inches. How many inches? (1 yard = 36 inches)",
                f"36 + {length % 12 + 1}",
                36 + length % 12 + 1,
            ),
            (
                f"A measuring tape shows a rug from the 0 mark to the {length * 5} cm "
                "mark. How long is the rug in cm?",
                f"{length * 5} - 0",
                length * 5,
            ),
            (
                f"A ribbon lies along a meter stick from {start * 10} cm to "
                f"{start * 10 + length * 4} cm. How long is the ribbon?",
                f"{start * 10 + length * 4} - {start * 10}",
                length * 4,
            ),
        ),
    )


@_gen("2.MD.A.2/two-units", "word")
def _g2_two_units(rng: random.Random) -> Made:
    feet = rng.randint(2, 4)
    meters = rng.randint(2, 4)
    k = rng.randint(3, 8)
    name = pick(rng, NAMES)
    obj = pick(rng, ("table", "rug", "board", "bench", "door"))
    return _choose(
        rng,
        (
            (
                f"A {obj} is {feet} feet long. Each foot is 12 inches. How many inches long is it?",
                " + ".join(["12"] * feet),
                12 * feet,
            ),
            (
                f"{name} measures a {obj}: {meters} meters. How many centimeters is that? "
                "(1 meter = 100 cm)",
                " + ".join(["100"] * meters),
                100 * meters,
            ),
            (
                f"A {obj} is {feet} feet long, which is {12 * feet} inches. How many more "
                "units are there in inches than in feet?",
                f"{12 * feet} - {feet}",
                11 * feet,
            ),
            (
                f"{name} measures a shelf with big paper clips and gets {k}. Small clips "
                "are half as long. How many small clips long is the shelf?",
                f"{k} + {k}",
                2 * k,
            ),
            (
                f"my {obj} is {meters} meters long how many cm is it",
                " + ".join(["100"] * meters),
                100 * meters,
            ),
            (
                f"{name} measures a {obj} in feet and then in inches. One count is {feet} "
                f"and the other is {12 * feet}. Which count uses the smaller unit?",
                f"max({feet}, {12 * feet})",
                12 * feet,
            ),
        ),
    )


@_gen("2.MD.A.3/estimate-with-benchmark", "word")
def _g2_estimate(rng: random.Random) -> Made:
    k = rng.randint(2, 9)
    name = pick(rng, NAMES)
    obj = pick(rng, ("desk", "bookshelf", "rug", "whiteboard", "table"))
    return _choose(
        rng,
        (
            (
                f"A paper clip is about 1 inch long. A pencil is about {k} paper clips "
                "long. About how many inches long is the pencil?",
                f"{k} * 1",
                k,
            ),
            (
                f"{name}'s hand span is about 10 centimeters. The {obj} is about {k} hand "
                "spans wide. About how many centimeters is that?",
                " + ".join(["10"] * k),
                10 * k,
            ),
            (
                f"A big step is about 1 meter. {name} walks {k} big steps across the "
                "room. About how many meters wide is the room?",
                f"{k} * 1",
                k,
            ),
            (
                f"a ruler is about 1 foot long and the {obj} is about {k} rulers long "
                "about how many feet",
                f"{k} * 1",
                k,
            ),
            (
                f"A finger is about 1 centimeter wide. An eraser is about {k} fingers "
                "long. About how many centimeters?",
                f"{k} * 1",
                k,
            ),
            (
                f"A door is about 2 meters tall. About how tall are {k} doors stacked, in meters?",
                " + ".join(["2"] * k),
                2 * k,
            ),
        ),
    )


@_gen("2.MD.A.4/how-much-longer", "word")
def _g2_longer(rng: random.Random) -> Made:
    a = rng.randint(10, 95)
    b = rng.randint(3, a - 2)
    unit = pick(rng, ("centimeters", "inches", "meters", "feet"))
    if unit in ("centimeters", "inches"):
        x, y = rng.sample(("ribbon", "scarf", "string", "board", "snake", "jump rope"), 2)
    else:
        x, y = rng.sample(("hallway", "rope", "fence", "pool", "garden", "track"), 2)
    return _choose(
        rng,
        (
            (
                f"The {x} is {a} {unit} long. The {y} is {b} {unit} long. How much longer "
                f"is the {x}?",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"How much shorter is a {b}-{unit[:-1] if unit != 'feet' else 'foot'} {y} "
                f"than a {a}-{unit[:-1] if unit != 'feet' else 'foot'} {x}?",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"{x} = {a} {unit}, {y} = {b} {unit}. Find the difference in length.",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"the {x} is {a} {unit} and the {y} is {b} {unit} how much longer",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"Measure: the {x} is {a} {unit}, the {y} {b} {unit}. How many {unit} "
                "longer is the longer one?",
                f"{a} - {b}",
                a - b,
            ),
            (
                f"Which is longer and by how many {unit}: a {y} of {b} {unit} or a {x} of "
                f"{a} {unit}?",
                f"{a} - {b}",
                a - b,
            ),
        ),
    )


@_gen("2.MD.B.5/length-story", "word")
def _g2_length_story(rng: random.Random) -> Made:
    a = rng.randint(10, 70)
    b = rng.randint(5, 99 - a)
    unit = pick(rng, ("inches", "centimeters", "feet", "meters", "yards"))
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"{name} has a ribbon {a} {unit} long and another {b} {unit} long. How "
                "long are they end to end?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"A rope was {a + b} {unit} long. {name} cut off {b} {unit}. How long is it now?",
                f"{a + b} - {b}",
                a,
            ),
            (
                f"{name} ran {a} {unit} and then some more. In all {name} ran {a + b} "
                f"{unit}. How far was the second part?",
                f"{a + b} - {a}",
                b,
            ),
            (
                f"A fence is {a + b} {unit} long. {b} {unit} are painted. how many {unit} "
                "are not painted",
                f"{a + b} - {b}",
                a,
            ),
            (
                f"A plant was {a} {unit} tall and grew {b} {unit}. How tall is it now? "
                "Write an equation with ? for the unknown.",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"{name} jumped {a + b} {unit}. That is {b} {unit} more than a friend. "
                "How far did the friend jump?",
                f"{a + b} - {b}",
                a,
            ),
        ),
    )


@_gen("2.MD.B.5/compare-lengths-story", "word")
def _g2_length_compare(rng: random.Random) -> Made:
    big = rng.randint(30, 99)
    diff = rng.randint(5, big - 10)
    small = big - diff
    unit = pick(rng, ("inches", "centimeters", "feet", "meters"))
    a_name, b_name = _two_names(rng)
    return _choose(
        rng,
        (
            (
                f"{a_name}'s rope is {big} {unit} long. {b_name}'s rope is {diff} {unit} "
                f"shorter. How long is {b_name}'s rope?",
                f"{big} - {diff}",
                small,
            ),
            (
                f"{b_name} threw a ball {small} {unit}. {a_name} threw it {diff} {unit} "
                f"farther. How far did {a_name} throw?",
                f"{small} + {diff}",
                big,
            ),
            (
                f"A red ribbon is {big} {unit} and a blue ribbon is {small} {unit}. How "
                "much longer is the red ribbon?",
                f"{big} - {small}",
                diff,
            ),
            (
                f"{a_name}'s kite string is {diff} {unit} longer than {b_name}'s. "
                f"{a_name}'s is {big} {unit}. how long is {b_name}'s",
                f"{big} - {diff}",
                small,
            ),
            (
                f"{b_name}'s plant is {small} {unit} tall. It must grow to {big} {unit}. "
                f"How many more {unit}? Use ? for the unknown.",
                f"{big} - {small}",
                diff,
            ),
            (
                f"A path is {small} {unit} long. A second path is {diff} {unit} longer. "
                "How long is the second path?",
                f"{small} + {diff}",
                big,
            ),
        ),
    )


@_gen("2.MD.B.6/number-line", "bare")
def _g2_number_line(rng: random.Random) -> Made:
    a = rng.randint(5, 70)
    b = rng.randint(3, 99 - a)
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"Start at 0 on a number line. Jump {a}, then jump {b}. Where do you land?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"On a number line, start at {a + b} and jump back {b}. Where do you land?",
                f"{a + b} - {b}",
                a,
            ),
            (f"Show {a} + {b} on a number line. What number do you end on?", f"{a} + {b}", a + b),
            (
                f"{name} is at {a} on the number line and hops to {a + b}. how long was the hop",
                f"{a + b} - {a}",
                b,
            ),
            (f"How far apart are {a} and {a + b} on a number line?", f"{a + b} - {a}", b),
            (
                f"A frog on a number line starts at {a + b}, jumps back {a}. Where is the frog?",
                f"{a + b} - {a}",
                b,
            ),
        ),
    )


@_gen("2.MD.B.6/number-line-story", "word")
def _g2_number_line_word(rng: random.Random) -> Made:
    a = rng.randint(10, 60)
    b = rng.randint(5, 99 - a)
    name = pick(rng, NAMES)
    return _choose(
        rng,
        (
            (
                f"{name} walks along a path marked like a number line. {name} starts at "
                f"{a} and walks {b} more steps. Where does {name} stop?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"A toy car is at {a + b} on a track marked 0 to 100. It rolls back {b}. "
                "Where is it now?",
                f"{a + b} - {b}",
                a,
            ),
            (
                f"A frog starts at 0 and jumps {a}, then {b} more. What number is the frog on?",
                f"{a} + {b}",
                a + b,
            ),
            (
                f"on a number line {name} went from {a} to {a + b} how far did {name} go",
                f"{a + b} - {a}",
                b,
            ),
            (
                f"A ruler-shaped number line shows a worm at {a} and a bug at {a + b}. "
                "How far apart are they?",
                f"{a + b} - {a}",
                b,
            ),
            (
                f"{name} draws a jump from {a + b} back to {a} on a number line. How long "
                "is the jump?",
                f"{a + b} - {a}",
                b,
            ),
        ),
    )


@_gen("2.MD.C.7/five-minutes", "bare")
def _g2_time(rng: random.Random) -> Made:
    h = rng.randint(1, 12)
    k = rng.randint(1, 11)
    m = 5 * k
    half = pick(rng, ("a.m.", "p.m."))
    return _choose(
        rng,
        (
            (
                f"The minute hand points to the {k}. How many minutes after the hour is it?",
                f"{k} * 5",
                m,
            ),
            (
                f"The hour hand is just past the {h} and the minute hand is on the {k}. "
                f"The time is {h}:__ {half}. What goes in the blank?",
                f"{k} * 5",
                m,
            ),
            (
                f"The clock says {h}:{m:02d}. What number does the minute hand point to?",
                f"{m} / 5",
                k,
            ),
            (f"its {h}:{m:02d} {half} how many minutes past {h} is that", f"{m}", m),
            (
                f"Count by 5s: the minute hand is on the {k}. How many minutes is that?",
                f"{k} * 5",
                m,
            ),
            (
                f"It is {h}:{m:02d} {half}. What will the minutes show in 5 minutes?",
                f"({m} + 5) % 60",
                (m + 5) % 60,
            ),
        ),
    )


@_gen("2.MD.C.7/clock-story", "word")
def _g2_time_word(rng: random.Random) -> Made:
    h = rng.randint(1, 11)
    k = rng.randint(1, 10)
    m = 5 * k
    extra = 5 * rng.randint(1, 11 - k)
    name = pick(rng, NAMES)
    half = pick(rng, ("a.m.", "p.m."))
    event = pick(rng, ("soccer practice", "the movie", "lunch", "the bus", "art class"))
    return _choose(
        rng,
        (
            (
                f"{name}'s digital clock says {h}:{m:02d} {half}. On a clock with hands, "
                "what number does the minute hand point to?",
                f"{m} / 5",
                k,
            ),
            (
                f"{event.capitalize()} starts at quarter past {h} {half}. How many minutes "
                f"after {h}:00 is that?",
                "3 * 5",
                15,
            ),
            (
                f"{name} looks at the clock for {event}: the long hand is on the {k}. "
                f"{name} writes the time as {h}:__ {half}. what number goes in the blank",
                f"{k} * 5",
                m,
            ),
            (
                f"The minute hand on the kitchen clock points to {k}. How many minutes "
                f"after {h} o'clock is it?",
                f"{k} * 5",
                m,
            ),
            (
                f"{name} leaves at {h}:{m:02d} {half} and walks for {extra} minutes. What "
                f"number does the minute hand point to when {name} gets there?",
                f"({m} + {extra}) / 5",
                (m + extra) // 5,
            ),
        ),
    )


def _coins(n: int, kind: str) -> str:
    """ "1 dime", "3 dimes", "2 pennies"."""
    if n == 1:
        return f"1 {kind}"
    return f"{n} " + ("pennies" if kind == "penny" else kind + "s")


@_gen("2.MD.C.8/coins-and-bills", "word")
def _g2_money(rng: random.Random) -> Made:
    q, d, n, p = rng.randint(1, 3), rng.randint(1, 5), rng.randint(1, 4), rng.randint(1, 9)
    bills = rng.randint(1, 5)
    cq, cd, cn, cp = (
        _coins(q, "quarter"),
        _coins(d, "dime"),
        _coins(n, "nickel"),
        _coins(p, "penny"),
    )
    cb = _coins(bills, "dollar bill")
    name = pick(rng, NAMES)
    total = 25 * q + 10 * d + 5 * n + p
    price = rng.randint(10, 95)
    pay = 100 if price > 50 else pick(rng, (50, 100))
    return _choose(
        rng,
        (
            (
                f"{name} has {cq}, {cd}, {cn} and {cp}. How many cents does {name} have?",
                f"{q} * 25 + {d} * 10 + {n} * 5 + {p}",
                total,
            ),
            (
                f"{name} has {cd} and {cp}. How many cents is that?",
                f"{d} * 10 + {p}",
                10 * d + p,
            ),
            (
                f"{name} has {cb} and {cq}. How many cents in all?",
                f"{bills} * 100 + {q} * 25",
                100 * bills + 25 * q,
            ),
            (
                f"A toy costs {price}¢. {name} pays with {pay}¢. How much change, in cents?",
                f"{pay} - {price}",
                pay - price,
            ),
            (
                f"i have {cq} and {cn} how many cents",
                f"{q} * 25 + {n} * 5",
                25 * q + 5 * n,
            ),
            (
                f"{name} has ${bills} and {cd}. How many cents is that?",
                f"{bills} * 100 + {d} * 10",
                100 * bills + 10 * d,
            ),
        ),
    )


@_gen("2.MD.C.8/coin-sums", "bare")
def _g2_coins_bare(rng: random.Random) -> Made:
    q, d, n, p = rng.randint(1, 3), rng.randint(1, 6), rng.randint(0, 5), rng.randint(1, 9)
    bills = rng.randint(1, 9)
    cq, cd, cn, cp = (
        _coins(q, "quarter"),
        _coins(d, "dime"),
        _coins(n, "nickel"),
        _coins(p, "penny"),
    )
    total = 25 * q + 10 * d + 5 * n + p
    return _choose(
        rng,
        (
            (
                f"{cq} + {cd} + {cp} = ___¢",
                f"{q} * 25 + {d} * 10 + {p}",
                25 * q + 10 * d + p,
            ),
            (
                f"How many cents? {cd}, {cn}, {cp}",
                f"{d} * 10 + {n} * 5 + {p}",
                10 * d + 5 * n + p,
            ),
            (
                f"Count the money: {cq}, {cd}, {cn}, {cp}. Write the total in ¢.",
                f"{q} * 25 + {d} * 10 + {n} * 5 + {p}",
                total,
            ),
            (f"how many cents is {bills} dollars", f"{bills} * 100", 100 * bills),
            (
                f"${bills} and {cq} = ___¢",
                f"{bills} * 100 + {q} * 25",
                100 * bills + 25 * q,
            ),
            (f"How many nickels make {5 * (n + 1)}¢?", f"{5 * (n + 1)} / 5", n + 1),
        ),
    )


@_gen("2.MD.D.9/line-plot", "word")
def _g2_line_plot(rng: random.Random) -> Made:
    values = [rng.randint(3, 8) for _ in range(rng.randint(6, 10))]
    listing = ", ".join(str(v) for v in values)
    target = pick(rng, values)
    count = values.count(target)
    ones = " + ".join("1" for v in values if v == target)
    obj = pick(rng, ("pencils", "leaves", "shoes", "crayons", "sticks"))
    unit = pick(rng, ("inches", "centimeters"))
    return _choose(
        rng,
        (
            (
                f"The class measured {obj} in {unit}: {listing}. On a line plot, how many "
                f"X's go above {target}?",
                ones,
                count,
            ),
            (
                f"Lengths of {obj} ({unit}): {listing}. How many {obj} were measured?",
                " + ".join("1" for _ in values),
                len(values),
            ),
            (
                f"Data: {listing} {unit}. What is the difference between the longest and "
                f"shortest {obj}?",
                f"max({listing}) - min({listing})",
                max(values) - min(values),
            ),
            (f"on a line plot of {listing} how many xs above {target}", ones, count),
            (
                f"A line plot shows these {obj} lengths: {listing} {unit}. How long is "
                "the longest?",
                f"max({listing})",
                max(values),
            ),
            (
                f"Measurements of {obj} in {unit}: {listing}. How many are longer than {target}?",
                " + ".join(["0"] + ["1" for v in values if v > target]),
                sum(1 for v in values if v > target),
            ),
        ),
    )


@_gen("2.MD.D.10/bar-graph", "word")
def _g2_bar_graph(rng: random.Random) -> Made:
    topic, choices = pick(rng, _TOPICS)
    labels = rng.sample(choices, 4)
    counts = [rng.randint(2, 15) for _ in labels]
    data = ", ".join(f"{lab} {c}" for lab, c in zip(labels, counts, strict=True))
    (w, x, y, z), (a, b, c, d) = labels, counts
    intro = pick(
        rng,
        (
            f"A bar graph shows votes for favorite {topic}",
            f"The bar graph shows each kid's favorite {topic}",
            f"A class made a bar graph of their favorite {topic}",
        ),
    )
    return _choose(
        rng,
        (
            (
                f"{intro}: {data}. How many more chose {w if a >= b else x} than "
                f"{x if a >= b else w}?",
                f"abs({a} - {b})",
                abs(a - b),
            ),
            (f"{intro}: {data}. How many votes in all?", f"{a} + {b} + {c} + {d}", a + b + c + d),
            (f"{intro}: {data}. How many chose {y} or {z}?", f"{c} + {d}", c + d),
            (
                f"{intro}: {data}. how many fewer for {z if d <= b else x} than "
                f"{x if d <= b else z}",
                f"abs({b} - {d})",
                abs(b - d),
            ),
            (
                f"{intro}: {data}. If 3 more kids pick {w}, how many will {w} have?",
                f"{a} + 3",
                a + 3,
            ),
            (f"{intro}: {data}. How many did not pick {w}?", f"{b} + {c} + {d}", b + c + d),
        ),
    )


@_gen("2.MD.D.10/picture-graph", "word")
def _g2_picture_graph(rng: random.Random) -> Made:
    topic, choices = pick(rng, _TOPICS)
    labels = rng.sample(choices, 4)
    counts = [rng.randint(1, 9) for _ in labels]
    rows = "; ".join(f"{lab}: {'☺' * c}" for lab, c in zip(labels, counts, strict=True))
    (w, x, y, z), (a, b, c, d) = labels, counts
    return _choose(
        rng,
        (
            (
                f"Picture graph of favorite {topic}, each ☺ is 1 child. {rows}. How many "
                "children in all?",
                f"{a} + {b} + {c} + {d}",
                a + b + c + d,
            ),
            (
                f"Picture graph (each ☺ = 1 vote). {rows}. How many more votes did "
                f"{w if a >= c else y} get than {y if a >= c else w}?",
                f"abs({a} - {c})",
                abs(a - c),
            ),
            (
                f"Picture graph: {rows}. How many votes for {x} and {z} together?",
                f"{b} + {d}",
                b + d,
            ),
            (f"the picture graph shows {rows} how many for {y}", f"{c}", c),
            (
                f"Picture graph of favorite {topic}: {rows}. If 2 kids change from {w} to "
                f"{x}, how many will {x} have?",
                f"{b} + 2",
                b + 2,
            ),
            (
                f"Picture graph (1 picture = 1 child): {rows}. How many did not choose {z}?",
                f"{a} + {b} + {c}",
                a + b + c,
            ),
        ),
    )


@_gen("2.G.A.1/shape-attributes", "bare")
def _g2_shapes(rng: random.Random) -> Made:
    shapes = (("triangle", 3), ("quadrilateral", 4), ("pentagon", 5), ("hexagon", 6))
    s1, n1 = pick(rng, shapes)
    s2, n2 = pick(rng, shapes)
    k = rng.randint(2, 4)
    return _choose(
        rng,
        (
            (f"How many angles does a {s1} have?", f"{n1}", n1),
            (f"How many sides do a {s1} and a {s2} have in all?", f"{n1} + {n2}", n1 + n2),
            ("How many faces does a cube have?", "6", 6),
            (f"how many vertices does a {s2} have", f"{n2}", n2),
            (f"How many sides do {k} {s1}s have altogether?", " + ".join([str(n1)] * k), n1 * k),
            (
                f"How many more angles does a {s2} have than a {s1}?",
                f"abs({n2} - {n1})",
                abs(n2 - n1),
            ),
        ),
    )


@_gen("2.G.A.1/shape-attributes-story", "word")
def _g2_shapes_word(rng: random.Random) -> Made:
    shapes = (("triangle", 3), ("quadrilateral", 4), ("pentagon", 5), ("hexagon", 6))
    s1, n1 = pick(rng, shapes)
    s2, n2 = pick(rng, shapes)
    name = pick(rng, NAMES)
    k = rng.randint(2, 4)
    return _choose(
        rng,
        (
            (
                f"{name} draws a {s1} and a {s2}. How many angles are there in all?",
                f"{n1} + {n2}",
                n1 + n2,
            ),
            (
                f"{name} builds a cube out of paper squares, one square per face. How "
                "many squares?",
                "6",
                6,
            ),
            (
                f"{name} makes {k} {s2}s with toothpicks, one toothpick per side. how "
                "many toothpicks",
                " + ".join([str(n2)] * k),
                n2 * k,
            ),
            (
                "A stop sign is an octagon with 8 sides. How many more sides does it "
                f"have than a {s1}?",
                f"8 - {n1}",
                8 - n1,
            ),
            (f"{name} puts a dot on every vertex of a {s1}. How many dots?", f"{n1}", n1),
            (
                f"A cube has 12 edges. {name} covers {k} of them with tape. How many "
                "edges are not taped?",
                f"12 - {k}",
                12 - k,
            ),
        ),
    )


@_gen("2.G.A.2/rows-and-columns", "word")
def _g2_partition(rng: random.Random) -> Made:
    rows, cols = rng.randint(2, 6), rng.randint(2, 6)
    sums = " + ".join([str(cols)] * rows)
    name = pick(rng, NAMES)
    total = rows * cols
    return _choose(
        rng,
        (
            (
                f"A rectangle is split into {rows} rows and {cols} columns of same-size "
                "squares. How many squares?",
                sums,
                total,
            ),
            (
                f"{name} draws a rectangle with {rows} rows of {cols} squares. How many "
                f"squares did {name} draw?",
                sums,
                total,
            ),
            (
                f"A chocolate bar has {rows} rows and {cols} columns of pieces. How many pieces?",
                sums,
                total,
            ),
            (
                f"a rectangle with {cols} columns and {rows} rows how many little squares",
                sums,
                total,
            ),
            (
                f"A rectangle has {total} same-size squares in {rows} rows. How many "
                "squares are in each row?",
                f"{total} / {rows}",
                cols,
            ),
            (
                f"{name} tiles a floor with {rows} rows of {cols} tiles. How many tiles?",
                sums,
                total,
            ),
        ),
    )


@_gen("2.G.A.2/rows-and-columns-bare", "bare")
def _g2_partition_bare(rng: random.Random) -> Made:
    rows, cols = rng.randint(2, 6), rng.randint(2, 6)
    sums = " + ".join([str(cols)] * rows)
    total = rows * cols
    return _choose(
        rng,
        (
            (
                f"Partition a rectangle into {rows} rows and {cols} columns of equal "
                "squares. How many squares?",
                sums,
                total,
            ),
            (f"{rows} rows × {cols} columns of squares: count the squares.", sums, total),
            (
                f"A rectangle has {rows} rows of {cols} squares. Write the total as a sum "
                "of equal addends.",
                sums,
                total,
            ),
            (f"how many squares in a {rows} by {cols} grid", sums, total),
            (
                f"A rectangle has {total} equal squares in {cols} columns. How many rows?",
                f"{total} / {cols}",
                rows,
            ),
            (
                f"Count the squares: {' / '.join(' '.join(['[]'] * cols) for _ in range(rows))}",
                sums,
                total,
            ),
        ),
    )


@_gen("2.G.A.3/equal-shares", "word")
def _g2_equal_shares(rng: random.Random) -> Made:
    parts = pick(rng, (2, 3, 4))
    word = {2: "halves", 3: "thirds", 4: "fourths"}[parts]
    food = pick(rng, ("pizza", "pie", "cake", "brownie", "waffle", "quesadilla"))
    name = pick(rng, NAMES)
    eaten = rng.randint(1, parts - 1)
    k = rng.randint(2, 4)
    return _choose(
        rng,
        (
            (f"A {food} is cut into {word}. How many equal shares are there?", f"{parts}", parts),
            (f"How many {word} make one whole {food}?", f"{parts}", parts),
            (
                f"{name} cuts a {food} into {word} and eats {eaten} share. How many "
                "shares are left?",
                f"{parts} - {eaten}",
                parts - eaten,
            ),
            (f"how many {word} are in {k} whole {food}s", " + ".join([str(parts)] * k), parts * k),
            (
                f"A rectangle is split into {word}. {name} colors {eaten}. How many parts "
                "are not colored?",
                f"{parts} - {eaten}",
                parts - eaten,
            ),
            (
                f"{name} shares a {food} equally among {parts} friends. How many shares "
                f"does the {food} need?",
                f"{parts}",
                parts,
            ),
        ),
    )


@_gen("2.G.A.3/halves-thirds-fourths", "bare")
def _g2_shares_bare(rng: random.Random) -> Made:
    parts = pick(rng, (2, 3, 4))
    word, one = {2: ("halves", "half"), 3: ("thirds", "third"), 4: ("fourths", "fourth")}[parts]
    shape = pick(rng, ("circle", "rectangle", "square"))
    k = rng.randint(1, parts - 1)
    return _choose(
        rng,
        (
            (f"A {shape} is split into {word}. How many equal parts?", f"{parts}", parts),
            (f"The whole {shape} is ___ {word}.", f"{parts}", parts),
            (
                f"You shade {k} {one if k == 1 else word} of a {shape}. How many more "
                f"{word} shade the whole?",
                f"{parts} - {k}",
                parts - k,
            ),
            (f"how many {word} make a whole {shape}", f"{parts}", parts),
            (
                f"A long rectangle is cut into {word} with straight cuts across. How many "
                "cuts are made?",
                f"{parts} - 1",
                parts - 1,
            ),
            (
                f"Two same-size {shape}s are each cut into {word}. How many pieces in all?",
                f"{parts} + {parts}",
                2 * parts,
            ),
        ),
    )


GENERATORS: tuple[Generator, ...] = tuple(_GENS)
