"""Math normalisation, stated answers and spelling: the rules behind the local refiner."""

from __future__ import annotations

import pytest

from tutorgraph.mathtext.spans import canonical_math, math_spans, plain_text
from tutorgraph.refinement.answer import stated_answer
from tutorgraph.refinement.spelling import SpellingCorrector

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        (r"\frac{1}{2}", "1/2"),
        (r"\( \frac{3}{4} \)", "3/4"),
        (r"$x^{2}+1$", "x^2+1"),
        ("½ + ¼", "1/2 + 1/4"),
        ("1½", "1 1/2"),
        ("x² − 4", "x^2 - 4"),
        (r"1\frac{1}{3}", "1 1/3"),
        ("no math here", "no math here"),
    ],
)
def test_plain_text(text: str, plain: str) -> None:
    assert plain_text(text) == plain


@pytest.mark.parametrize("text", [r"broken \frac{1}{", "}{", "\\", "$", "((((", "= = ="])
def test_odd_input_never_raises(text: str) -> None:
    math_spans(plain_text(text))
    stated_answer(plain_text(text))


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("i got 2/6 for 1/2+1/4", ["2/6", "1/2 + 1/4"]),
        ("solve 2x+3=7", ["2x + 3 = 7"]),
        ("-3-(-5) = 2", ["-3 - (-5) = 2"]),
        ("3*4 <= 12", ["3 × 4 ≤ 12"]),
        ("1 1/3 + 2", ["1 1/3 + 2"]),
        ("sqrt(16) = 4", ["sqrt(16) = 4"]),
        ("a fraction like a/b", ["a/b"]),
        ("I have 5 apples", []),
        ("the x-intercept", []),
        ("what does 6.NS.A.1 mean", []),
        ("(x+2)(x-2)", ["(x + 2)(x - 2)"]),
    ],
)
def test_math_spans(text: str, spans: list[str]) -> None:
    assert [s.text for s in math_spans(text)] == spans


def test_spans_point_into_the_text() -> None:
    text = "so 12/4=3 ok"
    (span,) = math_spans(text)
    assert text[span.start : span.end] == "12/4=3"


def test_canonical_math_of_a_non_expression_is_its_plain_text() -> None:
    assert canonical_math("B") == "B"
    assert canonical_math(r"\frac{2}{6}") == "2/6"


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("i got 2/6 for 1/2 + 1/4", "2/6"),
        ("My answer was x = 4 but", "x = 4"),
        ("I said B because", "B"),
        ("my daughter wrote 0.35 for it", "0.35"),
        ("1/2 + 1/4 = 2/6 why", "2/6"),
        ("Correct answer: 3/4 Student answer: 2/6", "2/6"),
        ("solve 2x + 3 = 7", None),
        ("what is a ratio", None),
    ],
)
def test_stated_answer(text: str, answer: str | None) -> None:
    assert stated_answer(text) == answer


def test_spelling_corrects_one_edit_to_the_most_frequent_word() -> None:
    speller = SpellingCorrector({"fractions": 50, "fraction": 40, "factions": 2, "denominator": 9})
    assert speller.correct("fractoins") == "fractions"  # adjacent swap
    assert speller.correct("denominater") == "denominator"  # substitution
    assert speller.correct("fractionss") == "fractions"  # insertion
    assert speller.correct("fractins") == "fractions"  # deletion: the more frequent wins
    assert speller.correct("fractions") is None  # known
    assert speller.correct("frac") is None  # too short to correct safely
    assert speller.correct("zzzzzz") is None  # nothing near


def test_spelling_fixes_a_corpus_typo_seen_once() -> None:
    speller = SpellingCorrector({"distributive": 30, "distibutive": 1})
    assert speller.correct("distibutive") == "distributive"
