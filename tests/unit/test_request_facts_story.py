"""A word problem in the request's facts (`retrieval/facts.py`): the story reader reads its
mathematics once, where the message reader finds no calculation, and the diagnosis reads
the story's calculation."""

from __future__ import annotations

from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph.refinement.story import read_story
from tutorgraph.retrieval.facts import RequestFacts, diagnosed_text, request_facts
from tutorgraph.retrieval.request_diagnosis import read_and_diagnose
from tutorgraph_client.models.refined_query import RefinedQuery
from tutorgraph_client.models.request import RetrievalRequest

STORY = "Sam had 24 stickers and gave away 9. How many are left? I got 25"


def test_a_story_gives_the_problem_and_the_diagnosis_reads_it() -> None:
    facts = request_facts(RetrievalRequest(query=STORY), None)
    assert facts.story is not None
    assert (facts.story.operation, facts.story.unknown) == ("subtract", "result")
    assert (facts.problem, facts.problem_text) == ("24 - 9", "24 - 9")
    assert (facts.student_answer, facts.answer_source) == ("25", "reader")
    assert facts.numbers == ("24", "9", "25")
    # The message reader's reading is of the message, as before.
    assert facts.reading is not None and facts.reading.problem is None
    read = read_and_diagnose(
        Diagnoser.bundled(), facts.problem_text, "25", facts.correct_answer, message=True
    )
    assert read is not None
    problem, diagnosis = read
    assert (problem, diagnosis.correct, diagnosis.correct_answer) == ("24 - 9", False, "15")
    assert "column_subtraction_smaller_from_larger" in {f.rule for f in diagnosis.findings}


def test_a_stated_story_with_the_requests_answer() -> None:
    request = RetrievalRequest(
        query="help",
        problem="There are 6 boxes of 7 pencils. How many pencils?",
        student_answer="13",
    )
    facts = request_facts(request, None)
    assert facts.story is not None and facts.story.operation == "multiply"
    assert (facts.problem, facts.student_answer, facts.answer_source) == ("6 × 7", "13", "request")


def test_a_number_of_the_story_is_not_the_students_answer() -> None:
    facts = request_facts(
        RetrievalRequest(query="Tom has 8 marbles. How many more does he need to make 15?"), None
    )
    assert facts.story is not None and facts.story.equation == "8 + ? = 15"
    assert (facts.problem, facts.student_answer, facts.answer_source) == ("15 - 8", None, None)
    # Nor is the refiner's, when it reads the same number.
    tom = "Tom has 8 marbles. How many more does he need to make 15?"
    refined = RefinedQuery(
        original_query=tom, optimized_query=tom, student_answer="15", refiner="local"
    )
    assert request_facts(RetrievalRequest(query=tom), refined).student_answer is None
    # Said again, it is the answer.
    facts = request_facts(
        RetrievalRequest(query="Sam had 24 stickers and gave away 9. How many are left? I got 9"),
        None,
    )
    assert (facts.problem, facts.student_answer) == ("24 - 9", "9")


def test_a_calculation_the_reader_finds_comes_first() -> None:
    facts = request_facts(RetrievalRequest(query="for 7 - 2 x 3 I put 15"), None)
    assert facts.story is None and facts.problem == "7 - 2 × 3"
    assert facts.problem_text == "for 7 - 2 x 3 I put 15"
    facts = request_facts(RetrievalRequest(query="what is a fraction?"), None)
    assert facts.story is None and facts.problem is None


def test_the_given_facts_read_no_story() -> None:
    assert RequestFacts.given(RetrievalRequest(query=STORY)).story is None


def test_a_missing_number_story_is_diagnosed_by_its_equation() -> None:
    tom = "Tom has 8 marbles. How many more does he need to make 15? I got 23"
    facts = request_facts(RetrievalRequest(query=tom), None)
    assert (facts.problem, facts.problem_text, facts.student_answer) == (
        "15 - 8",
        "8 + ? = 15",
        "23",
    )
    read = read_and_diagnose(Diagnoser.bundled(), facts.problem_text, "23", None, message=True)
    assert read is not None
    problem, diagnosis = read
    assert (problem, diagnosis.correct, diagnosis.correct_answer) == ("8 + ? = 15", False, "7")
    # 23 is 8 + 15: the story's operation, not its inverse.
    assert {f.rule for f in diagnosis.findings} == {"missing_number_original_operation"}
    # The equation reader takes no fraction in a missing-number equation: the calculation.
    story = read_story(
        "Ben had some juice. He drank 3/4 of a cup and has 2 cups left. "
        "How much did he have at first?"
    )
    assert story is not None and story.unknown == "start"
    assert diagnosed_text(story) == story.expression == "2 + 3/4"
