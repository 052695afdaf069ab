"""The dialogue set of `bench dialogue` (`data/benchmarks/dialogues.jsonl`): its size per kind
and grade, the split rule, the standards against the bundle, every arithmetic answer
recomputed, the turn counts, the topic labels against the standards, and the loader's
refusals (one error naming the line)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tutorgraph_research.tasks.dialogue_set import (
    GRADES,
    KINDS,
    MAX_TURNS,
    MIN_TURNS,
    SHORT_WORDS,
    Dialogue,
    TurnLabel,
    answer_value,
    curriculum_standards,
    dialogue_splits,
    load_dialogues,
    problem_value,
    recomputed,
    spread,
    words,
)

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[3]
SET = ROOT / "data" / "benchmarks" / "dialogues.jsonl"
CURRICULUM = ROOT / "data" / "curriculum"


@pytest.fixture(scope="module")
def standards() -> frozenset[str]:
    return curriculum_standards(CURRICULUM)


@pytest.fixture(scope="module")
def dialogues(standards: frozenset[str]) -> list[Dialogue]:
    return load_dialogues(SET, standards)


def test_the_set_has_every_kind_and_grade(dialogues: list[Dialogue]) -> None:
    assert len(dialogues) >= 150
    kinds = Counter(d.kind for d in dialogues)
    assert set(kinds) == set(KINDS)
    assert min(kinds.values()) >= 25
    grades = Counter(d.grade for d in dialogues)
    assert set(grades) == set(GRADES)
    assert min(grades.values()) >= 12  # roughly even across K-8


def test_a_third_of_each_kind_is_held_out_by_the_seeded_rule(dialogues: list[Dialogue]) -> None:
    for kind in KINDS:
        of_kind = [d for d in dialogues if d.kind == kind]
        held = sum(d.split == "heldout" for d in of_kind)
        assert abs(held - len(of_kind) / 3) <= 1, kind
    share = sum(d.split == "heldout" for d in dialogues) / len(dialogues)
    assert 0.3 <= share <= 0.37
    rows = [json.loads(line) for line in SET.read_text(encoding="utf-8").splitlines()]
    assert dialogue_splits(rows) == {d.id: d.split for d in dialogues}
    script = ROOT / "research" / "scripts" / "dialogue_split.py"
    done = subprocess.run(
        [sys.executable, str(script), "--dialogues", str(SET), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_standard_is_a_bundled_k8_standard(
    dialogues: list[Dialogue], standards: frozenset[str]
) -> None:
    used = {s for d in dialogues for _, _, label in d.labelled() for s in label.standards}
    assert used <= standards
    assert len(used) >= 100  # spread across the domains, not a handful of standards


def test_every_arithmetic_answer_is_recomputed(dialogues: list[Dialogue]) -> None:
    checked = 0
    for d in dialogues:
        for i, _, label in d.labelled():
            again = recomputed(label)
            if again is not None:
                checked += 1
                assert label.correct is again, (d.id, i, label.problem, label.answer)
    assert checked >= 100


def test_turn_counts_roles_and_labels(dialogues: list[Dialogue]) -> None:
    for d in dialogues:
        assert MIN_TURNS <= len(d.turns) <= MAX_TURNS
        for i, turn in enumerate(d.turns):
            assert turn.role in ("student", "tutor")
            assert (turn.label is not None) == (turn.role == "student"), (d.id, i)
            if turn.label is not None and turn.label.maths:
                short = words(turn.text) <= SHORT_WORDS
                assert short == (turn.label.full_message is not None)


def test_topic_labels_agree_with_the_standards(dialogues: list[Dialogue]) -> None:
    """A changed turn shares no standard with the maths turn before it; a kept one shares
    one; every topic_change dialogue changes, and chit-chat dialogues hold chit-chat."""
    for d in dialogues:
        before: tuple[str, ...] | None = None
        for _, _, label in d.labelled():
            if label.chit_chat:
                continue
            if before is not None:
                shared = bool(set(before) & set(label.standards))
                assert shared == (label.topic == "kept"), (d.id, label)
            before = label.standards
        labels = [label for _, _, label in d.labelled()]
        if d.kind == "topic_change":
            assert any(lab.topic == "changed" for lab in labels), d.id
        if d.kind == "chit_chat":
            assert any(lab.chit_chat for lab in labels), d.id
        if d.kind == "help_request":
            assert any(lab.help_request for lab in labels), d.id
        if d.kind == "wrong_then_right":
            assert [lab.correct for lab in labels if lab.correct is not None][:1] == [False]


def test_no_dialogue_or_turn_sequence_repeats(dialogues: list[Dialogue]) -> None:
    assert len({d.id for d in dialogues}) == len(dialogues)
    bodies = {tuple((t.role, t.text.lower()) for t in d.turns) for d in dialogues}
    assert len(bodies) == len(dialogues)


def test_arithmetic_readers() -> None:
    assert problem_value("What is 3/4 ÷ 1/2?") == problem_value("3/4 / 1/2") == 1.5
    assert problem_value("4 ÷ 1/2") == 8
    assert problem_value("3 1/4 + 2 2/4") == problem_value("5 3/4")
    assert problem_value("2^3 x 2^4") == 128
    assert problem_value("-6 x -4") == 24
    assert problem_value("Solve x + 9 = 23.") is None
    assert answer_value("x = 6") == 6
    assert answer_value("$1.50") == 1.5
    assert answer_value("1 1/2") == 1.5
    assert answer_value("3^5") is None
    assert answer_value("triangle") is None
    label = TurnLabel(("ccss:3.OA.C.7",), "56 ÷ 8", "7", True, False, False, "new", None)
    assert recomputed(label) is True


def _line(**change: object) -> dict[str, object]:
    row: dict[str, object] = {
        "id": "dl-x",
        "kind": "chit_chat",
        "grade": "3",
        "split": "dev",
        "turns": [
            {"role": "tutor", "text": "What is 7 x 6?"},
            {
                "role": "student",
                "text": "48?",
                "label": {
                    "standards": ["ccss:3.OA.C.7"],
                    "problem": "7 x 6",
                    "answer": "48",
                    "correct": False,
                    "chit_chat": False,
                    "help_request": False,
                    "topic": "new",
                    "full_message": "What is 7 x 6? I got 48.",
                },
            },
            {"role": "tutor", "text": "Try 7 x 5 and add 7."},
        ],
    }
    row.update(change)
    return row


def _write(tmp_path: Path, *rows: dict[str, object]) -> Path:
    path = tmp_path / "d.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_good_line_loads(tmp_path: Path, standards: frozenset[str]) -> None:
    (d,) = load_dialogues(_write(tmp_path, _line()), standards)
    assert d.labelled()[0][2].correct is False


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"kind": "quiz"}, "unknown kind"),
        ({"grade": "HS"}, "unknown grade"),
        ({"split": "heldout"}, "split 'heldout' disagrees"),
        ({"turns": [{"role": "tutor", "text": "hi"}]}, "3 to 12 turns"),
        ({"extra": 1}, "unknown field(s): extra"),
    ],
)
def test_a_bad_line_is_named(
    tmp_path: Path, standards: frozenset[str], change: dict[str, object], says: str
) -> None:
    path = _write(tmp_path, _line(**change))
    with pytest.raises(ValueError, match=r"d\.jsonl:1 \(dl-x\): ") as err:
        load_dialogues(path, standards)
    assert says in str(err.value)
    assert "\n" not in str(err.value)


def _label_change(**change: object) -> dict[str, object]:
    row = _line()
    turns = row["turns"]
    assert isinstance(turns, list)
    turns[1]["label"].update(change)
    return row


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"standards": ["ccss:3.OA.C.99"]}, "not a K-8 standard of the curriculum"),
        ({"standards": ["ccss:HSA-REI.B.3"]}, "not a K-8 standard of the curriculum"),
        ({"standards": []}, "a maths turn needs 1 to 3 standards"),
        ({"correct": None}, "correct is given exactly when answer is"),
        ({"help_request": True}, "a help request states no answer"),
        ({"topic": "kept"}, "topic is new on the first maths turn only"),
        ({"full_message": None}, "full_message is given exactly"),
        ({"chit_chat": "no"}, "chit_chat must be true or false"),
        ({"why": True}, "label unknown field(s): why"),
    ],
)
def test_a_bad_label_is_named(
    tmp_path: Path, standards: frozenset[str], change: dict[str, object], says: str
) -> None:
    with pytest.raises(ValueError, match=r"d\.jsonl:1 \(dl-x\): turn 1: ") as err:
        load_dialogues(_write(tmp_path, _label_change(**change)), standards)
    assert says in str(err.value)


def test_roles_and_repeats_are_refused(tmp_path: Path) -> None:
    bad = _line()
    turns = bad["turns"]
    assert isinstance(turns, list)
    turns[0] = {"role": "teacher", "text": "What is 7 x 6?"}
    with pytest.raises(ValueError, match="turn 0: role must be student or tutor"):
        load_dialogues(_write(tmp_path, bad))
    with pytest.raises(ValueError, match="the same turns as line 1"):
        load_dialogues(_write(tmp_path, _line(id="dl-a"), _line(id="dl-b")))


def test_a_limited_run_holds_every_kind(dialogues: list[Dialogue]) -> None:
    first = spread(dialogues)[: len(KINDS)]
    assert {d.kind for d in first} == set(KINDS)
    assert sorted(d.id for d in spread(dialogues)) == sorted(d.id for d in dialogues)
