"""The stated-answer set of `tutorgraph bench tutoring`'s reader measures (issue 62, part 6).

``data/benchmarks/stated_answers.jsonl`` (described in ``STATED_ANSWERS.md``) holds student
messages written for this project, each labelled with the answer it states as the
student's own, or null: numbers in words, choice letters, verdicts on two options,
expressions, numbers with units, hedged answers, answers on a line of their own, and
questions and other messages that state none. Each message is read as the packet reads it
(`request_facts`: the student's answer its answer check and diagnosis get), and scored:

* ``recall``: a message that states an answer is read with exactly that answer (after
  normalising case, spaces and a number's unit: `same_stated`);
* ``none``: a message that states no answer is read with none;
* ``precision``: of the messages read with an answer, the share read with the stated one.

The split is the other message sets' (`message_split` of the id: a deterministic third
``heldout``, kept out of all tuning); `load_stated_answers` refuses a line that breaks the
set's rules with a `ValueError` naming the file and the line.

>>> same_stated("12 cookies", "12"), same_stated("3 1/2", "3"), same_stated("b", "B")
(True, False, True)
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tutorgraph.retrieval.facts import request_facts
from tutorgraph_client.models.request import RetrievalRequest
from tutorgraph_research.harness.results import bootstrap_ci
from tutorgraph_research.tasks.standards_data import SPLITS, message_split

__all__ = [
    "FORMS",
    "StatedAnswer",
    "load_stated_answers",
    "packet_answer",
    "same_stated",
    "score_stated_answers",
]

# The forms an answer takes, then the messages that state none.
FORMS = (
    "number",
    "words",
    "letter",
    "verdict",
    "expression",
    "unit",
    "hedged",
    "line_break",
    "question",
    "no_answer",
)
NO_ANSWER = frozenset({"question", "no_answer"})
KEYS = ("id", "text", "form", "stated_answer", "split")


@dataclass(frozen=True)
class StatedAnswer:
    """One labelled message: `stated_answer` is the answer as the reader should give it
    (digits for a number in words, a choice's capital letter, `both` or `neither` for a
    verdict, an expression as written, a number with or without its unit), or None."""

    id: str
    text: str
    form: str
    stated_answer: str | None
    split: str


def _row(raw: dict[str, Any]) -> StatedAnswer:
    if sorted(raw) != sorted(KEYS):
        raise ValueError(f"keys {sorted(raw)}, not {sorted(KEYS)}")
    row = StatedAnswer(**{k: raw[k] for k in KEYS})
    if row.form not in FORMS:
        raise ValueError(f"unknown form {row.form!r}")
    if (row.stated_answer is None) != (row.form in NO_ANSWER):
        raise ValueError(
            f"a {row.form!r} message states {'no' if row.form in NO_ANSWER else 'an'} answer"
        )
    if row.split not in SPLITS or row.split != message_split(row.id):
        raise ValueError(f"split {row.split!r}, but the rule gives {message_split(row.id)!r}")
    if not row.text.strip():
        raise ValueError("empty text")
    return row


def load_stated_answers(path: Path) -> list[StatedAnswer]:
    """The labelled messages of `path` (see the module's docstring)."""
    rows: list[StatedAnswer] = []
    seen: set[str] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = _row(json.loads(line))
            if row.id in seen:
                raise ValueError(f"duplicate id {row.id!r}")
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{path}:{number}: {exc}") from exc
        seen.add(row.id)
        rows.append(row)
    return rows


_SPELLING = (("×", "*"), ("÷", "/"), ("−", "-"), ("–", "-"))
# A number and its unit ("12 cookies", "36 cm²", "90°", "$4.50"); not "5a" or "3 1/2".
_WITH_UNIT = re.compile(
    r"[$£€]?(?P<n>-?\d[\d,]*(?:\.\d+)?(?: \d+/\d+|/\d+)?%?)(?:\s+[^\W\d_][^\d]*|\s*[°²³])?"
)


def _normal(text: str) -> str:
    flat = " ".join(text.casefold().split())
    for a, b in _SPELLING:
        flat = flat.replace(a, b)
    if m := _WITH_UNIT.fullmatch(flat):
        flat = m["n"]
    return flat.replace(" ", "")


def same_stated(label: str, read: str | None) -> bool:
    """Whether the answer read is the stated one: the same text after normalising case,
    spaces, operator symbols and a number's unit or currency sign."""
    return read is not None and _normal(label) == _normal(read)


def packet_answer(text: str) -> str | None:
    """The student's answer a message's packet gets (`request_facts`, as the retriever
    works it out: the reader, then the refiner's cue, which the local refiner shares)."""
    return request_facts(RetrievalRequest(query=text), None).student_answer


def _rate(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"mean": None, "ci95": None, "n": 0}
    low, high = bootstrap_ci(values)
    return {
        "mean": round(sum(values) / len(values), 4),
        "ci95": [round(low, 4), round(high, 4)],
        "n": len(values),
    }


def score_stated_answers(
    rows: Sequence[StatedAnswer], read: Callable[[str], str | None] = packet_answer
) -> dict[str, Any]:
    """Per split: `recall`, `none` and `precision` (see the module's docstring) with 95%
    bootstrap intervals, recall or none per form, and every miss of the dev split."""
    out: dict[str, Any] = {}
    for split in SPLITS:
        chosen = [r for r in rows if r.split == split]
        got = {r.id: read(r.text) for r in chosen}
        stated = [r for r in chosen if r.stated_answer is not None]
        right = {r.id: same_stated(r.stated_answer or "", got[r.id]) for r in stated}
        per_form: dict[str, list[float]] = defaultdict(list)
        for r in chosen:
            ok = right[r.id] if r.stated_answer is not None else got[r.id] is None
            per_form[r.form].append(float(ok))
        answered = [r for r in chosen if got[r.id] is not None]
        out[split] = {
            "recall": _rate([float(right[r.id]) for r in stated]),
            "none": _rate([float(got[r.id] is None) for r in chosen if r.stated_answer is None]),
            "precision": _rate([float(right.get(r.id, False)) for r in answered]),
            "forms": {f: _rate(per_form[f]) for f in FORMS if per_form[f]},
        }
        if split == "dev":
            out[split]["misses"] = [
                {"id": r.id, "text": r.text, "stated": r.stated_answer, "read": got[r.id]}
                for r in chosen
                if (right[r.id] if r.stated_answer is not None else got[r.id] is None) is False
            ]
    return out
