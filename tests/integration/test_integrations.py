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
    assert meta["score"] == hit.score and meta["graph_path"] == hit.graph_path
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
    assert [n.score for n in nodes] == [h.score for h in hits]
    assert nodes[0].node.metadata["found_by"] == hits[0].found_by
    assert [n.node.node_id for n in asyncio.run(local.aretrieve(QUERY))] == [h.id for h in hits]
    with TutorGraph(served.url, api_key=READ) as tg:
        remote = LlamaRetriever(tg, similarity_top_k=5, request_fields=fields).retrieve(QUERY)
    assert [n.node.node_id for n in remote] == [h.id for h in hits]
