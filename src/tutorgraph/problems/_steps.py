"""Worked steps read off an answer expression, in the method a student of the grade uses.

One operation on two numbers gets its school method (count on, make a ten, column addition
and subtraction with regrouping, skip counting, partial products and quotients, common
denominators, decimal places, the sign rules); a function gets its own (factors, multiples,
ordering, rounding); anything larger is worked innermost first, one operation a step. Every
number a step shows is computed by `evaluate` from a part of the expression, and the last
step states the answer as the problem gives it, so a step never disagrees with the answer.

>>> work("52 - 38", "14")
['Ones: 2 - 8 needs a ten from the tens: 12 - 8 = 4.', 'Tens: 4 - 3 = 1.', 'So 52 - 38 = 14.']
>>> work("8 + 5", "13")
['Make a ten: 8 + 2 = 10.', 'Break 5 into 2 and 3.', '10 + 3 = 13.', 'So 8 + 5 = 13.']
>>> work("(3/4) + (1/6)", "11/12")[0]
'Use the common denominator 12: 3/4 = 9/12 and 1/6 = 2/12.'
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from fractions import Fraction

from tutorgraph.mathtext.evaluate import Value, evaluate
from tutorgraph.problems._format import show

__all__ = ["cap", "work"]

_PLACES = (
    "ones", "tens", "hundreds", "thousands", "ten thousands", "hundred thousands", "millions",
    "ten millions", "hundred millions", "billions",
)  # fmt: skip
_SYMBOL = {ast.Add: "+", ast.Sub: "-", ast.Mult: "×", ast.Div: "÷", ast.FloorDiv: "//"}
_SYMBOL |= {ast.Mod: "mod", ast.Pow: "^"}
_PRECEDENCE = {"+": 1, "-": 1, "×": 2, "÷": 2, "//": 2, "mod": 2, "^": 3}
_UNITS = {1: "tenths", 2: "hundredths", 3: "thousandths", 4: "ten-thousandths"}
_CALLS = {
    "gcd": "the greatest common factor of {}",
    "lcm": "the least common multiple of {}",
    "max": "the greatest of {}",
    "min": "the least of {}",
    "mean": "the mean of {}",
    "median": "the median of {}",
    "abs": "|{}|",
    "sqrt": "the square root of {}",
    "cbrt": "the cube root of {}",
    "floor": "the whole number at or below {}",
    "ceil": "the whole number at or above {}",
    "round_to": "{} rounded to the nearest unit",
    "count": "how many times the first of {} comes up in the rest",
    "count_above": "how many of the rest of {} are greater than the first",
    "quartile1": "the lower quartile of {}",
    "quartile3": "the upper quartile of {}",
}


@dataclass(frozen=True)
class _Node:
    """A part of the expression: its value, how it is written, and its parts."""

    value: Value
    text: str
    kind: str  # "int", "dec", "frac", "mixed", "text", "op", "call", "neg"
    op: str = ""
    parts: tuple[_Node, ...] = ()

    @property
    def number(self) -> Fraction:
        assert isinstance(self.value, Fraction)
        return self.value

    @property
    def literal(self) -> bool:
        return self.kind in ("int", "dec", "frac", "mixed")


def _read(node: ast.expr, src: str) -> _Node:
    segment = ast.get_source_segment(src, node) or ast.unparse(node)
    value = evaluate(ast.unparse(node))
    if isinstance(node, ast.Constant):
        if isinstance(value, str):
            return _Node(value, value, "text")
        if "." in segment:
            return _Node(value, segment, "dec")
        return _Node(value, show(value), "int")
    if isinstance(node, ast.UnaryOp):
        inner = _read(node.operand, src)
        if inner.literal:
            text = inner.text[1:] if inner.text.startswith("-") else "-" + inner.text
            return _Node(value, text, inner.kind, "", inner.parts)
        return _Node(value, "-" + _wrap(inner, 3), "neg", "-", (inner,))
    if isinstance(node, ast.BinOp):
        left, right = _read(node.left, src), _read(node.right, src)
        op = _SYMBOL[type(node.op)]
        if op == "÷" and " " not in segment and left.kind == right.kind == "int":
            return _Node(value, segment.strip("()"), "frac", "", (left, right))
        wrapped = (
            src[node.col_offset - 1 : node.col_offset] == "("
            and src[node.end_col_offset or 0 : (node.end_col_offset or 0) + 1] == ")"
        )
        if op == "+" and left.kind == "int" and right.kind == "frac" and wrapped:
            return _Node(value, f"{left.text} {right.text}", "mixed", "", (left, right))
        return _Node(value, "", "op", op, (left, right))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        args = tuple(_read(a, src) for a in node.args)
        return _Node(value, node.func.id, "call", node.func.id, args)
    raise ValueError(f"cannot explain {segment!r}")


def _wrap(node: _Node, precedence: int) -> str:
    text = pretty(node)
    if node.kind == "op" and _PRECEDENCE[node.op] < precedence:
        return f"({text})"
    if node.kind == "call" and " " in text and not text.startswith("|"):
        return f"({text})"
    if node.literal and text.startswith("-"):
        return f"({text})"
    return text


def pretty(node: _Node) -> str:
    """The expression as a student writes it: × and ÷, mixed numbers, names of functions."""
    if node.kind == "op":
        p = _PRECEDENCE[node.op]
        left, right = node.parts
        op = "÷" if node.op == "//" else node.op
        return f"{_wrap(left, p)} {op} {_wrap(right, p + (node.op != '^'))}"
    if node.kind == "call":
        if node.op == "round_to":
            return f"{pretty(node.parts[0])} rounded to the nearest {pretty(node.parts[1])}"
        names = [pretty(a) for a in node.parts]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return _CALLS.get(node.op, node.op + "({})").format(listed)
    return node.text


class _Shower:
    """Writes computed numbers in the expression's style (decimals stay decimals)."""

    def __init__(self, root: _Node) -> None:
        kinds = set(_kinds(root))
        self.style = "dec" if "dec" in kinds else "mixed" if "mixed" in kinds else ""

    def __call__(self, x: Fraction | int) -> str:
        return show(Fraction(x), self.style)


