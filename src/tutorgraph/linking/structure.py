"""The mathematics of a text, not its story: the operations it asks for, the kinds and sizes of
its numbers, and what kind of task it is.

"Liam has 8 piano keys and adds 3 more" shares no words with "Add and subtract within 20 to
solve word problems"; what links them is the operation (addition), the numbers (whole, within
20) and the kind of task (a word problem). `structure_of` reads the same tags from a message and
from a concept card, so a linker can add their overlap to the card's score. Every pattern is
linear in the text's length (no nested quantifiers), as user text reaches it.

>>> sorted(structure_of("Sam has 24 stickers and gives 9 to his sister. How many are left?"))
['op:subtract', 'size:100', 'task:word-problem']
>>> sorted(structure_of("Use addition and subtraction within 100 to solve word problems."))
['op:add', 'op:subtract', 'size:100', 'task:word-problem']
"""

from __future__ import annotations

import math
import re

__all__ = ["structure_of", "structure_overlap"]

# Tag -> words (matched on word boundaries, lower case) that signal it in a message or a card.
_WORDS: dict[str, tuple[str, ...]] = {
    "op:add": (
        "add",
        "adds",
        "added",
        "adding",
        "addition",
        "plus",
        "sum",
        "total",
        "altogether",
        "in all",
        "combined",
        "more than",
        "and then",
        "gets",
        "buys",
        "finds",
    ),
    "op:subtract": (
        "subtract",
        "subtracts",
        "subtracting",
        "subtraction",
        "minus",
        "take away",
        "takes away",
        "left",
        "remain",
        "remains",
        "remaining",
        "fewer",
        "difference",
        "gives",
        "gave",
        "ate",
        "eats",
        "spent",
        "spends",
        "lost",
        "loses",
        "how many more",
        "less than",
    ),
    "op:multiply": (
        "multiply",
        "multiplies",
        "multiplied",
        "multiplying",
        "multiplication",
        "times",
        "product",
        "groups of",
        "each",
        "every",
        "twice",
        "double",
        "rows of",
        "arrays",
    ),
    "op:divide": (
        "divide",
        "divides",
        "divided",
        "dividing",
        "division",
        "quotient",
        "share",
        "shared",
        "shares",
        "equally",
        "split",
        "per",
        "remainder",
    ),
    "num:fraction": (
        "fraction",
        "fractions",
        "numerator",
        "denominator",
        "half",
        "halves",
        "third",
        "thirds",
        "quarter",
        "quarters",
        "fourths",
        "eighths",
        "sixths",
        "fifths",
        "tenths",
    ),
    "num:decimal": ("decimal", "decimals", "tenths", "hundredths", "decimal point"),
    "num:percent": ("percent", "percentage", "percentages", "per cent"),
    "num:negative": ("negative", "integers", "integer", "below zero", "opposite"),
    "task:statistics": (
        "mean",
        "median",
        "mode",
        "range",
        "average",
        "data set",
        "data",
        "distribution",
        "interquartile",
        "box plot",
        "dot plot",
        "histogram",
    ),
    "task:ratio": ("ratio", "ratios", "rate", "unit rate", "proportion", "proportional"),
    "task:equation": ("equation", "equations", "solve for", "variable", "unknown"),
    "task:geometry": (
        "area",
        "perimeter",
        "volume",
        "angle",
        "angles",
        "triangle",
        "rectangle",
        "circle",
        "polygon",
        "shape",
        "shapes",
        "length",
        "width",
    ),
    "task:money": ("dollar", "dollars", "cents", "money", "price", "cost", "costs", "pay"),
    "task:time": ("hour", "hours", "minutes", "clock", "o'clock", "time"),
}
_PATTERN = {
    tag: re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\b")
    for tag, words in _WORDS.items()
}
_SYMBOLS = {"op:add": "+", "op:multiply": "×*", "op:divide": "÷"}
# A story: a message's question about a count or amount, or a card that names word problems
# (a card's "how many" is a counting task, not a story).
_STORY = re.compile(r"\b(?:how many|how much|word problems?|real[- ]world problems?)\b")
_CARD_STORY = re.compile(r"\b(?:word problems?|real[- ]world problems?)\b")
_WITHIN = re.compile(r"\bwithin (\d{1,7})\b")
_NUMBER = re.compile(r"(?<![\w.])(\d[\d,]{0,12})(?:\.(\d+))?\b")
_FRACTION = re.compile(r"\b\d{1,4}\s*/\s*\d{1,4}\b|\\frac")
_PERCENT = re.compile(r"\d\s*%")
_MINUS = re.compile(r"\d\s*[-−]\s*\d")
# The size bands the standards use ("within 20", "within 100", "within 1000").
_BANDS = (10, 20, 100, 1000)


def _size_tag(numbers: list[float]) -> str | None:
    """The smallest band that holds every whole number of a message."""
    if not numbers:
        return None
    top = max(numbers)
    return next((f"size:{b}" for b in _BANDS if top <= b), None)


def structure_of(text: str, *, card: bool = False) -> frozenset[str]:
    """The structural tags of `text`, a message or (`card`) a concept card's text: a card's
    size is only what it says ("within 20"), never the numbers it happens to hold ("Count to
    100" is not about sums within 100)."""
    low = text.lower()
    tags = {tag for tag, pattern in _PATTERN.items() if pattern.search(low)}
    for tag, symbols in _SYMBOLS.items():
        if any(s in text for s in symbols):
            tags.add(tag)
    # A card's "0-20" is a range, not a subtraction.
    if not card and _MINUS.search(text):
        tags.add("op:subtract")
    if _FRACTION.search(text):
        tags.add("num:fraction")
    if _PERCENT.search(text):
        tags.add("num:percent")
    if (_CARD_STORY if card else _STORY).search(low):
        tags.add("task:word-problem")
    within = [int(m.group(1)) for m in _WITHIN.finditer(low)]
    if within:
        tags.update(f"size:{w}" for w in within if w in _BANDS)
    elif not card:
        whole = []
        # A fraction's parts are not sizes ("5/8" is not a number within 10).
        for m in _NUMBER.finditer(_FRACTION.sub(" ", text)):
            if m.group(2):
                tags.add("num:decimal")
            else:
                whole.append(float(m.group(1).replace(",", "")))
        size = _size_tag(whole)
        if size is not None:
            tags.add(size)
    return frozenset(tags)


def structure_overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Cosine of two tag sets (0 when either is empty).

    >>> structure_overlap(frozenset({"op:add", "size:20"}), frozenset({"op:add"}))
    0.7071067811865475
    """
    if not a or not b:
        return 0.0
    return len(a & b) / math.sqrt(len(a) * len(b))
