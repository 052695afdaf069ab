"""The local source's embedding is bounded by time (issue 59): documents are embedded from
their first `LOCAL_EMBED_TOKENS` word pieces, a few at a time, the lexical matches first, and
no embedding call starts after the deadline or once the source was cancelled (its timeout).

A slow counting double stands in for MiniLM (the logic only; tests/integration/
test_local_context.py runs a request at the limit through the real retriever)."""

from __future__ import annotations

import asyncio
import threading
import time

import numpy as np
import numpy.typing as npt
import pytest

from tutorgraph.embedding.batching import MicroBatchingEmbedder
from tutorgraph.retrieval.local_context import (
    LOCAL_EMBED_BATCH,
    LOCAL_EMBED_TOKENS,
    head_tokens,
    local_items,
    search_local,
)
from tutorgraph_client.models.request import LocalDocument

pytestmark = pytest.mark.unit

CALL_S = 0.1
QUERY_VECTOR = np.array([1.0, 0.0], np.float32)


class SlowEmbedder:
    """Each call takes `CALL_S`; a text naming "fractions" points along the query."""

    name = "slow"

    def __init__(self) -> None:
        self.calls: list[tuple[float, list[str]]] = []
        self._lock = threading.Lock()

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        with self._lock:
            self.calls.append((time.monotonic(), list(texts)))
        time.sleep(CALL_S)
        return np.array([[1.0, 0.0] if "fractions" in t else [0.0, 1.0] for t in texts], np.float32)

    def count_tokens(self, text: str) -> int:
        return len(text.split())


def _docs(n: int = 20, words: int = 300) -> list[LocalDocument]:
    filler = " ".join(["page"] * words)
    docs = [LocalDocument(id=f"d{i:02d}", text=f"filler {filler}") for i in range(n)]
    # The last one matches the query's words: it is embedded first.
    docs[-1] = LocalDocument(id="lesson", text=f"compare fractions {filler}")
    return docs


def test_a_document_is_embedded_from_its_first_word_pieces() -> None:
    def count(text: str) -> int:
        return len(text.split())

    long = " ".join(f"w{i}" for i in range(400))
    head = head_tokens(long, LOCAL_EMBED_TOKENS, count)
    assert LOCAL_EMBED_TOKENS * 0.9 <= count(head) <= LOCAL_EMBED_TOKENS
    assert long.startswith(head)
    assert head_tokens("short text", LOCAL_EMBED_TOKENS, count) == "short text"
    # Words of several tokens each: still within the budget.
    assert count(head_tokens(long, 10, lambda t: 3 * count(t))) * 3 <= 10
    assert head_tokens("onewordonly", 1, lambda t: 500) == "onewordonly"  # the model cuts it


async def test_without_a_deadline_every_document_is_embedded_in_small_calls() -> None:
    embedder = SlowEmbedder()
    found = await search_local(
        local_items(_docs(n=6)), "compare fractions", QUERY_VECTOR, embedder, 0.5
    )
    assert found.unembedded == 0
    assert [len(texts) for _, texts in embedder.calls] == [LOCAL_EMBED_BATCH, 2]
    assert embedder.calls[0][1][0].startswith("compare fractions")  # the lexical match first
    assert all(len(t.split()) <= LOCAL_EMBED_TOKENS for _, ts in embedder.calls for t in ts)
    assert [h.item.id for h in found.hits] == ["local:lesson"]


async def test_no_embedding_call_starts_that_would_end_after_the_deadline() -> None:
    embedder = SlowEmbedder()
    started = time.monotonic()
    deadline = asyncio.get_running_loop().time() + 2.5 * CALL_S
    found = await search_local(
        local_items(_docs()), "compare fractions", QUERY_VECTOR, embedder, 0.5, deadline=deadline
    )
    took = time.monotonic() - started
    # Each call takes at least CALL_S, so a third would start at 2 x CALL_S or later and be
    # expected to end past the deadline; the first two fit (unless the machine stalls them).
    calls = len(embedder.calls)
    assert calls in (1, 2), embedder.calls
    assert took < 2.5 * CALL_S + CALL_S + 0.5, took  # the deadline and the call in flight
    assert found.unembedded == 20 - calls * LOCAL_EMBED_BATCH
    # The lexical match was embedded first, and is found by both searches.
    assert embedder.calls[0][1][0].startswith("compare fractions")
    assert [h.item.id for h in found.hits] == ["local:lesson"]
    assert found.hits[0].score == round(1.0 / 61, 9)


async def test_a_deadline_already_past_leaves_the_words_alone() -> None:
    embedder = SlowEmbedder()
    past = asyncio.get_running_loop().time() - 1.0
    found = await search_local(
        local_items(_docs()), "compare fractions", QUERY_VECTOR, embedder, 0.5, deadline=past
    )
    assert embedder.calls == [] and found.unembedded == 20
    assert [h.item.id for h in found.hits] == ["local:lesson"]  # BM25 still finds it
    assert found.hits[0].score == round(0.5 / 61, 9)


async def test_a_cancelled_search_starts_no_further_call() -> None:
    """The source's timeout cancels the search: the call in flight ends, none follows."""
    embedder = SlowEmbedder()
    task = asyncio.create_task(
        search_local(local_items(_docs()), "compare fractions", QUERY_VECTOR, embedder, 0.5)
    )
    await asyncio.sleep(1.5 * CALL_S)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    calls = len(embedder.calls)
    await asyncio.sleep(3 * CALL_S)
    assert len(embedder.calls) == calls < 20 / LOCAL_EMBED_BATCH


async def test_a_micro_batch_skips_a_caller_that_gave_up_before_it_ran() -> None:
    embedder = SlowEmbedder()
    batched = MicroBatchingEmbedder(embedder, max_batch=64, max_wait_ms=50)  # type: ignore[arg-type]
    gave_up = asyncio.create_task(batched.aembed(["timed out"]))
    kept = asyncio.create_task(batched.aembed(["still waiting"]))
    await asyncio.sleep(0.01)
    gave_up.cancel()
    rows = await kept
    assert rows.shape == (1, 2)
    assert [texts for _, texts in embedder.calls] == [["still waiting"]]
