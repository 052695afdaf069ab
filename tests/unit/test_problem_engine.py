"""The problem engine's parts (issue 61): draws, templates, styles, steps and voice."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from tutorgraph.mathtext.evaluate import evaluate
from tutorgraph.problems._draw import Scope, literal, parse_draws, render
from tutorgraph.problems._phrasing import agree, voice
from tutorgraph.problems._rows import _row, make
from tutorgraph.problems._steps import work

pytestmark = pytest.mark.unit


def _scope(spec: str, seed: int = 0) -> Scope:
    return Scope.drawn(parse_draws(spec), random.Random(seed))


def test_drawers_are_called_inside_expressions_and_see_earlier_values() -> None:
    for seed in range(50):
        scope = _scope("k=int(2,9); s=10*int(1,k); w=k + pick(1/4, 1/2)", seed)
        k, s, w = (scope.number(n) for n in "ksw")
        assert s % 10 == 0 and 10 <= s <= 10 * k
        assert w - k in (Fraction(1, 4), Fraction(1, 2))


def test_a_decimal_is_written_as_a_decimal_in_text_expression_and_answer() -> None:
    row = _row("X.Y/z", {"bare": "a=dec(2.35); b=dec(1.4)", "ask": ["{a} + {b} = ? => a + b"]}, {})
    text, expression, answer, steps = make(row, random.Random(0))
    assert "2.35 + 1.4" in text and expression == "2.35 + 1.4" and answer == "3.75"
    assert steps[-1] == "So 2.35 + 1.4 = 3.75."


def test_a_placeholder_in_an_expression_is_the_number_the_problem_states() -> None:
    scope = _scope("a=int(10,20); b=int(1,9)")
    a, b = scope.number("a"), scope.number("b")
    assert literal("{a+b} - b", scope) == f"{a + b} - {b}"
    assert evaluate(literal("{a+b} - b", scope)) == a


def test_doubled_braces_are_braces_of_the_text() -> None:
    scope = _scope("x=int(1,5); y=int(6,9)")
    x, y = scope.number("x"), scope.number("y")
    assert render("{{{x}, {y}}} and {{9 + [2 × 3]}}", scope) == f"{{{x}, {y}}} and {{9 + [2 × 3]}}"


def test_a_word_and_its_fields() -> None:
    scope = _scope("t=thing; s=word(shapes); n=name; m=name(n)")
    assert render("{t.one}", scope) != render("{t}", scope) or render("{t}", scope) == "fish"
    assert evaluate(literal("s.sides + 1", scope)) == scope.number("s.sides") + 1
    assert render("{n}", scope) != render("{m}", scope)


def test_a_mixed_number_is_one_number_to_the_steps_but_a_sum_in_a_template_is_not() -> None:
    assert work("(2 + 3/4) + (1 + 1/2)", "4 1/4")[:2] == [
        "Write 2 3/4 as 11/4.",
        "Write 1 1/2 as 3/2.",
    ]
    assert work("199 * (1 + 10 / 100)", "218.9")[0] == "10 ÷ 100 = 0.1."


def test_steps_stay_at_the_grade() -> None:
    assert work("6 + 3", "9") == ["Start at 6 and count on 3: 7, 8, 9.", "So 6 + 3 = 9."]
    assert work("13 - 9", "4")[0] == "Take 3 to get to 10: 13 - 3 = 10."
    assert work("90 + 10", "100")[0] == "Think in tens: 9 tens + 1 ten = 10 tens."
    assert work("347 * 6", "2082")[0] == "Split 347 into 300 + 40 + 7."
    assert work("3 / 4", "0.75")[1] == "300 hundredths ÷ 4 = 75 hundredths, which is 0.75."
    assert work("(-4) * (-6)", "24")[1] == "The signs are the same, so it is positive: 24."
    assert work("round_to(347, 10)", "350")[0] == "347 is between 340 and 350."


def test_one_of_a_unit_is_singular_and_the_voice_keeps_the_problem() -> None:
    assert agree("1 tens and 1 ones, 21 tens, 0.1 ones") == "1 ten and 1 one, 21 tens, 0.1 ones"
    for seed in range(40):
        said = voice(random.Random(seed), "Ana has 9 shells. How many are left?")
        assert "9 shells" in said.lower() or "9 shell" in said.lower()
        assert (
            voice(random.Random(seed), "y = 3x + 2. Find y when x = 4.").lstrip().count("Y =") == 0
        )
