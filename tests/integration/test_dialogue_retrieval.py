"""A tutoring dialogue through the real pipeline (the session index: MiniLM, Chroma, BM25,
the graph and the concept linker): the answer check runs against the tutor's question, the
tutor's numbers never become the student's answer, a short turn carries the topic, and
chit-chat is flagged with the session's topic still reported. (The session index holds a
slice of the standards, so whether a topic *changes* is the unit tests'.)"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration

# A real four-turn exchange: three earlier turns, then the student's latest.
DIALOGUE = [
    {"role": "tutor", "text": "Let's practise multiplication. What is 7 x 6?"},
    {"role": "student", "text": "48?"},
    {"role": "tutor", "text": "Not quite. 7 x 5 = 35, so add one more 7. What is 7 x 6?"},
]


@pytest.fixture(scope="module")
def diagnosing(opened_index, embedder):  # type: ignore[no-untyped-def]
    """The session retriever with the bundled bug rules, as the factory builds it."""
    from tests.conftest import index_retriever

    return index_retriever(opened_index, embedder, diagnoser=Diagnoser.bundled())


def _retrieve(retriever: Any, query: str, **fields: Any) -> ReasoningPacket:
    request = RetrievalRequest(query=query, conversation=DIALOGUE, **fields)
    packet: ReasoningPacket = asyncio.run(retriever.retrieve(request))
    return packet


def _standards(packet: ReasoningPacket) -> list[str]:
    return [c.id for c in packet.concepts if c.taxonomy == "common-core"]


def test_a_short_answer_is_checked_against_the_tutors_question(diagnosing) -> None:  # type: ignore[no-untyped-def]
    packet = _retrieve(diagnosing, "41?")
    check = packet.answer_check
    assert check is not None
    assert (check.problem, check.student_answer, check.correct) == ("7 × 6", "41", False)
    assert check.correct_answer == "42"
    info = packet.dialogue
    assert info is not None
    # The tutor's second question follows up the first (a hint after a wrong answer).
    assert (info.turns, info.problem_turn, info.student_answer_turn) == (3, 0, 3)
    assert info.topic == "carried" and info.topic_standard == _standards(packet)[0]
    assert not info.help_request and not info.chit_chat and not packet.no_match


def test_a_help_request_names_no_answer_and_tutor_numbers_stay_the_tutors(diagnosing) -> None:  # type: ignore[no-untyped-def]
    packet = _retrieve(diagnosing, "i don't get it")
    info = packet.dialogue
    assert info is not None and info.help_request and info.student_answer_turn is None
    assert packet.answer_check is None or packet.answer_check.student_answer is None
    assert info.problem == "7 × 6" and info.topic == "carried"


def test_chit_chat_is_flagged_and_keeps_the_sessions_topic(diagnosing) -> None:  # type: ignore[no-untyped-def]
    packet = _retrieve(diagnosing, "brb")
    assert packet.no_match and (packet.no_match_reason or "").startswith("chit_chat:")
    info = packet.dialogue
    assert info is not None and info.chit_chat and info.topic == "carried"
    assert _standards(packet) and _standards(packet)[0] == info.topic_standard
    # Linked from the dialogue before it: the same concepts as its turns sent as one message.
    window = " ".join(t["text"] for t in DIALOGUE)
    alone = asyncio.run(diagnosing.retrieve(RetrievalRequest(query=window)))
    assert _standards(packet) == _standards(alone)


def test_a_turn_with_its_own_problem_is_checked_against_it(diagnosing) -> None:  # type: ignore[no-untyped-def]
    packet = _retrieve(diagnosing, "what about 8 x 7? i got 54")
    check = packet.answer_check
    assert check is not None and (check.problem, check.correct_answer) == ("8 × 7", "56")
    info = packet.dialogue
    assert info is not None and (info.problem_turn, info.student_answer_turn) == (3, 3)
    assert info.topic in ("carried", "changed") and info.topic_standard is not None


def test_no_conversation_no_dialogue(diagnosing) -> None:  # type: ignore[no-untyped-def]
    packet = asyncio.run(diagnosing.retrieve(RetrievalRequest(query="41?")))
    assert packet.dialogue is None
