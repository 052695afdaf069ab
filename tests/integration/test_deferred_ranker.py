"""A deferred learned ranker (what one-shot commands use) answers every request exactly as a
loaded one, and loads only when a request may be scored by it."""

from __future__ import annotations

import asyncio
import re

import pytest

from tutorgraph.config import Settings
from tutorgraph.ranking.model import LearnedRanker
from tutorgraph.retrieval.factory import load_ranker
from tutorgraph.retrieval.loaded import Loaded
from tutorgraph.retrieval.ranker_runtime import DeferredRanker
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration

_TIMINGS_RE = re.compile(r'"(timings_ms|stages_ms)":\{[^{}]*\}')
REQUESTS = [
    # (request, whether the ranker must be loaded by the time it is answered)
    (RetrievalRequest(query="what is a common denominator?"), False),
    (RetrievalRequest(query="i got 1.2 for 0.6 × 0.2, why is it wrong?"), True),
    (RetrievalRequest(query="factorise x^2+5x+6", concept_ids=["eedi:construct:1428"]), True),
]


def test_a_deferred_ranker_loads_on_first_need_and_changes_no_packet(
    opened_index, embedder
) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import index_retriever

    eager = load_ranker(Settings())
    assert eager.value is not None, eager.reason
    loads: list[str] = []
    said: list[str] = []

    def load() -> Loaded[LearnedRanker]:
        loads.append("load")
        return load_ranker(Settings())

    deferred = DeferredRanker(
        load, name="tutorgraph/eedi-ranker", text_only=True, status=said.append
    )
    now = index_retriever(opened_index, embedder, ranker=eager)
    later = index_retriever(opened_index, embedder, ranker=Loaded.of(deferred))
    assert later.ranker is None  # nothing loaded yet
    for request, loaded in REQUESTS:
        want = asyncio.run(now.retrieve(request))
        got = asyncio.run(later.retrieve(request))
        assert len(loads) == int(loaded), request.query  # once, on the first need
        assert _TIMINGS_RE.sub("", got.model_dump_json()) == _TIMINGS_RE.sub(
            "", want.model_dump_json()
        )
    assert got.ranker.applied and later.ranker is not None
    assert said == ["loading the learned ranker"]
