"""Context assembly: grouping by kind, id tags, and the token budget."""

from __future__ import annotations

import pytest

from tutorgraph.retrieval.context import assemble_context
from tutorgraph_client.models.packet import Hit

pytestmark = pytest.mark.unit


def words(text: str) -> int:
    return len(text.split())


def hit(id_: str, kind: str, text: str, rank: int, title: str = "") -> Hit:
    return Hit(
        id=id_,
        ids=[id_],
        kind=kind,  # type: ignore[arg-type]
        title=title,
        text=text,
        score=1.0 / rank,
        rank=rank,
        found_by=["vector"],
        fused_score=1.0 / rank,
    )


HITS = [
    hit("eedi:misconception:217", "misconception", "Adds the denominators", 1),
    hit("ccss:5.NF.A.1", "concept", "Add and subtract fractions", 2, title="5.NF.A.1"),
    hit("openstax:m1:chunk:0", "explanation", "To add fractions find a common denominator", 3),
    hit("openstax:m1:example:e1", "worked_example", "Add 1/2 + 1/4 = 3/4", 4),
    hit("eedi:question:9", "question", "What is 1/3 + 1/6?", 5),
]


def test_sections_follow_the_kind_order_and_items_carry_their_ids() -> None:
    ctx = assemble_context(HITS, count_tokens=words, max_tokens=1000)
    headers = [line for line in ctx.splitlines() if line.startswith("## ")]
    assert headers == [  # teaching first (issue 47)
        "## Explanations",
        "## Worked examples",
        "## Concept and prerequisites",
        "## Likely misconceptions",
        "## Practice questions",
    ]
    assert "[eedi:misconception:217] Adds the denominators" in ctx
    assert "[ccss:5.NF.A.1] 5.NF.A.1: Add and subtract fractions" in ctx


@pytest.mark.parametrize("budget", [0, 5, 12, 20, 30, 1000])
def test_the_context_never_exceeds_the_budget(budget: int) -> None:
    ctx = assemble_context(HITS, count_tokens=words, max_tokens=budget)
    assert words(ctx) <= budget
    if budget == 0:
        assert ctx == ""


def test_the_budget_goes_to_the_best_hits_first() -> None:
    ctx = assemble_context(HITS, count_tokens=words, max_tokens=12)
    assert "eedi:misconception:217" in ctx  # rank 1
    assert "eedi:question:9" not in ctx  # rank 5


def test_a_long_item_is_cut_at_a_word_boundary_when_room_is_left() -> None:
    long = hit("openstax:m2:chunk:0", "explanation", " ".join(["word"] * 200), 1)
    ctx = assemble_context([long], count_tokens=words, max_tokens=60)
    assert ctx.endswith("…") and words(ctx) <= 60
