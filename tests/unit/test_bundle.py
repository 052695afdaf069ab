"""The curriculum bundle on the committed slices: writing, sorting, validating, rejecting.

Design section 4: JSON Lines sorted by id, byte-identical builds, and bad records rejected
with file, line and reason while nothing valid is dropped.
"""

from __future__ import annotations

import csv
import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from tutorgraph.errors import BundleError
from tutorgraph.ingest.bundle import (
    BUNDLE_FILES,
    bundle_hash,
    read_bundle,
    validate_bundle,
    write_bundle,
)
from tutorgraph.models.records import SourceRecords

pytestmark = pytest.mark.unit

DATA = Path(__file__).resolve().parents[1] / "data"


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in _lines(path)]


def _expected_counts() -> dict[str, int]:
    """Counts derived from the raw slice files, independently of the loaders."""
    with (DATA / "eedi" / "train.csv").open(encoding="utf-8", newline="") as fh:
        train = list(csv.DictReader(fh))
    with (DATA / "eedi" / "subject_metadata.csv").open(encoding="utf-8-sig", newline="") as fh:
        subject_ids = {row["SubjectId"] for row in csv.DictReader(fh)}
    with (DATA / "eedi" / "misconception_mapping.csv").open(encoding="utf-8", newline="") as fh:
        n_misconceptions = sum(1 for _ in csv.DictReader(fh))
    standards = [
        json.loads(line)
        for line in (DATA / "learning-commons" / "standards.jsonl").open(encoding="utf-8")
    ]
    common_core = sum(1 for s in standards if s["properties"]["jurisdiction"] == "Multi-State")
    progressions = (DATA / "learning-commons" / "progressions.jsonl").read_text().splitlines()
    constructs = {row["ConstructId"] for row in train}
    subjects = subject_ids | {row["SubjectId"] for row in train}
    return {
        "concepts.jsonl": len(subjects) + len(constructs) + common_core,
        "prerequisites.jsonl": len(progressions),
        "misconceptions.jsonl": n_misconceptions,
        "documents.jsonl": len(train),
    }


# -- 1. building a bundle from the committed slices ---------------------------------------


def test_slice_bundle_files_counts_and_order(
    tmp_path: Path, full_slice_records: SourceRecords
) -> None:
    counts = write_bundle(full_slice_records, tmp_path)

    expected = _expected_counts()
    # 43 subjects + 1984 (only in train.csv) + constructs + 35 Common Core items, etc.
    assert counts == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(BUNDLE_FILES)
    for name, n in counts.items():
        raw = (tmp_path / name).read_bytes()
        assert raw.endswith(b"\n") and b"\r" not in raw
        assert len(_lines(tmp_path / name)) == n

    for name in ("concepts.jsonl", "misconceptions.jsonl", "documents.jsonl"):
        ids = [row["id"] for row in _rows(tmp_path / name)]
        assert ids == sorted(ids), f"{name} is not sorted by id"
        assert len(set(ids)) == len(ids), f"{name} repeats an id"
    edges = [
        (r["concept_id"], r["prerequisite_id"], r["relation"])
        for r in _rows(tmp_path / "prerequisites.jsonl")
    ]
    assert edges == sorted(edges)

    concept_ids = {row["id"] for row in _rows(tmp_path / "concepts.jsonl")}
    assert {"ccss:6.NS.A.1", "eedi:construct:1428", "eedi:subject:1984"} <= concept_ids
    # California copies are left out: one ccss:6.NS.A.1, not two.
    assert sum(1 for i in concept_ids if i == "ccss:6.NS.A.1") == 1

    report = validate_bundle(tmp_path)
    assert report.ok, report.errors[:5]
    assert report.errors == []
    assert report.counts == {name.removesuffix(".jsonl"): n for name, n in expected.items()}


def test_read_bundle_returns_what_was_written(
    slice_bundle: Path, full_slice_records: SourceRecords
) -> None:
    back = read_bundle(slice_bundle)
    for field in ("concepts", "prerequisites", "misconceptions", "documents"):
        assert sorted(map(repr, getattr(back, field))) == sorted(
            map(repr, getattr(full_slice_records, field))
        )


