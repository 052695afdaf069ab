"""The math-message reader in the real retriever (session index, real MiniLM, local refiner,
bundled bug rules): students' own words reach the diagnosis, and a message that says too
little is not guessed at."""

from __future__ import annotations

import asyncio

import pytest
from tests.conftest import index_retriever

from tutorgraph.config import Settings
from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph.retrieval.factory import build_refiner
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def reading_retriever(opened_index, embedder):  # type: ignore[no-untyped-def]
    return index_retriever(
        opened_index,
        embedder,
        refiner=build_refiner(RetrieverConfig.from_settings(Settings()), opened_index),
        diagnoser=Diagnoser.bundled(),
    )


@pytest.mark.parametrize(
    ("message", "problem", "answer", "correct", "rule"),
    [
        # The issue's table: what a tutor reads, and the rule that reproduces the answer.
        ("for 7 - 2 x 3 I put 15", "7 - 2 × 3", "15", "1", "order_left_to_right"),
        (
            "teacher marked 0.3 x 0.2 = 0.6 wrong",
            "0.3 × 0.2",
            "0.6",
            "0.06",
            "decimal_multiply_wrong_power_of_ten",
        ),
        ("I keep getting 6 for 3 squared", "3^2", "6", "9", "squaring_as_doubling"),
        ("why is 5 - 8 not 3", "5 - 8", "3", "-3", "subtraction_commutative"),
        ("i rounded 2.45 to 2.4", "round 2.45 to 1 dp", "2.4", "2.5", "rounding_five_down"),
    ],
)
def test_the_issues_rows_are_read_and_diagnosed(  # type: ignore[no-untyped-def]
    reading_retriever, message: str, problem: str, answer: str, correct: str, rule: str
) -> None:
    packet = asyncio.run(reading_retriever.retrieve(RetrievalRequest(query=message)))
    assert packet.refined_query is not None and packet.refined_query.student_answer == answer
    assert packet.refined_query.problem == problem
    check = packet.answer_check
    assert check is not None and check.missing == []
    assert (check.problem, check.student_answer, check.correct) == (problem, answer, False)
    assert check.correct_answer == correct
    assert packet.timings_ms["diagnose"] > 0
    # The rule's misconceptions lead the hits where the session index holds them.
    assert all(f.rule for f in packet.diagnosis)
    if packet.diagnosis:
        assert rule in {f.rule for f in packet.diagnosis}


@pytest.mark.parametrize(
    ("message", "missing", "problem"),
    [
        ("why is 7 - 2 x 3 wrong", ["answer"], "7 - 2 × 3"),
        ("i got 155.2 but it says its wrong why", ["problem"], None),
    ],
)
def test_a_message_that_says_too_little_says_what_is_missing(  # type: ignore[no-untyped-def]
    reading_retriever, message: str, missing: list[str], problem: str | None
) -> None:
    packet = asyncio.run(reading_retriever.retrieve(RetrievalRequest(query=message)))
    check = packet.answer_check
    assert check is not None and check.missing == missing and check.correct is None
    assert check.problem == problem
    assert not packet.diagnosis
    assert packet.results  # retrieval ran on the text as before


@pytest.mark.parametrize(
    ("message", "problem", "answer", "read", "correct", "rule"),
    [
        # Issue 47: an app's fields are read as the message is (before, they read nothing).
        ("what is 9 squared? I got 18", "9 squared", "18", "9^2", "81", "squaring_as_doubling"),
        (
            "0.5 x 0.7 i got 3.5 but the teacher marked it wrong",
            "0.5 x 0.7",
            "3.5",
            "0.5 × 0.7",
            "0.35",
            "decimal_multiply_wrong_power_of_ten",
        ),
    ],
)
def test_the_request_fields_are_read_as_the_message_is(  # type: ignore[no-untyped-def]
    reading_retriever,
    message: str,
    problem: str,
    answer: str,
    read: str,
    correct: str,
    rule: str,
) -> None:
    typed, fields = (
        asyncio.run(reading_retriever.retrieve(request))
        for request in (
            RetrievalRequest(query=message),
            RetrievalRequest(query=message, problem=problem, student_answer=answer),
        )
    )
    alone = asyncio.run(
        reading_retriever.retrieve(RetrievalRequest(problem=problem, student_answer=answer))
    )
    for packet in (typed, fields, alone):
        check = packet.answer_check
        assert check is not None and check.missing == []
        assert (check.problem, check.student_answer, check.correct) == (read, answer, False)
        assert check.correct_answer == correct
        assert rule in {f.rule for f in packet.diagnosis}
    assert [f.rule for f in fields.diagnosis] == [f.rule for f in typed.diagnosis]


@pytest.mark.parametrize(
    "message",
    [
        "a rope is 3 meters long how many centimeters is that",
        "i got a 72 on my first test and an 88 on the next one whats my average",
        "my mom put 3 cookies on my plate and then 2 more how many cookies do i have now",
    ],
)
def test_a_number_in_the_problem_is_never_the_answer(  # type: ignore[no-untyped-def]
    reading_retriever, message: str
) -> None:
    packet = asyncio.run(reading_retriever.retrieve(RetrievalRequest(query=message)))
    assert packet.refined_query is not None and packet.refined_query.student_answer is None
    assert packet.answer_check is None or packet.answer_check.student_answer is None
    assert not packet.diagnosis
