"""The mathematics of a K-5 word problem: which operation, which quantity is unknown, and
the calculation that finds it.

A student writes the story, not the sum: "Sam had 24 stickers and gave away 9. How many are
left?", "there are 6 boxes of 7 pencils", "I have 8, how many more to make 15?". The story
reader reads one- and two-number stories of the kinds taught in K-5 (the CGI problem types):

* add and take away (join, separate, part and whole), with the unknown at the result ("24
  - 9"), the change ("8 + ? = 15": "had 8, got some more, now 15"; "how many more to make
  15") or the start ("? + 8 = 15": "had some, got 8 more, now 15");
* compare: the difference ("how many more ... than", "how much longer"), or the bigger or
  smaller quantity ("3 more than Mei");
* equal groups: the product ("6 boxes of 7", "4 rows with 5 in each"), and division as
  sharing (the size of a group: "shares 28 among 4", "how many in each") or grouping (the
  number of groups: "puts 6 in each box, how many boxes").

It works over the message reader's tokens (`expressions.tokens`: numbers with their commas
dropped, words, punctuation and operator symbols) and writes the calculation in the
spelling the diagnosis parses (`mathtext.canonical_math`: `×`, `÷`). It reads no text with
arithmetic in it ("3 + 4", "6 x 7", "9 take away 3": the message reader's), no "why"
question, no concept question, and no story with more or fewer than two numbers (a
number after the story's question that the student gives as an answer, "I got 25", is not
the story's); what it cannot place it does not guess: None.

>>> story = read_story("Sam had 24 stickers and gave away 9. How many are left? I got 25")
>>> story.operation, story.unknown, story.expression, story.equation
('subtract', 'result', '24 - 9', '24 - 9 = ?')
>>> read_story("There are 6 boxes of 7 pencils. How many pencils in all?").expression
'6 × 7'
>>> story = read_story("Tom has 8 marbles. How many more does he need to make 15?")
>>> story.equation, story.expression, sorted(story.tags())
('8 + ? = 15', '15 - 8', ['story', 'story:add', 'unknown:change'])
>>> read_story("what is 3 + 4?") is None, read_story("what is a fraction?") is None
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from tutorgraph.mathtext.spans import plain_text
from tutorgraph.refinement.expressions import Tok, tokens
from tutorgraph.refinement.story_words import (
    ANSWER_VERBS,
    AT_FIRST,
    COMPARATIVE,
    EACH,
    EQUAL,
    GROUP_NOUNS,
    HOW,
    IN_ALL,
    JOIN,
    MONEY,
    MORE_FEWER,
    NOT_NOUNS,
    RATE_UNITS,
    REFUSED_WORDS,
    SHARE,
    SOME,
    TAKE,
    TO_REACH,
    TO_WHOM,
    WHAT,
    WHAT_ASKS,
    number_of,
    phrase_at,
    same_noun,
)

__all__ = ["MAX_STORY_CHARS", "Operation", "Story", "Unknown", "read_story"]

Operation = Literal["add", "subtract", "compare", "multiply", "divide"]
# result, change, start: add and subtract; difference, bigger, smaller: compare; product:
# multiply; size (sharing: how many in each group) and groups (grouping: how many groups),
# the two missing factors of a division.
Unknown = Literal[
    "result", "change", "start", "difference", "bigger", "smaller", "product", "size", "groups"
]
# A story is a few sentences; a longer text is not read.
MAX_STORY_CHARS = 1000


@dataclass(frozen=True)
class Story:
    """A word problem's mathematics: the `operation` of its story, the quantity it asks
    for (`unknown`), its `numbers` as written (commas dropped) in the story's order, the
    `expression` that computes the unknown ("15 - 8") and the story's `equation` with the
    unknown as `?` ("8 + ? = 15")."""

    operation: Operation
    unknown: Unknown
    numbers: tuple[str, ...]
    expression: str
    equation: str

    def tags(self) -> frozenset[str]:
        """Short labels for a concept linker: `story`, `story:<operation>`,
        `unknown:<unknown>`, and `unknown:factor` for a division."""
        out = {"story", f"story:{self.operation}", f"unknown:{self.unknown}"}
        if self.operation == "divide":
            out.add("unknown:factor")
        return frozenset(out)


@dataclass(frozen=True)
class _Number:
    text: str
    value: Fraction
    at: int  # index in the story's tokens


def _question_start(words: list[str]) -> int:
    """Where the story's question starts (an index into `words`; -1 when none): "how many",
    "how much", "how tall", "what is the total", or "in all" / "altogether" on its own."""
    for k, word in enumerate(words):
        nxt = words[k + 1] if k + 1 < len(words) else ""
        if word == "how" and nxt in HOW:
            return k
        if word in WHAT and WHAT_ASKS & set(words[k + 1 : k + 5]):
            return k
    for phrase in IN_ALL:
        if (k := phrase_at(words, phrase)) >= 0:
            return k
    return -1


def _story_end(toks: list[Tok], ask: int) -> int:
    """The end of the story (a token index): the end of its question's sentence, or an
    answer the student gives within it ("how many are left i got 25")."""
    for k in range(ask, len(toks)):
        tok = toks[k]
        if tok.kind == "punct" and tok.text in "?.!":
            return k
        before = toks[k - 1].text if k else ""
        if tok.text in ANSWER_VERBS and before == "i":
            return k - 1
        if tok.text == "answer" and before == "my":
            return k - 1
        if tok.text == "it" and before == "is" and k + 1 < len(toks) and number_of(toks[k + 1]):
            return k - 1
    return len(toks)


def _noun_after(words: list[str], k: int) -> list[str]:
    """The words that name what the number at `k` counts ("24 red stickers")."""
    out: list[str] = []
    for word in words[k + 1 : k + 4]:
        if not word or word in NOT_NOUNS or word in ("and", "with", "to", "for", "at"):
            break
        out.append(word)
    return out


def _asked_nouns(words: list[str], ask: int) -> list[str]:
    """What the question asks about: "how many (more) boxes" -> ["boxes"]."""
    out = []
    for word in words[ask + 2 : ask + 5]:
        if word in MORE_FEWER:
            continue
        if word in NOT_NOUNS or not word:
            break
        out.append(word)
    return out


def _nouns_match(a: list[str], b: list[str]) -> bool:
    return any(same_noun(x, y) for x in a for y in b)


def _fmt(a: str, op: str, b: str) -> str:
    return f"{a} {op} {b}"


def _story(
    operation: Operation, unknown: Unknown, nums: list[_Number], expression: str, equation: str
) -> Story:
    return Story(operation, unknown, tuple(n.text for n in nums), expression, equation)


def _rates(words: list[str], nums: list[_Number]) -> list[int]:
    """Where a rate says "each" as "a" ("$12.50 an hour", "8 pencils a box")."""
    out = []
    for n in nums:
        for k in (n.at + 1, n.at + 2):
            rate = words[k : k + 1] in (["a"], ["an"])
            if rate and words[k + 1 : k + 2] and words[k + 1] in RATE_UNITS:
                out.append(k)
    return out


_INTO = frozenset(("into", "among", "amongst", "between", "by"))


def _sharing(words: list[str], ask: int, nums: list[_Number]) -> tuple[_Number, _Number]:
    """The total and the number of groups of a sharing story: the groups follow "into",
    "among" or "between", or come before "equal"; the total follows the sharing verb, or is
    what the question asks about; else the larger is the total."""
    a, b = nums
    for n in nums:
        other = b if n is a else a
        before = words[n.at - 1] if n.at else ""
        after = words[n.at + 1 : n.at + 2]
        if before in _INTO or after == ["equal"]:
            return other, n
        if before in SHARE:
            return n, other
    asked = _asked_nouns(words, ask) if words[ask] == "how" else []
    if asked and _nouns_match(asked, _noun_after(words, b.at)):
        return b, a
    if asked and _nouns_match(asked, _noun_after(words, a.at)):
        return a, b
    return (a, b) if a.value >= b.value else (b, a)


def _equal_groups(words: list[str], ask: int, nums: list[_Number]) -> Story | None:
    """Multiplication and division stories, or None when the story has no equal groups."""
    a, b = nums
    between = words[a.at + 1 : b.at]
    # "6 boxes of 7", "4 rows of 5": groups of a size.
    of_groups = 1 <= len(between) <= 3 and between[-1] == "of" and between[0] not in ("out",)
    each = [k for k, w in enumerate(words) if w in EACH] + _rates(words, nums)
    shares = any(w in SHARE for w in words)
    rows = any(w in GROUP_NOUNS for w in words)
    equal = any(w in EQUAL for w in words)
    if not (of_groups or each or shares or rows or equal):
        return None
    asked = _asked_nouns(words, ask) if words[ask] == "how" else []
    each_in_question = any(w in EACH for w in words[ask:])
    if shares or each_in_question or (equal and not each):
        # Sharing: the total among the groups; how many in each.
        total, groups = _sharing(words, ask, nums)
        expression = _fmt(total.text, "÷", groups.text)
        return _story("divide", "size", nums, expression, f"{groups.text} × ? = {total.text}")
    after_asked = ask + 2 + len(asked)
    if asked and words[after_asked : after_asked + 1] == ["of"]:
        # "28 kids, how many teams of 4": the groups of a size are the unknown.
        size = next((n for n in nums if n.at == after_asked + 1), None)
        if size is not None:
            total = b if size is a else a
            expression = _fmt(total.text, "÷", size.text)
            return _story("divide", "groups", nums, expression, f"? × {size.text} = {total.text}")
    # "one adult for every 7 children, how many adults": one of the asked for each group of
    # the size after "every" (a division, not "every" as "each").
    for k in (k for k, w in enumerate(words) if w == "every" and words[k - 1 : k] == ["for"]):
        size = next((n for n in nums if n.at == k + 1), None)
        lead = words[max(0, k - 6) : k - 1]
        if size is not None and asked and any(same_noun(w, x) for w in lead for x in asked):
            total = b if size is a else a
            expression = _fmt(total.text, "÷", size.text)
            return _story("divide", "groups", nums, expression, f"? × {size.text} = {total.text}")
    group_nouns = [words[k + 1] for k in each if k + 1 < len(words)]
    if asked and any(same_noun(g, x) for g in group_nouns for x in asked):
        # Grouping: "puts 6 in each box, how many boxes": the size is the number before
        # "each", the total the other.
        sized = [n for n in nums if any(n.at < k for k in each)]
        size = max(sized, key=lambda n: n.at) if sized else min(nums, key=lambda n: n.value)
        total = b if size is a else a
        expression = _fmt(total.text, "÷", size.text)
        return _story("divide", "groups", nums, expression, f"? × {size.text} = {total.text}")
    if not (of_groups or each or rows):
        return None
    return _story(
        "multiply", "product", nums, _fmt(a.text, "×", b.text), f"{a.text} × {b.text} = ?"
    )


def _compare(words: list[str], ask: int, nums: list[_Number]) -> Story | None:
    """Compare stories: "3 more than Mei" (the bigger or smaller unknown), "how many more
    ... than", "how much longer" (the difference); None for any other story."""
    a, b = nums
    for n in nums:
        nxt = words[n.at + 1 : n.at + 5]
        if nxt[:1] and nxt[0] in MORE_FEWER | COMPARATIVE and "than" in nxt:
            other = b if n is a else a
            if nxt[0] in ("fewer", "less", "shorter", "younger", "lighter", "smaller", "slower"):
                expression = _fmt(other.text, "-", n.text)
                return _story("compare", "smaller", nums, expression, f"{expression} = ?")
            expression = _fmt(other.text, "+", n.text)
            return _story("compare", "bigger", nums, expression, f"{expression} = ?")
    question = words[ask:]
    if words[ask] != "how" or len(question) < 3:
        return None
    big, small = (a, b) if a.value >= b.value else (b, a)
    expression = _fmt(big.text, "-", small.text)
    difference = _story("compare", "difference", nums, expression, f"{expression} = ?")
    if question[1] == "much" and question[2] in COMPARATIVE:
        return difference  # "how much longer is the pencil"
    if question[2] not in MORE_FEWER:
        return None
    if "than" in question:
        return difference
    # "how many more stickers does Mei have", "how many more came on friday": a comparison;
    # "how many more do I need to have 10" and "got some more ... how many more did he get"
    # are changes (`_join_separate`).
    if set(question) & TO_REACH - {"have"} or set(words[:ask]) & SOME:
        return None
    return difference


