"""A dialogue's facts (issue 63): the problem from the tutor's latest question or the
student's own earlier problem, the answer from the latest turn alone (never a tutor's),
help requests, chit-chat, and the topic carried or changed."""

from __future__ import annotations

import pytest

from tutorgraph.refinement.dialogue import read_dialogue
from tutorgraph.refinement.turn_kinds import turn_kind
from tutorgraph.retrieval.dialogue_info import dialogue_info
from tutorgraph.retrieval.facts import RequestFacts, request_facts
from tutorgraph.retrieval.no_match import no_match_reason
from tutorgraph.retrieval.state import RequestState
from tutorgraph.retrieval.topic import Topic, dialogue_topic
from tutorgraph_client.models.conversation import Turn
from tutorgraph_client.models.packet import LinkedConcept
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.unit


def tutor(text: str) -> Turn:
    return Turn(role="tutor", text=text)


def student(text: str) -> Turn:
    return Turn(role="student", text=text)


def facts(query: str, *turns: Turn, **fields: str) -> RequestFacts:
    return request_facts(RetrievalRequest(query=query, conversation=list(turns), **fields), None)


@pytest.mark.parametrize("answer", ["12?", "is it 12", "i got 12", "12", "twelve?", "ok so 12"])
def test_the_latest_turn_answers_the_tutors_question(answer: str) -> None:
    got = facts(answer, tutor("Good work! Now, what is 7 + 6?"))
    assert (got.problem, got.student_answer, got.answer_source) == ("7 + 6", "12", "reader")
    assert got.given_problem == "Now, what is 7 + 6?"
    assert got.dialogue is not None and got.dialogue.problem_turn == 0


def test_the_latest_question_wins_and_an_aside_poses_nothing() -> None:
    turns = [
        tutor("What is 7 x 6?"),
        student("48?"),
        tutor("Not quite: 7 x 5 = 35, and one more 7 makes 42. Let's try another."),
        tutor("What is 8 x 6?"),
        student("hmm"),
        tutor("Are you sure? Try again."),  # asks, but poses no problem of its own
    ]
    got = facts("48", *turns)
    assert (got.problem, got.student_answer) == ("8 × 6", "48")
    assert got.dialogue is not None and got.dialogue.problem_turn == 3


@pytest.mark.parametrize(
    "query", ["hmm", "why?", "ok", "can you show me", "wait what", "i don't get the 35"]
)
def test_tutor_numbers_and_worked_steps_are_never_the_students_answer(query: str) -> None:
    turns = [
        tutor("What is 7 x 6?"),
        student("48?"),
        tutor("Not quite. 7 x 5 = 35, and 35 + 7 = 42. So the answer is 42. Does that make sense?"),
    ]
    got = facts(query, *turns)
    assert got.student_answer in (None, "35")  # only a number the student's own turn names
    assert got.student_answer != "42"


@pytest.mark.parametrize(
    "query", ["idk", "i don't get it", "can you help", "I'm stuck", "no idea", "i dont know"]
)
def test_a_help_request_is_no_answer(query: str) -> None:
    got = facts(query, tutor("What is 3/4 + 1/8?"))
    assert got.student_answer is None and got.problem == "3/4 + 1/8"
    state = RequestState(RetrievalRequest(query=query, conversation=[tutor("What is 3/4 + 1/8?")]))
    state.facts = got
    info = dialogue_info(state)
    assert info is not None and info.help_request and info.student_answer_turn is None
    assert not info.chit_chat


def test_a_question_about_numbers_is_the_latest_question() -> None:
    turns = [tutor("What is 7 x 6?"), student("42"), tutor("Good! Which is bigger, 3/4 or 2/3?")]
    got = facts("3/4", *turns)
    assert got.dialogue is not None and got.dialogue.problem_turn == 2
    assert got.given_problem == "Which is bigger, 3/4 or 2/3?" and got.student_answer == "3/4"


@pytest.mark.parametrize(
    ("reply", "answer"), [("oh 56", "56"), ("3 so 13", "13"), ("carry it... 473", "473")]
)
def test_a_short_reply_gives_its_last_number(reply: str, answer: str) -> None:
    got = facts(reply, tutor("What is 7 x 8?"))
    assert (got.problem, got.student_answer) == ("7 × 8", answer)
    # A question is no answer, nor is a help request's number.
    assert facts("why do we add 7", tutor("What is 7 x 8?")).student_answer is None
    assert facts("so 7 x 8", tutor("What is 7 x 8?")).student_answer is None  # working
    assert facts("i dont get it", tutor("What is 7 x 8?")).student_answer is None


