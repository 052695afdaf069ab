"""The project's own teaching content (`data/teaching/`) -> bundle records (issue 61).

Three kinds of source file, written for tutorgraph in its own words (CC BY 4.0):

* `lessons_<band>.jsonl`: per Common Core K-8 standard, one lesson (`idea`, `picture`,
  `slip`, `adult`), worked `examples` with steps and `practice` items with answers. Each becomes
  an explanation, worked examples and exercises aligned by id to the standard, at its grade.
* `misconceptions_<band>.jsonl`: misconceptions children show in those grades, each with a
  description, example wrong answers and the standards it belongs to.
* `alignment_<what>.jsonl`: judged candidate pairs (a construct, section or subject and a
  standard); each accepted pair becomes an `aligned_with` edge whose method starts `judged`.

Every stated answer that has an `expression` must equal the expression's value
(`mathtext.evaluate`); a file that breaks this, or names an unknown field, is refused with its
file, line and reason.

>>> records = load_teaching(Path("data/teaching"))  # doctest: +SKIP
>>> records.documents[0].id  # doctest: +SKIP
'tutorgraph:example:1.G.A.1:1'
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tutorgraph.errors import BundleError, ConfigurationError
from tutorgraph.mathtext.evaluate import matches
from tutorgraph.models.records import SourceRecords
from tutorgraph_client.models.curriculum import (
    Document,
    Misconception,
    MisconceptionExample,
    Prerequisite,
)

__all__ = [
    "JUDGED",
    "LICENSE",
    "SOURCE",
    "TEACHING_DIR",
    "TEACHING_NOTICE",
    "judged_concepts",
    "load_teaching",
]

TEACHING_DIR = Path("data/teaching")
SOURCE = "tutorgraph"
LICENSE = "CC-BY-4.0"
# The method of every edge the judged alignment makes; `align-bundle` keeps such edges and
# adds similarity edges only for concepts that have none.
JUDGED = "judged"
TEACHING_NOTICE = (
    "* tutorgraph teaching content (data/teaching): lessons, worked examples and practice for\n"
    "  every Common Core K-8 standard, elementary misconceptions, and the judged alignment of\n"
    "  Eedi constructs and subjects and OpenStax sections to the standards\n"
    "  License: CC BY 4.0\n"
    "  Written for the tutorgraph project in its own words (ids starting with `tutorgraph:`;\n"
    "  aligned_with edges whose method starts with `judged`).\n"
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class _Answered(_Strict):
    answer: str = Field(min_length=1, max_length=200)
    unit: str | None = Field(default=None, max_length=40)
    expression: str | None = Field(default=None, max_length=300)

    def answer_text(self) -> str:
        return f"{self.answer} {self.unit}" if self.unit else self.answer


class _Example(_Answered):
    problem: str = Field(min_length=1, max_length=2_000)
    steps: list[str] = Field(min_length=2, max_length=12)


class _Practice(_Answered):
    question: str = Field(min_length=1, max_length=2_000)


class _Lesson(_Strict):
    standard: str = Field(pattern=r"^ccss:\S+$")
    grade: str = Field(min_length=1, max_length=4)
    title: str = Field(min_length=3, max_length=200)
    idea: str = Field(min_length=10, max_length=2_000)
    picture: str = Field(min_length=10, max_length=2_000)
    slip: str = Field(min_length=10, max_length=2_000)
    adult: str = Field(min_length=10, max_length=2_000)
    examples: list[_Example] = Field(min_length=2, max_length=10)
    practice: list[_Practice] = Field(min_length=5, max_length=30)


class _ExampleAnswer(_Strict):
    problem: str = Field(min_length=1, max_length=1_000)
    wrong_answer: str = Field(min_length=1, max_length=200)
    right_answer: str = Field(min_length=1, max_length=200)
    expression: str | None = Field(default=None, max_length=300)


class _Misconception(_Strict):
    id: str = Field(pattern=r"^tutorgraph:misconception:[a-z0-9-]+$")
    name: str = Field(min_length=5, max_length=300)
    description: str = Field(min_length=10, max_length=2_000)
    examples: list[_ExampleAnswer] = Field(min_length=2, max_length=10)
    standards: list[str] = Field(min_length=1, max_length=20)
    grade: str = Field(min_length=1, max_length=4)
    rule: str | None = None


class _Pair(_Strict):
    concept_id: str
    standard: str = Field(pattern=r"^ccss:\S+$")
    accepted: bool
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    method: str = Field(min_length=1, max_length=40)
    candidate_rank: int | None = None
    candidate_score: float | None = None


def _rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BundleError(f"{path}:{n}: not JSON: {exc.msg}") from exc
        yield n, row


_M = TypeVar("_M", bound=BaseModel)


def _parse(model: type[_M], path: Path, n: int, row: dict[str, Any]) -> _M:
    try:
        return model.model_validate(row)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BundleError(f"{path}:{n}: {where}: {first['msg']}") from exc


def _check(path: Path, n: int, expression: str | None, answer: str) -> None:
    try:
        ok = expression is None or matches(expression, answer)
    except (ValueError, ZeroDivisionError, TypeError) as exc:
        raise BundleError(f"{path}:{n}: expression {expression!r}: {exc}") from exc
    if not ok:
        raise BundleError(f"{path}:{n}: {expression!r} does not give the answer {answer!r}")


def _heading(grade: str, title: str) -> str:
    return f"{'Kindergarten' if grade == 'K' else f'Grade {grade}'}: {title}"


def _lesson_records(path: Path, n: int, lesson: _Lesson) -> list[Document]:
    code = lesson.standard.removeprefix("ccss:")
    heading = _heading(lesson.grade, lesson.title)

    def doc(kind: Any, suffix: str, title: str, text: str) -> Document:
        return Document(
            id=f"tutorgraph:{suffix}",
            kind=kind,
            title=title,
            text=text,
            concept_ids=[lesson.standard],
            grade=lesson.grade,
            source=SOURCE,
            license=LICENSE,
        )

    explanation = (
        f"{lesson.idea}\n\nPicture it: {lesson.picture}\n\nA common slip: {lesson.slip}\n\n"
        f"For the adult helping: {lesson.adult}"
    )
    out = [doc("explanation", f"lesson:{code}", heading, explanation)]
    for i, ex in enumerate(lesson.examples, 1):
        _check(path, n, ex.expression, ex.answer)
        steps = "\n".join(f"{k}. {step}" for k, step in enumerate(ex.steps, 1))
        text = f"{ex.problem}\nSolution:\n{steps}\nAnswer: {ex.answer_text()}"
        out.append(doc("worked_example", f"example:{code}:{i}", f"{heading}: example {i}", text))
    for i, item in enumerate(lesson.practice, 1):
        _check(path, n, item.expression, item.answer)
        text = f"{item.question}\nAnswer: {item.answer_text()}"
        out.append(doc("exercise", f"practice:{code}:{i}", f"{heading}: practice {i}", text))
    return out


def _misconception_record(path: Path, n: int, m: _Misconception) -> Misconception:
    for ex in m.examples:
        _check(path, n, ex.expression, ex.right_answer)
    return Misconception(
        id=m.id,
        text=m.name,
        description=m.description,
        examples=[
            MisconceptionExample(
                problem=e.problem, wrong_answer=e.wrong_answer, right_answer=e.right_answer
            )
            for e in m.examples
        ],
        grade=m.grade,
        concept_ids=list(m.standards),
        source=SOURCE,
        license=LICENSE,
    )


def _edge(pair: _Pair) -> Prerequisite:
    return Prerequisite(
        prerequisite_id=pair.standard,
        concept_id=pair.concept_id,
        relation="aligned_with",
        source=SOURCE,
        score=pair.confidence if pair.confidence is not None else 1.0,
        method=f"{JUDGED}:{pair.method}",
    )


def load_teaching(folder: Path = TEACHING_DIR) -> SourceRecords:
    """Every record the teaching folder's files make, in file and line order.

    Raises BundleError naming the file and line of the first bad row, ConfigurationError
    when the folder does not exist.
    """
    if not folder.is_dir():
        raise ConfigurationError(
            f"{folder} is not a folder of teaching content; run from the repository root, "
            "pass --teaching-dir, or build with --no-teaching"
        )
    out = SourceRecords()
    for path in sorted(folder.glob("lessons_*.jsonl")):
        for n, row in _rows(path):
            out.documents += _lesson_records(path, n, _parse(_Lesson, path, n, row))
    for path in sorted(folder.glob("misconceptions_*.jsonl")):
        for n, row in _rows(path):
            out.misconceptions.append(
                _misconception_record(path, n, _parse(_Misconception, path, n, row))
            )
    for path in sorted(folder.glob("alignment_*.jsonl")):
        for n, row in _rows(path):
            pair = _parse(_Pair, path, n, row)
            if pair.accepted:
                out.prerequisites.append(_edge(pair))
    return out


def judged_concepts(folder: Path = TEACHING_DIR) -> set[str]:
    """Every concept the alignment's judges read (whether or not they accepted a standard
    for it): `align-bundle` adds no similarity edge to these."""
    return {
        _parse(_Pair, path, n, row).concept_id
        for path in sorted(folder.glob("alignment_*.jsonl"))
        for n, row in _rows(path)
    }
