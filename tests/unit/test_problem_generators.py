"""Every generated problem's answer is right: its expression is evaluated here, independently
of the generators, with exact fractions, and must equal the stated answer. The generators are
rows of data run by one engine (issue 61): every row's phrasings evaluate across many seeds,
every problem has 2 to 5 worked steps whose last states the answer, and no standard covered
before is lost."""

from __future__ import annotations

import doctest
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tutorgraph import problems as problems_package
from tutorgraph.mathtext.evaluate import evaluate, parse_answer
from tutorgraph.problems import GENERATORS, _registry, _rows, generate

pytestmark = pytest.mark.unit

CONCEPTS = Path("data/curriculum/concepts.jsonl")
DATA = Path(problems_package.__file__).parent / "data"

PROBLEMS = generate(per_generator=12, seed=0)

# The standards the hand-written generators covered before they became rows (issue 61).
COVERED = re.findall(
    r"\S+",
    """
    1.G.A.1 1.G.A.2 1.G.A.3 1.MD.A.1 1.MD.A.2 1.MD.B.3 1.MD.C.4 1.NBT.A.1 1.NBT.B.2 1.NBT.B.2.a
    1.NBT.B.2.b 1.NBT.B.2.c 1.NBT.B.3 1.NBT.C.4 1.NBT.C.5 1.NBT.C.6 1.OA.A.1 1.OA.A.2 1.OA.B.3
    1.OA.B.4 1.OA.C.5 1.OA.C.6 1.OA.D.7 1.OA.D.8 2.G.A.1 2.G.A.2 2.G.A.3 2.MD.A.1 2.MD.A.2
    2.MD.A.3 2.MD.A.4 2.MD.B.5 2.MD.B.6 2.MD.C.7 2.MD.C.8 2.MD.D.10 2.MD.D.9 2.NBT.A.1
    2.NBT.A.1.a 2.NBT.A.1.b 2.NBT.A.2 2.NBT.A.3 2.NBT.A.4 2.NBT.B.5 2.NBT.B.6 2.NBT.B.7
    2.NBT.B.8 2.NBT.B.9 2.OA.A.1 2.OA.B.2 2.OA.C.3 2.OA.C.4 3.G.A.1 3.G.A.2 3.MD.A.1 3.MD.A.2
    3.MD.B.3 3.MD.B.4 3.MD.C.5.a 3.MD.C.5.b 3.MD.C.6 3.MD.C.7.a 3.MD.C.7.b 3.MD.C.7.c 3.MD.C.7.d
    3.MD.D.8 3.NBT.A.1 3.NBT.A.2 3.NBT.A.3 3.NF.A.1 3.NF.A.2.a 3.NF.A.2.b 3.NF.A.3.a 3.NF.A.3.b
    3.NF.A.3.c 3.NF.A.3.d 3.OA.A.1 3.OA.A.2 3.OA.A.3 3.OA.A.4 3.OA.B.5 3.OA.B.6 3.OA.C.7
    3.OA.D.8 3.OA.D.9 4.G.A.1 4.G.A.2 4.G.A.3 4.MD.A.1 4.MD.A.2 4.MD.A.3 4.MD.B.4 4.MD.C.5.a
    4.MD.C.5.b 4.MD.C.6 4.MD.C.7 4.NBT.A.1 4.NBT.A.2 4.NBT.A.3 4.NBT.B.4 4.NBT.B.5 4.NBT.B.6
    4.NF.A.1 4.NF.A.2 4.NF.B.3 4.NF.B.3.a 4.NF.B.3.b 4.NF.B.3.c 4.NF.B.3.d 4.NF.B.4.a 4.NF.B.4.b
    4.NF.B.4.c 4.NF.C.5 4.NF.C.6 4.NF.C.7 4.OA.A.1 4.OA.A.2 4.OA.A.3 4.OA.B.4 4.OA.C.5 5.G.A.1
    5.G.A.2 5.G.B.3 5.G.B.4 5.MD.A.1 5.MD.B.2 5.MD.C.3.b 5.MD.C.4 5.MD.C.5.a 5.MD.C.5.b
    5.MD.C.5.c 5.NBT.A.1 5.NBT.A.2 5.NBT.A.3.a 5.NBT.A.3.b 5.NBT.A.4 5.NBT.B.5 5.NBT.B.6
    5.NBT.B.7 5.NF.A.1 5.NF.A.2 5.NF.B.3 5.NF.B.4.a 5.NF.B.4.b 5.NF.B.5.a 5.NF.B.5.b 5.NF.B.6
    5.NF.B.7.a 5.NF.B.7.b 5.NF.B.7.c 5.OA.A.1 5.OA.A.2 5.OA.B.3 6.EE.A.1 6.EE.A.2.a 6.EE.A.2.b
    6.EE.A.2.c 6.EE.A.3 6.EE.A.4 6.EE.B.5 6.EE.B.6 6.EE.B.7 6.EE.B.8 6.EE.C.9 6.G.A.1 6.G.A.2
    6.G.A.3 6.G.A.4 6.NS.A.1 6.NS.B.2 6.NS.B.3 6.NS.B.4 6.NS.C.5 6.NS.C.6.a 6.NS.C.6.b
    6.NS.C.6.c 6.NS.C.7.a 6.NS.C.7.b 6.NS.C.7.c 6.NS.C.7.d 6.NS.C.8 6.RP.A.1 6.RP.A.2 6.RP.A.3.a
    6.RP.A.3.b 6.RP.A.3.c 6.RP.A.3.d 6.SP.A.3 6.SP.B.4 6.SP.B.5.a 6.SP.B.5.c 7.EE.A.1 7.EE.A.2
    7.EE.B.3 7.EE.B.4.a 7.EE.B.4.b 7.G.A.1 7.G.A.2 7.G.A.3 7.G.B.4 7.G.B.5 7.G.B.6 7.NS.A.1
    7.NS.A.1.a 7.NS.A.1.b 7.NS.A.1.c 7.NS.A.1.d 7.NS.A.2.a 7.NS.A.2.b 7.NS.A.2.c 7.NS.A.2.d
    7.NS.A.3 7.RP.A.1 7.RP.A.2.a 7.RP.A.2.b 7.RP.A.2.c 7.RP.A.2.d 7.RP.A.3 7.SP.A.2 7.SP.B.3
    7.SP.B.4 7.SP.C.5 7.SP.C.6 7.SP.C.7.a 7.SP.C.7.b 7.SP.C.8.a 7.SP.C.8.b 7.SP.C.8.c 8.EE.A.1
    8.EE.A.2 8.EE.A.3 8.EE.A.4 8.EE.B.5 8.EE.B.6 8.EE.C.7.a 8.EE.C.7.b 8.EE.C.8.a 8.EE.C.8.b
    8.EE.C.8.c 8.F.A.1 8.F.A.2 8.F.A.3 8.F.B.4 8.G.A.1.a 8.G.A.1.b 8.G.A.3 8.G.A.4 8.G.A.5
    8.G.B.7 8.G.B.8 8.G.C.9 8.NS.A.1 8.NS.A.2 8.SP.A.3 8.SP.A.4 K.CC.A.1 K.CC.A.2 K.CC.A.3
    K.CC.B.4.a K.CC.B.4.b K.CC.B.4.c K.CC.B.5 K.CC.C.6 K.CC.C.7 K.G.A.2 K.G.A.3 K.G.B.4 K.G.B.5
    K.G.B.6 K.MD.A.2 K.MD.B.3 K.NBT.A.1 K.OA.A.1 K.OA.A.2 K.OA.A.3 K.OA.A.4 K.OA.A.5
""",
)