def test_write_bundle_is_byte_stable_whatever_the_input_order(
    tmp_path: Path, full_slice_records: SourceRecords
) -> None:
    shuffled = SourceRecords()
    rng = random.Random(7)
    for field in ("concepts", "prerequisites", "misconceptions", "documents"):
        recs = list(getattr(full_slice_records, field))
        rng.shuffle(recs)
        setattr(shuffled, field, recs)
    write_bundle(full_slice_records, tmp_path / "a")
    write_bundle(shuffled, tmp_path / "b")
    for name in BUNDLE_FILES:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    assert bundle_hash(tmp_path / "a") == bundle_hash(tmp_path / "b")


def test_bundle_hash_tracks_content(
    slice_bundle: Path, copy_bundle: Callable[[Path], Path]
) -> None:
    copy = copy_bundle(slice_bundle)
    assert bundle_hash(copy) == bundle_hash(slice_bundle)
    assert len(bundle_hash(copy)) == 64
    path = copy / "misconceptions.jsonl"
    path.write_text(path.read_text(encoding="utf-8").replace("Does not", "Doesn't", 1))
    assert bundle_hash(copy) != bundle_hash(slice_bundle)


# -- 2. validating broken records ---------------------------------------------------------

_CONCEPT = {
    "id": "ccss:9.ZZ.Z.1",
    "name": "9.ZZ.Z.1",
    "description": "",
    "kind": "standard",
    "grade": None,
    "parent_ids": [],
    "source": "test",
    "license": "CC-BY-4.0",
}
_MISCONCEPTION = {
    "id": "test:misconception:1",
    "text": "Adds the denominators",
    "concept_ids": [],
    "source": "test",
    "license": "CC-BY-4.0",
}
_DOCUMENT = {
    "id": "test:doc:1",
    "kind": "explanation",
    "title": "t",
    "text": "some text",
    "concept_ids": [],
    "source": "test",
    "license": "CC-BY-4.0",
}
_EDGE = {
    "prerequisite_id": "ccss:6.RP.A.1",
    "concept_id": "ccss:6.RP.A.2",
    "relation": "builds_towards",
    "source": "test",
}


def _dumps(obj: dict[str, object]) -> str:
    return json.dumps(obj, separators=(",", ":"))


def _without(obj: dict[str, object], key: str) -> dict[str, object]:
    return {k: v for k, v in obj.items() if k != key}


# (file, bad line, words the reason must contain). Each goes in at a known line.
BAD_RECORDS: list[tuple[str, str, tuple[str, ...]]] = [
    ("concepts.jsonl", '{"id": "ccss:9.ZZ.Z.1", "name": ', ("invalid JSON",)),
    ("concepts.jsonl", "[1, 2, 3]", ("not of type 'object'",)),
    ("concepts.jsonl", _dumps(_without(_CONCEPT, "name")), ("'name'", "required")),
    ("concepts.jsonl", _dumps({**_CONCEPT, "id": "CCSS 9.ZZ"}), ("id", "does not match")),
    ("concepts.jsonl", _dumps({**_CONCEPT, "kind": "topic"}), ("kind", "'topic'", "not one of")),
    ("concepts.jsonl", _dumps({**_CONCEPT, "name": "   "}), ("name", "at least 1 character")),
    ("concepts.jsonl", _dumps({**_CONCEPT, "colour": "red"}), ("colour", "Additional prop")),
    (
        "concepts.jsonl",
        _dumps({**_CONCEPT, "parent_ids": ["ccss:9.ZZ.Z"]}),
        ("unknown parent_ids", "ccss:9.ZZ.Z"),
    ),
    (
        "prerequisites.jsonl",
        _dumps({**_EDGE, "concept_id": "ccss:6.RP.A.1"}),
        ("own prerequisite",),
    ),
    (
        "prerequisites.jsonl",
        _dumps({**_EDGE, "prerequisite_id": "ccss:5.NF.B.3"}),
        ("unknown concept ids", "ccss:5.NF.B.3"),
    ),
    ("prerequisites.jsonl", _dumps({**_EDGE, "relation": "requires"}), ("relation", "'requires'")),
    (
        "misconceptions.jsonl",
        _dumps({**_MISCONCEPTION, "concept_ids": ["eedi:construct:999999"]}),
        ("unknown concept_ids", "eedi:construct:999999"),
    ),
    ("misconceptions.jsonl", _dumps(_without(_MISCONCEPTION, "text")), ("'text'", "required")),
    ("documents.jsonl", _dumps({**_DOCUMENT, "kind": "video"}), ("kind", "'video'", "not one of")),
    ("documents.jsonl", _dumps({**_DOCUMENT, "id": "test:doc 2"}), ("id", "does not match")),
]


