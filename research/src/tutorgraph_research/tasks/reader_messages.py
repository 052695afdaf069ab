"""`tutorgraph bench reader`: does the math-message reader read a student's own words?

The set (`data/benchmarks/reader_messages.jsonl`, built by
`research/scripts/build_reader_messages.py`) holds messages in many phrasings, each labelled
with its problem, the student's answer and, where known, the misconception. It is split by
phrasing: `heldout` phrasings were never seen while the reader was written. Per message:

* ``problem_read``: the reader's problem is the labelled one: the same text after
  normalisation (case, spaces, `×`/`*`, `÷`/spaced `/`, "decimal place(s)"/"dp"), or the
  same expression tree (numbers by value), or the same value;
* ``answer_read``: the reader's (else the refiner's cue) answer equals the labelled one as a
  number (`answer_value`), else as normalised text;
* ``diagnosis_fired``, over the messages where a bug rule reproduces the labelled answer
  from the labelled problem: the product's diagnosis (`stages.diagnose`'s reading of the
  message and its answer) reproduces it too, with a rule the label's reading also fires.

Messages that say too little (no labelled problem or answer) count for `missing_said`: the
reader names what is missing. The `before_*` rates are the same for the readers the product
had before the reader (`find_problem`, `stated_answer`). Every rate has a 95% bootstrap
interval.

>>> same_problem("0.6 * 11", ".6 × 11"), same_problem("7 - 2 * 3", "(7 - 2) × 3")
(True, False)
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from tutorgraph.diagnosis.diagnose import Diagnoser, answer_value
from tutorgraph.diagnosis.expression import evaluate, parse
from tutorgraph.diagnosis.problem import find_problem
from tutorgraph.mathtext.spans import plain_text
from tutorgraph.refinement.answer import stated_answer
from tutorgraph.refinement.reader import answer_in, read_message
from tutorgraph.retrieval.request_diagnosis import read_and_diagnose
from tutorgraph_research.harness.results import bootstrap_ci

__all__ = ["ReaderMessage", "read_reader_messages", "run_reader_benchmark", "same_problem"]

METRICS = ("problem_read", "answer_read", "diagnosis_fired", "missing_said")
# The same, for the readers the product had before (`find_problem`, `stated_answer`: regular
# expressions over math spans), so that the two can be compared on the same messages.
BEFORE = ("before_problem_read", "before_answer_read", "before_diagnosis_fired")


@dataclass(frozen=True)
class ReaderMessage:
    """One labelled message (see the module's docstring)."""

    id: str
    text: str
    problem: str | None
    student_answer: str | None
    request: str
    misconception_ids: tuple[str, ...]
    question_id: int | None
    phrasing: str
    split: str
    source: str


def read_reader_messages(path: Path) -> list[ReaderMessage]:
    """The labelled messages of a JSON Lines file."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        out.append(
            ReaderMessage(
                id=str(row["id"]),
                text=str(row["text"]),
                problem=row["problem"],
                student_answer=row["student_answer"],
                request=str(row["request"]),
                misconception_ids=tuple(row["misconception_ids"]),
                question_id=row["question_id"],
                phrasing=str(row["phrasing"]),
                split=str(row["split"]),
                source=str(row["source"]),
            )
        )
    return out


_SPELLING = (
    ("×", "*"), ("·", "*"), ("÷", "/"), ("−", "-"), ("decimalplaces", "dp"),
    ("decimalplace", "dp"), ("significantfigures", "sf"), ("significantfigure", "sf"),
)  # fmt: skip


def _normal(text: str) -> str:
    flat = re.sub(r"\s+", "", text.casefold())
    for a, b in _SPELLING:
        flat = flat.replace(a, b)
    return flat


def _value(text: str) -> Fraction | None:
    """The value of arithmetic, or of "X of Y" (X a fraction or a percentage)."""
    part, of, whole = text.partition(" of ")
    if of:
        share = _value(part.removesuffix("%")) if part.endswith("%") else _value(part)
        amount = _value(whole)
        if share is None or amount is None:
            return None
        return share * amount / (100 if part.endswith("%") else 1)
    return evaluate(parse(text))


def same_problem(label: str, read: str) -> bool:
    """Whether the reader's problem is the labelled one (see the module's docstring)."""
    if _normal(label) == _normal(read):
        return True
    left, right = parse(label), parse(read)
    if left is not None and right is not None and _tree(left) == _tree(right):
        return True
    a, b = _value(label), _value(read)
    return a is not None and a == b


def _tree(node: object) -> object:
    """An expression tree with numbers by value (so "0.6" and ".6" are one number)."""
    fields = getattr(node, "__dataclass_fields__", {})
    if "value" in fields:
        return ("num", getattr(node, "value"))  # noqa: B009 - dataclass field
    return (type(node).__name__, *(_tree(getattr(node, f)) for f in fields))


def same_answer(label: str, read: str | None) -> bool:
    if read is None:
        return False
    a, b = answer_value(label), answer_value(read)
    return a == b if a is not None and b is not None else _normal(label) == _normal(read)


def _score(diagnoser: Diagnoser, m: ReaderMessage) -> dict[str, float | None]:
    reading = read_message(m.text)
    answer = answer_in(m.text)
    out: dict[str, float | None] = dict.fromkeys(METRICS + BEFORE)
    old_answer = stated_answer(plain_text(m.text))
    old_problem = find_problem(m.text, student_answer=old_answer)
    if m.problem is None or m.student_answer is None:
        said = set(reading.missing)
        out["missing_said"] = float(
            ("problem" in said) == (m.problem is None)
            and ("answer" in said) == (m.student_answer is None)
        )
    if m.problem is not None:
        out["problem_read"] = float(
            reading.problem is not None and same_problem(m.problem, reading.problem.value)
        )
        out["before_problem_read"] = float(
            old_problem is not None and same_problem(m.problem, old_problem)
        )
    if m.student_answer is not None:
        out["answer_read"] = float(same_answer(m.student_answer, answer))
        out["before_answer_read"] = float(same_answer(m.student_answer, old_answer))
    if m.problem is not None and m.student_answer is not None:
        labelled = diagnoser.diagnose(m.problem, m.student_answer)
        rules = {f.rule for f in labelled.findings}
        if rules:
            got = (
                read_and_diagnose(diagnoser, m.text, answer, None, message=True) if answer else None
            )
            fired = {f.rule for f in got[1].findings} if got is not None else set()
            out["diagnosis_fired"] = float(bool(rules & fired))
            before = set()
            if old_problem is not None and old_answer:
                before = {f.rule for f in diagnoser.diagnose(old_problem, old_answer).findings}
            out["before_diagnosis_fired"] = float(bool(rules & before))
    return out


def _rates(rows: Sequence[dict[str, float | None]]) -> dict[str, Any]:
    out: dict[str, Any] = {"n": len(rows)}
    for metric in METRICS + BEFORE:
        values = [v for r in rows if (v := r[metric]) is not None]
        if values:
            low, high = bootstrap_ci(values)
            out[metric] = {
                "mean": round(sum(values) / len(values), 4),
                "ci95": [round(low, 4), round(high, 4)],
                "n": len(values),
            }
    return out


def run_reader_benchmark(
    messages: Sequence[ReaderMessage], diagnoser: Diagnoser, *, repeats: int = 5
) -> dict[str, Any]:
    """Rates per split, source and phrasing kind, the misses of the dev split, and the
    reader's warm time per message (p50, p95, max over `repeats` passes)."""
    scored = [(m, _score(diagnoser, m)) for m in messages]
    groups: dict[str, list[dict[str, float | None]]] = {}
    for m, row in scored:
        for key in ("all", m.split, f"{m.split}/{m.source}"):
            groups.setdefault(key, []).append(row)
    times = []
    for _ in range(repeats):
        for m in messages:
            start = time.perf_counter()
            read_message(m.text)
            times.append((time.perf_counter() - start) * 1000)
    times.sort()
    misses = [
        {"id": m.id, "text": m.text, "failed": [k for k in METRICS if row[k] == 0.0]}
        for m, row in scored
        if m.split == "dev" and any(row[k] == 0.0 for k in METRICS)
    ]
    return {
        "groups": {k: _rates(v) for k, v in sorted(groups.items())},
        "reader_ms": {
            "p50": round(times[len(times) // 2], 4),
            "p95": round(times[int(len(times) * 0.95)], 4),
            "max": round(times[-1], 4),
            "calls": len(times),
        },
        "dev_misses": misses,
    }
