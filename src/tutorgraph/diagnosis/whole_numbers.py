"""Bug rules of whole-number arithmetic in the early grades (K-5): tens handled as ones,
fact strategies half done (making ten, near doubles, skip counting), column methods with a
wrong carry or a wrong regrouping across zero, a quotient's missing zero and the zeros of a
power of ten. `arithmetic.RULES` includes them; their misconceptions are the K-5 catalogue's
(`data/teaching/misconceptions_k5.jsonl`).

>>> [r.shown for r in WHOLE_NUMBER_RULES[0].apply(Problem.read("47 + 10"))]
['48']
"""

from __future__ import annotations

from fractions import Fraction

from tutorgraph.diagnosis.expression import BinOp, Node, Num
from tutorgraph.diagnosis.rules import (
    BugRule,
    Problem,
    Reproduction,
    int_of,
    reproduce,
    unwrap,
)

__all__ = ["WHOLE_NUMBER_RULES", "addends", "whole_operands"]

# Single-digit facts: the strategies of making ten and near doubles are for these.
_FACT = range(1, 10)
# Skip counting is done for factors up to ten.
_SKIP = range(2, 11)
# Column methods are written for numbers of school size.
_MAX_COLUMN = 10**9


def whole_operands(p: Problem, op: str) -> tuple[int, int] | None:
    """The problem is `a <op> b` with `a` and `b` whole numbers as written."""
    t = p.tree
    if isinstance(t, BinOp) and t.op == op:
        a, b = int_of(unwrap(t.left)), int_of(unwrap(t.right))
        if a is not None and b is not None:
            return a, b
    return None


def addends(node: Node) -> list[int] | None:
    """The whole numbers of a sum `a + b + c ...` (no brackets, no other operation)."""
    if isinstance(node, BinOp) and node.op == "+":
        left, right = addends(node.left), addends(node.right)
        return None if left is None or right is None else left + right
    n = int_of(node) if isinstance(node, Num) else None
    return None if n is None else [n]


def _digits(n: int) -> list[int]:
    """The digits of `n`, units first."""
    return [int(c) for c in reversed(str(n))]


def _number(digits: list[str]) -> Fraction:
    """The number written by `digits` (units first; a digit may be a string of digits)."""
    return Fraction(int("".join(reversed(digits))))


def _round_part(n: int) -> tuple[int, int] | None:
    """`n` as one digit followed by zeros, `k × 10**j` with j ≥ 1: (k, 10**j)."""
    text = str(n)
    if len(text) >= 2 and text[0] != "0" and set(text[1:]) == {"0"}:
        return int(text[0]), 10 ** (len(text) - 1)
    return None


# -- place value in mental sums ------------------------------------------------------------


def _tens_added_as_ones(p: Problem) -> list[Reproduction]:
    """`47 + 10` as 48, `65 - 30` as 62: the digit of a multiple of ten added as ones."""
    for op in "+-":
        if (pair := whole_operands(p, op)) is None:
            continue
        a, b = pair
        if op == "+" and _round_part(a) and not _round_part(b):
            a, b = b, a
        if (part := _round_part(b)) is None or a % 10 == 0:
            return []
        k, unit = part
        value = a + k if op == "+" else a - k
        verb = "adding" if op == "+" else "taking away"
        return reproduce(
            Fraction(value) if value >= 0 else None,
            f"{verb} {k} one{'s' if k > 1 else ''} instead of {k} × {unit}",
            p.show,
        )
    return []


def _tens_drop_the_zero(p: Problem) -> list[Reproduction]:
    """`70 - 30` as 4, `40 + 30` as 7: the tens digits combined and written as ones."""
    for op in "+-":
        if (pair := whole_operands(p, op)) is None:
            continue
        a, b = pair
        if not all(10 <= x <= 90 and x % 10 == 0 for x in pair):
            return []
        tens = a // 10 + b // 10 if op == "+" else a // 10 - b // 10
        return reproduce(
            Fraction(tens) if tens > 0 else None,
            f"working with the tens digits ({a // 10} {op} {b // 10}) and leaving off the zero",
            p.show,
        )
    return []


def _digits_added_as_ones(p: Problem) -> list[Reproduction]:
    """`23 + 14` as 2 + 3 + 1 + 4 = 10."""
    if (pair := whole_operands(p, "+")) is None or max(pair) < 10:
        return []
    if all(x % 10 == 0 for x in pair):
        return []  # tens only: `tens_drop_the_zero` says how
    digits = [d for x in pair for d in reversed(_digits(x))]
    return reproduce(
        Fraction(sum(digits)),
        f"adding every digit as ones ({' + '.join(map(str, digits))})",
        p.show,
    )


# -- fact strategies -----------------------------------------------------------------------