def _kinds(node: _Node) -> list[str]:
    return [node.kind] + [k for p in node.parts for k in _kinds(p)]


def work(expression: str, answer: str) -> list[str]:
    """The steps that get from the expression to the answer (empty for a bare value)."""
    tree = _read(ast.parse(expression, mode="eval").body, expression)
    if tree.literal or tree.kind == "text":
        return []
    s = _Shower(tree)
    if "." in answer:
        s.style = "dec"
    lines = _method(tree, s) or _stepwise(tree, s)
    if tree.kind == "op" and tree.op not in ("//", "mod"):
        lines.append(f"So {pretty(tree)} = {answer}.")
    elif tree.kind == "op" or not any(answer in line for line in lines):
        lines.append(f"So the answer is {answer}.")
    return cap(lines)


def cap(lines: list[str], most: int = 5) -> list[str]:
    """At most `most` steps: the shortest neighbouring pair is joined until they fit."""
    lines = list(lines)
    while len(lines) > most:
        i = min(range(len(lines) - 2), key=lambda k: len(lines[k]) + len(lines[k + 1]))
        lines[i : i + 2] = [lines[i].rstrip(".") + "; " + lines[i + 1]]
    return lines


def _stepwise(tree: _Node, s: _Shower) -> list[str]:
    """Innermost operation first, one a step; literal parts are left as they are."""
    lines: list[str] = []

    def reduce(node: _Node) -> _Node:
        if node.literal or node.kind == "text":
            return node
        parts = tuple(reduce(p) for p in node.parts)
        shown = _Node(node.value, node.text, node.kind, node.op, parts)
        text = pretty(shown)
        if isinstance(node.value, str):
            lines.append(f"{text[:1].upper()}{text[1:]} is {node.value}.")
            return _Node(node.value, node.value, "text")
        value = node.number
        verb = "=" if node.kind in ("op", "neg") else "is"
        lines.append(f"{text[:1].upper()}{text[1:]} {verb} {s(value)}.")
        kind = "int" if value.denominator == 1 else "dec" if s.style == "dec" else "frac"
        return _Node(value, s(value), kind)

    reduce(tree)
    return lines


