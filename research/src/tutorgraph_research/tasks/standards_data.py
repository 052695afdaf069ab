"""The data of `tutorgraph bench linking`: Common Core standards, MathFish, messages, word problems.

Every item names its accepted standards as bundle ids (``ccss:6.RP.A.3.c``); an accepted
code the bundle does not know is never guessed at, the item is skipped and counted.

* **Standards** (`read_standards`): the ``kind == "standard"`` records of a bundle's
  ``concepts.jsonl`` whose id starts with ``ccss:``, each with the text the dense baseline
  searches (its code and description).
* **MathFish** (`read_mathfish`): AllenAI's ``generated_problems_teacher_annotations.csv``
  (Lucy et al., EMNLP 2024 Findings; Apache-2.0): problems written by language models for a
  named standard, each judged by a teacher. Only the rows judged ``Full-intent Alignment`` or
  ``Partial Alignment`` count; the item text is ``Problem/Activity Text``, the accepted
  standard is ``Standard``. Item ids are ``mathfish:<row>`` (the 1-based data row). The
  models' preambles name the standard in over half of the texts ("Here's a problem that
  aligns with 1.OA.A.2:"): every Common Core code in a text is replaced by "the standard"
  (`mask_codes`), or a system that reads codes would score without linking anything.
* **Tutoring messages** (`read_messages`): ``data/benchmarks/tutoring_messages.jsonl``, one
  ``{"id", "text", "standards", "kind", "split", "grade"}`` per line; ``split`` is
  `message_split` of the id (a third ``heldout``, kept out of all tuning).
* **Word problems** (`read_messages` named `WORD_PROBLEMS`):
  ``data/benchmarks/word_problems.jsonl``, K-8 word problems written by hand in the words of
  worksheets and of students (``WORD_PROBLEMS.md``), in the messages' format and split.

>>> cluster_of("ccss:6.RP.A.3.c"), cluster_of("ccss:HSN-RN.A.1")
('ccss:6.RP.A', 'ccss:HSN-RN.A')
>>> message_split("msg-001") in {"dev", "heldout"}
True
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

from tutorgraph.errors import ConfigurationError
from tutorgraph_client.models.grade import standard_cluster
from tutorgraph_research.harness.folds import stable_fold

__all__ = [
    "ALIGNED",
    "CCSS",
    "MESSAGES",
    "WORD_PROBLEMS",
    "LinkingItem",
    "LinkingSet",
    "Standard",
    "cluster_of",
    "mask_codes",
    "message_split",
    "read_mathfish",
    "read_messages",
    "read_standards",
    "standard_id",
]

CCSS = "ccss:"
# The teacher judgments of MathFish that count as aligned to the named standard.
ALIGNED = frozenset({"Full-intent Alignment", "Partial Alignment"})
MESSAGE_KINDS = frozenset({"question", "word_problem", "work_shown"})
SPLITS = ("dev", "heldout")
# The names of the hand-written data sets that `read_messages` reads.
MESSAGES = "tutoring_messages"
WORD_PROBLEMS = "word-problems"
# A Common Core code as the MathFish texts write them: 1.OA.A.2, 1.OA.2, 6.RP.A.3c,
# HSA-APR.B.3, HSA.APR.B.3, optionally after CCSS.MATH.CONTENT. (any case).
_CODE_RE = re.compile(
    r"(?:\b(?i:CCSS\.(?:MATH\.CONTENT\.)?))?"
    r"\b(?:[K1-8]|HS[ANFGS])[.-][A-Z]{1,4}(?:\.[A-Z])?\.\d{1,2}(?:\.?[a-e])?\b"
)
MASK = "the standard"


@dataclass(frozen=True)
class Standard:
    """A Common Core standard of the bundle: its id, code and the text a search reads."""

    id: str
    code: str
    description: str

    @property
    def text(self) -> str:
        """Code and description, e.g. ``6.RP.A.3.c: Find a percent of a quantity ...``."""
        return f"{self.code}: {self.description}" if self.description else self.code


@dataclass(frozen=True)
class LinkingItem:
    """One text to link and the standard ids accepted for it (any one of them counts)."""

    id: str
    text: str
    standards: tuple[str, ...]
    split: str = "all"
    kind: str = ""
    grade: str = ""


@dataclass
class LinkingSet:
    """The items of one data set, and what was read but skipped (with the reason)."""

    name: str
    items: list[LinkingItem]
    read: int = 0
    skipped: dict[str, str] = field(default_factory=dict)
    # Items whose text named a standard code that was masked (`mask_codes`).
    masked: int = 0


def cluster_of(standard: str) -> str:
    """The cluster of a standard id or code: up to its cluster letter.

    K-8 codes are ``grade.domain.cluster.standard[.part]``; high-school codes
    ``category-domain.cluster.standard[.part]``. A code with no cluster part (a practice
    standard such as ``ccss:HS.MP1``, a domain such as ``ccss:6.RP``) is its own cluster.

    >>> cluster_of("ccss:K.CC.A.2"), cluster_of("HSA-APR.B.3"), cluster_of("ccss:HS.MP1")
    ('ccss:K.CC.A', 'HSA-APR.B', 'ccss:HS.MP1')
    """
    return standard_cluster(standard)


def mask_codes(text: str) -> tuple[str, int]:
    """`text` with every Common Core code replaced by "the standard", and how many there were.

    >>> mask_codes("Here's a problem for CCSS.MATH.CONTENT.1.OA.A.2 and HSA-APR.B.3:")
    ("Here's a problem for the standard and the standard:", 2)
    >>> mask_codes("Sam has 2.5 feet of rope and 3 ft. of string.")[1]
    0
    """
    return _CODE_RE.subn(MASK, text)


def message_split(item_id: str) -> str:
    """``heldout`` for a deterministic third of the ids (a sha256 of the id), else ``dev``.

    >>> [message_split(i) for i in ("tm-001", "tm-002", "tm-003")]  # doctest: +SKIP
    ['dev', 'heldout', 'dev']
    """
    return "heldout" if stable_fold("split:" + item_id, 3) == 0 else "dev"


def read_standards(concepts: Path) -> list[Standard]:
    """The Common Core standards of a bundle's ``concepts.jsonl``, in file (id) order.

    >>> len(read_standards(Path("data/curriculum/concepts.jsonl")))  # doctest: +SKIP
    597
    """
    out = []
    with concepts.open(encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            rec = json.loads(line)
            if rec.get("kind") == "standard" and str(rec["id"]).startswith(CCSS):
                out.append(Standard(rec["id"], rec["name"], rec.get("description") or ""))
    return out


def standard_id(code: str, known: Collection[str]) -> str | None:
    """The bundle id of a Common Core code, or None when the bundle has no such standard.

    A high-school code written with a dot after its category (``HSA.APR.B.3``) is read as
    the bundle writes it (``HSA-APR.B.3``).

    >>> standard_id("6.RP.A.3.c", {"ccss:6.RP.A.3.c"}), standard_id("7.Z.A.1", set())
    ('ccss:6.RP.A.3.c', None)
    >>> standard_id("HSA.APR.B.3", {"ccss:HSA-APR.B.3"})
    'ccss:HSA-APR.B.3'
    """
    code = code.strip().removeprefix(CCSS)
    candidates = [code]
    if code.startswith("HS") and "-" not in code and code.count(".") >= 3:
        candidates.append(code.replace(".", "-", 1))
    return next((CCSS + c for c in candidates if CCSS + c in known), None)


def read_mathfish(path: Path, known: Collection[str]) -> LinkingSet:
    """The teacher-aligned rows of MathFish's annotation file as linking items.

    Rows judged not aligned (or not a math problem) are not read; an aligned row whose
    standard the bundle lacks is skipped, its id and code in `skipped`.

    >>> s = read_mathfish(Path("tests/data/mathfish/aligned_slice.csv"), known)  # doctest: +SKIP
    >>> s.items[0].standards  # doctest: +SKIP
    ('ccss:2.OA.A.1',)
    """
    out = LinkingSet("mathfish", [])
    with path.open(encoding="utf-8", newline="") as fh:
        for row_no, row in enumerate(csv.DictReader(fh), start=1):
            if (row.get("Align?") or "").strip() not in ALIGNED:
                continue
            out.read += 1
            item_id = f"mathfish:{row_no}"
            code = (row.get("Standard") or "").strip()
            sid = standard_id(code, known)
            text, masked = mask_codes((row.get("Problem/Activity Text") or "").strip())
            out.masked += bool(masked)
            if sid is None or not text:
                out.skipped[item_id] = f"standard {code!r} not in the bundle" if text else "no text"
                continue
            out.items.append(
                LinkingItem(item_id, text, (sid,), "all", "problem", (row.get("Grade") or ""))
            )
    return out


def read_messages(path: Path, known: Collection[str], name: str = MESSAGES) -> LinkingSet:
    """A messages file (the tutoring messages, the word problems) as the linking items of the
    data set `name`; a malformed line is a `ConfigurationError`.

    Every standard a message names must be a bundle id, its kind one of `MESSAGE_KINDS` and
    its split the one `message_split` gives its id.

    >>> s = read_messages(Path("data/benchmarks/tutoring_messages.jsonl"), known)  # doctest: +SKIP
    >>> sorted({i.split for i in s.items})  # doctest: +SKIP
    ['dev', 'heldout']
    >>> path = Path("data/benchmarks/word_problems.jsonl")
    >>> read_messages(path, known, WORD_PROBLEMS).name  # doctest: +SKIP
    'word-problems'
    """
    out = LinkingSet(name, [])
    seen: set[str] = set()
    for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{line_no}"
        try:
            rec = json.loads(line)
            item_id, standards, text = str(rec["id"]), tuple(rec["standards"]), rec["text"]
            grade = str(rec["grade"])
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise ConfigurationError(f"{where}: not a message record ({exc})") from None
        unknown = [s for s in standards if s not in known]
        problems = [
            f"unknown standards {unknown}" if unknown or not standards else "",
            f"kind {rec.get('kind')!r}" if rec.get("kind") not in MESSAGE_KINDS else "",
            f"split {rec.get('split')!r} is not {message_split(item_id)!r}"
            if rec.get("split") != message_split(item_id)
            else "",
            f"duplicate id {item_id}" if item_id in seen else "",
        ]
        if any(problems):
            raise ConfigurationError(f"{where}: " + "; ".join(p for p in problems if p))
        seen.add(item_id)
        out.read += 1
        out.items.append(LinkingItem(item_id, text, standards, rec["split"], rec["kind"], grade))
    return out
