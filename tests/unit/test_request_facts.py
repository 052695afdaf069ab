"""A request's facts, read once (`retrieval/facts.py`): one precedence for the student's
answer, and the request's `problem` read by the same reader as a message."""

from __future__ import annotations

from tutorgraph.retrieval.facts import RequestFacts, request_facts
from tutorgraph_client.models.refined_query import RefinedQuery
from tutorgraph_client.models.request import RetrievalRequest


def _refined(query: str, answer: str | None) -> RefinedQuery:
    return RefinedQuery(
        original_query=query, optimized_query=query, student_answer=answer, refiner="openai"
    )


def test_the_request_then_the_reader_then_the_refiner() -> None:
    message = "what is 9 squared? I got 18"
    facts = request_facts(RetrievalRequest(query=message, student_answer="17"), None)
    assert (facts.student_answer, facts.answer_source) == ("17", "request")
    facts = request_facts(RetrievalRequest(query=message), _refined(message, "19"))
    assert (facts.student_answer, facts.answer_source) == ("18", "reader")
    other = "x/3 = 6 and x is 2"
    facts = request_facts(RetrievalRequest(query=other), _refined(other, "x = 2"))
    assert (facts.student_answer, facts.answer_source) == ("x = 2", "refiner")


def test_a_stated_problem_is_read_as_a_message_is() -> None:
    facts = request_facts(
        RetrievalRequest(query="help", problem="0.5 x 0.7", student_answer="3.5"), None
    )
    assert (facts.problem, facts.problem_text) == ("0.5 × 0.7", "0.5 x 0.7")
    # A problem alone (the query stands for it) states no answer.
    facts = request_facts(RetrievalRequest(problem="Write 2/5 as a decimal."), None)
    assert facts.student_answer is None and facts.answer_source is None


def test_a_word_problem_states_no_answer_and_keeps_its_numbers() -> None:
    facts = request_facts(
        RetrievalRequest(query="a rope is 3 meters long how many centimeters is that"), None
    )
    assert facts.student_answer is None and facts.numbers == ("3",)


def test_the_answer_the_message_says_is_right_is_the_correct_one() -> None:
    facts = request_facts(RetrievalRequest(query="i got 6 for 3 squared, the teacher got 9"), None)
    assert (facts.student_answer, facts.correct_answer) == ("6", "9")
    given = RequestFacts.given(RetrievalRequest(query="q", student_answer="4", correct_answer="5"))
    assert (given.student_answer, given.answer_source) == ("4", "request")
    assert given.correct_answer == "5"