def _break_bundle(bundle: Path) -> dict[tuple[str, int], tuple[str, ...]]:
    """Insert every bad record (and duplicates, and blank lines); return where they went."""
    where: dict[tuple[str, int], tuple[str, ...]] = {}
    lines = {name: _lines(bundle / name) for name in BUNDLE_FILES}

    # Duplicates of real records: the first copy stays valid, the later one is rejected.
    dup_edge = lines["prerequisites.jsonl"][0]
    dup_concept = lines["concepts.jsonl"][3]
    dup_doc = lines["documents.jsonl"][0]
    extra: list[tuple[str, str, tuple[str, ...]]] = [
        ("concepts.jsonl", dup_concept, ("duplicate id", json.loads(dup_concept)["id"])),
        ("prerequisites.jsonl", dup_edge, ("duplicate edge",)),
        ("documents.jsonl", dup_doc, ("duplicate id", json.loads(dup_doc)["id"])),
    ]
    for i, (name, bad, _) in enumerate(BAD_RECORDS + extra):
        file_lines = lines[name]
        # The first one goes on the very first line, so that later line numbers shift.
        at = 0 if name == "concepts.jsonl" and i == 0 else len(file_lines)
        if i % 4 == 1:
            file_lines.insert(at, "")  # blank lines are skipped but still counted
            at += 1
        file_lines.insert(at, bad)
    for name, file_lines in lines.items():
        (bundle / name).write_text("\n".join(file_lines) + "\n", encoding="utf-8")
    # Find each bad line's 1-based number in the rewritten files.
    for name, bad, words in BAD_RECORDS + extra:
        numbered = _lines(bundle / name)
        hits = [n for n, line in enumerate(numbered, start=1) if line == bad]
        where[(name, hits[-1])] = words  # a duplicate's rejected copy is the later one
    return where


def test_validate_reports_each_bad_record_and_keeps_every_good_one(
    slice_bundle: Path, copy_bundle: Callable[[Path], Path]
) -> None:
    good = validate_bundle(slice_bundle)
    bundle = copy_bundle(slice_bundle)
    expected = _break_bundle(bundle)

    report = validate_bundle(bundle)

    assert not report.ok
    got = {(e.file, e.line): e.reason for e in report.errors}
    assert set(got) == set(expected), "reported locations differ from the injected ones"
    for loc, words in expected.items():
        for word in words:
            assert word in got[loc], f"{loc[0]}:{loc[1]}: {got[loc]!r} does not mention {word!r}"
    # Nothing valid dropped: every original record is still accepted.
    assert report.counts == good.counts
    assert [str(e) for e in report.errors] == [
        f"{e.file}:{e.line}: {e.reason}" for e in report.errors
    ]
    assert report.errors == sorted(report.errors, key=lambda e: (e.file, e.line))


def test_read_bundle_refuses_a_broken_bundle_listing_every_error(
    slice_bundle: Path, copy_bundle: Callable[[Path], Path]
) -> None:
    bundle = copy_bundle(slice_bundle)
    expected = _break_bundle(bundle)
    with pytest.raises(BundleError) as info:
        read_bundle(bundle)
    err = info.value
    assert len(err.errors) == len(expected)
    assert f"{len(expected)} invalid record(s)" in err.message
    assert err.code == "invalid_bundle"
    assert err.details["errors"][0] == str(err.errors[0])


def test_validate_missing_bundle_or_files(tmp_path: Path) -> None:
    with pytest.raises(BundleError, match="not found"):
        validate_bundle(tmp_path / "nope")
    with pytest.raises(BundleError, match="holds none of"):
        validate_bundle(tmp_path)


