"""The grade and the standards model in the real pipeline (real MiniLM, real Chroma, the
session index, the bundled standards model): a given grade is reported and moves the linked
standards toward it without hiding the others; without one, the packet reports the band the
model reads; the story a word problem tells reaches the linker through the request's facts."""

from __future__ import annotations

import pytest
from tests.conftest import index_retriever

from tutorgraph.linking.standards_model import StandardModel
from tutorgraph.retrieval import facts as facts_module
from tutorgraph.retrieval.factory import bundled_standards_path
from tutorgraph.retrieval.facts import request_facts
from tutorgraph_client.models.grade import BANDS, standard_grade
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration

# The session index's Common Core slice is grade 6 (NS, RP) and one high-school standard.
GCF_STORY = (
    "Uma has 40 red beads and 60 blue beads. She makes identical bracelets with none left "
    "over. What is the greatest number of bracelets she can make?"
)


@pytest.fixture(scope="module")
def model() -> StandardModel:
    return StandardModel.load(bundled_standards_path())


@pytest.fixture(scope="module")
def linked(opened_index, embedder, model):  # type: ignore[no-untyped-def]
    return index_retriever(opened_index, embedder, linker=opened_index.linker.with_model(model))


def test_the_bundled_model_covers_the_bundle(model: StandardModel) -> None:
    assert model.embedder.endswith("all-MiniLM-L6-v2")
    graded = {standard_grade(c) for c in model.classes}
    assert {"K", "1", "2", "3", "4", "5", "6", "7", "8", "HS"} <= graded


async def test_a_given_grade_is_reported_and_is_a_prior(linked) -> None:  # type: ignore[no-untyped-def]
    plain = await linked.retrieve(RetrievalRequest(query=GCF_STORY))
    assert plain.grade.source == "inferred" and plain.grade.band in BANDS
    assert plain.grade.probability is not None and 0 < plain.grade.probability <= 1
    core = [c for c in plain.concepts if c.taxonomy == "common-core"]
    assert core and all("model" in c.evidence for c in core)
    assert core[0].id == "ccss:6.NS.B.4"  # greatest common factor

    graded = await linked.retrieve(RetrievalRequest(query=GCF_STORY, grade="HS"))
    assert graded.grade.model_dump() == {
        "grade": "HS", "band": "HS", "source": "request", "probability": None
    }  # fmt: skip
    moved = [c.id for c in graded.concepts if c.taxonomy == "common-core"]
    # A prior, not a filter: the grade-6 standards are still linked, and GCF still first.
    assert moved[0] == "ccss:6.NS.B.4" and sum(standard_grade(c) == "6" for c in moved) >= 5


async def test_the_grade_moves_standards_of_that_grade_up(opened_index, embedder, model) -> None:  # type: ignore[no-untyped-def]
    linker = opened_index.linker.with_model(model)
    ids = list(linker.standard_ids)
    vector = embedder.embed([GCF_STORY])[0]

    def rank(grade: str | None) -> int:
        scores = linker.standard_scores(GCF_STORY, vector, grade=grade)  # type: ignore[arg-type]
        return int((scores > scores[ids.index("ccss:HSF-IF.B.6")]).sum())

    assert rank("HS") < rank(None)


async def test_the_story_reaches_the_linker_through_the_facts(
    linked, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    story = "Sam had 24 stickers and gave away 9. How many are left?"
    request = RetrievalRequest(query=story)
    told = await linked.retrieve(request)
    facts = request_facts(request, told.refined_query)
    assert facts.problem == "24 - 9" and facts.story is not None
    assert {"story", "story:subtract"} <= facts.story.tags()

    # The same request, its facts read without the story (nothing else changes: the text,
    # its embedding, the cards).
    monkeypatch.setattr(facts_module, "read_story", lambda text: None)
    untold = await linked.retrieve(request)

    # A take-away story is a K-2 problem: its tags make the standards model surer of the
    # band, and score greatest common factor (the slice's first standard for it) lower.
    assert told.grade.band == untold.grade.band == "K-2"
    assert told.grade.probability is not None and untold.grade.probability is not None
    assert told.grade.probability > untold.grade.probability

    def gcf_model_score(packet: ReasoningPacket) -> float:
        gcf = next(c for c in packet.concepts if c.id == "ccss:6.NS.B.4")
        return float(gcf.evidence["model"])

    assert gcf_model_score(told) < gcf_model_score(untold)
