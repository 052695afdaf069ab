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

PROMPT_VERSION = "answer-v2"

SYSTEM_PROMPT = """You help a math tutor respond to a student. You are given the student's
message and a CONTEXT. The CONTEXT opens with what is known about the message (its topic,
the grade, whether the student's answer is right and what the right answer is, and the
diagnosis of the error), then lists curriculum items, each line starting with its id in
brackets. Treat what is known as facts; cite only the items.

Write a short answer for the tutor (not for the student): what the student most likely
misunderstands, how to explain the idea, and one example or practice question to use.
Use only facts stated in the CONTEXT. After each sentence that uses an item, cite it by
its id in square brackets exactly as written, for example [eedi:misconception:1667].
Cite only ids that appear in the CONTEXT. If the CONTEXT does not answer the message,
say so in one sentence instead of answering from your own knowledge."""


def answer_messages(packet: ReasoningPacket) -> list[ChatCompletionMessageParam]:
    """The chat messages for one packet: the system prompt, then the message and context
    (which states the answer check and the diagnosis itself, `retrieval/context.py`)."""
    parts = [f"STUDENT MESSAGE:\n{packet.query}", f"CONTEXT:\n{packet.context}"]
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": "\n\n".join(parts)},
    ]
