"""The ONNX embedder against the real MiniLM through PyTorch: the same vectors, one export."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tutorgraph.config import Settings
from tutorgraph.embedding import onnx_embedder
from tutorgraph.embedding.batching import MicroBatchingEmbedder
from tutorgraph.embedding.embedder import SentenceTransformerEmbedder
from tutorgraph.embedding.onnx_embedder import OnnxEmbedder
from tutorgraph.errors import ConfigurationError
from tutorgraph.ranking.model import LearnedRanker
from tutorgraph.retrieval.factory import load_models

pytestmark = pytest.mark.integration

MODEL = "sentence-transformers/all-MiniLM-L6-v2"
TEXTS = [
    "Why is 3/4 bigger than 2/3?",
    "",
    "ratio",
    # Longer than MiniLM's 256 tokens: both runtimes must cut it at the same place.
    "Adds the numerators and adds the denominators when adding fractions. " * 40,
    "\\( \\frac{1}{2}+\\frac{1}{4}=\\frac{2}{6} \\)",
]


@pytest.fixture(scope="module")
def xdg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("xdg-cache")


@pytest.fixture(scope="module")
def cache(xdg: Path) -> Path:
    return xdg / "tutorgraph" / "onnx"  # the default under XDG_CACHE_HOME=xdg


@pytest.fixture(scope="module")
def exported(cache: Path) -> OnnxEmbedder:
    emb = OnnxEmbedder(MODEL, batch_size=2, cache_dir=cache)  # small batches: order must hold
    emb.load()
    return emb


def test_vectors_match_pytorch(
    exported: OnnxEmbedder, embedder: SentenceTransformerEmbedder
) -> None:
    mine, reference = exported.embed(TEXTS), embedder.embed(TEXTS)
    assert mine.shape == reference.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(mine, axis=1), 1.0, atol=1e-5)
    assert float((mine * reference).sum(axis=1).min()) > 0.9999
    assert exported.name == embedder.name  # an index built by either serves the other
    assert exported.count_tokens(TEXTS[3]) == embedder.count_tokens(TEXTS[3])
    assert exported.embed([]).shape[0] == 0


def test_a_second_embedder_reuses_the_export(
    exported: OnnxEmbedder, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_export(*_: object) -> None:
        raise AssertionError("exported again")

    monkeypatch.setattr(onnx_embedder, "export_transformer", no_export)
    again = OnnxEmbedder(MODEL, cache_dir=cache)
    again.load()
    assert np.allclose(again.embed(TEXTS[:1]), exported.embed(TEXTS[:1]), atol=1e-6)
    assert len(list(cache.rglob("*.onnx"))) == 1


def test_an_export_that_disagrees_with_pytorch_is_refused_and_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(onnx_embedder, "_MIN_COSINE", 1.5)  # no export can pass this
    with pytest.raises(ConfigurationError, match="does not match PyTorch"):
        OnnxEmbedder(MODEL, cache_dir=tmp_path).load()
    assert not list(tmp_path.rglob("*.onnx"))


def test_the_setting_selects_it(
    exported: OnnxEmbedder, xdg: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(xdg))  # the export above is found there
    models = load_models(Settings(embedder_backend="onnx", reranker_model=""))
    assert isinstance(models.embedder, OnnxEmbedder)
    assert models.reranker.value is None
    # The ranker's fine-tuned encoder runs on one thread (as fast, for less CPU).
    ranker = models.ranker.value
    assert isinstance(ranker, LearnedRanker) and ranker.tuned is not None
    tuned = ranker.tuned.embedder
    assert isinstance(tuned, OnnxEmbedder)
    assert tuned._session.get_session_options().intra_op_num_threads == 1


def test_a_prebuilt_graph_serves_without_weights(tmp_path: Path, exported: OnnxEmbedder) -> None:
    """The fine-tuned encoder ships as its int8 graph beside its tokenizer: no weights, no
    export, no PyTorch; its vectors stay close to the fp32 ones."""
    from tests.conftest import encoder_output

    from tutorgraph.ranking.tuned import TUNED_GRAPH

    model = encoder_output(tmp_path / "encoder") / "model"
    (model / "model.safetensors").unlink()
    int8 = OnnxEmbedder(str(model), graph=TUNED_GRAPH)
    vectors = int8.embed(TEXTS)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert float((vectors * exported.embed(TEXTS)).sum(axis=1).min()) > 0.97
    with pytest.raises(ConfigurationError, match=r"no ONNX graph onnx/missing\.onnx"):
        OnnxEmbedder(str(model), graph="onnx/missing.onnx").load()


def test_without_pytorch_the_graph_is_built_from_the_weights(
    tmp_path: Path, exported: OnnxEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An engine install has no PyTorch: the same network is built from the safetensors.
    monkeypatch.setattr(onnx_embedder, "_has_torch", lambda: False)

    def no_export(*_: object) -> None:
        raise AssertionError("PyTorch's exporter must not run")

    monkeypatch.setattr(onnx_embedder, "export_transformer", no_export)
    built = OnnxEmbedder(MODEL, batch_size=2, cache_dir=tmp_path)
    mine, traced = built.embed(TEXTS), exported.embed(TEXTS)
    assert [p.name for p in tmp_path.glob("*/*.onnx")] == ["model-built.onnx"]
    assert np.abs(mine - traced).max() < 1e-5
    assert built.name == exported.name


class _CountingSession:
    """The real session, counted, slowed (so that two callers overlap) or failing once."""

    def __init__(self, inner: Any, *, delay_s: float = 0.0, fail_first: bool = False) -> None:
        self.inner, self.delay_s, self.fail_first, self.runs = inner, delay_s, fail_first, 0
        self.rows: list[int] = []

    def run(self, *args: Any) -> Any:
        self.runs += 1
        self.rows.append(len(args[1]["input_ids"]))
        if self.fail_first and self.runs == 1:
            raise RuntimeError("the session failed")
        time.sleep(self.delay_s)
        return self.inner.run(*args)


def test_one_text_is_run_once_per_token_sequence(exported: OnnxEmbedder, cache: Path) -> None:
    """A message read for the dense search and again for the ranker differs in spacing
    only: two concurrent calls with the same tokens share one model run, and later calls
    reuse it, with the vectors a batch gives."""
    emb = OnnxEmbedder(MODEL, cache_dir=cache)
    emb.load()
    session = emb._session = _CountingSession(emb._session, delay_s=0.2)
    texts = ["What is 3/4 + 1/8?\nStudent answer: 4/12", "What is 3/4 + 1/8? Student answer:  4/12"]
    with ThreadPoolExecutor(2) as pool:
        first, second = pool.map(lambda t: emb.embed([t]), texts)
    assert session.runs == 1
    assert np.array_equal(first, second)
    assert np.allclose(first[0], exported.embed([texts[0], "ratio"])[0], atol=1e-6)
    first[0, 0] = 9.0  # each caller gets its own array
    assert emb.embed([texts[1]])[0, 0] != 9.0
    assert session.runs == 1
    emb.embed(["What is 3/4 + 1/9?"])
    assert session.runs == 2


def test_a_failed_run_is_not_kept(cache: Path) -> None:
    emb = OnnxEmbedder(MODEL, cache_dir=cache)
    emb.load()
    session = emb._session = _CountingSession(emb._session, fail_first=True)
    with pytest.raises(RuntimeError, match="the session failed"):
        emb.embed(["ratio"])
    assert emb.embed(["ratio"]).shape == (1, 384)
    assert session.runs == 2


def test_a_batch_runs_texts_of_the_same_tokens_once(exported: OnnxEmbedder, cache: Path) -> None:
    """A server's micro-batch can hold both reads of one message: one row is run for them."""
    emb = OnnxEmbedder(MODEL, batch_size=2, cache_dir=cache)
    emb.load()
    session = emb._session = _CountingSession(emb._session)
    texts = [
        "Solve 2x = 8\nStudent answer: 6",
        "Solve 2x = 8 Student answer: 6",
        "A ratio compares two quantities by division.",  # longest: batched after the pair
    ]
    vectors = emb.embed(texts)
    assert session.rows == [1, 1]  # the pair as one row, then the third text
    assert np.array_equal(vectors[0], vectors[1])
    alone = np.concatenate([exported.embed([t]) for t in texts])
    assert np.allclose(vectors, alone, atol=1e-6)


async def test_a_servers_two_reads_of_a_message_share_a_row(cache: Path) -> None:
    """`serve` micro-batches concurrent calls: the dense search's and the ranker's reads of
    one message reach the model as one batch, and as one row of it."""
    emb = OnnxEmbedder(MODEL, cache_dir=cache)
    emb.load()
    session = emb._session = _CountingSession(emb._session)
    batched = MicroBatchingEmbedder(emb)
    query, stated = await asyncio.gather(
        batched.aembed(["What is 0.6 x 0.4? Student answer: 2.4"]),
        batched.aembed(["What is 0.6 x 0.4?\nStudent answer: 2.4"]),
    )
    assert batched.model_calls == 1
    assert session.rows == [1]
    assert np.array_equal(query, stated)
