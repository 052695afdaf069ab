"""A tutoring dialogue: the turns before the student's latest one (the request's
`conversation`), their limits, and what the packet read from them (`DialogueInfo`).

Turn numbers count from 0: `conversation[i]` is turn `i`, and the request's own `query` (the
student's latest turn) is turn `len(conversation)`.

>>> turns = [Turn(role="tutor", text="What is 7 x 6?"), Turn(role="student", text="48?")]
>>> [t.role for t in turns]
['tutor', 'student']
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError

__all__ = [
    "MAX_CONVERSATION_CHARS",
    "MAX_TURNS",
    "MAX_TURN_CHARS",
    "DialogueInfo",
    "Role",
    "TopicState",
    "Turn",
    "check_conversation",
]

Role = Literal["student", "tutor"]
TopicState = Literal["new", "carried", "changed"]
MAX_TURNS = 50
MAX_TURN_CHARS = 2000
MAX_CONVERSATION_CHARS = 20_000


class Turn(BaseModel):
    """One earlier turn of the dialogue: who said it and what.

    >>> Turn(role="student", text="  12? ").text
    '12?'
    """

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    role: Role = Field(description="Who said it: student or tutor.", examples=["tutor"])
    text: str = Field(
        min_length=1,
        max_length=MAX_TURN_CHARS,
        description=f"What was said, 1-{MAX_TURN_CHARS:,} characters after stripping.",
        examples=["What is 7 x 6?"],
    )


def _turn_text(turn: Any) -> Any:
    if isinstance(turn, Turn):
        return turn.text
    return turn.get("text") if isinstance(turn, dict) else None


def check_conversation(turns: Any) -> Any:
    """The request's `conversation` limits, each broken one named with its limit and turn
    (a 422 over HTTP); the turns themselves are then validated as `Turn`s.

    >>> check_conversation([{"role": "student", "text": "12?"}])
    [{'role': 'student', 'text': '12?'}]
    """
    if not isinstance(turns, list):
        return turns
    if len(turns) > MAX_TURNS:
        raise PydanticCustomError(
            "conversation_too_long",
            f"conversation has {len(turns)} turns, at most {MAX_TURNS} (the turns before this "
            "one; drop the oldest)",
        )
    total = 0
    for i, turn in enumerate(turns):
        text = _turn_text(turn)
        if not isinstance(text, str):
            continue  # Turn's own validation names a missing or non-string text
        size = len(text.strip())
        if size == 0:
            raise PydanticCustomError(
                "conversation_turn_empty",
                f"conversation turn {i} is empty (each turn needs 1-{MAX_TURN_CHARS} "
                "characters after stripping)",
            )
        if size > MAX_TURN_CHARS:
            raise PydanticCustomError(
                "conversation_turn_too_long",
                f"conversation turn {i} has {size} characters, at most {MAX_TURN_CHARS} per turn",
            )
        total += size
        if total > MAX_CONVERSATION_CHARS:
            raise PydanticCustomError(
                "conversation_too_large",
                f"conversation has over {MAX_CONVERSATION_CHARS} characters in all (passed at "
                f"turn {i}), at most {MAX_CONVERSATION_CHARS}; drop the oldest turns",
            )
    return turns


class DialogueInfo(BaseModel):
    """What the packet read from the dialogue: the problem the answer check ran against and
    the turn it came from, the turn of the student's answer, whether this turn asks for help
    or is chit-chat, and whether the session's topic was carried or changed. Null on a
    packet whose request had no `conversation`.

    >>> DialogueInfo(turns=1, topic="carried", problem="7 x 6", problem_turn=0,
    ...              student_answer_turn=1, topic_standard="ccss:3.OA.C.7").student_answer_turn
    1
    """

    model_config = ConfigDict(extra="forbid")

    turns: int = Field(
        ge=0, description="The earlier turns read (the length of the request's conversation)."
    )
    problem: str | None = Field(
        default=None,
        description="The problem the answer check ran against (a tutor's question, or the "
        "problem the student stated earlier); null when none was read.",
        examples=["7 x 6"],
    )
    problem_turn: int | None = Field(
        default=None,
        description="The turn the problem came from (0 is the conversation's first turn; "
        "the request's own query is turn `turns`); null when there is no problem.",
        examples=[0],
    )
    student_answer_turn: int | None = Field(
        default=None,
        description="The turn the student's answer came from, never a tutor's; null when "
        "this turn gives no answer.",
        examples=[1],
    )
    help_request: bool = Field(
        default=False,
        description='True when this turn asks for help ("idk", "I don\'t get it"), which is '
        "not an answer.",
    )
    chit_chat: bool = Field(
        default=False,
        description="True when this turn is a social remark, a request to stop or off-topic "
        '("brb", "can i go now"); the packet is then `no_match` with reason `chit_chat: ...`.',
    )
    topic: TopicState = Field(
        default="new",
        description="new (the dialogue had no topic yet), carried (this turn kept the "
        "session's standard) or changed (a new problem or topic moved it).",
    )
    topic_standard: str | None = Field(
        default=None,
        description="The session's Common Core standard before this turn (read from the "
        "earlier turns); null when they had none.",
        examples=["ccss:3.OA.C.7"],
    )
