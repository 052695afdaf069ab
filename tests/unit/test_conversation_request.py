"""The request's `conversation` (issue 63): its turns and limits, each broken limit a clear
message naming the limit and the turn, and the packet's `dialogue`, null by default."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from tutorgraph_client.models.conversation import (
    MAX_CONVERSATION_CHARS,
    MAX_TURN_CHARS,
    MAX_TURNS,
    DialogueInfo,
    Turn,
)
from tutorgraph_client.models.packet import TIMING_KEYS, ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.unit


def _message(conversation: Any) -> str:
    with pytest.raises(ValidationError) as err:
        RetrievalRequest(query="12?", conversation=conversation)
    first = err.value.errors()[0]
    return f"{'.'.join(map(str, first['loc']))}: {first['msg']}"


def _turns(n: int, text: str = "ok") -> list[dict[str, str]]:
    return [{"role": "tutor" if i % 2 == 0 else "student", "text": text} for i in range(n)]


def test_turns_are_stripped_and_kept_in_order() -> None:
    req = RetrievalRequest(
        query="12?",
        conversation=[
            {"role": "tutor", "text": "  What is 7 + 6?\n"},
            Turn(role="student", text="hm"),
        ],
    )
    assert req.conversation == [
        Turn(role="tutor", text="What is 7 + 6?"),
        Turn(role="student", text="hm"),
    ]
    assert RetrievalRequest(query="q").conversation == []


def test_limits_at_their_edge_pass() -> None:
    assert len(RetrievalRequest(query="q", conversation=_turns(MAX_TURNS)).conversation) == 50
    exact = "x" * MAX_TURN_CHARS
    assert RetrievalRequest(query="q", conversation=[{"role": "student", "text": f" {exact} "}])
    ten = _turns(MAX_CONVERSATION_CHARS // MAX_TURN_CHARS, exact)
    assert len(RetrievalRequest(query="q", conversation=ten).conversation) == 10


@pytest.mark.parametrize(
    ("conversation", "expected"),
    [
        (_turns(MAX_TURNS + 1), "conversation has 51 turns, at most 50"),
        ([*_turns(3), {"role": "student", "text": "   "}], "conversation turn 3 is empty"),
        (
            [*_turns(2), {"role": "tutor", "text": "x" * (MAX_TURN_CHARS + 1)}],
            "conversation turn 2 has 2001 characters, at most 2000 per turn",
        ),
        (
            _turns(11, "x" * 1900),
            "conversation has over 20000 characters in all (passed at turn 10), at most 20000",
        ),
        ([{"role": "teacher", "text": "hi"}], "conversation.0.role: Input should be"),
        ([{"role": "tutor", "text": "hi", "name": "Ms P"}], "conversation.0.name: Extra inputs"),
        ([{"role": "tutor"}], "conversation.0.text: Field required"),
    ],
)
def test_each_broken_limit_names_the_limit_and_the_turn(
    conversation: list[dict[str, str]], expected: str
) -> None:
    assert expected in _message(conversation)


def test_dialogue_is_null_by_default_and_round_trips() -> None:
    packet = ReasoningPacket(query="q", timings_ms=dict.fromkeys(TIMING_KEYS, 0.0))
    assert packet.dialogue is None
    info = DialogueInfo(
        turns=2,
        problem="7 + 6",
        problem_turn=0,
        student_answer_turn=2,
        topic="carried",
        topic_standard="ccss:1.OA.C.6",
    )
    dumped = packet.model_copy(update={"dialogue": info}).model_dump(mode="json")
    assert ReasoningPacket.model_validate(dumped).dialogue == info
    assert dumped["dialogue"]["help_request"] is False
