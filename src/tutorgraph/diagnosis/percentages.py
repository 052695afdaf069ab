"""Percentages of an amount ("Find 20% of 80") and the bug rules of finding them.

>>> p = PercentOfProblem.read("Find 20% of 80")
>>> p.solve(), [r.shown for r in PERCENT_RULES["percent_of_adds"].apply(p)]
((Fraction(16, 1), '16'), ['100'])
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from tutorgraph.diagnosis.expression import number
from tutorgraph.diagnosis.rules import BugRule, Reproduction, reproduce, show

__all__ = ["PERCENT_RULES", "PercentOfProblem"]

# Linear: numbers start where their digits do, and the amount is not shortened digit by
# digit when it is itself a percentage (no shorter one would pass the look-ahead either).
_PERCENT_OF = re.compile(
    r"(?<!\d)(?P<p>\d+(?:\.\d+)?)\s*%\s+of\s+(?:£|\$|€)?\s*(?P<n>(?>\d+(?:\.\d+)?))(?![\d.]*\s*%)"
)


@dataclass(frozen=True)
class PercentOfProblem:
    """`percent`% of `amount`."""

    text: str
    percent: Fraction
    amount: Fraction

    @classmethod
    def read(cls, text: str) -> PercentOfProblem | None:
        m = _PERCENT_OF.search(text)
        if m is None:
            return None
        p, n = number(m["p"]), number(m["n"])
        return None if p is None or n is None else cls(m[0], p, n)

    def solve(self) -> tuple[Fraction, str]:
        answer = self.percent / 100 * self.amount
        return answer, show(answer)


def _rule(
    wrong: Callable[[Fraction, Fraction], Fraction | None], how: str
) -> Callable[[PercentOfProblem], list[Reproduction]]:
    def rule(p: PercentOfProblem) -> list[Reproduction]:
        return reproduce(wrong(p.percent, p.amount), how)

    return rule


PERCENT_RULES: dict[str, BugRule[PercentOfProblem]] = {
    r.name: r
    for r in (
        BugRule(
            "percent_of_adds",
            "percentages",
            _rule(lambda p, n: p + n, "adding the percentage and the amount"),
        ),
        BugRule(
            "percent_of_finds_ten_percent",
            "percentages",
            _rule(lambda p, n: n / 10 if p != 10 else None, "finding 10% instead"),
        ),
        BugRule(
            "percent_of_divides_by_percent",
            "percentages",
            _rule(lambda p, n: n / p if p else None, "dividing the amount by the percentage"),
        ),
        BugRule(
            "percent_of_tenth_as_one_percent",
            "percentages",
            _rule(
                lambda p, n: p * n / 10 if p != 10 else None,
                "taking a tenth of the amount as 1% (dividing the percentage by 10, "
                "but not the amount, before multiplying)",
            ),
        ),
        BugRule(
            "percent_of_hundredth_as_ten_percent",
            "percentages",
            _rule(
                lambda p, n: p / 10 * n / 100 if p % 10 == 0 and p != 10 else None,
                "taking a hundredth of the amount as 10%",
            ),
        ),
    )
}
