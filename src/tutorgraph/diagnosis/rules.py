"""Bug rules: what a student who holds one misconception answers to a problem.

Each rule reads the problem's text and its expression tree and returns the answers such a
student would give, each with the sentence that says how. Rules know nothing of misconception
ids: `bug_rules.jsonl` links them (data, reviewed against the misconception texts).

The rules were written from the misconception texts of the Eedi mapping and a few example
questions, never from the labels of the pairs they are scored on.

>>> from tutorgraph.diagnosis.expression import parse
>>> [r.explanation for r in RULES["fraction_add_across"].apply(Problem.read("2/3 + 1/4"))]
['3/7 is what you get by adding the numerators (2 + 1) and the denominators (3 + 4)']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from tutorgraph.diagnosis.expression import (
    BIDMAS,
    LEFT_TO_RIGHT,
    BinOp,
    Group,
    Neg,
    Node,
    Num,
    evaluate,
    parse,
)

__all__ = ["RULES", "BugRule", "Problem", "Reproduction", "reproduce", "show"]


@dataclass(frozen=True)
class Problem:
    """An arithmetic problem: its text and its tree under the standard order."""

    text: str
    tree: Node

    @classmethod
    def read(cls, text: str) -> Problem | None:
        tree = parse(text)
        return None if tree is None else cls(text, tree)

    def show(self, value: Fraction) -> str:
        """A value as the student would write it: decimals only for a problem in decimals."""
        return show(value, decimal="." in self.text)

    def solve(self) -> tuple[Fraction, str] | None:
        """The right answer and how it is written, or None (a division by zero...)."""
        value = evaluate(self.tree)
        return None if value is None else (value, self.show(value))


@dataclass(frozen=True)
class Reproduction:
    """One answer a rule gives: its value, how it is written, and the sentence."""

    answer: Fraction
    shown: str
    explanation: str


P = TypeVar("P")


@dataclass(frozen=True)
class BugRule(Generic[P]):
    """A rule over one kind of problem (`Problem` here, `RoundingProblem` for rounding)."""

    name: str
    family: str
    apply: Callable[[P], list[Reproduction]]


def show(value: Fraction, *, decimal: bool = True) -> str:
    """A value as a student writes it: an integer, a short decimal (`decimal`), else a
    fraction."""
    if value.denominator == 1:
        return str(value.numerator)
    if not decimal:
        return f"{value.numerator}/{value.denominator}"
    d = value.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d == 1 and len(str(value.denominator)) <= 8:
        return f"{float(value):.10f}".rstrip("0")
    return f"{value.numerator}/{value.denominator}"


def reproduce(
    value: Fraction | None, how: str, written: Callable[[Fraction], str] = show
) -> list[Reproduction]:
    """The one answer a rule gives, with "<answer> is what you get by <how>"; none for None.

    >>> reproduce(Fraction(3, 7), "adding across", lambda v: show(v, decimal=False))[0].explanation
    '3/7 is what you get by adding across'
    """
    if value is None:
        return []
    shown = written(value)
    return [Reproduction(value, shown, f"{shown} is what you get by {how}")]


def _int(node: Node) -> int | None:
    """A non-negative whole number as written."""
    if isinstance(node, Num) and node.value.denominator == 1 and "." not in node.text:
        return node.value.numerator
    return None


def _fraction(node: Node, whole: bool) -> tuple[int, int] | None:
    """`a/b` written with whole numbers (a fraction bar), b > 0; `whole`: `n` as `n/1`."""
    if isinstance(node, BinOp) and node.op == "/":
        a, b = _int(node.left), _int(node.right)
        if a is not None and b:
            return a, b
    n = _int(node) if whole else None
    return None if n is None else (n, 1)


def _fractions(p: Problem, op: str, *, whole: bool = False) -> tuple[int, int, int, int] | None:
    """The problem is exactly `a/b <op> c/d` (one side may be whole when `whole`)."""
    t = p.tree
    if isinstance(t, BinOp) and t.op == op:
        left = _fraction(_unwrap(t.left), whole)
        right = _fraction(_unwrap(t.right), whole)
        if left and right and (left[1], right[1]) != (1, 1):
            return (*left, *right)
    return None


def _unwrap(node: Node) -> Node:
    while isinstance(node, Group):
        node = node.inner
    return node


# -- fractions -----------------------------------------------------------------------------


def _add_across(p: Problem) -> list[Reproduction]:
    if (f := _fractions(p, "+")) is None:
        return []
    a, b, c, d = f
    return reproduce(
        Fraction(a + c, b + d),
        f"adding the numerators ({a} + {c}) and the denominators ({b} + {d})",
        p.show,
    )


def _subtract_across(p: Problem) -> list[Reproduction]:
    if (f := _fractions(p, "-")) is None or f[1] == f[3]:
        return []
    a, b, c, d = f
    return reproduce(
        Fraction(a - c, b - d),
        f"subtracting the numerators ({a} - {c}) and the denominators ({b} - {d})",
        p.show,
    )


def _add_numerators_multiply_denominators(p: Problem) -> list[Reproduction]:
    if (f := _fractions(p, "+")) is None or f[1] == f[3]:
        return []
    a, b, c, d = f
    return reproduce(
        Fraction(a + c, b * d),
        f"adding the numerators ({a} + {c}) and multiplying the denominators ({b} × {d})",
        p.show,
    )


def _multiply_adding_numerators(p: Problem) -> list[Reproduction]:
    if (f := _fractions(p, "*")) is None:
        return []
    a, b, c, d = f
    return reproduce(
        Fraction(a + c, b * d),
        f"adding the numerators ({a} + {c}) and multiplying the denominators ({b} × {d})",
        p.show,
    )


def _divide_without_reciprocal(p: Problem) -> list[Reproduction]:
    if (f := _fractions(p, "÷", whole=True)) is None:
        return []
    a, b, c, d = f
    return reproduce(
        Fraction(a * c, b * d),
        f"multiplying by {c}/{d} instead of by its reciprocal {d}/{c}",
        p.show,
    )


def _reciprocal_of_first(p: Problem) -> list[Reproduction]:
    if (f := _fractions(p, "÷", whole=True)) is None or f[0] == 0:
        return []
    a, b, c, d = f
    return reproduce(
        Fraction(b * c, a * d),
        f"flipping the first fraction ({b}/{a}) instead of the second and multiplying",
        p.show,
    )


def _reciprocal_of_both(p: Problem) -> list[Reproduction]:
    if (f := _fractions(p, "÷", whole=True)) is None or f[0] == 0 or f[2] == 0:
        return []
    a, b, c, d = f
    return reproduce(Fraction(b * d, a * c), f"flipping both fractions ({b}/{a} × {d}/{c})", p.show)


# -- order of operations -------------------------------------------------------------------


def _as_operations(text: str) -> str:
    """Without a ÷ sign, a slash is the division the order rules put in order."""
    return text if "÷" in text else text.replace("/", " ÷ ")


def _left_to_right(p: Problem) -> list[Reproduction]:
    return reproduce(
        evaluate(parse(_as_operations(p.text), LEFT_TO_RIGHT)),
        "working from left to right, ignoring that × and ÷ come before + and -",
        p.show,
    )


def _bidmas_strict(p: Problem) -> list[Reproduction]:
    return reproduce(
        evaluate(parse(_as_operations(p.text), BIDMAS)),
        "doing ÷ before × and + before -, as the letters "
        "of BIDMAS are ordered, instead of working left to right within each pair",
        p.show,
    )


def _brackets_ignored(p: Problem) -> list[Reproduction]:
    if "(" not in p.text:
        return []
    flat = p.text.replace("(", " ").replace(")", " ")
    return reproduce(
        evaluate(parse(flat)), "working it out as if the brackets were not there", p.show
    )


# -- negative numbers ----------------------------------------------------------------------


def _nodes(node: Node) -> Iterator[Node]:
    yield node
    match node:
        case Neg(operand=x) | Group(inner=x):
            yield from _nodes(x)
        case BinOp(left=left, right=right):
            yield from _nodes(left)
            yield from _nodes(right)


def _replace(node: Node, old: Node, new: Node) -> Node:
    """`node` with the subtree `old` (by identity) replaced by `new`."""
    if node is old:
        return new
    match node:
        case Neg(operand=x):
            return Neg(_replace(x, old, new))
        case Group(inner=x):
            return Group(_replace(x, old, new))
        case BinOp(op=op, left=left, right=right):
            return BinOp(op, _replace(left, old, new), _replace(right, old, new))
    return node


def _negative(node: Node) -> bool:
    node = _unwrap(node)
    return isinstance(node, Neg) or (isinstance(node, Num) and node.value < 0)


def _value_node(value: Fraction) -> Node:
    num = Num(abs(value), show(abs(value)))
    return Neg(num) if value < 0 else num


def _wrong_sign(
    ops: str, left_negative: bool, right_negative: bool, belief: str
) -> Callable[[Problem], list[Reproduction]]:
    """The rule of a student who gives the products (or quotients, by `ops`) of these signs
    the opposite sign."""

    def rule(p: Problem) -> list[Reproduction]:
        tree = p.tree
        for node in list(_nodes(p.tree)):
            if (
                isinstance(node, BinOp)
                and node.op in ops
                and _negative(node.left) == left_negative
                and _negative(node.right) == right_negative
                and (value := evaluate(node))
            ):
                tree = _replace(tree, node, _value_node(-value))
        if tree == p.tree:
            return []
        return reproduce(evaluate(tree), f"{belief}", p.show)

    return rule


def _square_of_negative_negative(p: Problem) -> list[Reproduction]:
    t = p.tree
    if (
        isinstance(t, BinOp)
        and t.op == "^"
        and isinstance(t.left, Group)
        and _negative(t.left)
        and _int(t.right) == 2
    ):
        v = evaluate(t)
        return reproduce(
            None if v is None else -v,
            "thinking the square of a negative number is negative",
            p.show,
        )
    return []


def _negative_square_positive(p: Problem) -> list[Reproduction]:
    t = p.tree
    if isinstance(t, Neg) and isinstance(t.operand, BinOp) and t.operand.op == "^":
        return reproduce(
            evaluate(BinOp("^", Group(Neg(t.operand.left)), t.operand.right)),
            "squaring the minus sign too, as if it were in brackets",
            p.show,
        )
    return []


def _subtracting_a_negative(p: Problem) -> list[Reproduction]:
    t = p.tree
    if isinstance(t, BinOp) and t.op == "-" and _negative(t.right):
        inner = _unwrap(t.right)
        positive = inner.operand if isinstance(inner, Neg) else inner
        return reproduce(
            evaluate(BinOp("-", t.left, positive)), "ignoring one of the two minus signs", p.show
        )
    return []


# -- powers --------------------------------------------------------------------------------


def _powers(p: Problem) -> list[BinOp]:
    return [n for n in _nodes(p.tree) if isinstance(n, BinOp) and n.op == "^"]


def _squaring_as_doubling(p: Problem) -> list[Reproduction]:
    squares = [n for n in _powers(p) if _int(n.right) == 2]
    if not squares:
        return []
    tree = p.tree
    for n in squares:
        tree = _replace(tree, n, BinOp("*", Num(Fraction(2), "2"), n.left))
    return reproduce(evaluate(tree), "doubling instead of squaring", p.show)


def _multiplies_by_index(p: Problem) -> list[Reproduction]:
    powers = _powers(p)
    if not powers:
        return []
    tree = p.tree
    for n in powers:
        tree = _replace(tree, n, BinOp("*", n.left, n.right))
    return reproduce(evaluate(tree), "multiplying by the power instead of raising to it", p.show)


# -- decimals ------------------------------------------------------------------------------


def _decimal_product(p: Problem) -> tuple[int, int] | None:
    """`x × y` (or `x^n`, x times itself) with a decimal: the product of the digits and the
    correct number of decimal places."""
    t = p.tree
    if not (isinstance(t, BinOp) and t.op in "*^"):
        return None
    left, right = _unwrap(t.left), _unwrap(t.right)
    if t.op == "^":
        n = _int(right)
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
        left, right = _unwrap(t.left), _unwrap(t.right)
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
    a, b = _int(found[1]), _int(found[2])
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
    if (f := _fractions(p, op, whole=True)) is None:
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
    base, exponent = _unwrap(t.left), evaluate(t.right)
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


RULES: dict[str, BugRule[Problem]] = {
    r.name: r
    for r in (
        BugRule("fraction_add_across", "fractions", _add_across),
        BugRule("fraction_subtract_across", "fractions", _subtract_across),
        BugRule(
            "fraction_add_numerators_multiply_denominators",
            "fractions",
            _add_numerators_multiply_denominators,
        ),
        BugRule("fraction_multiply_adding_numerators", "fractions", _multiply_adding_numerators),
        BugRule("fraction_divide_without_reciprocal", "fractions", _divide_without_reciprocal),
        BugRule("fraction_divide_reciprocal_of_first", "fractions", _reciprocal_of_first),
        BugRule("fraction_divide_reciprocal_of_both", "fractions", _reciprocal_of_both),
        BugRule("order_left_to_right", "order of operations", _left_to_right),
        BugRule("order_bidmas_strict", "order of operations", _bidmas_strict),
        BugRule("order_brackets_ignored", "order of operations", _brackets_ignored),
        BugRule(
            "negative_times_negative_negative",
            "negative numbers",
            _wrong_sign("*", True, True, "taking a negative times a negative to be negative"),
        ),
        BugRule(
            "positive_times_negative_positive",
            "negative numbers",
            _wrong_sign("*", False, True, "taking a positive times a negative to be positive"),
        ),
        BugRule(
            "negative_times_positive_positive",
            "negative numbers",
            _wrong_sign("*", True, False, "taking a negative times a positive to be positive"),
        ),
        BugRule(
            "positive_divided_by_negative_positive",
            "negative numbers",
            _wrong_sign("÷/", False, True, "taking positive ÷ negative to be positive"),
        ),
        BugRule(
            "negative_divided_by_positive_positive",
            "negative numbers",
            _wrong_sign("÷/", True, False, "taking negative ÷ positive to be positive"),
        ),
        BugRule(
            "negative_divided_by_negative_negative",
            "negative numbers",
            _wrong_sign("÷/", True, True, "taking negative ÷ negative to be negative"),
        ),
        BugRule("square_of_negative_negative", "negative numbers", _square_of_negative_negative),
        BugRule("negative_square_positive", "negative numbers", _negative_square_positive),
        BugRule("subtracting_negative_ignores_sign", "negative numbers", _subtracting_a_negative),
        BugRule("squaring_as_doubling", "powers", _squaring_as_doubling),
        BugRule("multiplies_by_index", "powers", _multiplies_by_index),
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
    )
}
