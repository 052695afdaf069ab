"""Cross-encoder reranking: score (query, candidate text) pairs jointly.

One tokenisation path feeds two runtimes: PyTorch through a sentence-transformers
`CrossEncoder`, and ONNX Runtime (fp32 or int8) over a model exported by
`tutorgraph.training.export`. The query is tokenised once per request and truncated
head-and-tail (a question states its subject first and the student's answer last); pairs
are length-sorted into batches; scores are cached per (query, text).

>>> reranker = CrossEncoderReranker("models/reranker", backend="onnx-int8")  # no I/O yet
>>> reranker.load()  # doctest: +SKIP
>>> reranker.score("1/2 + 1/4 = 2/6?", ["Adds numerators and denominators"])  # doctest: +SKIP
[0.93]
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt
from cachetools import LRUCache

from tutorgraph.embedding.fast_tokenizer import FastTokenizer
from tutorgraph.embedding.runtime import onnx_session
from tutorgraph.errors import ConfigurationError
from tutorgraph.extras import require

if TYPE_CHECKING:
    from transformers import PreTrainedTokenizerBase

__all__ = [
    "BACKENDS",
    "ONNX_FILES",
    "Backend",
    "CrossEncoderReranker",
    "Reranker",
    "RerankerOptions",
    "encode_pairs",
    "pad_batch",
    "resolve_backend",
]

Backend = Literal["auto", "torch", "onnx", "onnx-int8"]
BACKENDS: tuple[Backend, ...] = ("auto", "torch", "onnx", "onnx-int8")
# Where an exported model keeps its ONNX graphs, relative to the model directory.
ONNX_FILES: dict[str, str] = {"onnx": "onnx/model.onnx", "onnx-int8": "onnx/model_qint8.onnx"}


@runtime_checkable
class Reranker(Protocol):
    """Scores candidates against a query; higher is better. Blocking: run it off the loop."""

    @property
    def name(self) -> str: ...

    def load(self) -> None:
        """Load the weights now; raises `ConfigurationError` when they cannot be loaded."""
        ...

    def score(self, query: str, texts: Sequence[str]) -> list[float]: ...


@dataclass(frozen=True)
class RerankerOptions:
    """Inference knobs; the defaults are the ones the latency benchmark supports."""

    max_length: int = 128
    query_max_tokens: int = 64
    # Small batches pad less; 8 beat 32 at depth 30 (research/scripts/rerank_levers.py).
    batch_size: int = 8
    cache_size: int = 8192
    # Sorting pairs by length before batching pads less (off only to measure the lever).
    length_sorted: bool = True

    def __post_init__(self) -> None:
        if not 16 <= self.max_length <= 512:
            raise ConfigurationError("reranker max_length must be in [16, 512]")
        if not 8 <= self.query_max_tokens < self.max_length:
            raise ConfigurationError("reranker query_max_tokens must be in [8, max_length)")
        if self.batch_size < 1 or self.cache_size < 0:
            raise ConfigurationError("reranker batch_size must be >= 1 and cache_size >= 0")


def resolve_backend(path: Path, backend: Backend) -> Backend:
    """`auto` takes the fastest runtime the directory holds: int8, then fp32 ONNX, then torch."""
    if backend != "auto":
        return backend
    for name in ("onnx-int8", "onnx"):
        if (path / ONNX_FILES[name]).is_file():
            return name
    return "torch"


def _sigmoid(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    return 1.0 / (1.0 + np.exp(-x.astype(np.float64)))


class _Runtime(Protocol):
    def logits(self, batch: dict[str, npt.NDArray[np.int64]]) -> npt.NDArray[np.float32]: ...


class _TorchRuntime:
    def __init__(self, model: Any, device: str) -> None:
        self._model = model
        self._device = device

    def logits(self, batch: dict[str, npt.NDArray[np.int64]]) -> npt.NDArray[np.float32]:
        import torch

        feed = {k: torch.from_numpy(v).to(self._device) for k, v in batch.items()}
        with torch.inference_mode():
            out = self._model(**feed).logits
        return np.asarray(out.float().cpu().numpy().reshape(-1), dtype=np.float32)


class _OnnxRuntime:
    def __init__(self, session: Any) -> None:
        self._session = session
        self._inputs = {i.name for i in session.get_inputs()}

    def logits(self, batch: dict[str, npt.NDArray[np.int64]]) -> npt.NDArray[np.float32]:
        out = self._session.run(None, {k: v for k, v in batch.items() if k in self._inputs})
        return np.asarray(out[0], dtype=np.float32).reshape(-1)


class CrossEncoderReranker:
    """A cross-encoder from a local directory or a hub name, loaded once, shared by threads.

    `backend="auto"` picks int8 ONNX when the directory has it. Scores are sigmoid
    probabilities in [0, 1].
    """

    def __init__(
        self,
        model: str | Path,
        *,
        backend: Backend = "auto",
        options: RerankerOptions | None = None,
        device: str | None = None,
        name: str | None = None,
    ) -> None:
        """`name` is what packets report (default: `model` as given)."""
        if backend not in BACKENDS:
            raise ConfigurationError(f"unknown reranker backend {backend!r}; use {BACKENDS}")
        self._model_ref = str(model)
        self._name = name or self._model_ref
        self._backend: Backend = backend
        self._options = options or RerankerOptions()
        self._device = device
        self._runtime: _Runtime | None = None
        self._tokenizer: PreTrainedTokenizerBase | FastTokenizer | None = None
        # Least recently used pairs go first (unused when `cache_size` is 0).
        self._cache: LRUCache[tuple[str, str], float] = LRUCache(
            maxsize=max(self._options.cache_size, 1)
        )
        self._hits = self._misses = 0
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self._name

    @property
    def backend(self) -> Backend:
        """The runtime in use (resolved once loaded)."""
        return self._backend

    @property
    def options(self) -> RerankerOptions:
        return self._options

    def without_cache(self) -> CrossEncoderReranker:
        """A view sharing the loaded model but never reading or filling the cache (timing)."""
        self.load()
        twin = CrossEncoderReranker(
            self._model_ref,
            backend=self._backend,
            options=replace(self._options, cache_size=0),
            device=self._device,
            name=self._name,
        )
        twin._runtime, twin._tokenizer = self._runtime, self._tokenizer
        return twin

    @property
    def cache_stats(self) -> dict[str, int]:
        """Pairs answered from the score cache, and pairs the model scored."""
        return {"hits": self._hits, "misses": self._misses}

    def load(self) -> None:
        with self._lock:
            if self._runtime is not None:
                return
            path = Path(self._model_ref).expanduser()
            try:
                if path.is_dir():
                    os.environ.setdefault("HF_HUB_OFFLINE", "1")
                    self._backend = resolve_backend(path, self._backend)
                elif self._backend in ("auto", "torch"):
                    self._backend = "torch"
                else:
                    raise ConfigurationError(
                        f"reranker {self._model_ref!r}: ONNX backends need a local directory"
                    )
                if self._backend == "torch":
                    self._load_torch()
                else:
                    self._load_onnx(path, self._backend)
            except ConfigurationError:
                raise
            except Exception as exc:
                # The hub is unreachable here; any load failure means "cannot rerank".
                raise ConfigurationError(
                    f"cannot load reranker {self._model_ref!r}: {type(exc).__name__}: {exc}"
                ) from exc

    def _load_torch(self) -> None:
        require("sentence_transformers", "torch", "the PyTorch reranker")
        from sentence_transformers import CrossEncoder
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
        ce = CrossEncoder(self._model_ref, device=self._device, max_length=self._options.max_length)
        if ce.config.num_labels != 1:
            raise ConfigurationError(
                f"reranker {self._model_ref!r} has {ce.config.num_labels} labels; "
                "a reranker scores with one"
            )
        self._tokenizer = ce.tokenizer
        hf_model = ce[0].model
        hf_model.eval()
        self._runtime = _TorchRuntime(hf_model, str(ce.device))

    def _load_onnx(self, path: Path, backend: str) -> None:
        file = path / ONNX_FILES[backend]
        if not file.is_file():
            raise ConfigurationError(f"reranker {path}: no {ONNX_FILES[backend]}")
        session = onnx_session(file, int8=backend == "onnx-int8")
        self._tokenizer = FastTokenizer.load(path)  # transformers would import torch
        self._runtime = _OnnxRuntime(session)

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        """Scores of `texts` against `query`, in input order."""
        return self.score_many([(query, texts)])[0]

    def score_many(self, requests: Sequence[tuple[str, Sequence[str]]]) -> list[list[float]]:
        """`score` for several (query, texts) requests at once: their uncached pairs are
        length-sorted and batched together (concurrent requests share model calls)."""
        outs: list[list[float | None]] = [[None] * len(texts) for _, texts in requests]
        if not any(outs):
            return [[] for _ in requests]
        self.load()
        cache_on = self._options.cache_size > 0
        if cache_on:
            with self._lock:
                for (query, texts), out in zip(requests, outs, strict=True):
                    for i, t in enumerate(texts):
                        out[i] = self._cache.get((query, t))
        todo = [(r, i) for r, out in enumerate(outs) for i, v in enumerate(out) if v is None]
        with self._lock:
            self._misses += len(todo)
            self._hits += sum(len(out) for out in outs) - len(todo)
        if todo:
            pairs = [(requests[r][0], requests[r][1][i]) for r, i in todo]
            fresh = self._predict(pairs)
            for (r, i), v in zip(todo, fresh, strict=True):
                outs[r][i] = v
            if cache_on:
                with self._lock:
                    self._cache.update(zip(pairs, fresh, strict=True))
        return [[float(v) for v in out if v is not None] for out in outs]

    def _predict(self, pairs: list[tuple[str, str]]) -> list[float]:
        assert self._runtime is not None and self._tokenizer is not None
        by_query: dict[str, list[int]] = {}
        for n, (query, _) in enumerate(pairs):
            by_query.setdefault(query, []).append(n)
        seqs: list[EncodedPair] = [([], [])] * len(pairs)
        for query, idx in by_query.items():  # each query is tokenised once
            texts = [pairs[n][1] for n in idx]
            for n, seq in zip(
                idx, encode_pairs(self._tokenizer, query, texts, self._options), strict=True
            ):
                seqs[n] = seq
        order = list(range(len(seqs)))
        if self._options.length_sorted:
            order.sort(key=lambda i: len(seqs[i][0]))
        scores = np.zeros(len(seqs), dtype=np.float64)
        pad = self._tokenizer.pad_token_id or 0
        for start in range(0, len(order), self._options.batch_size):
            idx = order[start : start + self._options.batch_size]
            scores[idx] = _sigmoid(self._runtime.logits(pad_batch([seqs[i] for i in idx], pad)))
        return [round(float(s), 6) if math.isfinite(s) else 0.0 for s in scores]


# One pair as model input: (input_ids, token_type_ids), special tokens included.
EncodedPair = tuple[list[int], list[int]]


def encode_pairs(
    tokenizer: PreTrainedTokenizerBase | FastTokenizer,
    query: str,
    texts: Sequence[str],
    options: RerankerOptions,
) -> list[EncodedPair]:
    """`[CLS] query [SEP] text [SEP]` per text: the query cut head-and-tail, texts to fit.

    Training and inference share this, so a model sees the same inputs in both.
    """
    q = _head_tail(tokenizer.encode(query, add_special_tokens=False), options.query_max_tokens)
    room = options.max_length - len(q) - 3
    cls, sep = tokenizer.cls_token_id, tokenizer.sep_token_id
    first = [cls, *q, sep]
    docs = tokenizer(list(texts), add_special_tokens=False)["input_ids"] if texts else []
    return [(first + d[:room] + [sep], [0] * len(first) + [1] * (len(d[:room]) + 1)) for d in docs]


def pad_batch(seqs: Sequence[EncodedPair], pad_id: int) -> dict[str, npt.NDArray[np.int64]]:
    """Right-pad a batch to its longest pair."""
    width = max(len(ids) for ids, _ in seqs)
    ids = np.full((len(seqs), width), pad_id, dtype=np.int64)
    types = np.zeros((len(seqs), width), dtype=np.int64)
    mask = np.zeros((len(seqs), width), dtype=np.int64)
    for row, (a, t) in enumerate(seqs):
        ids[row, : len(a)] = a
        types[row, : len(t)] = t
        mask[row, : len(a)] = 1
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}


def _head_tail(ids: list[int], limit: int) -> list[int]:
    """Keep the first and last tokens of an over-long query, dropping its middle."""
    if len(ids) <= limit:
        return ids
    head = (limit + 1) // 2
    return ids[:head] + ids[len(ids) - (limit - head) :]
