"""Bug rules, the problem parser and the diagnoser, on real Eedi questions.

The examples are rows of the Eedi development file (`tests/data/eedi/diagnosis_questions.csv`,
see SOURCE.md): each question's text, one of its wrong answers and the rule expected to
reproduce it; the rule's misconception is the one Eedi labels that answer with.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutorgraph.diagnosis.diagnose import KINDS, Diagnoser, read_links
from tutorgraph.diagnosis.expression import LEFT_TO_RIGHT, evaluate, number, parse
from tutorgraph.diagnosis.problem import find_problem
from tutorgraph.errors import ConfigurationError
from tutorgraph.ingest.eedi import eedi_misconception_id, read_eedi_questions
from tutorgraph.mathtext.spans import plain_text
from tutorgraph.refinement.local import answer_in
from tutorgraph.retrieval.request_diagnosis import read_and_diagnose

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
    (1018, "B", "adds_instead_of_multiplies"),
    (892, "C", "adds_instead_of_subtracts"),
    (954, "C", "column_subtraction_smaller_from_larger"),
    (408, "B", "decimal_add_misaligned"),
    (333, "D", "decimal_subtract_misaligned"),
    (598, "A", "decimal_to_percent_adds_sign"),
    (667, "B", "decimal_to_percent_divides"),
    (269, "B", "decimal_to_percent_removes_point"),
    (598, "C", "decimal_to_percent_times_ten"),
    (153, "A", "equation_same_operation"),
    (842, "A", "fraction_denominator_over_numerator"),
    (1640, "C", "fraction_times_whole_on_denominator"),
    (1005, "B", "fraction_to_decimal_numerator_after_point"),
    (842, "D", "fraction_to_decimal_point_between"),
    (194, "A", "mean_gives_median"),
    (194, "B", "mean_gives_mode"),
    (1104, "B", "mean_ignoring_zeros"),
    (194, "C", "mean_without_dividing"),
    (530, "A", "median_gives_mean"),
    (530, "D", "median_gives_mode"),
    (162, "C", "median_without_midpoint"),
    (733, "B", "missing_number_original_operation"),
    (1236, "A", "multiplies_instead_of_divides"),
    (1113, "D", "negative_divided_by_negative_negative"),
    (746, "C", "order_brackets_ignored"),
    (981, "B", "percent_to_decimal_digits_after_point"),
    (973, "B", "percent_to_decimal_divides_by_ten"),
    (1756, "C", "percent_to_decimal_removes_sign"),
    (1183, "C", "positive_times_negative_positive"),
    (796, "B", "power_index_as_digit"),
    (1815, "A", "power_of_zero"),
    (1864, "B", "range_adds"),
    (1864, "A", "range_gives_mode"),
    (149, "A", "range_unordered"),
    (719, "B", "rounding_too_little"),
    (333, "B", "subtraction_commutative"),
    (7, "C", "subtracts_instead_of_divides"),
    (1151, "D", "units_1000_mm_in_a_cm"),
    (1151, "C", "units_100_mm_in_a_cm"),
    (1577, "B", "units_10_cl_in_a_l"),
    (691, "D", "units_10_cm_in_a_m"),
    (59, "C", "percent_of_adds"),
    (1650, "C", "percent_of_finds_ten_percent"),
    (1372, "D", "percent_of_hundredth_as_ten_percent"),
    (1650, "D", "percent_of_tenth_as_one_percent"),
    (1079, "B", "root_doubles"),
    (1584, "A", "whole_divided_by_fraction_multiplies"),
    (1134, "C", "counting_on_counts_the_start"),
    (1233, "D", "counting_on_counts_the_start"),
    (1360, "C", "equivalent_fraction_by_adding"),
    (255, "C", "improper_to_mixed_parts_swapped"),
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
    root = Path(__file__).parents[2]
    links = read_links(root / "src/tutorgraph/diagnosis/bug_rules.jsonl")
    assert set(links) == {name for _, rules in KINDS for name in rules}
    # An Eedi misconception, or one of the K-5 catalogue's (issue 61), which must exist there.
    k5 = {
        json.loads(line)["id"]
        for line in (root / "data/teaching/misconceptions_k5.jsonl").read_text().splitlines()
    }
    assert all(
        ids and all(i.startswith("eedi:misconception:") or i in k5 for i in ids)
        for ids in links.values()
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


@pytest.mark.parametrize(
    ("problem", "answer", "rule"),
    [
        # Written as Eedi words its questions; no labelled Eedi answer fires these rules.
        ("What is 47 + 38?", "75", "column_addition_no_carry"),
        ("What is 52 - 27?", "35", "column_subtraction_no_decrement"),
        ("Convert 0.07 to a percentage", "70%", "decimal_to_percent_times_thousand"),
        ("Work out 12 × 3", "4", "divides_instead_of_multiplies"),
        ("Solve 3x + 5 = 20", "x = 15", "equation_forgets_coefficient"),
        ("Solve 4x = 12", "8", "equation_subtracts_instead_of_dividing"),
        ("Solve 2x + 3 = 11", "2.5", "equation_wrong_order"),
        ("Write 3/5 as a percentage", "35%", "fraction_to_percent_numerator_then_denominator"),
        ("What is the median of 7, 2, 9, 4, 5?", "9", "median_unordered"),
        ("What is the mode of 2, 2, 5, 8, 9?", "5", "mode_gives_median"),
        ("Convert 7% to a decimal", "0.007", "percent_to_decimal_divides_by_thousand"),
        ("2^(-3)", "-8", "power_negative_index_negative"),
        ("3^2", "27", "power_square_cube_confused"),
        ("What is the range of 2, 4, 9?", "5", "range_gives_mean"),
        ("What is the range of 2, 4, 9?", "4", "range_gives_median"),
        ("What is the range of 2, 4, 9?", "9", "range_largest"),
        ("What is 12 + 5?", "7", "subtracts_instead_of_adds"),
        ("What is 3 × 4?", "34", "multiplication_concatenates"),
        ("3/8 ÷ 2", "6/8", "fraction_divided_by_whole_multiplies"),
        ("2 + 1/3", "3/3", "whole_plus_fraction_on_numerator"),
        ("-12 ÷ 3", "4", "negative_divided_by_positive_positive"),
        ("-3 × 4", "12", "negative_times_positive_positive"),
        ("Convert 2.5 hours into minutes", "250", "units_100_minutes_in_an_hour"),
        ("Convert 2 hours into minutes", "20 minutes", "units_10_minutes_in_an_hour"),
        ("How many minutes are there in 3 hours?", "90", "units_30_minutes_in_an_hour"),
        ("Convert 2 hours into seconds", "200", "units_100_seconds_in_an_hour"),
        ("How many hours are there in 2 days?", "24", "units_12_hours_in_a_day"),
        ("Convert 3.5 km into m", "350", "units_100_m_in_a_km"),
        ("Convert 3.5 km into m", "35", "units_10_m_in_a_km"),
        ("Convert 2.4 kg into grams", "240", "units_100_g_in_a_kg"),
        ("Convert 2.4 kg into grams", "24", "units_10_g_in_a_kg"),
        ("Convert 3 tonnes into kg", "300", "units_100_kg_in_a_tonne"),
        ("Convert 3 tonnes into kg", "30", "units_10_kg_in_a_tonne"),
        ("Convert 1.5 litres into ml", "150", "units_100_ml_in_a_l"),
        ("What is 3/20 as a percentage?", "3%", "fraction_to_percent_numerator_as_percent"),
        ("What is 3/20 as a percentage?", "6%", "fraction_to_percent_doubles_numerator"),
        ("What is 3/20 as a percentage?", "3.20%", "fraction_to_percent_point_between"),
        ("Write 5 as a percentage of 20", "400%", "fraction_to_percent_wrong_way_round"),
        ("What is the square root of 64?", "32", "root_halves"),
        ("√9", "81", "root_squares"),
        ("What is the square root of 64?", "16", "root_divides_by_four"),
        ("What is the cube root of 64?", "8", "root_square_cube_confused"),
        ("Find 20% of 80", "4", "percent_of_divides_by_percent"),
        ("Solve the equation: 0.15 = 0.5p", "p = 10/3", "equation_divides_the_wrong_way"),
        ("Solve the equation: 12d-3 = 6d+3", "d = 1/3", "equation_same_operation"),
        ("3/5 × ? = 1/2", "3/10", "missing_number_original_operation"),
        ("If you triple 8 you get...", "38", "multiplication_concatenates"),
        ("0.01^3 =", "0.0001", "decimal_multiply_wrong_power_of_ten"),
    ],
)
def test_rules_on_eedi_style_problems(
    diagnoser: Diagnoser, problem: str, answer: str, rule: str
) -> None:
    found = find_problem(problem)
    assert found is not None
    result = diagnoser.diagnose(found, answer)
    assert result.correct is False
    finding = next(f for f in result.findings if f.rule == rule)
    assert finding.explanation.startswith(finding.reproduced_answer + " is what you get by")
    assert diagnoser.diagnose(found, result.correct_answer or "").correct is True


# Issue 47: rules for well-known errors, each with a problem, the wrong answer it
# reproduces, and answers it must not explain (the right one, and other errors).
@pytest.mark.parametrize(
    ("problem", "answer", "rule", "silent"),
    [
        ("2/3 ÷ 4/5", "8/15", "fraction_divide_without_reciprocal", ["5/6", "6/5"]),
        ("2 ÷ 1/5", "2/5", "whole_divided_by_fraction_multiplies", ["10", "5/2"]),
        ("1/3 × 12", "36", "fraction_of_multiplies_by_denominator", ["4", "13"]),
        ("2/3 × 12", "72", "fraction_of_multiplies_by_denominator", ["8", "24"]),
        ("70 × 60", "420", "multiple_of_ten_drops_a_zero", ["4200", "42"]),
        ("26 × 3", "68", "column_multiplication_no_carry", ["78", "29"]),
        ("8 + 5", "12", "counting_on_counts_the_start", ["13", "14"]),
        ("3 + 8", "10", "counting_on_counts_the_start", ["11"]),
        ("10 - 3", "8", "counting_back_counts_the_start", ["7", "6"]),
        ("sqrt(9 + 16)", "7", "root_of_each_term", ["5", "25"]),
        ("√(25 - 9)", "2", "root_of_each_term", ["4"]),
        (
            "change 2 3/4 into an improper fraction",
            "6/4",
            "mixed_to_improper_whole_times_numerator",
            ["11/4", "2 3/4"],
        ),
        (
            "2 3/4 as an improper fraction",
            "5/4",
            "mixed_to_improper_adds_whole_to_numerator",
            ["11/4"],
        ),
        ("2 3/4 as an improper fraction", "8/4", "mixed_to_improper_forgets_numerator", ["11/4"]),
        (
            "2 3/4 as an improper fraction",
            "10/4",
            "mixed_to_improper_whole_times_numerator_plus_denominator",
            ["11/4"],
        ),
        ("write 11/4 as a mixed number", "3 2/4", "improper_to_mixed_parts_swapped", ["2 3/4"]),
        ("find a fraction equal to 2/3", "4/5", "equivalent_fraction_by_adding", ["4/6", "8/12"]),
        ("which is bigger 1/3 or 1/4?", "1/4", "fraction_larger_denominator_bigger", ["1/3"]),
        (
            "which fraction is smaller, 2/5 or 2/7",
            "2/5",
            "fraction_larger_denominator_bigger",
            ["2/7"],
        ),
        ("3/4 or 5/8, which is greater", "5/8", "fraction_larger_denominator_bigger", ["3/4"]),
        ("if x = 4 what is 3x?", "34", "substitution_digits_side_by_side", ["12", "7"]),
        ("work out 2x + 5 when x = 3", "28", "substitution_digits_side_by_side", ["11"]),
        ("slope of y = 3x + 2", "2", "gradient_is_the_intercept", ["3", "-2"]),
        ("the gradient of the line y = -2x + 7", "7", "gradient_is_the_intercept", ["-2"]),
    ],
)
def test_well_known_errors(
    diagnoser: Diagnoser, problem: str, answer: str, rule: str, silent: list[str]
) -> None:
    found = find_problem(problem) or problem
    result = diagnoser.diagnose(found, answer)
    assert result.correct is False
    finding = next(f for f in result.findings if f.rule == rule)
    assert finding.explanation.startswith(finding.reproduced_answer + " is what you get by")
    for other in silent:
        assert rule not in {f.rule for f in diagnoser.diagnose(found, other).findings}


@pytest.mark.parametrize(
    ("problem", "answer", "rule"),
    [
        # a fraction by a whole number has its own rule: no "without the reciprocal" there
        ("2/5 ÷ 3", "6/5", "fraction_divide_without_reciprocal"),
        # one operand not a multiple of ten, or the zero is kept
        ("7 × 6", "4.2", "multiple_of_ten_drops_a_zero"),
        # a carry-free product, or a two-digit multiplier
        ("23 × 3", "69", "column_multiplication_no_carry"),
        ("26 × 13", "68", "column_multiplication_no_carry"),
        # steps too big to count in ones
        ("40 + 25", "64", "counting_on_counts_the_start"),
        ("9 + 1", "9", "counting_on_counts_the_start"),
        # the same denominators: the rule says nothing
        ("which is bigger 1/5 or 3/5", "1/5", "fraction_larger_denominator_bigger"),
        # a negative value, or a decimal coefficient, is not written side by side
        ("if x = -4 what is 3x?", "3-4", "substitution_digits_side_by_side"),
        ("if x = 4 what is 1.5x?", "1.54", "substitution_digits_side_by_side"),
        # the side of an equation is no expression to work out, and "the slope of a line
        # perpendicular to" is no gradient of the line itself
        ("if x = 4 solve 2x = 8", "24", "substitution_digits_side_by_side"),
        ("slope of a line perpendicular to y = 2x + 1", "1", "gradient_is_the_intercept"),
    ],
)
def test_well_known_error_rules_stay_silent(
    diagnoser: Diagnoser, problem: str, answer: str, rule: str
) -> None:
    found = find_problem(problem) or problem
    assert rule not in {f.rule for f in diagnoser.diagnose(found, answer).findings}


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("1/3 of 12, i got 36", "fraction_of_multiplies_by_denominator"),
        (
            "change 2 3/4 into an improper fraction, i got 6/4",
            "mixed_to_improper_whole_times_numerator",
        ),
        (
            "which is bigger 1/3 or 1/4? i said 1/4 cuz 4 is bigger than 3",
            "fraction_larger_denominator_bigger",
        ),
        ("8 + 5 i counted 8, 9, 10, 11, 12 so its 12", "counting_on_counts_the_start"),
        ("\\sqrt{9 + 16} i got 7", "root_of_each_term"),
        ("if x = 4 what is 3x? is it 34", "substitution_digits_side_by_side"),
        ("slope of y = 3x + 2, i put 2", "gradient_is_the_intercept"),
        ("70 x 60 i got 420", "multiple_of_ten_drops_a_zero"),
        ("26 x 3 i got 68", "column_multiplication_no_carry"),
        ("is 2/3 ÷ 4/5 = 8/15? thats what i got", "fraction_divide_without_reciprocal"),
    ],
)
def test_well_known_errors_in_messages(diagnoser: Diagnoser, message: str, rule: str) -> None:
    answer = answer_in(message)
    assert answer
    read = read_and_diagnose(diagnoser, message, answer, None, message=True)
    assert read is not None
    assert rule in {f.rule for f in read[1].findings}
