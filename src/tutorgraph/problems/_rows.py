"""Generators as rows of data, and the one engine that makes a problem from a row.

A band's rows live in `data/<band>.toml`, one table a generator, named by the generator
(its standard before the "/"):

    ["1.NBT.C.5/ten-more-ten-less"]
    bare = "n=int(11,89)"
    ask = '''
    What is 10 more than {n}? => n + 10
    bare: {n} - 10 => n - 10
    Ten less than {n}? => n - 10 ;; Take one ten away: {n} has {n // 10} tens. ;; {work}
    @add-take'''

`word` or `bare` is the kind and holds the draws (`_draw.py`); `ask` the phrasings, one a
line, each `TEXT => EXPRESSION`: `bare:`, `eq:` or `cmp:` before the text puts it in one of
that frame's phrasings (`_phrasing.frame`), `@bank` stands for every phrasing of a shared
table `["@bank"]`. Optional: `steps = [...]`, steps for every phrasing, and `answer =
"mixed"`, how the answer is written.

The answer is the expression's value (`evaluate`), written in the row's style (`as STYLE`
after a phrasing's expression sets its own). The steps are the phrasing's (after `;;`), else
the row's, else `{work}`: the worked steps `_steps.work` reads off the expression; a step may
use `{ans}`. When the last step does not state the answer, one more does.

>>> rows = load("k2")
>>> import random
>>> text, expression, answer, steps = make(rows[0], random.Random(0))
>>> answer == format_value(evaluate(expression)) and answer in steps[-1]
True
"""

from __future__ import annotations

import random
import re
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any

from tutorgraph.mathtext.evaluate import evaluate, format_value
from tutorgraph.problems._draw import Draw, Scope, literal, parse_draws, render
from tutorgraph.problems._format import show_answer
from tutorgraph.problems._phrasing import agree, frame, printed, voice
from tutorgraph.problems._registry import Generator, Kind, Made
from tutorgraph.problems._steps import cap, work

__all__ = [
    "BANDS",
    "Ask",
    "Phrased",
    "Row",
    "generators",
    "load",
    "make",
    "mentions",
    "phrase",
    "work_out",
]

BANDS = ("k2", "34", "56", "78")
_KEYS = {"word", "bare", "ask", "steps", "answer"}
_STYLES = {"", "int", "frac", "dec", "mixed", "money"}
_ASK = re.compile(r"(?:(bare|eq|cmp): )?(.+?) => (.+?)(?: as (\w+))?")


@dataclass(frozen=True)
class Ask:
    """One phrasing: its text template, the frame it goes in, its expression and steps."""

    text: str
    family: str
    expression: str
    style: str
    steps: tuple[str, ...]


@dataclass(frozen=True)
class Row:
    """One generator as data."""

    name: str
    kind: Kind
    draws: tuple[Draw, ...]
    asks: tuple[Ask, ...]
    steps: tuple[str, ...]
    answer: str


def _lines(ask: str | list[str]) -> list[str]:
    """The phrasings of an `ask`: its lines (or a list of them)."""
    lines = ask.split("\n") if isinstance(ask, str) else ask
    return [line.strip() for line in lines if line.strip()]


def _ask(line: str, where: str) -> Ask:
    head, *steps = (part.strip() for part in line.split(" ;; "))
    m = _ASK.fullmatch(head)
    if not m:
        raise ValueError(f"{where}: a phrasing is 'TEXT => EXPRESSION', got {line!r}")
    family, text, expression, style = m[1] or "", m[2], m[3], m[4] or ""
    if style not in _STYLES:
        raise ValueError(f"{where}: no answer style {style!r}")
    return Ask(text, family, expression, style, tuple(steps))


def _row(name: str, data: dict[str, Any], banks: dict[str, tuple[Ask, ...]]) -> Row:
    unknown = set(data) - _KEYS
    kinds = [k for k in ("word", "bare") if k in data]
    if unknown or len(kinds) != 1 or not data.get("ask"):
        raise ValueError(
            f"row {name!r}: needs one of word/bare and ask"
            + (f"; unknown keys {sorted(unknown)}" if unknown else "")
        )
    asks: list[Ask] = []
    for line in _lines(data["ask"]):
        if line.startswith("@"):
            if line not in banks:
                raise ValueError(f"row {name!r}: no bank {line!r}")
            asks.extend(banks[line])
        else:
            asks.append(_ask(line, f"row {name!r}"))
    answer = data.get("answer", "")
    if answer not in _STYLES:
        raise ValueError(f"row {name!r}: no answer style {answer!r}")
    kind: Kind = "word" if kinds[0] == "word" else "bare"
    try:
        draws = parse_draws(data[kinds[0]])
    except ValueError as exc:
        raise ValueError(f"row {name!r}: {exc}") from exc
    return Row(name, kind, draws, tuple(asks), tuple(data.get("steps", ())), answer)


