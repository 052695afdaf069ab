"""The scope model in the real pipeline (real MiniLM, real Chroma, the session index): an
off-topic message is flagged, a maths message is not and gets its slots and calibrated
confidences, maths in another language is flagged as not English (not off-topic), without
a model every packet says why it has none, and a message the refiner rewrote is embedded
as typed beside the search."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
from tests.conftest import index_retriever

from tutorgraph.confidence.scope import ScopeModel
from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.retrieval.factory import bundled_scope_path
from tutorgraph.retrieval.facts import request_facts
from tutorgraph.retrieval.loaded import Loaded
from tutorgraph.retrieval.scope_signals import scope_signals
from tutorgraph.retrieval.stages import RouteStage
from tutorgraph.retrieval.state import RequestState
from tutorgraph_client.models.refined_query import RefinedQuery
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def scoped(opened_index, embedder):  # type: ignore[no-untyped-def]
    return index_retriever(
        opened_index,
        embedder,
        scope=Loaded.of(ScopeModel.load(bundled_scope_path())),
        diagnoser=Diagnoser.bundled(),
    )


@pytest.mark.parametrize(
    "message",
    ["hey whats up, can we talk about football", "qué hora es en madrid", "sdfkjh sdkfjh"],
)
async def test_an_off_topic_message_says_no_match(scoped, message: str) -> None:  # type: ignore[no-untyped-def]
    packet = await scoped.retrieve(RetrievalRequest(query=message))
    assert packet.scope.applied and packet.scope.in_scope is not None
    assert packet.scope.in_scope < (packet.scope.threshold or 0)
    assert packet.no_match and (packet.no_match_reason or "").startswith("off_topic")
    assert packet.confidence is not None and packet.confidence < 0.5
    assert packet.results  # the hits stay: the app decides what to show


@pytest.mark.parametrize(
    ("message", "code", "name"),
    [
        ("¿cuánto es 3/4 más 1/2?", "es", "Spanish"),
        ("no entiendo cómo dividir fracciones", "es", "Spanish"),
        ("je ne comprends pas comment multiplier des fractions", "fr", "French"),
        ("ich verstehe die Bruchrechnung nicht", "de", "German"),
        ("não sei como somar frações", "pt", "Portuguese"),
    ],
)
async def test_maths_in_another_language_is_flagged_not_english(  # type: ignore[no-untyped-def]
    scoped, message: str, code: str, name: str
) -> None:
    """Issue 62, part 8: the English scope model cannot read maths in another language; the
    packet is flagged because only English is supported, not because it is off-topic."""
    packet = await scoped.retrieve(RetrievalRequest(query=message))
    assert packet.language.english is False and packet.language.detected == code
    assert packet.scope.applied and packet.scope.in_scope is not None
    reason = packet.no_match_reason or ""
    assert packet.no_match and reason.startswith("not_english: "), reason
    assert f"maths in {name}" in reason and "school math" not in reason
    assert packet.results  # the hits stay: the app decides what to show


async def test_a_maths_message_gets_slots_and_confidences(scoped) -> None:  # type: ignore[no-untyped-def]
    packet = await scoped.retrieve(RetrievalRequest(query="how do I simplify the fraction 6/8?"))
    assert not packet.no_match and packet.no_match_reason is None
    assert packet.scope.in_scope is not None and packet.scope.in_scope >= 0.5
    slots = packet.slots
    assert packet.confidence == slots.concepts_confidence and 0 <= packet.confidence <= 1
    assert slots.concepts == [c.id for c in packet.concepts if c.taxonomy == "common-core"]
    teach = slots.teach
    # The teach slot is the packet's lessons, ranked by the slot's own score (issue 62);
    # the lessons keep their cosine as their score.
    assert [h.id for h in teach.hits] == [h.id for h in packet.lessons]
    assert teach.scale == "slot"
    assert teach.confidence is not None and 0 <= teach.confidence <= 1
    assert all(h.kind in ("explanation", "worked_example") for h in teach.hits)
    lessons = packet.lessons
    assert all(-1 <= h.score <= 1 and h.source_scores == {"vector": h.score} for h in lessons)
    # The misconceptions of a message that states no answer are the topic's, marked so.
    mis = slots.misconceptions
    assert mis.stated_answer is False and mis.confidence is None
    assert all(h.kind == "misconception" for h in mis.hits)
    assert all(h.kind in ("exercise", "question") for h in slots.practice.hits)
    for slot in (teach, mis, slots.practice):
        assert bool(slot.hits) != bool(slot.empty_reason)


async def test_a_stated_wrong_answer_keeps_teaching_beside_its_misconceptions(scoped) -> None:  # type: ignore[no-untyped-def]
    packet = await scoped.retrieve(RetrievalRequest(query="what is 9 squared? I got 18"))
    assert packet.answer_check is not None and packet.answer_check.student_answer == "18"
    assert packet.slots.misconceptions.stated_answer is True
    assert packet.slots.misconceptions.confidence is not None
    top = packet.results[:10]
    assert top[0].kind == "misconception"
    assert any(h.kind in ("explanation", "worked_example") for h in top)
    # Misconceptions fill the results; practice still comes, from past the cut (rank 0).
    practice = packet.slots.practice.hits
    if not any(h.kind in ("exercise", "question") for h in packet.results):
        assert practice and all(h.rank == 0 for h in practice)
    assert len(practice) <= max(3, len(packet.results))


async def test_without_a_model_the_packet_says_why(opened_index, embedder) -> None:  # type: ignore[no-untyped-def]
    plain = index_retriever(opened_index, embedder)
    packet = await plain.retrieve(RetrievalRequest(query="hey whats up"))
    assert not packet.scope.applied and packet.scope.reason == "no scope model configured"
    assert packet.confidence is None and packet.slots.teach.confidence is None
    assert not packet.no_match


class _Recording:
    """The real embedder, recording what it embeds, in order."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.texts: list[str] = []

    @property
    def name(self) -> str:
        return self.inner.name

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        self.texts.extend(texts)
        return self.inner.embed(texts)

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)


async def test_a_rewritten_message_is_embedded_as_typed_after_the_query(
    opened_index, embedder
) -> None:  # type: ignore[no-untyped-def]
    """The scope model reads the message as typed; when the refiner rewrote it, the route
    stage embeds it once the search's query embedding is done (not at the packet's end)."""
    typed, rewritten = "how do I simplfy the fracton 6/8?", "how do I simplify the fraction 6/8?"
    recording = _Recording(embedder)

    def routed(scopes: bool) -> tuple[RouteStage, RequestState]:
        state = RequestState(request=RetrievalRequest(query=typed))
        state.refined = RefinedQuery(
            original_query=typed, optimized_query=rewritten, refiner="local"
        )
        state.facts = request_facts(state.request, state.refined)  # as the facts stage does
        stage = RouteStage(
            recording,
            opened_index.graph,
            ranker=None,
            links=False,
            scopes=scopes,
            default_profile="auto",
            default_semantic_weight=None,
        )
        return stage, state

    stage, state = routed(scopes=True)
    await stage.run(state)
    assert state.message_vector is not None
    vector = await state.message_vector
    assert recording.texts == [rewritten, typed]  # the query's first: the search waits on it
    np.testing.assert_allclose(vector, embedder.embed([typed])[0], atol=1e-6)
    signals = await scope_signals(state, recording)
    assert np.array_equal(signals.vector, vector) and len(recording.texts) == 2
    stage, state = routed(scopes=False)  # no scope model: nothing more to embed
    await stage.run(state)
    assert state.message_vector is None
