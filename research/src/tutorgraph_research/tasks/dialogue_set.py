"""The hand-judged tutoring dialogues of `tutorgraph bench dialogue` (issue 63, item 6).

``data/benchmarks/dialogues.jsonl`` (described in ``DIALOGUES.md``) holds short K-8 tutoring
dialogues, one JSON object a line: ``{"id", "kind", "grade", "split", "turns"}``, each turn
``{"role", "text"}`` and, on a student turn, a ``label`` judged from the curriculum files:
``standards``, ``problem``, ``answer``, ``correct``, ``chit_chat``, ``help_request``,
``topic``, ``full_message``. `load_dialogues` reads them into frozen `Dialogue` records and
refuses a line that breaks the set's rules with one `ValueError` naming the file and line:

* every key present and no other, a known ``kind`` (`KINDS`), ``grade`` (`GRADES`) and
  ``split``; 3 to 12 turns (`MIN_TURNS`, `MAX_TURNS`), each a ``student`` or ``tutor`` turn
  with text; a label on every student turn but the dialogue's first (which may carry one),
  never on a tutor turn; at least one maths student turn;
* a chit-chat turn: ``topic``, ``problem``, ``answer``, ``correct`` null, no help request,
  0-3 standards (the session's, when it has one); a maths turn: 1-3 ``ccss:`` standards,
  ``topic`` ``new`` on the dialogue's first maths turn and ``kept`` or ``changed`` after;
* ``correct`` given exactly when ``answer`` is; a help request states no answer;
* ``full_message`` exactly on maths turns of five words or fewer (`SHORT_WORDS`);
* with `standards` (`curriculum_standards` of a bundle), every standard is one of them;
* ``split`` as `dialogue_splits` puts it (a seeded third of each kind held out), and no id
  or dialogue repeated.

Whether an answer is right is recomputed where the problem is arithmetic: `problem_value`
evaluates it exactly (`tutorgraph.mathtext.evaluate`), `answer_value` reads the answer's
number, and `recomputed` compares them (None where either is not a number).

>>> problem_value("7 x 6"), answer_value("48?"), answer_value("60 cm cubed")
(Fraction(42, 1), Fraction(48, 1), Fraction(60, 1))
>>> recomputed(TurnLabel(("ccss:3.OA.C.7",), "7 x 6", "48", False, False, False, "new", None))
False
"""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from tutorgraph.mathtext.evaluate import evaluate, parse_answer

__all__ = [
    "BATCH_STARTS",
    "DIALOGUES",
    "GRADES",
    "KINDS",
    "MAX_TURNS",
    "MIN_TURNS",
    "SEED",
    "SHORT_WORDS",
    "Dialogue",
    "DialogueTurn",
    "TurnLabel",
    "answer_value",
    "batch",
    "curriculum_standards",
    "dialogue_splits",
    "load_dialogues",
    "problem_value",
    "recomputed",
    "spread",
    "words",
]

DIALOGUES = Path("data/benchmarks/dialogues.jsonl")
KINDS = ("wrong_then_right", "help_request", "topic_change", "chit_chat", "state_then_why")
GRADES = ("K", "1", "2", "3", "4", "5", "6", "7", "8")
SPLITS = ("dev", "heldout")
ROLES = ("student", "tutor")
TOPICS = ("new", "kept", "changed")
MIN_TURNS, MAX_TURNS = 3, 12
MAX_STANDARDS = 3
# A turn of this many words or fewer is "short": it carries a self-contained full message.
SHORT_WORDS = 5
SEED = 63
HELD_OUT = 1 / 3
# The first id of each batch after the first: dl-186 ... dl-275 and dl-276 ... dl-365 were
# written (issue 63) after the sets before them had been run, so that the reader is measured
# on dialogues it was never read against.
BATCH_STARTS = (186, 276)
CCSS = "ccss:"
_KEYS = ("id", "kind", "grade", "split", "turns")
_LABEL_KEYS = (
    "standards",
    "problem",
    "answer",
    "correct",
    "chit_chat",
    "help_request",
    "topic",
    "full_message",
)
_K8 = frozenset(GRADES)
_LEAD = re.compile(r"^(?:what is|what's|whats|work out|find|calculate|evaluate)\s+")
_TIMES = re.compile(r"(?<=[\d)])\s*x\s*(?=[-\d(])")
# "3/4 ÷ 1/2" is (3/4) / (1/2), and "3 1/4" is 3 + 1/4, not Python's left-to-right reading.
_MIXED = re.compile(r"(?<![\d./])(\d+) (\d+)/(\d+)(?![\d.])")
_FRACTION = re.compile(r"(?<![\d./])(\d+)/(\d+)(?![\d./])")
_NUMBER = re.compile(r"^[$]?(-?\d[\d,]*(?:\.\d+)?(?: \d+/\d+)?(?:/\d+)?)")
_ASSIGN = re.compile(r"^[a-z]\s*=\s*")


