"""The hand-judged message set of `tutorgraph bench tutoring` (issue 47, item 6).

``data/benchmarks/packet_messages.jsonl`` (described in ``PACKET_MESSAGES.md``) holds
student messages in students' own words across K-12, one JSON object a line, each judged
by reading the curriculum files: the accepted Common Core standards, the OpenStax sections
whose explanations teach it and, for a stated wrong answer, the Eedi misconceptions that
explain it. `load_packet_messages` reads it into `PacketMessage` records and refuses a line
that breaks the set's rules, with a `ValueError` that names the file and the line:

* every key present (and no other): ``id``, ``text``, ``kind``, ``tags``, ``grade``,
  ``standards``, ``sections``, ``misconceptions``, ``problem``, ``student_answer``,
  ``stated_answer``, ``split``, ``reason``;
* a known ``kind`` (`KINDS`), known ``tags`` (`TAGS`), a known ``grade`` (`GRADES`);
* ``split`` equal to `message_split` of the id (a deterministic third ``heldout``, the rule
  of the other message sets; the held-out third is kept out of all tuning);
* an ``off_topic`` message has a ``reason``, no grade and no standards, sections or
  misconceptions; any other message has a grade, one to three ``ccss:`` standards and no
  reason;
* misconceptions (one to three ``eedi:misconception:N``) only for a ``stated_error``, which
  always states an answer; a ``no_answer_numbers`` message never does;
* ``student_answer`` (as an app would send it) is given exactly when ``stated_answer`` (as
  the message states it) is.

Whether the ids it names exist in a bundle is checked by the unit test against
``data/curriculum``, not here, so that the loader needs no bundle.

>>> KINDS[0], GRADES[0], GRADES[-1]
('word_problem', 'K', 'HS')
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tutorgraph_research.tasks.standards_data import CCSS, SPLITS, message_split

__all__ = [
    "GRADES",
    "KEYS",
    "KINDS",
    "TAGS",
    "PacketMessage",
    "load_packet_messages",
]

KINDS = ("word_problem", "stated_error", "why", "concept", "no_answer_numbers", "off_topic")
OFF_TOPIC = "off_topic"
TAGS = frozenset(
    {
        "latex",
        "typo",
        "run_on",
        "names",
        "money",
        "time",
        "measure",
        "story_math_word",
        "other_language",
        "greeting",
        "other_subject",
        "keyboard_mash",
        "beyond_curriculum",
    }
)
GRADES = ("K", "1", "2", "3", "4", "5", "6", "7", "8", "HS")
KEYS = (
    "id",
    "text",
    "kind",
    "tags",
    "grade",
    "standards",
    "sections",
    "misconceptions",
    "problem",
    "student_answer",
    "stated_answer",
    "split",
    "reason",
)
MAX_LABELS = 3
_MISCONCEPTION = re.compile(r"eedi:misconception:\d+")


@dataclass(frozen=True)
class PacketMessage:
    """One judged message (see the module's docstring for the rules it obeys)."""

    id: str
    text: str
    kind: str
    tags: tuple[str, ...]
    grade: str | None
    standards: tuple[str, ...]
    sections: tuple[str, ...]
    misconceptions: tuple[str, ...]
    problem: str | None
    student_answer: str | None
    stated_answer: str | None
    split: str
    reason: str | None

    @property
    def off_topic(self) -> bool:
        """Whether the message is not about math the curriculum covers."""
        return self.kind == OFF_TOPIC

    @property
    def states_answer(self) -> bool:
        """Whether the message states an answer as the student's own."""
        return self.stated_answer is not None


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{what} must be a non-empty string, not {value!r}")
    return value


def _optional_text(value: object, what: str) -> str | None:
    return None if value is None else _text(value, what)


def _strings(value: object, what: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list, not {value!r}")
    out = tuple(_text(v, what) for v in value)
    if len(set(out)) != len(out):
        raise ValueError(f"{what} repeats an entry: {list(out)}")
    return out


def _message(row: Mapping[str, Any]) -> PacketMessage:
    """A record from one parsed line; a ValueError says what is wrong with it."""
    missing = [k for k in KEYS if k not in row]
    if missing:
        raise ValueError(f"missing field(s): {', '.join(missing)}")
    extra = sorted(set(row) - set(KEYS))
    if extra:
        raise ValueError(f"unknown field(s): {', '.join(extra)}")
    m = PacketMessage(
        id=_text(row["id"], "id"),
        text=_text(row["text"], "text"),
        kind=_text(row["kind"], "kind"),
        tags=_strings(row["tags"], "tags"),
        grade=_optional_text(row["grade"], "grade"),
        standards=_strings(row["standards"], "standards"),
        sections=_strings(row["sections"], "sections"),
        misconceptions=_strings(row["misconceptions"], "misconceptions"),
        problem=_optional_text(row["problem"], "problem"),
        student_answer=_optional_text(row["student_answer"], "student_answer"),
        stated_answer=_optional_text(row["stated_answer"], "stated_answer"),
        split=_text(row["split"], "split"),
        reason=_optional_text(row["reason"], "reason"),
    )
    _check(m)
    return m


def _check(m: PacketMessage) -> None:
    if m.kind not in KINDS:
        raise ValueError(f"unknown kind {m.kind!r} (known: {', '.join(KINDS)})")
    unknown = sorted(set(m.tags) - TAGS)
    if unknown:
        raise ValueError(f"unknown tag(s): {', '.join(unknown)}")
    if m.split not in SPLITS:
        raise ValueError(f"unknown split {m.split!r} (known: {', '.join(SPLITS)})")
    if m.split != message_split(m.id):
        raise ValueError(
            f"split {m.split!r} disagrees with the rule, which puts {m.id} in "
            f"{message_split(m.id)!r} (standards_data.message_split)"
        )
    bad = [s for s in m.standards if not s.startswith(CCSS)]
    if bad:
        raise ValueError(f"standards must be {CCSS} ids: {bad}")
    bad = [s for s in m.misconceptions if not _MISCONCEPTION.fullmatch(s)]
    if bad:
        raise ValueError(f"misconceptions must be eedi:misconception:N ids: {bad}")
    if m.off_topic:
        if m.grade is not None or m.standards or m.sections or m.misconceptions:
            raise ValueError(
                "an off_topic message has no grade, standards, sections or misconceptions"
            )
        if m.reason is None:
            raise ValueError("an off_topic message needs a reason")
    else:
        if m.grade not in GRADES:
            raise ValueError(f"unknown grade {m.grade!r} (known: {', '.join(GRADES)})")
        if not 1 <= len(m.standards) <= MAX_LABELS:
            raise ValueError(f"a {m.kind} message needs 1 to {MAX_LABELS} standards")
        if m.reason is not None:
            raise ValueError(f"only an off_topic message has a reason, not a {m.kind} one")
    if m.kind == "stated_error":
        if not 1 <= len(m.misconceptions) <= MAX_LABELS:
            raise ValueError(f"a stated_error needs 1 to {MAX_LABELS} misconceptions")
        if m.stated_answer is None:
            raise ValueError("a stated_error must state an answer (stated_answer)")
    elif m.misconceptions:
        raise ValueError(f"only a stated_error has misconceptions, not a {m.kind} message")
    if m.kind == "no_answer_numbers" and m.stated_answer is not None:
        raise ValueError("a no_answer_numbers message states no answer (stated_answer null)")
    if (m.student_answer is None) != (m.stated_answer is None):
        raise ValueError("student_answer and stated_answer are given together or not at all")


def load_packet_messages(path: Path) -> list[PacketMessage]:
    """The judged messages of a JSON Lines file, in file order.

    Blank lines are skipped. A line that is not a JSON object, misses a field, names an
    unknown kind, tag or grade, has a split that disagrees with `message_split`, breaks a
    kind's rules (see the module's docstring) or repeats an id raises a `ValueError` that
    names the file and the line.
    """
    out: list[PacketMessage] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"{where}: not JSON: {e}") from e
        if not isinstance(row, dict):
            raise ValueError(f"{where}: not a JSON object")
        try:
            m = _message(row)
        except ValueError as e:
            label = f" ({row['id']})" if isinstance(row.get("id"), str) else ""
            raise ValueError(f"{where}{label}: {e}") from e
        if m.id in seen:
            raise ValueError(f"{where}: id {m.id} repeats line {seen[m.id]}")
        seen[m.id] = number
        out.append(m)
    return out
