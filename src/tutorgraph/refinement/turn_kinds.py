"""What kind of turn a tutoring dialogue's turn is: maths, a request for help, a maths topic
named, or chit-chat (a social turn, a request to stop, an off-topic remark).

Small word rules, no model: a turn is *maths* when it states a number (in digits or words),
an operation or a word of school maths; a *help request* asks for help without giving an
answer ("idk", "i don't get it", "can you help"); *chit-chat* states no maths and either
says something social or about stopping ("brb", "lol ok", "can i go now"), only
acknowledges ("ok got it", "k", "cool"), or is a remark of three words or more with none of
the moves a maths turn makes without maths words (agreeing, "why?", "what do you mean",
picking "the second one"): "i lost a tooth today". The rules lean towards maths: a turn
with any maths word is never chit-chat, since flagging a maths turn costs the student an
answer, and an unflagged remark only a search. They were written from the issue's examples
and checked against the development third of the dialogue set (`bench dialogue`), never
its held-out third.

>>> turn_kind("brb").chit_chat, turn_kind("12?").chit_chat, turn_kind("idk").help_request
(True, False, True)
>>> turn_kind("can you help with fractions now").topics
('fraction',)
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from tutorgraph.mathtext.spans import plain_text
from tutorgraph.refinement.expressions import tokens
from tutorgraph.refinement.number_words import number_value

__all__ = ["TurnKind", "turn_kind"]

_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")

# Words of school maths, by the topic they name (singular first): a turn naming one states
# a topic, and a topic not named in the dialogue before moves it (`retrieval/dialogue.py`).
_TOPICS: dict[str, tuple[str, ...]] = {
    "fraction": ("fraction", "fractions", "numerator", "numerators", "denominator",
                 "denominators", "halves", "thirds", "quarters", "fourths", "eighths"),
    "decimal": ("decimal", "decimals", "tenths", "hundredths"),
    "percent": ("percent", "percentage", "percentages"),
    "ratio": ("ratio", "ratios", "rate", "rates", "proportion", "proportions"),
    "addition": ("addition", "adding"),
    "subtraction": ("subtraction", "subtracting", "borrowing", "regrouping"),
    "multiplication": ("multiplication", "multiplying", "timestables"),
    "division": ("division", "dividing", "quotient", "quotients", "remainder", "remainders"),
    "place value": ("place", "digit", "digits", "rounding"),
    "geometry": ("area", "perimeter", "volume", "angle", "angles", "triangle", "triangles",
                 "rectangle", "rectangles", "circle", "circles", "shape", "shapes",
                 "polygon", "polygons", "prism", "prisms"),
    "measurement": ("measurement", "measuring", "length", "inches", "feet", "meters",
                    "centimeters", "grams", "kilograms", "liters", "clock", "money", "coins"),
    "algebra": ("equation", "equations", "variable", "variables", "expression",
                "expressions", "exponent", "exponents", "inequality", "inequalities",
                "slope", "function", "functions"),
    "integers": ("integer", "integers", "negatives"),
    "statistics": ("median", "mode", "average", "averages", "graph", "graphs", "chart",
                   "charts", "probability", "data", "plot", "plots", "scatter", "association",
                   "correlation", "outlier", "outliers", "trend"),
}  # fmt: skip
# "one" and "a" are rarely a number in a turn ("the second one").
_NOT_NUMBERS = frozenset(("one", "a", "an"))
_TOPIC_OF = {w: topic for topic, words in _TOPICS.items() for w in words}
# Maths words that name no topic of their own.
_MATHS = frozenset(
    """
    answer answers number numbers problem problems question questions equal equals
    calculate count counting step steps carry left total each altogether
    add plus sum minus subtract difference times multiply product divide divided share
    borrow regroup round square squared cube cubed power powers negative positive solve
    measure tops bottoms top bottom
    bigger smaller greater less more most fewer half third quarter twice double even odd
    multiple multiples factor factors prime simplify simplest common whole
    """.split()  # noqa: SIM905 - a word list reads better as prose
)
# Asking for help, not answering: "idk", "i don't get it", "can you help", "i'm stuck",
# "what does skip count mean", "whats perimeter" (what a word means), "what formula".
_HELP = re.compile(
    r"\b(?:idk|dunno|no\s+idea|not\s+sure|i\s+(?:do\s*n[o']?t|dont|don't|didn'?t|didnt)\s+"
    r"(?:know|get|understand|remember)|(?:i'?m|im|i\s+am)\s+(?:stuck|lost|confused)"
    r"|i\s+(?:can'?t|cant|cannot)\s+do|confus(?:ed|ing)|stuck|help|hint|explain|show\s+me"
    r"|w(?:h)?at\s+do\s+i\s+do|how\s+do\s+(?:i|you|u|we)|where\s+(?:do\s+i\s+|to\s+)start"
    r"|what\s+do\s+(?:you|u)\s+mean|what\s+does\s+.{1,40}?\s+mean|what\s+formula|huh"
    r"|wait\s+what)\b"
    r"|^\s*(?:what'?s|whats|what\s+is|wat\s+is)\s+(?:a\s+|an\s+)?[a-z]+\s*\??\s*$",
)
# Asking to move to a topic ("can you help with fractions now"): a new topic, not help
# with the problem in hand.
_TOPIC_REQUEST = re.compile(
    r"\bhelp\s+(?:me\s+|us\s+)?with\s+(?!(?:this|it|that|the|these|those|one|my|them)\b)"
    r"|\b(?:can|could)\s+(?:we|you|u)\s+do\s+(?!(?:this|it|that|another|one|more)\b)"
    r"|\b(?:do|doing)\s+[a-z]+(?:\s+[a-z]+)?\s+instead\b"
    r"|\bwhat\s+about\s+(?!(?:this|it|that|the|one)\b)|\bwork\s+on\s+(?!(?:this|it)\b)"
    r"|\b(?:new|different|another)\s+topic\b|\bswitch\s+to\b"
)
# Leaving, or the time: chit-chat even beside a word of confusion ("wait what time is it").
_LEAVING = re.compile(
    r"\b(?:brb|gtg|g2g|bye|goodbye|cya|what\s+time\s+is\s+it|(?:gotta|got\s+to|have\s+to"
    r"|need\s+to|wanna|want\s+to)\s+go|can\s+i\s+go)\b"
)
# Acknowledgements and reactions with nothing else: chit-chat ("ok got it", "k", "cool").
# "yes" and "no" are not among them: they answer a tutor's yes/no question.
_ACKS = frozenset(
    """
    ok okay k kk kay oh ohh ah cool nice yay great fine alright got it i see im i'm back
    that makes sense thanks thx ty tysm tyvm thnx lol next
    """.split()  # noqa: SIM905 - a word list reads better as prose
)
# Social turns, requests to stop, and the usual off-topic remarks.
_SOCIAL = re.compile(
    r"\b(?:brb|gtg|g2g|lol|lmao|rofl|haha+|hehe+|omg|bye|goodbye|cya|see\s+ya|hello|hey"
    r"|hi+|yo|sup|thanks|thank\s+(?:you|u)|thx|thnx|ty|tysm|tyvm|bored|boring|tired|sleepy"
    r"|hungry|lunch|dinner|breakfast|snack|recess|fav|fave"
    r"|bathroom|toilet|game|games|minecraft|fortnite|roblox|youtube|tiktok|video"
    r"|videos|tv|movie|movies|music|song|dog|cat|pet|favou?rite|weekend|birthday|friend"
    r"|friends|mom|mum|dad|sister|brother|weather|stop|quit|done|finished|later|enough"
    r"|robot|nvm|hold\s+on|tired|recess|tmrw|tomorrow|today"
    r"|take\s+a\s+break|can\s+i\s+go|go\s+now|do\s+we\s+have\s+to|do\s+you\s+like"
    r"|who\s+are\s+you|your\s+name|(?:do|did)\s+(?:you|u)\s+think|(?:are|r)\s+(?:you|u)\s+"
    r"(?:a|an|real|human|a\s+robot|a\s+teacher))\b"
)
# Words of the moves a maths turn makes without maths words: agreeing or not, asking why
# or how, picking an option ("the second one"), going on ("let's do it"). A turn with none
# of them, nor maths, is a remark of its own ("i like pizza").
_MOVES = frozenset(
    """
    ok okay k kk yes yeah yep yup ya no nope nah sure right alright got get so oh ah see
    why how what what's whats hmm um uh maybe because first second third last one other
    same it that this these those again mean means makes sense think thought guess then
    next wrong correct do does did doing we us try check work works now more ready reason
    wat wats wat's y
    """.split()  # noqa: SIM905 - a word list reads better as prose
)


# Words that state an answer ("i got 12 lol", "its 12"): a number beside them is maths.
_ANSWERING = frozenset(("got", "get", "getting", "its", "it's", "answer", "equals", "so"))
_I_SAID = re.compile(r"\bi\s+(?:said|put|wrote|think)\b")
_REMARK_WORDS = 2


def _emoji(text: str) -> bool:
    """Symbols and nothing else that a maths turn writes ("😴", "👍")."""
    return any(unicodedata.category(c) == "So" for c in text)


@dataclass(frozen=True)
class TurnKind:
    """One turn's kind (see the module's docstring): `maths` (a number, an operation or a
    maths word), `help_request`, `chit_chat` (never with `maths`), the maths `topics` it
    names (`fraction`, `division`, ...), in the order it names them, and whether it asks to
    move to a topic (`asks_topic`: "can you help with fractions now")."""

    maths: bool
    help_request: bool
    chit_chat: bool
    topics: tuple[str, ...]
    asks_topic: bool = False


@functools.lru_cache(maxsize=1024)
def turn_kind(text: str) -> TurnKind:
    """The kind of one turn (see the module's docstring); linear in its length."""
    plain = plain_text(text).lower()
    words = _WORD.findall(plain)
    toks = tokens(plain)
    numbers = any(t.kind == "num" for t in toks) or any(
        w not in _NOT_NUMBERS and number_value([w]) is not None for w in words
    )
    # "of", "x", "root" and a "/" read from "over" ("knocked over") are words more often.
    operations = any(t.kind in ("bin", "pre", "post", "eq", "cmp") and t.text not in (
        "of", "x", "root") and (t.text != "/" or "/" in plain) for t in toks)  # fmt: skip
    topics = tuple(dict.fromkeys(_TOPIC_OF[w] for w in words if w in _TOPIC_OF))
    maths = numbers or operations or bool(topics) or any(w in _MATHS for w in words)
    helps = _HELP.search(plain) is not None
    leaving = _LEAVING.search(plain) is not None
    social = _SOCIAL.search(plain) is not None
    acks = all(w in _ACKS for w in words)
    # A remark of its own: three words or more, none of a maths move ("i like pizza"); one
    # or two words are an answer more often than a remark ("a sphere", "dogs", "true").
    remark = len(words) > 2 and not any(w in _MOVES for w in words)
    # Numbers in a social remark are no maths ("i have 2 cats lol", "dinner in 10 min lol"):
    # no operation or maths word, and no number first (an answer: "8 can i go now").
    chatty = (
        (social or leaving)
        and numbers
        and not (operations or topics or any(w in _MATHS for w in words))
        and (leaving or not any(w in _ANSWERING for w in words))  # "its 4:15 i wanna go"
        and sum(w not in _ACKS for w in words) >= _REMARK_WORDS
        and (not toks or toks[0].kind != "num")
        and _I_SAID.search(plain) is None
    )
    chit_chat = (
        (bool(words) and (not maths or chatty))
        and (leaving or (not helps and (social or acks or remark)))
    ) or (not words and not maths and _emoji(plain))
    return TurnKind(
        maths=maths and not chit_chat,
        help_request=helps,
        chit_chat=chit_chat,
        topics=topics,
        asks_topic=_TOPIC_REQUEST.search(plain) is not None,
    )
