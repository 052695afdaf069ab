"""Learning Commons Knowledge Graph loader: Common Core math standards and progressions.

Source: the Learning Commons Knowledge Graph public JSONL export v1.11.0 (CC BY 4.0;
learning progressions CC0 from Student Achievement Partners). Three files are read from
one folder:

* ``standards.jsonl``: ``StandardsFrameworkItem`` nodes. Only ``jurisdiction ==
  "Multi-State"`` (Common Core) is kept; California's copy is left out because every
  progression edge joins Common Core items.
* ``hierarchy.jsonl``: ``hasChild`` edges, parent = ``source_identifier``.
* ``progressions.jsonl``: ``buildsTowards`` and ``relatesTo`` edges between standards.

Record rules (design section 4):

* id ``ccss:<statementCode>`` when the item has a code, else ``lc:<identifier>``;
* kind ``standard`` when ``normalizedStatementType == "Standard"``, else ``grouping``
  (domains, clusters, grade levels, and the 13 untyped headings);
* name = the code, or the description when there is none;
* description = the description, then ``Note: <notes>`` when the item has notes, except
  the modeling paragraph repeated verbatim on 16 high-school items, which says nothing
  about the item itself; LaTeX in either becomes plain text;
* grade = ``gradeLevel`` as one string: a single grade as is (``"6"``, ``"K"``), a
  run of consecutive grades as ``first-last`` (``"9-12"``, ``"K-8"``), anything else
  joined by commas in K, 1..12 order; ``None`` when empty.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tutorgraph.mathtext.latex import latex_to_text
from tutorgraph.models.records import SourceRecords
from tutorgraph_client.models.curriculum import Concept, Prerequisite, PrerequisiteRelation

__all__ = ["load_learning_commons", "render_grades"]

SOURCE = "learning-commons"
LICENSE = "CC-BY-4.0"
JURISDICTION = "Multi-State"

_RELATIONS: dict[str, PrerequisiteRelation] = {
    "buildsTowards": "builds_towards",
    "relatesTo": "relates_to",
}
_GRADE_ORDER = ["K", *(str(g) for g in range(1, 13))]
# Boilerplate shared verbatim by the starred high-school modeling standards.
_MODELING_NOTE_PREFIX = "Modeling is best interpreted not as a collection of isolated topics"

_log = logging.getLogger(__name__)


def _jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) for each non-blank line; ValueError naming file and line."""
    try:
        with path.open(encoding="utf-8") as fh:
            for n, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{path}: line {n}: invalid JSON: {exc.msg}") from exc
                if not isinstance(obj, dict):
                    raise ValueError(f"{path}: line {n}: expected a JSON object")
                yield n, obj
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not valid UTF-8: {exc}") from exc


def _str(obj: dict[str, Any], key: str, where: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{where}: missing or empty {key!r}")
    return value.strip()


def render_grades(levels: list[str]) -> str | None:
    """Render a ``gradeLevel`` list as one grade string.

    >>> render_grades(["6"]), render_grades(["9", "10", "11", "12"]), render_grades([])
    ('6', '9-12', None)
    >>> render_grades(["K", "1", "2", "3", "4", "5", "6", "7", "8"]), render_grades(["3", "5"])
    ('K-8', '3,5')
    """
    known = {g: i for i, g in enumerate(_GRADE_ORDER)}
    grades = sorted(
        {g.strip() for g in levels if g.strip()}, key=lambda g: (known.get(g, len(known)), g)
    )
    if not grades:
        return None
    if len(grades) == 1:
        return grades[0]
    positions = [known.get(g) for g in grades]
    if all(p is not None for p in positions) and positions == list(
        range(known[grades[0]], known[grades[0]] + len(grades))
    ):
        return f"{grades[0]}-{grades[-1]}"
    return ",".join(grades)


def _grade(props: dict[str, Any], where: str) -> str | None:
    raw = props.get("gradeLevel")
    if raw is None:
        return None
    try:
        levels = json.loads(raw) if isinstance(raw, str) else raw
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where}: gradeLevel is not a JSON list: {raw!r}") from exc
    if not isinstance(levels, list) or not all(isinstance(g, str) for g in levels):
        raise ValueError(f"{where}: gradeLevel is not a list of strings: {raw!r}")
    return render_grades(levels)


