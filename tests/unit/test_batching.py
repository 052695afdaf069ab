"""Micro-batching of embeddings: concurrent callers share model calls and get their own rows.

Counting doubles stand in for MiniLM and the cross-encoder: this checks the batching logic
only (tests/integration/test_reranker.py checks `score_many` on the real model).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pytest

from tutorgraph.embedding.batching import (
    MicroBatchingEmbedder,
    MicroBatchingReranker,
    embed_async,
    rerank_async,
)

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


class Scoring:
    """Scores a text by its length; records each call's requests."""

    name = "scoring"

    def __init__(self) -> None:
        self.many_calls: list[list[tuple[str, list[str]]]] = []

    def load(self) -> None:
        pass

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        return [len(query) + len(t) / 100 for t in texts]

    def score_many(self, requests: Sequence[tuple[str, Sequence[str]]]) -> list[list[float]]:
        self.many_calls.append([(q, list(t)) for q, t in requests])
        return [self.score(q, t) for q, t in requests]


class ScoringOneAtATime(Scoring):
    score_many = None  # type: ignore[assignment]  # a reranker without a batch call


async def test_concurrent_reranks_share_one_score_many_call() -> None:
    inner = Scoring()
    batched = MicroBatchingReranker(inner, max_batch=1000, max_wait_ms=20)
    jobs = [(f"q{'x' * i}", [f"t{j}" for j in range(i + 1)]) for i in range(5)]
    outs = await asyncio.gather(*(batched.ascore(q, t) for q, t in jobs))
    assert batched.model_calls == 1 and len(inner.many_calls) == 1
    assert outs == [inner.score(q, t) for q, t in jobs]  # each caller gets its own scores


async def test_rerank_batches_are_bounded_in_pairs() -> None:
    inner = Scoring()
    batched = MicroBatchingReranker(inner, max_batch=60, max_wait_ms=20)
    await asyncio.gather(*(batched.ascore(f"q{i}", ["t"] * 30) for i in range(3)))
    assert [len(c) for c in inner.many_calls] == [2, 1]  # 60 pairs go at once, 30 wait


async def test_a_reranker_without_score_many_is_called_per_request() -> None:
    batched = MicroBatchingReranker(ScoringOneAtATime(), max_wait_ms=5)
    outs = await asyncio.gather(batched.ascore("a", ["x"]), batched.ascore("bb", ["y", "z"]))
    assert outs == [[1.01], [2.01, 2.01]]


async def test_rerank_async_uses_ascore_when_there_is_one() -> None:
    inner = Scoring()
    assert await rerank_async(inner, "q", ["t"]) == [1.01]  # plain: a thread
    assert inner.many_calls == []
    assert await rerank_async(MicroBatchingReranker(inner), "q", ["t"]) == [1.01]
    assert len(inner.many_calls) == 1
