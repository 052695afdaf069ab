"""What the packet reports of a request's dialogue (`ReasoningPacket.dialogue`): the problem
the answer check ran against and the turn it came from, the turn of the student's answer,
a help request or chit-chat, and the topic (`retrieval/topic.py`).

>>> dialogue_info(state).topic  # doctest: +SKIP
'carried'
"""

from __future__ import annotations

from tutorgraph.retrieval.state import RequestState
from tutorgraph.retrieval.topic import NEW_TOPIC, Topic
from tutorgraph_client.models.conversation import DialogueInfo

__all__ = ["dialogue_info"]


def dialogue_info(state: RequestState) -> DialogueInfo | None:
    """The packet's `dialogue` for a request whose stages have all run; None without a
    `conversation`. The request's own `problem` wins over the dialogue's (no turn then),
    and the student's answer is the latest turn's (or the request's `student_answer`)."""
    request, facts = state.request, state.facts
    if not request.conversation:
        return None
    turns = len(request.conversation)
    answer_turn = turns if facts.student_answer else None
    reading = facts.dialogue
    check = state.answer_check
    if reading is None:  # the facts were not read in time: the request's own fields only
        return DialogueInfo(turns=turns, problem=request.problem, student_answer_turn=answer_turn)
    problem_turn = None if request.problem is not None else reading.problem_turn
    problem = None
    if request.problem is not None or problem_turn is not None:
        problem = check.problem if check is not None and check.problem else facts.problem
    topic = state.topic or (NEW_TOPIC if not reading.window else Topic("carried", None))
    return DialogueInfo(
        turns=turns,
        problem=problem,
        problem_turn=problem_turn,
        student_answer_turn=answer_turn,
        # "can you help with fractions now" asks for a new topic, not help with this problem.
        help_request=reading.kind.help_request
        and not reading.kind.asks_topic
        and answer_turn is None,
        chit_chat=reading.kind.chit_chat,
        topic=topic.state,
        topic_standard=topic.standard,
    )