def _gives_to(words: list[str], k: int) -> bool:
    """ "gave him 5": given to the one whose count the story follows, a join."""
    return (
        words[k] in ("gave", "gives", "give")
        and words[k + 1 : k + 2] != []
        and (words[k + 1] in TO_WHOM)
    )


def _join_separate(words: list[str], ask: int, nums: list[_Number]) -> Story | None:
    """Add and take-away stories, with the unknown at the result, the change or the start."""
    a, b = nums
    story, question = words[:ask], words[ask:]
    takes = any(w in TAKE and not _gives_to(words, k) for k, w in enumerate(story))
    # "got off" is a take, not a join.
    joins = any(
        (w in JOIN or _gives_to(words, k)) and words[k + 1 : k + 2] != ["off"]
        for k, w in enumerate(story)
    )
    some = [k for k, w in enumerate(story) if w in SOME]
    at_first = any(phrase_at(question, p) >= 0 for p in AT_FIRST)
    small, big = (a, b) if a.value <= b.value else (b, a)
    if (some and some[0] < a.at) or (at_first and not some):
        # The start unknown: "had some, got 8 more, now 15"; "gave away 9, now has 15".
        if takes and not joins:
            expression = _fmt(b.text, "+", a.text)
            return _story("subtract", "start", nums, expression, f"? - {a.text} = {b.text}")
        expression = _fmt(big.text, "-", small.text)
        return _story("add", "start", nums, expression, f"? + {small.text} = {big.text}")
    reach = (
        len(question) > 2
        and question[1] in ("many", "much")
        and bool(MORE_FEWER & set(question[2:4]))
        and bool(set(question) & TO_REACH)
    )
    if (some and a.at < some[0] < b.at) or reach:
        # The change unknown: "had 8, got some more, now 15"; "how many more to make 15".
        if small.value == big.value:
            return None
        expression = _fmt(big.text, "-", small.text)
        if not reach and takes:
            return _story("subtract", "change", nums, expression, f"{big.text} - ? = {small.text}")
        return _story("add", "change", nums, expression, f"{small.text} + ? = {big.text}")
    # The result unknown: the question decides when the story both joins and takes ("how
    # much did she spend" on two things is their total).
    takes_q = bool({"left", "remain", "remaining", "still"} & set(question))
    joins_q = any(phrase_at(question, p) >= 0 for p in IN_ALL) or (
        question[1:2] == ["much"] and bool({"spend", "spent", "pay", "cost"} & set(question))
    )
    took, joined = takes or takes_q, joins or joins_q
    if took and joined:
        took, joined = takes_q and not joins_q, joins_q and not takes_q
    if took and not joined:
        expression = _fmt(big.text, "-", small.text)
        return _story("subtract", "result", nums, expression, f"{expression} = ?")
    if joined and not took:
        expression = _fmt(a.text, "+", b.text)
        return _story("add", "result", nums, expression, f"{expression} = ?")
    return None


