"""Practice for one standard, made at request time: problems of the student's problem's
structure with new numbers, in a teacher's voice, with their answers and worked steps.

A standard's phrasings (every row of its generators) are read once: each phrasing's
expression shapes (`_shape.shape`, over a few sample draws) and whether its text shows the
expression itself (`71 - 38 = ?` does; a story or `? + 38 = 71` does not). Phrasings a
student would type (`_phrasing.teacherly`) are left out. For a problem like the student's,
the phrasings whose expression may have its shape are used, best first: for a story, the
word problems; else those whose text shows the expression, then the bare rows', then any;
a draw of another shape, or of the student's own numbers, is drawn again, a few times at
most. When fewer than three come of it (no problem, or none of its shape), the standard's
bare phrasings (its word problems when it has no bare row) fill the set. Each problem is the
engine's (`_rows.phrase` and `work_out`, `voiced=False`): its answer is
`evaluate(expression)` and its steps are the row's. The same key gives the same problems in
any process: the draw is seeded by sha256 of the standard and the key, never `hash()`.

>>> made = practice("ccss:2.NBT.B.5", key="I did 52 - 38 and got 26", like="52 - 38")
>>> made.shape, made.matched, [p.expression for p in made.problems]
('#-#', 4, ['92 - 11', '58 - 12', '77 - 54', '66 - 57'])
>>> from tutorgraph.mathtext.evaluate import evaluate, format_value
>>> first = made.problems[0]
>>> first.answer == format_value(evaluate(first.expression)), first.steps[-1]
(True, 'So 92 - 11 = 81.')
>>> covers("ccss:2.NBT.B.5"), covers("ccss:HSA-REI.B.3")
(True, False)
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from functools import cache

from tutorgraph.problems._draw import Scope, render
from tutorgraph.problems._phrasing import teacherly
from tutorgraph.problems._registry import Problem
from tutorgraph.problems._rows import BANDS, Ask, Row, load, phrase, work_out
from tutorgraph.problems._shape import drawn_shape, numbers, shape

__all__ = ["PRACTICE_ITEMS", "Practice", "covers", "practice", "seed"]

# Problems a practice set holds (3 to 5 read well after one worked problem), and the
# fewest it settles for before it adds the standard's bare phrasings.
PRACTICE_ITEMS = 4
_FEWEST = 3
# Sample draws per row when its phrasings' shapes are read (a drawer such as `pick` or
# `rat` may change a shape from one draw to the next).
_SAMPLES = 6
# Draws per problem wanted before a practice set gives up on more (a small range repeats
# itself or gives the student's own numbers; a `pick` may draw another shape).
_TRIES = 4


@dataclass(frozen=True)
class _Phrasing:
    row: Row
    ask: Ask
    shapes: frozenset[str]
    shows: bool  # the text shows the expression (`71 - 38 = ?`), not a story of it


@dataclass(frozen=True)
class Practice:
    """A standard's practice: its problems, the shape of the student's problem (None: no
    problem was given) and how many of the problems, first, share it (the rest are the
    standard's bare phrasings)."""

    standard: str
    problems: tuple[Problem, ...]
    shape: str | None = None
    matched: int = 0


@cache
def _rows() -> dict[str, tuple[Row, ...]]:
    by_standard: dict[str, list[Row]] = {}
    for band in BANDS:
        for row in load(band):
            by_standard.setdefault("ccss:" + row.name.split("/", 1)[0], []).append(row)
    return {standard: tuple(rows) for standard, rows in by_standard.items()}


def covers(standard: str) -> bool:
    """Whether a generator makes problems for the standard (`ccss:2.NBT.B.5`)."""
    return standard in _rows()


@cache
def _phrasings(standard: str) -> tuple[_Phrasing, ...]:
    """The standard's phrasings a teacher would write, in the data's order, with shapes."""
    out = []
    for row in _rows()[standard]:
        asks = [ask for ask in row.asks if teacherly(ask.text)]
        shapes: list[set[str]] = [set() for _ in asks]
        shows = [True] * len(asks)
        for n in range(_SAMPLES):
            scope = Scope.drawn(row.draws, random.Random(f"{row.name}:{n}"))
            for i, ask in enumerate(asks):
                expression = drawn_shape(ask.expression, scope)
                shapes[i].add(expression)
                shows[i] = shows[i] and expression in shape(render(ask.text, scope))
        out += [
            _Phrasing(row, ask, frozenset(sh), sw)
            for ask, sh, sw in zip(asks, shapes, shows, strict=True)
        ]
    return tuple(out)


def _like(standard: str, target: str, story: bool) -> list[_Phrasing]:
    """The phrasings whose expression may have the shape `target`, the best tier only."""
    same = [p for p in _phrasings(standard) if target in p.shapes]
    if story:
        tiers = [[p for p in same if p.row.kind == "word"], same]
    else:
        tiers = [[p for p in same if p.shows], [p for p in same if p.row.kind == "bare"], same]
    return next((tier for tier in tiers if tier), [])


def _bare(standard: str) -> list[_Phrasing]:
    """The standard's bare phrasings (its word problems when it has no bare row)."""
    phrasings = list(_phrasings(standard))
    return [p for p in phrasings if p.row.kind == "bare"] or phrasings


def seed(standard: str, key: str) -> int:
    """The practice draw's seed: sha256 of the standard and the key (stable everywhere).

    >>> seed("ccss:2.NBT.B.5", "I did 52 - 38") == seed("ccss:2.NBT.B.5", "I did 52 - 38")
    True
    """
    return int.from_bytes(hashlib.sha256(f"{standard}\n{key}".encode()).digest()[:8], "big")


def _draw(
    standard: str,
    pool: list[_Phrasing],
    rng: random.Random,
    want: int,
    made: list[Problem],
    target: str | None,
    theirs: list[str] | None,
) -> None:
    """Adds up to `want` new problems from `pool` to `made` (in place)."""
    seen = {p.text for p in made}
    found = 0
    for _ in range(want * _TRIES):
        if found >= want or not pool:
            return
        phrasing = rng.choice(pool)
        drawn = phrase(phrasing.row, rng, ask=phrasing.ask, voiced=False)
        if target is not None and drawn_shape(drawn.ask.expression, drawn.scope) != target:
            continue
        if theirs is not None and numbers(drawn.expression) == theirs:
            continue  # the student's own problem again
        text, expression, answer, steps = work_out(drawn, rng)
        text = " ".join(text.split())
        if text in seen:
            continue
        seen.add(text)
        found += 1
        row = phrasing.row
        made.append(Problem(text, standard, row.name, row.kind, expression, answer, steps))


def practice(
    standard: str,
    *,
    key: str,
    like: str | None = None,
    story: bool = False,
    count: int = PRACTICE_ITEMS,
) -> Practice:
    """Up to `count` distinct problems for `standard` (see the module's docstring): like
    the problem `like` (the reader's or the engine's spelling; `story`: it was a word
    problem) where the standard has its shape, drawn from `key` (the request's text).
    A standard no generator covers has none."""
    if not covers(standard):
        return Practice(standard, ())
    rng = random.Random(seed(standard, key))
    made: list[Problem] = []
    target = shape(like) if like else None
    theirs = numbers(like) if like else None
    if target is not None:
        _draw(standard, _like(standard, target, story), rng, count, made, target, theirs)
    matched = len(made)
    if matched < _FEWEST:
        _draw(standard, _bare(standard), rng, count - matched, made, None, theirs)
    return Practice(standard, tuple(made), target, matched)