@cache
def _files() -> dict[str, dict[str, Any]]:
    folder = resources.files("tutorgraph.problems") / "data"
    out = {}
    for band in BANDS:
        if not (folder / f"{band}.toml").is_file():
            continue
        with (folder / f"{band}.toml").open("rb") as f:
            out[band] = tomllib.load(f)
    return out


@cache
def _banks() -> dict[str, tuple[Ask, ...]]:
    return {
        key: tuple(_ask(line, f"bank {key!r}") for line in _lines(data["ask"]))
        for tables in _files().values()
        for key, data in tables.items()
        if key.startswith("@")
    }


@cache
def load(band: str) -> tuple[Row, ...]:
    """The rows of a band's data file, in order."""
    banks = _banks()
    return tuple(_row(name, data, banks) for name, data in _files()[band].items() if "/" in name)


def mentions(line: str, answer: str) -> bool:
    """Whether a step states the answer as a whole number, not as a part of one."""
    return re.search(rf"(?<![\w.,/]){re.escape(answer)}(?![\w/]|[.,]\d)", line) is not None


@dataclass(frozen=True)
class Phrased:
    """A problem drawn and phrased, not yet worked out: what `make` has before it
    evaluates the expression and writes the steps (a caller may refuse it first)."""

    row: Row
    ask: Ask
    scope: Scope
    text: str
    expression: str
    voiced: bool


def phrase(row: Row, rng: random.Random, *, ask: Ask | None = None, voiced: bool = True) -> Phrased:
    """A problem's draws, phrasing and expression (`make`'s first half)."""
    scope = Scope.drawn(row.draws, rng)
    ask = rng.choice(row.asks) if ask is None else ask
    text = render(ask.text, scope)
    if ask.family:
        text = frame(rng, ask.family, text, teacher=not voiced)
    return Phrased(row, ask, scope, text, literal(ask.expression, scope), voiced)


def work_out(phrased: Phrased, rng: random.Random) -> Made:
    """A phrased problem's answer and steps, and its text in its voice (`make`'s second
    half)."""
    row, ask, scope, expression = phrased.row, phrased.ask, phrased.scope, phrased.expression
    value = evaluate(expression)
    if isinstance(value, Fraction):
        style = ask.style or row.answer or scope.style_of(ask.expression)
        answer = show_answer(value, style) if style != "int" else format_value(value)
    else:
        answer = value
    scope.values["ans"] = answer
    steps: list[str] = []
    for template in ask.steps or row.steps or ("{work}",):
        if template == "{work}":
            steps.extend(work(expression, answer))
        else:
            step = render(template, scope)
            steps.append(step[:1].upper() + step[1:])
    if not steps or not mentions(steps[-1], answer):
        steps.append(f"So the answer is {answer}.")
    # A time that ends a sentence keeps one period ("7:05 p.m. It ...").
    text = phrased.text.replace("m.. ", "m. ").replace("m..", "m.")
    text = voice(rng, agree(text)) if phrased.voiced else printed(agree(text))
    return text, expression, answer, tuple(agree(step) for step in cap(steps))


def make(row: Row, rng: random.Random, *, ask: Ask | None = None, voiced: bool = True) -> Made:
    """One problem from a row: draw, phrase, evaluate, explain. `ask` is the phrasing to use
    (by default one drawn); `voiced=False` prints it as a teacher writes it (a teacher's
    frame, no lead, never a student's typing; `_phrasing.voice` otherwise)."""
    return work_out(phrase(row, rng, ask=ask, voiced=voiced), rng)


def generators(band: str) -> tuple[Generator, ...]:
    """A band's generators, each making problems from its row."""

    def maker(row: Row) -> Any:
        return lambda rng: make(row, rng)

    return tuple(
        Generator(row.name, "ccss:" + row.name.split("/", 1)[0], row.kind, maker(row))
        for row in load(band)
    )
