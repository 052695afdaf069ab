"""The words the story reader (`refinement.story`) reads a word problem by: number words,
the question's words, the verbs of joining, separating, comparing and sharing, group and rate
nouns, and the small word tests it makes (a noun's stem, the same noun, where a phrase starts).

>>> same_noun("box", "boxes"), phrase_at(["how", "many", "in", "all"], IN_ALL[0])
(True, 2)
"""

from __future__ import annotations

import re

from tutorgraph.refinement.expressions import Tok

__all__ = [
    "ANSWER_VERBS",
    "AT_FIRST",
    "COMPARATIVE",
    "EACH",
    "EQUAL",
    "GROUP_NOUNS",
    "HOW",
    "IN_ALL",
    "JOIN",
    "MONEY",
    "MORE_FEWER",
    "NOT_NOUNS",
    "NUMBER_WORDS",
    "RATE_UNITS",
    "REFUSED_WORDS",
    "SHARE",
    "SOME",
    "TAKE",
    "TO_REACH",
    "TO_WHOM",
    "WHAT",
    "WHAT_ASKS",
    "number_of",
    "phrase_at",
    "same_noun",
    "stem",
]

# "one" is left out: it is a pronoun as often as a number ("the other one").
NUMBER_WORDS = {
    "zero": "0", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
    "thirteen": "13", "fourteen": "14", "fifteen": "15", "sixteen": "16", "seventeen": "17",
    "eighteen": "18", "nineteen": "19", "twenty": "20", "thirty": "30", "forty": "40",
    "fifty": "50", "sixty": "60", "seventy": "70", "eighty": "80", "ninety": "90",
}  # fmt: skip

# What the reader does not read: arithmetic written out, a question about why, times of day
# and halves (not a two-number story).
REFUSED_WORDS = frozenset(("why", "o'clock", "half", "halves", "percent", "squared", "cubed"))
HOW = frozenset(
    ("many", "much", "tall", "long", "far", "heavy", "old", "big", "wide", "high", "fast")
)
WHAT = frozenset(("what", "whats", "what's", "find"))
WHAT_ASKS = frozenset(("total", "sum", "difference"))
IN_ALL = (("in", "all"), ("altogether",), ("in", "total"), ("total",), ("all", "together"))
# The student's answer after the story's question: "I got 25", "my answer is 25", "is it 25".
ANSWER_VERBS = frozenset(
    ("got", "get", "put", "said", "say", "wrote", "write", "think", "thought", "reckon",
     "guess", "guessed", "answered", "did", "made", "make", "came")
)  # fmt: skip

# Take away: the verbs of separating, and the question's "left", "remain", "still".
TAKE = frozenset(
    ("ate", "eats", "eat", "eaten", "lost", "loses", "lose", "spent", "spends", "sold",
     "sells", "sell", "used", "uses", "broke", "breaks", "popped", "pops", "away", "left",
     "remain", "remains", "remaining", "still", "drank", "drinks", "leave", "leaves", "went",
     "flew", "fell", "melted", "off", "gave", "gives", "give", "took", "takes", "returned",
     "donated", "dropped", "fewer", "less")
)  # fmt: skip
TO_WHOM = frozenset(("him", "her", "me", "us", "them", "you"))
JOIN = frozenset(
    ("more", "bought", "buys", "buy", "found", "finds", "got", "gets", "get", "received",
     "receives", "joined", "joins", "join", "came", "come", "comes", "arrived", "arrive",
     "arrives", "added", "adds", "grew", "grows", "won", "wins", "picked", "picks", "together",
     "both", "altogether", "total", "all", "another", "earned", "earns", "saved", "collected",
     "caught")
)  # fmt: skip
# "how many more does she need to make 15": a change to a known result.
TO_REACH = frozenset(
    ("need", "needs", "make", "have", "get", "reach", "until", "fill", "finish", "buy", "save",
     "so", "want", "wants")
)  # fmt: skip
SOME = frozenset(("some", "few", "several"))
AT_FIRST = (("at", "first"), ("to", "start"), ("to", "begin"), ("in", "the", "beginning"),
             ("start", "with"), ("started", "with"), ("begin", "with"), ("originally",),
             ("before",))  # fmt: skip
COMPARATIVE = frozenset(
    ("longer", "shorter", "taller", "heavier", "lighter", "older", "younger", "farther",
     "further", "bigger", "smaller", "wider", "higher", "deeper", "faster", "slower",
     "cheaper", "greater", "larger")
)  # fmt: skip
MORE_FEWER = frozenset(("more", "fewer", "less"))
# Equal groups: "each", "every", "per", "equally"; sharing and splitting divide.
EACH = frozenset(("each", "every", "per", "apiece"))
EQUAL = frozenset(("equal", "equally", "same"))
SHARE = frozenset(
    ("share", "shares", "shared", "sharing", "split", "splits", "divide", "divides", "divided",
     "dividing")
)  # fmt: skip
GROUP_NOUNS = frozenset(("rows", "groups", "columns", "stacks", "teams", "piles"))
NOT_NOUNS = frozenset(
    ("more", "fewer", "less", "of", "the", "a", "an", "in", "on", "are", "is", "does", "do",
     "did", "will", "can", "each", "there", "were", "was", "have", "has", "would", "should")
)  # fmt: skip


MONEY = re.compile(r"\$(?=\d|\.\d)")
# "$12.50 an hour", "8 dollars a week": a rate, as "per hour".
RATE_UNITS = frozenset(
    ("hour", "day", "week", "month", "year", "minute", "second", "piece", "pack", "box",
     "bag", "ticket", "page", "row", "person", "kid", "child", "student")
)  # fmt: skip


def number_of(tok: Tok) -> str | None:
    if tok.kind == "num":
        return tok.text
    return NUMBER_WORDS.get(tok.text) if tok.kind == "word" else None


def stem(word: str) -> str:
    """ "boxes" -> "box", "pages" -> "page", "berries" -> "berr", "berry" -> "berr"."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3]
    if word.endswith("y") and len(word) > 3:
        return word[:-1]
    if word.endswith(("ses", "xes", "zes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def same_noun(a: str, b: str) -> bool:
    """ "box" and "boxes", "pizza" and "pizzas"; "bracelet" and "bracelets"."""
    sa, sb = stem(a), stem(b)
    return sa == sb or (min(len(sa), len(sb)) >= 4 and (sa.startswith(sb) or sb.startswith(sa)))


def phrase_at(words: list[str], phrase: tuple[str, ...]) -> int:
    """Where `phrase` starts in `words`, or -1."""
    n = len(phrase)
    for k in range(len(words) - n + 1):
        if tuple(words[k : k + n]) == phrase:
            return k
    return -1