def _method(tree: _Node, s: _Shower) -> list[str] | None:
    """A school method for one operation on two numbers or one function of numbers."""
    if tree.kind == "call" and all(a.literal for a in tree.parts):
        return _call(tree, s)
    if tree.kind != "op" or not all(p.literal for p in tree.parts):
        return None
    left, right = tree.parts
    a, b = left.number, right.number
    if a < 0 or b < 0:
        return _signed(tree.op, a, b, s)
    if "dec" in (left.kind, right.kind):
        return _decimal(tree.op, left, right, s)
    if left.kind == right.kind == "int" and tree.op in ("÷", "//") and b:
        return _divide(int(a), int(b), tree.op, s.style == "dec")
    if {left.kind, right.kind} & {"frac", "mixed"} or tree.value != int(tree.number):
        return _fractions(tree.op, left, right, s)
    x, y = int(a), int(b)
    if tree.op == "+":
        return _add(x, y)
    if tree.op == "-":
        return _subtract(x, y)
    if tree.op == "×":
        return _multiply(x, y)
    if tree.op == "mod" and y:
        q = x // y
        return [f"{y} × {q} = {y * q} is the most that fits in {x}.", f"{x} - {y * q} = {x % y}."]
    if tree.op == "^" and 0 < y <= 4:
        return [f"{x}^{y} means {' × '.join([str(x)] * y)}.", f"That is {s(x**y)}."]
    return None


def _digits(n: int) -> list[int]:
    return [int(c) for c in reversed(str(n))]


def _tens(n: int) -> str:
    return f"{n // 10} ten{'s' * (n != 10)}"


def _add(a: int, b: int) -> list[str]:
    total, big, small = a + b, max(a, b), min(a, b)
    if small == 0:
        return [f"Adding 0 leaves {big} as it is."]
    if (total <= 10 and small <= 5) or small <= 3:
        counted = ", ".join(map(str, range(big + 1, total + 1)))
        return [f"Start at {big} and count on {small}: {counted}."]
    if a % 10 == b % 10 == 0 and total < 1000:
        return [f"Think in tens: {_tens(a)} + {_tens(b)} = {_tens(total)}."]
    if big < 10 and total > 10:
        need = 10 - big
        return [
            f"Make a ten: {big} + {need} = 10.",
            f"Break {small} into {need} and {small - need}.",
            f"10 + {small - need} = {total}.",
        ]
    lines, carry = [], 0
    da, db = _digits(a), _digits(b)
    for i in range(max(len(da), len(db))):
        x, y = (da[i] if i < len(da) else 0), (db[i] if i < len(db) else 0)
        t = x + y + carry
        carried = f" + {carry}" if carry else ""
        line = f"{_PLACES[i].capitalize()}: {x} + {y}{carried} = {t}"
        if t >= 10:
            line += f"; write {t % 10} and carry 1 to the {_PLACES[i + 1]}"
        lines.append(line + ".")
        carry = t // 10
    return lines


def _subtract(a: int, b: int) -> list[str]:
    diff = a - b
    if 0 < b <= 3 and diff >= 0:
        back = ", ".join(str(a - k) for k in range(1, b + 1))
        return [f"Count back {b} from {a}: {back}."]
    if a % 10 == b % 10 == 0 and b and diff >= 0 and a < 1000:
        return [f"Think in tens: {_tens(a)} - {_tens(b)} = {_tens(diff)}."]
    if a <= 20 and b <= 10 and diff >= 0:
        if b == 0:
            return [f"Taking away 0 leaves {a} as it is."]
        if b <= 3:
            back = ", ".join(str(a - k) for k in range(1, b + 1))
            return [f"Count back {b} from {a}: {back}."]
        if a > 10 and b > a - 10:
            first = a - 10
            return [
                f"Take {first} to get to 10: {a} - {first} = 10.",
                f"Take {b - first} more: 10 - {b - first} = {diff}.",
            ]
        return [f"Think addition: {b} + ? = {a}.", f"{b} + {diff} = {a}."]
    if diff < 0:
        return [f"{b} is more than {a}, so the answer is below zero: {diff}."]
    lines, borrow = [], 0
    da, db = _digits(a), _digits(b)
    for i in range(len(da)):
        x, y = da[i], (db[i] if i < len(db) else 0)
        top = f"{x} - 1" if borrow and x == 0 else str(x - borrow)
        have = x - borrow
        if i >= len(db) and not borrow:
            if i == len(da) - 1 and x == 0:
                break
            lines.append(f"{_PLACES[i].capitalize()}: {x} stays {x}.")
            continue
        if have < y:
            lines.append(
                f"{_PLACES[i].capitalize()}: {top} - {y} needs a ten from the "
                f"{_PLACES[i + 1]}: {have + 10} - {y} = {have + 10 - y}."
            )
            borrow = 1
        else:
            if i == len(da) - 1 and have - y == 0 and i >= len(db):
                break
            lines.append(f"{_PLACES[i].capitalize()}: {top} - {y} = {have - y}.")
            borrow = 0
    return lines


