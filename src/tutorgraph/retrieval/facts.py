"""A request's facts, worked out once: the problem, the student's answer and where it came
from, the correct answer, and the numbers the message states.

Every stage after `facts` (route, search, diagnose) reads `RequestState.facts` instead of
working the answer out again. The precedence is one: the request's own fields first (an
app that knows the student's answer says so), then the math-message reader (it reads an
answer only when the message presents it as the student's: "I got 18", "is it 34?"),
then the refiner (an LLM refiner may read what the reader's rules do not; the local
refiner's answer is the reader's). A request's `problem` is read by the same reader as a
message: `problem="9 squared"` is the problem `9^2`, as in "what is 9 squared? I got 18".

A word problem states no calculation for the reader to find: when the reader finds no
problem, the story reader (`refinement/story.py`) reads the story's mathematics, and the
problem is the calculation that finds its unknown ("had 24 and gave away 9" is `24 - 9`).
The diagnosis reads it (`problem_text`), or, where the unknown is the change or the start,
the story's equation ("had 8, how many more to make 15" is `8 + ? = 15`), whose rules
explain the answer of a student who does the story's operation (8 + 15 = 23). A number of
the story is not the student's answer ("how many more to make 15?" states no answer).

>>> facts = request_facts(RetrievalRequest(query="what is 9 squared? I got 18"), None)
>>> facts.problem, facts.student_answer, facts.answer_source, facts.numbers
('9^2', '18', 'reader', ('9', '18'))
>>> facts = request_facts(RetrievalRequest(problem="9 squared", student_answer="18"), None)
>>> facts.problem, facts.student_answer, facts.answer_source
('9^2', '18', 'request')
>>> message = "Sam had 24 stickers and gave away 9. How many are left? I got 25"
>>> facts = request_facts(RetrievalRequest(query=message), None)
>>> facts.problem, facts.problem_text, facts.student_answer, facts.story.unknown
('24 - 9', '24 - 9', '25', 'result')

In a dialogue (the request's `conversation`, `refinement/dialogue.py`), the problem is the
tutor's latest question or the problem the student stated earlier, read as if the app had
sent it as `problem` (the request's own `problem` and `student_answer` still win); the
student's answer is read from the latest turn alone, never from a tutor's. A turn that
leans on the dialogue ("12?", "idk") is searched and linked with the session's window
before it; chit-chat with the window alone, so the concepts stay the session's.

>>> turns = [Turn(role="tutor", text="What is 7 + 6?")]
>>> facts = request_facts(RetrievalRequest(query="12?", conversation=turns), None)
>>> facts.problem, facts.student_answer, facts.given_problem, facts.link_text
('7 + 6', '12', 'What is 7 + 6?', 'What is 7 + 6?\\n12?')
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from tutorgraph.mathtext.spans import plain_text
from tutorgraph.refinement.dialogue import DialogueReading, read_dialogue
from tutorgraph.refinement.expressions import tokens
from tutorgraph.refinement.reader import (
    MAX_READ_CHARS,
    MessageReading,
    answer_in,
    read_message,
)
from tutorgraph.refinement.replies import (
    bare_answer,
    choice_answer,
    final_answer,
    form_answer,
    word_answer,
)
from tutorgraph.refinement.story import Story, read_story
from tutorgraph.refinement.turn_kinds import TurnKind
from tutorgraph_client.models.refined_query import RefinedQuery
from tutorgraph_client.models.request import RetrievalRequest, Turn

if TYPE_CHECKING:
    from tutorgraph.diagnosis.diagnose import Diagnoser

__all__ = ["AnswerSource", "RequestFacts", "Turn", "diagnosed_text", "request_facts"]

AnswerSource = Literal["request", "reader", "refiner"]
# The numbers kept from a message (a student's message states a handful).
MAX_NUMBERS = 50


@dataclass(frozen=True)
class RequestFacts:
    """What the request states, read once (see the module's docstring).

    `problem`: the problem as the reader writes it (`9^2`), else the request's `problem` as
    given, else None; where the reader reads none and the text tells a word problem, the
    story's calculation (`story.expression`); `problem_text`: the text the diagnosis reads it
    from (the request's `problem`, else the message; for a story, `diagnosed_text`);
    `student_answer` and `answer_source`: the student's answer and who gave it;
    `correct_answer`: the request's, else the one the message says is right ("the teacher
    got 18"); `numbers`: the numbers of the message as written, in order; `reading`: the
    reader's reading of the request's `problem`, else the message (None for a text over
    `MAX_READ_CHARS`, which is not read); `story`: the word problem's mathematics
    (`refinement/story.py`). The texts the stages read, worked out here once: the dense and
    lexical searches read `search_text` (the refiner's rewrite, else the message), the linker
    and the scope model `link_text` (the message and the request's problem, as given), the
    scope model embeds `scope_text` (the message as typed) when `rewritten` says it differs
    from `search_text`. `given_problem`: the problem as stated, the request's or the
    dialogue's (what the diagnosis and the ranker read as a stated problem); `dialogue`:
    the reading of the request's `conversation` (None without one)."""

    problem: str | None = None
    problem_text: str = ""
    student_answer: str | None = None
    answer_source: AnswerSource | None = None
    correct_answer: str | None = None
    numbers: tuple[str, ...] = ()
    reading: MessageReading | None = None
    story: Story | None = None
    search_text: str = ""
    link_text: str = ""
    rewritten: bool = False
    scope_text: str = ""
    given_problem: str | None = None
    dialogue: DialogueReading | None = None

    @classmethod
    def given(cls, request: RetrievalRequest, refined: RefinedQuery | None = None) -> RequestFacts:
        """The request's own fields only, nothing read (when the reading did not finish),
        and the texts the stages read."""
        return cls(
            problem=request.problem,
            problem_text=request.problem or request.query,
            student_answer=request.student_answer,
            answer_source="request" if request.student_answer else None,
            correct_answer=request.correct_answer,
            given_problem=request.problem,
            **_texts(request, refined),
        )


def _texts(request: RetrievalRequest, refined: RefinedQuery | None) -> dict[str, Any]:
    """`RequestFacts`' texts: `search_text`, `link_text` and `rewritten`."""
    search = refined.optimized_query if refined is not None else request.query
    return {
        "search_text": search,
        "link_text": " ".join(t for t in (request.query, request.problem) if t),
        "rewritten": search != request.query,
        "scope_text": request.query,
    }


def _dialogue_texts(
    request: RetrievalRequest, refined: RefinedQuery | None, dialogue: DialogueReading
) -> dict[str, Any]:
    """The texts of a turn that leans on the dialogue: the window, then the turn (chit-chat:
    the window alone); a turn that stands alone, or a dialogue without a topic yet, keeps
    its own (`_texts`)."""
    window = dialogue.window
    if dialogue.stands_alone or not window:
        return _texts(request, refined)
    search = refined.optimized_query if refined is not None else request.query
    if dialogue.kind.chit_chat:
        link, search = window, window
    else:
        link, search = f"{window}\n{request.query}", f"{window}\n{search}"
    link = " ".join(t for t in (link, request.problem) if t)
    return {
        "search_text": search,
        "link_text": link,
        "rewritten": search != link,
        "scope_text": link,
    }


def diagnosed_text(story: Story) -> str:
    """What the diagnosis reads of a story: its equation where the unknown is the change or
    the start (`8 + ? = 15`: the equation reader's missing-number rules explain 23; its
    reader takes no fraction there), else the calculation that finds the unknown."""
    if story.unknown in ("change", "start") and not any("/" in n for n in story.numbers):
        return story.equation
    return story.expression


def _not_the_storys(
    answer: str | None, story: Story | None, numbers: tuple[str, ...]
) -> str | None:
    """The answer read from the message, unless it is a number of the story said once ("how
    many more to make 15" states no answer; "gave away 9 ... I got 9" does)."""
    if story is not None and answer in story.numbers and numbers.count(answer) < 2:
        return None
    return answer


def request_facts(request: RetrievalRequest, refined: RefinedQuery | None) -> RequestFacts:
    """The request's facts (see the module's docstring). Pure and linear in the text; run it
    off the event loop for long texts (the reader is cached, so a second read is free)."""
    if not request.conversation:
        return _facts(request, refined)
    dialogue = read_dialogue(request.conversation, request.query)
    problem = request.problem
    given = dialogue.problem_text
    if (
        problem is None
        and given is not None
        and not dialogue.own_problem
        and _own_example(request.query, given)
    ):
        dialogue = dialogue.answering(request.query, dialogue.turns)
    if problem is None and dialogue.problem_text is not None and not dialogue.own_problem:
        facts = _reply_facts(request, refined, dialogue.problem_text, dialogue.kind)
        problem = dialogue.problem_text
        other, other_turn = dialogue.other_text, dialogue.other_turn
        if (
            other is not None
            and other_turn is not None
            and _answers(request, refined, other, problem, facts)
        ):
            facts = _reply_facts(request, refined, other, dialogue.kind)
            problem = other
            dialogue = dialogue.answering(other, other_turn)
    else:
        facts = _facts(request, refined)
    texts = _dialogue_texts(request, refined, dialogue)
    return replace(facts, given_problem=problem, dialogue=dialogue, **texts)


def _own_example(query: str, problem: str) -> bool:
    """The latest turn states a calculation and its result of numbers the problem does not
    have, and the problem is one the rules solve and the result is not its answer: an example
    of its own ("so 2^5 is 32" after 3^4), not working towards the problem ("3/6 + 2/6 =
    5/6" for 1/2 + 1/3, "6/2 = 3" for a slope)."""
    read = read_message(query)
    if read.problem is None or read.student_answer is None:
        return False
    final = final_answer(query)
    if final is not None and final != read.student_answer.value:
        return False  # working on to a result ("40+20=60 and 7+8=15 so 60+15 = 75")
    had = {t.text for t in tokens(plain_text(problem)) if t.kind == "num"}
    stated = {t.text for t in tokens(read.problem.value) if t.kind == "num"}
    return not stated <= had and _checked(problem, read.student_answer.value) is False


def _reply_facts(
    request: RetrievalRequest, refined: RefinedQuery | None, problem: str, kind: TurnKind
) -> RequestFacts:
    """The latest turn read as a reply to `problem`, as if the app had sent it as the
    request's `problem`: the answer comes from the latest turn alone."""
    facts = _facts(request.model_copy(update={"problem": problem}), refined)
    if kind.help_request or kind.chit_chat:
        return facts
    # The choice the reply names ("so odd"), an answer in a form of its own ("23 r 3") or the
    # number it ends on ("no its 64. is it 14"); else, when the reader reads no answer in it,
    # a word ("a sphere") or its last number ("oh 56") (`refinement/replies.py`).
    query = request.query
    said = choice_answer(query, problem) or form_answer(query, problem) or final_answer(query)
    if said is None and facts.student_answer is None:
        said = word_answer(query, problem) or bare_answer(query)
    if said is not None:
        facts = replace(facts, student_answer=said, answer_source="reader")
    return facts


def _answers(
    request: RetrievalRequest,
    refined: RefinedQuery | None,
    other: str,
    problem: str,
    facts: RequestFacts,
) -> bool:
    """The reply answers `other` (a hint, or the problem a hint follows up) rather than
    `problem`: it names one of other's choices and none of problem's ("theres one left over
    so odd" for "Is 17 odd or even?" after "What about 17?"), or its answer is right for
    other and not for problem ("40 + 8 = 48" for 6 x 8 after "Do you know 5 x 8?")."""
    if choice_answer(request.query, problem) is None and choice_answer(request.query, other):
        return True
    answer = facts.student_answer or _reply_facts(request, refined, other, _REPLY).student_answer
    return answer is not None and _right(other, answer) and not _right(problem, answer)


# How a hint's reply is read when only its answer is wanted.
_REPLY = TurnKind(maths=True, help_request=False, chit_chat=False, topics=(), asks_topic=False)


@functools.lru_cache(maxsize=1)
def _diagnoser() -> Diagnoser:
    # Imported here: the request's state carries facts, and knows no model (the rules).
    from tutorgraph.diagnosis.diagnose import Diagnoser

    return Diagnoser.bundled()


def _right(problem: str, answer: str) -> bool:
    """The bug rules solve `problem` and `answer` is its right answer."""
    return _checked(problem, answer) is True


def _checked(problem: str, answer: str) -> bool | None:
    """Whether `answer` is right for `problem`, as the bug rules solve its first reading that
    they decide (the reader's calculation, `find_problem`'s, a word problem's); None when
    they solve none."""
    from tutorgraph.diagnosis.problem import find_problem

    reading = read_message(problem).problem
    story = read_story(problem)
    candidates = [
        reading.value if reading is not None else None,
        find_problem(problem, student_answer=answer),
        story.expression if story is not None else None,
    ]
    for candidate in dict.fromkeys(c for c in candidates if c is not None):
        correct = _diagnoser().diagnose(candidate, answer).correct
        if correct is not None:
            return correct
    return None


def _facts(request: RetrievalRequest, refined: RefinedQuery | None) -> RequestFacts:
    """The facts of one message (and the request's own fields)."""
    text = request.problem or request.query
    if len(text) > MAX_READ_CHARS:
        return RequestFacts.given(request, refined)
    reading = read_message(text)
    # A word problem ("had 24 and gave away 9") where the reader finds no calculation.
    story = read_story(text) if reading.problem is None else None
    # A number of the story is no answer; a story the caller states as `problem` has no
    # numbers in the message, which the answer is read from.
    told = story if request.problem is None else None
    numbers = tuple(t.text for t in tokens(plain_text(request.query)) if t.kind == "num")
    answer: str | None = request.student_answer
    source: AnswerSource | None = "request" if answer else None
    if not answer and request.query != request.problem:
        # The message, never the stated problem: a number in the problem is not the answer.
        answer, source = _not_the_storys(answer_in(request.query), told, numbers), "reader"
    if not answer and refined is not None and refined.student_answer:
        answer, source = _not_the_storys(refined.student_answer, told, numbers), "refiner"
    right = reading.claimed_right
    # A worksheet's labelled layout is read as a stated problem is (`read_and_diagnose`).
    claimed = right.value if right is not None and not reading.labelled else None
    problem = reading.problem.value if reading.problem is not None else request.problem
    if story is not None:
        problem, text = story.expression, diagnosed_text(story)
    return RequestFacts(
        problem=problem,
        problem_text=text,
        student_answer=answer or None,
        answer_source=source if answer else None,
        correct_answer=request.correct_answer or claimed,
        numbers=numbers[:MAX_NUMBERS],
        reading=reading,
        story=story,
        given_problem=request.problem,
        **_texts(request, refined),
    )
