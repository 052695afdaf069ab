"""Free-text student messages derived mechanically from labelled Eedi wrong answers.

A tutoring app rarely sends Eedi's three-line query; it sends what the student typed. Each
message here puts a real Eedi question and a real labelled wrong answer into one phrasing
from a fixed list of templates (`TEMPLATES`); the accepted misconception is the answer's
Eedi label. 30% of the questions (by a hash of the question id) are held out of every
tuning decision (`split == "heldout"`). `research/scripts/build_student_messages.py` writes the set.

>>> msgs = student_messages(read_eedi_questions(Path("train.csv")))  # doctest: +SKIP
>>> msgs[0].message  # doctest: +SKIP
'i got 3/7 for 2/3 + 1/4'
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from tutorgraph.errors import ConfigurationError
from tutorgraph.ingest.eedi import EediQuestion, eedi_misconception_id
from tutorgraph.mathtext.latex import latex_to_text

__all__ = [
    "HELDOUT_SHARE",
    "TEMPLATES",
    "StudentMessage",
    "read_student_messages",
    "student_messages",
    "write_student_messages",
]

# name -> phrasing; {problem} is the question as plain text, {answer} the student's answer.
TEMPLATES: dict[str, str] = {
    "got-for": "i got {answer} for {problem}",
    "equal-to": "is {problem} equal to {answer}?",
    "equals": "{problem} = {answer}?",
    "did-put": "we did {problem} and i put {answer}",
    "answer-was": "{problem} my answer was {answer} but its marked wrong",
    "why-not": "why isnt it {answer}? the question was {problem}",
}
HELDOUT_SHARE = 0.3
# Chat-sized items only: a student does not retype a long word problem or a table.
_MAX_PROBLEM_CHARS = 120
_MAX_ANSWER_CHARS = 30


@dataclass(frozen=True)
class StudentMessage:
    """One message with its source pair, its accepted misconception(s) and its split."""

    id: str
    message: str
    template: str
    problem: str
    student_answer: str
    question_id: int
    letter: str
    accepted: list[str]
    split: str


def _hash(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest()[:12], 16)


def _split(question_id: int) -> str:
    return "heldout" if _hash(f"split:{question_id}") % 100 < HELDOUT_SHARE * 100 else "tune"


def _one_line(raw: str) -> str:
    return " ".join(latex_to_text(raw).split())


def student_messages(questions: Sequence[EediQuestion], n: int = 240) -> list[StudentMessage]:
    """Up to `n` messages, one per chosen (question, labelled wrong answer), deterministic.

    Pairs are chosen in the order of a hash of `<QuestionId>:<letter>` among those whose
    question and answer are short enough to be typed; the template is picked by hash too.
    """
    candidates: list[tuple[int, StudentMessage]] = []
    for q in questions:
        problem = _one_line(q.question_text)
        if not problem or len(problem) > _MAX_PROBLEM_CHARS:
            continue
        for letter, mid in sorted(q.misconception_ids.items()):
            if mid is None or letter == q.correct_answer:
                continue
            answer = _one_line(q.answers.get(letter, ""))
            if not answer or len(answer) > _MAX_ANSWER_CHARS:
                continue
            key = f"{q.question_id}:{letter}"
            names = sorted(TEMPLATES)
            template = names[_hash(f"template:{key}") % len(names)]
            text = TEMPLATES[template].format(problem=problem, answer=answer)
            message = StudentMessage(
                id=f"eedi:{key}",
                message=text,
                template=template,
                problem=problem,
                student_answer=answer,
                question_id=q.question_id,
                letter=letter,
                accepted=[eedi_misconception_id(mid)],
                split=_split(q.question_id),
            )
            candidates.append((_hash(key), message))
    candidates.sort(key=lambda pair: pair[0])
    return [m for _, m in candidates[:n]]


def write_student_messages(messages: Sequence[StudentMessage], path: Path) -> None:
    """One JSON object per line, in the given order."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(asdict(m), ensure_ascii=False, sort_keys=True) for m in messages]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_student_messages(path: Path) -> list[StudentMessage]:
    """Read a message file; a malformed line is a `ConfigurationError` naming it. The
    reader's set (`data/benchmarks/reader_messages.jsonl`, rows with `text` and `phrasing`)
    gives its Eedi messages with a known misconception; their answer letter is found from
    the question (`letter` empty here)."""
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if "phrasing" in row:
                if row["question_id"] is None or not row["misconception_ids"]:
                    continue
                row = {
                    "id": row["id"],
                    "message": row["text"],
                    "template": row["phrasing"],
                    "problem": row["problem"] or "",
                    "student_answer": row["student_answer"] or "",
                    "question_id": row["question_id"],
                    "letter": "",
                    "accepted": row["misconception_ids"],
                    "split": row["split"],
                }
            out.append(StudentMessage(**row))
        except (ValueError, TypeError, KeyError) as exc:
            raise ConfigurationError(f"{path}:{number}: not a student message: {exc}") from exc
    return out
