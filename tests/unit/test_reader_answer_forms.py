"""Answers as students state them, and questions as questions (issue 62, part 6): numbers in
words, choice letters, verdicts, algebra, units, hedges and answers on a line of their own
are read; a question about numbers, or someone else's claim, states no answer. Phrasings
written for these tests, beside `data/benchmarks/stated_answers.jsonl`."""

from __future__ import annotations

import asyncio

import pytest

from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph.refinement.answer_words import word_answer
from tutorgraph.refinement.number_words import number_value, spell_answers
from tutorgraph.refinement.reader import answer_in, read_message
from tutorgraph.retrieval.facts import request_facts
from tutorgraph.retrieval.request_diagnosis import diagnose_hits
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.unit


def _read(message: str) -> str | None:
    """The student's answer the packet gets (the facts the answer check reads)."""
    return request_facts(RetrievalRequest(query=message), None).student_answer


@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ("for 5 x 5 i got twenty-five", "25"),
        ("i think the answer is thirty two", "32"),
        ("my answer was three hundred and six", "306"),
        ("6 - 9, i put negative three", "-3"),
        ("i wrote two fifths", "2/5"),
        ("is it ninety?", "90"),
        ("how many days in a week\nseven", "7"),
        ("nineteen is what i got for 4 x 5", "19"),
    ],
)
def test_a_number_in_words_is_read_in_digits(message: str, answer: str) -> None:
    assert _read(message) == answer


@pytest.mark.parametrize(
    "message",
    [
        "i got one wrong on the quiz",  # a count, not an answer
        "two trains leave at 3 pm, which one is faster",
        "how do you write 2405 in words? i put two thousand four hundred and five",
    ],
)
def test_number_words_that_are_no_answer_stay_words(message: str) -> None:
    assert spell_answers(message) == message
    read = _read(message)
    assert read is None or not any(ch.isdigit() for ch in read)


def test_number_value_reads_compound_numbers_and_fractions() -> None:
    assert number_value(["one", "thousand", "two", "hundred"]) == ("1200", 4)
    assert number_value(["twenty", "five", "six"]) == ("25", 2)
    assert number_value(["a", "quarter"]) == ("1/4", 2)


@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ("i picked e", "E"),
        ("I chose option D on number 6", "D"),
        ("is the answer b?", "B"),
        ("my answer is (a) because it is the smallest", "A"),
        ("which fraction is biggest?\nc", "C"),
    ],
)
def test_a_choice_letter_is_read_as_its_capital(message: str, answer: str) -> None:
    assert _read(message) == answer


@pytest.mark.parametrize(
    "message", ["is it C or D?", "i put a lot of work into this", "what does option b mean"]
)
def test_a_letter_that_is_no_choice_is_not_read(message: str) -> None:
    assert word_answer(message) is None and _read(message) is None


@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ("neither of them is correct", "neither"),
        ("both of them were right i think", "both"),
        ("i said both were incorrect", "neither"),
        ("they are both wrong", "neither"),
        ("jo says 0.5 and max says 1/2, i think both are right", "both"),
        ("neither?", "neither"),
    ],
)
def test_a_verdict_is_read_as_both_or_neither(message: str, answer: str) -> None:
    assert _read(message) == answer


@pytest.mark.parametrize(
    "message", ["are both of them right?", "is neither correct?", "both of my tries were wrong"]
)
def test_a_question_about_the_options_states_no_verdict(message: str) -> None:
    assert _read(message) is None


@pytest.mark.parametrize(
    "message", ["i said neither", "i think both are right", "i chose c", "my answer was E"]
)
def test_a_verdict_or_a_letter_is_never_checked_as_a_number(message: str) -> None:
    """The packet's answer check carries the answer but calls it neither right nor wrong."""
    request = RetrievalRequest(query=message)
    facts = request_facts(request, None)

    async def fetch(ids: list[str]) -> None:
        return None

    outcome = asyncio.run(diagnose_hits(Diagnoser.bundled(), fetch, facts, [], timeout_s=5.0))
    assert facts.student_answer is not None
    assert outcome.findings == []
    assert outcome.check is None or (
        outcome.check.correct is None and outcome.check.correct_answer is None
    )


