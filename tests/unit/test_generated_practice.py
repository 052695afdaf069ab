"""Generated practice (issue 62): the student's problem's structure with new numbers, in a
teacher's voice, with the engine's answers and steps, the same for the same request in any
process; the standard it is made for, and when none is made; the packet contract."""

from __future__ import annotations

import doctest
import json
import os
import subprocess
import sys
from typing import Any

import pytest

from tutorgraph.mathtext.evaluate import evaluate, format_value, matches
from tutorgraph.problems import _phrasing, _practice, _shape, covers, practice
from tutorgraph.problems._phrasing import teacherly
from tutorgraph.problems._shape import numbers, shape
from tutorgraph.retrieval.facts import request_facts
from tutorgraph.retrieval.packet import build_packet
from tutorgraph.retrieval.practice import generated_practice
from tutorgraph.retrieval.slots import SlotPick, SlotPicks
from tutorgraph.retrieval.state import RequestState
from tutorgraph_client.models.packet import Hit, LinkedConcept, ReasoningPacket, SlotHit
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.unit

SUBTRACTION = "I did 52 - 38 and got 26"


@pytest.mark.parametrize("module", [_practice, _shape, _phrasing], ids=lambda m: m.__name__)
def test_the_docstring_examples_hold(module: Any) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_the_readers_spelling_and_the_engines_have_one_shape() -> None:
    assert shape("52 - 38") == shape("71 - 38") == "#-#"
    assert shape("3 × 4") == shape("3 * 4") and shape("12 ÷ 3") == shape("12 / 3")
    assert shape("3/4 + 1/2") == shape("(3/4) + (1/2)") == "#/#+#/#"
    assert shape("1 2/3 + 3/4") == shape("(1 + 2/3) + (3/4)")
    assert shape("-3 + 5") == shape("(-3) + 5") != shape("3 + 5")
    assert shape("2.5 × 4") != shape("25 × 4") and shape("9^2") == shape("9 ** 2")


def test_practice_has_the_students_structure_with_new_numbers_and_answers() -> None:
    made = practice("ccss:2.NBT.B.5", key=SUBTRACTION, like="52 - 38")
    assert made.shape == "#-#" and made.matched == len(made.problems) == 4
    assert len({p.text for p in made.problems}) == 4
    for p in made.problems:
        assert p.standard == "ccss:2.NBT.B.5" and p.kind == "bare"
        assert shape(p.expression) == "#-#"  # a subtraction of two numbers, like the student's
        assert numbers(p.expression) != numbers("52 - 38")
        assert p.answer == format_value(evaluate(p.expression))
        assert p.steps and p.answer in p.steps[-1]
        assert p.expression.replace(" - ", " ") in p.text.replace(" - ", " ")  # shown as is


def test_a_story_gets_word_problems_of_its_calculation() -> None:
    facts = request_facts(
        RetrievalRequest(query="Sam had 24 stickers and gave away 9. How many are left?"), None
    )
    assert facts.problem == "24 - 9" and facts.story is not None
    made = practice("ccss:2.OA.A.1", key="story", like=facts.problem, story=True)
    assert made.matched == len(made.problems) >= 3
    assert all(p.kind == "word" and shape(p.expression) == "#-#" for p in made.problems)


def test_a_number_the_expression_writes_is_part_of_its_structure() -> None:
    # Counting back one (`n - 1`) is not the student's subtraction of two numbers: the
    # standard's bare phrasings are given instead, and the packet says none matched.
    made = practice("ccss:1.NBT.A.1", key=SUBTRACTION, like="52 - 38")
    assert made.matched == 0 and len(made.problems) >= 3
    assert all(p.kind == "bare" for p in made.problems)


def test_without_a_problem_of_its_shape_the_standards_bare_phrasings_are_used() -> None:
    for like in (None, "round 347 to the nearest 10", "(3 + 4) × 2"):
        made = practice("ccss:2.NBT.B.5", key=f"k {like}", like=like)
        assert made.matched == 0 and 3 <= len(made.problems) <= 5
        assert all(p.kind == "bare" for p in made.problems)
        assert all(matches(p.expression, p.answer) for p in made.problems)


def test_practice_is_printed_in_a_teachers_voice() -> None:
    standards = ["ccss:2.NBT.B.5", "ccss:2.OA.A.1", "ccss:3.OA.C.7", "ccss:5.NF.A.1"]
    for standard in standards:
        for key in range(25):
            for p in practice(standard, key=str(key)).problems:
                assert teacherly(p.text), p.text
                assert p.text[:1] == p.text[:1].upper(), p.text
    assert not teacherly("whats 71 minus 38") and not teacherly("Ana sold 4. how many left")


def test_the_same_request_gives_the_same_practice_another_does_not() -> None:
    one = practice("ccss:2.NBT.B.5", key=SUBTRACTION, like="52 - 38")
    assert practice("ccss:2.NBT.B.5", key=SUBTRACTION, like="52 - 38") == one
    other = practice("ccss:2.NBT.B.5", key="I did 52 - 38 and got 24", like="52 - 38")
    assert other.problems != one.problems


