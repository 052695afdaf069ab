"""The answer prompt, in one place and versioned: change `PROMPT_VERSION` with the text.

>>> messages = answer_messages(packet)  # doctest: +SKIP
>>> messages[0]["role"]  # doctest: +SKIP
'system'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tutorgraph_client.models.packet import ReasoningPacket

if TYPE_CHECKING:  # the openai extra is needed only to call a model
    from openai.types.chat import ChatCompletionMessageParam

__all__ = ["PROMPT_VERSION", "SYSTEM_PROMPT", "answer_messages"]

PROMPT_VERSION = "answer-v1"

SYSTEM_PROMPT = """You help a math tutor respond to a student. You are given the student's
message and a CONTEXT of curriculum items, each line starting with its id in brackets.

Write a short answer for the tutor (not for the student): what the student most likely
misunderstands, how to explain the idea, and one example or practice question to use.
Use only facts stated in the CONTEXT. After each sentence that uses an item, cite it by
its id in square brackets exactly as written, for example [eedi:misconception:1667].
Cite only ids that appear in the CONTEXT. If the CONTEXT does not answer the message,
say so in one sentence instead of answering from your own knowledge."""


def answer_messages(packet: ReasoningPacket) -> list[ChatCompletionMessageParam]:
    """The chat messages for one packet: the system prompt, then the message and context."""
    parts = [f"STUDENT MESSAGE:\n{packet.query}"]
    check = packet.answer_check
    if check is not None and check.correct is not None:
        parts.append(
            f"PROBLEM: {check.problem}\nSTUDENT'S ANSWER: {check.student_answer} "
            f"({'correct' if check.correct else 'incorrect'}; the answer is "
            f"{check.correct_answer})"
        )
    parts.append(f"CONTEXT:\n{packet.context}")
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": "\n\n".join(parts)},
    ]
