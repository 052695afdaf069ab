"""Eedi loaders: diagnostic questions, misconceptions and the subject tree.

Sources (all non-commercial; see ``data/NOTICE``):

* ``train.csv`` from the Kaggle competition "Eedi - Mining Misconceptions in Mathematics"
  (2024, CC BY-NC 4.0): one multiple-choice question per row, its construct and subject,
  the correct letter, and a misconception id per wrong answer (blank = unlabelled).
* ``misconception_mapping.csv`` (same competition): ``MisconceptionId,MisconceptionName``.
* ``subject_metadata.csv`` from the Eedi NeurIPS 2020 challenge (license unverified,
  treated as non-commercial): a four-level subject tree. The file starts with a BOM.

:func:`eedi_records` turns them into curriculum records (design section 4). Question
documents never carry misconception labels: the misconception-retrieval benchmark builds
its stores from training questions, and labels reach the graph only as
misconception -> construct links derived from the questions it is given.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from tutorgraph.mathtext.latex import latex_to_text
from tutorgraph.models.records import SourceRecords
from tutorgraph.ranking.query_text import stated_query
from tutorgraph_client.models.curriculum import Concept, Document, Misconception

__all__ = [
    "ANSWER_LETTERS",
    "EediQuestion",
    "EediSubject",
    "eedi_construct_id",
    "eedi_fold",
    "eedi_misconception_id",
    "eedi_query_text",
    "eedi_question_id",
    "eedi_records",
    "eedi_stated_text",
    "eedi_subject_id",
    "read_eedi_questions",
    "read_misconceptions",
    "read_subjects",
]

ANSWER_LETTERS: tuple[str, ...] = ("A", "B", "C", "D")

SOURCE = "eedi"
LICENSE = "CC-BY-NC-4.0"
SUBJECTS_SOURCE = "eedi-subjects"
SUBJECTS_LICENSE = "LicenseRef-unverified-noncommercial"

_QUESTION_COLUMNS = (
    "QuestionId",
    "ConstructId",
    "ConstructName",
    "SubjectId",
    "SubjectName",
    "CorrectAnswer",
    "QuestionText",
    *(f"Answer{x}Text" for x in ANSWER_LETTERS),
    *(f"Misconception{x}Id" for x in ANSWER_LETTERS),
)
_MISCONCEPTION_COLUMNS = ("MisconceptionId", "MisconceptionName")
_SUBJECT_COLUMNS = ("SubjectId", "Name", "ParentId", "Level")
# pandas round-trips can turn integer ids into "123.0"; accept that spelling, nothing looser.
_INT_RE = re.compile(r"^-?\d+(\.0+)?$")


@dataclass(frozen=True)
class EediQuestion:
    """One row of Eedi ``train.csv``; texts are raw (LaTeX), as in the file."""

    question_id: int
    construct_id: int
    construct_name: str
    subject_id: int
    subject_name: str
    correct_answer: str
    question_text: str
    answers: dict[str, str]
    misconception_ids: dict[str, int | None]


@dataclass(frozen=True)
class EediSubject:
    """One node of the Eedi subject tree (level 0 is the root, "Maths")."""

    subject_id: int
    name: str
    parent_id: int | None
    level: int


# -- reading ---------------------------------------------------------------------------


def _rows(
    path: Path, columns: Sequence[str], encoding: str
) -> Iterator[tuple[int, dict[str, str]]]:
    """Yield (first line number, row) per record; ValueError on a malformed file or row."""
    try:
        with path.open(encoding=encoding, newline="") as fh:
            reader = csv.reader(fh, strict=True)
            try:
                header = next(reader, None)
                if header is None:
                    raise ValueError(f"{path}: line 1: empty file, expected {','.join(columns)}")
                missing = [c for c in columns if c not in header]
                if missing:
                    raise ValueError(f"{path}: line 1: header lacks {', '.join(missing)}")
                start = reader.line_num + 1
                for fields in reader:
                    # a quoted field may span lines: report the line the record starts on
                    line, start = start, reader.line_num + 1
                    if not fields:
                        continue  # blank line
                    if len(fields) != len(header):
                        raise ValueError(
                            f"{path}: line {line}: expected {len(header)} fields, got {len(fields)}"
                        )
                    yield line, dict(zip(header, fields, strict=True))
            except csv.Error as exc:
                raise ValueError(f"{path}: line {reader.line_num}: malformed CSV: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not valid {encoding}: {exc}") from exc


def _int(value: str, column: str, where: str) -> int:
    text = value.strip()
    if not _INT_RE.match(text):
        raise ValueError(f"{where}: {column} must be an integer, got {value!r}")
    return int(text.split(".", 1)[0])


def _optional_int(
    value: str, column: str, where: str, *, nulls: Iterable[str] = ("",)
) -> int | None:
    return None if value.strip() in nulls else _int(value, column, where)


def read_eedi_questions(path: Path) -> list[EediQuestion]:
    """Read Eedi ``train.csv`` (every column as text), in file order.

    Raises ValueError naming the file and line for a malformed row, an unknown correct
    letter or a repeated QuestionId.

    >>> qs = read_eedi_questions(Path("tests/data/eedi/train.csv"))  # doctest: +SKIP
    >>> qs[0].question_id, qs[0].correct_answer  # doctest: +SKIP
    (2, 'B')
    """
    questions: list[EediQuestion] = []
    seen: dict[int, int] = {}
    for line, row in _rows(path, _QUESTION_COLUMNS, "utf-8"):
        where = f"{path}: line {line}"
        qid = _int(row["QuestionId"], "QuestionId", where)
        if qid in seen:
            raise ValueError(f"{where}: QuestionId {qid} repeats line {seen[qid]}")
        seen[qid] = line
        correct = row["CorrectAnswer"].strip()
        if correct not in ANSWER_LETTERS:
            raise ValueError(f"{where}: CorrectAnswer must be one of A-D, got {correct!r}")
        questions.append(
            EediQuestion(
                question_id=qid,
                construct_id=_int(row["ConstructId"], "ConstructId", where),
                construct_name=row["ConstructName"].strip(),
                subject_id=_int(row["SubjectId"], "SubjectId", where),
                subject_name=row["SubjectName"].strip(),
                correct_answer=correct,
                question_text=row["QuestionText"],
                answers={x: row[f"Answer{x}Text"] for x in ANSWER_LETTERS},
                misconception_ids={
                    x: _optional_int(row[f"Misconception{x}Id"], f"Misconception{x}Id", where)
                    for x in ANSWER_LETTERS
                },
            )
        )
    return questions


def read_misconceptions(path: Path) -> dict[int, str]:
    """Read ``misconception_mapping.csv`` into ``{MisconceptionId: MisconceptionName}``.

    Two ids may share a text (2068 and 2142 do); both are kept.
    """
    out: dict[int, str] = {}
    for line, row in _rows(path, _MISCONCEPTION_COLUMNS, "utf-8"):
        where = f"{path}: line {line}"
        mid = _int(row["MisconceptionId"], "MisconceptionId", where)
        name = row["MisconceptionName"].strip()
        if mid in out:
            raise ValueError(f"{where}: MisconceptionId {mid} appears twice")
        if not name:
            raise ValueError(f"{where}: MisconceptionName is empty")
        out[mid] = name
    return out


def read_subjects(path: Path) -> list[EediSubject]:
    """Read Eedi ``subject_metadata.csv`` (BOM tolerated; ``NULL`` parent = root), in file order."""
    out: list[EediSubject] = []
    seen: set[int] = set()
    # utf-8-sig: the published file starts with a byte-order mark that would
    # otherwise become part of the first column's name.
    for line, row in _rows(path, _SUBJECT_COLUMNS, "utf-8-sig"):
        where = f"{path}: line {line}"
        sid = _int(row["SubjectId"], "SubjectId", where)
        if sid in seen:
            raise ValueError(f"{where}: SubjectId {sid} appears twice")
        seen.add(sid)
        name = row["Name"].strip()
        if not name:
            raise ValueError(f"{where}: Name is empty")
        out.append(
            EediSubject(
                subject_id=sid,
                name=name,
                parent_id=_optional_int(row["ParentId"], "ParentId", where, nulls=("", "NULL")),
                level=_int(row["Level"], "Level", where),
            )
        )
    return out


# -- records ---------------------------------------------------------------------------


def eedi_subject_id(sid: int) -> str:
    """The curriculum id of an Eedi subject, e.g. ``eedi:subject:7``."""
    return f"eedi:subject:{sid}"


def eedi_construct_id(cid: int) -> str:
    """The curriculum id of an Eedi construct, e.g. ``eedi:construct:7``."""
    return f"eedi:construct:{cid}"


def eedi_fold(question_id: int, folds: int) -> int:
    """The cross-validation fold of an Eedi question: `int(QuestionId) % folds`, for every
    benchmark and every model trained without a fold.

    >>> eedi_fold(1869, 5)
    4
    """
    return question_id % folds


def eedi_misconception_id(mid: int) -> str:
    """The curriculum id of an Eedi misconception, e.g. ``eedi:misconception:7``."""
    return f"eedi:misconception:{mid}"


def eedi_question_id(qid: int) -> str:
    """The curriculum id of an Eedi question, e.g. ``eedi:question:7``."""
    return f"eedi:question:{qid}"


def _one_line(raw: str) -> str:
    # answers are listed one per line, so a multi-line answer is folded onto its line
    return " ".join(latex_to_text(raw).split("\n"))


def _question_text(q: EediQuestion) -> str:
    return latex_to_text(q.question_text)


def eedi_records(
    questions: Sequence[EediQuestion],
    misconceptions: dict[int, str],
    subjects: Sequence[EediSubject],
) -> SourceRecords:
    """Curriculum records for the given Eedi questions, all misconceptions and all subjects.

    * a ``subject`` concept per subject in the metadata, plus one (named from the
      question, no parent) for any SubjectId a question uses that the metadata lacks;
    * a ``construct`` concept per ConstructId, under every subject it appears with;
    * every misconception, linked to the constructs of the questions whose wrong
      answers are labelled with it (none if no given question reveals it);
    * a ``question`` document per question: text, answers and the correct letter, with
      no misconception labels.

    Every list is sorted by id. Raises ValueError when a question labels a misconception
    id that ``misconceptions`` lacks.

    >>> recs = eedi_records([], {1: "Adds the denominators"}, [])
    >>> recs.misconceptions[0].id, recs.misconceptions[0].concept_ids
    ('eedi:misconception:1', [])
    """
    concepts: dict[str, Concept] = {}
    for s in subjects:
        concepts[eedi_subject_id(s.subject_id)] = Concept(
            id=eedi_subject_id(s.subject_id),
            name=s.name,
            kind="subject",
            parent_ids=[] if s.parent_id is None else [eedi_subject_id(s.parent_id)],
            source=SUBJECTS_SOURCE,
            license=SUBJECTS_LICENSE,
        )

    construct_names: dict[int, str] = {}
    construct_subjects: dict[int, set[str]] = {}
    misconception_constructs: dict[int, set[str]] = {mid: set() for mid in misconceptions}
    for q in questions:
        sid = eedi_subject_id(q.subject_id)
        if sid not in concepts:
            # the name comes from train.csv, so this record carries the competition's license
            concepts[sid] = Concept(
                id=sid, name=q.subject_name, kind="subject", source=SOURCE, license=LICENSE
            )
        construct_names.setdefault(q.construct_id, q.construct_name)
        construct_subjects.setdefault(q.construct_id, set()).add(sid)
        for letter, mid in q.misconception_ids.items():
            if mid is None or letter == q.correct_answer:
                continue  # a label on the correct answer would be meaningless
            if mid not in misconceptions:
                raise ValueError(
                    f"question {q.question_id}: answer {letter} names misconception {mid}, "
                    "which is not in the misconception list"
                )
            misconception_constructs[mid].add(eedi_construct_id(q.construct_id))

    for cid, name in construct_names.items():
        concepts[eedi_construct_id(cid)] = Concept(
            id=eedi_construct_id(cid),
            name=name,
            description="",
            kind="construct",
            parent_ids=sorted(construct_subjects[cid]),
            source=SOURCE,
            license=LICENSE,
        )

    misconception_records = [
        Misconception(
            id=eedi_misconception_id(mid),
            text=text,
            concept_ids=sorted(misconception_constructs[mid]),
            source=SOURCE,
            license=LICENSE,
        )
        for mid, text in misconceptions.items()
    ]

    documents = [
        Document(
            id=eedi_question_id(q.question_id),
            kind="question",
            title=q.construct_name,
            text=_document_text(q),
            concept_ids=[eedi_construct_id(q.construct_id)],
            source=SOURCE,
            license=LICENSE,
        )
        for q in questions
    ]
    if len({d.id for d in documents}) != len(documents):
        raise ValueError("the same QuestionId is given twice")

    return SourceRecords(
        concepts=sorted(concepts.values(), key=lambda c: c.id),
        misconceptions=sorted(misconception_records, key=lambda m: m.id),
        documents=sorted(documents, key=lambda d: d.id),
    )


def _document_text(q: EediQuestion) -> str:
    lines = [_question_text(q)]
    lines += [f"{x}: {_one_line(q.answers[x])}" for x in ANSWER_LETTERS if x in q.answers]
    lines.append(f"Correct answer: {q.correct_answer}")
    return "\n".join(line for line in lines if line)


def _check_wrong(q: EediQuestion, wrong_letter: str) -> None:
    if wrong_letter not in q.answers:
        raise ValueError(f"question {q.question_id} has no answer {wrong_letter!r}")
    if wrong_letter == q.correct_answer:
        raise ValueError(f"answer {wrong_letter} is the correct answer of question {q.question_id}")


def eedi_query_text(q: EediQuestion, wrong_letter: str) -> str:
    """The benchmark's query for one (question, wrong answer) pair.

    Question text, the correct answer's text and the student's answer text; no
    construct or subject names (the benchmark passes those as context ids, if at all).

    >>> q = EediQuestion(
    ...     1, 10, "Add fractions", 5, "Fractions", "A", r"\\( \\frac{1}{2}+\\frac{1}{4} \\)",
    ...     {"A": r"\\( \\frac{3}{4} \\)", "B": r"\\( \\frac{2}{6} \\)", "C": "1", "D": "2"},
    ...     {"A": None, "B": 7, "C": None, "D": None})
    >>> print(eedi_query_text(q, "B"))
    1/2+1/4
    Correct answer: 3/4
    Student answer: 2/6
    """
    _check_wrong(q, wrong_letter)
    return "\n".join(
        [
            _question_text(q),
            f"Correct answer: {_one_line(q.answers[q.correct_answer])}",
            f"Student answer: {_one_line(q.answers[wrong_letter])}",
        ]
    )


def eedi_stated_text(q: EediQuestion, wrong_letter: str) -> str:
    """What a student states of a pair: the question and their answer, without the correct
    answer (`stated_query`, the form the text-only ranker reads a message in).

    >>> q = EediQuestion(
    ...     1, 10, "Add fractions", 5, "Fractions", "A", r"\\( \\frac{1}{2}+\\frac{1}{4} \\)",
    ...     {"A": r"\\( \\frac{3}{4} \\)", "B": r"\\( \\frac{2}{6} \\)", "C": "1", "D": "2"},
    ...     {"A": None, "B": 7, "C": None, "D": None})
    >>> print(eedi_stated_text(q, "B"))
    1/2+1/4
    Student answer: 2/6
    """
    _check_wrong(q, wrong_letter)
    return stated_query(_question_text(q), _one_line(q.answers[wrong_letter]))
