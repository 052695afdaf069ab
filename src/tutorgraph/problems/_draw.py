"""Named drawers, the values they draw, and templates over those values.

A row draws its values in order from a spec such as `a=int(12,88); b=int(5, 99-a); n=name`:
each is an expression over the values drawn before it (`c=a+b`, computed by `evaluate`) in
which the drawers of `DRAWERS` are called (`s=10*int(1,9)`, `w=k + pick(1/4, 1/2)`). A number
keeps a style (`decimal` draws decimals, `mixed(x)` marks a mixed number) so it is written the
same way in the text, the expression and the steps. Templates put values in text: `{a}`,
`{a + b}` (an expression, evaluated), `{n}` (a word), `{t.one}` (a word's field), `{a|words}`
(a format of `_format.FORMATS`); `{{` and `}}` are braces of the text.

>>> import random
>>> scope = Scope.drawn(parse_draws("a=int(12,88); b=int(5, 99-a); f=frac(4); t=thing"),
...     random.Random(1))
>>> render("{a} + {b} = {a + b}, {f} of the {t}", scope)
'29 + 13 = 42, 1/4 of the flowers'
>>> literal("{a+b} - f", scope)
'42 - (1/4)'
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from tutorgraph.mathtext.evaluate import FUNCTIONS, Value, evaluate
from tutorgraph.problems._format import FORMATS, decimal_text, show
from tutorgraph.problems._phrasing import Entry, table

__all__ = ["DRAWERS", "Draw", "Scope", "literal", "parse_draws", "render"]

_NAME = re.compile(r"'[^']*'|\"[^\"]*\"|\b[A-Za-z_]\w*(?:\.\w+)?")
_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
_TEXT = re.compile(r"\{\{|\}\}|\{([^{}]+)\}")


@dataclass
class Scope:
    """The values one problem has drawn, and the style each number is written in."""

    values: dict[str, Value | Entry] = field(default_factory=dict)
    styles: dict[str, str] = field(default_factory=dict)

    @classmethod
    def drawn(cls, draws: Sequence[Draw], rng: random.Random) -> Scope:
        scope = cls()
        for draw in draws:
            draw.into(scope, rng)
        return scope

    def get(self, name: str) -> Value:
        """A value by name; a word's text, or its field (`t.one`, `shape.sides`)."""
        base, _, part = name.partition(".")
        if base not in self.values:
            raise ValueError(f"no value {base!r} drawn")
        value = self.values[base]
        if isinstance(value, dict):
            if (part or "text") not in value:
                raise ValueError(f"{base!r} has no field {part!r}")
            return value[part or "text"]
        if part in ("num", "den") and isinstance(value, Fraction):
            return Fraction(value.numerator if part == "num" else value.denominator)
        if part:
            raise ValueError(f"{base!r} has no field {part!r}")
        return value

    def style_of(self, expression: str) -> str:
        """The style of the names in an expression: the one non-plain style they have, a
        decimal's when decimals meet other styles, else plain ("")."""
        names = {m.split(".")[0] for m in _NAME.findall(expression) if m[0] not in "'\""}
        styles = {self.styles.get(n, "") for n in names if n in self.values} - {""}
        if re.search(r"\d\.\d", expression):
            styles.add("dec")
        if len(styles) == 1:
            return styles.pop()
        return "dec" if styles & {"dec", "money"} else ""

    def number(self, expression: str) -> Fraction:
        value = self.value(expression)
        if not isinstance(value, Fraction):
            raise ValueError(f"{expression!r} is not a number")
        return value

    def value(self, expression: str) -> Value:
        if re.fullmatch(r"[A-Za-z_]\w*(?:\.\w+)?", expression):
            return self.get(expression)
        return evaluate(literal(expression, self))


def _literal(value: Value, style: str) -> str:
    if isinstance(value, str):
        return repr(value)
    sign, size = ("-", -value) if value < 0 else ("", value)
    if size.denominator == 1:
        text = str(size.numerator)
    elif style in ("dec", "money") and (dec := decimal_text(size, 8)) is not None:
        text = dec.replace(",", "")
    elif style == "mixed" and size > 1:
        text = f"{int(size)} + {size.numerator % size.denominator}/{size.denominator}"
    else:
        text = f"{size.numerator}/{size.denominator}"
    return f"({sign}{text})" if sign or "/" in text else text


