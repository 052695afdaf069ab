"""The free-text message set: deterministic, split by question, answers readable.

Uses the committed Eedi slice (tests/data/eedi, CC BY-NC 4.0, see its SOURCE.md) and the
committed message set (data/benchmarks, derived from the Eedi development file).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tutorgraph.errors import ConfigurationError
from tutorgraph.ingest.eedi import read_eedi_questions
from tutorgraph.mathtext.spans import plain_text
from tutorgraph.refinement.answer import stated_answer
from tutorgraph_research.tasks.messages import (
    TEMPLATES,
    read_student_messages,
    student_messages,
    write_student_messages,
)

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[3]
SLICE = ROOT / "tests" / "data" / "eedi" / "train.csv"
SET = ROOT / "data" / "benchmarks" / "student_messages.jsonl"


def test_messages_are_deterministic_and_round_trip(tmp_path: Path) -> None:
    questions = read_eedi_questions(SLICE)
    first = student_messages(questions, n=50)
    assert first == student_messages(list(reversed(questions)), n=50)
    assert first, "the slice has short labelled questions"
    for m in first:
        assert m.student_answer in m.message and m.problem in m.message
        assert m.accepted and m.accepted[0].startswith("eedi:misconception:")
    write_student_messages(first, tmp_path / "m.jsonl")
    assert read_student_messages(tmp_path / "m.jsonl") == first


def test_a_question_is_never_on_both_sides_of_the_split() -> None:
    messages = read_student_messages(SET)
    assert len(messages) >= 150
    sides: dict[int, set[str]] = {}
    for m in messages:
        sides.setdefault(m.question_id, set()).add(m.split)
    assert all(len(s) == 1 for s in sides.values())
    heldout = sum(m.split == "heldout" for m in messages) / len(messages)
    assert 0.2 <= heldout <= 0.4
    assert set(Counter(m.template for m in messages)) == set(TEMPLATES)


def test_the_refiner_reads_the_answer_from_every_template() -> None:
    messages = read_student_messages(SET)
    read: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for m in messages:
        got = stated_answer(plain_text(m.message))
        total[m.template] += 1
        if got is not None and got.replace(" ", "") == plain_text(m.student_answer).replace(
            " ", ""
        ):
            read[m.template] += 1
    assert sum(read.values()) / len(messages) >= 0.9
    for template, n in total.items():
        assert read[template] / n >= 0.8, (template, read[template], n)


def test_a_malformed_line_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\n', encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"bad\.jsonl:1"):
        read_student_messages(bad)
