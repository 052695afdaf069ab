"""MathML to text, on snippets copied from the OpenStax CNXML files (module noted per case)."""

from __future__ import annotations

import pytest
from lxml import etree

from tutorgraph.mathtext.mathml import MATHML_NS, mathml_to_text, normalize_math_chars

pytestmark = pytest.mark.unit


def _math(markup: str) -> str:
    """Convert a snippet written with the `m:` prefix, as the CNXML files write it."""
    wrapped = f'<wrap xmlns:m="{MATHML_NS}">{markup}</wrap>'
    return mathml_to_text(etree.fromstring(wrapped)[0])


REAL_SNIPPETS = [
    # m81243: a list with a fraction
    (
        "<m:math><m:mrow><m:mn>0</m:mn><m:mo>,</m:mo><m:mfrac><m:mn>1</m:mn><m:mn>4</m:mn>"
        "</m:mfrac><m:mo>,</m:mo><m:mn>3</m:mn><m:mo>,</m:mo><m:mn>5.2</m:mn><m:mo>,</m:mo>"
        "<m:mn>15</m:mn><m:mo>,</m:mo><m:mn>105</m:mn></m:mrow></m:math>",
        "0, 1/4, 3, 5.2, 15, 105",
    ),
    # m81270: a power at the end of a sentence
    (
        "<m:math><m:mrow><m:msup><m:mn>4</m:mn><m:mn>5</m:mn></m:msup><m:mo>.</m:mo>"
        "</m:mrow></m:math>",
        "4^5.",
    ),
    # m81270: the multiplication dot is normalised to the middle dot
    (
        "<m:math><m:mrow><m:mn>1</m:mn><m:mo>+</m:mo><m:mn>8</m:mn><m:mo>⋅</m:mo>"
        "<m:mn>9</m:mn><m:mo>.</m:mo></m:mrow></m:math>",
        "1 + 8 · 9.",
    ),
    # m81270: division sign kept
    (
        "<m:math><m:mrow><m:mi>n</m:mi><m:mo>÷</m:mo><m:mn>5</m:mn></m:mrow></m:math>",
        "n ÷ 5",
    ),
    # m81334: a trinomial, minus sign normalised
    (
        "<m:math><m:mrow><m:msup><m:mi>x</m:mi><m:mn>2</m:mn></m:msup><m:mo>−</m:mo>"
        "<m:mn>5</m:mn><m:mi>x</m:mi><m:mo>+</m:mo><m:mn>6</m:mn></m:mrow></m:math>",
        "x^2 - 5x + 6",
    ),
    # m81335: compound exponent gets parentheses
    (
        "<m:math><m:mrow><m:msup><m:mi>a</m:mi><m:mi>m</m:mi></m:msup><m:mo>·</m:mo>"
        "<m:msup><m:mi>a</m:mi><m:mi>n</m:mi></m:msup><m:mo>=</m:mo><m:msup><m:mi>a</m:mi>"
        "<m:mrow><m:mi>m</m:mi><m:mo>+</m:mo><m:mi>n</m:mi></m:mrow></m:msup></m:mrow></m:math>",
        "a^m · a^n = a^(m + n)",
    ),
    # m81354: slope formula: subscripts, compound numerator and denominator
    (
        "<m:math><m:mi>m</m:mi><m:mo>=</m:mo><m:mfrac><m:mrow><m:msub><m:mi>y</m:mi>"
        "<m:mn>2</m:mn></m:msub><m:mo>−</m:mo><m:msub><m:mi>y</m:mi><m:mn>1</m:mn></m:msub>"
        "</m:mrow><m:mrow><m:msub><m:mi>x</m:mi><m:mn>2</m:mn></m:msub><m:mo>−</m:mo>"
        "<m:msub><m:mi>x</m:mi><m:mn>1</m:mn></m:msub></m:mrow></m:mfrac></m:math>",
        "m = (y_2 - y_1)/(x_2 - x_1)",
    ),
    # m81406: quadratic formula: unary minus, ±, square root, product denominator
    (
        '<m:math><m:mrow><m:mspace width="4.9em"/><m:mi>x</m:mi><m:mo>=</m:mo><m:mfrac>'
        "<m:mrow><m:mo>−</m:mo><m:mi>b</m:mi><m:mo>±</m:mo><m:msqrt><m:mrow><m:msup>"
        "<m:mi>b</m:mi><m:mn>2</m:mn></m:msup><m:mo>−</m:mo><m:mn>4</m:mn><m:mi>a</m:mi>"
        "<m:mi>c</m:mi></m:mrow></m:msqrt></m:mrow><m:mrow><m:mn>2</m:mn><m:mi>a</m:mi>"
        "</m:mrow></m:mfrac></m:mrow></m:math>",
        "x = (-b ± sqrt(b^2 - 4ac))/(2a)",
    ),
    # m81304: square root equation
    (
        "<m:math><m:mrow><m:msqrt><m:mrow><m:mn>9</m:mn></m:mrow></m:msqrt><m:mo>=</m:mo>"
        "<m:mn>3</m:mn></m:mrow></m:math>",
        "sqrt(9) = 3",
    ),
    # m82552: cube root of a negative number
    (
        "<m:math><m:mrow><m:mroot><m:mrow><m:mn>−64</m:mn></m:mrow><m:mn>3</m:mn></m:mroot>"
        "<m:mo>=</m:mo><m:mn>−4</m:mn></m:mrow></m:math>",
        "root(3, -64) = -4",
    ),
    # m81304: a bracketed negative base
    (
        '<m:math><m:mrow><m:msup><m:mrow><m:mo stretchy="false">(</m:mo><m:mn>−10</m:mn>'
        '<m:mo stretchy="false">)</m:mo></m:mrow><m:mrow><m:mn>2</m:mn></m:mrow></m:msup>'
        "<m:mo>=</m:mo><m:mn>100</m:mn></m:mrow></m:math>",
        "(-10)^2 = 100",
    ),
    # m81290: mixed numbers keep a space between the whole part and the fraction
    (
        "<m:math><m:mrow><m:mn>5</m:mn><m:mfrac><m:mn>3</m:mn><m:mn>5</m:mn></m:mfrac>"
        "<m:mo>−</m:mo><m:mn>2</m:mn><m:mfrac><m:mn>4</m:mn><m:mn>5</m:mn></m:mfrac>"
        "<m:mo>.</m:mo></m:mrow></m:math>",
        "5 3/5 - 2 4/5.",
    ),
    # m81291: a fraction coefficient is bracketed so it does not read as 3/(4x)
    (
        "<m:math><m:mrow><m:mfrac><m:mn>3</m:mn><m:mn>4</m:mn></m:mfrac><m:mi>x</m:mi>"
        "<m:mo>=</m:mo><m:mn>24</m:mn></m:mrow></m:math>",
        "(3/4)x = 24",
    ),
    # m81426: absolute value bars
    (
        "<m:math><m:mrow><m:mrow><m:mo>|</m:mo><m:mrow><m:mn>−5</m:mn></m:mrow><m:mo>|</m:mo>"
        "</m:mrow><m:mo>=</m:mo><m:mn>5</m:mn><m:mo>.</m:mo></m:mrow></m:math>",
        "|-5| = 5.",
    ),
    # m81275: a fill-in blank
    (
        '<m:math><m:mspace width="0.2em"/><m:mn>9</m:mn><m:mtext>__</m:mtext><m:mn>4</m:mn>'
        '<m:mspace width="0.2em"/></m:math>',
        "9 __ 4",
    ),
    # m81271: a check laid out as a table; the stacked "=?" and the check mark survive
    (
        '<m:math><m:mrow><m:mtable><m:mtr/><m:mtr><m:mtd columnalign="center"><m:mi>x</m:mi>'
        "<m:mo>+</m:mo><m:mn>2</m:mn><m:mo>=</m:mo><m:mn>7</m:mn></m:mtd></m:mtr><m:mtr>"
        '<m:mtd columnalign="center"><m:mn>5</m:mn><m:mo>+</m:mo><m:mn>2</m:mn><m:mover>'
        "<m:mo>=</m:mo><m:mo>?</m:mo></m:mover><m:mn>7</m:mn></m:mtd></m:mtr><m:mtr/><m:mtr>"
        '<m:mtd columnalign="center"><m:mspace width="3em"/><m:mn>7</m:mn><m:mo>=</m:mo>'
        "<m:mn>7</m:mn><m:mo>✓</m:mo></m:mtd></m:mtr></m:mtable></m:mrow></m:math>",
        "x + 2 = 7; 5 + 2 =? 7; 7 = 7 ✓",
    ),
    # m81417: a sum with limits
    (
        '<m:math><m:mrow><m:mstyle displaystyle="true"><m:munderover><m:mo>∑</m:mo><m:mrow>'
        "<m:mi>i</m:mi><m:mo>=</m:mo><m:mn>1</m:mn></m:mrow><m:mn>5</m:mn></m:munderover>"
        "<m:mrow><m:msub><m:mi>a</m:mi><m:mi>i</m:mi></m:msub></m:mrow></m:mstyle>"
        "<m:mo>.</m:mo></m:mrow></m:math>",
        "Σ_(i = 1)^5 a_i.",
    ),
    # m81256: long division
    (
        '<m:math><m:mrow><m:mn>4</m:mn><m:menclose notation="longdiv"><m:mrow><m:mn>12</m:mn>'
        "</m:mrow></m:menclose></m:mrow></m:math>",
        "4⟌12",
    ),
    # m81243: words and spaces inside a formula
    (
        "<m:math><m:mrow><m:mn>3</m:mn><m:mo>,</m:mo><m:mn>15</m:mn><m:mo>,</m:mo>"
        '<m:mspace width="0.2em"/><m:mtext>and</m:mtext><m:mspace width="0.2em"/>'
        "<m:mn>105</m:mn></m:mrow></m:math>",
        "3, 15, and 105",
    ),
]


