"""The K-5 misconception catalogue (`data/teaching/misconceptions_k5.jsonl`) and the bug rules
that reproduce its errors: each record is well formed, its examples' answers are what their
expressions give, its standards are real K-5 standards (covering most of them), and its rule
gives each example's wrong answer (never the right one) and names the record.
"""

from __future__ import annotations

import doctest
import json
import time
from pathlib import Path
from typing import Any

import pytest

from tutorgraph.diagnosis import number_words, whole_numbers
from tutorgraph.diagnosis.diagnose import KINDS, Diagnoser, read_links
from tutorgraph.diagnosis.number_words import NumberNameProblem
from tutorgraph.diagnosis.problem import find_problem
from tutorgraph.mathtext.evaluate import matches

pytestmark = pytest.mark.unit

ROOT = Path(__file__).parents[2]
CATALOGUE = ROOT / "data/teaching/misconceptions_k5.jsonl"
GRADES = ["K", "1", "2", "3", "4", "5"]
KEYS = {"id", "name", "description", "examples", "standards", "grade", "rule"}
RULES = {name for _, rules in KINDS for name in rules}


def _records() -> list[dict[str, Any]]:
    lines = CATALOGUE.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _standards() -> dict[str, str]:
    """The K-5 standards of the curriculum (practices included), id -> grade."""
    out = {}
    for line in (ROOT / "data/curriculum/concepts.jsonl").read_text(encoding="utf-8").splitlines():
        c = json.loads(line)
        if c["kind"] == "standard" and c["grade"] in GRADES:
            out[c["id"]] = c["grade"]
    return out


RECORDS = _records()
RULED = [(r["id"], r["rule"], e) for r in RECORDS if r["rule"] for e in r["examples"]]


@pytest.fixture(scope="module")
def diagnoser() -> Diagnoser:
    return Diagnoser.bundled()


def test_the_catalogue_is_well_formed() -> None:
    ids = [r["id"] for r in RECORDS]
    assert len(ids) >= 100
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert len({r["name"].casefold() for r in RECORDS}) == len(RECORDS)
    standards = _standards()
    for r in RECORDS:
        assert set(r) == KEYS, r["id"]
        assert r["id"].startswith("tutorgraph:misconception:"), r["id"]
        assert not r["name"].casefold().startswith(("the student", "student")), r["id"]
        assert len(r["examples"]) >= 2, r["id"]
        assert r["standards"] and set(r["standards"]) <= set(standards), r["id"]
        assert r["grade"] == min((standards[s] for s in r["standards"]), key=GRADES.index)
        assert r["rule"] is None or r["rule"] in RULES, r["id"]


@pytest.mark.parametrize("record", RECORDS, ids=[r["id"].rsplit(":", 1)[1] for r in RECORDS])
def test_each_example_has_a_right_answer_its_expression_gives(record: dict[str, Any]) -> None:
    for e in record["examples"]:
        assert matches(e["expression"], e["right_answer"]), e
        assert not matches(e["expression"], e["wrong_answer"]), e


def test_the_catalogue_covers_nine_tenths_of_the_k5_standards() -> None:
    standards = set(_standards())
    covered = {s for r in RECORDS for s in r["standards"]} & standards
    assert len(standards) == 239
    assert len(covered) / len(standards) >= 0.9, sorted(standards - covered)


def test_each_rule_of_the_catalogue_is_linked_to_its_record_and_back() -> None:
    links = read_links(ROOT / "src/tutorgraph/diagnosis/bug_rules.jsonl")
    ours = {r["id"] for r in RECORDS}
    for r in RECORDS:
        if r["rule"]:
            assert r["id"] in links[r["rule"]], r["id"]
    for rule, ids in links.items():
        for i in ids:
            if i.startswith("tutorgraph:"):
                assert i in ours and rule in {r["rule"] for r in RECORDS if r["id"] == i}


@pytest.mark.parametrize(
    ("mid", "rule", "example"), RULED, ids=[f"{r}-{e['problem'][:24]}" for _, r, e in RULED]
)
def test_a_rule_reproduces_its_examples_wrong_answer_and_not_the_right_one(
    diagnoser: Diagnoser, mid: str, rule: str, example: dict[str, str]
) -> None:
    problem = find_problem(example["problem"])
    assert problem is not None, example["problem"]
    wrong = diagnoser.diagnose(problem, example["wrong_answer"])
    assert wrong.correct is False
    finding = next(f for f in wrong.findings if f.rule == rule)
    assert mid in finding.misconception_ids
    assert finding.explanation.startswith(finding.reproduced_answer + " is what you get by")
    right = diagnoser.diagnose(problem, example["right_answer"])
    assert right.correct is True and right.findings == []