def test_records_pointing_at_a_rejected_concept_are_rejected(
    slice_bundle: Path, copy_bundle: Callable[[Path], Path]
) -> None:
    """A reference to a concept that validation itself rejected is a dangling reference.

    Known bug (reported): `_check_references` resolves references against every concept
    that parsed, including the ones it then rejects, so these records are accepted.
    """
    good = validate_bundle(slice_bundle)
    bundle = copy_bundle(slice_bundle)
    orphan = {**_CONCEPT, "parent_ids": ["ccss:9.ZZ.Z"]}  # rejected: unknown parent
    with (bundle / "concepts.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(_dumps(orphan) + "\n")
    with (bundle / "misconceptions.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(_dumps({**_MISCONCEPTION, "concept_ids": [orphan["id"]]}) + "\n")
    with (bundle / "prerequisites.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(_dumps({**_EDGE, "prerequisite_id": orphan["id"]}) + "\n")

    report = validate_bundle(bundle)

    assert {e.file for e in report.errors} == {
        "concepts.jsonl",
        "misconceptions.jsonl",
        "prerequisites.jsonl",
    }
    assert report.counts == good.counts


# -- 3. an add-on bundle: references to the concepts of the index it goes into -------------

# What the index holds (shipped ids), and a bundle of one own concept that links to them.
_INDEX_IDS = frozenset({"ccss:6.EE.B.7", "ccss:7.EE.B.4", "ccss:7.EE.B.4.a"})
_OWN = {
    **_CONCEPT,
    "id": "myclass:two-step",
    "name": "Two-step equations",
    "kind": "section",
    "parent_ids": ["ccss:7.EE.B.4"],
}
_NOWHERE = "ccss:9.ZZ.Z.9"


def _addon(folder: Path, extra: dict[str, list[dict[str, object]]] | None = None) -> Path:
    """The add-on bundle: its concept's parent, an edge each way, a document and a
    misconception all reference concepts only the index holds; `extra` rows are appended."""
    files: dict[str, list[dict[str, object]]] = {
        "concepts.jsonl": [_OWN],
        "prerequisites.jsonl": [
            {**_EDGE, "prerequisite_id": "myclass:two-step", "concept_id": "ccss:7.EE.B.4.a"},
            {**_EDGE, "prerequisite_id": "ccss:6.EE.B.7", "concept_id": "myclass:two-step"},
        ],
        "misconceptions.jsonl": [{**_MISCONCEPTION, "concept_ids": ["ccss:7.EE.B.4.a"]}],
        "documents.jsonl": [{**_DOCUMENT, "concept_ids": ["myclass:two-step", "ccss:7.EE.B.4.a"]}],
    }
    for name, rows in (extra or {}).items():
        files[name] = files[name] + rows
    folder.mkdir(parents=True, exist_ok=True)
    for name, rows in files.items():
        (folder / name).write_text("".join(_dumps(r) + "\n" for r in rows), encoding="utf-8")
    return folder


def test_an_add_on_bundle_resolves_its_references_against_the_index(tmp_path: Path) -> None:
    report = validate_bundle(_addon(tmp_path), _INDEX_IDS)

    assert report.ok, report.errors
    assert report.counts == {
        "concepts": 1,
        "prerequisites": 2,
        "misconceptions": 1,
        "documents": 1,
    }
    # Every index id the bundle leans on, and none of its own.
    assert report.from_index == set(_INDEX_IDS)
    assert report.unknown_ids == set()


def test_without_the_index_the_same_references_are_unknown(tmp_path: Path) -> None:
    """As before add-ons: the bundle alone. Its own concept falls (unknown parent), so the
    records that reference it fall too; `unknown_ids` names only the ids it never defines."""
    report = validate_bundle(_addon(tmp_path))

    assert [(e.file, e.line) for e in report.errors] == [
        ("concepts.jsonl", 1),
        ("documents.jsonl", 1),
        ("misconceptions.jsonl", 1),
        ("prerequisites.jsonl", 1),
        ("prerequisites.jsonl", 2),
    ]
    assert all(e.reason.startswith("unknown") for e in report.errors)
    assert not any("index" in e.reason for e in report.errors)
    assert report.unknown_ids == set(_INDEX_IDS)
    assert report.from_index == set()
    assert sum(report.counts.values()) == 0


def test_an_id_in_neither_the_bundle_nor_the_index_is_rejected_record_by_record(
    tmp_path: Path,
) -> None:
    bad = {
        "concepts.jsonl": [{**_OWN, "id": "myclass:orphan", "parent_ids": [_NOWHERE]}],
        "prerequisites.jsonl": [
            {**_EDGE, "prerequisite_id": _NOWHERE, "concept_id": "ccss:7.EE.B.4.a"}
        ],
        "misconceptions.jsonl": [
            {**_MISCONCEPTION, "id": "test:misconception:2", "concept_ids": [_NOWHERE]}
        ],
        "documents.jsonl": [
            {**_DOCUMENT, "id": "test:doc:2", "concept_ids": ["myclass:two-step", _NOWHERE]}
        ],
    }
    report = validate_bundle(_addon(tmp_path, bad), _INDEX_IDS)

    assert {(e.file, e.line) for e in report.errors} == {
        ("concepts.jsonl", 2),
        ("prerequisites.jsonl", 3),
        ("misconceptions.jsonl", 2),
        ("documents.jsonl", 2),
    }
    for e in report.errors:
        assert _NOWHERE in e.reason and "in neither the bundle nor the index" in e.reason, e
    assert report.unknown_ids == {_NOWHERE}
    # The good records all stay.
    assert report.counts == {
        "concepts": 1,
        "prerequisites": 2,
        "misconceptions": 1,
        "documents": 1,
    }


def test_a_bundle_concept_the_index_holds_is_the_bundle_s_and_stays_referable(
    tmp_path: Path,
) -> None:
    """A concept of the bundle that the index holds too is an update, not an index reference;
    when the bundle's copy is rejected, the index's still resolves the records about it."""
    update = {**_CONCEPT, "id": "ccss:6.EE.B.7", "name": "6.EE.B.7"}
    report = validate_bundle(_addon(tmp_path, {"concepts.jsonl": [update]}), _INDEX_IDS)
    assert report.ok, report.errors
    assert report.from_index == {"ccss:7.EE.B.4", "ccss:7.EE.B.4.a"}

    broken = {**update, "parent_ids": [_NOWHERE]}
    report = validate_bundle(_addon(tmp_path / "b", {"concepts.jsonl": [broken]}), _INDEX_IDS)
    assert [(e.file, e.line) for e in report.errors] == [("concepts.jsonl", 2)]
    assert report.counts["prerequisites"] == 2  # the edge from ccss:6.EE.B.7 resolves


def test_index_concept_ids_reads_the_live_catalogue(tmp_path: Path) -> None:
    from tutorgraph.errors import IndexDamagedError
    from tutorgraph.index.references import index_concept_ids, validate_for_index
    from tutorgraph.stores.manifest import Manifest
    from tutorgraph_client.models.curriculum import Concept

    index = tmp_path / "index"
    assert index_concept_ids(index) is None  # no index yet
    # An index as written before generations: the manifest and the catalogue at the top.
    index.mkdir()
    Manifest(embedder="m", embedding_dim=4, bundle_hash="x", counts={"concepts": 3}).write(index)
    concepts = [Concept.model_validate({**_CONCEPT, "id": i}) for i in sorted(_INDEX_IDS)]
    write_bundle(SourceRecords(concepts=concepts), index / "catalogue")
    assert index_concept_ids(index) == _INDEX_IDS

    bundle = _addon(tmp_path / "bundle")
    assert validate_for_index(bundle, index).ok
    # An ingest that prunes keeps only the bundle's records: its own references only.
    assert validate_for_index(bundle, index, prune=True).unknown_ids == set(_INDEX_IDS)
    # A folder without an index resolves against the bundle alone, in the index's words.
    fresh = validate_for_index(bundle, tmp_path / "new")
    assert "in neither the bundle nor the index" in fresh.errors[0].reason

    concepts_file = index / "catalogue" / "concepts.jsonl"
    lines = concepts_file.read_text(encoding="utf-8").splitlines(keepends=True)
    for damage, words in (
        (lines[:2], "concepts.jsonl holds 2 concepts, the manifest 3"),
        (["{not json\n"], "concepts.jsonl cannot be read: JSONDecodeError"),
        (None, "concepts.jsonl is missing"),
    ):
        if damage is None:
            concepts_file.unlink()
        else:
            concepts_file.write_text("".join(damage), encoding="utf-8")
        with pytest.raises(IndexDamagedError, match="doctor --repair") as info:
            index_concept_ids(index)
        assert f"catalogue is damaged ({words})" in info.value.message