@dataclass(frozen=True)
class TurnLabel:
    """What a student turn says, judged from the curriculum (see the module's docstring)."""

    standards: tuple[str, ...]
    problem: str | None
    answer: str | None
    correct: bool | None
    chit_chat: bool
    help_request: bool
    topic: str | None
    full_message: str | None

    @property
    def maths(self) -> bool:
        """Whether the turn is about maths (not chit-chat)."""
        return not self.chit_chat


@dataclass(frozen=True)
class DialogueTurn:
    """One turn: who said it, what, and (a student's) its label."""

    role: str
    text: str
    label: TurnLabel | None = None


@dataclass(frozen=True)
class Dialogue:
    """One judged dialogue."""

    id: str
    kind: str
    grade: str
    split: str
    turns: tuple[DialogueTurn, ...]

    def labelled(self) -> list[tuple[int, DialogueTurn, TurnLabel]]:
        """The student turns that carry a label, with their turn numbers (from 0)."""
        return [(i, t, t.label) for i, t in enumerate(self.turns) if t.label is not None]


def words(text: str) -> int:
    """How many words a turn has (split on white space)."""
    return len(text.split())


def spread(dialogues: Sequence[Dialogue]) -> list[Dialogue]:
    """The dialogues taken a kind at a time in turn (file order within each kind), so that
    the first N hold every kind (`bench dialogue --limit N`).

    >>> d = [Dialogue(str(i), k, "3", "dev", ()) for i, k in enumerate("aabbc")]
    >>> [x.id for x in spread(d)]
    ['0', '2', '4', '1', '3']
    """
    by_kind: dict[str, list[Dialogue]] = defaultdict(list)
    for d in dialogues:
        by_kind[d.kind].append(d)
    queues = list(by_kind.values())
    out: list[Dialogue] = []
    for i in range(max((len(q) for q in queues), default=0)):
        out.extend(q[i] for q in queues if i < len(q))
    return out


def problem_value(problem: str) -> Fraction | None:
    """An arithmetic problem's exact value ("7 x 6", "3/4 ÷ 1/2", "what is 2^3 x 2^4"); None
    when the problem is not a bare calculation (a word problem, an equation).

    >>> problem_value("3/4 ÷ 1/2"), problem_value("3 1/4 + 2 2/4")
    (Fraction(3, 2), Fraction(23, 4))
    """
    p = _LEAD.sub("", problem.strip().lower().rstrip("?. "))
    p = p.replace("×", "*").replace("÷", "/").replace("−", "-").replace("^", "**")
    p = _FRACTION.sub(r"(\1/\2)", _MIXED.sub(r"(\1+\2/\3)", _TIMES.sub("*", p)))
    try:
        value = evaluate(p)
    except (ValueError, ZeroDivisionError, TypeError, OverflowError):
        return None
    return value if isinstance(value, Fraction) else None


def answer_value(answer: str) -> Fraction | None:
    """The number an answer states ("48?", "x = 6", "$1.50", "1 1/2", "60 cm cubed"); None
    when it is not one number (a word, "3^5", "4.5 x 10^4", "(2, -3)")."""
    a = _ASSIGN.sub("", answer.strip().lower().rstrip("?!. "))
    m = _NUMBER.match(a)
    if m is None or re.search(r"[\d^]", a[m.end() :]):
        return None
    value = parse_answer(m[1])
    return value if isinstance(value, Fraction) else None


def recomputed(label: TurnLabel) -> bool | None:
    """Whether the label's answer is right, computed from its problem; None where the
    problem or the answer is not a number."""
    if label.problem is None or label.answer is None:
        return None
    want, got = problem_value(label.problem), answer_value(label.answer)
    if want is None or got is None:
        return None
    return want == got


def curriculum_standards(curriculum: Path) -> frozenset[str]:
    """The K-8 Common Core standards of a bundle (`concepts.jsonl` in the folder)."""
    out = set()
    with (curriculum / "concepts.jsonl").open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                cid = str(row.get("id", ""))
                standard = row.get("kind") == "standard" and row.get("grade") in _K8
                if cid.startswith(CCSS) and standard:
                    out.add(cid)
    return frozenset(out)


