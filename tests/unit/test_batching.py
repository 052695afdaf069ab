"""Micro-batching of embeddings: concurrent callers share model calls and get their own rows.

A counting embedder stands in for MiniLM: this checks the batching logic only.
"""

from __future__ import annotations

import asyncio

import numpy as np
import numpy.typing as npt
import pytest

from tutorgraph.retrieval.batching import MicroBatchingEmbedder, embed_async

pytestmark = pytest.mark.unit


class Counting:
    name = "counting"

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[list[str]] = []
        self.fail = fail

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        self.calls.append(list(texts))
        if self.fail:
            raise RuntimeError("model died")
        return np.array([[float(len(t)), float(i)] for i, t in enumerate(texts)], np.float32)

    def count_tokens(self, text: str) -> int:
        return len(text.split())


async def test_concurrent_callers_share_one_model_call() -> None:
    inner = Counting()
    batched = MicroBatchingEmbedder(inner, max_batch=64, max_wait_ms=20)  # type: ignore[arg-type]
    queries = [f"query {'x' * i}" for i in range(10)]
    rows = await asyncio.gather(*(batched.aembed([q]) for q in queries))
    assert batched.model_calls == 1 and len(inner.calls) == 1
    for q, row in zip(queries, rows, strict=True):
        assert row.shape == (1, 2) and row[0, 0] == len(q)  # each caller gets its own row


async def test_a_full_batch_goes_at_once_and_the_rest_after_the_wait() -> None:
    inner = Counting()
    batched = MicroBatchingEmbedder(inner, max_batch=4, max_wait_ms=20)  # type: ignore[arg-type]
    rows = await asyncio.gather(*(batched.aembed([str(i)]) for i in range(6)))
    assert [len(c) for c in inner.calls] == [4, 2]
    assert [r[0, 0] for r in rows] == [1.0] * 6


async def test_a_model_failure_reaches_every_caller_of_the_batch() -> None:
    batched = MicroBatchingEmbedder(Counting(fail=True), max_wait_ms=5)  # type: ignore[arg-type]
    results = await asyncio.gather(
        *(batched.aembed(["q"]) for _ in range(3)), return_exceptions=True
    )
    assert all(isinstance(r, RuntimeError) for r in results)


async def test_embed_async_uses_a_thread_for_plain_embedders() -> None:
    inner = Counting()
    out = await embed_async(inner, ["a", "bb"])  # type: ignore[arg-type]
    assert out.shape == (2, 2) and inner.calls == [["a", "bb"]]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        MicroBatchingEmbedder(Counting(), max_batch=0)  # type: ignore[arg-type]
