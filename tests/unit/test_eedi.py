"""Eedi loaders on the real slice in tests/data/eedi (see its SOURCE.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutorgraph.ingest.eedi import (
    EediQuestion,
    EediSubject,
    eedi_construct_id,
    eedi_query_text,
    eedi_records,
    read_eedi_questions,
    read_misconceptions,
    read_subjects,
)
from tutorgraph.models.records import SourceRecords

pytestmark = pytest.mark.unit

DATA = Path(__file__).resolve().parents[1] / "data" / "eedi"
TRAIN = DATA / "train.csv"
MISCONCEPTIONS = DATA / "misconception_mapping.csv"
SUBJECTS = DATA / "subject_metadata.csv"

# The held-out retrieval case documented in tests/data/eedi/SOURCE.md.
HELD_OUT_QUESTION = 163
HELD_OUT_MISCONCEPTION = 2142
HELD_OUT_CONSTRUCT = 1428


@pytest.fixture(scope="module")
def questions() -> list[EediQuestion]:
    return read_eedi_questions(TRAIN)


@pytest.fixture(scope="module")
def misconceptions() -> dict[int, str]:
    return read_misconceptions(MISCONCEPTIONS)


@pytest.fixture(scope="module")
def subjects() -> list[EediSubject]:
    return read_subjects(SUBJECTS)


@pytest.fixture(scope="module")
def records(
    questions: list[EediQuestion], misconceptions: dict[int, str], subjects: list[EediSubject]
) -> SourceRecords:
    return eedi_records(questions, misconceptions, subjects)


# -- readers -----------------------------------------------------------------------------


def test_read_questions(questions: list[EediQuestion]) -> None:
    assert len(questions) == 40
    q = questions[0]
    assert (q.question_id, q.construct_id, q.subject_id, q.correct_answer) == (2, 2774, 339, "B")
    assert q.construct_name == "Calculate the range from a list of data"
    assert q.subject_name == "Range and Interquartile Range from a List of Data"
    assert q.question_text.startswith("Tom and Katie are discussing the \\( 5 \\) plants")
    assert q.answers == {
        "A": "Only\nTom",
        "B": "Only\nKatie",
        "C": "Both Tom and Katie",
        "D": "Neither is correct",
    }
    # blank MisconceptionBId (the correct answer) is None
    assert q.misconception_ids == {"A": 1287, "B": None, "C": 1287, "D": 1073}
    assert [x.question_id for x in questions] == sorted(x.question_id for x in questions)


def test_read_misconceptions(misconceptions: dict[int, str]) -> None:
    assert len(misconceptions) == 60
    assert misconceptions[0] == "Does not know that angles in a triangle sum to 180 degrees"
    # two ids, one text: both kept
    assert misconceptions[2068] == misconceptions[2142]


def test_read_subjects_handles_bom_and_null(subjects: list[EediSubject]) -> None:
    assert SUBJECTS.read_bytes().startswith(b"\xef\xbb\xbf")
    assert subjects[0] == EediSubject(subject_id=3, name="Maths", parent_id=None, level=0)
    by_id = {s.subject_id: s for s in subjects}
    assert by_id[245] == EediSubject(245, "Squares, Cubes, etc", 40, 3)
    assert len(subjects) == 43


def test_subjects_read_the_same_without_bom(tmp_path: Path) -> None:
    # the BOM is stripped, not glued to the first column's name
    plain = tmp_path / "subject_metadata.csv"
    plain.write_bytes(SUBJECTS.read_bytes()[3:])
    assert read_subjects(plain) == read_subjects(SUBJECTS)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("QuestionId,ConstructId\n1,2\n", "header lacks"),
        ("", "empty file"),
    ],
)
def test_question_reader_rejects_bad_headers(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "train.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message) as info:
        read_eedi_questions(path)
    assert str(path) in str(info.value)


def _with_row(tmp_path: Path, row: str) -> Path:
    lines = TRAIN.read_text(encoding="utf-8").split("\n")
    path = tmp_path / "train.csv"
    # header + first question (one record on lines 2-8) + the bad row
    path.write_text("\n".join(lines[:8]) + "\n" + row + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("9,1,c,2,s,E,q,a,b,c,d,,,,", "CorrectAnswer must be one of A-D"),
        ("x9,1,c,2,s,A,q,a,b,c,d,,,,", "QuestionId must be an integer"),
        ("9,1,c,2,s,A,q,a,b,c,d,,7.5,,", "MisconceptionBId must be an integer"),
        ("9,1,c,2,s,A,q,a,b,c,d,,,", "expected 15 fields, got 14"),
        ("2,1,c,2,s,A,q,a,b,c,d,,,,", "QuestionId 2 repeats line 2"),
        ('9,1,"c,2,s,A,q,a,b,c,d,,,,', "malformed CSV"),
    ],
)
def test_question_reader_names_file_and_line(tmp_path: Path, row: str, message: str) -> None:
    path = _with_row(tmp_path, row)
    with pytest.raises(ValueError, match=message) as info:
        read_eedi_questions(path)
    # the first record spans lines 2-8 (quoted newlines), so the bad one starts on line 9
    assert f"{path}: line 9" in str(info.value)


def test_float_spelled_ids_are_accepted(tmp_path: Path) -> None:
    path = _with_row(tmp_path, "9,1,c,2,s,A,q,a,b,c,d,,2142.0,,")
    assert read_eedi_questions(path)[-1].misconception_ids["B"] == 2142


# -- records -----------------------------------------------------------------------------


def test_subject_concepts(records: SourceRecords, subjects: list[EediSubject]) -> None:
    concepts = {c.id: c for c in records.concepts}
    subject_concepts = [c for c in records.concepts if c.kind == "subject"]
    # every metadata subject, plus 1984, which questions use but the metadata lacks
    assert len(subject_concepts) == len(subjects) + 1
    root = concepts["eedi:subject:3"]
    assert (root.name, root.parent_ids, root.grade) == ("Maths", [], None)
    assert (root.source, root.license) == ("eedi-subjects", "LicenseRef-unverified-noncommercial")
    assert concepts["eedi:subject:245"].parent_ids == ["eedi:subject:40"]
    missing = concepts["eedi:subject:1984"]
    assert missing.name == "Quadratic inequalities on Number Lines"
    assert missing.parent_ids == []
    assert (missing.source, missing.license) == ("eedi", "CC-BY-NC-4.0")


def test_construct_concepts(records: SourceRecords, questions: list[EediQuestion]) -> None:
    constructs = {c.id: c for c in records.concepts if c.kind == "construct"}
    assert len(constructs) == len({q.construct_id for q in questions})
    c = constructs["eedi:construct:2774"]
    assert c.name == "Calculate the range from a list of data"
    assert c.description == ""
    assert (c.source, c.license) == ("eedi", "CC-BY-NC-4.0")
    # a construct under several subjects keeps them all, sorted
    assert c.parent_ids == ["eedi:subject:102", "eedi:subject:339"]
    assert constructs["eedi:construct:473"].parent_ids == [
        "eedi:subject:216",
        "eedi:subject:224",
        "eedi:subject:245",
        "eedi:subject:246",
    ]
    assert constructs["eedi:construct:3141"].parent_ids == [
        "eedi:subject:168",
        "eedi:subject:1984",
    ]


def test_all_misconceptions_with_links_from_questions(
    records: SourceRecords, misconceptions: dict[int, str]
) -> None:
    by_id = {m.id: m for m in records.misconceptions}
    assert len(by_id) == len(misconceptions)
    m = by_id["eedi:misconception:2142"]
    assert m.text == misconceptions[2142]
    assert m.concept_ids == ["eedi:construct:1428"]
    assert by_id["eedi:misconception:1535"].concept_ids == [
        "eedi:construct:1428",
        "eedi:construct:1614",
    ]
    # in the mapping, used by no question here: kept, unlinked
    assert by_id["eedi:misconception:0"].concept_ids == []
    assert (m.source, m.license) == ("eedi", "CC-BY-NC-4.0")


def test_links_come_only_from_the_given_questions(
    questions: list[EediQuestion], misconceptions: dict[int, str], subjects: list[EediSubject]
) -> None:
    only = [q for q in questions if q.question_id == 2]
    recs = eedi_records(only, misconceptions, subjects)
    linked = {m.id: m.concept_ids for m in recs.misconceptions if m.concept_ids}
    assert linked == {
        "eedi:misconception:1287": ["eedi:construct:2774"],
        "eedi:misconception:1073": ["eedi:construct:2774"],
    }
    assert len(recs.misconceptions) == len(misconceptions)
    assert [d.id for d in recs.documents] == ["eedi:question:2"]


def test_held_out_question_keeps_its_misconception_reachable(
    questions: list[EediQuestion], misconceptions: dict[int, str], subjects: list[EediSubject]
) -> None:
    held = next(q for q in questions if q.question_id == HELD_OUT_QUESTION)
    assert held.misconception_ids["A"] == HELD_OUT_MISCONCEPTION
    assert held.construct_id == HELD_OUT_CONSTRUCT
    train = [q for q in questions if q.question_id != HELD_OUT_QUESTION]
    recs = eedi_records(train, misconceptions, subjects)
    assert f"eedi:question:{HELD_OUT_QUESTION}" not in {d.id for d in recs.documents}
    m = next(
        m for m in recs.misconceptions if m.id == f"eedi:misconception:{HELD_OUT_MISCONCEPTION}"
    )
    assert m.concept_ids == [eedi_construct_id(HELD_OUT_CONSTRUCT)]
    # 2068 was revealed only by the held-out question, so it loses its link
    m2068 = next(m for m in recs.misconceptions if m.id == "eedi:misconception:2068")
    assert m2068.concept_ids == []


def test_question_documents(records: SourceRecords) -> None:
    docs = {d.id: d for d in records.documents}
    assert len(docs) == 40
    d = docs["eedi:question:2"]
    assert (d.kind, d.title, d.concept_ids) == (
        "question",
        "Calculate the range from a list of data",
        ["eedi:construct:2774"],
    )
    assert (d.source, d.license) == ("eedi", "CC-BY-NC-4.0")
    assert d.text == (
        "Tom and Katie are discussing the 5 plants with these heights:\n"
        "24 cm, 17 cm, 42 cm, 26 cm, 13 cm\n"
        "Tom says if all the plants were cut in half, the range wouldn't change.\n"
        "Katie says if all the plants grew by 3 cm each, the range wouldn't change.\n"
        "Who do you agree with?\n"
        "A: Only Tom\n"
        "B: Only Katie\n"
        "C: Both Tom and Katie\n"
        "D: Neither is correct\n"
        "Correct answer: B"
    )
    assert docs["eedi:question:166"].text.splitlines()[-2] == "D: (x-1)/6 × 9/((x+1)(x-1))"


def test_question_documents_carry_no_misconception_labels(
    records: SourceRecords, misconceptions: dict[int, str]
) -> None:
    for d in records.documents:
        assert "isconception" not in d.text
        for text in misconceptions.values():
            assert text not in d.text, (d.id, text)


def test_outputs_sorted_and_deterministic(
    records: SourceRecords,
    questions: list[EediQuestion],
    misconceptions: dict[int, str],
    subjects: list[EediSubject],
) -> None:
    for items in (records.concepts, records.misconceptions, records.documents):
        ids = [x.id for x in items]
        assert ids == sorted(ids) and len(ids) == len(set(ids))
    assert records.prerequisites == []
    again = eedi_records(list(reversed(questions)), dict(misconceptions), list(reversed(subjects)))
    assert again == records


def test_unknown_misconception_label_is_an_error(questions: list[EediQuestion]) -> None:
    with pytest.raises(ValueError, match="misconception 1287"):
        eedi_records(questions[:1], {0: "x"}, [])


def test_query_text(questions: list[EediQuestion]) -> None:
    q = next(q for q in questions if q.question_id == HELD_OUT_QUESTION)
    text = eedi_query_text(q, "A")
    assert text == (
        "When factorising x^2+5x+6 we need two numbers that:\n"
        "Correct answer: Add to give 5 and multiply to give 6\n"
        "Student answer: Add to give 6 and multiply to give 5"
    )
    assert q.construct_name not in text and q.subject_name not in text
    q2 = next(q for q in questions if q.question_id == 2)
    assert eedi_query_text(q2, "A").endswith(
        "Who do you agree with?\nCorrect answer: Only Katie\nStudent answer: Only Tom"
    )
    with pytest.raises(ValueError, match="correct answer"):
        eedi_query_text(q2, "B")
    with pytest.raises(ValueError, match="no answer"):
        eedi_query_text(q2, "E")
