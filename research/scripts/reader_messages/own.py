"""The project's own problems (`source == "own"`): a misconception id is given only where
the wrong answer is exactly what that Eedi misconception produces.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from .problems import Frac, Item, Mixed, Neg, Node, Num, parse, value
from .render import canonical

__all__ = ["OWN_PROBLEMS", "own_items"]


def _m(*ids: int) -> tuple[str, ...]:
    return tuple(f"eedi:misconception:{i}" for i in ids)


# (problem, student answer, misconception ids the answer is exactly produced by). The
# correct answer is computed. A row with no ids is a slip no Eedi label names for sure, or
# a right answer.
OWN_PROBLEMS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    # order of operations: worked left to right (1507)
    ("7 - 2 * 3", "15", _m(1507)),
    ("2 + 3 * 4", "20", _m(1507)),
    ("10 - 4 / 2", "3", _m(1507)),
    ("8 + 12 / 4", "5", _m(1507)),
    ("5 + 2 * 3", "21", _m(1507)),
    ("20 - 3 * 4", "68", _m(1507)),
    ("6 + 6 / 3", "4", _m(1507)),
    ("9 - 3 * 2", "12", _m(1507)),
    ("4 + 5 * 2", "18", _m(1507)),
    # BIDMAS in strict order (2306)
    ("10 - 4 + 3", "3", _m(2306)),
    ("12 / 2 * 3", "2", _m(2306)),
    ("20 - 5 + 2", "13", _m(2306)),
    # brackets ignored (2488)
    ("(2 + 3) * 4", "14", _m(2488)),
    ("(10 - 4) / 2", "8", _m(2488)),
    # powers
    ("3^2", "6", _m(2316, 1072)),
    ("5^2", "10", _m(2316, 1072)),
    ("7^2", "14", _m(2316, 1072)),
    ("0.3^2", "0.6", _m(2316, 1072)),
    ("4^3", "12", _m(1072, 1792)),
    ("2^5", "10", _m(1072, 1792)),
    ("4^2", "6", _m(952)),
    ("5^3", "8", _m(952)),
    ("7^0", "0", _m(1920)),
    ("(-4)^2", "-16", _m(82)),
    ("-3^2", "9", _m(621)),
    # negatives
    ("(-3) * (-4)", "-12", _m(1597)),
    ("-6 * -2", "-12", _m(1597)),
    ("5 * (-3)", "15", _m(974)),
    ("-4 * 6", "24", _m(974)),
    ("12 / (-3)", "4", _m(1558)),
    ("-20 / 5", "4", _m(34)),
    ("-18 / -3", "-6", _m(1400)),
    ("5 - (-3)", "2", _m(2566, 55)),
    ("5 - 8", "3", _m(1958)),
    ("4 - 9", "5", _m(1958)),
    ("-4 + 7", "-11", ()),
    # decimals
    ("0.3 * 0.2", "0.6", _m(2481)),
    ("0.4 * 0.2", "0.8", _m(2481)),
    ("0.5 * 0.3", "1.5", _m(2481)),
    ("0.3 * 0.2", "6", _m(189)),
    ("0.32 + 0.8", "0.4", _m(1730)),
    ("0.5 + 0.25", "0.30", _m(1730)),
    ("2.4 * 10", "2.40", ()),
    # fractions
    ("2/3 + 1/4", "3/7", _m(217)),
    ("1/2 + 1/3", "2/5", _m(217)),
    ("3/5 + 1/4", "4/9", _m(217)),
    ("4/5 - 1/3", "3/2", _m(172)),
    ("5/6 - 1/2", "4/4", _m(172)),
    ("2/3 * 4/5", "6/15", _m(317)),
    ("2/3 / 4/5", "8/15", _m(232)),
    ("3/4 / 1/2", "4/6", _m(1152)),
    ("2/5 * 3", "2/15", _m(78)),
    ("2/5 / 3", "6/5", _m(609)),
    ("2 + 1/3", "3/3", _m(1852)),
    ("1/2 + 1/4", "2/6", _m(217)),
    ("2 1/2 * 2", "4 1/2", ()),
    ("1 1/2 + 2 1/4", "3 2/6", _m(217)),
    # percentages and fractions of amounts
    ("20% of 80", "100", _m(2206)),
    ("30% of 50", "5", _m(914)),
    ("25% of 80", "3.2", _m(2023)),
    ("40% of 120", "4.8", ()),
    ("15% of 60", "4", ()),
    ("1/2 of 30", "60", ()),
    ("3/4 of 20", "5", ()),
    ("1/2 of 48", "96", ()),
    ("1/2 of 7", "3", ()),
    ("1/2 of 3 1/2", "1 1/2", ()),
    # roots
    ("sqrt(16)", "8", _m(2248, 734)),
    ("sqrt(36)", "18", _m(2248, 734)),
    ("sqrt(9)", "81", _m(1012)),
    ("sqrt(49)", "98", _m(2017, 2175)),
    # rounding
    ("round 2.45 to 1 dp", "2.4", _m(1402, 822)),
    ("round 3.67 to 1 dp", "3.6", _m(1379)),
    ("round 4.32 to 1 dp", "4.4", _m(1988)),
    ("round 7.849 to 2 dp", "7.8", _m(2392)),
    ("round 365 to the nearest 10", "360", _m(1402, 822)),
    ("round 0.0456 to 1 sf", "0", ()),
    # whole-number arithmetic
    ("47 + 38", "75", _m(1383)),
    ("52 - 38", "26", _m(1138)),
    ("52 - 38", "24", _m(699)),
    ("6 * 7", "48", ()),
    ("9 * 8", "63", ()),
    ("56 / 8", "8", ()),
    ("144 / 12", "11", ()),
    ("3 * 4", "7", _m(1416, 1319)),
    ("13 * 6", "68", ()),
    ("250 / 5", "5", ()),
    # right answers
    ("7 - 2 * 3", "1", ()),
    ("3/4 + 1/4", "1", ()),
    ("(-2) * (-5)", "10", ()),
    ("0.2 * 0.3", "0.06", ()),
    ("5^2", "25", ()),
    ("10% of 70", "7", ()),
    ("2/3 + 1/4", "11/12", ()),
    ("(-5) + (-2)", "-7", ()),
    ("round 2.45 to 1 dp", "2.5", ()),
    ("sqrt(16)", "4", ()),
    ("3^2", "9", ()),
    ("0.3 * 0.2", "0.06", ()),
    ("5 - 8", "-3", ()),
    ("1/2 of 30", "15", ()),
    ("2 1/2 + 1 1/4", "3 3/4", ()),
    ("12 / (-4)", "-3", ()),
)


def own_items() -> list[Item]:
    items = []
    for i, (problem, answer, mids) in enumerate(OWN_PROBLEMS):
        node = parse(problem)
        if canonical(node) != problem:
            raise ValueError(f"own problem {problem!r} is not canonical: {canonical(node)!r}")
        pv = value(node)
        if pv is None:
            raise ValueError(f"own problem {problem!r} has no exact value")
        ans = parse(answer)
        if canonical(ans) != answer:
            raise ValueError(f"own answer {answer!r} is not canonical")
        right = _value_node(pv, fractions=_has_fraction(node), mixed=_has_mixed(node))
        if mids and value(ans) == pv:
            raise ValueError(f"{problem} = {answer} is right but has misconceptions")
        items.append(Item(f"own:{i:03d}", node, ans, right, mids, None, "own"))
    return items


def _walk(node: Node) -> list[Node]:
    out = [node]
    for name in ("arg", "left", "right", "base", "exp", "pct", "of", "frac", "value"):
        child = getattr(node, name, None)
        if child is not None:
            out.extend(_walk(child))
    return out


def _has_fraction(node: Node) -> bool:
    return any(isinstance(n, Frac | Mixed) for n in _walk(node))


def _has_mixed(node: Node) -> bool:
    return any(isinstance(n, Mixed) for n in _walk(node))


def _value_node(v: Fraction, *, fractions: bool = False, mixed: bool = False) -> Node:
    """A value as a key would write it: a fraction (or mixed number) for a fraction
    problem, else an integer or a terminating decimal, else a fraction."""
    sign = v < 0
    a = abs(v)
    if a.denominator == 1:
        node: Node = Num(str(a.numerator))
    elif mixed and a > 1:
        whole, rest = divmod(a.numerator, a.denominator)
        node = Mixed(str(whole), str(rest), str(a.denominator))
    elif fractions:
        node = Frac(str(a.numerator), str(a.denominator))
    else:
        d = a.denominator
        while d % 2 == 0:
            d //= 2
        while d % 5 == 0:
            d //= 5
        if d == 1:
            text = format(Decimal(a.numerator) / Decimal(a.denominator), "f")
            node = Num(text)
        else:
            node = Frac(str(a.numerator), str(a.denominator))
    return Neg(node) if sign else node
