"""A request's facts, worked out once: the problem, the student's answer and where it came
from, the correct answer, and the numbers the message states.

Every stage after `facts` (route, search, diagnose) reads `RequestState.facts` instead of
working the answer out again. The precedence is one: the request's own fields first (an
app that knows the student's answer says so), then the math-message reader (it reads an
answer only when the message presents it as the student's: "I got 18", "is it 34?"),
then the refiner (an LLM refiner may read what the reader's rules do not; the local
refiner's answer is the reader's). A request's `problem` is read by the same reader as a
message: `problem="9 squared"` is the problem `9^2`, as in "what is 9 squared? I got 18".

>>> facts = request_facts(RetrievalRequest(query="what is 9 squared? I got 18"), None)
>>> facts.problem, facts.student_answer, facts.answer_source, facts.numbers
('9^2', '18', 'reader', ('9', '18'))
>>> facts = request_facts(RetrievalRequest(problem="9 squared", student_answer="18"), None)
>>> facts.problem, facts.student_answer, facts.answer_source
('9^2', '18', 'request')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tutorgraph.mathtext.spans import plain_text
from tutorgraph.models.refined_query import RefinedQuery
from tutorgraph.models.request import RetrievalRequest
from tutorgraph.refinement.expressions import tokens
from tutorgraph.refinement.reader import (
    MAX_READ_CHARS,
    MessageReading,
    answer_in,
    read_message,
)

__all__ = ["AnswerSource", "RequestFacts", "request_facts"]

AnswerSource = Literal["request", "reader", "refiner"]
# The numbers kept from a message (a student's message states a handful).
MAX_NUMBERS = 50


@dataclass(frozen=True)
class RequestFacts:
    """What the request states, read once (see the module's docstring).

    `problem`: the problem as the reader writes it (`9^2`), else the request's `problem` as
    given, else None; `problem_text`: the text the diagnosis reads it from (the request's
    `problem`, else the message); `student_answer` and `answer_source`: the student's answer
    and who gave it; `correct_answer`: the request's, else the one the message says is right
    ("the teacher got 18"); `numbers`: the numbers of the message as written, in order;
    `reading`: the reader's reading of `problem_text` (None for a text over
    `MAX_READ_CHARS`, which is not read)."""

    problem: str | None = None
    problem_text: str = ""
    student_answer: str | None = None
    answer_source: AnswerSource | None = None
    correct_answer: str | None = None
    numbers: tuple[str, ...] = ()
    reading: MessageReading | None = None

    @classmethod
    def given(cls, request: RetrievalRequest) -> RequestFacts:
        """The request's own fields only, nothing read (when the reading did not finish)."""
        return cls(
            problem=request.problem,
            problem_text=request.problem or request.query,
            student_answer=request.student_answer,
            answer_source="request" if request.student_answer else None,
            correct_answer=request.correct_answer,
        )


def request_facts(request: RetrievalRequest, refined: RefinedQuery | None) -> RequestFacts:
    """The request's facts (see the module's docstring). Pure and linear in the text; run it
    off the event loop for long texts (the reader is cached, so a second read is free)."""
    text = request.problem or request.query
    if len(text) > MAX_READ_CHARS:
        return RequestFacts.given(request)
    reading = read_message(text)
    answer: str | None = request.student_answer
    source: AnswerSource | None = "request" if answer else None
    if not answer and request.query != request.problem:
        # The message, never the stated problem: a number in the problem is not the answer.
        answer, source = answer_in(request.query), "reader"
    if not answer and refined is not None and refined.student_answer:
        answer, source = refined.student_answer, "refiner"
    right = reading.claimed_right
    # A worksheet's labelled layout is read as a stated problem is (`read_and_diagnose`).
    claimed = right.value if right is not None and not reading.labelled else None
    problem = reading.problem.value if reading.problem is not None else request.problem
    return RequestFacts(
        problem=problem,
        problem_text=text,
        student_answer=answer or None,
        answer_source=source if answer else None,
        correct_answer=request.correct_answer or claimed,
        numbers=tuple(t.text for t in tokens(plain_text(request.query)) if t.kind == "num")[
            :MAX_NUMBERS
        ],
        reading=reading,
    )