def test_every_answer_is_computed_right() -> None:
    wrong = [
        (p.generator, p.text, p.expression, p.answer)
        for p in PROBLEMS
        if evaluate(p.expression) != parse_answer(p.answer)
    ]
    assert not wrong, wrong[:5]


def test_labels_are_bundle_standards_and_names_are_unique() -> None:
    records = [json.loads(line) for line in CONCEPTS.read_text(encoding="utf-8").splitlines()]
    known = {r["id"] for r in records if r["kind"] == "standard"}
    assert {g.standard for g in GENERATORS} <= known
    names = Counter(g.name for g in GENERATORS)
    assert not [n for n, c in names.items() if c > 1]


def test_no_standard_covered_before_is_lost() -> None:
    assert len(COVERED) == 277
    missing = {"ccss:" + s for s in COVERED} - {g.standard for g in GENERATORS}
    assert not missing, sorted(missing)


def test_generation_is_deterministic_and_varied() -> None:
    again = generate(per_generator=12, seed=0)
    assert [(p.text, p.steps) for p in again] == [(p.text, p.steps) for p in PROBLEMS]
    other = generate(per_generator=12, seed=1)
    assert [p.text for p in other] != [p.text for p in PROBLEMS] or not PROBLEMS
    # A generator makes different problems, not one problem in different numbers only.
    per_gen = Counter(p.generator for p in PROBLEMS)
    assert all(c >= 6 for c in per_gen.values()), [g for g, c in per_gen.items() if c < 6]


