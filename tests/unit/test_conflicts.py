"""The factual-conflict rule on real records of the bundled curriculum (data/curriculum:
OpenStax CC BY 4.0, Eedi CC BY-NC 4.0), read as hits. Logic only: the retriever's use of it
is tested in tests/integration/test_conflicts_index.py."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from tutorgraph.retrieval.conflicts import factual_conflicts, stated_answer
from tutorgraph_client.models.packet import Hit

pytestmark = pytest.mark.unit

DOCUMENTS = Path(__file__).resolve().parents[2] / "data" / "curriculum" / "documents.jsonl"
EUROS = ("openstax:m81311:exercise:fs-id1454987", "openstax:m82539:exercise:fs-id1169597577700")
MIXED = (  # 11/9 written as an improper fraction, and as 1 2/9
    "openstax:m81316:exercise:fs-id1249589",
    "openstax:m81360:exercise:fs-id1167836410391",
)
PARTS = (  # one copy answers only part (b)
    "openstax:m81268:exercise:fs-id1607499",
    "openstax:m82453:exercise:fs-id1170655197165",
)
FIGURE = (  # "Find the area:" of two different figures
    "openstax:m81327:exercise:fs-id1171505627162",
    "openstax:m81327:exercise:fs-id957531",
)


@cache
def _docs() -> dict[str, dict[str, str]]:
    out = {}
    for line in DOCUMENTS.open(encoding="utf-8"):
        d = json.loads(line)
        out[d["id"]] = d
    return out


def _hits(*ids: str) -> list[Hit]:
    return [
        Hit(id=i, ids=[i], kind=_docs()[i]["kind"], text=_docs()[i]["text"], score=0.0,
            rank=0, found_by=["vector"], fused_score=0.0)
        for i in ids
    ]  # fmt: skip


def test_the_same_problem_with_different_values_is_a_conflict() -> None:
    hits = _hits(*EUROS)
    (conflict,) = factual_conflicts(hits)
    assert conflict.kind == "factual" and conflict.ids == list(EUROS)
    assert conflict.answers == {EUROS[0]: "590 Euros", EUROS[1]: "590.4 Euros"}
    assert conflict.preferred == EUROS[0]  # same source: the better-ranked one
    assert hits[0].conflicts_with == [EUROS[1]] and hits[1].conflicts_with == [EUROS[0]]


def test_equal_values_partial_answers_and_unseen_figures_are_not() -> None:
    for pair in (MIXED, PARTS, FIGURE):
        assert factual_conflicts(_hits(*pair)) == [], pair
    assert stated_answer("exercise", _docs()[FIGURE[0]]["text"]) is None


def test_the_source_priority_prefers_a_local_document_over_openstax() -> None:
    first, second = _hits(*EUROS)
    # The caller's own copy of the second text (the source is read from the id's prefix).
    local = second.model_copy(update={"id": "local:lesson", "ids": ["local:lesson"]})
    (conflict,) = factual_conflicts([first, local])
    assert conflict.preferred == "local:lesson"


def test_an_eedi_question_compares_the_text_of_its_correct_option() -> None:
    q = next(d for d in _docs().values() if d["kind"] == "question")
    key, answer = stated_answer("question", q["text"]) or ("", "")
    assert key and isinstance(answer, str) and answer
