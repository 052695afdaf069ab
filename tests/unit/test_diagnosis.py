"""Bug rules, the problem parser and the diagnoser, on real Eedi questions.

The examples are rows of the Eedi development file (`tests/data/eedi/diagnosis_questions.csv`,
see SOURCE.md): each question's text, one of its wrong answers and the rule expected to
reproduce it; the rule's misconception is the one Eedi labels that answer with.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutorgraph.diagnosis.diagnose import Diagnoser, read_links
from tutorgraph.diagnosis.expression import LEFT_TO_RIGHT, evaluate, number, parse
from tutorgraph.diagnosis.problem import find_problem
from tutorgraph.diagnosis.rounding import ROUNDING_RULES
from tutorgraph.diagnosis.rules import RULES
from tutorgraph.errors import ConfigurationError
from tutorgraph.ingest.eedi import eedi_misconception_id, read_eedi_questions
from tutorgraph.refinement.math_text import plain_text

pytestmark = pytest.mark.unit

QUESTIONS = Path(__file__).parents[1] / "data" / "eedi" / "diagnosis_questions.csv"
# (question id, wrong answer's letter, the rule that reproduces it)
EEDI_CASES = [
    (86, "A", "fraction_add_across"),
    (1430, "D", "fraction_add_across"),
    (1382, "B", "fraction_subtract_across"),
    (1289, "C", "fraction_multiply_adding_numerators"),
    (1213, "B", "fraction_divide_reciprocal_of_first"),
    (1584, "C", "fraction_divide_reciprocal_of_first"),
    (1584, "D", "fraction_divide_reciprocal_of_both"),
    (1866, "D", "order_left_to_right"),
    (1866, "C", "order_bidmas_strict"),
    (1837, "A", "negative_square_positive"),
    (1863, "D", "positive_divided_by_negative_positive"),
    (1481, "B", "squaring_as_doubling"),
    (1807, "B", "multiplies_by_index"),
    (322, "A", "decimal_multiply_just_the_digits"),
    (486, "A", "decimal_multiply_wrong_power_of_ten"),
    (1407, "D", "division_commutative"),
    (327, "A", "rounding_down_instead_of_up"),
    (73, "A", "rounding_up_instead_of_down"),
    (152, "B", "rounding_too_much"),
    (721, "A", "rounding_sf_as_dp"),
]


@pytest.fixture(scope="module")
def diagnoser() -> Diagnoser:
    return Diagnoser.bundled()


@pytest.mark.parametrize(("qid", "letter", "rule"), EEDI_CASES)
def test_a_rule_reproduces_the_labelled_wrong_answer(
    diagnoser: Diagnoser, qid: int, letter: str, rule: str
) -> None:
    q = next(q for q in read_eedi_questions(QUESTIONS) if q.question_id == qid)
    problem = find_problem(q.question_text)
    assert problem is not None
    result = diagnoser.diagnose(problem, plain_text(q.answers[letter]))
    assert result.correct is False
    finding = next(f for f in result.findings if f.rule == rule)
    assert eedi_misconception_id(q.misconception_ids[letter]) in finding.misconception_ids
    assert finding.explanation.startswith(finding.reproduced_answer + " is what you get by")
    # The correct option is never diagnosed ("0.666..." is not read: no verdict).
    right = diagnoser.diagnose(problem, plain_text(q.answers[q.correct_answer]))
    assert right.correct is not False and right.findings == []


@pytest.mark.parametrize(
    ("problem", "answer", "rule", "explanation"),
    [
        (
            "2/3 + 1/4",
            "3/7",
            "fraction_add_across",
            "3/7 is what you get by adding the numerators (2 + 1) and the denominators (3 + 4)",
        ),
        ("10 - 4 / 2", "3", "order_left_to_right", None),
        ("0.6 * 0.2", "1.2", "decimal_multiply_wrong_power_of_ten", None),
        ("(-5)^2", "-25", "square_of_negative_negative", None),
        ("-3 × -4", "-12", "negative_times_negative_negative", None),
        ("5 - -3", "2", "subtracting_negative_ignores_sign", None),
        ("(2 + 3) × 4", "14", "order_brackets_ignored", None),
        ("3 - 8", "5", "subtraction_commutative", None),
        ("1/2 + 1/3", "2/6", "fraction_add_numerators_multiply_denominators", None),
        ("2/3 ÷ 1/4", "2/12", "fraction_divide_without_reciprocal", None),
    ],
)
def test_the_issue_examples(
    diagnoser: Diagnoser, problem: str, answer: str, rule: str, explanation: str | None
) -> None:
    findings = {f.rule: f for f in diagnoser.diagnose(problem, answer).findings}
    assert rule in findings
    if explanation:
        assert findings[rule].explanation == explanation


def test_every_rule_is_linked_to_a_misconception_and_back() -> None:
    links = read_links(Path(__file__).parents[2] / "src/tutorgraph/diagnosis/bug_rules.jsonl")
    assert set(links) == set(RULES) | set(ROUNDING_RULES)
    assert all(
        ids and all(i.startswith("eedi:misconception:") for i in ids) for ids in links.values()
    )


def test_a_bad_link_table_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "links.jsonl"
    bad.write_text('{"rule": "no_such_rule", "misconceptions": ["x"]}\n', encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"links\.jsonl:1: unknown rule"):
        read_links(bad)
    bad.write_text("not json\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"links\.jsonl:1"):
        read_links(bad)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("i added 2/3 and 1/4 and got 3/7, why is that wrong?", "2/3 + 1/4"),
        ("is 15 / -3 equal to 5?", "15/-3"),
        ("I worked out 10 - 4 / 2 as 3", "10 - 4/2"),
        ("we subtracted 3 from 10 and i put 13", "10 - 3"),
        (r"what is \(\frac{1}{2} \times \frac{3}{4}\)?", "1/2 × 3/4"),
        ("what is ½ + ¼", "1/2 + 1/4"),
        ("how do i simplify fractions", None),
        ("3/7", None),  # a number, not a calculation
    ],
)
def test_find_problem(text: str, expected: str | None) -> None:
    assert find_problem(text) == expected


def test_the_order_of_operations_is_a_parameter() -> None:
    assert evaluate(parse("2 + 3 × 4")) == 14
    assert evaluate(parse("2 + 3 × 4", LEFT_TO_RIGHT)) == 20
    assert evaluate(parse("-5^2")) == -25 and evaluate(parse("(-5)^2")) == 25
    # a tight slash is a fraction bar: 2/3 ÷ 1/4 is (2/3) ÷ (1/4)
    assert evaluate(parse("2/3 ÷ 1/4")) == evaluate(parse("(2/3) ÷ (1/4)"))


@pytest.mark.parametrize(
    "text", ["2^99999", "9^9^9^9", "(" * 40 + "1" + ")" * 40, "1" + " + 1" * 100, "1/0", "0^-1"]
)
def test_pathological_input_is_bounded_and_gives_nothing(diagnoser: Diagnoser, text: str) -> None:
    started = time.perf_counter()
    assert evaluate(parse(text)) is None
    assert diagnoser.diagnose(text, "1").findings == []
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize(
    ("text", "value"), [("3/7", "3/7"), ("-1.2", "-6/5"), ("2 1/2", "5/2"), ("−4", "-4")]
)
def test_number(text: str, value: str) -> None:
    assert str(number(text)) == value


@pytest.mark.parametrize("text", ["1 + 2", "x", "", "3/7/2", "abc 3"])
def test_an_answer_that_is_not_a_number_gives_none(text: str) -> None:
    assert number(text) is None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789+-*/^()÷×.−·, xa", max_size=60), st.text(max_size=20))
def test_odd_text_never_raises(diagnoser: Diagnoser, problem: str, answer: str) -> None:
    diagnoser.diagnose(problem, answer)
    find_problem(problem, student_answer=answer)


def test_the_report_counts_coverage_and_precision_per_fold_and_rule() -> None:
    from tutorgraph.eval.diagnosis import diagnosis_report

    questions = read_eedi_questions(QUESTIONS)
    report = diagnosis_report(questions, folds=5)
    pairs = sum(
        1
        for q in questions
        for x, m in q.misconception_ids.items()
        if m is not None and x != q.correct_answer
    )
    assert report["pairs"] == pairs == sum(f["pairs"] for f in report["by_fold"].values())
    assert report["problem_read"] == pairs  # every one of these questions is readable
    # Every labelled case of EEDI_CASES fires and names its label.
    assert report["fired"] >= len({(q, x) for q, x, _ in EEDI_CASES})
    assert report["coverage"] == round(report["fired"] / pairs, 4)
    by_rule = report["by_rule"]
    assert sum(r["fired"] for r in by_rule.values()) == report["findings"]
    assert report["precision"] == round(
        sum(r["right"] for r in by_rule.values()) / report["findings"], 4
    )
    assert by_rule["fraction_add_across"]["precision"] == 1.0


@pytest.mark.parametrize(
    ("text", "answer", "correct", "rule"),
    [
        ("Round 3.47 to 1 decimal place", "3.4", "3.5", "rounding_down_instead_of_up"),
        ("What is 3.42 rounded to one decimal place?", "3.5", "3.4", "rounding_up_instead_of_down"),
        ("Round 4567 to the nearest hundred", "5000", "4600", "rounding_too_much"),
        ("Round 3.47 to 1 decimal place", "3.47", "3.5", "rounding_too_little"),
        ("Round 0.0347 to 2 significant figures", "0.03", "0.035", "rounding_sf_as_dp"),
        ("Round 2.25 to 1 dp", "2.2", "2.3", "rounding_five_down"),
    ],
)
def test_rounding_rules(
    diagnoser: Diagnoser, text: str, answer: str, correct: str, rule: str
) -> None:
    problem = find_problem(text)
    assert problem is not None
    result = diagnoser.diagnose(problem, answer)
    assert result.correct is False and result.correct_answer == correct
    assert rule in {f.rule for f in result.findings}
    assert diagnoser.diagnose(problem, correct).correct is True