@pytest.mark.parametrize(("markup", "expected"), REAL_SNIPPETS)
def test_real_snippets(markup: str, expected: str) -> None:
    assert _math(markup) == expected


def test_simple_equation_spacing() -> None:
    markup = (
        "<m:math><m:mn>3</m:mn><m:mo>+</m:mo><m:mn>4</m:mn><m:mo>=</m:mo><m:mn>7</m:mn></m:math>"
    )
    assert _math(markup) == "3 + 4 = 7"


def test_compound_numerator_and_exponent() -> None:
    frac = (
        "<m:math><m:mfrac><m:mrow><m:mi>x</m:mi><m:mo>+</m:mo><m:mn>1</m:mn></m:mrow>"
        "<m:mn>2</m:mn></m:mfrac></m:math>"
    )
    power = (
        "<m:math><m:msup><m:mi>x</m:mi><m:mrow><m:mi>n</m:mi><m:mo>+</m:mo><m:mn>1</m:mn>"
        "</m:mrow></m:msup></m:math>"
    )
    negative = "<m:math><m:msup><m:mi>x</m:mi><m:mn>−2</m:mn></m:msup></m:math>"
    assert _math(frac) == "(x + 1)/2"
    assert _math(power) == "x^(n + 1)"
    assert _math(negative) == "x^(-2)"


