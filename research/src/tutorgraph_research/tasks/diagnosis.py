"""How often the bug rules fire on labelled wrong answers, and how often they are right.

For every labelled (question, wrong answer) pair the problem is read from the question
text and the rules are applied to the answer. Coverage is the share of pairs for which
some rule fires; precision is the share of firing rules (findings) whose misconception is
the labelled one. The rules are fixed (nothing is trained), so folds only split the
report. `held_out` scores only the questions not in `read` (those read while writing the
rules, and their tests' examples).

>>> report = diagnosis_report(questions)  # doctest: +SKIP
>>> report["coverage"], report["precision"]  # doctest: +SKIP
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Collection, Sequence
from typing import Any

from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph.diagnosis.problem import find_problem
from tutorgraph.ingest.eedi import EediQuestion, eedi_fold
from tutorgraph.mathtext.spans import plain_text
from tutorgraph_research.tasks.eedi import eedi_pairs

__all__ = ["diagnosis_report"]


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def _summary(
    pairs: int, read: int, fired: int, findings: int, right: int, hit: int
) -> dict[str, Any]:
    return {
        "pairs": pairs,
        "problem_read": read,
        "fired": fired,
        "coverage": _ratio(fired, pairs),
        "findings": findings,
        "precision": _ratio(right, findings),
        # pairs where some finding names the labelled misconception, among those that fired
        "pair_precision": _ratio(hit, fired),
    }


def diagnosis_report(
    questions: Sequence[EediQuestion],
    diagnoser: Diagnoser | None = None,
    folds: int = 5,
    read: Collection[int] = (),
    checked: bool = True,
) -> dict[str, Any]:
    """Coverage and precision over every labelled pair, overall, per fold, per rule, and
    over the questions not in `read` (ids). `checked`: the question's correct option
    vetoes a problem read wrongly (as a request's `correct_answer` does)."""
    diagnoser = diagnoser or Diagnoser.bundled()
    keys = ("pairs", "read", "fired", "findings", "right", "hit")
    total: Counter[str] = Counter()
    held_out: Counter[str] = Counter()
    by_fold: dict[int, Counter[str]] = {k: Counter() for k in range(folds)}
    timings: list[float] = []
    fired_rules: Counter[str] = Counter()
    right_rules: Counter[str] = Counter()
    for pair in eedi_pairs(questions):
        q = pair.question
        counts: Counter[str] = Counter(pairs=1)
        started = time.perf_counter()
        problem = find_problem(q.question_text)
        result = None
        if problem is not None:
            counts["read"] += 1
            result = diagnoser.diagnose(
                problem,
                plain_text(q.answers[pair.letter]),
                correct_answer=plain_text(q.answers[q.correct_answer]) if checked else None,
            )
        timings.append((time.perf_counter() - started) * 1000)
        if result is not None and result.findings:
            counts["fired"] += 1
            right = [pair.target in f.misconception_ids for f in result.findings]
            counts["findings"] += len(right)
            counts["right"] += sum(right)
            counts["hit"] += any(right)
            for f, ok in zip(result.findings, right, strict=True):
                fired_rules[f.rule] += 1
                right_rules[f.rule] += ok
        total.update(counts)
        if q.question_id not in read:
            held_out.update(counts)
        by_fold[eedi_fold(q.question_id, folds)].update(counts)
    return {
        **_summary(*(total[k] for k in keys)),
        "held_out": {"questions_read": len(read), **_summary(*(held_out[k] for k in keys))},
        "checked_by_correct_option": checked,
        # reading the problem and applying the rules, per pair (one process, warm)
        "ms_per_pair": {
            "p50": round(statistics.median(timings), 3) if timings else None,
            "p95": round(statistics.quantiles(timings, n=20)[-1], 3) if len(timings) > 1 else None,
            "max": round(max(timings), 3) if timings else None,
        },
        "fold_rule": f"int(QuestionId) % {folds}",
        "by_fold": {str(k): _summary(*(c[k] for k in keys)) for k, c in by_fold.items()},
        "by_rule": {
            rule: {
                "fired": n,
                "right": right_rules[rule],
                "precision": _ratio(right_rules[rule], n),
            }
            for rule, n in fired_rules.most_common()
        },
    }