def _multiply(a: int, b: int) -> list[str]:
    product = a * b
    if min(a, b) <= 1:
        return [f"Any number times {min(a, b)} is {'itself' if min(a, b) else '0'}: {product}."]
    zeros = [len(str(n)) - len(str(n).rstrip("0")) for n in (a, b)]
    core_a, core_b = a // 10 ** zeros[0], b // 10 ** zeros[1]
    if sum(zeros):
        z = sum(zeros)
        return [
            f"{core_a} × {core_b} = {core_a * core_b}.",
            f"Put back the {z} zero{'s' * (z > 1)}: {show(Fraction(product))}.",
        ]
    if a <= 12 and b <= 12:
        for x, y in ((a, b), (b, a)):
            if y <= 5:
                counts = ", ".join(str(x * k) for k in range(1, y + 1))
                return [f"{a} × {b} is {y} groups of {x}.", f"Skip count by {x}: {counts}."]
        return [
            f"Split {b} into 5 and {b - 5}.",
            f"{a} × 5 = {a * 5} and {a} × {b - 5} = {a * (b - 5)}.",
            f"{a * 5} + {a * (b - 5)} = {product}.",
        ]
    big, small = (a, b) if len(str(b)) == 1 or a < b else (b, a)
    if len(str(small)) > 1:
        big, small = small, big
    parts = [d * 10**i for i, d in reversed(list(enumerate(_digits(big)))) if d]
    products = [p * small for p in parts]
    shown = "; ".join(
        f"{show(Fraction(p))} × {small} = {show(Fraction(q))}"
        for p, q in zip(parts, products, strict=True)
    )
    return [
        f"Split {show(Fraction(big))} into {' + '.join(show(Fraction(p)) for p in parts)}.",
        f"Multiply each part: {shown}.",
        f"Add: {' + '.join(show(Fraction(q)) for q in products)} = {show(Fraction(product))}.",
    ]


def _divide(a: int, b: int, op: str, decimal: bool = False) -> list[str]:
    q, r = divmod(a, b)
    places = next((k for k in range(1, 5) if (a * 10**k) % b == 0), 0)
    if r and op == "÷" and q == 0 and not places:
        lines = [f"{a} ÷ {b} is the fraction {a}/{b}."]
        if math.gcd(a, b) > 1:
            lines.append(f"Divide top and bottom by {math.gcd(a, b)}: {show(Fraction(a, b))}.")
        return lines
    if r and op == "÷" and places and (decimal or q == 0):
        unit = _UNITS.get(places, "ten-thousandths")
        big = a * 10**places
        return [
            f"Write {a} as {show(Fraction(big))} {unit}.",
            f"{show(Fraction(big))} {unit} ÷ {b} = {show(Fraction(big // b))} {unit}, "
            f"which is {show(Fraction(a, b), 'dec')}.",
        ]
    if r:
        lines = [f"{b} × {q} = {b * q}, and {a} - {b * q} = {r} is left over."]
        if op == "÷":
            lines.append(f"Split the {r} left over into {b} parts too: {q} and {r}/{b}.")
        return lines
    if (q <= 12 and b <= 12) or len(str(q).rstrip("0")) == 1:
        return [f"Think: {b} × ? = {a}.", f"{b} × {q} = {a}."]
    lines, left, parts = [], a, []
    for k in range(len(str(q)) - 1, -1, -1):
        m = left // (b * 10**k) * 10**k
        if m:
            lines.append(f"{b} × {m} = {b * m}; {left} - {b * m} = {left - b * m} left.")
            left -= b * m
            parts.append(m)
    if len(parts) > 1:
        lines.append(f"Add the parts: {' + '.join(map(str, parts))} = {q}.")
    return lines


