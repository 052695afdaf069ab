"""The OpenStax loader on a real slice: Prealgebra 2e, chapter 1, sections 1.1 to 1.3."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree

from tutorgraph.ingest.openstax import OpenStaxStats, load_openstax, section_id
from tutorgraph.models.records import SourceRecords

pytestmark = pytest.mark.unit

SLICE = Path(__file__).resolve().parents[1] / "data" / "openstax"
SECTIONS = {
    "m81243": "Introduction to Whole Numbers",
    "m81244": "Add Whole Numbers",
    "m81245": "Subtract Whole Numbers",
}
_TAG_RE = re.compile(r"</?[A-Za-z][\w:.-]*[\s/>]")
_MATHML_WORDS = re.compile(r"\b(mrow|mfrac|msup|msub|msqrt|mroot|mtext|mspace|xmlns)\b")


def words(text: str) -> int:
    return len(text.split())


@pytest.fixture(scope="module")
def records() -> SourceRecords:
    return load_openstax(SLICE, count_tokens=words)


def _docs(records: SourceRecords, kind: str) -> dict[str, str]:
    return {d.id: d.text for d in records.documents if d.kind == kind}


def test_one_concept_per_section_in_book_order(records: SourceRecords) -> None:
    assert [(c.id, c.name) for c in records.concepts] == [
        (section_id(m), title) for m, title in SECTIONS.items()
    ]
    first = records.concepts[0]
    assert first.kind == "section"
    assert first.grade is None and first.parent_ids == []
    assert (first.source, first.license) == ("openstax", "CC-BY-4.0")
    # The objectives from "By the end of this section, you will be able to:".
    assert first.description.startswith(
        "Identify counting numbers and whole numbers; Model whole numbers;"
    )
    assert first.description.endswith("Round whole numbers")


def test_chapter_introduction_is_not_a_section(records: SourceRecords) -> None:
    assert section_id("m81242") not in {c.id for c in records.concepts}
    assert not any(d.id.startswith("openstax:m81242:") for d in records.documents)


def test_be_prepared_links_become_deduplicated_edges(records: SourceRecords) -> None:
    # m81244 links twice to m81243, m81245 twice to m81244.
    edges = [(p.prerequisite_id, p.concept_id, p.relation) for p in records.prerequisites]
    assert edges == [
        (section_id("m81243"), section_id("m81244"), "prepares_for"),
        (section_id("m81244"), section_id("m81245"), "prepares_for"),
    ]
    assert {p.source for p in records.prerequisites} == {"openstax"}


def test_worked_example_has_problem_and_solution(records: SourceRecords) -> None:
    examples = _docs(records, "worked_example")
    text = examples["openstax:m81243:example:fs-id1262372"]
    assert text.startswith(
        "Which of the following are (a) counting numbers? (b) whole numbers?\n"
        "0, 1/4, 3, 5.2, 15, 105\nSolution: (a) The counting numbers start at 1,"
    )
    # The exercise wrapped by the example is not a document of its own.
    assert "openstax:m81243:exercise:fs-id1398237" not in {d.id for d in records.documents}


def test_try_it_exercise_with_solution(records: SourceRecords) -> None:
    exercises = _docs(records, "exercise")
    assert exercises["openstax:m81243:exercise:fs-id3298473"] == (
        "Which of the following are (a) counting numbers (b) whole numbers?\n"
        "0, 2/3, 2, 9, 11.8, 241, 376\n"
        "Solution: (a) 2, 9, 241, 376\n(b) 0, 2, 9, 241, 376"
    )


def test_practice_exercise_carries_its_instruction_and_topic(records: SourceRecords) -> None:
    doc = next(d for d in records.documents if d.id == "openstax:m81244:exercise:fs-id1386835")
    assert doc.title == "Add Whole Numbers — Use Addition Notation"
    assert doc.text == (
        "In the following exercises, translate the following from math expressions to words.\n"
        "5 + 2\nSolution: five plus two; the sum of 5 and 2."
    )
    # An exercise without a printed solution has no "Solution:" line.
    odd = next(d for d in records.documents if d.id == "openstax:m81244:exercise:fs-id2169300")
    assert odd.text.endswith("\n6 + 3")


def test_readiness_quiz_exercises_are_left_out(records: SourceRecords) -> None:
    ids = {d.id for d in records.documents}
    assert "openstax:m81244:exercise:fs-idm207409024" not in ids
    assert "openstax:m81244:exercise:fs-idm218505136" not in ids
    assert not any("take this readiness quiz" in d.text for d in records.documents)


def test_every_example_and_exercise_in_the_markup_is_accounted_for(
    records: SourceRecords,
) -> None:
    stats = OpenStaxStats()
    recs = load_openstax(SLICE, count_tokens=words, stats=stats)
    cnxml = "{http://cnx.rice.edu/cnxml}"
    n_examples = n_exercises = 0
    for module in SECTIONS:
        root = etree.parse(str(SLICE / "modules" / module / "index.cnxml")).getroot()
        n_examples += sum(1 for _ in root.iter(f"{cnxml}example"))
        n_exercises += sum(
            1
            for ex in root.iter(f"{cnxml}exercise")
            if next(ex.iterancestors(f"{cnxml}example"), None) is None
        )
    kinds = [d.kind for d in recs.documents]
    assert kinds.count("worked_example") == n_examples
    assert stats.quiz_exercises_skipped == 4
    assert (
        kinds.count("exercise") + stats.quiz_exercises_skipped + stats.empty_skipped == n_exercises
    )
    assert (stats.sections, stats.non_sections) == (3, 1)


def test_chunk_ids_titles_and_concepts(records: SourceRecords) -> None:
    for module, title in SECTIONS.items():
        chunks = [d for d in records.documents if d.id.startswith(f"openstax:{module}:chunk:")]
        assert [d.id for d in chunks] == [
            f"openstax:{module}:chunk:{n}" for n in range(len(chunks))
        ]
        assert chunks, module
        for doc in chunks:
            assert doc.kind == "explanation"
            assert doc.title.startswith(title)
            assert doc.concept_ids == [section_id(module)]
    titles = {d.title for d in records.documents if d.kind == "explanation"}
    assert "Add Whole Numbers — Use Addition Notation" in titles
    assert "Add Whole Numbers — Key Concepts" in titles


@pytest.mark.parametrize("limit", [200, 60, 8])
def test_chunks_respect_the_token_budget(limit: int) -> None:
    recs = load_openstax(SLICE, count_tokens=words, max_chunk_tokens=limit)
    chunks = [d.text for d in recs.documents if d.kind == "explanation"]
    assert chunks
    assert max(words(t) for t in chunks) <= limit
    # Nothing of the prose is lost by splitting: the words are the same at any budget.
    baseline = load_openstax(SLICE, count_tokens=words, max_chunk_tokens=10_000)
    full = [d.text for d in baseline.documents if d.kind == "explanation"]
    assert " ".join(chunks).split() == " ".join(full).split()


def test_examples_and_exercises_stay_out_of_explanations(records: SourceRecords) -> None:
    prose = "\n".join(d.text for d in records.documents if d.kind == "explanation")
    assert "Which of the following are (a) counting numbers? (b) whole numbers?" not in prose
    assert "In the following exercises" not in prose
    assert "Solution:" not in prose


def test_texts_are_clean(records: SourceRecords) -> None:
    for doc in records.documents:
        assert doc.text, doc.id
        assert not _TAG_RE.search(doc.text), doc.id
        assert not _MATHML_WORDS.search(doc.text), doc.id
        assert "−" not in doc.text and "\u2062" not in doc.text, doc.id
        for line in doc.text.split("\n"):
            assert line and line == " ".join(line.split()), doc.id
        assert doc.concept_ids and doc.source == "openstax" and doc.license == "CC-BY-4.0"
    ids = [d.id for d in records.documents]
    assert len(ids) == len(set(ids))


def test_links_without_text_are_filled_in(records: SourceRecords) -> None:
    chunk = next(d for d in records.documents if d.id == "openstax:m81243:chunk:0")
    assert "visualized on a number line as shown in the figure." in chunk.text


def test_two_loads_are_identical(records: SourceRecords) -> None:
    again = load_openstax(SLICE, count_tokens=words)
    for name in ("concepts", "prerequisites", "documents"):
        first = [r.model_dump() for r in getattr(records, name)]
        second = [r.model_dump() for r in getattr(again, name)]
        assert first == second, name


def test_rejects_a_non_positive_budget() -> None:
    with pytest.raises(ValueError, match="max_chunk_tokens"):
        load_openstax(SLICE, count_tokens=words, max_chunk_tokens=0)


def test_missing_module_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "collections").mkdir()
    (tmp_path / "collections" / "x.collection.xml").write_text(
        '<col:collection xmlns:col="http://cnx.rice.edu/collxml"><col:content>'
        '<col:module document="m1"/></col:content></col:collection>',
        encoding="utf-8",
    )
    with pytest.raises(FileNotFoundError, match="m1"):
        load_openstax(tmp_path, count_tokens=words)