def test_working_towards_the_tutors_problem_is_not_a_new_problem() -> None:
    got = facts("3/6 + 2/6 = 5/6", tutor("What is 1/2 + 1/3?"))
    assert got.problem == "1/2 + 1/3" and got.student_answer == "5/6"
    assert got.dialogue is not None and not got.dialogue.stands_alone
    # One it brings or asks about is its own.
    for own in ("next one is 8 x 70", "now i have 1/3 ÷ 2", "what about 8 x 7?"):
        reading = facts(own, tutor("What is 1/2 + 1/3?")).dialogue
        assert reading is not None and reading.own_problem and reading.stands_alone, own


def test_a_request_for_a_new_topic_or_a_concept_stands_alone() -> None:
    turns = [tutor("What is 7 x 6?"), student("42"), tutor("Right.")]
    for turn in ("can you help me with pythagorean theorem", "ok what is a line of symmetry"):
        reading = facts(turn, *turns).dialogue
        assert reading is not None and reading.stands_alone and reading.problem_text is None
    asks = RetrievalRequest(query="can u help me with volume", conversation=turns)
    state = RequestState(asks)
    state.facts = request_facts(asks, None)
    info = dialogue_info(state)
    assert info is not None and not info.help_request  # a new topic, not help with 7 x 6


def test_the_problem_the_student_stated_earlier() -> None:
    turns = [student("what is 3/4 + 1/8? i got 4/12"), tutor("Let's look at the denominators.")]
    got = facts("why?", *turns)
    assert got.problem == "3/4 + 1/8" and got.student_answer is None
    assert got.dialogue is not None and got.dialogue.problem_turn == 0


def test_a_word_problem_the_tutor_tells() -> None:
    got = facts("i got 16", tutor("Sam had 24 stickers and gave away 9. How many are left?"))
    assert (got.problem, got.student_answer) == ("24 - 9", "16")


def test_the_latest_turns_own_problem_wins() -> None:
    got = facts("what about 8 x 7? is it 54", tutor("What is 7 x 6?"))
    assert (got.problem, got.student_answer) == ("8 × 7", "54")
    reading = got.dialogue
    assert reading is not None and reading.own_problem and reading.stands_alone


def test_the_requests_own_fields_win() -> None:
    got = facts("12?", tutor("What is 7 + 6?"), problem="5 + 8", student_answer="14")
    assert (got.problem, got.student_answer, got.answer_source) == ("5 + 8", "14", "request")
    state = RequestState(
        RetrievalRequest(query="12?", conversation=[tutor("What is 7 + 6?")], problem="5 + 8")
    )
    state.facts = got
    info = dialogue_info(state)
    assert info is not None and info.problem == "5 + 8" and info.problem_turn is None


def test_a_short_turn_is_read_with_the_window_and_a_new_topic_alone() -> None:
    turns = [tutor("What is 7 x 6?"), student("48"), tutor("Close! Try again.")]
    short = facts("ok so i times by 3?", *turns)
    assert short.link_text.endswith("\nok so i times by 3?") and "7 x 6" in short.link_text
    assert short.search_text == short.link_text == short.scope_text and not short.rewritten
    moved = facts("can you help with fractions now", *turns)
    assert moved.link_text == "can you help with fractions now"
    assert moved.dialogue is not None and moved.dialogue.stands_alone
    assert moved.problem is None  # the old topic's problem is not the new one's


def test_chit_chat_is_linked_by_the_window_alone() -> None:
    got = facts("brb", tutor("What is 7 x 6?"))
    assert got.link_text == got.search_text == "What is 7 x 6?"
    state = RequestState(RetrievalRequest(query="brb", conversation=[tutor("What is 7 x 6?")]))
    state.facts = got
    reason = no_match_reason(state)
    assert reason is not None and reason.startswith("chit_chat:")


def test_a_dialogue_without_maths_has_a_new_topic() -> None:
    got = facts("how do i add fractions", tutor("Hi! What shall we work on today?"))
    assert got.dialogue is not None and got.dialogue.window == ""
    assert got.link_text == "how do i add fractions"


def test_no_conversation_reads_as_before() -> None:
    alone = request_facts(RetrievalRequest(query="i got 12 for 7 + 6"), None)
    assert alone.dialogue is None and alone.scope_text == alone.link_text
    assert alone.given_problem is None
    state = RequestState(RetrievalRequest(query="i got 12 for 7 + 6"))
    assert dialogue_info(state) is None


@pytest.mark.parametrize(
    "turn",
    [
        "brb", "lol ok", "can i go now", "what's your favourite game", "i'm hungry", "haha",
        "bye", "thanks", "i like pizza", "my cat is on my keyboard", "i'm done", "hi",
        # Acknowledgements alone are chit-chat too (as the dialogue set labels them).
        "ok", "k", "ok got it", "cool", "that makes sense", "hiii", "wait what time is it",
        "ok i gotta go", "i lost a tooth today",
    ],
)  # fmt: skip
def test_chit_chat(turn: str) -> None:
    assert turn_kind(turn).chit_chat