def _signed(op: str, a: Fraction, b: Fraction, s: _Shower) -> list[str] | None:
    if op == "-":
        return [
            f"Subtracting {s(b)} is adding its opposite: {s(a)} + ({s(-b)}).",
            *_signed_add(a, -b, s),
        ]
    if op == "+":
        return _signed_add(a, b, s)
    if op in ("×", "÷") and b:
        size = abs(a) * abs(b) if op == "×" else abs(a) / abs(b)
        verb = "Multiply" if op == "×" else "Divide"
        sign = (
            "the same, so it is positive" if (a < 0) == (b < 0) else "different, so it is negative"
        )
        result = size if (a < 0) == (b < 0) else -size
        return [
            f"{verb} the sizes: {s(abs(a))} {op} {s(abs(b))} = {s(size)}.",
            f"The signs are {sign}: {s(result)}.",
        ]
    return None


def _signed_add(a: Fraction, b: Fraction, s: _Shower) -> list[str]:
    if (a < 0) == (b < 0) or 0 in (a, b):
        total = abs(a) + abs(b)
        sign = "negative" if a < 0 or b < 0 else "positive"
        return [
            f"Both are {sign}: add the sizes, {s(abs(a))} + {s(abs(b))} = {s(total)}.",
            f"Keep the sign: {s(a + b)}.",
        ]
    big, small = (a, b) if abs(a) >= abs(b) else (b, a)
    return [
        f"The signs differ: subtract the sizes, {s(abs(big))} - {s(abs(small))} = {s(abs(a + b))}.",
        f"{s(big)} is farther from 0, so the sum takes its sign: {s(a + b)}.",
    ]


def _decimal(op: str, left: _Node, right: _Node, s: _Shower) -> list[str] | None:
    places = [len(n.text.split(".")[1]) if "." in n.text else 0 for n in (left, right)]
    a, b = left.number, right.number
    if op in ("+", "-"):
        k = max(places)
        A, B = int(a * 10**k), int(b * 10**k)
        unit = _UNITS.get(k, f"1/{10**k}s")
        result = a + b if op == "+" else a - b
        return [
            f"Line up the decimal points: {_fixed(a, k)} {op} {_fixed(b, k)}.",
            f"Work in {unit}: {A} {op} {B} = {A + B if op == '+' else A - B}.",
            f"Put the point back {k} place{'s' * (k > 1)} from the right: {s(result)}.",
        ]
    if op == "×":
        A, B = int(a * 10 ** places[0]), int(b * 10 ** places[1])
        k = sum(places)
        return [
            f"Multiply without the points: {A} × {B} = {show(Fraction(A * B))}.",
            f"The factors have {places[0]} + {places[1]} = {k} decimal places, "
            f"so the product has {k}: {s(a * b)}.",
        ]
    if op == "÷" and b:
        k = places[1]
        if k == 0:
            return [
                f"Share {s(a)} into {s(b)} equal parts: each is {s(a / b)}.",
                f"Check: {s(a / b)} × {s(b)} = {s(a)}.",
            ]
        return [
            f"Multiply both by {10**k} so the divisor is whole: {s(a * 10**k)} ÷ {s(b * 10**k)}.",
            f"{s(a * 10**k)} ÷ {s(b * 10**k)} = {s(a / b)}.",
        ]
    return None


def _fixed(x: Fraction, places: int) -> str:
    """`x` with exactly `places` decimal places (2.4 with 2 places is 2.40)."""
    digits = str(abs(int(x * 10**places))).rjust(places + 1, "0")
    return ("-" if x < 0 else "") + digits[:-places] + "." + digits[-places:]


def _parts(node: _Node) -> tuple[int, int]:
    """A fraction as written (6/8 stays 6/8); a whole number n as n/1."""
    if node.kind == "frac":
        top, _, bottom = node.text.partition("/")
        return int(top), int(bottom)
    v = node.number
    return v.numerator, v.denominator