def _make_ten_keeps_the_addend(p: Problem) -> list[Reproduction]:
    """`8 + 6` as 16: 8 made up to 10, then the whole 6 added (the 2 not taken from it)."""
    if (pair := whole_operands(p, "+")) is None:
        return []
    a, b = pair
    if a not in _FACT or b not in _FACT or a + b <= 10:
        return []
    big, small = max(a, b), min(a, b)
    return reproduce(
        Fraction(10 + small),
        f"making {big} up to 10 and then adding all of {small}, "
        f"without taking away the {10 - big} used to make the ten",
        p.show,
    )


def _bridge_ten_subtracts_whole(p: Problem) -> list[Reproduction]:
    """`13 - 5` as 5: 3 taken to reach 10, then the whole 5 taken from 10."""
    if (pair := whole_operands(p, "-")) is None:
        return []
    a, b = pair
    if not (11 <= a <= 19 and 2 <= b <= 9 and b > a - 10):
        return []
    return reproduce(
        Fraction(10 - b),
        f"taking {a - 10} to get to 10 and then taking all of {b} from 10",
        p.show,
    )


def _near_double_not_adjusted(p: Problem) -> list[Reproduction]:
    """`6 + 7` as 12 or 14: the double of one addend, not adjusted by one."""
    if (pair := whole_operands(p, "+")) is None:
        return []
    a, b = pair
    if a not in _FACT or b not in _FACT or abs(a - b) != 1:
        return []
    small, big = min(a, b), max(a, b)
    return [
        *reproduce(Fraction(2 * small), f"doubling {small} and not adding the extra 1", p.show),
        *reproduce(Fraction(2 * big), f"doubling {big} and not taking away the extra 1", p.show),
    ]


def _one_group_off(p: Problem) -> list[Reproduction]:
    """`6 × 4` as 30 or 18: one group too many or too few counted."""
    if (pair := whole_operands(p, "*")) is None:
        return []
    a, b = pair
    if a not in _SKIP or b not in _SKIP:
        return []
    out: list[Reproduction] = []
    seen = {a * b}
    for size, groups in ((a, b), (b, a)):
        for n, word in ((groups + 1, "many"), (groups - 1, "few")):
            if size * n not in seen:
                seen.add(size * n)
                out += reproduce(
                    Fraction(size * n),
                    f"counting in {size}s one group too {word} ({n} groups instead of {groups})",
                    p.show,
                )
    return out


def _subtracting_zero_gives_zero(p: Problem) -> list[Reproduction]:
    if (pair := whole_operands(p, "-")) is None or pair[1] != 0 or pair[0] == 0:
        return []
    return reproduce(Fraction(0), "thinking that taking away zero leaves nothing", p.show)


# -- column methods ------------------------------------------------------------------------


def _columns(numbers: list[int]) -> list[list[int]]:
    """The digits of each number, units first, padded with zeros to the same length."""
    width = max(len(str(n)) for n in numbers)
    return [_digits(n) + [0] * (width - len(str(n))) for n in numbers]