def literal(expression: str, scope: Scope) -> str:
    """The expression with its names replaced by the values drawn (what `evaluate` reads); a
    `{part}` becomes the one number the problem states (`{a+b} - b` is "660 - 181")."""
    expression = _PLACEHOLDER.sub(
        lambda m: _literal(scope.value(m[1]), scope.style_of(m[1])), expression
    )

    def swap(m: re.Match[str]) -> str:
        name = m.group()
        if name[0] in "'\"" or name in FUNCTIONS:
            return name
        return _literal(scope.get(name), scope.styles.get(name.split(".")[0], ""))

    return _NAME.sub(swap, expression)


@cache
def _placeholder(body: str) -> tuple[str, str, str]:
    expression, _, fmt = body.partition("|")
    name, _, arg = fmt.partition(":")
    if name and name not in FORMATS:
        raise ValueError(f"no format {name!r} in {{{body}}}")
    return expression.strip(), name, arg


def render(template: str, scope: Scope) -> str:
    """The template with each `{expression|format:arg}` replaced by its text."""

    def fill(m: re.Match[str]) -> str:
        expression, fmt, arg = _placeholder(m.group(1))
        value = scope.value(expression)
        if isinstance(value, str):
            return value
        if fmt:
            if arg in scope.values:
                arg = render("{" + arg + "}", scope)
            elif fmt in ("paren", "sign", "coef") and not arg:
                arg = scope.style_of(expression)
            return FORMATS[fmt](value, arg)
        return show(value, scope.style_of(expression))

    # Doubled braces are braces of the text ("{{9 + [8 × 2]}}"), read left to right.
    return _TEXT.sub(lambda m: m[0][0] if m[0] in ("{{", "}}") else fill(m), template)


Drawer = Callable[[random.Random, list[Value]], tuple[Value | Entry, str]]


def _int(rng: random.Random, args: list[Value]) -> tuple[Value, str]:
    lo, hi, *step = (int(_num(a)) for a in args)
    if hi < lo:
        raise ValueError(f"int({lo}, {hi}): an empty range")
    return Fraction(rng.randrange(lo, hi + 1, step[0] if step else 1)), ""


def _nonzero(rng: random.Random, args: list[Value]) -> tuple[Value, str]:
    lo, hi = (int(_num(a)) for a in args)
    return Fraction(rng.choice([n for n in range(lo, hi + 1) if n])), ""


def _frac(rng: random.Random, args: list[Value]) -> tuple[Value, str]:
    den = int(_num(rng.choice(args)))
    return Fraction(rng.randint(1, den - 1), den), ""


def _decimal(rng: random.Random, args: list[Value]) -> tuple[Value, str]:
    lo, hi, places = (_num(a) for a in args)
    scale = 10 ** int(places)
    n = rng.randint(int(lo * scale), int(hi * scale))
    if places and n % 10 == 0:
        n += rng.randint(1, 9)
    return Fraction(n, scale), "dec"


def _word(name: str) -> Drawer:
    def draw(rng: random.Random, args: list[Value]) -> tuple[Entry, str]:
        return rng.choice([e for e in table(name) if e["text"] not in args]), ""

    return draw


def _num(value: Value) -> Fraction:
    if not isinstance(value, Fraction):
        raise ValueError(f"{value!r} is not a number")
    return value


def _styled(style: str) -> Drawer:
    return lambda _rng, args: (_num(args[0]), style)


def _rational(rng: random.Random, args: list[Value]) -> tuple[Value, str]:
    """A signed number of a kind: 'int' (to 25), 'dec' (tenths, hundredths, quarters) or 'frac'."""
    kind = args[0] if args else "int"
    top = rng.choice([n for n in range(-25, 26) if n])
    if kind == "dec":
        return Fraction(
            rng.choice([n for n in range(-200, 201) if n]), rng.choice((10, 100, 4))
        ), "dec"
    if kind == "frac":
        return Fraction(rng.choice([n for n in range(-11, 12) if n]), rng.randint(2, 12)), "frac"
    return Fraction(top), ""


