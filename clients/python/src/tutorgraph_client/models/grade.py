"""School grades: what a request may say (`RetrievalRequest.grade`) and the grade of a Common
Core standard, on one scale (K = 0 ... 8, HS = 9).

>>> normalize_grade("grade 3"), normalize_grade(7), normalize_grade("k"), normalize_grade("10")
('3', '7', 'K', 'HS')
>>> standard_grade("ccss:4.NF.A.1"), standard_grade("ccss:HSA-REI.B.3"), band("5")
('4', 'HS', '3-5')
>>> standard_cluster("ccss:4.NF.A.1"), standard_cluster("ccss:HSA-REI.B.3")
('ccss:4.NF.A', 'ccss:HSA-REI.B')
"""

from __future__ import annotations

import re
from typing import Literal

__all__ = [
    "BANDS",
    "GRADES",
    "Band",
    "Grade",
    "band",
    "grade_level",
    "normalize_grade",
    "standard_grade",
]

Grade = Literal["K", "1", "2", "3", "4", "5", "6", "7", "8", "HS"]
Band = Literal["K-2", "3-5", "6-8", "HS"]
GRADES: tuple[Grade, ...] = ("K", "1", "2", "3", "4", "5", "6", "7", "8", "HS")
BANDS: tuple[Band, ...] = ("K-2", "3-5", "6-8", "HS")
_BAND_OF: dict[str, Band] = {g: BANDS[min(i // 3, 3)] for i, g in enumerate(GRADES)}
_SPOKEN = re.compile(r"^(?:grade|year|class|gr\.?)\s*", re.I)
_HIGH = {"hs", "high school", "9", "10", "11", "12", "algebra", "geometry"}


def normalize_grade(value: object) -> Grade:
    """ "K"/"kindergarten", 1-8 (number or text, "grade 3"), or "HS"/9-12, as a `Grade`.

    Raises ValueError for anything else.
    """
    text = _SPOKEN.sub("", str(value).strip()).strip().lower()
    if text in {"k", "kindergarten", "0"}:
        return "K"
    if text in _HIGH:
        return "HS"
    if text in {"1", "2", "3", "4", "5", "6", "7", "8"}:
        return GRADES[int(text)]
    raise ValueError(f"grade {value!r}: give K, 1-8 or HS")


def grade_level(grade: str) -> int:
    """K = 0, 1-8, HS = 9."""
    return GRADES.index(normalize_grade(grade))


def standard_grade(concept_id: str) -> Grade | None:
    """The grade of a Common Core standard or cluster id (`ccss:4.NF.A.1` -> "4"); None for
    any other id."""
    code = concept_id.removeprefix("ccss:")
    if code == concept_id:
        return None
    if code.startswith("HS"):
        return "HS"
    head = code.split(".", 1)[0]
    return next((g for g in GRADES if g == head), None)


def standard_cluster(concept_id: str) -> str:
    """A standard's cluster: its id up to the cluster letter (K-8 `grade.domain.cluster`,
    high school `category-domain.cluster`); an id with no cluster part is its own."""
    parts = concept_id.split(".")
    keep = 2 if "-" in parts[0] else 3
    return ".".join(parts[:keep]) if len(parts) >= keep else concept_id


def band(grade: str) -> Band:
    """The grade band of a grade: K-2, 3-5, 6-8 or HS."""
    return _BAND_OF[normalize_grade(grade)]