def dialogue_splits(rows: Iterable[Mapping[str, Any]], seed: int = SEED) -> dict[str, str]:
    """Each dialogue's split: within each batch and kind the sorted ids are shuffled by a
    seeded `random.Random` and the first third (rounded) is ``heldout``, the rest ``dev``.
    A batch is the dialogues written together (`BATCH_STARTS`): adding one leaves the
    earlier batches' splits as they were.

    >>> rows = [{"id": f"d{i}", "kind": "chit_chat"} for i in range(6)]
    >>> sorted(dialogue_splits(rows).values())
    ['dev', 'dev', 'dev', 'dev', 'heldout', 'heldout']
    """
    strata: dict[tuple[int, str], list[str]] = defaultdict(list)
    for row in rows:
        strata[(batch(str(row["id"])), str(row["kind"]))].append(str(row["id"]))
    out: dict[str, str] = {}
    for number, kind in sorted(strata):
        ids = sorted(strata[(number, kind)])
        # The first batch's key is the kind alone, as it was before batches.
        key = f"{seed}:{kind}" if number == 0 else f"{seed}:{number}:{kind}"
        random.Random(key).shuffle(ids)
        held = round(len(ids) * HELD_OUT)
        for i, dialogue_id in enumerate(ids):
            out[dialogue_id] = "heldout" if i < held else "dev"
    return out


def batch(dialogue_id: str) -> int:
    """The batch a dialogue was written in: how many of `BATCH_STARTS` its number reaches
    (0 for `dl-001` ... `dl-185`, 1 for `dl-186` ..., 2 for `dl-276` ...; ids without a
    number are batch 0).

    >>> batch("dl-185"), batch("dl-186"), batch("d3x")
    (0, 1, 0)
    """
    m = re.fullmatch(r"dl-(\d+)", dialogue_id)
    number = int(m[1]) if m else 0
    return sum(number >= start for start in BATCH_STARTS)


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{what} must be a non-empty string, not {value!r}")
    return value


def _optional_text(value: object, what: str) -> str | None:
    return None if value is None else _text(value, what)


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{what} must be true or false, not {value!r}")
    return value


def _keys(row: Mapping[str, Any], keys: tuple[str, ...], what: str) -> None:
    missing = [k for k in keys if k not in row]
    if missing:
        raise ValueError(f"{what}missing field(s): {', '.join(missing)}")
    extra = sorted(set(row) - set(keys))
    if extra:
        raise ValueError(f"{what}unknown field(s): {', '.join(extra)}")


def _label(row: object, where: str, standards: Collection[str] | None) -> TurnLabel:
    if not isinstance(row, dict):
        raise ValueError(f"{where}: label must be an object")
    _keys(row, _LABEL_KEYS, f"{where}: label ")
    ids = row["standards"]
    if not isinstance(ids, list) or not all(isinstance(s, str) for s in ids):
        raise ValueError(f"{where}: standards must be a list of ids")
    correct = row["correct"]
    if correct is not None and not isinstance(correct, bool):
        raise ValueError(f"{where}: correct must be true, false or null")
    label = TurnLabel(
        standards=tuple(ids),
        problem=_optional_text(row["problem"], f"{where}: problem"),
        answer=_optional_text(row["answer"], f"{where}: answer"),
        correct=correct,
        chit_chat=_flag(row["chit_chat"], f"{where}: chit_chat"),
        help_request=_flag(row["help_request"], f"{where}: help_request"),
        topic=_optional_text(row["topic"], f"{where}: topic"),
        full_message=_optional_text(row["full_message"], f"{where}: full_message"),
    )
    if len(set(label.standards)) != len(label.standards):
        raise ValueError(f"{where}: standards repeat an id")
    bad = [s for s in label.standards if not s.startswith(CCSS)]
    if bad:
        raise ValueError(f"{where}: standards must be {CCSS} ids: {bad}")
    if standards is not None:
        unknown = [s for s in label.standards if s not in standards]
        if unknown:
            raise ValueError(f"{where}: not a K-8 standard of the curriculum: {unknown}")
    if len(label.standards) > MAX_STANDARDS:
        raise ValueError(f"{where}: at most {MAX_STANDARDS} standards")
    if label.chit_chat:
        if label.topic is not None or label.problem is not None or label.answer is not None:
            raise ValueError(f"{where}: a chit-chat turn has no topic, problem or answer")
        if label.help_request:
            raise ValueError(f"{where}: a chit-chat turn is not a help request")
    else:
        if not label.standards:
            raise ValueError(f"{where}: a maths turn needs 1 to {MAX_STANDARDS} standards")
        if label.topic not in TOPICS:
            raise ValueError(f"{where}: topic must be one of {', '.join(TOPICS)}")
    if (label.answer is None) != (label.correct is None):
        raise ValueError(f"{where}: correct is given exactly when answer is")
    if label.help_request and label.answer is not None:
        raise ValueError(f"{where}: a help request states no answer")
    return label


