"""latex_to_text on real Eedi and Learning Commons strings, and on odd input."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest

from tutorgraph.mathtext.latex import latex_to_text

pytestmark = pytest.mark.unit

EEDI = Path(__file__).resolve().parents[1] / "data" / "eedi"


def _eedi_rows() -> dict[str, dict[str, str]]:
    with (EEDI / "train.csv").open(encoding="utf-8", newline="") as fh:
        return {row["QuestionId"]: row for row in csv.DictReader(fh)}


# Real snippets copied from Eedi train.csv / misconception-free question and answer texts.
@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (r"\( 24 \mathrm{~cm}, 17 \mathrm{~cm}, 42 \mathrm{~cm} \)", "24 cm, 17 cm, 42 cm"),
        (r"\( \frac{1-t}{3 s} \)", "(1-t)/(3s)"),
        (r"\( \frac{4}{3} \)", "4/3"),
        (r"\( 19 \frac{1}{5} \)", "19 1/5"),  # mixed number keeps its space
        (r"\( 9 x^{2}-24 x+16 \)", "9x^2-24x+16"),
        (r"\( 2 \times 3^{2}= \)", "2 × 3^2 ="),
        (r"\( b \div a \)", "b ÷ a"),
        (r"\( 90.9 \% \)", "90.9%"),
        (r"\( 6 \mathrm{~cm} \times 4 \mathrm{~cm} \)", "6 cm × 4 cm"),
        (r"\( \{x \leq-2\} \cup\{x \geq 3\} \)", "{x ≤ -2} ∪ {x ≥ 3}"),
        (r"\( x_{n+1}=10-\frac{1}{x_{n}} \)", "x_(n+1) = 10-1/(x_n)"),
        (r"\( \begin{array}{c}d=-4\\h=4\end{array} \)", "d = -4; h = 4"),
        (r"\( 2 . \dot{6} \)", "2.6\u0307"),
        (r"\( \sqrt[3]{8}= \)", "cbrt(8) ="),
        (r"\( \mathbf{4 1 7 5} \)", "4175"),
        (r"\( \boldsymbol{y}=\mathbf{2 x}+\mathbf{3} \)", "y = 2x+3"),
        (r"\( P^{\prime} \)", "P′"),
        (r"\( 30^{\circ} \)", "30°"),
        (r"\( \operatorname{Sin} \)", "Sin"),
        (r"\( A, B, C, D \)", "A, B, C, D"),
        (r"\( 19,103 \)", "19,103"),
        (r"Complete: \( 0.4=\frac{2}{5}< \_\_\_\_ \)", "Complete: 0.4 = 2/5 < ____"),
        (r"\( \frac{3}{4}\space \square\space \frac{5}{8} \)", "3/4 □ 5/8"),
        (
            r"\( \text { speed }(S)=\frac{\text { distance }(D)}{\text { time }(T)} \)",
            "speed (S) = (distance (D))/(time (T))",
        ),
        (
            r"Which working out is correct for $72 \times 36$?",
            "Which working out is correct for 72 × 36?",
        ),
    ],
)
def test_real_eedi_snippets(raw: str, expected: str) -> None:
    assert latex_to_text(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (r"\( \frac{x+1}{2} \)", "(x+1)/2"),
        (r"\( \dfrac{1}{x^{2}} \)", "1/x^2"),
        (r"\( \tfrac{\pi}{3} \)", "π/3"),
        (r"\( \frac{\frac{1}{2}}{\frac{1}{4}} \)", "(1/2)/(1/4)"),
        (r"\( \frac{\sqrt{2}}{2} \)", "sqrt(2)/2"),
        (r"\( x^{n+1} \)", "x^(n+1)"),
        (r"\( x^{-1} \)", "x^(-1)"),
        (r"\( \sqrt{x} \)", "sqrt(x)"),
        (r"\( a \cdot b \pm c \neq d \)", "a · b ± c ≠ d"),
        (r"\( a \le b \geq c \leq d \ge e \)", "a ≤ b ≥ c ≤ d ≥ e"),
        (r"\( \left( \frac{3}{4} \right)^{2} \)", "(3/4)^2"),
        (r"\( \alpha + \theta + \Delta \)", "α+θ+Δ"),
        (r"\( \pi r^{2} \)", "πr^2"),
        (r"a~b\,c\;d\quad e", "a b c d e"),
        (r"\$5 and 50\%", "$5 and 50%"),
        (r"\textbf{Note:} \underline{this}", "Note: this"),
        (r"\( \overline{AB} \)", "A\u0305B\u0305"),
        (r"\( \square + \bigstar \)", "□+★"),
        (r"\( \foo{bar} \)", "foo bar"),  # unknown command: name and argument kept
        (r"\[ 2 \times 3 \]", "2 × 3"),
        (r"$$ \pi r^2 $$", "πr^2"),
    ],
)
def test_conversions(raw: str, expected: str) -> None:
    assert latex_to_text(raw) == expected


def test_table_rows_and_cells() -> None:
    # Eedi question 4: a tabular in running text, with \hline and a \color star
    text = latex_to_text(_eedi_rows()["4"]["QuestionText"])
    assert text == (
        "The equation f = 3r^2+3 is used to find values in the table below. "
        "What is the value covered by the star?\n"
        "r | 1 | 2 | 3 | 4; f | 6 | 15 | ★"
    )
    assert "hline" not in text and "gold" not in text


def test_multicolumn_table() -> None:
    text = latex_to_text(_eedi_rows()["69"]["QuestionText"])
    assert "Town A; Do you eat meat? | Frequency; Yes | 39; No | 11" in text
    assert "multicolumn" not in text


def test_aligned_steps() -> None:
    text = latex_to_text(_eedi_rows()["166"]["QuestionText"])
    assert text.endswith("(x-1)/6 ÷ (x^2-1)/9; = (x-1)/6 × 9/(x^2-1)")


def test_image_alt_text_is_kept_and_converted() -> None:
    rows = _eedi_rows()
    assert latex_to_text(rows["485"]["QuestionText"]) == (
        "What is the value of the missing number? [image: 13^2; ......... | 12^2]"
    )
    assert latex_to_text(rows["1603"]["QuestionText"]).endswith("nth-term rule: [image: ω\u0302^n]")
    venn = latex_to_text(rows["401"]["QuestionText"])
    assert "[image: A Venn diagram with two circles labelled P and Q." in venn
    assert venn.startswith("ξ = { integers between 1; and 10 inclusive }; P = { odd numbers }")
    assert latex_to_text("![](https://example.org/a.png) ok") == "[image] ok"
    assert latex_to_text("![a [b] c](http://x/y(1).png)") == "[image: a [b] c]"


def test_currency_and_pounds() -> None:
    # Eedi question 562: \$ and £ inside math; bare "$5 ... $6" is currency, not math
    text = latex_to_text(_eedi_rows()["562"]["QuestionText"])
    assert text == "Exchange rates; £1 = €1.17; £1 = $1.31\nHow much is $5 worth in pounds ( £ )?"
    assert latex_to_text("paid $50 per week plus $3 per sale") == (
        "paid $50 per week plus $3 per sale"
    )


def test_learning_commons_dollar_math() -> None:
    # 6.NS.A.1 style text from standards.jsonl
    raw = r"explain that $(\frac{2}{3}) \div (\frac{3}{4}) = \frac{8}{9}$ because"
    assert latex_to_text(raw) == "explain that (2/3) ÷ (3/4) = 8/9 because"
    raw = r"For example, $3^{2} \times 3^{-5} = 3^{-3} = {{\frac{1}{3}}^3} = {\frac{1}{27}}$."
    assert latex_to_text(raw) == "For example, 3^2 × 3^(-5) = 3^(-3) = (1/3)^3 = 1/27."


def test_whitespace_is_normalised() -> None:
    rows = _eedi_rows()
    text = latex_to_text(rows["2"]["QuestionText"])
    assert text.startswith("Tom and Katie are discussing the 5 plants with these heights:\n")
    assert "24 cm, 17 cm, 42 cm, 26 cm, 13 cm\n" in text
    assert "  " not in text and "\n\n" not in text and text == text.strip()
    assert latex_to_text("\u00a0a\t\tb\r\n\r\n c ") == "a b\nc"


def test_every_slice_text_converts_without_latex_left() -> None:
    for row in _eedi_rows().values():
        for key in ("QuestionText", "AnswerAText", "AnswerBText", "AnswerCText", "AnswerDText"):
            text = latex_to_text(row[key])
            assert "\\" not in text, (row["QuestionId"], key, text)
            assert "\\(" not in text and "\\frac" not in text


@pytest.mark.parametrize(
    "raw",
    ["", "{", "}", "\\", "\\(", "\\)", "$", "$$", "![", "![x](", "^", "_", "&", "\\begin{tabular}{",
     "\\end{array}", "\\frac", "\\frac{1}", "\\sqrt[", "\\left", "\\color", "{" * 5000,
     "\\(" + "\\frac{1}{" * 300 + "2" + "}" * 300 + "\\)"],
)  # fmt: skip
def test_odd_input_never_raises(raw: str) -> None:
    text = latex_to_text(raw)
    # And still comes out as normalised text, as well-formed input does.
    assert text == text.strip() and "  " not in text and "\n\n" not in text


def test_random_input_never_raises_and_is_deterministic() -> None:
    rng = random.Random(20240917)
    alphabet = [*"\\{}[]()$^_&~%!#' \nab12", "\\frac", "\\begin{tabular}{c}", "\\end{array}",
                "\\(", "\\)", "\\[", "\\]", "![", "](", "\\left", "\\sqrt", "\\text", "\\\\",
                "$$", "\\hline", "\\begin{array}{c}", "\\end{tabular}", "\\color"]  # fmt: skip
    for _ in range(3000):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert latex_to_text(s) == latex_to_text(s)


def test_deterministic_across_calls() -> None:
    texts = [row["QuestionText"] for row in _eedi_rows().values()]
    assert [latex_to_text(t) for t in texts] == [latex_to_text(t) for t in texts]
