"""The one phrasing helper: the word tables, the frames of a bare exercise and the voices.

A problem is put in a worksheet's voice (as printed, or with a lead such as "Solve.") or a
student's (a lead such as "my homework says", typed casually: lower case, no final mark, a
common misspelling); × and ÷ are typed as x, * and / now and then. The words live in
`data/words.toml`. Practice given to a student is printed in a teacher's voice: `teacherly`
tells a phrasing or frame typed as a student types (the linker trains on both) from one a
teacher writes.

>>> import random
>>> voice(random.Random(3), "Ana has 9 shells. How many are left?")
'Ana has 9 shells. How many are left?'
>>> frame(random.Random(0), "cmp", "3/4 | 2/3")
'3/4 ? 2/3 (use >, < or =)'
"""

from __future__ import annotations

import random
import re
import tomllib
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["Entry", "agree", "frame", "printed", "table", "teacherly", "voice"]

# A word drawn from a table: its text, and its other fields (a singular, a count of sides).
Entry = dict[str, str | Fraction]


@cache
def _words() -> dict[str, Any]:
    path = resources.files("tutorgraph.problems") / "data" / "words.toml"
    with path.open("rb") as f:
        return tomllib.load(f)


def _entry(item: str | dict[str, Any]) -> Entry:
    if isinstance(item, dict):
        return {k: Fraction(v) if isinstance(v, int) else str(v) for k, v in item.items()}
    plural, _, one = item.partition("/")
    return {"text": plural, "one": one or plural}


@cache
def table(name: str) -> tuple[Entry, ...]:
    """The entries of a word table ("names", "things", "shapes" ...).

    >>> table("things")[0], table("shapes")[0]["sides"]
    ({'text': 'apples', 'one': 'apple'}, Fraction(3, 1))
    """
    tables = _words()["tables"]
    if name not in tables:
        raise ValueError(f"no word table {name!r} (known: {', '.join(sorted(tables))})")
    return tuple(_entry(item) for item in tables[name])


def frame(rng: random.Random, family: str, body: str, *, teacher: bool = False) -> str:
    """A bare exercise's body in one of its family's frames ("bare", "eq", "cmp"); with
    `teacher`, only the frames a teacher writes."""
    frames = _words()["frames"]
    if family not in frames:
        raise ValueError(f"no frame family {family!r}")
    template: str = rng.choice(_teacher_frames(family) if teacher else frames[family])
    a, _, b = body.partition(" | ")
    return template.replace("{e}", body).replace("{a}", a).replace("{b}", b)


@cache
def _teacher_frames(family: str) -> tuple[str, ...]:
    return tuple(f for f in _words()["frames"][family] if teacherly(f))


# A student's typing: a sentence that starts in lower case ("whats ...", "... 12. how many"),
# "i" in lower case before a word ("what do i do first"), or a word typed short or without
# its apostrophe (a letter alone is a number's name: "x").
_TYPED = re.compile(
    r"(?:^|[.?!]\s+)[a-z]{2}|\bi [a-z]"
    r"|\b(?:whats|dont|cant|wont|isnt|doesnt|im|pls|plz|u|cuz|idk|anwser|equel|fracton|devide"
    r"|multipy|mny)\b"
)
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def teacherly(template: str) -> bool:
    """Whether a phrasing (or frame) reads as a teacher writes, not as a student types;
    placeholders count as numbers.

    >>> teacherly("{n} made {a} cookies and sold {b}. How many are left?")
    True
    >>> teacherly("whats {total} minus {b}"), teacherly("{n} sold {b}. how many are left")
    (False, False)
    >>> teacherly("{a} × ({b} + {c}), what do i do first")
    False
    """
    return _TYPED.search(_PLACEHOLDER.sub("7", template)) is None


_SYMBOLS = {" × ": (" x ", " * "), " ÷ ": (" / ",)}
_ONE = re.compile(
    r"(?<![\d.,/-])1 (ten|hundred|thousand|one|part|piece|group|row|column|unit|square|cube)s\b"
)


def agree(text: str) -> str:
    """One of a unit takes the singular: "1 tens" is "1 ten".

    >>> agree("3 tens and 1 ones, 1 groups of 4")
    '3 tens and 1 one, 1 group of 4'
    """
    return _ONE.sub(lambda m: f"1 {m[1]}", text)


def _casual(rng: random.Random, text: str) -> str:
    text = text.lower() if rng.random() < 0.7 else text[:1].lower() + text[1:]
    if rng.random() < 0.5:
        text = re.sub(r"(?<=[a-z])\?(?=\s|$)", "", text).rstrip(".!")
    if rng.random() < 0.35:
        right, typed = rng.choice(_words()["voice"]["misspell"])
        text = re.sub(rf"\b{re.escape(right)}\b", typed, text, count=1, flags=re.I)
    return text


def printed(text: str) -> str:
    """The problem as a worksheet prints it, with no lead: a first word capitalised (a
    letter standing for a number stays as it is).

    >>> printed("apples cost $2. How many can you buy with $9?")
    'Apples cost $2. How many can you buy with $9?'
    """
    if re.match(r"[a-z]{2}", text):  # a word, not a letter standing for a number
        text = text[:1].upper() + text[1:]
    return text


def voice(rng: random.Random, text: str) -> str:
    """The problem as a worksheet prints it or as a student types it."""
    for symbol, typed in _SYMBOLS.items():
        if symbol in text and rng.random() < 0.3:
            text = text.replace(symbol, rng.choice(typed))
    text = printed(text)
    r = rng.random()
    if r < 0.45:
        return text
    if r < 0.65:
        return str(rng.choice(_words()["voice"]["worksheet"])).replace("{q}", text)
    said = str(rng.choice(_words()["voice"]["student"]))
    if rng.random() < 0.6:
        return said.replace("{q}", _casual(rng, text))
    return said.replace("{q}", text[:1].lower() + text[1:])