def _fractions(op: str, left: _Node, right: _Node, s: _Shower) -> list[str] | None:
    lines = [
        f"Write {n.text} as {n.number.numerator}/{n.number.denominator}."
        for n in (left, right)
        if n.kind == "mixed"
    ]
    (n1, d1), (n2, d2) = _parts(left), _parts(right)
    if left.kind == "int" and right.kind != "int" and op in ("+", "-"):
        n1, d1 = n1 * d2, d2
        lines.append(f"Write {left.text} as {n1}/{d1}.")
    if right.kind == "int" and left.kind != "int" and op in ("+", "-"):
        n2, d2 = n2 * d1, d1
        lines.append(f"Write {right.text} as {n2}/{d2}.")
    result = Fraction(n1, d1)
    if op in ("+", "-"):
        sign = 1 if op == "+" else -1
        if d1 != d2:
            common = math.lcm(d1, d2)
            m1, m2 = n1 * common // d1, n2 * common // d2
            lines.append(
                f"Use the common denominator {common}: "
                f"{n1}/{d1} = {m1}/{common} and {n2}/{d2} = {m2}/{common}."
            )
            n1, n2, d1 = m1, m2, common
        top = n1 + sign * n2
        verb = "add" if op == "+" else "subtract"
        lines.append(
            f"The denominators match, so {verb} the numerators: "
            f"{n1} {op} {n2} = {top}, giving {top}/{d1}."
        )
        result, bottom = Fraction(top, d1), d1
    elif op == "×":
        lines.append(
            f"Multiply the numerators and the denominators: "
            f"{n1} × {n2} = {n1 * n2} and {d1} × {d2} = {d1 * d2}."
        )
        result = Fraction(n1 * n2, d1 * d2)
        top, bottom = n1 * n2, d1 * d2
    elif op == "÷" and n2:
        divisor = right.text if right.kind != "mixed" else f"{n2}/{d2}"
        flip = show(Fraction(d2, n2)) if n2 == 1 or d2 % n2 == 0 else f"{d2}/{n2}"
        lines.append(f"Dividing by {divisor} is multiplying by {flip}.")
        lines.append(
            f"{n1} × {d2} = {n1 * d2} and {d1} × {n2} = {d1 * n2}, giving "
            f"{n1 * d2}{'' if d1 * n2 == 1 else f'/{d1 * n2}'}."
        )
        result = Fraction(n1 * d2, d1 * n2)
        top, bottom = n1 * d2, d1 * n2
    else:
        return None
    if (top, bottom) != (result.numerator, result.denominator):
        lines.append(f"{top}/{bottom} = {s(result)}.")
    return lines


