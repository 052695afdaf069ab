"""Learning Commons loader on the real slice in tests/data/learning-commons (see SOURCE.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tutorgraph.ingest.learning_commons import load_learning_commons, render_grades
from tutorgraph.models.records import SourceRecords
from tutorgraph_client.models.curriculum import Concept

pytestmark = pytest.mark.unit

DATA = Path(__file__).resolve().parents[1] / "data" / "learning-commons"
NUMBER_SYSTEM_6 = "lc:aa69fcdc-79c8-50ab-90bc-7c6592d6d564"
GRADE_6 = "lc:17ceabe3-d4ff-5ad3-b0b6-951cc69b64d5"
MATH_CONTENT = "lc:957d5d34-22eb-5ec5-b50a-80d9d95a0678"


@pytest.fixture(scope="module")
def records() -> SourceRecords:
    return load_learning_commons(DATA)


@pytest.fixture(scope="module")
def concepts(records: SourceRecords) -> dict[str, Concept]:
    return {c.id: c for c in records.concepts}


def _lines(name: str) -> list[dict[str, object]]:
    with (DATA / name).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def test_only_multi_state_items(records: SourceRecords) -> None:
    nodes = _lines("standards.jsonl")
    multi = [n for n in nodes if n["properties"]["jurisdiction"] == "Multi-State"]  # type: ignore[index]
    assert len(nodes) == 37 and len(multi) == 35
    assert len(records.concepts) == 35
    assert {c.source for c in records.concepts} == {"learning-commons"}
    assert {c.license for c in records.concepts} == {"CC-BY-4.0"}


def test_id_scheme(records: SourceRecords, concepts: dict[str, Concept]) -> None:
    ccss = [c for c in records.concepts if c.id.startswith("ccss:")]
    lc = [c for c in records.concepts if c.id.startswith("lc:")]
    assert len(ccss) == 28 and len(lc) == 7
    standard = concepts["ccss:6.NS.A.1"]
    assert standard.name == "6.NS.A.1"
    assert standard.description.startswith(
        "Interpret and compute quotients of fractions, and solve word problems"
    )
    # items without a statementCode use their LC identifier and their description as name
    domain = concepts[NUMBER_SYSTEM_6]
    assert (domain.name, domain.description) == ("The Number System", "The Number System")


def test_kinds(concepts: dict[str, Concept]) -> None:
    assert concepts["ccss:6.NS.A.1"].kind == "standard"
    assert concepts["ccss:6.NS.C.6.a"].kind == "standard"  # a "Component" is a standard
    assert concepts["ccss:6.NS.A"].kind == "grouping"  # cluster
    assert concepts[NUMBER_SYSTEM_6].kind == "grouping"  # domain
    assert concepts[MATH_CONTENT].kind == "grouping"  # no normalizedStatementType at all


def test_grades(concepts: dict[str, Concept]) -> None:
    assert concepts["ccss:6.RP.A.1"].grade == "6"
    assert concepts["ccss:HSF-IF.B.6"].grade == "9-12"
    assert concepts[MATH_CONTENT].grade == "K-8"


@pytest.mark.parametrize(
    ("levels", "expected"),
    [
        (["K"], "K"),
        (["6"], "6"),
        (["9", "10", "11", "12"], "9-12"),
        (["12", "11", "10", "9"], "9-12"),
        ([str(g) for g in ["K", *range(1, 13)]], "K-12"),
        (["3", "5"], "3,5"),
        (["K", "PK"], "K,PK"),
        ([], None),
    ],
)
def test_render_grades(levels: list[str], expected: str | None) -> None:
    assert render_grades(levels) == expected


def test_hierarchy_parents(concepts: dict[str, Concept]) -> None:
    assert concepts["ccss:6.NS.A.1"].parent_ids == ["ccss:6.NS.A"]
    assert concepts["ccss:6.NS.C.6.a"].parent_ids == ["ccss:6.NS.C.6"]
    assert concepts["ccss:6.NS.A"].parent_ids == [NUMBER_SYSTEM_6]
    assert concepts[NUMBER_SYSTEM_6].parent_ids == [GRADE_6]
    assert concepts[GRADE_6].parent_ids == [MATH_CONTENT]
    assert concepts[MATH_CONTENT].parent_ids == []
    # every parent is a loaded concept (the California edge in the slice adds nothing)
    for c in concepts.values():
        assert all(p in concepts for p in c.parent_ids)


def test_notes(concepts: dict[str, Concept]) -> None:
    assert concepts["ccss:6.RP.A.2"].description.endswith(
        "\nNote: Expectations for unit rates in this grade are limited to non-complex fractions."
    )
    # the shared modeling paragraph is left out
    assert "Note:" not in concepts["ccss:HSF-IF.B.6"].description
    assert concepts["ccss:HSF-IF.B.6"].description.startswith(
        "Calculate and interpret the average rate of change of a function"
    )


def test_latex_in_descriptions_becomes_text(concepts: dict[str, Concept]) -> None:
    text = concepts["ccss:6.NS.A.1"].description
    assert "(2/3) ÷ (3/4) = 8/9 because 3/4 of 8/9 is 2/3" in text
    assert "(a/b) ÷ (c/d) = ad/(bc)" in text
    assert "\\" not in text and "$" not in text


def test_progression_edges(records: SourceRecords, concepts: dict[str, Concept]) -> None:
    edges = {(p.prerequisite_id, p.concept_id, p.relation) for p in records.prerequisites}
    assert len(records.prerequisites) == len(edges) == 21
    assert sum(r == "builds_towards" for _, _, r in edges) == 17
    assert sum(r == "relates_to" for _, _, r in edges) == 4
    assert ("ccss:6.RP.A.1", "ccss:6.RP.A.2", "builds_towards") in edges
    # relatesTo keeps the direction it is stored with; both directions exist here
    assert ("ccss:6.NS.C.7.a", "ccss:6.NS.C.7.b", "relates_to") in edges
    assert ("ccss:6.NS.C.7.b", "ccss:6.NS.C.7.a", "relates_to") in edges
    assert {p.source for p in records.prerequisites} == {"learning-commons"}
    for a, b, _ in edges:
        assert a in concepts and b in concepts
    # source_identifier is the prerequisite
    raw = _lines("progressions.jsonl")
    by_ident = {n["identifier"]: n for n in _lines("standards.jsonl")}
    first = raw[0]
    src = by_ident[first["source_identifier"]]["properties"]["statementCode"]  # type: ignore[index]
    dst = by_ident[first["target_identifier"]]["properties"]["statementCode"]  # type: ignore[index]
    assert (f"ccss:{src}", f"ccss:{dst}") in {(a, b) for a, b, _ in edges}


def test_sorted_deduplicated_and_deterministic(tmp_path: Path, records: SourceRecords) -> None:
    ids = [c.id for c in records.concepts]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    keys = [(p.prerequisite_id, p.concept_id, p.relation) for p in records.prerequisites]
    assert keys == sorted(keys)
    # duplicated and reversed input lines give the same records
    for name in ("standards.jsonl", "hierarchy.jsonl"):
        lines = (DATA / name).read_text(encoding="utf-8").splitlines(keepends=True)
        (tmp_path / name).write_text("".join(reversed(lines)), encoding="utf-8")
    prog = (DATA / "progressions.jsonl").read_text(encoding="utf-8")
    (tmp_path / "progressions.jsonl").write_text(prog + prog, encoding="utf-8")
    assert load_learning_commons(tmp_path) == records


def test_edges_outside_the_slice_are_skipped(tmp_path: Path) -> None:
    for name in ("standards.jsonl", "hierarchy.jsonl", "progressions.jsonl"):
        shutil.copy(DATA / name, tmp_path / name)
    edge = _lines("progressions.jsonl")[0]
    edge["target_identifier"] = "00000000-0000-0000-0000-000000000000"
    with (tmp_path / "progressions.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(edge) + "\n")
    assert len(load_learning_commons(tmp_path).prerequisites) == 21


def test_bad_line_names_file_and_line(tmp_path: Path) -> None:
    for name in ("standards.jsonl", "hierarchy.jsonl", "progressions.jsonl"):
        shutil.copy(DATA / name, tmp_path / name)
    with (tmp_path / "hierarchy.jsonl").open("a", encoding="utf-8") as fh:
        fh.write('{"type": "relationship", "label": "hasChild"\n')
    with pytest.raises(ValueError, match=r"hierarchy\.jsonl: line 35: invalid JSON"):
        load_learning_commons(tmp_path)
