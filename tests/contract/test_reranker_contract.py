"""One behavioural suite for every `Reranker`: `CrossEncoderReranker` on each of its runtimes
(PyTorch, ONNX fp32, ONNX int8) and the `MicroBatchingReranker` the server puts in front of
one, all on the session's tiny cross-encoder (`tiny_cross_encoder`, built from test text).

That model is randomly initialised, never trained: its scores say nothing about relevance,
so this suite checks what the protocol promises whatever the weights (one probability per
text, in input order, independent of the other texts and of batching, caching or
concurrency) and leaves ranking quality to the retrieval benchmarks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import cast

import pytest

from hostile_text import HOSTILE
from tutorgraph.embedding.batching import MicroBatchingReranker, rerank_async
from tutorgraph.embedding.reranker import (
    Backend,
    CrossEncoderReranker,
    Reranker,
    RerankerOptions,
)

pytestmark = pytest.mark.integration

QUERY = "What is 1/2 + 1/4?\nCorrect answer: 3/4\nStudent answer: 2/6"
OTHER = "Which fraction is bigger, 2/3 or 3/4?"
TEXTS = [
    "Adds the numerators and adds the denominators when adding fractions",
    "Flips the wrong fraction when dividing",
    "Thinks a ratio is a fraction",
    "",
    "Believes you multiply the denominators and add the numerators",
    "Confuses the perimeter and the area of a rectangle",
    "½ + ¾ = ? für x² ≥ √2 — 分数 🙂",
    "Adds the numerators and adds the denominators when adding fractions " * 30,
]
NO_CACHE = RerankerOptions(cache_size=0)
# Each pair in a batch of its own: no batch can move a score, so scores compare exactly.
ONE_BY_ONE = RerankerOptions(cache_size=0, batch_size=1)
# How far a pair's score may move with the batch it shares (scores are rounded to 6
# decimals): fp32 masks padding out, so one rounding step; int8 quantises activations per
# batch, so its scores move with their company (about 1e-4 on the tiny model).
TOLERANCE = {"torch": 1e-6, "onnx": 1e-6, "onnx-int8": 1e-3, "micro-batching": 1e-6}

Make = Callable[..., Reranker]


@pytest.fixture(params=["torch", "onnx", "onnx-int8", "micro-batching"])
def leg(request: pytest.FixtureRequest) -> str:
    if request.param == "torch":
        pytest.importorskip("sentence_transformers", reason="the [torch] extra is not installed")
    return str(request.param)


@pytest.fixture
def make(leg: str, tiny_cross_encoder: Path) -> Make:
    """`make(options=None)`: a fresh reranker of this leg (its own cache), not yet loaded."""

    def build(options: RerankerOptions | None = None) -> Reranker:
        backend = cast(Backend, "onnx" if leg == "micro-batching" else leg)
        inner = CrossEncoderReranker(
            tiny_cross_encoder, backend=backend, options=options, name="tiny"
        )
        if leg == "micro-batching":
            return MicroBatchingReranker(inner, max_batch=6, max_wait_ms=1.0)
        return inner

    return build


@pytest.fixture
def tol(leg: str) -> float:
    return TOLERANCE[leg]


def _close(a: list[float], b: list[float], tol: float) -> bool:
    return len(a) == len(b) and all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def test_satisfies_the_protocol_and_loads_once(make: Make) -> None:
    reranker = make()
    assert isinstance(reranker, Reranker)
    assert reranker.name == "tiny"  # what packets report
    reranker.load()
    reranker.load()  # idempotent


def test_one_probability_per_text(make: Make) -> None:
    scores = make().score(QUERY, TEXTS)
    assert len(scores) == len(TEXTS)
    assert all(isinstance(s, float) and 0.0 <= s <= 1.0 for s in scores)


def test_no_texts_is_no_scores(make: Make) -> None:
    reranker = make()
    assert reranker.score(QUERY, []) == []
    assert reranker.score("", []) == []


def test_scores_depend_on_the_pair(make: Make) -> None:
    # Even untrained, the model reads its input: texts and queries move the scores.
    reranker = make(NO_CACHE)
    scores = reranker.score(QUERY, TEXTS)
    assert len(set(scores)) >= 3
    assert reranker.score(OTHER, TEXTS) != scores


def test_score_i_is_text_i(make: Make) -> None:
    reranker = make(ONE_BY_ONE)
    together = reranker.score(QUERY, TEXTS)
    assert together == [reranker.score(QUERY, [t])[0] for t in TEXTS]
    assert reranker.score(QUERY, TEXTS[::-1])[::-1] == together
    twice = reranker.score(QUERY, [TEXTS[1], TEXTS[4], TEXTS[1]])
    assert twice == [together[1], together[4], together[1]]


def test_batching_moves_no_score_beyond_tolerance(make: Make, tol: float) -> None:
    alone = make(ONE_BY_ONE).score(QUERY, TEXTS)
    for batch_size in (3, 8):
        options = RerankerOptions(cache_size=0, batch_size=batch_size)
        assert _close(make(options).score(QUERY, TEXTS), alone, tol), batch_size


def test_the_same_call_gives_the_same_scores(make: Make) -> None:
    for options in (None, NO_CACHE):
        reranker = make(options)
        first = reranker.score(QUERY, TEXTS)
        assert reranker.score(QUERY, TEXTS) == first
        assert reranker.score(QUERY, TEXTS) == make(NO_CACHE).score(QUERY, TEXTS)


def test_a_cached_pair_scores_as_a_fresh_one(make: Make, tol: float) -> None:
    cached = make()
    warm = cached.score(QUERY, TEXTS)
    mixed = cached.score(QUERY, [TEXTS[2], "a text never seen", TEXTS[0]])
    assert mixed[0] == warm[2] and mixed[2] == warm[0]
    fresh = make(NO_CACHE).score(QUERY, [TEXTS[2], "a text never seen", TEXTS[0]])
    assert _close(mixed, fresh, tol)


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:30]))
def test_any_text_is_scored_as_a_query_or_a_candidate(make: Make, text: str) -> None:
    # Empty, whitespace, syntax, long beyond the window (cut, not refused), any script.
    reranker = make()
    scores = reranker.score(text, [text, TEXTS[0]])
    assert len(scores) == 2 and all(0.0 <= s <= 1.0 for s in scores)


async def test_scoring_off_the_loop_gives_the_same_scores(make: Make, tol: float) -> None:
    # `rerank_async` takes the wrapper's micro-batched `ascore`, else a thread; concurrent
    # requests (sharing the wrapper's batches) each get their own texts' scores.
    reranker = make(NO_CACHE)
    requests = [(QUERY, TEXTS[:3]), (OTHER, TEXTS[2:7]), (QUERY, []), (OTHER, TEXTS[:1])]
    got = await asyncio.gather(*(rerank_async(reranker, q, texts) for q, texts in requests))
    for (query, texts), scores in zip(requests, got, strict=True):
        assert _close(scores, reranker.score(query, texts), tol)