def _call(tree: _Node, s: _Shower) -> list[str] | None:
    args = [a.number for a in tree.parts]
    fn = tree.op
    if fn in ("max", "min", "median"):
        ordered = sorted(args)
        # Numbers as the problem writes them (2/6 stays 2/6).
        written = {a.number: a.text for a in tree.parts} if fn != "median" else {}
        shown = [written.get(x) or s(x) for x in ordered]
        sep = " < " if len(set(args)) == len(args) else ", "
        line = "Put them in order: " + sep.join(shown)
        if fn == "median" and len(args) % 2 == 0:
            lo, hi = ordered[len(args) // 2 - 1], ordered[len(args) // 2]
            return [
                line + ".",
                f"The middle two are {s(lo)} and {s(hi)}; halfway between is {s((lo + hi) / 2)}.",
            ]
        pickd = {"max": ordered[-1], "min": ordered[0], "median": ordered[len(args) // 2]}[fn]
        which = {"max": "greatest", "min": "least", "median": "middle"}[fn]
        compare = _compare_line(tree.parts)
        return [*compare, line + ".", f"The {which} is {written.get(pickd) or s(pickd)}."]
    if fn == "cmp" and len(args) == 2:
        a, b = args
        rel = "greater than" if a > b else "less than" if a < b else "equal to"
        sym = ">" if a > b else "<" if a < b else "="
        return [
            *_compare_line(tree.parts),
            f"{tree.parts[0].text} is {rel} {tree.parts[1].text}.",
            f"So {tree.parts[0].text} {sym} {tree.parts[1].text}.",
        ]
    if fn in ("count", "count_above"):
        x, rest = args[0], args[1:]
        hits = [v for v in rest if (v == x if fn == "count" else v > x)]
        listed = ", ".join(s(v) for v in hits) or "none"
        what = f"equal to {s(x)}" if fn == "count" else f"greater than {s(x)}"
        return [
            f"Go through the list: {', '.join(s(v) for v in rest)}.",
            f"The values {what}: {listed}.",
            f"That is {len(hits)}.",
        ]
    if fn in ("quartile1", "quartile3"):
        ordered = sorted(args)
        n = len(ordered)
        part = ordered[(n + 1) // 2 :] if fn == "quartile3" else ordered[: n // 2]
        which = "upper" if fn == "quartile3" else "lower"
        return [
            f"Put them in order: {', '.join(s(x) for x in ordered)}.",
            f"The {which} half is {', '.join(s(x) for x in part)}.",
            f"Its middle is the {which} quartile: {s(tree.number)}.",
        ]
    if fn == "mean":
        total = sum(args, Fraction(0))
        return [
            f"Add them: {' + '.join(s(x) for x in args)} = {s(total)}.",
            f"Divide by how many there are, {len(args)}: "
            f"{s(total)} ÷ {len(args)} = {s(total / len(args))}.",
        ]
    if fn in ("gcd", "lcm") and len(args) == 2:
        i, j = (int(v) for v in args)
        if fn == "gcd" and max(i, j) <= 150:
            factors = [", ".join(str(k) for k in range(1, n + 1) if n % k == 0) for n in (i, j)]
            return [
                f"Factors of {i}: {factors[0]}.",
                f"Factors of {j}: {factors[1]}.",
                f"The greatest factor in both lists is {math.gcd(i, j)}.",
            ]
        if fn == "gcd":
            lines, (i, j) = [], (max(i, j), min(i, j))
            while j:
                lines.append(f"{i} = {i // j} × {j} + {i % j}.")
                i, j = j, i % j
            return [*lines, f"The last divisor, {i}, is the greatest common factor."]
        m = math.lcm(i, j)
        if m // max(i, j) <= 12:
            multiples = [", ".join(str(n * k) for k in range(1, m // n + 1)) for n in (i, j)]
            return [
                f"Multiples of {i}: {multiples[0]}.",
                f"Multiples of {j}: {multiples[1]}.",
                f"The first multiple in both lists is {m}.",
            ]
        return None
    if fn == "round_to" and len(args) == 2:
        x, unit = args
        if x == tree.number:
            return [f"{s(x)} is already a multiple of {s(unit)}.", f"Rounding leaves it as {s(x)}."]
        lo = math.floor(x / unit) * unit
        half = lo + unit / 2
        where = (
            "below halfway, so it rounds down"
            if x < half
            else "at or past halfway, so it rounds up"
        )
        return [
            f"{s(x)} is between {s(lo)} and {s(lo + unit)}.",
            f"Halfway is {s(half)}; {s(x)} is {where} to {s(tree.number)}.",
        ]
    if fn == "abs" and len(args) == 1:
        return [
            f"{s(args[0])} is {s(abs(args[0]))} away from 0.",
            f"So |{s(args[0])}| = {s(abs(args[0]))}.",
        ]
    if fn in ("sqrt", "cbrt") and len(args) == 1:
        k = 2 if fn == "sqrt" else 3
        return [
            f"Find the number that, used {k} times as a factor, gives {s(args[0])}.",
            f"{' × '.join([s(tree.number)] * k)} = {s(args[0])}.",
        ]
    return None


def _compare_line(parts: tuple[_Node, ...]) -> list[str]:
    """A common denominator when fractions with different denominators are compared."""
    fracs = [_parts(p) for p in parts if p.kind in ("frac", "mixed")]
    dens = {d for _, d in fracs}
    if len(fracs) < 2 or len(dens) < 2:
        return []
    common = math.lcm(*dens)
    shown = ", ".join(f"{p.text} = {p.number * common}/{common}" for p in parts)
    return [f"Use the common denominator {common}: {shown}."]