@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ("m = 3 or 4", "m = 3 or 4"),
        ("for x^2 = 9 i got x = 3 or x = -3", "x = 3 or x = -3"),
        ("i came up with k = 12", "k = 12"),
        ("solve 5y = 20\ny = 4", "y = 4"),
        ("simplify 4a + 2a\n6a", "6a"),
    ],
)
def test_an_algebra_answer_is_read_whole(message: str, answer: str) -> None:
    assert _read(message) == answer


@pytest.mark.parametrize(
    "message",
    ["is it 2x + 6 or 2x + 3", "2x + 3 = 11", "what do i do with y = 2x + 1"],
)
def test_algebra_that_is_no_answer_is_not_read(message: str) -> None:
    assert _read(message) is None


@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ("i got 40 cm", "40"),
        ("is it 9 pencils?", "9"),
        ("the width is 7 so the area\n35 cm", "35"),
    ],
)
def test_a_number_with_its_unit_is_read(message: str, answer: str) -> None:
    assert _read(message) == answer


@pytest.mark.parametrize("digits", [16, 400, 1970])
def test_a_long_number_after_a_cue_is_read_in_full(digits: int) -> None:
    # Longer than a token's 15 digits, so the cue's words read it: whole, not cut at a
    # character cap (320 nines were read of 1,970).
    assert _read(f"I got {'9' * digits} for 1/2+1/4") == "9" * digits
    assert answer_in(f"my answer was {'7' * digits}\nwhy is it wrong") == "7" * digits


@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ("maybe 56?", "56"),
        ("perhaps 0.4", "0.4"),
        ("63 maybe", "63"),
        ("27? im not sure", "27"),
        ("hmm 14?", "14"),
        ("im pretty sure its 3/5", "3/5"),
        ("should it be 0.75?", "0.75"),
        ("would the answer be 12?", "12"),
        ("is the answer 44?", "44"),
        ("the answer is 81", "81"),
    ],
)
def test_a_hedged_answer_is_read(message: str, answer: str) -> None:
    assert _read(message) == answer


@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ("how many sides does a pentagon have\n6?", "6"),
        ("which is smaller 0.3 or 0.25\n0.3", "0.3"),
        ("question 2: 5 x 12\n\n50", "50"),
    ],
)
def test_an_answer_on_a_line_of_its_own_is_read(message: str, answer: str) -> None:
    assert _read(message) == answer


@pytest.mark.parametrize(
    "message",
    [
        "is 3/5 the same as 6/10?",
        "does 0.2 equal 1/5?",
        "is 4/8 equivalent to 1/2",
        "is 1 m the same as 100 cm?",
        "is 3/8 bigger than 1/3",
        "is 19 prime?",
        "how come 2/6 equals 1/3",
        "does 20% mean the same as 0.2",
        "my teacher says 8 x 7 is 56 but how",
        "my teacher said 0.3 x 0.3 is 0.09 but why",
        "the book says 2/5 = 0.4 but how",
        "my brother says 6 x 0 is 0 but why",
        "the answer is 36 but i dont get why",
    ],
)
def test_a_question_about_numbers_states_no_answer(message: str) -> None:
    assert read_message(message).student_answer is None
    assert answer_in(message) is None
    assert _read(message) is None


def test_an_authority_says_what_is_right_and_the_student_says_what_they_got() -> None:
    read = read_message("my teacher says 8 x 7 is 56 but how")
    assert read.claimed_right is not None and read.claimed_right.value == "56"
    facts = request_facts(RetrievalRequest(query="the book says 9 x 7 is 63 but i got 56"), None)
    assert (facts.student_answer, facts.correct_answer) == ("56", "63")


@pytest.mark.parametrize(
    "message",
    [
        "idk",
        "how do i even start this",
        "i keep getting confused with decimals",
        "i wrote it on the wrong line",
        "i got a new textbook today",
        "is it ok if i use a number line",
    ],
)
def test_a_message_that_states_no_answer_reads_none(message: str) -> None:
    assert _read(message) is None