def test_the_same_request_gives_the_same_practice_in_another_process() -> None:
    # Seeded by sha256, never `hash()`: a new process with another hash seed agrees.
    code = (
        "import json; from tutorgraph.problems import practice; "
        f"m = practice('ccss:2.NBT.B.5', key={SUBTRACTION!r}, like='52 - 38'); "
        "print(json.dumps([[p.text, p.answer, list(p.steps)] for p in m.problems]))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    here = practice("ccss:2.NBT.B.5", key=SUBTRACTION, like="52 - 38").problems
    assert json.loads(out.stdout) == [[p.text, p.answer, list(p.steps)] for p in here]


def test_a_standard_no_generator_covers_has_no_practice() -> None:
    assert not covers("ccss:HSF-IF.B.6") and not covers("eedi:construct:1")
    assert practice("ccss:HSF-IF.B.6", key="q").problems == ()


def _state(standards: list[str], query: str = SUBTRACTION, **fields: object) -> RequestState:
    state = RequestState(RetrievalRequest(query=query, **fields))  # type: ignore[arg-type]
    state.facts = request_facts(state.request, None)
    state.linked = [
        LinkedConcept(id="eedi:construct:1", taxonomy="eedi", name="c", score=0.9),
        *(LinkedConcept(id=s, taxonomy="common-core", name=s, score=0.5) for s in standards),
    ]
    return state


def test_the_packets_practice_is_for_its_first_common_core_standard() -> None:
    made = generated_practice(_state(["ccss:2.NBT.B.5", "ccss:2.OA.A.1"]), no_match=None)
    assert made.standard == "ccss:2.NBT.B.5" and made.shape == "#-#" and made.reason is None
    assert 3 <= len(made.hits) <= 5 and made.matched == len(made.hits)
    for hit in made.hits:
        assert hit.generated and hit.kind == "exercise" and hit.found_by == ["generator"]
        assert hit.id.startswith("generated:2.NBT.B.5:") and hit.ids == [hit.id]
        assert hit.rank == 0 and hit.score == 0.0 and hit.concept_ids == ["ccss:2.NBT.B.5"]
        assert hit.answer and hit.steps and hit.answer in hit.steps[-1]
    again = generated_practice(_state(["ccss:2.NBT.B.5", "ccss:2.OA.A.1"]), no_match=None)
    assert again.hits == made.hits


def test_practice_follows_the_standard_the_teach_slot_leads_with() -> None:
    state = _state(["ccss:2.OA.A.1", "ccss:2.NBT.B.5"])
    lesson = SlotHit.of(
        _found("tutorgraph:lesson:2.NBT.B.5", "ccss:2.NBT.B.5", 0),
        via="standard",
        standard="ccss:2.NBT.B.5",
    )
    state.slots = SlotPicks(
        teach=SlotPick(hits=[lesson]),
        practice=SlotPick(),
        misconceptions=SlotPick(),
        stated_answer=True,
    )
    assert generated_practice(state, no_match=None).standard == "ccss:2.NBT.B.5"
    # Nothing through a standard in the teach slot: the first linked standard.
    state.slots = SlotPicks(SlotPick(), SlotPick(), SlotPick(), stated_answer=True)
    assert generated_practice(state, no_match=None).standard == "ccss:2.OA.A.1"


def test_no_practice_off_the_grade_band_uncovered_unlinked_or_flagged() -> None:
    subtraction, high_school = ["ccss:2.NBT.B.5"], ["ccss:HSF-IF.B.6", "ccss:2.NBT.B.5"]
    cases = {
        "ccss:2.NBT.B.5 is outside the request's grade band (6-8)": (
            _state(subtraction, grade="7"),
            None,
        ),
        "no generator covers ccss:HSF-IF.B.6": (_state(high_school), None),
        "no Common Core standard is linked": (_state([]), None),
        "the packet is flagged no_match": (_state(subtraction), "off_topic: ..."),
    }
    for reason, (state, no_match) in cases.items():
        made = generated_practice(state, no_match)
        assert made.hits == [] and made.reason == reason
    # The grade band, not the grade: a grade-1 student gets grade-2 practice (K-2).
    assert generated_practice(_state(subtraction, grade="1"), None).hits


def test_an_old_packet_without_the_new_fields_still_parses() -> None:
    hit = {
        "id": "openstax:x", "ids": ["openstax:x"], "kind": "exercise", "text": "38 - 16",
        "score": 0.1, "rank": 1, "found_by": ["vector"], "fused_score": 0.1,
    }  # fmt: skip
    parsed = Hit.model_validate(hit)
    assert (parsed.generated, parsed.answer, parsed.steps) == (False, None, [])
    packet = ReasoningPacket.model_validate(
        {"query": "q", "timings_ms": {}, "slots": {"practice": {"hits": [hit]}}}
    )
    assert not packet.slots.practice.hits[0].generated


def _found(id_: str, concept: str, rank: int) -> Hit:
    return Hit(
        id=id_, ids=[id_], kind="exercise", text=id_, concept_ids=[concept], score=0.1,
        rank=rank, found_by=["vector"], fused_score=0.1,
    )  # fmt: skip


def test_the_practice_slot_leads_with_them_then_the_standards_own_practice() -> None:
    state = _state(["ccss:2.NBT.B.5"])
    other, own = _found("openstax:a", "openstax:section:1", 1), _found("own:b", "ccss:2.NBT.B.5", 2)
    past = _found("own:c", "ccss:2.NBT.B.5", 0)  # past the cut
    state.hits, state.uncut = [other, own], [other, own, past]
    packet = build_packet(state)
    hits = packet.slots.practice.hits
    made = [h for h in hits if h.generated]
    assert 3 <= len(made) <= 5 and hits[: len(made)] == made
    assert [h.id for h in hits[len(made) :]] == ["own:b", "own:c", "openstax:a"]
    assert packet.slots.practice.scale == "fused" and packet.results == [other, own]
    assert "practice" not in packet.degraded_stages


def test_a_failure_leaves_the_packet_without_them_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("tutorgraph.retrieval.practice.practice", broken)
    packet = build_packet(_state(["ccss:2.NBT.B.5"]))
    assert packet.degraded_stages == {"practice": "practice failed: RuntimeError"}
    assert packet.slots.practice.hits == [] and packet.slots.practice.empty_reason