def _description(props: dict[str, Any], where: str) -> str:
    text = latex_to_text(_str(props, "description", where))
    notes = props.get("notes")
    if isinstance(notes, str) and notes.strip() and not notes.startswith(_MODELING_NOTE_PREFIX):
        text = f"{text}\nNote: {latex_to_text(notes)}"
    return text


def load_learning_commons(root: Path) -> SourceRecords:
    """Common Core standards, their hierarchy and learning progressions from ``root``.

    Returns concepts (standards and groupings, with ``parent_ids`` from ``hasChild``) and
    prerequisites (``builds_towards``, ``relates_to``), deduplicated and sorted. Edges
    with an end outside Common Core are skipped (none in v1.11.0's progressions).

    >>> recs = load_learning_commons(Path("/work/shared/data/learning-commons"))  # doctest: +SKIP
    >>> recs.concepts[0].id  # doctest: +SKIP
    'ccss:1.G.A'
    """
    ids: dict[str, str] = {}  # LC identifier -> curriculum id
    pending: dict[str, tuple[dict[str, Any], str]] = {}  # identifier -> (properties, where)
    codes: dict[str, str] = {}
    path = root / "standards.jsonl"
    for n, obj in _jsonl(path):
        where = f"{path}: line {n}"
        props = obj.get("properties")
        if obj.get("type") != "node" or not isinstance(props, dict):
            continue
        if props.get("jurisdiction") != JURISDICTION:
            continue
        ident = _str(obj, "identifier", where)
        code = props.get("statementCode")
        if isinstance(code, str) and code.strip():
            cid = f"ccss:{code.strip()}"
            if cid in codes:
                raise ValueError(f"{where}: statementCode {code!r} already used by {codes[cid]}")
            codes[cid] = ident
        else:
            cid = f"lc:{ident}"
        if ident in ids:
            raise ValueError(f"{where}: identifier {ident} appears twice")
        ids[ident] = cid
        pending[ident] = (props, where)

    parents: dict[str, set[str]] = {ident: set() for ident in ids}
    skipped = 0
    path = root / "hierarchy.jsonl"
    for n, obj in _jsonl(path):
        if obj.get("type") != "relationship" or obj.get("label") != "hasChild":
            continue
        parent, child = obj.get("source_identifier"), obj.get("target_identifier")
        if not isinstance(parent, str) or not isinstance(child, str):
            raise ValueError(f"{path}: line {n}: relationship without source/target identifier")
        if parent in ids and child in ids:
            parents[child].add(ids[parent])
        else:
            skipped += 1
    if skipped:
        _log.debug("hierarchy: %d hasChild edges outside %s skipped", skipped, JURISDICTION)

    concepts: list[Concept] = []
    for ident, (props, where) in pending.items():
        code = props.get("statementCode")
        name = code.strip() if isinstance(code, str) and code.strip() else None
        description = _description(props, where)
        concepts.append(
            Concept(
                id=ids[ident],
                name=name or description,
                description=description,
                kind="standard"
                if props.get("normalizedStatementType") == "Standard"
                else "grouping",
                grade=_grade(props, where),
                parent_ids=sorted(parents[ident]),
                source=SOURCE,
                license=LICENSE,
            )
        )

    edges: set[tuple[str, str, PrerequisiteRelation]] = set()
    skipped = 0
    path = root / "progressions.jsonl"
    for n, obj in _jsonl(path):
        relation = _RELATIONS.get(str(obj.get("label")))
        if obj.get("type") != "relationship" or relation is None:
            continue
        src, dst = obj.get("source_identifier"), obj.get("target_identifier")
        if not isinstance(src, str) or not isinstance(dst, str):
            raise ValueError(f"{path}: line {n}: relationship without source/target identifier")
        if src in ids and dst in ids and src != dst:
            edges.add((ids[src], ids[dst], relation))
        else:
            skipped += 1
    if skipped:
        _log.warning("progressions: %d edges outside %s skipped", skipped, JURISDICTION)

    return SourceRecords(
        concepts=sorted(concepts, key=lambda c: c.id),
        prerequisites=[
            Prerequisite(prerequisite_id=a, concept_id=b, relation=r, source=SOURCE)
            for a, b, r in sorted(edges)
        ],
    )
