"""The level of a packet's content (issue 62): the child's grade range, each item's grade, and
what a K-2 packet leaves out.

**The child's grade** is the request's, else the band the linker inferred (`packet.grade`);
`child_range` gives it as the lowest and highest grade (K = 0 ... HS = 9).

**An item's grade** (`item_level`), the cheapest honest reading of it: the index's items
(Chroma metadata, BM25 items, `IndexItem`) carry no grade, but the project's own content is
aligned by id to the standard it was written for, at that standard's grade (its record's
`grade` is that grade), so a `ccss:` concept id gives it; anything else (an OpenStax section's
text, an Eedi construct's question or misconception) takes the highest grade of the standards
its concepts are joined to by `aligned_with` (the graph's edges, read once per request for
the candidates' concepts): the latest grade it teaches, which is no claim about the grade it
was written for. Without either it has no grade, and it is neither demoted nor promoted.

**A K-2 packet** (a child in kindergarten to grade 2) carries no negative numbers, algebra
(letters standing for numbers) or coordinate graphs unless nothing else exists
(`beyond_early_grades` says which of them a text uses); the slot then says so.

>>> child_range("2", None), child_range(None, "3-5"), child_range(None, None)
((2, 2), (3, 5), None)
>>> item_level(["ccss:2.NBT.B.5"]), item_level(["openstax:section:m1"], {"openstax:section:m1": 6})
(2, 6)
>>> beyond_early_grades("What is -3 + 5?"), beyond_early_grades("52 - 38 = 14")
('negative numbers', None)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import Final

from tutorgraph_client.models.grade import GRADES, grade_level, standard_grade

__all__ = [
    "BAND_RANGE",
    "EARLY_BAND",
    "beyond_early_grades",
    "child_range",
    "grade_of_level",
    "item_level",
    "standards_level",
]

# Each band's lowest and highest grade (K = 0 ... HS = 9).
BAND_RANGE: Final[dict[str, tuple[int, int]]] = {
    "K-2": (0, 2),
    "3-5": (3, 5),
    "6-8": (6, 8),
    "HS": (9, 9),
}
EARLY_BAND: Final = BAND_RANGE["K-2"]

# A minus sign before a number (`_negative_sign` checks it starts the number, not one between
# two numbers), and the words.
_MINUS = re.compile(r"[-−]\d")
_NEGATIVE_WORDS = re.compile(r"\bnegative\b|\bintegers?\b|\bbelow zero\b", re.I)
# A single letter standing for a number: "x = 4", "3x", "2n + 1", "solve for", "variable".
_ALGEBRA = re.compile(
    r"(?<![\w.])[a-z]\s*=\s*[-−(]?\s*\d|\b\d+(?!(?:s|st|nd|rd|th|am|pm|cm|mm|km|kg|ml|m|g|l|p|c)\b)[a-z]\b"
    r"|\b\d+\s*[a-wyz]\s*[+\-−=]|\bsolve for\b|\bvariables?\b|\balgebra(?:ic)?\b",
    re.I,
)
# Coordinate graphs (a K-2 picture or bar graph is not one): axes, slopes, ordered pairs.
_GRAPHS = re.compile(
    r"\bcoordinates?\b|\b[xy]-?axis\b|\baxes\b|\bslopes?\b|\bquadrants?\b|\bordered pairs?\b"
    r"|\bgraph (?:of|the) (?:line|equation|function)s?\b|\(\s*[-−]?\d{1,2}\s*,\s*[-−]?\d{1,2}\s*\)",
    re.I,
)
_BEYOND: Final = (
    ("algebra", _ALGEBRA),
    ("graphs", _GRAPHS),
)


def child_range(grade: str | None, inferred_band: str | None) -> tuple[int, int] | None:
    """The child's lowest and highest grade: the request's grade, else the inferred band's
    range; None when neither is known."""
    if grade is not None:
        level = grade_level(grade)
        return level, level
    if inferred_band is not None:
        return BAND_RANGE.get(inferred_band)
    return None


def standards_level(concept_ids: Iterable[str]) -> int | None:
    """The highest grade (K = 0 ... HS = 9) of the `ccss:` standards among `concept_ids`;
    None when there is none."""
    levels = [lv for c in concept_ids if (lv := _standard_level(c)) is not None]
    return max(levels) if levels else None


@functools.lru_cache(maxsize=4096)
def _standard_level(concept_id: str) -> int | None:
    """A standard's grade as a level (cached: every request reads the same few hundred)."""
    grade = standard_grade(concept_id)
    return None if grade is None else GRADES.index(grade)


def item_level(
    concept_ids: Iterable[str], aligned_levels: Mapping[str, int] | None = None
) -> int | None:
    """An item's grade: that of the standard it is aligned to by id (the project's own
    content), else the highest grade its concepts teach through `aligned_with`
    (`aligned_levels`: concept id -> that grade); None when neither is known."""
    ids = list(concept_ids)
    own = standards_level(ids)
    if own is not None:
        return own
    levels = [aligned_levels[c] for c in ids if aligned_levels and c in aligned_levels]
    return max(levels) if levels else None


def grade_of_level(level: int | None) -> str | None:
    """The grade name of a level (0 -> "K", 9 -> "HS"); None for None."""
    return GRADES[level] if level is not None and 0 <= level < len(GRADES) else None


def beyond_early_grades(text: str) -> str | None:
    """Which of negative numbers, algebra or coordinate graphs `text` uses (the first found),
    or None: what a K-2 packet leaves out while anything else exists."""
    if _NEGATIVE_WORDS.search(text) or any(
        _negative_sign(text, m.start()) for m in _MINUS.finditer(text)
    ):
        return "negative numbers"
    for name, pattern in _BEYOND:
        if pattern.search(text):
            return name
    return None


def _negative_sign(text: str, at: int) -> bool:
    """Whether the minus at `at` starts a number: no number or closing bracket before it
    (`52 - 38` subtracts; `= -3`, `(-3)`, `of -4` and `-3 + 5` are negative)."""
    if at and text[at - 1].isalnum():  # a hyphen ("add-9") or "52-38"
        return False
    before = text[:at].rstrip()
    return not before or not (before[-1].isdigit() or before[-1] in ").%")
