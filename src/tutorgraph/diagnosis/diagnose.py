"""Which bug rules reproduce a student's answer to a problem, and the misconceptions they name.

>>> diagnoser = Diagnoser.bundled()
>>> [(d.rule, d.misconception_ids) for d in diagnoser.diagnose("2/3 + 1/4", "3/7").findings]
[('fraction_add_across', ('eedi:misconception:217',))]
>>> diagnoser.diagnose("10 - 4 / 2", "8").correct
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

from tutorgraph.diagnosis.expression import number
from tutorgraph.diagnosis.rounding import ROUNDING_RULES, RoundingProblem
from tutorgraph.diagnosis.rules import RULES, BugRule, Problem
from tutorgraph.errors import ConfigurationError

__all__ = ["Diagnoser", "Diagnosis", "Finding", "read_links"]

LINKS_FILE = "bug_rules.jsonl"


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
        if rule not in RULES and rule not in ROUNDING_RULES:
            raise ConfigurationError(f"{path.name}:{n}: unknown rule {rule!r}")
        links[rule] = ids
    return links


class Diagnoser:
    """Applies the bug rules that the links table names; read-only, thread-safe."""

    def __init__(self, links: Mapping[str, Sequence[str]]) -> None:
        # per kind of problem, the linked rules that read it
        self._rules: dict[type, list[tuple[BugRule[Any], tuple[str, ...]]]] = {
            kind: [(rules[name], tuple(ids)) for name, ids in links.items() if name in rules]
            for kind, rules in ((Problem, RULES), (RoundingProblem, ROUNDING_RULES))
        }

    @classmethod
    def bundled(cls) -> Diagnoser:
        """The rules with the links shipped in the package."""
        return cls(read_links(Path(str(files("tutorgraph.diagnosis") / LINKS_FILE))))

    def diagnose(self, problem: str, student_answer: str) -> Diagnosis:
        """Never raises: a problem or an answer it cannot read gives an empty diagnosis."""
        answer = number(student_answer)
        read = Problem.read(problem) or RoundingProblem.read(problem)
        solved = read.solve() if read is not None else None
        if read is None or answer is None or solved is None:
            return Diagnosis()
        correct, shown = solved
        if answer == correct:
            return Diagnosis(correct=True, correct_answer=shown)
        findings = []
        for rule, ids in self._rules[type(read)]:
            for r in rule.apply(read):
                if r.answer == answer and r.answer != correct:
                    findings.append(Finding(rule.name, ids, r.shown, r.explanation))
                    break
        return Diagnosis(correct=False, correct_answer=shown, findings=findings)