def _carries_the_ones(p: Problem) -> list[Reproduction]:
    """`47 + 38` as 121: a column's tens digit written and its ones digit carried."""
    if (pair := whole_operands(p, "+")) is None or max(pair) > _MAX_COLUMN:
        return []
    top, bottom = _columns(list(pair))
    written, carry = [], 0
    for i, (x, y) in enumerate(zip(top, bottom, strict=True)):
        s = x + y + carry
        if i == len(top) - 1:
            written.append(str(s))
        elif s >= 10:
            written.append(str(s // 10))
            carry = s % 10
        else:
            written.append(str(s))
            carry = 0
    return reproduce(
        _number(written), "writing the tens digit of a column and carrying the ones digit", p.show
    )


def _carries_one(p: Problem) -> list[Reproduction]:
    """`28 + 37 + 46 + 19` as 110: 1 carried from a column that adds to 30."""
    numbers = addends(p.tree)
    if numbers is None or len(numbers) < 3 or max(numbers) > _MAX_COLUMN:
        return []
    columns = list(zip(*_columns(numbers), strict=True))
    written, carry, big = [], 0, False
    for i, column in enumerate(columns):
        s = sum(column) + carry
        if i == len(columns) - 1:
            written.append(str(s))
        else:
            written.append(str(s % 10))
            big |= s >= 20
            carry = 1 if s >= 10 else 0
    if not big:
        return []
    return reproduce(_number(written), "carrying 1 from a column that adds to 20 or more", p.show)


def _zero_minus_digit_is_zero(p: Problem) -> list[Reproduction]:
    """`40 - 17` as 30: 0 take away 7 written as 0 (no regrouping)."""
    if (pair := whole_operands(p, "-")) is None or pair[0] <= pair[1]:
        return []
    top, bottom = _columns(list(pair))
    written, zeros = [], 0
    for x, y in zip(top, bottom, strict=True):
        if x == 0 and y > 0:
            written.append("0")
            zeros += 1
        elif x >= y:
            written.append(str(x - y))
        else:
            return []  # another column needs regrouping: not this error alone
    if not zeros:
        return []
    return reproduce(_number(written), "writing 0 where a digit is taken away from 0", p.show)


def _borrow_across_zero_leaves_ten(p: Problem) -> list[Reproduction]:
    """`302 - 157` as 155: regrouping across the 0, it becomes 10 (not 9)."""
    if (pair := whole_operands(p, "-")) is None or pair[0] <= pair[1]:
        return []
    top, bottom = _columns(list(pair))
    across = False
    for i, y in enumerate(bottom):
        if top[i] >= y:
            continue
        j = next((k for k in range(i + 1, len(top)) if top[k] > 0), None)
        if j is None:
            return []
        top[j] -= 1
        for k in range(i + 1, j):
            top[k] = 10  # the error: a regrouped 0 left at 10, not 9
            across = True
        top[i] += 10
    written = [top[i] - y for i, y in enumerate(bottom)]
    if not across or any(d > 9 for d in written):
        return []
    return reproduce(
        _number([str(d) for d in written]),
        "regrouping across a 0 and leaving it as 10 instead of 9",
        p.show,
    )


def _carry_added_first(p: Problem) -> list[Reproduction]:
    """`26 × 3` as 98: the carried 1 added to the 2 before multiplying ((2 + 1) × 3)."""
    if (pair := whole_operands(p, "*")) is None:
        return []
    a, b = pair
    if a < 10 <= b:
        a, b = b, a
    if not (10 <= a <= _MAX_COLUMN and 2 <= b <= 9):
        return []
    digits = _digits(a)
    written, carry, carried = [], 0, False
    for i, d in enumerate(digits):
        product = (d + carry) * b
        if i == len(digits) - 1:
            written.append(str(product))
        else:
            written.append(str(product % 10))
            carry = product // 10
            carried |= carry > 0
    if not carried:
        return []
    return reproduce(
        _number(written),
        "adding the carried digit to the next digit before multiplying it",
        p.show,
    )


def _quotient_drops_zero(p: Problem) -> list[Reproduction]:
    """`624 ÷ 3` as 28: no digit written for the step in which 3 does not go into 2."""
    if (pair := whole_operands(p, "÷")) is None:
        return []
    a, b = pair
    if b < 2 or a % b or a > _MAX_COLUMN:
        return []
    q = str(a // b)
    kept = "".join(c for i, c in enumerate(q) if c != "0" or not q[i:].strip("0"))
    if kept == q:
        return []
    return reproduce(
        Fraction(int(kept)),
        "writing no digit in the answer for a step where the divisor does not go",
        p.show,
    )


def _power_of_ten_extra_zero(p: Problem) -> list[Reproduction]:
    """`10^3` as 10,000: 10 followed by three zeros."""
    t = p.tree
    if not (isinstance(t, BinOp) and t.op == "^" and int_of(unwrap(t.left)) == 10):
        return []
    n = int_of(unwrap(t.right))
    if n is None or not 1 <= n <= 12:
        return []
    return reproduce(Fraction(10 ** (n + 1)), f"writing 10 and then {n} zeros", p.show)


# In the order a diagnosis tries them (after the rules of `arithmetic`).
WHOLE_NUMBER_RULES: tuple[BugRule[Problem], ...] = (
    BugRule("tens_added_as_ones", "place value", _tens_added_as_ones),
    BugRule("tens_drop_the_zero", "place value", _tens_drop_the_zero),
    BugRule("digits_added_as_ones", "place value", _digits_added_as_ones),
    BugRule("make_ten_keeps_the_addend", "fact strategies", _make_ten_keeps_the_addend),
    BugRule("bridge_ten_subtracts_whole", "fact strategies", _bridge_ten_subtracts_whole),
    BugRule("near_double_not_adjusted", "fact strategies", _near_double_not_adjusted),
    BugRule("multiplication_one_group_off", "fact strategies", _one_group_off),
    BugRule("subtracting_zero_gives_zero", "fact strategies", _subtracting_zero_gives_zero),
    BugRule("column_addition_carries_the_ones", "place value", _carries_the_ones),
    BugRule("column_addition_carries_one", "place value", _carries_one),
    BugRule("zero_minus_digit_is_zero", "place value", _zero_minus_digit_is_zero),
    BugRule("borrow_across_zero_leaves_ten", "place value", _borrow_across_zero_leaves_ten),
    BugRule("column_multiplication_carry_added_first", "place value", _carry_added_first),
    BugRule("division_quotient_drops_zero", "place value", _quotient_drops_zero),
    BugRule("power_of_ten_extra_zero", "powers", _power_of_ten_extra_zero),
)