def test_categorical_answers_are_few() -> None:
    categorical = [p for p in PROBLEMS if isinstance(evaluate(p.expression), str)]
    assert len(categorical) <= 0.15 * max(1, len(PROBLEMS))


def _states(step: str, answer: str) -> bool:
    # The answer as a whole token: "4" is not stated by "14" or "0.4".
    return re.search(rf"(?<![\w.,/]){re.escape(answer)}(?![\w/]|[.,]\d)", step) is not None


def test_every_problem_has_worked_steps_ending_in_its_answer() -> None:
    bad = [
        (p.generator, p.expression, p.answer, p.steps)
        for p in PROBLEMS
        if not 2 <= len(p.steps) <= 5 or not _states(p.steps[-1], p.answer)
    ]
    assert not bad, bad[:5]
    assert {p.generator for p in PROBLEMS} == {g.name for g in GENERATORS}


def test_no_placeholder_is_left_in_a_text_or_a_step() -> None:
    left = [
        (p.generator, text)
        for p in PROBLEMS
        for text in (p.text, *p.steps)
        if re.search(r"\{[A-Za-z_][^{}\[\]]*\}", text)
    ]
    assert not left, left[:5]


def _phrasing_failures(band: str, seeds: int) -> list[tuple[str, str, str]]:
    """Each phrasing of each row drawn `seeds` times: the expression evaluates, the answer
    is its value, and 2 to 5 steps end by stating it."""
    failures = []
    for row in _rows.load(band):
        for i, ask in enumerate(row.asks):
            one = _rows.Row(row.name, row.kind, row.draws, (ask,), row.steps, row.answer)
            for seed in range(seeds):
                try:
                    _, expression, answer, steps = _rows.make(one, random.Random(f"{seed}:{i}"))
                    assert evaluate(expression) == parse_answer(answer)
                    assert 2 <= len(steps) <= 5 and _states(steps[-1], answer)
                except Exception as exc:  # every failure is reported, not only the first
                    failures.append((row.name, ask.text[:50], repr(exc)[:120]))
                    break
    return failures


@pytest.mark.parametrize("band", _rows.BANDS)
def test_every_phrasing_of_every_row_evaluates_across_seeds(band: str) -> None:
    failures = _phrasing_failures(band, seeds=12)
    assert not failures, failures[:5]


@pytest.mark.slow
@pytest.mark.parametrize("band", _rows.BANDS)
def test_every_phrasing_evaluates_across_many_more_seeds(band: str) -> None:
    failures = _phrasing_failures(band, seeds=300)
    assert not failures, failures[:5]


def test_rows_keep_their_phrasings() -> None:
    """At least four phrasings a row, or a bare body put in a frame's many phrasings."""
    few = [
        r.name
        for band in _rows.BANDS
        for r in _rows.load(band)
        if len({a.text for a in r.asks}) < 4 and not any(a.family for a in r.asks)
    ]
    assert not few, few


def test_a_malformed_row_is_a_one_line_error_naming_it() -> None:
    with pytest.raises(ValueError, match=r"row 'X.Y/z': a phrasing is 'TEXT => EXPRESSION'"):
        _rows._row("X.Y/z", {"bare": "a=int(1,9)", "ask": ["no expression"]}, {})
    with pytest.raises(ValueError, match="needs one of word/bare and ask"):
        _rows._row("X.Y/z", {"ask": ["{a} => a"]}, {})
    with pytest.raises(ValueError, match=r"row 'X.Y/z': unbalanced parentheses"):
        _rows._row("X.Y/z", {"bare": "a=int(1,9", "ask": ["{a} => a"]}, {})


def test_the_worked_steps_follow_the_school_method() -> None:
    from tutorgraph.problems._steps import work

    assert work("52 - 38", "14") == [
        "Ones: 2 - 8 needs a ten from the tens: 12 - 8 = 4.",
        "Tens: 4 - 3 = 1.",
        "So 52 - 38 = 14.",
    ]
    assert work("(3/4) + (1/6)", "11/12")[-1] == "So 3/4 + 1/6 = 11/12."
    assert work("2.35 + 1.4", "3.75")[1] == "Work in hundredths: 235 + 140 = 375."
    assert work("gcd(12, 18)", "6")[-1] == "The greatest factor in both lists is 6."


@pytest.mark.parametrize(
    "module",
    [problems_package, _registry, _rows],
    ids=lambda m: m.__name__,
)
def test_the_docstring_examples_hold(module: Any) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_the_data_files_ship_with_the_package() -> None:
    assert {p.stem for p in DATA.glob("*.toml")} >= {"words", *_rows.BANDS}
