"""Whole numbers to be written in digits, named in words ("write fourteen in digits") or in
units ("what number is 4 tens and 12 ones?"), and the bug rules of writing them.

>>> p = NumberNameProblem.read("Write fourteen in digits.")
>>> p.solve(), [r.shown for r in NAMING_RULES["teen_digits_reversed"].apply(p)]
((Fraction(14, 1), '14'), ['41'])
>>> p = NumberNameProblem.read("What number is 4 tens and 12 ones?")
>>> p.solve(), [r.shown for r in NAMING_RULES["tens_and_ones_side_by_side"].apply(p)]
((Fraction(52, 1), '52'), ['412'])
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from tutorgraph.diagnosis.rules import BugRule, Reproduction, reproduce

__all__ = ["NAMING_RULES", "NumberNameProblem"]

_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen"
_DECADES = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_SMALL = {w: n for n, w in enumerate((*_ONES, *_TEENS.split(" ")))}
_TENS = {w: 10 * n for n, w in enumerate(_DECADES, 2)}
_SCALES = {"hundred": 100, "thousand": 1000}
_WORD = "|".join(sorted([*_SMALL, *_TENS, *_SCALES], key=len, reverse=True))
# A number name: up to 12 words joined by spaces, hyphens or "and" (bounded: linear).
_NAME = rf"(?:{_WORD})\b(?:(?:\s+and\s+|\s*-\s*|\s+)(?:{_WORD})\b){{0,11}}"
_DIGITS = r"(?:digits|numerals?|figures|an?\s+numeral|a\s+number)"
_IN_WORDS = [
    re.compile(rf"\b(?P<name>{_NAME})\s+(?:in|as|using|with)\s+{_DIGITS}\b", re.I),
    re.compile(rf"\b(?:in|as|using|with)\s+{_DIGITS}\b[\s?:.,'\"“”]{{0,6}}(?P<name>{_NAME})", re.I),
]
_COUNT = rf"(?:\d{{1,3}}|{_WORD})"
_IN_UNITS = re.compile(
    rf"\b(?:what\s+number\s+is|which\s+number\s+is|what\s+is|write|make|show)\s+"
    rf"(?:(?P<h>{_COUNT})\s+hundreds?\s*,?\s*(?:and\s+)?)?"
    rf"(?P<t>{_COUNT})\s+tens?\s*,?\s*(?:and\s+)?(?P<o>{_COUNT})\s+ones?\b",
    re.I,
)


def _words(name: str) -> list[str]:
    return [w for w in re.split(r"[\s-]+", name.casefold()) if w and w != "and"]


def _value(words: list[str]) -> int | None:
    """The number a list of number words names, or None for words in an impossible order."""
    total = current = 0
    last = ""  # the kind of the last word: small, tens or a scale
    for w in words:
        if w in _SCALES:
            if w == "hundred" and (last not in ("small", "tens") or current >= 10):
                return None
            if w == "thousand" and (last not in ("small", "tens", "hundred") or not current):
                return None
            if w == "hundred":
                current *= 100
            else:
                total, current = total + current * 1000, 0
            last = w
        elif w in _TENS:
            if last in ("small", "tens") or current % 100:
                return None
            current, last = current + _TENS[w], "tens"
        else:
            if last == "small" or (last == "tens" and _SMALL[w] >= 10) or current % 10:
                return None
            current, last = current + _SMALL[w], "small"
    return total + current


def _count(text: str | None) -> int | None:
    if text is None:
        return 0
    return int(text) if text.isdigit() else _value(_words(text))


@dataclass(frozen=True)
class NumberNameProblem:
    """A whole number to write in digits, named by its `words` or by its `units` (hundreds,
    tens, ones: as many of each as given, possibly ten or more)."""

    text: str
    value: int
    words: tuple[str, ...] = ()
    units: tuple[int, int, int] | None = None

    @classmethod
    def read(cls, text: str) -> NumberNameProblem | None:
        """The first number named in words with "in digits", or in units, or None."""
        for pattern in _IN_WORDS:
            if (m := pattern.search(text)) is not None:
                words = _words(m["name"])
                value = _value(words)
                if value is None:
                    return None
                return cls(f"write {' '.join(words)} in digits", value, tuple(words))
        if (m := _IN_UNITS.search(text)) is not None:
            h, t, o = (_count(m[g]) for g in ("h", "t", "o"))
            if h is None or t is None or o is None:
                return None
            head = f"{h} hundreds, " if m["h"] else ""
            return cls(
                f"what number is {head}{t} tens and {o} ones",
                100 * h + 10 * t + o,
                units=(h, t, o),
            )
        return None

    def solve(self) -> tuple[Fraction, str]:
        return Fraction(self.value), str(self.value)


def _teen_reversed(p: NumberNameProblem) -> list[Reproduction]:
    """ "fourteen" as 41: the ones said first, so written first."""
    if len(p.words) != 1 or not 13 <= p.value <= 19:
        return []
    return reproduce(
        Fraction(int(str(p.value)[::-1])),
        f"writing the {p.value % 10} first because it is said first in '{p.words[0]}'",
    )


def _parts(words: tuple[str, ...]) -> list[list[str]]:
    """The spoken parts: each run of words up to a scale word, then each word after."""
    parts: list[list[str]] = [[]]
    for w in words:
        parts[-1].append(w)
        if w in _SCALES:
            parts.append([])
    head, tail = parts[:-1], parts[-1]
    return [*head, *([w] for w in tail)]


def _written_as_heard(p: NumberNameProblem) -> list[Reproduction]:
    """ "one hundred twenty-five" as 100205 (or 10025): each spoken part written in turn."""
    if len(p.words) < 2 or sum(w in _SCALES for w in p.words) > 1:
        return []
    parts = _parts(p.words)
    fine = [_value(part) for part in parts]
    # the same, with the words after the last scale word kept as one number
    scaled = [part for part in parts if part[-1] in _SCALES]
    rest = p.words[sum(len(part) for part in scaled) :]
    coarse = [_value(part) for part in scaled] + ([_value(list(rest))] if rest else [])
    out: list[Reproduction] = []
    for values in (fine, coarse):
        if None in values or len(values) < 2:
            continue
        written = "".join(str(v) for v in values)
        if len(written) > 30 or any(r.shown == written for r in out):
            continue
        out += reproduce(
            Fraction(int(written)),
            f"writing each part as it is said ({' then '.join(map(str, values))})",
        )
    return out


def _without_zeros(p: NumberNameProblem) -> list[Reproduction]:
    """ "fifty-six thousand and thirteen" as 5613: only the digits that are said written."""
    if len(p.words) < 2 or "0" not in str(p.value):
        return []
    digits = str(p.value).replace("0", "")
    return reproduce(Fraction(int(digits)) if digits else None, "writing only the non-zero digits")


_TEEN_WORDS = {w: v for w, v in _SMALL.items() if 13 <= v <= 19}


def _teen_swapped(to_ty: bool) -> Callable[[NumberNameProblem], list[Reproduction]]:
    """A teen word read as its multiple of ten (thirteen as thirty) or as its ones digit."""

    def rule(p: NumberNameProblem) -> list[Reproduction]:
        teens = [w for w in p.words if w in _TEEN_WORDS]
        if not teens:
            return []
        swap = {
            w: _DECADES[_TEEN_WORDS[w] - 12] if to_ty else _ONES[_TEEN_WORDS[w] - 10] for w in teens
        }
        value = _value([swap.get(w, w) for w in p.words])
        how = "as its multiple of ten" if to_ty else "as its ones digit"
        return reproduce(
            None if value is None else Fraction(value),
            f"reading {' and '.join(teens)} {how} ({' and '.join(swap.values())})",
        )

    return rule


def _tens_and_ones_side_by_side(p: NumberNameProblem) -> list[Reproduction]:
    """4 tens and 12 ones as 412: each count written in its place, ten ones not regrouped."""
    if p.units is None:
        return []
    h, t, o = p.units
    if o < 10 and t < 10:
        return []
    written = f"{h or ''}{t}{o}"
    return reproduce(
        Fraction(int(written)),
        "writing the number of each unit side by side without regrouping ten of them",
    )


NAMING_RULES: dict[str, BugRule[NumberNameProblem]] = {
    r.name: r
    for r in (
        BugRule("teen_digits_reversed", "place value", _teen_reversed),
        BugRule("number_words_written_as_heard", "place value", _written_as_heard),
        BugRule("tens_and_ones_side_by_side", "place value", _tens_and_ones_side_by_side),
        BugRule("number_words_without_zeros", "place value", _without_zeros),
        BugRule("teen_read_as_tens", "place value", _teen_swapped(to_ty=True)),
        BugRule("teen_read_as_ones", "place value", _teen_swapped(to_ty=False)),
    )
}
