"""A tutoring dialogue read once: the problem the student's latest turn is about and the turn
it came from, the session's recent maths turns (its topic), and what the latest turn is
(a help request, chit-chat, a problem or a topic of its own).

- **The problem** is the tutor's latest question that poses one (its last asking sentence
  with a problem the message reader reads, a word problem up to that question, or a
  question with a number: "Which is bigger, 3/4 or 2/3?"), or the problem the student
  asked about earlier ("what is 3/4 + 1/8? i got 4/12"), whichever is later; a problem the
  student stated without asking ("i got 4/12 for 3/4 + 1/8", or working: "3/6 + 2/6 =
  5/6") only when no question came before it. A tutor's question that follows up an
  earlier one (a hint or a step after a wrong answer: "Close! Try making a ten: 8 + 2 is
  10, and then how many are left from the 5?") keeps the earlier problem; praise ("Great!")
  or a new one named ("Now what is ...", "Next ...") brings a new problem.
  A tutor's turn that asks nothing ("Not quite: 7 x 6 = 42.") poses no problem, and the
  search stops at a student's turn that names a topic of its own ("can you help with
  fractions now"): what came before it is another topic.
- **The student's latest turn** (the request's `query`) states its own problem when the
  reader or the story reader finds one in it and it asks about it or brings it ("what
  about 8 x 7? is it 54", "next one is 8 x 70"), or the dialogue has none; it *stands
  alone* then, or when it names a maths topic the window does not ("what about
  decimals"), asks to move to one ("can you help with volume") or asks about a concept
  ("what is a line of symmetry"): the linker reads it alone, and
  the topic may change (a new topic drops the old topic's problem). Otherwise it leans on
  the dialogue ("12?", "so i times by 3?", "idk") and is read with the window.
- **The window** is the session's topic: the problem's turn and the last `WINDOW_TURNS`
  earlier turns that are not chit-chat, oldest first, each cut to its last
  `WINDOW_TURN_CHARS` characters (a question ends its turn), so the most recent turns
  weigh most. Empty when no earlier turn is maths: the topic is then new.

Tutor turns are only ever read for a problem, never for the student's answer (which the
facts step reads from the latest turn alone).

>>> turns = [Turn(role="tutor", text="Good. Now, what is 7 x 6?")]
>>> d = read_dialogue(turns, "48?")
>>> d.problem_text, d.problem_turn, d.stands_alone, d.window
('Now, what is 7 x 6?', 0, False, 'Good. Now, what is 7 x 6?')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from tutorgraph.mathtext.spans import plain_text
from tutorgraph.refinement.expressions import tokens
from tutorgraph.refinement.reader import read_message
from tutorgraph.refinement.replies import form_answer, is_option, offers_choice
from tutorgraph.refinement.story import read_story
from tutorgraph.refinement.turn_kinds import TurnKind, turn_kind
from tutorgraph_client.models.conversation import Turn

__all__ = ["WINDOW_TURNS", "WINDOW_TURN_CHARS", "DialogueReading", "read_dialogue"]

# The earlier turns the window keeps besides the problem's (the last two: the tutor's
# question and the student's last reply, in a tutoring exchange).
WINDOW_TURNS = 2
WINDOW_TURN_CHARS = 300
# What of an earlier turn is read for a problem: its last characters (a question ends its
# turn) and its last asking sentences, so that a conversation at its limits (50 turns,
# 20,000 characters) is read in time linear in its length.
READ_TURN_CHARS = 1000
_ASKING_SENTENCES = 3
# A sentence's end: ". ? !" and the spaces after it, or a line break.
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+|\n+")
# An imperative that poses a problem without a question mark ("Try 3/4 + 1/8.").
_POSES = re.compile(
    r"^\s*(?:(?:now|next|ok|okay|so|then|and)\s*[,:]?\s*)*(?:try|solve|find|work\s+out"
    r"|calculate|compute|simplify|estimate|evaluate|convert|round|write|add|subtract|multiply"
    r"|divide|compare|list|do|start\s+with|rewrite|factor|plot|order|put|name|sort|count"
    r"|use\s[^.?!]{0,60}?\bto\s+(?:rewrite|write|estimate|find|solve|show|make)"
    r"|what|how|which|can\s+you|could\s+you|tell\s+me)\b",
    re.IGNORECASE,
)
# A step told, not a problem set ("Divide them.", "Now add the 2 dimes."): its numbers, if
# any, are in the sentences before it.
_STEP = re.compile(
    r"^\s*(?:(?:now|next|ok|okay|so|then|and)\s*[,:]?\s*)*(?:divide|multiply|add|subtract|try"
    r"|start|do|take|undo|look)\b",
    re.IGNORECASE,
)
# A sentence that is a calculation after at most a few words ("Now 23 x 4.", "Now the
# square brackets: 6 + 5."): it poses that calculation.
_BARE_LEAD_WORDS = 4
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


@dataclass(frozen=True)
class DialogueReading:
    """What the dialogue says about its latest turn (see the module's docstring).

    `turns`: the earlier turns; `problem_text`: the text the problem is read from (None:
    none found) and `problem_turn` its turn (the latest turn's own, `turns`, when it states
    one); `kind`: the latest turn's `TurnKind`; `stands_alone`: it states its own problem
    or names a topic the window does not; `window`: the session's recent maths turns
    ("": the dialogue had no topic yet); `other_text` / `other_turn`: of a tutor's hint and
    the problem it follows up, the one that is not `problem_text`, which the latest turn
    may answer instead; `announced`: the problem's tutor turn says the topic changes ("Let's
    switch to shapes.") and this is the first reply to it."""

    turns: int
    problem_text: str | None
    problem_turn: int | None
    kind: TurnKind
    stands_alone: bool
    window: str
    other_text: str | None = None
    other_turn: int | None = None
    announced: bool = False

    def answering(self, text: str, turn: int) -> DialogueReading:
        """This reading with the latest turn answering `text` (of turn `turn`) and no other
        candidate: the facts step's choice between a hint and its problem, or the student's
        own example."""
        return replace(self, problem_text=text, problem_turn=turn, other_text=None, other_turn=None)

    @property
    def own_problem(self) -> bool:
        """The latest turn states its own problem."""
        return self.problem_turn == self.turns


def _poses(text: str) -> str | None:
    """The text of the problem a tutor's turn poses: its last asking sentence with a problem
    the reader reads, else the turn up to that sentence when it tells a word problem, else
    that sentence when it has a number (with the sentences before it that set its numbers:
    "A recipe uses 2 cups of flour for every 3 cups of milk. How much flour for 12 cups?"),
    else the turn when it asks and has numbers, else a question that offers a choice or asks
    about a maths word ("Is a cube flat or solid?", "What shape is a ball?"), else an
    equation set on its own ("One more: 2(x + 3) = 14."); None when it asks nothing with a
    number ("Are you sure? Try again.")."""
    sentences = [s for s in _SENTENCE_END.split(text[-READ_TURN_CHARS:]) if s.strip()]
    asking = [
        k
        for k, s in enumerate(sentences)
        if s.rstrip().endswith("?") or _POSES.match(s) or _bare_calculation(s)
    ]
    for k in reversed(asking[-_ASKING_SENTENCES:]):
        sentence = sentences[k]
        # A question and the lettered options after it ("... ? a) 3 b) 6 c) 72").
        options = [o.strip() for o in sentences[k + 1 :] if is_option(o)]
        if read_message(sentence).problem is not None:
            return " ".join([sentence.strip(), *options])
        # A word problem, from after the praise or working before it ("Yes, 9:12 is the
        # same ratio as 3:4. A recipe uses 4 cups of flour ...").
        story = " ".join(sentences[_after_remarks(sentences, k) : k + 1])
        if read_story(story) is not None:
            return story.strip()
        if _numbers(sentence):
            # A question about numbers the reader finds no calculation in ("Which is
            # bigger, 3/4 or 2/3?", "Write 0.7 as a fraction."): still the latest question,
            # with the sentences just before it that set numbers and work nothing out.
            first = k
            while first > 0 and _setting(sentences[first - 1]):
                first -= 1
            return " ".join([*(s.strip() for s in sentences[first : k + 1]), *options])
    if asking and _numbers(text) and not _STEP.match(sentences[asking[-1]]):
        # It asks, and its numbers are elsewhere ("How many cents is that? You have 3
        # quarters and 1 dime."): the turn is the question, from after its praise.
        return " ".join(s.strip() for s in sentences[_after_remarks(sentences, asking[-1]) :])
    for k in reversed(asking[-_ASKING_SENTENCES:]):
        if _wordy(sentences[k], sentences[k + 1 :]):
            # A question without numbers, from the sentences that set it ("Count the stars:
            # ★★★★★★★. How many stars?") to the questions and options after it ("How many
            # wheels does a bike have? And a car?").
            start = k
            while (
                start > 0
                and _POSES.match(sentences[start - 1])
                and not _remark(sentences[start - 1])
            ):
                start -= 1
            end = k + 1
            while end < len(sentences) and (
                sentences[end].rstrip().endswith("?") or is_option(sentences[end])
            ):
                end += 1
            return " ".join(s.strip() for s in sentences[start:end])
    if sentences and (equation := _EQUATION.fullmatch(sentences[-1].strip())):
        found = equation["equation"]
        if _VARIABLE.search(_TIMES.sub("*", found)) and not _WORDS.search(found):
            return found
    return None


def _wordy(sentence: str, after: Sequence[str]) -> bool:
    """A question or task without numbers that poses a problem: a choice ("Is a cube flat or
    solid?"; not "So, true or false?", which re-asks the one before), lettered options after
    it, a question about a maths word ("What shape is a ball?"), a count ("How many
    stars?"), or a task about a maths word ("Now write the equation of that line.")."""
    s = sentence.strip()
    if s.endswith("?"):
        worded = len(_WORD.findall(s.lower())) >= _CHOICE_WORDS
        return (
            (offers_choice(s) and worded)
            or any(is_option(o) for o in after)
            or (_POSES.match(s) is not None and turn_kind(s).maths)  # "What shape is a ball?"
            or _HOW_MANY.match(s) is not None
        )
    return _POSES.match(s) is not None and _STEP.match(s) is None and turn_kind(s).maths


def _bare_calculation(sentence: str) -> bool:
    """A sentence that is a calculation after at most `_BARE_LEAD_WORDS` words, with nothing
    after it and no result ("Now 23 x 4.", "Next: 6 + 5"; not "8 + 2 is 10.")."""
    read = read_message(sentence)
    if read.problem is None or read.student_answer is not None or "=" in sentence:
        return False
    lead, tail = sentence[: read.problem.start], sentence[read.problem.end :]
    return (
        len(_WORD.findall(lead.lower())) <= _BARE_LEAD_WORDS
        and not _numbers(lead)
        and not _WORD.search(tail.lower())  # "Check 4 x 2 again.": a step, not a problem
    )


def _after_remarks(sentences: Sequence[str], k: int) -> int:
    """Where the problem asked in sentence `k` starts: after the last praise or worked step
    before it (`_remark`)."""
    return max((j + 1 for j in range(k) if _remark(sentences[j])), default=0)


def _remark(sentence: str) -> bool:
    """Praise or a worked step: no part of the problem that follows it."""
    read = read_message(sentence)
    return (
        _PRAISE.match(sentence) is not None
        or "=" in sentence
        or (read.problem is not None and read.student_answer is not None)
    )


def _setting(sentence: str) -> bool:
    """A sentence that sets a word problem's numbers ("A bag has 3 red and 5 blue marbles.",
    "Ben buys 3 packs with 8 in each pack.") rather than working or praising ("So 8 + 2 is
    10.", "Good, 3/4 is 0.75.")."""
    # "7 stars.": the count confirmed, not a setting (a setting says more).
    told = read_message(sentence).student_answer is None or len(_WORD.findall(sentence)) >= 3
    return (
        _numbers(sentence)
        and told
        and not sentence.rstrip().endswith("?")
        and _RESULT_IN.search(sentence) is None
        and _PRAISE.match(sentence) is None
        and _STEP.match(sentence) is None  # "Look at the hundreds digit, 6."
    )


# A result stated: "8 + 2 is 10", "16 makes 8 pairs", "= 42".
_RESULT_IN = re.compile(
    r"(?:\b(?:is|are|makes|make|equals|gives)\b|=)\s*-?\d[\d.,/]*(?![\d:])", re.IGNORECASE
)


# A letter that is a variable once "7 x 6" is read as times ("2(x + 3)", "3a", "y - 4").
_VARIABLE = re.compile(r"(?<![a-z])[a-z](?![a-z])", re.IGNORECASE)
_TIMES = re.compile(r"(?<=\d)\s*[x×]\s*(?=\d)")
_WORDS = re.compile(r"[a-z]{2,}", re.IGNORECASE)

_CHOICE_WORDS = 5
# An equation set as the turn's last sentence, after at most a few words and a colon
# ("One more: 2(x + 3) = 14.", "3x - 4 = 11").
_EQUATION = re.compile(
    r"(?:[A-Za-z' ]{1,30}:\s*)?(?P<equation>[\w(][\w\s()+\-*/.^×÷−]*[+\-*/(×÷−]"
    r"[\w\s()+\-*/.^×÷−]*=\s*-?\d+(?:\.\d+)?)\.?",
)


def _numbers(text: str) -> bool:
    return any(t.kind == "num" for t in tokens(text))


def _states(text: str) -> bool:
    """A student's turn states a problem of its own: an expression, a word problem, or a
    question about numbers the reader finds no calculation in ("how many inches are in 4
    feet", "next question is area of a triangle base 10 height 6")."""
    return (
        read_message(text).problem is not None
        or read_story(text) is not None
        or _asks_about_numbers(text)
    )


def _asks_about_numbers(text: str) -> bool:
    plain = plain_text(text)
    if not _numbers(plain):
        # "how many corners does a triangle have": a count of a maths thing it names.
        return _HOW_MANY.search(plain) is not None and bool(turn_kind(plain).topics)
    if _BRINGS_OWN.search(plain) is not None:
        return True
    return len(_WORD.findall(plain.lower())) >= _QUESTION_WORDS and bool(_ASKS_ABOUT.match(plain))


def _stated(text: str) -> str | None:
    """An earlier student turn's own problem: the turn (its last `READ_TURN_CHARS`)."""
    tail = text[-READ_TURN_CHARS:]
    return tail if _states(tail) else None


_FILLERS = r"(?:(?:so|and|ok|okay|now|then|wait|next|um|hmm)[\s.,!]+)*"
_QUESTION_START = re.compile(
    _FILLERS + r"(?:what|whats|what's|how|why|is|are|does|do|can|could|which)\b", re.IGNORECASE
)
# A question about numbers: a question word first ("how many inches are in 4 feet"; not
# "is it 14"), in at least `_QUESTION_WORDS` words.
_ASKS_ABOUT = re.compile(
    _FILLERS + r"(?:what|whats|what's|how(?!\s+come)|which|find|can\s+(?:you|u)"
    r"|could\s+(?:you|u))\b",
    re.IGNORECASE,
)
_QUESTION_WORDS = 4
_HOW_MANY = re.compile(r"\bhow\s+(?:many|much)\b", re.IGNORECASE)
# Words that bring a problem of one's own in a question about numbers ("what about 1/3 and
# 1/8", "my hw has this: ..."), unlike "now" or "i have", which chit-chat says too.
_MY_WORK = r"my\s+(?:worksheet|homework|hw|sheet|teacher|book|test|quiz)"
_BRINGS_OWN = re.compile(
    r"\b(?:next\s+(?:one|question|problem)|new\s+(?:one|question|problem)|another\s+one"
    rf"|here'?s|what\s+about|how\s+about|this\s+one|{_MY_WORK})\b",
    re.IGNORECASE,
)
# A turn that brings a problem of its own ("next one is 8 x 70", "now i have 1/3 ÷ 2", "my
# worksheet says ...").
_INTRODUCES = re.compile(
    rf"\b(?:next|now|new|another|here'?s|i\s+have|what\s+about|this\s+one|{_MY_WORK})\b"
    r"|\bnext\s*[.:!]",
    re.IGNORECASE,
)
# A question about a concept ("what is a line of symmetry", "what does skip count mean",
# "how do you find the mean"): linked alone, then compared with the session's topic.
_CONCEPT_QUESTION = re.compile(
    _FILLERS + r"(?:(?:what\s+is|what'?s|whats)\s+(?:a|an|the)\b(?!\s+(?:reason|point|answer"
    r"|trick|rule|same|difference|next|other)\b)"
    r"|what\s+does\s+.{1,40}?\s+mean|how\s+do\s+(?:you|u|we)\s+(?:find|work\s+out|do|know))",
    re.IGNORECASE,
)


# "but why tho. 5 x 0 should be 5": a question about the problem in hand, not a new one.
_WHY = re.compile(
    r"^\s*(?:(?:but|so|ok|okay|wait|oh|and)\W+)*(?:why|y|how\s+come|wh?at'?s\s+the\s+reason)\b",
    re.IGNORECASE,
)
_LEADING_NUMBER = re.compile(r"^\s*-?\$?\d")
# A tutor's turn that says the topic changes ("Let's switch to shapes.", "Back to times
# tables: 6 x 8"): the first reply after it has a new topic.
_ANNOUNCES = re.compile(
    r"\b(?:let'?s\s+switch|switch(?:ing)?\s+to|new\s+topic|back\s+to|different\s+(?:kind|topic)"
    r"|change\s+(?:of\s+)?topic)\b",
    re.IGNORECASE,
)
# A tutor's turn that brings a new problem rather than following up the last one: praise
# first ("Great! What is 7 x 8?"), or a new one named ("Now what about ...", "Next ...").
_PRAISE = re.compile(
    r"^\s*(?:great|good(?:\s+job)?|yes|yep|sure|correct|right|nice|well\s+done|perfect|excellent"
    r"|awesome|exactly|that'?s\s+(?:right|correct|it)|you\s+got\s+it|super|brilliant)\b",
    re.IGNORECASE,
)
_NEW_PROBLEM = re.compile(
    r"\b(?:next|another|new\s+one|here'?s|what\s+about|let'?s\s+try|try\s+this"
    r"|now[,\s]+(?:what|try|solve|find|can|could|how|work|let'?s|do|here))\b",
    re.IGNORECASE,
)


def _follows_up(later: str) -> bool:
    """A tutor's question follows up the problem before it (a hint, a step: "Close! Try
    making a ten: 8 + 2 is 10, and then how many are left from the 5?") rather than bringing
    a new one: no praise first, and no new problem named."""
    return _PRAISE.match(later) is None and _NEW_PROBLEM.search(later) is None


def _first_posed(
    conversation: Sequence[Turn], kinds: Sequence[TurnKind], text: str, turn: int
) -> tuple[str, int]:
    """A calculation a tutor's question poses, from the first turn that posed it ("What is 7
    x 6?" asked again after a hint is still turn 0's); any other question as it is."""
    if not _fresh(text):
        return text, turn
    asked = read_message(text).problem
    for i in range(turn - 1, -1, -1):
        earlier = conversation[i]
        if earlier.role == "student" and (kinds[i].asks_topic or kinds[i].chit_chat):
            break
        posed = _poses(earlier.text) if earlier.role == "tutor" else None
        first = read_message(posed).problem if posed is not None else None
        if first is not None and asked is not None and first.value == asked.value:
            text, turn = posed or text, i
    return text, turn


def _followed(
    conversation: Sequence[Turn],
    kinds: Sequence[TurnKind],
    text: str,
    turn: int,
    *,
    told: bool = False,
) -> tuple[str, int]:
    """The problem a tutor's question at `turn` follows up: back through the tutor's
    follow-ups (hints and steps after the student's attempt) to the question that posed it,
    or to the student's own question before them. A tutor's turn on the way that praises or
    names a new problem ("Great job!", "Let's try another.") ends the walk, as does a
    student's topic or chit-chat. The question itself when it follows up nothing. A step
    `told` ("Good. Now add the 2 dimes.") praises the last step, not a finished problem."""
    latest = conversation[turn].text
    new = _NEW_PROBLEM.search(latest) is not None if told else not _follows_up(latest)
    for i in range(turn - 1, -1, -1):
        earlier = conversation[i]
        if earlier.role == "student":
            own = _stated(earlier.text)
            if kinds[i].asks_topic or (own is not None and _brings(earlier.text)):
                if own is not None and not new:
                    text, turn = own, i
                break
            if kinds[i].chit_chat:
                break  # the tutor's question steers back after chit-chat: a problem of its own
            continue
        posed = _poses(earlier.text)
        if new:
            break
        if posed is None:
            new = not _follows_up(earlier.text)
            continue
        text, turn = posed, i
        new = not _follows_up(earlier.text)
    return text, turn


def _unfinished(
    conversation: Sequence[Turn], kinds: Sequence[TurnKind], turn: int
) -> tuple[str, int] | None:
    """The tutor's problem before the question at `turn`, when it was not answered and
    praised (`_done`) before that question ("What is 23 x 14?" answered 112, then "You did
    23 x 4 right. Now what about 23 x 10?"); None past a student's own problem, topic or
    chit-chat."""
    for i in range(turn - 1, -1, -1):
        earlier = conversation[i]
        if earlier.role == "student":
            if kinds[i].asks_topic or kinds[i].chit_chat or _stated(earlier.text):
                return None
            continue
        if _PRAISE.match(earlier.text):
            return None  # the problem before it was praised: finished
        posed = _poses(earlier.text)
        if posed is not None:
            return None if _done(conversation[:turn], kinds, i) else (posed, i)
    return None


def _done(conversation: Sequence[Turn], kinds: Sequence[TurnKind], turn: int) -> bool:
    """The tutor's question at `turn` was answered and the answer praised, with nothing new
    asked ("75" then "Yes, now add the dime."): what it followed up is the problem again."""
    answered = False
    for i in range(turn + 1, len(conversation)):
        later = conversation[i]
        if later.role == "student":
            answered = answered or (kinds[i].maths and not kinds[i].help_request)
        elif answered and _PRAISE.match(later.text) and _poses(later.text) is None:
            return True
    return False


# A worked step's result stated after its calculation ("8 + 2 is 10, and then ...").
_RESULT = re.compile(r"^\s*(?:is|=|makes|equals|gives)\s*-?\d", re.IGNORECASE)


def _fresh(posed: str) -> bool:
    """A tutor's question poses a calculation of its own ("What's 25 + 25 + 25?", "Try 9 x
    6."): the problem, whatever came before; not one that states its result ("8 + 2 is
    10, and then how many are left?") or asks about a value it names ("does 38 + 26 make
    52?"), which follow up the problem before."""
    read = read_message(posed)
    if read.problem is None or read.student_answer is not None or read.asks:
        return False
    return _RESULT.match(posed[read.problem.end :]) is None


def _asks(text: str) -> bool:
    """The turn asks something: a question mark, or a question's first word."""
    return "?" in text or _QUESTION_START.match(text) is not None


def _brings(text: str) -> bool:
    """A student's turn asks about its problem or brings it ("next one is 8 x 70")."""
    return _asks(text) or _INTRODUCES.search(text) is not None


# A problem whose answer is written as a calculation ("in expanded form", "3^2 x 3^3").
_WRITES = re.compile(r"\b(?:write|expanded|expression|notation|form|product|sum)\b|\^", re.I)


def _new_calculation(query: str, problem: str) -> bool:
    """The latest turn is a calculation and nothing else, of numbers the dialogue's problem
    does not have ("45 ÷ 9" after "How far did she walk?"): a new problem brought."""
    read = read_message(query)
    if read.problem is None or read.student_answer is not None or _WRITES.search(problem):
        return False  # "4.5 x 10^4" for "Write 45,000 in scientific notation.": an answer
    if form_answer(query, problem) is not None:
        return False  # "6 x 10^8": an answer in a form of its own
    rest = query[: read.problem.start] + query[read.problem.end :]
    if _WORD.search(rest.lower()):
        return False  # "so 4 x 2": working
    had = {t.text for t in tokens(problem) if t.kind == "num"}
    return not {t.text for t in tokens(query) if t.kind == "num"} <= had


def _help_with(kind: TurnKind) -> bool:
    """A help request that names the problem's topic ("i dont get slope"), not a new one."""
    return kind.help_request and not kind.asks_topic


def _tail(text: str) -> str:
    return text if len(text) <= WINDOW_TURN_CHARS else text[-WINDOW_TURN_CHARS:]


def read_dialogue(conversation: Sequence[Turn], query: str) -> DialogueReading:
    """The dialogue's reading of its latest turn, `query`, after the earlier turns
    `conversation` (oldest first; see the module's docstring). Pure; each turn is read by
    the message reader at most twice (it is cached)."""
    n = len(conversation)
    kind = turn_kind(query)
    kinds = [turn_kind(t.text) for t in conversation]
    problem_text: str | None = None
    problem_turn: int | None = None
    # A student's problem stated without a question ("i got 4/12 for 3/4 + 1/8") may be
    # working towards the tutor's: it is the problem only when no question came before.
    stated: tuple[str, int] | None = None
    for i in range(n - 1, -1, -1):
        turn = conversation[i]
        if turn.role == "tutor":
            found = _poses(turn.text)
        elif kinds[i].chit_chat:
            continue
        else:
            found = _stated(turn.text)
            if found is not None and not _brings(found):
                stated, found = stated or (found, i), None
            elif (
                found is None
                and (kinds[i].topics or kinds[i].asks_topic)
                and not _help_with(kinds[i])
            ):
                break  # a topic of its own: the problems before it are another topic's
        if found is not None:
            problem_text, problem_turn = found, i
            break
    other: tuple[str, int] | None = None
    if (
        problem_turn is not None
        and problem_text is not None
        and conversation[problem_turn].role == "tutor"
    ):
        problem_text, problem_turn = _first_posed(conversation, kinds, problem_text, problem_turn)
        told = "?" not in problem_text and not _fresh(problem_text)
        step = told and _STEP.match(_SENTENCE_END.split(problem_text.strip())[-1]) is not None
        earlier = _followed(conversation, kinds, problem_text, problem_turn, told=step)
        if earlier[1] == problem_turn:
            # A question named new ("Now what about 23 x 10?") may still be a step of an
            # unfinished problem before it, which the reply may answer instead.
            before = _unfinished(conversation, kinds, problem_turn)
            if before is not None and _done(conversation, kinds, problem_turn):
                problem_text, problem_turn = before
            elif before is not None:
                other = before
        elif told or _done(conversation, kinds, problem_turn):
            # A step told ("Try counting back from 13.", "Now add the dime."), or a hint
            # answered and praised: the problem it serves is the one to check.
            problem_text, problem_turn = earlier
        elif _fresh(problem_text):
            # A calculation asked ("What's 25 + 25 + 25?"): the problem, unless the
            # reply answers the earlier one (the facts step decides: `other_text`).
            other = earlier
        else:
            # A hint asked ("Can you divide both by the same number?"): the earlier
            # problem, unless the reply answers the hint ("12 ÷ 3" asked as "How many
            # groups of 3 are in 12?").
            other = (problem_text, problem_turn)
            problem_text, problem_turn = earlier
    if problem_text is None and stated is not None:
        problem_text, problem_turn = stated
    if (
        not kind.chit_chat
        and _states(query)
        and (problem_text is None or _WHY.match(query) is None)
        and (problem_text is None or _brings(query) or _new_calculation(query, problem_text))
    ):
        # Its own problem: a new one it asks about ("what about 8 x 7? is it 54"), not its
        # working towards the dialogue's ("3/6 + 2/6 = 5/6" after "what is 1/2 + 1/3?").
        problem_text, problem_turn = query, n
    recent = [i for i in range(n) if not kinds[i].chit_chat][-WINDOW_TURNS:]
    if problem_turn is not None and problem_turn < n:
        recent = sorted({problem_turn, *recent})
    maths = any(k.maths for k in kinds)
    window = " ".join(_tail(conversation[i].text) for i in recent) if maths else ""
    seen = {t for i in recent for t in kinds[i].topics}
    # A short answer naming a topic word ("2 o clock", "an outlier") answers the problem.
    answers = (
        problem_text is not None
        and "?" not in query
        and (len(_WORD.findall(query)) <= 2 or _LEADING_NUMBER.match(query) is not None)
    )
    new_topic = problem_turn != n and (
        kind.asks_topic
        or (any(t not in seen for t in kind.topics) and not answers)
        or _CONCEPT_QUESTION.match(query) is not None
    )
    if problem_turn == n or new_topic:
        other = None
    if new_topic:
        problem_text = problem_turn = None  # the old topic's problem is not this turn's
    return DialogueReading(
        turns=n,
        problem_text=problem_text,
        problem_turn=problem_turn,
        kind=kind,
        stands_alone=problem_turn == n or new_topic,
        window=window,
        other_text=other[0] if other else None,
        other_turn=other[1] if other else None,
        announced=_announced(conversation, kinds, problem_turn),
    )


def _announced(conversation: Sequence[Turn], kinds: Sequence[TurnKind], turn: int | None) -> bool:
    """The tutor's turn `turn` says the topic changes, and no maths reply came after it."""
    if turn is None or turn >= len(conversation) or conversation[turn].role != "tutor":
        return False
    replied = any(
        conversation[i].role == "student" and kinds[i].maths
        for i in range(turn + 1, len(conversation))
    )
    return not replied and _ANNOUNCES.search(conversation[turn].text) is not None
