"""The answer prompt, in one place and versioned: change `PROMPT_VERSION` with the text.

In a dialogue (the request's `conversation`) the model is shown the latest turns before
the student's message, labelled TUTOR and STUDENT, one line each, oldest first: at most
`DIALOGUE_TURNS` turns and `DIALOGUE_TOKENS` tokens (`estimate_tokens`: the answer model's
tokenizer is not known here, so each symbol and each 4 characters of a word count one, high
for English and maths text); the latest turn is always shown, cut to its end if it alone is over.

>>> messages = answer_messages(packet)  # doctest: +SKIP
>>> messages[0]["role"]  # doctest: +SKIP
'system'
>>> print(dialogue_block([Turn(role="tutor", text="What is 7 + 6?")]))
DIALOGUE SO FAR (the latest 1 of 1 turns, oldest first):
TUTOR: What is 7 + 6?
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tutorgraph_client.models.conversation import Turn
from tutorgraph_client.models.packet import ReasoningPacket

if TYPE_CHECKING:  # the openai extra is needed only to call a model
    from openai.types.chat import ChatCompletionMessageParam

__all__ = [
    "DIALOGUE_TOKENS",
    "DIALOGUE_TURNS",
    "PROMPT_VERSION",
    "SYSTEM_PROMPT",
    "answer_messages",
    "dialogue_block",
    "estimate_tokens",
]

PROMPT_VERSION = "answer-v3"

# The dialogue the model sees: the latest turns only (the packet already read the whole
# conversation; the model needs what the message answers or asks about).
DIALOGUE_TURNS = 6
DIALOGUE_TOKENS = 300

SYSTEM_PROMPT = """You help a math tutor respond to a student. You are given the student's
message and a CONTEXT. The CONTEXT opens with what is known about the message (its topic,
the grade, whether the student's answer is right and what the right answer is, and the
diagnosis of the error), then lists curriculum items, each line starting with its id in
brackets. Treat what is known as facts; cite only the items. When a DIALOGUE SO FAR is
given, it holds the latest turns before the student's message, oldest first, each labelled
TUTOR or STUDENT: read the message as the next turn of that dialogue (a short reply answers
the tutor's last question); the dialogue is not a source of facts and is never cited.

Write a short answer for the tutor (not for the student): what the student most likely
misunderstands, how to explain the idea, and one example or practice question to use.
Use only facts stated in the CONTEXT. After each sentence that uses an item, cite it by
its id in square brackets exactly as written, for example [eedi:misconception:1667].
Cite only ids that appear in the CONTEXT. If the CONTEXT does not answer the message,
say so in one sentence instead of answering from your own knowledge."""


_PIECE = re.compile(r"\w+|[^\w\s]")
_LABEL = {"tutor": "TUTOR", "student": "STUDENT"}


def estimate_tokens(text: str) -> int:
    """Tokens, estimated high: a word one per 4 characters begun, any other symbol one.

    >>> estimate_tokens("What is 7 + 6?")
    6
    """
    return sum(-(-len(p) // 4) for p in _PIECE.findall(text))


def _line(turn: Turn) -> str:
    # One line per turn, so no turn's text can pass for another's label.
    return f"{_LABEL[turn.role]}: {' '.join(turn.text.split())}"


def _cut_to_end(line: str, label: str, budget: int) -> str:
    words = line.removeprefix(label).split()
    while len(words) > 1 and estimate_tokens(" ".join([label, "…", *words])) > budget:
        words = words[len(words) // 8 or 1 :]
    return f"{label} … {' '.join(words)}"


def dialogue_block(
    conversation: Sequence[Turn], *, turns: int = DIALOGUE_TURNS, tokens: int = DIALOGUE_TOKENS
) -> str | None:
    """The latest turns of the dialogue before the message, labelled, oldest first, within
    `turns` and `tokens`; None without a conversation."""
    if not conversation:
        return None
    lines: list[str] = []
    used = 0
    for turn in reversed(conversation[-turns:]):
        line = _line(turn)
        cost = estimate_tokens(line)
        if used + cost > tokens:
            if not lines:  # the latest turn is always shown: its end, what was just said
                lines.append(_cut_to_end(line, f"{_LABEL[turn.role]}:", tokens))
            break
        lines.append(line)
        used += cost
    head = f"DIALOGUE SO FAR (the latest {len(lines)} of {len(conversation)} turns, oldest first):"
    return "\n".join([head, *reversed(lines)])


def answer_messages(
    packet: ReasoningPacket, conversation: Sequence[Turn] = ()
) -> list[ChatCompletionMessageParam]:
    """The chat messages for one packet: the system prompt, then the dialogue so far (when
    the request had one), the message and the context (which states the answer check and the
    diagnosis itself, `retrieval/context.py`)."""
    dialogue = dialogue_block(conversation)
    parts = [f"STUDENT MESSAGE:\n{packet.query}", f"CONTEXT:\n{packet.context}"]
    if dialogue is not None:
        parts = [dialogue, f"STUDENT MESSAGE (the turn to answer):\n{packet.query}", parts[1]]
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": "\n\n".join(parts)},
    ]
