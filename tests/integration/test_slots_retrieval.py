"""The slots through the real pipeline (issue 62): a real index (real Chroma, real MiniLM,
the bundle's own stored vectors) of the shipped curriculum's concepts and alignments, the
project's own lessons, examples and practice of grades K-3, the elementary misconceptions
and the Eedi misconceptions of the constructs aligned with those standards; the bundled
standards model links.

- A grade-2 child's "52 - 38 = 26": the teach slot opens with a grade-2 subtraction lesson
  of a linked standard, and the misconceptions slot with the one the bug rules reproduce
  the answer with, marked so.
- A question that states no answer: the misconceptions slot holds only the first linked
  standard's own common errors (or none), each marked a common error of the topic.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tutorgraph.config import Settings
from tutorgraph.index.local import LocalIndex
from tutorgraph.index.pipeline import ingest_bundle
from tutorgraph.ingest.bundle import read_bundle, write_bundle
from tutorgraph.models.records import SourceRecords
from tutorgraph.retrieval.concepts import concept_misconceptions
from tutorgraph.retrieval.factory import Models, build_retriever, load_standards_model
from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph_client.models.grade import standard_grade
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
CURRICULUM = REPO / "data" / "curriculum"
GRADES = {"K", "1", "2", "3"}


def _early(records: SourceRecords) -> SourceRecords:
    """Every concept and edge; the own documents of K-3 standards; the elementary
    misconceptions and the Eedi ones of constructs aligned with K-3 standards."""
    early = {c.id for c in records.concepts if standard_grade(c.id) in GRADES}
    constructs = {
        p.concept_id
        for p in records.prerequisites
        if p.relation == "aligned_with" and p.prerequisite_id in early
    }
    return SourceRecords(
        concepts=list(records.concepts),
        prerequisites=list(records.prerequisites),
        misconceptions=[
            m
            for m in records.misconceptions
            if m.id.startswith("tutorgraph:") or constructs.intersection(m.concept_ids)
        ],
        documents=[
            d
            for d in records.documents
            if d.id.startswith("tutorgraph:") and early.intersection(d.concept_ids)
        ],
    )


@pytest.fixture(scope="module")
def early_index(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[LocalIndex]:  # type: ignore[no-untyped-def]
    if not (CURRICULUM / "embeddings").is_dir():
        pytest.skip(f"{CURRICULUM} has no stored vectors")
    bundle = tmp_path_factory.mktemp("early-bundle")
    write_bundle(_early(read_bundle(CURRICULUM)), bundle)
    # The shipped vectors (keyed by text): nothing of this bundle is embedded again.
    shutil.copytree(CURRICULUM / "embeddings", bundle / "embeddings")
    index_dir = tmp_path_factory.mktemp("early-index")
    report = asyncio.run(ingest_bundle(bundle, index_dir, embedder))
    assert not report.rejected, report.rejected[:3]
    index = LocalIndex.load(index_dir, embedder=embedder.name)
    yield index
    asyncio.run(index.aclose())


@pytest.fixture(scope="module")
def early_retriever(early_index: LocalIndex, embedder) -> HybridRetriever:  # type: ignore[no-untyped-def]
    standards = load_standards_model(Settings())
    if standards.value is None:
        pytest.skip(f"no standards model: {standards.reason}")
    # A generous timeout: the 2 s default could degrade a packet on a busy 2-core runner.
    config = RetrieverConfig(source_timeout_s=60.0, refiner="local")
    return build_retriever(early_index, Models(embedder, standards=standards), config)


async def test_a_grade_2_subtraction_error_gets_a_grade_2_lesson_and_its_misconception_first(
    early_retriever: HybridRetriever,
) -> None:
    packet = await early_retriever.retrieve(
        RetrievalRequest(query="52 - 38 = 26 is that right? i got 26", grade="2")
    )
    assert "lessons" not in packet.degraded_stages
    teach = packet.slots.teach
    assert teach.scale == "slot" and teach.hits
    first = teach.hits[0]
    assert first.kind == "explanation" and first.grade == "2"
    assert first.via == "standard" and first.standard in first.concept_ids
    assert first.standard in {c.id for c in packet.concepts}
    # A subtraction standard of grade 2 (2.NBT: place value and operations; 2.OA).
    assert first.standard.startswith(("ccss:2.NBT.", "ccss:2.OA."))
    assert "subtract" in (first.title + first.text).lower()
    # Nothing above grade 2 leads it, and the packet's lessons are the slot's.
    assert [h.id for h in packet.lessons] == [h.id for h in teach.hits]
    # The misconception the bug rules reproduce "26" with comes first, marked as doing so;
    # anything after it carries its own, lower, confidence.
    mis = packet.slots.misconceptions
    assert mis.stated_answer is True
    diagnosed = [f.misconception_id for f in packet.diagnosis]
    assert diagnosed, packet.answer_check
    assert mis.hits[0].id == diagnosed[0]
    assert mis.hits[0].role == "reproduces_answer" and mis.hits[0].confidence is not None
    for later in mis.hits[1:]:
        if later.id not in diagnosed:
            assert later.role == "possible"
            assert later.confidence is not None and later.confidence < mis.hits[0].confidence
    # The practice slot holds the linked standards' own practice first.
    practice = packet.slots.practice.hits
    assert practice and practice[0].via == "standard" and practice[0].grade in GRADES


async def test_a_question_without_an_answer_gets_only_its_standards_own_misconceptions(
    early_retriever: HybridRetriever, early_index: LocalIndex
) -> None:
    packets = [
        await early_retriever.retrieve(RetrievalRequest(query=q, grade="2"))
        for q in (
            "how do you subtract when the top digit is smaller, like 52 - 38?",
            "what does the equal sign mean?",
            "how do i tell if a number is odd or even?",
            "how do i skip count by fives?",
            "what is a right angle and how many does a rectangle have?",
        )
    ]
    shown = 0
    for packet in packets:
        assert packet.answer_check is None or packet.answer_check.student_answer is None
        mis = packet.slots.misconceptions
        assert mis.stated_answer is False
        if not mis.hits:
            assert mis.empty_reason  # unsure of the standard: nothing, and why
            continue
        shown += 1
        standard = {h.standard for h in mis.hits}
        assert len(standard) == 1
        (first,) = standard
        assert first == next(c.id for c in packet.concepts if c.taxonomy == "common-core")
        own = {m.misconception.id for m in await concept_misconceptions(early_index.graph, first)}
        assert all(h.id in own for h in mis.hits)
        assert all(h.role == "topic_error" and h.confidence is None for h in mis.hits)
        assert all(h.via == "standard" for h in mis.hits)
    assert shown, [p.slots.misconceptions.empty_reason for p in packets]
