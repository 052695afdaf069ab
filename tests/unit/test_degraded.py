"""A failing or slow source degrades the packet and says so; all failing is an error.

Fakes stand in for the stores here: this checks the retriever's logic only.
"""

from __future__ import annotations

import asyncio
import doctest
import time
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pytest

from tutorgraph.errors import SourceUnavailableError
from tutorgraph.retrieval.loaded import Loaded
from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig
from tutorgraph.retrieval.stage_deps import NO_RERANKER
from tutorgraph.stores.protocols import (
    ConceptMatch,
    EdgeDirection,
    IndexItem,
    MisconceptionLink,
    PrerequisitePath,
    ScoredItem,
)
from tutorgraph_client.models.curriculum import Concept, Document, Misconception, Prerequisite
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.unit

ITEM = IndexItem(id="openstax:m1:chunk:0", kind="explanation", title="t", text="fractions")


class Embedder:
    name = "fake"

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        return np.ones((len(texts), 4), dtype=np.float32)

    def count_tokens(self, text: str) -> int:
        return len(text.split())


class Vector:
    def __init__(self, fail: bool = False) -> None:
        self.fail = fail

    async def search(self, embedding: npt.NDArray[np.float32], k: int) -> list[ScoredItem]:
        if self.fail:
            raise ConnectionError("vector store down")
        return [ScoredItem(ITEM, 0.9)]

    async def embeddings(self, ids: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        if self.fail:
            raise ConnectionError("vector store down")
        return {i: np.ones(4, dtype=np.float32) for i in ids if i == ITEM.id}


class Lexical:
    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay

    async def search(self, query: str, k: int) -> list[ScoredItem]:
        await asyncio.sleep(self.delay)
        return [ScoredItem(ITEM, 3.0)]


class Graph:
    def __init__(self, fail: bool = False, delay: float = 0.0) -> None:
        self.fail = fail
        self.delay = delay

    async def _call(self) -> None:
        await asyncio.sleep(self.delay)
        if self.fail:
            raise ConnectionError("graph down")

    async def search_concepts(self, text: str, k: int) -> list[ConceptMatch]:
        await self._call()
        return []

    async def get_concepts(self, ids: Sequence[str]) -> list[Concept]:
        return []

    async def unknown_concepts(self, ids: Sequence[str]) -> list[str]:
        await self._call()
        return []

    async def get_misconceptions(self, ids: Sequence[str]) -> list[Misconception]:
        await self._call()
        return []

    async def prerequisite_chains(
        self, concept_ids: Sequence[str], depth: int
    ) -> list[PrerequisitePath]:
        return []

    async def edges_of(
        self, concept_ids: Sequence[str], direction: EdgeDirection
    ) -> list[Prerequisite]:
        return []

    async def misconceptions_of(
        self, concept_ids: Sequence[str], query: str | None = None
    ) -> list[MisconceptionLink]:
        return []

    async def documents_of(
        self, concept_ids: Sequence[str], kinds: Sequence[str], limit: int
    ) -> list[Document]:
        return []


class BrokenReranker:
    name = "broken"

    def load(self) -> None:
        pass

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        raise RuntimeError("onnxruntime session died")


def retriever(**kw: object) -> HybridRetriever:
    return HybridRetriever(
        Embedder(),  # type: ignore[arg-type]
        kw.get("vector", Vector()),  # type: ignore[arg-type]
        kw.get("lexical", Lexical()),  # type: ignore[arg-type]
        kw.get("graph", Graph()),  # type: ignore[arg-type]
        RetrieverConfig(source_timeout_s=0.2),
        reranker=Loaded.of(kw["reranker"]) if "reranker" in kw else NO_RERANKER,  # type: ignore[arg-type]
    )


async def test_a_failed_source_is_named_and_the_others_still_answer() -> None:
    packet = await retriever(vector=Vector(fail=True)).retrieve(RetrievalRequest(query="q"))
    assert packet.degraded_sources == ["vector"]
    assert [h.found_by for h in packet.results] == [["lexical"]]


async def test_a_slow_source_times_out_and_is_named() -> None:
    packet = await retriever(lexical=Lexical(delay=5.0)).retrieve(RetrievalRequest(query="q"))
    assert packet.degraded_sources == ["lexical"]
    assert packet.results[0].found_by == ["vector"]


async def test_a_failed_graph_leaves_an_empty_graph_context() -> None:
    packet = await retriever(graph=Graph(fail=True)).retrieve(RetrievalRequest(query="q"))
    assert packet.degraded_sources == ["graph"]
    assert packet.graph_context.concepts == [] and packet.graph_count == 0


async def test_a_slow_graph_times_out_and_is_named() -> None:
    started = asyncio.get_running_loop().time()
    packet = await retriever(graph=Graph(delay=5.0)).retrieve(RetrievalRequest(query="q"))
    assert packet.degraded_sources == ["graph"]
    assert asyncio.get_running_loop().time() - started < 2.0  # never waits for the backend


async def test_a_down_graph_does_not_block_requests_with_concept_ids() -> None:
    """The ids cannot be checked while the graph is down: answer from the other sources."""
    for graph in (Graph(fail=True), Graph(delay=5.0)):
        packet = await retriever(graph=graph).retrieve(
            RetrievalRequest(query="q", concept_ids=["ccss:6.NS.A.1"])
        )
        assert packet.degraded_sources == ["graph"]
        assert packet.results


async def test_a_backend_that_comes_back_is_used_again() -> None:
    vector, graph = Vector(fail=True), Graph(fail=True)
    r = retriever(vector=vector, graph=graph)
    down = await r.retrieve(RetrievalRequest(query="q"))
    assert down.degraded_sources == ["vector", "graph"]
    vector.fail = graph.fail = False
    back = await r.retrieve(RetrievalRequest(query="q"))
    assert back.degraded_sources == []
    assert back.results[0].found_by == ["vector", "lexical"]


async def test_no_source_answering_is_an_error() -> None:
    r = retriever(vector=Vector(fail=True), lexical=Lexical(delay=5.0), graph=Graph(fail=True))
    with pytest.raises(SourceUnavailableError, match="no retrieval source answered") as caught:
        await r.retrieve(RetrievalRequest(query="q"))
    # Each source's reason, in the one format the packets use.
    assert caught.value.message == (
        "no retrieval source answered: vector failed: ConnectionError; "
        "lexical failed: no answer within 0.2 s; graph failed: ConnectionError"
    )


class SlowLinker:
    def link(self, *args: object, **kw: object) -> dict[str, list[object]]:
        time.sleep(1.5)  # in the link stage's worker thread, past the search's waits
        return {}

    def infer_band(self, *args: object, **kw: object) -> None:
        return None


async def test_every_failure_reason_is_said_in_one_format() -> None:
    """A source that fails, one that times out and a stage that times out: each reason is
    `<what> failed: <why>`, naming the exception's type, never its message."""
    r = HybridRetriever(
        Embedder(),  # type: ignore[arg-type]
        Vector(fail=True),  # type: ignore[arg-type]
        Lexical(),  # type: ignore[arg-type]
        Graph(delay=5.0),  # type: ignore[arg-type]
        RetrieverConfig(source_timeout_s=0.2),
        linker=SlowLinker(),  # type: ignore[arg-type]
    )
    packet = await r.retrieve(RetrievalRequest(query="q"))
    assert packet.degraded_reasons == {
        "vector": "vector failed: ConnectionError",
        "graph": "graph failed: no answer within 0.2 s",
    }
    assert packet.degraded_stages == {"link": "link failed: no answer within 0.2 s"}


async def test_a_failing_reranker_keeps_the_fused_order_and_says_so() -> None:
    packet = await retriever(reranker=BrokenReranker()).retrieve(
        RetrievalRequest(query="q", rerank=True)
    )
    assert packet.reranker.applied is False
    assert packet.reranker.model == "broken"
    assert packet.reranker.reason == "rerank failed: RuntimeError"
    assert packet.results and packet.results[0].rerank_score is None
    assert packet.results[0].score == packet.results[0].fused_score


async def test_a_down_graph_shows_as_degraded_with_the_refiner_on() -> None:
    """The refiner swallows the failed concept search; the graph search must still say so."""
    from tutorgraph.refinement.local import LocalRefiner

    graph = Graph(fail=True)
    r = HybridRetriever(
        Embedder(),  # type: ignore[arg-type]
        Vector(),  # type: ignore[arg-type]
        Lexical(),  # type: ignore[arg-type]
        graph,  # type: ignore[arg-type]
        RetrieverConfig(source_timeout_s=0.2),
        refiner=LocalRefiner(graph),  # type: ignore[arg-type]
    )
    packet = await r.retrieve(RetrievalRequest(query="i got 2/6 for 1/2+1/4"))
    assert packet.refined_query is not None and packet.refined_query.key_concepts == []
    assert packet.degraded_sources == ["graph"]


async def test_each_model_s_reason_reaches_the_packet_as_it_was_given() -> None:
    """A model and why it is missing are one value (`Loaded`) from the caller to the packet."""
    from tutorgraph.retrieval import loaded

    assert doctest.testmod(loaded).failed == 0
    r = HybridRetriever(
        Embedder(),  # type: ignore[arg-type]
        Vector(),  # type: ignore[arg-type]
        Lexical(),  # type: ignore[arg-type]
        Graph(),  # type: ignore[arg-type]
        RetrieverConfig(source_timeout_s=0.2),
        reranker=Loaded.missing("reranker off here"),
        ranker=Loaded.missing("ranker off here"),
        scope=Loaded.missing("scope off here"),
    )
    packet = await r.retrieve(RetrievalRequest(query="q", rerank=True, concept_ids=["ccss:1"]))
    assert packet.reranker.reason == "reranker off here" and not packet.reranker.applied
    assert packet.ranker.reason == "ranker off here" and not packet.ranker.applied
    assert packet.scope.reason == "scope off here" and not packet.scope.applied
    default = await retriever().retrieve(RetrievalRequest(query="q", rerank=True))
    assert default.reranker.reason == "no reranker configured"
    assert default.ranker.reason == "no learned ranker configured"
    assert default.scope.reason == "no scope model configured"
