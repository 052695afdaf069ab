"""One behavioural suite for every `Embedder`, on the real MiniLM weights: the ONNX Runtime
embedder (the session's `embedder`, the product's default), the PyTorch
`SentenceTransformerEmbedder` (the `[torch]` extra: skipped without it), and the
`MicroBatchingEmbedder` the server puts in front of either.

The protocol promises L2-normalised float32 vectors, one per text in order, and token counts
without special tokens; both models also cut a text at MiniLM's 256-token window.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import numpy as np
import numpy.typing as npt
import pytest

from tutorgraph.embedding.batching import MicroBatchingEmbedder, embed_async
from tutorgraph.embedding.embedder import Embedder

pytestmark = pytest.mark.integration

MODEL = "sentence-transformers/all-MiniLM-L6-v2"
DIM = 384
TEXTS = [
    "Why is 3/4 bigger than 2/3?",
    "",
    "ratio",
    "Adds the numerators and adds the denominators when adding fractions.",
    "\\( \\frac{1}{2}+\\frac{1}{4}=\\frac{2}{6} \\)",
    "½ + ¾ = ? für x² ≥ √2 — 分数 🙂",
]
SENTENCE = "Adds the numerators and adds the denominators when adding fractions. "


@pytest.fixture(scope="module")
def torch_embedder() -> Embedder:
    """MiniLM through PyTorch, loaded once for the module."""
    pytest.importorskip("sentence_transformers", reason="the [torch] extra is not installed")
    from tutorgraph.embedding.embedder import SentenceTransformerEmbedder

    emb = SentenceTransformerEmbedder(MODEL)
    emb.load()
    return emb


@pytest.fixture(params=["onnx", "torch", "micro-batching"])
def emb(request: pytest.FixtureRequest, embedder: Embedder) -> Iterator[Embedder]:
    if request.param == "onnx":
        yield embedder
    elif request.param == "torch":
        yield request.getfixturevalue("torch_embedder")
    else:
        yield MicroBatchingEmbedder(embedder, max_batch=4, max_wait_ms=1.0)


def _cosine(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_satisfies_the_protocol(emb: Embedder) -> None:
    assert isinstance(emb, Embedder)
    assert emb.name == MODEL  # an index built by one serves queries from the others


def test_one_float32_unit_vector_per_text(emb: Embedder) -> None:
    vectors = emb.embed(TEXTS)
    assert vectors.shape == (len(TEXTS), DIM)
    assert vectors.dtype == np.float32
    assert np.isfinite(vectors).all()
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_no_texts_is_no_vectors(emb: Embedder) -> None:
    vectors = emb.embed([])
    assert len(vectors) == 0


def test_the_same_texts_give_the_same_vectors(emb: Embedder) -> None:
    assert np.allclose(emb.embed(TEXTS), emb.embed(TEXTS), atol=1e-6)


def test_a_batch_equals_its_texts_one_by_one_in_order(emb: Embedder) -> None:
    batch = emb.embed(TEXTS)
    alone = np.concatenate([emb.embed([t]) for t in TEXTS])
    assert np.abs(batch - alone).max() < 1e-5  # padding never leaks into a vector
    backwards = emb.embed(TEXTS[::-1])
    assert np.abs(backwards[::-1] - batch).max() < 1e-5  # vector i is text i's


def test_a_paraphrase_is_nearer_than_an_unrelated_text(emb: Embedder) -> None:
    query, paraphrase, unrelated = emb.embed(
        [
            "How do I add two fractions?",
            "Adding fractions: find a common denominator, then add the numerators.",
            "The train leaves the station at nine in the morning.",
        ]
    )
    assert _cosine(query, paraphrase) > _cosine(query, unrelated) + 0.2


def test_a_long_text_is_cut_at_the_window_not_refused(emb: Embedder) -> None:
    # 40 and 80 copies both run past 256 tokens: the model sees the same first 256.
    forty, eighty, one = emb.embed([SENTENCE * 40, SENTENCE * 80, SENTENCE])
    assert _cosine(forty, eighty) > 0.9999
    assert np.isclose(np.linalg.norm(forty), 1.0, atol=1e-5)
    assert _cosine(forty, one) < 0.9999  # the cut is not at one sentence


def test_count_tokens_counts_model_tokens_without_special_tokens(emb: Embedder) -> None:
    assert emb.count_tokens("") == 0
    assert emb.count_tokens("fraction") == 1
    n = emb.count_tokens(SENTENCE)
    assert 10 <= n <= 20
    # Untruncated (chunking measures long texts), and additive over whole sentences.
    assert emb.count_tokens(SENTENCE * 40) == 40 * n > 256
    assert emb.count_tokens(SENTENCE) == n  # stable (cached or not)


async def test_embedding_off_the_loop_gives_the_same_vectors(emb: Embedder) -> None:
    # `embed_async` takes the wrapper's micro-batched `aembed`, else a thread; concurrent
    # callers each get their own texts' vectors.
    groups = [TEXTS[:2], TEXTS[2:3], TEXTS[3:], []]
    got = await asyncio.gather(*(embed_async(emb, g) for g in groups))
    for group, vectors in zip(groups, got, strict=True):
        assert len(vectors) == len(group)
        if group:
            assert np.abs(vectors - emb.embed(group)).max() < 1e-5


def test_the_implementations_agree(embedder: Embedder, torch_embedder: Embedder) -> None:
    """ONNX and PyTorch: the same vectors (cosine > 0.9999) and the same token counts."""
    onnx, torch = embedder.embed(TEXTS), torch_embedder.embed(TEXTS)
    assert float((onnx * torch).sum(axis=1).min()) > 0.9999
    for text in [*TEXTS, SENTENCE * 40]:
        assert embedder.count_tokens(text) == torch_embedder.count_tokens(text)
