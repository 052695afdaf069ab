"""The reader message benchmark file (`data/benchmarks/reader_messages.jsonl`): its size,
its keys and types, the split by phrasing, and that every misconception id is known."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
MESSAGES = ROOT / "data" / "benchmarks" / "reader_messages.jsonl"
MISCONCEPTIONS = ROOT / "data" / "curriculum" / "misconceptions.jsonl"

KEYS = [
    "claimed_right",
    "id",
    "misconception_ids",
    "phrasing",
    "problem",
    "question_id",
    "request",
    "source",
    "split",
    "student_answer",
    "text",
]
REQUESTS = {"why_wrong", "is_right", "how_to", "what_is"}
MISCONCEPTION_RE = re.compile(r"^eedi:misconception:\d+$")


def _heldout(phrasing: str) -> bool:
    return int(hashlib.sha256(("phrasing:" + phrasing).encode()).hexdigest(), 16) % 3 == 0


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    lines = MESSAGES.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_size_ids_and_phrasings(rows: list[dict]) -> None:
    assert len(rows) >= 400
    ids = Counter(r["id"] for r in rows)
    assert [i for i, n in ids.items() if n > 1] == []
    assert len({r["phrasing"] for r in rows}) >= 25
    texts = Counter(r["text"] for r in rows)
    assert [t for t, n in texts.items() if n > 1] == []


def test_keys_sorted_and_types(rows: list[dict]) -> None:
    for r in rows:
        assert list(r) == KEYS, r["id"]
        assert isinstance(r["id"], str) and r["id"], r
        assert isinstance(r["text"], str) and r["text"].strip(), r["id"]
        assert isinstance(r["phrasing"], str) and r["phrasing"], r["id"]
        for key in ("problem", "student_answer", "claimed_right"):
            value = r[key]
            assert value is None or (isinstance(value, str) and value.strip()), (key, r["id"])
            assert value is None or value.isascii(), (key, r["id"])
        assert r["request"] in REQUESTS, r["id"]
        assert r["split"] in {"dev", "heldout"}, r["id"]
        assert r["source"] in {"eedi", "own"}, r["id"]
        qid = r["question_id"]
        if r["source"] == "eedi":
            assert isinstance(qid, int) and not isinstance(qid, bool), r["id"]
        else:
            assert qid is None, r["id"]
        mids = r["misconception_ids"]
        assert isinstance(mids, list), r["id"]
        assert all(isinstance(m, str) and MISCONCEPTION_RE.match(m) for m in mids), r["id"]
        assert len(set(mids)) == len(mids), r["id"]


def test_labels_only_where_the_message_says_enough(rows: list[dict]) -> None:
    for r in rows:
        if r["problem"] is None or r["student_answer"] is None:
            assert r["misconception_ids"] == [], r["id"]
        if r["claimed_right"] is not None:
            assert r["claimed_right"] != r["student_answer"], r["id"]
    says_too_little = [
        r
        for r in rows
        if r["problem"] is None
        or (r["student_answer"] is None and r["request"] in {"why_wrong", "is_right"})
    ]
    assert 0.03 <= len(says_too_little) / len(rows) <= 0.08


def test_split_by_phrasing(rows: list[dict]) -> None:
    splits: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        expected = "heldout" if _heldout(r["phrasing"]) else "dev"
        assert r["split"] == expected, r["id"]
        splits[r["phrasing"]].add(r["split"])
    assert all(len(s) == 1 for s in splits.values())
    held_phrasings = sum(1 for s in splits.values() if s == {"heldout"})
    assert 0.25 <= held_phrasings / len(splits) <= 0.42
    held_rows = sum(1 for r in rows if r["split"] == "heldout")
    assert 0.25 <= held_rows / len(rows) <= 0.42


def test_misconception_ids_exist(rows: list[dict]) -> None:
    known = {
        json.loads(line)["id"]
        for line in MISCONCEPTIONS.read_text(encoding="utf-8").splitlines()
        if line.strip()
    }
    unknown = sorted({m for r in rows for m in r["misconception_ids"]} - known)
    assert unknown == []
    assert sum(1 for r in rows if r["misconception_ids"]) >= 200
