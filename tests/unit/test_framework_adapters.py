"""The LangChain and LlamaIndex retrievers over hand-made packets (issue 62): every document
carries the packet's verdict (`no_match`, its reason, `confidence`), a `no_match` packet gives
no documents unless asked, and every score is on one scale, so that LlamaIndex's own
`SimilarityPostprocessor` keeps the first lesson and the first result alike. Real framework
objects throughout; the packet source is a stand-in for the server."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain_core.documents import Document
from llama_index.core.postprocessor import SimilarityPostprocessor
from llama_index.core.schema import MetadataMode, NodeWithScore

from tutorgraph_client.integrations.langchain import TutorGraphRetriever as LangChainRetriever
from tutorgraph_client.integrations.llamaindex import TutorGraphRetriever as LlamaRetriever
from tutorgraph_client.integrations.packets import SCORE_SCALE
from tutorgraph_client.models.hit import Hit, HitKind
from tutorgraph_client.models.packet import TIMING_KEYS, ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.unit

OFF_TOPIC = "off_topic: not school math the curriculum covers (in_scope 0.05 < 0.20)"


def _hit(id_: str, kind: HitKind, score: float, rank: int, **kw: Any) -> Hit:
    return Hit(
        id=id_,
        ids=[id_],
        kind=kind,
        text=f"text of {id_}",
        score=score,
        rank=rank,
        found_by=["vector"],
        fused_score=kw.pop("fused_score", score),
        **kw,
    )


def _packet(*, no_match: bool = False) -> ReasoningPacket:
    # Lessons score by cosine (about 0.6), results by RRF (about 0.03) or the learned
    # ranker (any real number): the mix a similarity cutoff used to trip over.
    lessons = [
        _hit("lesson:1", "explanation", 0.64, 1),
        _hit("lesson:2", "worked_example", 0.58, 2),
    ]
    results = [
        _hit("exercise:1", "exercise", 0.0331, 1),
        _hit("lesson:2", "worked_example", 0.0325, 2),  # also a lesson: comes once
        _hit("mis:1", "misconception", -1.7, 3, fused_score=0.031, learned_score=-1.7),
        _hit("question:1", "question", 0.0301, 4),
        _hit("concept:1", "concept", 0.0299, 5),
    ]
    return ReasoningPacket(
        query="why is 3/4 bigger than 2/3?",
        timings_ms=dict.fromkeys(TIMING_KEYS, 0.0),
        lessons=lessons,
        results=results,
        confidence=0.83,
        no_match=no_match,
        no_match_reason=OFF_TOPIC if no_match else None,
    )


class _Source:
    """What a client's `retrieve` gives: the packet, whatever the request."""

    def __init__(self, packet: ReasoningPacket, *, awaited: bool = False) -> None:
        self.packet, self.awaited = packet, awaited
        self.requests: list[RetrievalRequest] = []

    def retrieve(self, request: RetrievalRequest) -> Any:
        self.requests.append(request)
        if not self.awaited:
            return self.packet

        async def later() -> ReasoningPacket:
            return self.packet

        return later()


ORDER = ["lesson:1", "exercise:1", "lesson:2", "mis:1", "question:1", "concept:1"]
# The n-th of its list (the lessons, or the results the lessons do not hold) scores 1 / n.
SCORES = [1.0, 1.0, 0.5, 0.5, 1 / 3, 0.25]


def test_langchain_documents_carry_the_verdict_and_one_score_scale() -> None:
    docs = LangChainRetriever(source=_Source(_packet()), k=6).invoke("q")
    assert all(isinstance(d, Document) for d in docs)
    assert [d.id for d in docs] == ORDER
    assert [d.metadata["score"] for d in docs] == pytest.approx(SCORES)
    for d in docs:
        meta = d.metadata
        assert (meta["no_match"], meta["no_match_reason"]) == (False, None)
        assert meta["confidence"] == 0.83 and meta["score_scale"] == SCORE_SCALE
    by_id = {d.id: d.metadata for d in docs}
    # The hit's own score stays, with what it is.
    assert (by_id["lesson:1"]["hit_score"], by_id["lesson:1"]["hit_score_scale"]) == (
        0.64,
        "cosine",
    )
    assert by_id["lesson:1"]["list"] == "lessons" and by_id["lesson:1"]["list_rank"] == 1
    assert by_id["exercise:1"]["hit_score_scale"] == "fused"
    assert (by_id["mis:1"]["hit_score"], by_id["mis:1"]["hit_score_scale"]) == (-1.7, "learned")
    assert by_id["mis:1"]["list"] == "results" and by_id["mis:1"]["list_rank"] == 2


