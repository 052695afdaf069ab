"""Bug rules: what a student who holds one misconception answers to a problem.

Each rule reads the problem's text and its expression tree and returns the answers such a
student would give, each with the sentence that says how. Rules know nothing of misconception
ids: `bug_rules.jsonl` links them (data, reviewed against the misconception texts).

The rules were written from the misconception texts of the Eedi mapping and a few example
questions, never from the labels of the pairs they are scored on.

>>> add_across = next(r for r in BASIC_RULES if r.name == "fraction_add_across")
>>> [r.explanation for r in add_across.apply(Problem.read("2/3 + 1/4"))]
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

__all__ = [
    "BASIC_RULES",
    "BugRule",
    "Problem",
    "Reproduction",
    "fraction_operands",
    "int_of",
    "reproduce",
    "show",
    "unwrap",
]


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


def int_of(node: Node) -> int | None:
    """A non-negative whole number as written."""
    if isinstance(node, Num) and node.value.denominator == 1 and "." not in node.text:
        return node.value.numerator
    return None


def _fraction(node: Node, whole: bool) -> tuple[int, int] | None:
    """`a/b` written with whole numbers (a fraction bar), b > 0; `whole`: `n` as `n/1`."""
    if isinstance(node, BinOp) and node.op == "/":
        a, b = int_of(node.left), int_of(node.right)
        if a is not None and b:
            return a, b
    n = int_of(node) if whole else None
    return None if n is None else (n, 1)


def fraction_operands(
    p: Problem, op: str, *, whole: bool = False
) -> tuple[int, int, int, int] | None:
    """The problem is exactly `a/b <op> c/d` (one side may be whole when `whole`)."""
    t = p.tree
    if isinstance(t, BinOp) and t.op == op:
        left = _fraction(unwrap(t.left), whole)
        right = _fraction(unwrap(t.right), whole)
        if left and right and (left[1], right[1]) != (1, 1):
            return (*left, *right)
    return None


def unwrap(node: Node) -> Node:
    while isinstance(node, Group):
        node = node.inner
    return node


# -- fractions -----------------------------------------------------------------------------


def _add_across(p: Problem) -> list[Reproduction]:
    if (f := fraction_operands(p, "+")) is None:
        return []
    a, b, c, d = f
    return reproduce(
        Fraction(a + c, b + d),
        f"adding the numerators ({a} + {c}) and the denominators ({b} + {d})",
        p.show,
    )


def _subtract_across(p: Problem) -> list[Reproduction]:
    if (f := fraction_operands(p, "-")) is None or f[1] == f[3]:
        return []
    a, b, c, d = f
    return reproduce(
        Fraction(a - c, b - d),
        f"subtracting the numerators ({a} - {c}) and the denominators ({b} - {d})",
        p.show,
    )


def _add_numerators_multiply_denominators(p: Problem) -> list[Reproduction]:
    if (f := fraction_operands(p, "+")) is None or f[1] == f[3]:
        return []
    a, b, c, d = f
    return reproduce(
        Fraction(a + c, b * d),
        f"adding the numerators ({a} + {c}) and multiplying the denominators ({b} × {d})",
        p.show,
    )


def _multiply_adding_numerators(p: Problem) -> list[Reproduction]:
    if (f := fraction_operands(p, "*")) is None:
        return []
    a, b, c, d = f
    return reproduce(
        Fraction(a + c, b * d),
        f"adding the numerators ({a} + {c}) and multiplying the denominators ({b} × {d})",
        p.show,
    )


def _divide_without_reciprocal(p: Problem) -> list[Reproduction]:
    # A fraction by a fraction: a whole dividend or divisor has rules of its own
    # (`whole_divided_by_fraction_multiplies`, `fraction_divided_by_whole_multiplies`).
    if (f := fraction_operands(p, "÷", whole=True)) is None or 1 in (f[1], f[3]):
        return []
    a, b, c, d = f
    return reproduce(
        Fraction(a * c, b * d),
        f"multiplying by {c}/{d} instead of by its reciprocal {d}/{c}",
        p.show,
    )


def _reciprocal_of_first(p: Problem) -> list[Reproduction]:
    if (f := fraction_operands(p, "÷", whole=True)) is None or f[0] == 0:
        return []
    a, b, c, d = f
    return reproduce(
        Fraction(b * c, a * d),
        f"flipping the first fraction ({b}/{a}) instead of the second and multiplying",
        p.show,
    )


def _reciprocal_of_both(p: Problem) -> list[Reproduction]:
    if (f := fraction_operands(p, "÷", whole=True)) is None or f[0] == 0 or f[2] == 0:
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
    node = unwrap(node)
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
        and int_of(t.right) == 2
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
        inner = unwrap(t.right)
        positive = inner.operand if isinstance(inner, Neg) else inner
        return reproduce(
            evaluate(BinOp("-", t.left, positive)), "ignoring one of the two minus signs", p.show
        )
    return []


# -- powers --------------------------------------------------------------------------------


def _powers(p: Problem) -> list[BinOp]:
    return [n for n in _nodes(p.tree) if isinstance(n, BinOp) and n.op == "^"]


def _squaring_as_doubling(p: Problem) -> list[Reproduction]:
    squares = [n for n in _powers(p) if int_of(n.right) == 2]
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


# The rules above, in the order `arithmetic.RULES` lists them.
BASIC_RULES: tuple[BugRule[Problem], ...] = (
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
)