def test_unary_minus_after_operator_and_bracket() -> None:
    markup = (
        "<m:math><m:mn>3</m:mn><m:mo>+</m:mo><m:mo>(</m:mo><m:mo>−</m:mo><m:mn>5</m:mn>"
        "<m:mo>)</m:mo><m:mo>−</m:mo><m:mo>−</m:mo><m:mn>2</m:mn></m:math>"
    )
    assert _math(markup) == "3 + (-5) - -2"


def test_mfenced_defaults_and_separators() -> None:
    markup = "<m:math><m:mfenced><m:mn>3</m:mn><m:mn>2</m:mn></m:mfenced></m:math>"
    abs_value = '<m:math><m:mfenced open="|" close="|"><m:mi>s</m:mi></m:mfenced></m:math>'
    assert _math(markup) == "(3, 2)"
    assert _math(abs_value) == "|s|"


def test_unknown_elements_fall_back_to_text() -> None:
    markup = (
        "<m:math><m:mfoo><m:mn>3</m:mn><m:mi>x</m:mi></m:mfoo><m:mo>+</m:mo>"
        "<m:mbar>7</m:mbar></m:math>"
    )
    assert _math(markup) == "3x + 7"


def test_invisible_and_phantom_content_is_dropped() -> None:
    markup = (
        "<m:math><m:mn>2</m:mn><m:mo>\u2062</m:mo><m:mi>x</m:mi><m:mphantom><m:mn>0</m:mn>"
        "</m:mphantom></m:math>"
    )
    assert _math(markup) == "2x"


def test_empty_math_is_empty() -> None:
    assert _math('<m:math><m:mrow><m:mspace width="1em"/></m:mrow></m:math>') == ""


def test_accepts_a_string_and_is_deterministic() -> None:
    xml = f'<math xmlns="{MATHML_NS}"><mfrac><mn>3</mn><mn>4</mn></mfrac></math>'
    assert mathml_to_text(xml) == "3/4"
    assert mathml_to_text(xml) == mathml_to_text(xml.encode())


def test_normalize_math_chars() -> None:
    assert normalize_math_chars("7 − 2 ⋅ 3 ≤ 9 ≠ 8 × 1 ÷ 2") == "7 - 2 · 3 ≤ 9 ≠ 8 × 1 ÷ 2"
