"""The arithmetic bug rules: `rules.BASIC_RULES` (fractions, order of operations, signs,
powers) and, here, decimal products, commutativity, a swapped operation, column methods,
misaligned decimals, fractions with whole numbers and more powers; the early grades' rules
of whole numbers come from `whole_numbers`. `RULES` holds them all,
by name, in the order a diagnosis tries them.

>>> [r.shown for r in RULES["subtraction_commutative"].apply(Problem.read("3 - 8"))]
['5']
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from tutorgraph.diagnosis.expression import BinOp, Num, evaluate
from tutorgraph.diagnosis.rules import (
    BASIC_RULES,
    BugRule,
    Problem,
    Reproduction,
    fraction_operands,
    int_of,
    reproduce,
    unwrap,
)
from tutorgraph.diagnosis.whole_numbers import WHOLE_NUMBER_RULES

__all__ = ["RULES"]


# -- decimals ------------------------------------------------------------------------------


def _decimal_product(p: Problem) -> tuple[int, int] | None:
    """`x × y` (or `x^n`, x times itself) with a decimal: the product of the digits and the
    correct number of decimal places."""
    t = p.tree
    if not (isinstance(t, BinOp) and t.op in "*^"):
        return None
    left, right = unwrap(t.left), unwrap(t.right)
    if t.op == "^":
        n = int_of(right)
        if not isinstance(left, Num) or n is None or not 2 <= n <= 4:
            return None
        factors = [left] * n
    elif isinstance(left, Num) and isinstance(right, Num):
        factors = [left, right]
    else:
        return None
    if not any("." in x.text for x in factors):
        return None
    places = sum(len(x.text.partition(".")[2]) for x in factors)
    digits = 1
    for x in factors:
        digits *= int(x.text.replace(".", ""))
    return digits, places


def _wrong_power_of_ten(p: Problem) -> list[Reproduction]:
    if (found := _decimal_product(p)) is None:
        return []
    digits, places = found
    out = []
    for k in range(1, places + 2):
        if k != places:
            value = Fraction(digits, 10**k)
            shown = p.show(value)
            out.append(
                Reproduction(
                    value,
                    shown,
                    f"{shown} is what you get by multiplying the digits ({digits}) and "
                    f"putting back {k} decimal place{'s' if k > 1 else ''} instead of {places}",
                )
            )
    return out


def _just_the_digits(p: Problem) -> list[Reproduction]:
    if (found := _decimal_product(p)) is None:
        return []
    digits, _ = found
    return reproduce(
        Fraction(digits), "multiplying the digits and leaving the decimal point out", p.show
    )


# -- commutativity -------------------------------------------------------------------------


def _swapped(op: str, word: str) -> Callable[[Problem], list[Reproduction]]:
    def rule(p: Problem) -> list[Reproduction]:
        t = p.tree
        if isinstance(t, BinOp) and t.op == op:
            return reproduce(
                evaluate(BinOp(op, t.right, t.left)), f"{word} the other way round", p.show
            )
        return []

    return rule


# -- operations swapped, column methods ----------------------------------------------------

_SYMBOL = {"+": "+", "-": "-", "*": "×", "÷": "÷", "/": "÷"}
_VERB = {"+": "adding", "-": "subtracting", "*": "multiplying", "÷": "dividing"}


def _two_numbers(p: Problem, ops: str) -> tuple[str, Num, Num] | None:
    """The problem is one operation in `ops` between two numbers."""
    t = p.tree
    if isinstance(t, BinOp) and t.op in ops:
        left, right = unwrap(t.left), unwrap(t.right)
        if isinstance(left, Num) and isinstance(right, Num):
            return t.op, left, right
    return None


def _operation_swapped(asked: str, done: str) -> Callable[[Problem], list[Reproduction]]:
    """Doing `done` where the problem asks for `asked`."""

    def rule(p: Problem) -> list[Reproduction]:
        if (found := _two_numbers(p, "÷/" if asked == "÷" else asked)) is None:
            return []
        if asked == "÷" and found[0] == "/" and "÷" not in p.text and " / " not in p.text:
            return []  # a tight slash is a fraction, not a division
        _, a, b = found
        return reproduce(
            evaluate(BinOp(done, a, b)), f"{_VERB[done]} instead of {_VERB[asked]}", p.show
        )

    return rule


def _columns(a: int, b: int) -> tuple[list[int], list[int]]:
    """The digits of `a` and `b`, units first, padded to the same length."""
    da, db = [int(c) for c in reversed(str(a))], [int(c) for c in reversed(str(b))]
    n = max(len(da), len(db))
    return da + [0] * (n - len(da)), db + [0] * (n - len(db))


def _whole_pair(p: Problem, op: str) -> tuple[int, int] | None:
    if (found := _two_numbers(p, op)) is None:
        return None
    a, b = int_of(found[1]), int_of(found[2])
    return None if a is None or b is None else (a, b)


def _no_carry(p: Problem) -> list[Reproduction]:
    if (pair := _whole_pair(p, "+")) is None:
        return []
    da, db = _columns(*pair)
    if all(x + y < 10 for x, y in zip(da, db, strict=True)):
        return []
    digits = "".join(str((x + y) % 10) for x, y in zip(da, db, strict=True))
    return reproduce(
        Fraction(int(digits[::-1])),
        "not carrying the 1 when a column adds up to 10 or more",
        p.show,
    )


def _borrow_without_decrement(p: Problem) -> list[Reproduction]:
    if (pair := _whole_pair(p, "-")) is None or pair[0] < pair[1]:
        return []
    da, db = _columns(*pair)
    if all(x >= y for x, y in zip(da, db, strict=True)):
        return []
    digits = "".join(str(x - y if x >= y else x + 10 - y) for x, y in zip(da, db, strict=True))
    return reproduce(
        Fraction(int(digits[::-1])), "borrowing 10 without taking 1 from the next column", p.show
    )


def _smaller_from_larger(p: Problem) -> list[Reproduction]:
    if (pair := _whole_pair(p, "-")) is None or pair[0] < pair[1]:
        return []
    da, db = _columns(*pair)
    if all(x >= y for x, y in zip(da, db, strict=True)):
        return []
    digits = "".join(str(abs(x - y)) for x, y in zip(da, db, strict=True))
    return reproduce(
        Fraction(int(digits[::-1])),
        "taking the smaller digit from the larger in each column",
        p.show,
    )


def _misaligned(op: str) -> Callable[[Problem], list[Reproduction]]:
    """Decimals with different numbers of places lined up by their last digits."""

    def rule(p: Problem) -> list[Reproduction]:
        if (found := _two_numbers(p, op)) is None:
            return []
        _, a, b = found
        places = [len(x.text.partition(".")[2]) for x in (a, b)]
        if "." not in a.text + b.text or places[0] == places[1]:
            return []
        ia, ib = int(a.text.replace(".", "")), int(b.text.replace(".", ""))
        value = Fraction(ia + ib if op == "+" else ia - ib, 10 ** max(places))
        return reproduce(value, "lining up the last digits instead of the decimal points", p.show)

    return rule


# -- fractions and whole numbers -----------------------------------------------------------


def _fraction_and_whole(p: Problem, op: str) -> tuple[int, int, int] | None:
    """`a/b <op> n` (or `n <op> a/b` for × and +): (a, b, n)."""
    if (f := fraction_operands(p, op, whole=True)) is None:
        return None
    a, b, c, d = f
    if d == 1:
        return a, b, c
    if b == 1 and op in "*+":
        return c, d, a
    return None


def _times_whole_on_denominator(p: Problem) -> list[Reproduction]:
    if (f := _fraction_and_whole(p, "*")) is None or f[2] == 0:
        return []
    a, b, n = f
    return reproduce(
        Fraction(a, b * n), f"multiplying the denominator by {n} instead of the numerator", p.show
    )


def _divided_by_whole_multiplies(p: Problem) -> list[Reproduction]:
    if (f := _fraction_and_whole(p, "÷")) is None or f[2] in (0, 1):
        return []
    a, b, n = f
    return reproduce(
        Fraction(a * n, b),
        f"multiplying by {n} instead of dividing "
        f"(multiplying the numerator, or dividing the denominator, by {n})",
        p.show,
    )


def _whole_added_to_numerator(p: Problem) -> list[Reproduction]:
    if (f := _fraction_and_whole(p, "+")) is None:
        return []
    a, b, n = f
    return reproduce(Fraction(a + n, b), f"adding {n} to the numerator only", p.show)


# -- more powers ---------------------------------------------------------------------------


def _simple_power(p: Problem) -> tuple[Fraction, int] | None:
    """The problem is `a^n` with `a` a number and `n` a whole number (maybe negative)."""
    t = p.tree
    if not (isinstance(t, BinOp) and t.op == "^"):
        return None
    base, exponent = unwrap(t.left), evaluate(t.right)
    if not isinstance(base, Num) or exponent is None or exponent.denominator != 1:
        return None
    return base.value, int(exponent)


def _adds_index(p: Problem) -> list[Reproduction]:
    if (found := _simple_power(p)) is None:
        return []
    a, n = found
    return reproduce(a + n, "adding the power to the number", p.show)


def _index_as_digit(p: Problem) -> list[Reproduction]:
    if (found := _simple_power(p)) is None or found[0].denominator != 1 or found[1] < 0:
        return []
    a, n = found
    return reproduce(
        Fraction(int(f"{a.numerator}{n}")),
        "writing the power as a digit on the end of the number",
        p.show,
    )


def _square_cube_confused(p: Problem) -> list[Reproduction]:
    if (found := _simple_power(p)) is None or found[1] not in (2, 3):
        return []
    a, n = found
    other, word = (3, "cubing instead of squaring") if n == 2 else (2, "squaring instead of cubing")
    return reproduce(a**other, f"{word}", p.show)


def _negative_power_negative(p: Problem) -> list[Reproduction]:
    if (found := _simple_power(p)) is None or found[1] >= 0 or found[0] == 0:
        return []
    a, n = found
    how = "thinking a negative power makes the answer negative"
    return [
        *reproduce(-(a ** (-n)), f"{how}", p.show),
        *reproduce(-(a**n), f"{how}", p.show),
    ]


def _power_of_zero(p: Problem) -> list[Reproduction]:
    if (found := _simple_power(p)) is None or found[1] != 0 or found[0] in (0, 1):
        return []
    a, _ = found
    return [
        *reproduce(Fraction(0), "forgetting that a power of 0 is 1", p.show),
        *reproduce(a, "forgetting that a power of 0 is 1", p.show),
    ]


def _concatenates(p: Problem) -> list[Reproduction]:
    if (pair := _whole_pair(p, "*")) is None:
        return []
    a, b = pair
    return reproduce(Fraction(int(f"{a}{b}")), "writing the numbers next to each other", p.show)


def _whole_divided_by_fraction_multiplies(p: Problem) -> list[Reproduction]:
    if (f := fraction_operands(p, "÷", whole=True)) is None or f[1] != 1 or f[3] == 1:
        return []
    n, _, c, d = f
    return reproduce(
        Fraction(n * c, d), f"multiplying {n} by {c}/{d} instead of dividing by it", p.show
    )


def _fraction_of_multiplies_by_denominator(p: Problem) -> list[Reproduction]:
    """`a/b of n` (read `a/b × n`, the fraction first) as `n × b × a`: multiplying by the
    denominator where one divides by it."""
    f = fraction_operands(p, "*", whole=True)
    if f is None or f[3] != 1 or f[1] == 1 or f[0] == 0:
        return []
    a, b, n, _ = f
    how = f"multiplying {n} by the denominator {b} instead of dividing by it"
    return reproduce(Fraction(n * b * a), how + (f" (then by {a})" if a != 1 else ""), p.show)


# -- whole-number multiplication -----------------------------------------------------------


def _multiple_of_ten_drops_a_zero(p: Problem) -> list[Reproduction]:
    """`70 × 60` as 420: a zero of the multiples of ten left off (ten times too small)."""
    if (pair := _whole_pair(p, "*")) is None or 0 in pair:
        return []
    if not any(str(x).endswith("0") for x in pair):
        return []
    a, b = pair
    return reproduce(
        Fraction(a * b, 10),
        "multiplying the digits before the zeros and leaving out one of the zeros",
        p.show,
    )


def _column_multiply_no_carry(p: Problem) -> list[Reproduction]:
    """A many-digit number times a one-digit number, each column's product written without
    carrying its tens: `26 × 3` as 68 (3 × 6 = 18, write 8; 3 × 2 = 6)."""
    if (pair := _whole_pair(p, "*")) is None:
        return []
    a, b = pair
    if a < 10 <= b:
        a, b = b, a
    if not (a >= 10 and 2 <= b <= 9):
        return []
    digits = [int(c) for c in str(a)]
    if all(d * b < 10 for d in digits):
        return []
    return reproduce(
        Fraction(int("".join(str(d * b % 10) for d in digits))),
        "multiplying each digit and not carrying the tens to the next column",
        p.show,
    )


# -- counting ------------------------------------------------------------------------------

# Counting on or back is done in ones for small steps only.
_MAX_COUNT = 10


def _counts_the_start(op: str) -> Callable[[Problem], list[Reproduction]]:
    """Counting on (+) or back (-) in ones and counting the starting number as the first
    step: `8 + 5` as 8, 9, 10, 11, 12."""

    def rule(p: Problem) -> list[Reproduction]:
        t = p.tree
        if not (isinstance(t, BinOp) and t.op == op):
            return []
        start, step = evaluate(t.left), int_of(unwrap(t.right))
        if start is None or start.denominator != 1 or step is None:
            return []
        if op == "+" and 0 <= start < step:
            # counting on from the larger number: "3 + 8" is counted 8, 9, 10, 11
            start, step = Fraction(step), int(start)
        if not 1 < step <= _MAX_COUNT:
            return []
        word = "on" if op == "+" else "back"
        value = start + step - 1 if op == "+" else start - step + 1
        return reproduce(
            value, f"counting {word} {step} from {start} and counting {start} itself", p.show
        )

    return rule


RULES: dict[str, BugRule[Problem]] = {
    r.name: r
    for r in (
        *BASIC_RULES,
        BugRule("decimal_multiply_wrong_power_of_ten", "decimals", _wrong_power_of_ten),
        BugRule("decimal_multiply_just_the_digits", "decimals", _just_the_digits),
        BugRule("division_commutative", "commutativity", _swapped("÷", "dividing")),
        BugRule("subtraction_commutative", "commutativity", _swapped("-", "subtracting")),
        BugRule("adds_instead_of_multiplies", "operations", _operation_swapped("*", "+")),
        BugRule("multiplies_instead_of_divides", "operations", _operation_swapped("÷", "*")),
        BugRule("divides_instead_of_multiplies", "operations", _operation_swapped("*", "÷")),
        BugRule("adds_instead_of_subtracts", "operations", _operation_swapped("-", "+")),
        BugRule("subtracts_instead_of_adds", "operations", _operation_swapped("+", "-")),
        BugRule("subtracts_instead_of_divides", "operations", _operation_swapped("÷", "-")),
        BugRule("column_addition_no_carry", "place value", _no_carry),
        BugRule("column_subtraction_no_decrement", "place value", _borrow_without_decrement),
        BugRule("column_subtraction_smaller_from_larger", "place value", _smaller_from_larger),
        BugRule("decimal_add_misaligned", "decimals", _misaligned("+")),
        BugRule("decimal_subtract_misaligned", "decimals", _misaligned("-")),
        BugRule("fraction_times_whole_on_denominator", "fractions", _times_whole_on_denominator),
        BugRule("fraction_divided_by_whole_multiplies", "fractions", _divided_by_whole_multiplies),
        BugRule("whole_plus_fraction_on_numerator", "fractions", _whole_added_to_numerator),
        BugRule("power_adds_index", "powers", _adds_index),
        BugRule("power_index_as_digit", "powers", _index_as_digit),
        BugRule("power_square_cube_confused", "powers", _square_cube_confused),
        BugRule("power_negative_index_negative", "powers", _negative_power_negative),
        BugRule("power_of_zero", "powers", _power_of_zero),
        BugRule("multiplication_concatenates", "operations", _concatenates),
        BugRule(
            "whole_divided_by_fraction_multiplies",
            "fractions",
            _whole_divided_by_fraction_multiplies,
        ),
        BugRule(
            "fraction_of_multiplies_by_denominator",
            "fractions",
            _fraction_of_multiplies_by_denominator,
        ),
        BugRule("multiple_of_ten_drops_a_zero", "place value", _multiple_of_ten_drops_a_zero),
        BugRule("column_multiplication_no_carry", "place value", _column_multiply_no_carry),
        BugRule("counting_on_counts_the_start", "counting", _counts_the_start("+")),
        BugRule("counting_back_counts_the_start", "counting", _counts_the_start("-")),
        *WHOLE_NUMBER_RULES,
    )
}