def _int_not(rng: random.Random, args: list[Value]) -> tuple[Value, str]:
    lo, hi, *excluded = (int(_num(a)) for a in args)
    return Fraction(rng.choice([n for n in range(lo, hi + 1) if n not in excluded])), ""


DRAWERS: dict[str, Drawer] = {
    "int": _int,
    # A whole number in a range other than the ones given: int_not(1, 10, a).
    "int_not": _int_not,
    "nz": _nonzero,
    "rat": _rational,
    "pick": lambda rng, args: (rng.choice(args), ""),
    "frac": _frac,
    "decimal": _decimal,
    "name": _word("names"),
    "thing": _word("things"),
    "dec": _styled("dec"),
    "money": _styled("money"),
    "mixed": _styled("mixed"),
    "fraction": _styled("frac"),
}


@dataclass(frozen=True)
class Draw:
    """One value of a row, `name=expression`: drawer calls in it (`int(1,9)`, `name`,
    `word(TABLE)`, `k + pick(1/4, 1/2)`) are drawn, left to right, then it is evaluated."""

    name: str
    rhs: str

    def into(self, scope: Scope, rng: random.Random) -> None:
        scope.values[self.name], scope.styles[self.name] = _drawn(self.rhs, scope, rng)


_CALL = re.compile(rf"\b({'|'.join(DRAWERS)}|word)\(")


def _calls(text: str) -> list[tuple[int, int]]:
    """The spans of the outermost drawer calls in an expression."""
    spans: list[tuple[int, int]] = []
    for m in _CALL.finditer(text):
        if spans and m.start() < spans[-1][1]:
            continue
        depth, end = 0, m.end() - 1
        for end in range(m.end() - 1, len(text)):
            depth += (text[end] == "(") - (text[end] == ")")
            if depth == 0:
                break
        if depth:
            raise ValueError(f"unbalanced parentheses in {text!r}")
        spans.append((m.start(), end + 1))
    return spans


def _combined(styles: set[str]) -> str:
    styles = styles - {""}
    if len(styles) == 1:
        return styles.pop()
    return "dec" if styles & {"dec", "money"} else ""


def _drawn(text: str, scope: Scope, rng: random.Random) -> tuple[Value | Entry, str]:
    text = text.strip()
    if text in DRAWERS:
        text += "()"
    spans = _calls(text)
    if spans == [(0, len(text))]:
        name, _, inner = text[:-1].partition("(")
        args = _split_args(inner)
        if name == "word":
            excluded = [_drawn(a, scope, rng)[0] for a in args[1:]]
            return _word(args[0])(rng, excluded)  # type: ignore[arg-type]
        values = [_drawn(a, scope, rng) for a in args]
        value, style = DRAWERS[name](rng, [v for v, _ in values])  # type: ignore[misc]
        if name == "pick":
            style = _combined({st for _, st in values})
        return value, style
    styles, out, pos = {scope.style_of(text)}, "", 0
    for start, end in spans:
        value, style = _drawn(text[start:end], scope, rng)
        if isinstance(value, dict):
            raise ValueError(f"a word cannot be part of an expression: {text!r}")
        styles.add(style)
        out += text[pos:start] + _literal(value, style)
        pos = end
    return scope.value(out + text[pos:]), _combined(styles)


def _split_args(text: str) -> tuple[str, ...]:
    out, depth, current = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            out.append(current.strip())
            current = ""
        else:
            current += ch
    return (*out, current.strip()) if current.strip() else tuple(out)


@cache
def parse_draws(spec: str) -> tuple[Draw, ...]:
    """The draws of a spec `a=int(1,9); n=name; c=a+b`, in order."""
    draws = []
    for part in filter(None, (p.strip() for p in spec.split(";"))):
        name, eq, rhs = part.partition("=")
        if not eq or not name.strip().isidentifier() or not rhs.strip():
            raise ValueError(f"not a draw: {part!r}")
        _calls(rhs)
        draws.append(Draw(name.strip(), rhs.strip()))
    return tuple(draws)
