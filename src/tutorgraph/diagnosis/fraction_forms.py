"""Fractions written another way: mixed numbers and improper fractions, equivalent
fractions, and which of two fractions is bigger, with the bug rules of each.

>>> p = MixedNumberProblem.read("change 2 3/4 into an improper fraction")
>>> p.solve(), [r.shown for r in FORM_RULES["mixed_to_improper_whole_times_numerator"].apply(p)]
((Fraction(11, 4), '11/4'), ['6/4'])
>>> c = CompareProblem.read("which is bigger 1/3 or 1/4?")
>>> c.solve(), [r.shown for r in COMPARE_RULES["fraction_larger_denominator_bigger"].apply(c)]
((Fraction(1, 3), '1/3'), ['1/4'])
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from tutorgraph.diagnosis.rules import BugRule, Reproduction, show

__all__ = [
    "COMPARE_RULES",
    "EQUIVALENT_RULES",
    "FORM_RULES",
    "CompareProblem",
    "EquivalentProblem",
    "MixedNumberProblem",
]

# A number starts where its digits do (`(?<![\d/.])`), so a run of digits is scanned once.
_FRACTION = r"(?<![\d/.])(?P<{0}>\d{{1,6}})\s*/\s*(?P<{1}>\d{{1,6}})(?![\d/])"
_MIXED = r"(?<![\d/.])(?P<w>\d{1,6})\s+" + _FRACTION.format("a", "b")[len(r"(?<![\d/.])") :]
_INTO = r"\s+(?:(?:in)?to|as|in)\s+(?:an?\s+)?"
_MIXED_TO_IMPROPER = [
    re.compile(_MIXED + _INTO + r"improper\s+fractions?\b", re.I),
    re.compile(r"\bimproper\s+fractions?\b\W{0,3}\s*" + _MIXED, re.I),
]
_IMPROPER_TO_MIXED = [
    re.compile(_FRACTION.format("a", "b") + _INTO + r"mixed\s+(?:numbers?|fractions?)\b", re.I),
    re.compile(
        r"\bmixed\s+numbers?(?:\s+fractions?)?\b\W{0,3}\s*" + _FRACTION.format("a", "b"), re.I
    ),
]


@dataclass(frozen=True)
class MixedNumberProblem:
    """`w a/b` to be written as an improper fraction (`to_improper`), or `a/b` (w = 0) as a
    mixed number."""

    text: str
    whole: int
    numerator: int
    denominator: int
    to_improper: bool

    @classmethod
    def read(cls, text: str) -> MixedNumberProblem | None:
        for patterns, improper in ((_MIXED_TO_IMPROPER, True), (_IMPROPER_TO_MIXED, False)):
            for pattern in patterns:
                if (m := pattern.search(text)) is None:
                    continue
                w, a, b = int(m["w"]) if improper else 0, int(m["a"]), int(m["b"])
                if b < 2 or (not improper and a <= b):
                    return None
                return cls(m[0], w, a, b, improper)
        return None

    @property
    def value(self) -> Fraction:
        return self.whole + Fraction(self.numerator, self.denominator)

    def solve(self) -> tuple[Fraction, str]:
        if self.to_improper:
            top = self.whole * self.denominator + self.numerator
            return self.value, f"{top}/{self.denominator}"
        return self.value, _mixed(self.value)


def _mixed(value: Fraction) -> str:
    whole, part = divmod(value, 1)
    return f"{whole} {part.numerator}/{part.denominator}" if part and whole else show(value)


def _improper(
    top: Callable[[int, int, int], int], how: str
) -> Callable[[MixedNumberProblem], list[Reproduction]]:
    """A student who writes `w a/b` as `top(w, a, b)/b`; `how` names w, a and b."""

    def rule(p: MixedNumberProblem) -> list[Reproduction]:
        if not p.to_improper or p.whole == 0:
            return []
        w, a, b = p.whole, p.numerator, p.denominator
        n = top(w, a, b)
        shown = f"{n}/{b}"
        said = how.format(w=w, a=a, b=b)
        return [Reproduction(Fraction(n, b), shown, f"{shown} is what you get by {said}")]

    return rule


def _swapped_parts(p: MixedNumberProblem) -> list[Reproduction]:
    """`11/4` as `3 2/4`: the remainder written as the wholes and the wholes as the numerator."""
    if p.to_improper:
        return []
    wholes, rest = divmod(p.numerator, p.denominator)
    if rest == 0 or rest == wholes:
        return []
    shown = f"{rest} {wholes}/{p.denominator}"
    return [
        Reproduction(
            rest + Fraction(wholes, p.denominator),
            shown,
            f"{shown} is what you get by writing the remainder ({rest}) as the wholes and the "
            f"number of wholes ({wholes}) as the numerator",
        )
    ]


FORM_RULES: dict[str, BugRule[MixedNumberProblem]] = {
    r.name: r
    for r in (
        BugRule(
            "mixed_to_improper_whole_times_numerator",
            "fractions",
            _improper(
                lambda w, a, _: w * a, "multiplying the whole number by the numerator ({w} × {a})"
            ),
        ),
        BugRule(
            "mixed_to_improper_adds_whole_to_numerator",
            "fractions",
            _improper(
                lambda w, a, _: w + a, "adding the whole number to the numerator ({w} + {a})"
            ),
        ),
        BugRule(
            "mixed_to_improper_forgets_numerator",
            "fractions",
            _improper(
                lambda w, _, b: w * b,
                "multiplying the whole number by the denominator ({w} × {b}) and not adding the "
                "numerator",
            ),
        ),
        BugRule(
            "mixed_to_improper_whole_times_numerator_plus_denominator",
            "fractions",
            _improper(
                lambda w, a, b: w * a + b,
                "multiplying the whole number by the numerator and adding the denominator "
                "({w} × {a} + {b})",
            ),
        ),
        BugRule("improper_to_mixed_parts_swapped", "fractions", _swapped_parts),
    )
}


# -- equivalent fractions ------------------------------------------------------------------

_EQUIVALENT = [
    re.compile(
        r"\bfractions?\s+(?:that\s+is\s+|which\s+is\s+)?(?:equal|equivalent)\s+to\s+"
        + _FRACTION.format("a", "b"),
        re.I,
    ),
    re.compile(
        r"\bequivalent\s+(?:fractions?\s+)?(?:to|of|for)\s+" + _FRACTION.format("a", "b"), re.I
    ),
]
# The numbers added to the top and the bottom that the rule tries.
_MAX_ADDED = 12


@dataclass(frozen=True)
class EquivalentProblem:
    """A fraction equivalent to `a/b`: any fraction of the same value is right."""

    text: str
    numerator: int
    denominator: int

    @classmethod
    def read(cls, text: str) -> EquivalentProblem | None:
        for pattern in _EQUIVALENT:
            if (m := pattern.search(text)) is not None:
                a, b = int(m["a"]), int(m["b"])
                return cls(m[0], a, b) if b else None
        return None

    def solve(self) -> tuple[Fraction, str]:
        a, b = self.numerator, self.denominator
        return Fraction(a, b), f"{2 * a}/{2 * b}"


def _adds_to_both(p: EquivalentProblem) -> list[Reproduction]:
    a, b = p.numerator, p.denominator
    out = []
    for k in range(1, _MAX_ADDED + 1):
        shown = f"{a + k}/{b + k}"
        how = f"adding {k} to the numerator and the denominator instead of multiplying both"
        out.append(Reproduction(Fraction(a + k, b + k), shown, f"{shown} is what you get by {how}"))
    return out


EQUIVALENT_RULES: dict[str, BugRule[EquivalentProblem]] = {
    "equivalent_fraction_by_adding": BugRule(
        "equivalent_fraction_by_adding", "fractions", _adds_to_both
    )
}


# -- comparing two fractions ---------------------------------------------------------------

_BIG = r"(?P<w>bigger|larger|greater|biggest|largest|greatest|more|smaller|smallest|less|least)"
_TWO = _FRACTION.format("a", "b") + r"(?:\s*,)?\s*\bor\s+" + _FRACTION.format("c", "d")
_COMPARE = [
    # "which is bigger 1/3 or 1/4", "which fraction is larger: 2/5 or 2/7"
    re.compile(r"\bwhich\s+(?:\w+\s+)?is\s+(?:the\s+)?" + _BIG + r"\b\W{0,3}\s*" + _TWO, re.I),
    # "1/3 or 1/4, which is bigger"
    re.compile(_TWO + r"\W{0,3}\s*which\s+(?:\w+\s+)?is\s+(?:the\s+)?" + _BIG + r"\b", re.I),
]


@dataclass(frozen=True)
class CompareProblem:
    """Which of `a/b` and `c/d` is the bigger (`bigger`) or the smaller one; the answer is
    the one chosen."""

    text: str
    first: tuple[int, int]
    second: tuple[int, int]
    bigger: bool

    @classmethod
    def read(cls, text: str) -> CompareProblem | None:
        for pattern in _COMPARE:
            if (m := pattern.search(text)) is None:
                continue
            first, second = (int(m["a"]), int(m["b"])), (int(m["c"]), int(m["d"]))
            if 0 in (first[1], second[1]):
                return None
            bigger = m["w"].casefold() in ("bigger", "larger", "greater", "biggest", "largest")
            bigger = bigger or m["w"].casefold() in ("greatest", "more")
            return cls(m[0], first, second, bigger)
        return None

    def solve(self) -> tuple[Fraction, str] | None:
        x, y = Fraction(*self.first), Fraction(*self.second)
        if x == y:
            return None
        pick = max(x, y) if self.bigger else min(x, y)
        a, b = self.first if pick == x else self.second
        return pick, f"{a}/{b}"


def _larger_denominator_bigger(p: CompareProblem) -> list[Reproduction]:
    """Choosing by the denominators: the larger denominator as the bigger fraction."""
    (a, b), (c, d) = p.first, p.second
    if b == d:
        return []
    big, small = ((a, b), (c, d)) if b > d else ((c, d), (a, b))
    n, m = big if p.bigger else small
    word = "bigger" if p.bigger else "smaller"
    shown = f"{n}/{m}"
    return [
        Reproduction(
            Fraction(n, m),
            shown,
            f"{shown} is what you get by taking the fraction with the "
            f"{'larger' if p.bigger else 'smaller'} denominator to be the {word} one",
        )
    ]


COMPARE_RULES: dict[str, BugRule[CompareProblem]] = {
    "fraction_larger_denominator_bigger": BugRule(
        "fraction_larger_denominator_bigger", "fractions", _larger_denominator_bigger
    )
}
