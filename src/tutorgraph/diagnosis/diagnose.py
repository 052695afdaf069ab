"""Which bug rules reproduce a student's answer to a problem, and the misconceptions they name.

>>> diagnoser = Diagnoser.bundled()
>>> [(d.rule, d.misconception_ids) for d in diagnoser.diagnose("2/3 + 1/4", "3/7").findings]
[('fraction_add_across', ('eedi:misconception:217',))]
>>> diagnoser.diagnose("10 - 4 / 2", "8").correct
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from importlib.resources import files
from pathlib import Path
from typing import Any

from tutorgraph.diagnosis.algebra import (
    ALGEBRA_RULES,
    GRADIENT_RULES,
    GradientProblem,
    SubstitutionProblem,
)
from tutorgraph.diagnosis.arithmetic import RULES
from tutorgraph.diagnosis.averages import DATA_RULES, DataProblem
from tutorgraph.diagnosis.conversion import (
    CONVERSION_RULES,
    UNIT_RULES,
    ConversionProblem,
    UnitProblem,
)
from tutorgraph.diagnosis.equation import EQUATION_RULES, EquationProblem
from tutorgraph.diagnosis.expression import number
from tutorgraph.diagnosis.fraction_forms import (
    COMPARE_RULES,
    EQUIVALENT_RULES,
    FORM_RULES,
    CompareProblem,
    EquivalentProblem,
    MixedNumberProblem,
)
from tutorgraph.diagnosis.number_words import NAMING_RULES, NumberNameProblem
from tutorgraph.diagnosis.percentages import PERCENT_RULES, PercentOfProblem
from tutorgraph.diagnosis.roots import ROOT_RULES, RootProblem
from tutorgraph.diagnosis.rounding import ROUNDING_RULES, RoundingProblem
from tutorgraph.diagnosis.rules import BugRule, Problem
from tutorgraph.errors import ConfigurationError

__all__ = [
    "KINDS",
    "WORDED_KINDS",
    "Diagnoser",
    "Diagnosis",
    "Finding",
    "answer_value",
    "read_links",
]

LINKS_FILE = "bug_rules.jsonl"

Kind = tuple[Callable[[str], Any], Mapping[str, BugRule[Any]]]
# The kinds of problem stated in words or with a keyword, each read from text with its
# rules; `find_problem` tries them, in this order, before it looks for arithmetic.
WORDED_KINDS: tuple[Kind, ...] = (
    (MixedNumberProblem.read, FORM_RULES),
    (EquivalentProblem.read, EQUIVALENT_RULES),
    (CompareProblem.read, COMPARE_RULES),
    (SubstitutionProblem.read, ALGEBRA_RULES),
    (GradientProblem.read, GRADIENT_RULES),
    (RoundingProblem.read, ROUNDING_RULES),
    (ConversionProblem.read, CONVERSION_RULES),
    (PercentOfProblem.read, PERCENT_RULES),
    (RootProblem.read, ROOT_RULES),
    (UnitProblem.read, UNIT_RULES),
    (EquationProblem.read, EQUATION_RULES),
    (DataProblem.read, DATA_RULES),
    (NumberNameProblem.read, NAMING_RULES),
)
# Every kind; the first that reads a problem wins.
KINDS: tuple[Kind, ...] = ((Problem.read, RULES), *WORDED_KINDS)
_ALL_RULES = {name for _, rules in KINDS for name in rules}
# "x = 5", "□ = 5" and a trailing % sign or unit word around the number of an answer. The
# answer is what lies between the two, without a line break. The tail is matched on the
# reversed text: as `(?P<n>.*?)\s*(?:%|[a-z]+\.?)?\s*$` it retries the tail from every
# character (quadratic on long runs of spaces or letters).
_UNKNOWN = re.compile(r"\s*(?:[a-z□?]\s*=\s*)?", re.I)
_REVERSED_TAIL = re.compile(r"\s*(?:%|\.?[a-z]+)?\s*", re.I)


def answer_value(text: str) -> Fraction | None:
    """The number in a student's answer: "3/7", "x = 5", "0.7%", "250 minutes"."""
    start = m.end() if (m := _UNKNOWN.match(text)) else 0
    stop = len(text) - (m.end() if (m := _REVERSED_TAIL.match(text[::-1])) else 0)
    n = text[start:stop]
    return number(n) if n and "\n" not in n else None


@dataclass(frozen=True)
class Finding:
    """One rule that reproduces the student's answer."""

    rule: str
    misconception_ids: tuple[str, ...]
    reproduced_answer: str
    explanation: str


@dataclass(frozen=True)
class Diagnosis:
    """What the rules say of one answer. `correct` is None when the problem or the answer
    could not be read (then nothing is diagnosed)."""

    correct: bool | None = None
    correct_answer: str | None = None
    findings: list[Finding] = field(default_factory=list)


def read_links(path: Path) -> dict[str, tuple[str, ...]]:
    """The rule -> misconception ids table; an unknown rule or a bad line is named."""
    links: dict[str, tuple[str, ...]] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            rule, ids = row["rule"], tuple(str(i) for i in row["misconceptions"])
        except (ValueError, KeyError, TypeError) as exc:
            raise ConfigurationError(f"{path.name}:{n}: {exc}") from exc
        if rule not in _ALL_RULES:
            raise ConfigurationError(f"{path.name}:{n}: unknown rule {rule!r}")
        links[rule] = ids
    return links


class Diagnoser:
    """Applies the bug rules that the links table names; read-only, thread-safe."""

    def __init__(self, links: Mapping[str, Sequence[str]]) -> None:
        # per kind of problem, the linked rules that read it
        self._kinds = [
            (read, [(rules[name], tuple(ids)) for name, ids in links.items() if name in rules])
            for read, rules in KINDS
        ]

    @classmethod
    def bundled(cls) -> Diagnoser:
        """The rules with the links shipped in the package."""
        return cls(read_links(Path(str(files("tutorgraph.diagnosis") / LINKS_FILE))))

    def diagnose(
        self, problem: str, student_answer: str, correct_answer: str | None = None
    ) -> Diagnosis:
        """Never raises: a problem or an answer it cannot read gives an empty diagnosis. A
        `correct_answer` that is not what the problem, as read, gives means the reading is
        wrong: nothing is diagnosed."""
        answer = answer_value(student_answer)
        if answer is None:
            return Diagnosis()
        read = next(((p, rules) for r, rules in self._kinds if (p := r(problem))), None)
        if read is None or (solved := read[0].solve()) is None:
            return Diagnosis()
        found, rules = read
        correct, shown = solved
        if correct_answer is not None and answer_value(correct_answer) not in (None, correct):
            return Diagnosis()
        if answer == correct:
            return Diagnosis(correct=True, correct_answer=shown)
        findings = []
        for rule, ids in rules:
            for r in rule.apply(found):
                if r.answer == answer and r.answer != correct:
                    findings.append(Finding(rule.name, ids, r.shown, r.explanation))
                    break
        return Diagnosis(correct=False, correct_answer=shown, findings=findings)
