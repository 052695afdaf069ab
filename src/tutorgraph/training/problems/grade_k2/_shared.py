"""The phrasing, answer options and number words the kindergarten to grade 2 generators share."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from tutorgraph.training.problems._registry import Made
from tutorgraph.training.problems._words import CONTAINERS, NAMES, THINGS, pick

__all__ = [
    "_ONES_WORDS",
    "_SHAPE_SIDES",
    "_TOPICS",
    "_Option",
    "_add_take_story",
    "_choose",
    "_cmp",
    "_comparison",
    "_name_of",
    "_thing",
    "_together_compare_story",
    "_two_names",
]


# One way to ask: the text, the expression and the answer's value.
_Option = tuple[str, str, int | Fraction | str]


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


_SHAPE_SIDES = (("triangle", 3), ("square", 4), ("rectangle", 4), ("hexagon", 6))


_TOPICS = (
    ("fruit", ("apples", "bananas", "grapes", "pears", "oranges")),
    ("pet", ("cats", "dogs", "fish", "birds", "rabbits")),
    ("lunch", ("pizza", "tacos", "soup", "pasta", "sandwiches")),
    ("color", ("red", "blue", "green", "yellow", "purple")),
    ("sport", ("soccer", "basketball", "tennis", "swimming", "baseball")),
    ("season", ("spring", "summer", "fall", "winter")),
)
