"""How a number is written in a problem, a step or an answer: one formatter per style.

A drawn value keeps its style ("int", "frac", "dec", "mixed", "money"), so the text, the
steps and the answer write it the same way; `FORMATS` are the placeholder formats a
template may ask for by name (`{n|words}`, `{t|time}`).

>>> show(Fraction(12_500)), show(Fraction(7, 4), "mixed"), show(Fraction(5, 2), "money")
('12,500', '1 3/4', '$2.50')
>>> number_words(342), FORMATS["time"](Fraction(545), ""), FORMATS["ord"](Fraction(3), "")
('three hundred forty-two', '9:05', '3rd')
>>> FORMATS["den"](Fraction(12), ""), FORMATS["den"](Fraction(100), "")
('twelfths', 'hundredths')
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

__all__ = ["FORMATS", "decimal_text", "number_words", "show", "show_answer"]

_ONES = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
)  # fmt: skip
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_ORDINAL_WORDS = (
    "zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    "ninth", "tenth", "eleventh", "twelfth",
)  # fmt: skip


def number_words(n: int) -> str:
    """A whole number's name, as a worksheet spells it (to the millions)."""
    if n < 0:
        return "negative " + number_words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + ("-" + _ONES[n % 10] if n % 10 else "")
    for size, word in ((1_000_000, "million"), (1000, "thousand"), (100, "hundred")):
        if n >= size:
            rest = n % size
            return f"{number_words(n // size)} {word}" + (f" {number_words(rest)}" if rest else "")
    raise AssertionError(n)


def _whole(n: int) -> str:
    return f"{n:,}" if abs(n) >= 10_000 else str(n)


def decimal_text(x: Fraction, places: int = 12) -> str | None:
    """The exact decimal of `x` ("0.05", "-2.5"), or None when it needs more places."""
    for k in range(places + 1):
        scaled = x * 10**k
        if scaled.denominator == 1:
            digits = str(abs(scaled.numerator)).rjust(k + 1, "0")
            sign = "-" if x < 0 else ""
            whole = _whole(int(digits[:-k] if k else digits))
            return f"{sign}{whole}.{digits[-k:]}" if k else f"{sign}{whole}"
    return None


def _fraction(x: Fraction) -> str:
    return _whole(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _mixed(x: Fraction) -> str:
    if x.denominator == 1 or abs(x) < 1:
        return _fraction(x)
    whole = int(abs(x))
    rest = abs(x) - whole
    return f"{'-' if x < 0 else ''}{whole} {rest.numerator}/{rest.denominator}"


def _money(x: Fraction) -> str:
    cents = round(abs(x) * 100)
    body = f"{cents // 100:,}" + (f".{cents % 100:02d}" if cents % 100 else "")
    return ("-$" if x < 0 else "$") + body


def show(x: Fraction, style: str = "") -> str:
    """`x` in a style: a whole number (commas from 10,000), a/b, a decimal, a mixed number,
    dollars; without a style a non-whole number is a fraction."""
    if style == "mixed":
        return _mixed(x)
    if style == "money":
        return _money(x)
    if style == "dec" and (text := decimal_text(x)) is not None:
        return text
    return _fraction(x)


def show_answer(x: Fraction, style: str) -> str:
    """An answer as `parse_answer` reads it: money without the sign, always with cents."""
    if style == "money":
        return f"{x:.2f}" if x.denominator != 1 else _whole(x.numerator)
    return show(x, style)


def _time(x: Fraction, arg: str) -> str:
    """Minutes after midnight as a clock time: "9:05", with "a.m."/"p.m." when asked."""
    hours, minutes = divmod(int(x), 60)
    twelve = (hours - 1) % 12 + 1
    suffix = (" a.m." if hours % 24 < 12 else " p.m.") if arg == "ampm" else ""
    return f"{twelve}:{minutes:02d}{suffix}"


def _tally(x: Fraction, _arg: str) -> str:
    n = int(x)
    return " ".join(["||||/"] * (n // 5) + (["|" * (n % 5)] if n % 5 else []))


def _ordinal(x: Fraction, _arg: str) -> str:
    n = int(x)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def ordinal_words(n: int) -> str:
    """ "third", "twelfth", "twentieth", "hundredth"."""
    if n < len(_ORDINAL_WORDS):
        return _ORDINAL_WORDS[n]
    name = number_words(n)
    if name.endswith("y"):
        return name[:-1] + "ieth"
    return name.removeprefix("one ") + "th"


def _den(x: Fraction, _arg: str) -> str:
    """A denominator's parts: "halves", "thirds", "hundredths"."""
    return "halves" if x == 2 else ordinal_words(int(x)) + "s"


def _unit(x: Fraction, _arg: str) -> str:
    """A rounding unit: "ten", "hundred thousand", "whole number", "tenth"."""
    if x < 1:
        return ordinal_words(int(1 / x))
    return "whole number" if x == 1 else number_words(int(x)).removeprefix("one ")


def _place(x: Fraction, _arg: str) -> str:
    """A place: "ones", "tens", "thousands", "tenths"."""
    return "ones" if x == 1 else _den(1 / x, "") if x < 1 else _unit(x, "") + "s"


def _noun(arg: str, x: Fraction) -> str:
    one, _, many = arg.partition("/")
    return one if x == 1 else many or one + "s"


# Placeholder formats: `{x|name}` or `{x|name:arg}`; each gets the value and the argument.
FORMATS: dict[str, Callable[[Fraction, str], str]] = {
    "words": lambda x, _arg: number_words(int(x)),
    "Words": lambda x, _arg: number_words(int(x)).capitalize(),
    "ordw": lambda x, _arg: ordinal_words(int(x)),
    "den": _den,
    "unit": _unit,
    "place": _place,
    "ord": _ordinal,
    "time": _time,
    "tally": _tally,
    # `n` marks in a row ("o o o o"), the mark given as the argument.
    "dots": lambda x, arg: " ".join((arg or "o") * int(x)),
    # Counting from 1 ("1, 2, 3, 4").
    "count": lambda x, _arg: ", ".join(str(i) for i in range(1, int(x) + 1)),
    # A count and its noun, agreeing: {q|n:dime} "3 dimes", {p|n:penny/pennies} "1 penny".
    "n": lambda x, arg: f"{show(x)} " + _noun(arg, x),
    # Rows of marks ({r|grid:c}: r rows of c), a repeated addend ({c|rep:r}: "c + c + c").
    "grid": lambda x, arg: " / ".join([" ".join(["o"] * int(arg))] * int(x)),
    "rep": lambda x, arg: " + ".join([show(x)] * int(arg)),
    "pad": lambda x, _arg: f"{int(x):02d}",
    "frac": lambda x, _arg: _fraction(x),
    "dec": lambda x, _arg: show(x, "dec"),
    "mixed": lambda x, _arg: _mixed(x),
    "money": lambda x, _arg: _money(x),
    # A signed term of an expression ("+ 3", "- 3") and a number in parentheses when negative.
    "sign": lambda x, arg: f"- {show(-x, arg)}" if x < 0 else f"+ {show(x, arg)}",
    # A coefficient before a letter: 1x is "x", -1x is "-x".
    "coef": lambda x, arg: "" if x == 1 else "-" if x == -1 else show(x, arg),
    "paren": lambda x, arg: f"({show(x, arg)})" if x < 0 else show(x, arg),
}