@pytest.mark.parametrize(
    ("problem", "answer", "rule"),
    [
        # another error, or the rule's own answer when it is right
        ("47 + 10", "67", "tens_added_as_ones"),
        ("40 + 30", "43", "tens_added_as_ones"),  # no ones to add to
        ("47 + 15", "48", "tens_added_as_ones"),  # 15 is no multiple of ten
        ("70 - 30", "4", "digits_added_as_ones"),
        ("40 + 30", "7", "digits_added_as_ones"),  # tens only: the zero rule says it
        ("120 + 30", "15", "tens_drop_the_zero"),  # beyond the tens of 1.NBT
        ("8 + 2", "12", "make_ten_keeps_the_addend"),  # no ten to bridge
        ("12 + 6", "16", "make_ten_keeps_the_addend"),
        ("15 - 3", "7", "bridge_ten_subtracts_whole"),  # does not cross ten
        ("6 + 8", "12", "near_double_not_adjusted"),  # not a near double
        ("12 × 4", "60", "multiplication_one_group_off"),  # beyond the facts
        ("5 - 5", "0", "subtracting_zero_gives_zero"),
        ("34 + 25", "59", "column_addition_carries_the_ones"),  # no carry
        ("21 + 32 + 14", "67", "column_addition_carries_one"),  # no column of 20
        ("45 - 23", "20", "zero_minus_digit_is_zero"),
        ("52 - 27", "35", "zero_minus_digit_is_zero"),  # regrouping, no zero
        ("52 - 27", "35", "borrow_across_zero_leaves_ten"),  # no zero to cross
        ("23 × 3", "69", "column_multiplication_carry_added_first"),  # no carry
        ("26 × 13", "98", "column_multiplication_carry_added_first"),  # two-digit multiplier
        ("630 ÷ 3", "21", "division_quotient_drops_zero"),  # a final zero is written
        ("625 ÷ 3", "28", "division_quotient_drops_zero"),  # a remainder
        ("2^3", "16", "power_of_ten_extra_zero"),
        ("Round 347 to the nearest ten.", "350", "rounding_in_steps"),  # one step: right
        ("Round 351 to the nearest hundred.", "400", "rounding_in_steps"),
        ("Write eleven in digits.", "11", "teen_digits_reversed"),
        ("Write twelve in digits.", "21", "teen_digits_reversed"),  # "twelve" says no two first
        ("Write one hundred in digits.", "1000", "number_words_written_as_heard"),
        ("What number is 4 tens and 5 ones?", "45", "tens_and_ones_side_by_side"),
    ],
)
def test_the_new_rules_stay_silent(
    diagnoser: Diagnoser, problem: str, answer: str, rule: str
) -> None:
    found = find_problem(problem) or problem
    assert rule not in {f.rule for f in diagnoser.diagnose(found, answer).findings}


@pytest.mark.parametrize(
    ("problem", "answer", "rule"),
    [
        # Eedi's own errors in writing numbers named in words (question 186 of its train file)
        (
            "How do you write this number in digits? Fifty-six thousand and thirteen",
            "5613",
            "number_words_without_zeros",
        ),
        (
            "How do you write this number in digits? Fifty-six thousand and thirteen",
            "56030",
            "teen_read_as_tens",
        ),
        ("Write fourteen in digits.", "4", "teen_read_as_ones"),
        ("Write nineteen as a numeral", "90", "teen_read_as_tens"),
    ],
)
def test_the_eedi_rules_of_number_names(
    diagnoser: Diagnoser, problem: str, answer: str, rule: str
) -> None:
    found = find_problem(problem)
    assert found is not None
    result = diagnoser.diagnose(found, answer)
    assert result.correct is False and rule in {f.rule for f in result.findings}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("How do you write this number in digits? Fifty-six thousand and thirteen", 56013),
        ("write three hundred and six using digits", 306),
        ("Can you write Sixty-Three in figures?", 63),
        ("what number is 2 hundreds, 13 tens and 4 ones", 334),
        ("what number is six tens and four ones?", 64),
        ("write ninety thousand seven in digits", 90007),
    ],
)
def test_number_names_are_read(text: str, value: int) -> None:
    p = NumberNameProblem.read(text)
    assert p is not None and p.value == value
    assert NumberNameProblem.read(p.text) == p  # the canonical text reads back the same


@pytest.mark.parametrize(
    "text",
    [
        "What is 47 + 38?",
        "write fourteen",  # no "in digits"
        "write twelve hundred in digits",  # not a name the reader knows
        "write five twenty in digits",  # an impossible order of words
        "Round 3.47 to one decimal place",
        "I have 3 tens and 4 ones",  # no question about the number
    ],
)
def test_other_text_is_no_number_name(text: str) -> None:
    assert NumberNameProblem.read(text) is None


def test_arithmetic_is_still_read_as_arithmetic() -> None:
    assert find_problem("What is 47 + 38?") == "47 + 38"
    assert find_problem("what is 624 ÷ 3? i got 28") == "624 ÷ 3"


@pytest.mark.parametrize(
    "text",
    [
        "one " * 600 + "in digit",
        "write " + "twenty-" * 300 + "x in digits",
        "what is " + "3 tens " * 300 + "and 4 one",
    ],
)
def test_long_number_names_are_read_in_bounded_time(text: str) -> None:
    started = time.perf_counter()
    NumberNameProblem.read(text)
    find_problem(text)
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize("module", [number_words, whole_numbers])
def test_the_docstring_examples(module: Any) -> None:
    assert doctest.testmod(module).failed == 0