@pytest.mark.parametrize(
    "turn",
    [
        "12?", "is it 48", "idk", "why?", "is it the second one", "so i carry the 1",
        "ok so i times by 3?", "seven?", "do i flip it", "yes", "no", "true", "a sphere",
        "dogs", "what does skip count mean", "i cant do it",
        "can we do another one", "whats next", "wait what", "hmm", "i think so",
        "can you help with fractions now", "what do you mean", "so the top number is 3?",
        "let's do it", "i don't get why we carry", "is it bigger", "i got it wrong",
    ],
)  # fmt: skip
def test_maths_turns_are_not_chit_chat(turn: str) -> None:
    assert not turn_kind(turn).chit_chat


def test_topic_carried_changed_and_the_sessions_standard() -> None:
    def linked(*ids: str) -> list[LinkedConcept]:
        return [LinkedConcept(id=i, taxonomy="common-core", name=i) for i in ids]

    session = "ccss:3.OA.A.1"
    carried = dialogue_topic(carried=True, linked=linked("ccss:3.OA.C.7"), session=None)
    assert carried == Topic("carried", "ccss:3.OA.C.7")
    near = linked("ccss:7.EE.B.4.a", "ccss:3.OA.A.4", "ccss:3.OA.D.8")
    assert dialogue_topic(carried=False, linked=near, session=session) == Topic("carried", session)
    away = linked("ccss:5.NF.A.1", "ccss:3.NF.A.3.c", "ccss:3.NF.A.3")
    assert dialogue_topic(carried=False, linked=away, session=session) == Topic("changed", session)


def test_the_window_keeps_the_recent_turns_and_the_problems() -> None:
    turns = [
        tutor("What is 3/4 of 12?"),
        student("brb"),
        student("9"),
        tutor("Yes! " + "Fractions of a number are found by dividing first. " * 8),
    ]
    reading = read_dialogue(turns, "ok")
    assert reading.window.startswith("What is 3/4 of 12? 9 ")
    assert "brb" not in reading.window and len(reading.window) < 700


def test_a_conversation_at_its_limits_is_read_fast() -> None:
    """50 turns and 20,000 characters of hostile text: read in linear time (issue 30's rule
    for every reader of user text), well inside the facts stage's timeout."""
    import time

    from tutorgraph_client.models.conversation import MAX_CONVERSATION_CHARS, MAX_TURNS

    pieces = ["1? ", "what is 9", " x ", "9. ", "try 1/2+", "i got 9 ", "is it ", "9\n"]
    size = MAX_CONVERSATION_CHARS // MAX_TURNS
    turns = [
        Turn(role="tutor" if i % 2 else "student", text=(pieces[i % 8] * size)[:size].strip())
        for i in range(MAX_TURNS)
    ]
    started = time.perf_counter()  # the first read: nothing cached yet
    got = request_facts(RetrievalRequest(query="1? " * 600, conversation=turns), None)
    took = time.perf_counter() - started
    assert got.dialogue is not None and took < 1.0, f"{took * 1000:.0f} ms (about 70 measured)"


def test_a_hint_after_a_wrong_answer_keeps_the_problem() -> None:
    hint = [
        tutor("What is 8 + 5?"),
        student("12"),
        tutor("Close! Try making a ten: 8 + 2 is 10, and then how many are left from the 5?"),
    ]
    got = facts("3 so 13", *hint)
    assert (got.problem, got.student_answer) == ("8 + 5", "13")
    assert got.dialogue is not None and got.dialogue.problem_turn == 0
    # Praise, or a new problem named, brings the new problem.
    for moved in ("Great! What is 7 x 8?", "Now what is 7 x 8?", "Next one: 7 x 8?"):
        got = facts("56", tutor("What is 8 + 5?"), student("13"), tutor(moved))
        assert got.problem == "7 × 8", moved
    praised = [tutor("What is 8 + 5?"), student("13"), tutor("Great job!"), tutor("What is 7 x 8?")]
    assert facts("56", *praised).problem == "7 × 8"


def test_an_answer_to_a_problem_the_rules_cannot_judge_is_still_reported() -> None:
    from tutorgraph.retrieval.context_header import known_lines

    turns = [tutor("The short hand is on 3 and the long hand on 12. What time is it?")]
    got = facts("3 oclock", *turns)
    assert got.student_answer == "3 oclock" and got.dialogue is not None
    from tutorgraph_client.models.packet import AnswerCheck, GradeInfo

    check = AnswerCheck(problem="What time is it?", student_answer="3")
    lines = known_lines([], GradeInfo(), check, [], [])
    assert any("it was not checked" in str(line) for line in lines)
