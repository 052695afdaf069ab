"""The LangChain and LlamaIndex retrievers on a real index: in process over the session
index's `HybridRetriever`, and remote over the clients against the served app; LangChain's
own standard retriever suite (`langchain-tests`) runs on the in-process one."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_tests.integration_tests import RetrieversIntegrationTests
from llama_index.core.schema import NodeWithScore
from tests.conftest import index_retriever
from tests.integration.api_support import READ
from tests.integration.test_client import Served, served  # noqa: F401 - the fixture

from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph_client import AsyncTutorGraph, TutorGraph
from tutorgraph_client.integrations.langchain import TutorGraphRetriever as LangChainRetriever
from tutorgraph_client.integrations.llamaindex import TutorGraphRetriever as LlamaRetriever
from tutorgraph_client.models.packet import teaching_first
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration

QUERY = "why is 3/4 bigger than 2/3?"
# The session index's retriever, for the standard suite (whose constructor params are a
# property, not a fixture).
_SOURCE: dict[str, Any] = {}


@pytest.fixture(autouse=True, scope="module")
def _session_source(opened_index, embedder) -> None:  # type: ignore[no-untyped-def]
    # Not the session `retriever` fixture: the standard suite has its own of that name.
    _SOURCE["retriever"] = index_retriever(opened_index, embedder)


class TestLangChainStandard(RetrieversIntegrationTests):
    @property
    def retriever_constructor(self) -> type[LangChainRetriever]:
        return LangChainRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"source": _SOURCE["retriever"], "k": 10}

    @property
    def retriever_query_example(self) -> str:
        return QUERY


def test_langchain_documents_carry_the_hits_provenance(retriever) -> None:  # type: ignore[no-untyped-def]
    lc = LangChainRetriever(source=retriever, k=5, request_fields={"use_refinement": False})
    docs = lc.invoke(QUERY)
    packet = asyncio.run(
        retriever.retrieve(RetrievalRequest(query=QUERY, n_results=5, use_refinement=False))
    )
    # Teaching first (issue 47): lessons and results alternate, a lesson first.
    hits = teaching_first(packet.lessons, packet.results, 5)
    assert packet.lessons and [d.id for d in docs] == [h.id for h in hits]
    assert docs[0].metadata["kind"] in ("explanation", "worked_example")
    first, hit = docs[0], hits[0]
    assert isinstance(first, Document) and hit.text in first.page_content
    meta = first.metadata
    assert (meta["kind"], meta["ids"], meta["found_by"]) == (hit.kind, hit.ids, hit.found_by)
    # One score scale in both adapters (issue 62): 1 / n for the n-th of its list; the
    # hit's own score stays beside it.
    assert meta["score"] == 1.0 and meta["score_scale"] == "reciprocal_rank"
    assert meta["hit_score"] == hit.score and meta["hit_score_scale"] == "cosine"
    assert meta["graph_path"] == hit.graph_path
    assert [d.id for d in asyncio.run(lc.ainvoke(QUERY))] == [d.id for d in docs]


def test_langchain_diagnosis_reaches_the_metadata(opened_index, embedder) -> None:  # type: ignore[no-untyped-def]
    diagnosing = index_retriever(opened_index, embedder, diagnoser=Diagnoser.bundled())
    lc = LangChainRetriever(source=diagnosing, k=5)
    docs = lc.invoke("0.6 * 0.2", problem="0.6 * 0.2", student_answer="1.2")
    # The lessons lead; the diagnosed misconception leads the results after them.
    misconceptions = [d for d in docs if d.metadata["kind"] == "misconception"]
    assert misconceptions and misconceptions[0].metadata["diagnosis"]


def test_remote_langchain_over_both_clients(served: Served, retriever) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    fields = {"use_refinement": False}
    direct = asyncio.run(
        retriever.retrieve(RetrievalRequest(query=QUERY, n_results=4, use_refinement=False))
    )
    with TutorGraph(served.url, api_key=READ) as tg:
        sync_docs = LangChainRetriever(source=tg, k=4, request_fields=fields).invoke(QUERY)

    async def go() -> list[Document]:
        async with AsyncTutorGraph(served.url, api_key=READ) as tg:
            return await LangChainRetriever(source=tg, k=4, request_fields=fields).ainvoke(QUERY)

    async_docs = asyncio.run(go())
    ids = [h.id for h in teaching_first(direct.lessons, direct.results, 4)]
    assert [d.id for d in sync_docs] == ids and [d.id for d in async_docs] == ids


def test_llamaindex_in_process_and_remote(served: Served, retriever) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    fields = {"use_refinement": False}
    local = LlamaRetriever(retriever, similarity_top_k=5, request_fields=fields)
    nodes = local.retrieve(QUERY)
    packet = asyncio.run(
        retriever.retrieve(RetrievalRequest(query=QUERY, n_results=5, use_refinement=False))
    )
    hits = teaching_first(packet.lessons, packet.results, 5)
    assert all(isinstance(n, NodeWithScore) for n in nodes)
    assert [n.node.node_id for n in nodes] == [h.id for h in hits]
    # Reciprocal ranks (issue 62): the first lesson and the first result 1.0, then 0.5 ...
    assert [n.score for n in nodes] == [n.node.metadata["score"] for n in nodes]
    assert [n.score for n in nodes][:4] == [1.0, 1.0, 0.5, 0.5]
    assert [n.node.metadata["hit_score"] for n in nodes] == [h.score for h in hits]
    assert nodes[0].node.metadata["found_by"] == hits[0].found_by
    assert [n.node.node_id for n in asyncio.run(local.aretrieve(QUERY))] == [h.id for h in hits]
    with TutorGraph(served.url, api_key=READ) as tg:
        remote = LlamaRetriever(tg, similarity_top_k=5, request_fields=fields).retrieve(QUERY)
    assert [n.node.node_id for n in remote] == [h.id for h in hits]


OFF_TOPIC = "can you tell me who won the football game last night"


def test_remote_adapters_carry_the_verdict(served: Served) -> None:  # noqa: F811
    """Over HTTP from the served app (its scope model loaded, issue 62): each document says
    the packet's `no_match` and `confidence`; an off-topic message gives none unless asked;
    a similarity cutoff keeps the first lesson and the first result alike."""
    from llama_index.core.postprocessor import SimilarityPostprocessor

    fields = {"use_refinement": False}
    with TutorGraph(served.url, api_key=READ) as tg:
        packet = tg.retrieve(QUERY, n_results=6, use_refinement=False)
        unsure = tg.retrieve(OFF_TOPIC, n_results=6, use_refinement=False)
        docs = LangChainRetriever(source=tg, k=6, request_fields=fields).invoke(QUERY)
        nodes = LlamaRetriever(tg, similarity_top_k=6, request_fields=fields).retrieve(QUERY)
        none = LangChainRetriever(source=tg, k=6, request_fields=fields).invoke(OFF_TOPIC)
        no_nodes = LlamaRetriever(tg, similarity_top_k=6, request_fields=fields).retrieve(OFF_TOPIC)
        asked = LangChainRetriever(
            source=tg, k=6, request_fields=fields, include_no_match=True
        ).invoke(OFF_TOPIC)
        asked_nodes = LlamaRetriever(
            tg, similarity_top_k=6, request_fields=fields, include_no_match=True
        ).retrieve(OFF_TOPIC)
    assert not packet.no_match and packet.confidence is not None and packet.lessons
    metas = [d.metadata for d in docs] + [n.node.metadata for n in nodes]
    assert len(metas) == 12
    for meta in metas:
        assert (meta["no_match"], meta["no_match_reason"]) == (False, None)
        assert meta["confidence"] == packet.confidence
        assert meta["score_scale"] == "reciprocal_rank" and 0.0 < meta["score"] <= 1.0
    assert [d.metadata["score"] for d in docs] == [n.score for n in nodes]

    # Off topic: the packet keeps its hits, the adapters give none unless asked.
    assert unsure.no_match and (unsure.no_match_reason or "").startswith("off_topic")
    assert unsure.results and none == [] and no_nodes == []
    ids = [h.id for h in teaching_first(unsure.lessons, unsure.results, 6)]
    assert [d.id for d in asked] == ids == [n.node.node_id for n in asked_nodes]
    for meta in [d.metadata for d in asked] + [n.node.metadata for n in asked_nodes]:
        assert meta["no_match"] is True and meta["no_match_reason"] == unsure.no_match_reason

    # LlamaIndex's own cutoff keeps the first lesson and the first result, whatever scale
    # their own scores are on (a cosine and a fused score).
    kept = SimilarityPostprocessor(similarity_cutoff=0.5).postprocess_nodes(nodes)
    lists = [n.node.metadata["list"] for n in kept]
    assert [n.node.node_id for n in kept] == [n.node.node_id for n in nodes[: len(kept)]]
    assert lists[:2] == ["lessons", "results"] and len(kept) == 4


def test_remote_adapters_send_a_long_chat_within_the_limits(served: Served) -> None:  # noqa: F811
    """Over HTTP (issue 63): 81 turns of chat history in each framework's own shape reach the
    server as the request's `conversation`, cut to its latest 50 turns, never a 422; the
    documents carry the packet's `dialogue` block (null while the engine reads none)."""
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
    from llama_index.core.llms import ChatMessage, MessageRole

    lc_history: list[Any] = [SystemMessage("You are a patient maths tutor.")]
    llama_history: list[ChatMessage] = []
    for i in range(40):
        ask, said = f"What is {i} + 6?", f"is it {i + 5}"
        lc_history += [AIMessage(ask), HumanMessage(said)]
        llama_history += [
            ChatMessage(role=MessageRole.ASSISTANT, content=ask),
            ChatMessage(role=MessageRole.USER, content=said),
        ]
    lc_history.append(AIMessage("What is 7 + 6?"))
    llama_history.append(ChatMessage(role=MessageRole.ASSISTANT, content="What is 7 + 6?"))
    fields = {"use_refinement": False}
    with TutorGraph(served.url, api_key=READ) as tg:
        lc = LangChainRetriever(source=tg, k=4, request_fields=fields, include_no_match=True)
        docs = lc.invoke({"input": "13?", "chat_history": lc_history})
        nodes = LlamaRetriever(
            tg, similarity_top_k=4, request_fields=fields, include_no_match=True
        ).retrieve_turn("13?", llama_history)
    assert len(docs) == 4 and len(nodes) == 4
    for meta in [d.metadata for d in docs] + [n.node.metadata for n in nodes]:
        dialogue = meta["dialogue"]
        assert dialogue is None or dialogue["turns"] == 50