def test_llamaindex_nodes_carry_the_verdict_and_one_score_scale() -> None:
    nodes = LlamaRetriever(_Source(_packet()), similarity_top_k=6).retrieve("q")
    assert all(isinstance(n, NodeWithScore) for n in nodes)
    assert [n.node.node_id for n in nodes] == ORDER
    assert [n.score for n in nodes] == pytest.approx(SCORES)
    assert all(0.0 <= (n.score or 0.0) <= 1.0 for n in nodes)
    for n in nodes:
        meta = n.node.metadata
        assert meta["score"] == n.score and meta["score_scale"] == SCORE_SCALE
        assert (meta["no_match"], meta["no_match_reason"], meta["confidence"]) == (
            False,
            None,
            0.83,
        )
    # The verdict and the scores are for the app, not the model's prompt.
    text = nodes[0].node.get_content(metadata_mode=MetadataMode.LLM)
    assert "no_match" not in text and "score" not in text and "text of lesson:1" in text


@pytest.mark.parametrize("cutoff", [1.0, 0.5, 0.3])
def test_a_similarity_cutoff_keeps_the_first_lesson_and_the_first_result(cutoff: float) -> None:
    nodes = LlamaRetriever(_Source(_packet()), similarity_top_k=6).retrieve("q")
    kept = SimilarityPostprocessor(similarity_cutoff=cutoff).postprocess_nodes(nodes)
    ids = [n.node.node_id for n in kept]
    # A prefix of the reading order, holding the first of each list: the exercise that
    # leads the results is never cut for being scored on another scale than the lessons.
    assert ids == ORDER[: len(ids)] and {"lesson:1", "exercise:1"} <= set(ids)
    kinds = {n.node.metadata["kind"] for n in kept}
    assert {"explanation", "exercise"} <= kinds


def test_a_cutoff_of_one_over_n_keeps_n_of_each_list() -> None:
    nodes = LlamaRetriever(_Source(_packet()), similarity_top_k=6).retrieve("q")
    kept = SimilarityPostprocessor(similarity_cutoff=1 / 3).postprocess_nodes(nodes)
    assert [n.node.node_id for n in kept] == ORDER[:5]


def test_no_match_gives_no_documents_unless_asked() -> None:
    packet = _packet(no_match=True)
    assert LangChainRetriever(source=_Source(packet), k=6).invoke("q") == []
    assert LlamaRetriever(_Source(packet), similarity_top_k=6).retrieve("q") == []
    aw = _Source(packet, awaited=True)
    assert asyncio.run(LangChainRetriever(source=aw, k=6).ainvoke("q")) == []
    assert asyncio.run(LlamaRetriever(aw, similarity_top_k=6).aretrieve("q")) == []
    assert len(aw.requests) == 2  # asked, and the verdict read

    docs = LangChainRetriever(source=_Source(packet), k=6, include_no_match=True).invoke("q")
    nodes = LlamaRetriever(_Source(packet), similarity_top_k=6, include_no_match=True).retrieve("q")
    assert [d.id for d in docs] == ORDER == [n.node.node_id for n in nodes]
    for meta in [*(d.metadata for d in docs), *(n.node.metadata for n in nodes)]:
        assert meta["no_match"] is True and meta["no_match_reason"] == OFF_TOPIC


def test_an_unscoped_packet_says_so() -> None:
    packet = _packet().model_copy(update={"confidence": None})
    (doc,) = LangChainRetriever(source=_Source(packet), k=1).invoke("q")
    assert doc.metadata["confidence"] is None and doc.metadata["no_match"] is False
