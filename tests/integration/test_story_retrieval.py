"""A word problem in the real retriever (session index, real MiniLM, local refiner, bundled
bug rules): the story's mathematics, read once into the request's facts, reaches the
diagnosis, and the packet's misconceptions explain the student's answer."""

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
def story_retriever(opened_index, embedder):  # type: ignore[no-untyped-def]
    return index_retriever(
        opened_index,
        embedder,
        refiner=build_refiner(RetrieverConfig.from_settings(Settings()), opened_index),
        diagnoser=Diagnoser.bundled(),
    )


def test_a_story_with_a_wrong_answer_is_diagnosed(story_retriever) -> None:  # type: ignore[no-untyped-def]
    # The example: "how many more to make 15" is `8 + ? = 15`; 23 is 8 + 15, the
    # story's operation where its inverse was needed (a missing-number misconception).
    message = "Tom has 8 marbles. How many more does he need to make 15? I got 23"
    packet = asyncio.run(story_retriever.retrieve(RetrievalRequest(query=message)))
    check = packet.answer_check
    assert check is not None and check.missing == []
    assert (check.problem, check.student_answer, check.correct) == ("8 + ? = 15", "23", False)
    assert check.correct_answer == "7"
    finding = {f.rule: f for f in packet.diagnosis}.get("missing_number_original_operation")
    assert finding is not None and finding.reproduced_answer == "23"
    assert finding.misconception_id == "eedi:misconception:2271"
    # The misconception that explains the answer leads the packet's misconceptions.
    mis = packet.slots.misconceptions
    assert mis.stated_answer is True and mis.hits
    assert mis.hits[0].id == finding.misconception_id
    assert "diagnosis" in mis.hits[0].found_by


def test_a_take_away_story_is_checked(story_retriever) -> None:  # type: ignore[no-untyped-def]
    message = "Sam had 24 stickers and gave away 9. How many are left? I got 25"
    packet = asyncio.run(story_retriever.retrieve(RetrievalRequest(query=message)))
    check = packet.answer_check
    assert check is not None and check.missing == []
    assert (check.problem, check.student_answer, check.correct) == ("24 - 9", "25", False)
    assert check.correct_answer == "15"
    # The session index holds neither column-subtraction misconception the rules find for 25
    # (`tests/unit/test_request_facts_story.py` checks the rules): none is shown.
    assert all(f.misconception_id in {h.id for h in packet.results} for f in packet.diagnosis)


def test_a_story_without_an_answer_is_not_checked(story_retriever) -> None:  # type: ignore[no-untyped-def]
    message = "Tom has 8 marbles. How many more does he need to make 15?"
    packet = asyncio.run(story_retriever.retrieve(RetrievalRequest(query=message)))
    assert not packet.diagnosis
    assert packet.answer_check is None or packet.answer_check.student_answer is None
    assert packet.results  # retrieval ran on the text as before
