"""The teaching folder's files become bundle records, and a wrong answer is refused by line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tutorgraph.errors import BundleError, ConfigurationError
from tutorgraph.ingest.teaching import JUDGED, load_teaching

pytestmark = pytest.mark.unit


def _lesson(**over: Any) -> dict[str, Any]:
    lesson: dict[str, Any] = {
        "standard": "ccss:2.NBT.B.5",
        "grade": "2",
        "title": "Add and subtract within 100",
        "idea": "Add tens to tens and ones to ones.",
        "picture": "Ten-sticks and loose cubes on a mat.",
        "slip": "Taking the smaller digit from the larger in each column.",
        "adult": "Ask what happens when there are not enough ones.",
        "examples": [
            {
                "problem": "52 - 38 = ?",
                "steps": ["Break a ten.", "12 - 8 = 4, 4 - 3 = 1."],
                "answer": "14",
                "expression": "52 - 38",
            },
            {
                "problem": "Which shape has 3 sides?",
                "steps": ["Count sides.", "3 sides."],
                "answer": "triangle",
            },
        ],
        "practice": [
            {
                "question": f"{a} + 7 = ?",
                "answer": str(a + 7),
                "unit": "shells",
                "expression": f"{a} + 7",
            }
            for a in range(10, 15)
        ],
    }
    lesson.update(over)
    return lesson


def _write(folder: Path, name: str, *rows: dict[str, Any]) -> None:
    folder.mkdir(exist_ok=True)
    (folder / name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def test_a_lesson_becomes_an_explanation_examples_and_practice_at_its_grade(
    tmp_path: Path,
) -> None:
    _write(tmp_path, "lessons_k2.jsonl", _lesson())
    docs = load_teaching(tmp_path).documents
    assert [d.kind for d in docs] == ["explanation"] + ["worked_example"] * 2 + ["exercise"] * 5
    assert {d.grade for d in docs} == {"2"}
    assert {tuple(d.concept_ids) for d in docs} == {("ccss:2.NBT.B.5",)}
    assert docs[0].id == "tutorgraph:lesson:2.NBT.B.5"
    assert docs[0].title == "Grade 2: Add and subtract within 100"
    assert "Picture it: Ten-sticks" in docs[0].text
    assert docs[1].text.splitlines()[1:] == [
        "Solution:",
        "1. Break a ten.",
        "2. 12 - 8 = 4, 4 - 3 = 1.",
        "Answer: 14",
    ]
    assert docs[3].text == "10 + 7 = ?\nAnswer: 17 shells"


def test_an_answer_its_expression_does_not_give_is_refused_with_file_and_line(
    tmp_path: Path,
) -> None:
    bad = _lesson()
    bad["practice"][2]["answer"] = "99"
    _write(tmp_path, "lessons_k2.jsonl", _lesson(standard="ccss:2.NBT.B.6"), bad)
    with pytest.raises(BundleError, match=r"lessons_k2.jsonl:2: '12 \+ 7' does not give .*'99'"):
        load_teaching(tmp_path)


def test_an_unknown_field_or_too_few_items_is_refused(tmp_path: Path) -> None:
    _write(tmp_path, "lessons_k2.jsonl", _lesson(colour="red"))
    with pytest.raises(BundleError, match=r":1: colour: Extra inputs"):
        load_teaching(tmp_path)
    _write(tmp_path, "lessons_k2.jsonl", _lesson(practice=_lesson()["practice"][:4]))
    with pytest.raises(BundleError, match=r":1: practice: List should have at least 5"):
        load_teaching(tmp_path)


def test_misconceptions_and_accepted_alignments(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "misconceptions_k5.jsonl",
        {
            "id": "tutorgraph:misconception:counts-start",
            "name": "Counts the starting number when counting on",
            "description": "Says 8, 9, 10 for 8 + 3, counting the 8 as one of the three.",
            "examples": [
                {
                    "problem": "8 + 3",
                    "wrong_answer": "10",
                    "right_answer": "11",
                    "expression": "8 + 3",
                },
                {"problem": "5 + 2", "wrong_answer": "6", "right_answer": "7"},
            ],
            "standards": ["ccss:1.OA.C.5"],
            "grade": "1",
            "rule": None,
        },
    )
    pair = {
        "concept_id": "eedi:construct:1",
        "standard": "ccss:6.EE.A.2",
        "method": "linker-candidate",
        "candidate_rank": 1,
        "candidate_score": 0.5,
    }
    _write(
        tmp_path,
        "alignment_x.jsonl",
        {**pair, "accepted": True, "confidence": 0.9},
        {**pair, "standard": "ccss:7.EE.A.1", "accepted": False, "confidence": None},
    )
    records = load_teaching(tmp_path)
    (m,) = records.misconceptions
    assert (m.text, m.grade, m.concept_ids) == (
        "Counts the starting number when counting on",
        "1",
        ["ccss:1.OA.C.5"],
    )
    assert [e.wrong_answer for e in m.examples] == ["10", "6"]
    (edge,) = records.prerequisites
    assert (edge.prerequisite_id, edge.concept_id, edge.relation, edge.score) == (
        "ccss:6.EE.A.2",
        "eedi:construct:1",
        "aligned_with",
        0.9,
    )
    assert edge.method == f"{JUDGED}:linker-candidate"


def test_a_missing_folder_says_how_to_go_on(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="--no-teaching"):
        load_teaching(tmp_path / "nope")
