"""The slots' one score (`retrieval/slot_score.py`) and the level of their content
(`retrieval/content_level.py`): the linker's probability, the grade gap, the K-2 check."""

from __future__ import annotations

import pytest

from tutorgraph.retrieval.content_level import (
    beyond_early_grades,
    child_range,
    grade_of_level,
    item_level,
)
from tutorgraph.retrieval.slot_score import (
    LIKELY,
    TEACH_WEIGHTS,
    SlotFeatures,
    grade_gap,
    misconception_confidence,
    slot_score,
    standard_probabilities,
)

pytestmark = pytest.mark.unit


def test_the_linkers_probabilities_sum_to_one_and_keep_its_order() -> None:
    p = standard_probabilities([1.20, 1.15, 0.90, 0.90])
    assert sum(p) == pytest.approx(1.0)
    assert p[0] > p[1] > p[2] == p[3]
    # A wide gap is near certainty; the same scores are even.
    assert standard_probabilities([1.5, 1.0])[0] > 0.99
    assert standard_probabilities([0.7, 0.7]) == [0.5, 0.5]


def test_each_feature_moves_the_score_its_way() -> None:
    base = SlotFeatures(probability=0.5, similarity=0.4, kind="worked_example", via="message")
    score = slot_score(base)
    higher = {
        "probability": SlotFeatures(**{**base.__dict__, "probability": 0.9}),
        "similarity": SlotFeatures(**{**base.__dict__, "similarity": 0.6}),
        "explanation": SlotFeatures(**{**base.__dict__, "kind": "explanation"}),
        "own": SlotFeatures(**{**base.__dict__, "own": True}),
        "standard": SlotFeatures(**{**base.__dict__, "via": "standard"}),
    }
    for name, f in higher.items():
        assert slot_score(f) > score, name
    # Above the child's grade is demoted, further above more; below is demoted too.
    one, three = (SlotFeatures(**{**base.__dict__, "above": n}) for n in (1, 3))
    assert score > slot_score(one) > slot_score(three)
    assert slot_score(SlotFeatures(**{**base.__dict__, "below": 1})) < score
    assert slot_score(three) == pytest.approx(score - 3 * TEACH_WEIGHTS.above, abs=1e-6)


def test_the_grade_gap_reads_a_grade_or_a_band() -> None:
    assert grade_gap(5, child_range("2", None)) == (3, 0)
    assert grade_gap(1, child_range("2", None)) == (0, 1)
    # An inferred band is a range: any grade in it is at the child's level.
    assert grade_gap(4, child_range(None, "3-5")) == (0, 0)
    assert grade_gap(7, child_range(None, "3-5")) == (2, 0)
    # Unknown either way: neither demoted nor promoted.
    assert grade_gap(None, (2, 2)) == grade_gap(6, None) == (0, 0)
    assert child_range(None, None) is None and child_range("K", "6-8") == (0, 0)


def test_an_items_grade_is_its_standards_else_the_highest_it_is_aligned_with() -> None:
    assert item_level(["ccss:2.NBT.B.5"]) == 2
    assert item_level(["ccss:HSA-REI.B.3"]) == 9
    section = "openstax:section:m1"
    assert item_level([section], {section: 6}) == 6
    assert item_level([section]) is None
    assert (grade_of_level(0), grade_of_level(9), grade_of_level(None)) == ("K", "HS", None)


@pytest.mark.parametrize(
    ("text", "uses"),
    [
        ("52 - 38 = 14", None),
        ("71-46 is 25; grades 3-5", None),
        ("Count by 2s and 5s to 100", None),
        ("Make a bar graph of the class's pets", None),
        ("Use the add-9 shortcut: 47 + 9 = 56", None),
        ("In 345 the digits (3, 4, 5) are hundreds, tens and ones", None),
        ("What is -3 + 5?", "negative numbers"),
        ("The temperature fell to -4 degrees", "negative numbers"),
        ("Add and subtract integers", "negative numbers"),
        ("Solve 3x + 2 = 11", "algebra"),
        ("If n = 4, what is 2n + 1?", "algebra"),
        ("Plot (3, 4) on the coordinate plane", "graphs"),
        ("Find the slope of the line", "graphs"),
    ],
)
def test_what_a_k2_packet_leaves_out(text: str, uses: str | None) -> None:
    assert beyond_early_grades(text) == uses


def test_a_misconception_not_reproduced_is_likely_only_on_its_own_evidence() -> None:
    strong = misconception_confidence(3.0, diagnosed_other=False, owned=1.0)
    weak = misconception_confidence(-1.0, diagnosed_other=False, owned=0.0)
    assert strong >= LIKELY > weak
    # Once the bug rules reproduced the answer with another, the rest are unlikely.
    assert misconception_confidence(3.0, diagnosed_other=True, owned=1.0) < LIKELY
    # A missing learned score (no ranker) counts as none.
    assert misconception_confidence(None, diagnosed_other=False, owned=0.0) < LIKELY