def read_story(text: str) -> Story | None:
    """The mathematics of a word problem (see the module's docstring), or None when `text`
    is no story this reader reads. Pure and linear in the text; never raises."""
    try:
        return _read(text)
    except (ValueError, IndexError, ArithmeticError):  # pragma: no cover - defensive
        return None


def _read(text: str) -> Story | None:
    if not text or len(text) > MAX_STORY_CHARS:
        return None
    # A money sign is no LaTeX delimiter here ("had $50 and spent $27").
    toks = tokens(plain_text(MONEY.sub("", text)))
    words = [t.text if t.kind == "word" else "" for t in toks]
    ask = _question_start(words)
    if ask < 0:
        return None
    end = _story_end(toks, ask)
    toks, words = toks[:end], words[:end]
    nums: list[_Number] = []
    for k, tok in enumerate(toks):
        if tok.kind in ("word", "punct", "num") or (tok.kind == "bin" and tok.said == "of"):
            if tok.kind == "word" and tok.text in REFUSED_WORDS:
                return None
            if (
                tok.text == ":"
                and 0 < k < len(toks) - 1
                and toks[k - 1].kind == "num" == toks[k + 1].kind
            ):
                return None  # a time of day, "4:35"
            if (value := number_of(tok)) is not None:
                if " " in value or (nums and nums[-1].at == k - 1):
                    # A mixed number ("2 1/2") or numbers in a row ("twenty five"): no
                    # two-number story the diagnosis parses.
                    return None
                nums.append(_Number(value, Fraction(value), k))
            continue
        return None  # arithmetic written out ("3 + 4", "6 x 7", "9 take away 3")
    if len(nums) != 2 or any(n.value <= 0 for n in nums):
        return None
    if words[ask] != "how" and nums[0].at > ask:
        return None  # "what is the total of 5 and 7": a sum in words, not a story
    # "of" is a word here ("6 boxes of 7").
    words = [t.said if t.kind == "bin" else w for t, w in zip(toks, words, strict=True)]
    return (
        _equal_groups(words, ask, nums)
        or _compare(words, ask, nums)
        or _join_separate(words, ask, nums)
    )
