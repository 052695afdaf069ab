"""The hand-judged message set of `bench tutoring` (`data/benchmarks/packet_messages.jsonl`):
its size per kind, its labels against the curriculum bundle, the split rule and the loader's
refusals."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from tutorgraph_research.tasks.packet_messages import (
    GRADES,
    KEYS,
    KINDS,
    PacketMessage,
    load_packet_messages,
)
from tutorgraph_research.tasks.standards_data import message_split

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[3]
SET = ROOT / "data" / "benchmarks" / "packet_messages.jsonl"
CURRICULUM = ROOT / "data" / "curriculum"
# The least each kind must have (issue 47, item 6, and the set's brief).
MINIMUMS = {
    "word_problem": 60,
    "stated_error": 50,
    "why": 20,
    "concept": 30,
    "no_answer_numbers": 25,
    "off_topic": 25,
}
ELEMENTARY = {"K", "1", "2", "3", "4", "5"}


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.fixture(scope="module")
def messages() -> list[PacketMessage]:
    return load_packet_messages(SET)


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    return _jsonl(SET)


def test_counts_per_kind_meet_the_minimums(messages: list[PacketMessage]) -> None:
    kinds = Counter(m.kind for m in messages)
    assert set(kinds) == set(KINDS)
    for kind, least in MINIMUMS.items():
        assert kinds[kind] >= least, (kind, kinds[kind])
    assert len(messages) >= 260
    elementary = [m for m in messages if m.kind == "word_problem" and m.grade in ELEMENTARY]
    assert len(elementary) >= 60


def test_every_grade_and_the_tags_are_covered(messages: list[PacketMessage]) -> None:
    grades = Counter(m.grade for m in messages if not m.off_topic)
    assert all(grades[g] >= 5 for g in GRADES), grades
    tags = Counter(t for m in messages for t in m.tags)
    for tag in ("latex", "typo", "run_on", "names", "money", "time", "measure"):
        assert tags[tag] >= 5, (tag, tags[tag])
    for tag in ("story_math_word", "other_language", "greeting", "other_subject"):
        assert tags[tag] >= 3, (tag, tags[tag])
    for tag in ("keyboard_mash", "beyond_curriculum"):
        assert tags[tag] >= 2, (tag, tags[tag])
    for m in messages:
        if "\\" in m.text:
            assert "latex" in m.tags, m.id


def test_keys_in_order_ids_and_texts_unique(rows: list[dict]) -> None:
    assert [list(r) for r in rows] == [list(KEYS)] * len(rows)
    ids = [r["id"] for r in rows]
    assert ids == [f"pm-{i:03d}" for i in range(1, len(rows) + 1)]
    texts = Counter(r["text"].strip().casefold() for r in rows)
    assert [t for t, n in texts.items() if n > 1] == []


def test_split_follows_the_rule_and_holds_out_about_a_third(
    messages: list[PacketMessage],
) -> None:
    assert all(m.split == message_split(m.id) for m in messages)
    share = sum(m.split == "heldout" for m in messages) / len(messages)
    assert 0.27 <= share <= 0.40, share
    for kind in KINDS:
        of_kind = [m for m in messages if m.kind == kind]
        assert any(m.split == "heldout" for m in of_kind), kind
        assert any(m.split == "dev" for m in of_kind), kind


def test_standards_exist_in_the_bundle(messages: list[PacketMessage]) -> None:
    standards = {r["id"] for r in _jsonl(CURRICULUM / "concepts.jsonl") if r["kind"] == "standard"}
    unknown = sorted({(m.id, s) for m in messages for s in m.standards if s not in standards})
    assert unknown == []


def test_grade_is_that_of_the_first_standard(messages: list[PacketMessage]) -> None:
    def grade(standard: str) -> str:
        code = standard.removeprefix("ccss:")
        return "HS" if code.startswith("HS") else code.split(".")[0]

    assert [m.id for m in messages if not m.off_topic and grade(m.standards[0]) != m.grade] == []


def test_misconceptions_exist_in_the_bundle(messages: list[PacketMessage]) -> None:
    known = {r["id"] for r in _jsonl(CURRICULUM / "misconceptions.jsonl")}
    unknown = sorted({(m.id, x) for m in messages for x in m.misconceptions if x not in known})
    assert unknown == []
    assert all(m.misconceptions for m in messages if m.kind == "stated_error")


def test_sections_are_explanation_or_worked_example_titles(
    messages: list[PacketMessage],
) -> None:
    titles = {
        r["title"]
        for r in _jsonl(CURRICULUM / "documents.jsonl")
        if r["kind"] in ("explanation", "worked_example")
    }
    unknown = sorted({(m.id, t) for m in messages for t in m.sections if t not in titles})
    assert unknown == []
    math = [m for m in messages if not m.off_topic]
    # The books start at whole-number arithmetic: some early-grade messages have no
    # section, but most messages do.
    assert sum(bool(m.sections) for m in math) >= 0.85 * len(math)


def test_answers_are_stated_only_where_the_kind_allows(messages: list[PacketMessage]) -> None:
    for m in messages:
        if m.kind == "stated_error":
            assert m.stated_answer is not None and m.problem is not None, m.id
        if m.kind in ("no_answer_numbers", "off_topic", "why", "concept"):
            assert m.stated_answer is None, m.id
        if m.stated_answer is not None:
            assert m.stated_answer.casefold() in m.text.casefold(), m.id
    assert all(any(c.isdigit() for c in m.text) for m in messages if m.kind == "no_answer_numbers")


def _write(tmp_path: Path, **change: object) -> Path:
    row = dict(_jsonl(SET)[0]) | change
    path = tmp_path / "m.jsonl"
    path.write_text("\n" + json.dumps(row) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"kind": "riddle"}, "unknown kind 'riddle'"),
        ({"split": "heldout" if message_split("pm-001") == "dev" else "dev"}, "disagrees"),
        ({"tags": ["emoji"]}, "unknown tag"),
        ({"grade": "9"}, "unknown grade"),
        ({"misconceptions": ["eedi:misconception:217"]}, "only a stated_error"),
        ({"standards": []}, "1 to 3 standards"),
        ({"reason": "why not"}, "only an off_topic"),
        ({"stated_answer": "2"}, "together"),
    ],
)
def test_the_loader_names_the_line_it_refuses(tmp_path: Path, change: dict, said: str) -> None:
    with pytest.raises(ValueError, match=r"m\.jsonl:2 \(pm-001\): ") as e:
        load_packet_messages(_write(tmp_path, **change))
    assert said in str(e.value)


def test_the_loader_refuses_missing_fields_and_repeated_ids(tmp_path: Path) -> None:
    row = _jsonl(SET)[0]
    path = tmp_path / "m.jsonl"
    path.write_text(json.dumps({k: v for k, v in row.items() if k != "sections"}), "utf-8")
    with pytest.raises(ValueError, match=r"m\.jsonl:1 \(pm-001\): missing field\(s\): sections"):
        load_packet_messages(path)
    path.write_text(json.dumps(row) + "\n" + json.dumps(row) + "\n", "utf-8")
    with pytest.raises(ValueError, match=r"m\.jsonl:2: id pm-001 repeats line 1"):
        load_packet_messages(path)
    path.write_text("{not json\n", "utf-8")
    with pytest.raises(ValueError, match=r"m\.jsonl:1: not JSON"):
        load_packet_messages(path)
