"""Issue 47 item 4, over the real session index (MiniLM, BM25, the embedded graph, the concept
linker): the link stage runs before the search without blocking it (the lexical search
starts while the query is still being embedded), the graph is seeded from the linker's
concepts, and a linker that fails leaves the graph matching names as before."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pytest
from tests.conftest import index_retriever

from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig
from tutorgraph.stores.protocols import ScoredItem
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration

QUERY = "how do I add 1/2 and 1/3, i got 2/5"
EMBED_DELAY_S = 0.3


class SlowEmbedder:
    """The real embedder, 0.3 s slower, recording when each embedding finished."""

    def __init__(self, embedder) -> None:  # type: ignore[no-untyped-def]
        self._embedder = embedder
        self.name = embedder.name
        self.done: list[float] = []

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        time.sleep(EMBED_DELAY_S)
        out: npt.NDArray[np.float32] = self._embedder.embed(texts)
        self.done.append(time.perf_counter())
        return out

    def count_tokens(self, text: str) -> int:
        return int(self._embedder.count_tokens(text))


class RecordingLexical:
    """The real lexical index, recording when each search started."""

    def __init__(self, lexical) -> None:  # type: ignore[no-untyped-def]
        self._lexical = lexical
        self.started: list[float] = []

    async def search(self, query: str, k: int) -> list[ScoredItem]:
        self.started.append(time.perf_counter())
        out: list[ScoredItem] = await self._lexical.search(query, k)
        return out


class BrokenLinker:
    def link(  # type: ignore[no-untyped-def]
        self, text: str, k: int = 10, vector: Sequence[float] | None = None, *, grade=None, tags=()
    ) -> dict:  # type: ignore[type-arg]
        raise RuntimeError("cards damaged")

    def infer_band(self, text: str, vector: Sequence[float] | None = None, tags=()) -> None:  # type: ignore[no-untyped-def]
        raise RuntimeError("cards damaged")


def test_linking_overlaps_the_search_and_seeds_the_graph(opened_index, embedder) -> None:  # type: ignore[no-untyped-def]
    slow, lexical = SlowEmbedder(embedder), RecordingLexical(opened_index.lexical)
    retriever = HybridRetriever(
        slow,
        opened_index.vector,
        lexical,
        opened_index.graph,
        RetrieverConfig(source_timeout_s=60.0),
        linker=opened_index.linker,
    )
    names = [s.name for s in retriever.stages]
    assert names.index("link") < names.index("search")

    packet = asyncio.run(retriever.retrieve(RetrievalRequest(query=QUERY, debug=True)))
    # The lexical search did not wait for the query embedding the linker awaits.
    (embedded,) = slow.done
    assert lexical.started and lexical.started[0] < embedded - EMBED_DELAY_S / 2
    assert not packet.degraded_stages
    # The link stage's own time excludes the wait for the shared embedding.
    assert 0 < packet.timings_ms["link"] < EMBED_DELAY_S * 1000
    construct = next(c for c in packet.concepts if c.taxonomy == "eedi")
    seeds = {c["id"]: c["seed"] for c in packet.graph_context.concepts}
    assert seeds.get(construct.id) == "linked"
    assert "text" not in seeds.values()


def test_a_failed_linker_degrades_the_stage_and_the_graph_matches_names(
    opened_index, embedder
) -> None:  # type: ignore[no-untyped-def]
    retriever = index_retriever(opened_index, embedder, linker=BrokenLinker())
    packet = asyncio.run(
        retriever.retrieve(RetrievalRequest(query=QUERY, use_refinement=False, debug=True))
    )
    assert packet.debug is not None
    assert packet.degraded_stages == {"link": "link failed: RuntimeError"}
    assert packet.concepts == [] and packet.degraded_sources == []
    seeds = {c["id"]: c["seed"] for c in packet.graph_context.concepts}
    assert "text" in seeds.values() and "linked" not in seeds.values()