def _dialogue(row: Mapping[str, Any], standards: Collection[str] | None) -> Dialogue:
    _keys(row, _KEYS, "")
    kind, grade, split = (_text(row[k], k) for k in ("kind", "grade", "split"))
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r} (known: {', '.join(KINDS)})")
    if grade not in GRADES:
        raise ValueError(f"unknown grade {grade!r} (known: {', '.join(GRADES)})")
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r} (known: {', '.join(SPLITS)})")
    raw = row["turns"]
    if not isinstance(raw, list) or not MIN_TURNS <= len(raw) <= MAX_TURNS:
        n = len(raw) if isinstance(raw, list) else "no"
        raise ValueError(f"a dialogue has {MIN_TURNS} to {MAX_TURNS} turns, not {n}")
    turns: list[DialogueTurn] = []
    seen_student = seen_maths = False
    for i, t in enumerate(raw):
        where = f"turn {i}"
        if not isinstance(t, dict):
            raise ValueError(f"{where}: must be an object")
        if t.get("role") not in ROLES:
            raise ValueError(f"{where}: role must be student or tutor, not {t.get('role')!r}")
        keys = ("role", "text", "label") if "label" in t else ("role", "text")
        _keys(t, keys, f"{where}: ")
        text = _text(t["text"], f"{where}: text")
        if t["role"] == "tutor":
            if "label" in t:
                raise ValueError(f"{where}: a tutor turn has no label")
            turns.append(DialogueTurn("tutor", text))
            continue
        if "label" not in t:
            if seen_student:
                raise ValueError(f"{where}: a student turn after the first needs a label")
            seen_student = True
            turns.append(DialogueTurn("student", text))
            continue
        seen_student = True
        label = _label(t["label"], where, standards)
        if label.maths:
            if (label.topic == "new") == seen_maths:
                raise ValueError(
                    f"{where}: topic is new on the first maths turn only, not {label.topic!r}"
                )
            seen_maths = True
        short = label.maths and words(text) <= SHORT_WORDS
        if short != (label.full_message is not None):
            raise ValueError(
                f"{where}: full_message is given exactly on maths turns of "
                f"{SHORT_WORDS} words or fewer"
            )
        turns.append(DialogueTurn("student", text, label))
    if not seen_maths:
        raise ValueError("a dialogue needs a labelled maths student turn")
    return Dialogue(_text(row["id"], "id"), kind, grade, split, tuple(turns))


def load_dialogues(path: Path, standards: Collection[str] | None = None) -> list[Dialogue]:
    """The judged dialogues of a JSON Lines file, in file order; with `standards` (e.g.
    `curriculum_standards(Path("data/curriculum"))`), each label's standards must be among
    them. Blank lines are skipped; a line that breaks a rule (see the module's docstring)
    raises one `ValueError` naming the file and the line."""
    out: list[Dialogue] = []
    seen: dict[str, int] = {}
    bodies: dict[str, int] = {}
    lines: dict[str, int] = {}
    rows: list[dict[str, Any]] = []
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
            d = _dialogue(row, standards)
        except ValueError as e:
            label = f" ({row['id']})" if isinstance(row.get("id"), str) else ""
            raise ValueError(f"{where}{label}: {e}") from e
        if d.id in seen:
            raise ValueError(f"{where}: id {d.id} repeats line {seen[d.id]}")
        body = json.dumps(row["turns"], sort_keys=True)
        if body in bodies:
            raise ValueError(f"{where} ({d.id}): the same turns as line {bodies[body]}")
        seen[d.id], bodies[body], lines[d.id] = number, number, number
        rows.append(row)
        out.append(d)
    wanted = dialogue_splits(rows)
    for d in out:
        if d.split != wanted[d.id]:
            raise ValueError(
                f"{path}:{lines[d.id]} ({d.id}): split {d.split!r} disagrees with the rule, "
                f"which puts it in {wanted[d.id]!r} (dialogue_set.dialogue_splits; rerun "
                "research/scripts/dialogue_split.py)"
            )
    return out
