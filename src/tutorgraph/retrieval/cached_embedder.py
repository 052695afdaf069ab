"""An embedder wrapper that remembers vectors by text (benchmarks embed each text once)."""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt

from tutorgraph.retrieval.embedder import Embedder

__all__ = ["CachingEmbedder"]


class CachingEmbedder:
    """Wraps an `Embedder`; unbounded, so meant for batch jobs, not for the server."""

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner
        self._cache: dict[str, npt.NDArray[np.float32]] = {}
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self._inner.name

    def count_tokens(self, text: str) -> int:
        return self._inner.count_tokens(text)

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        with self._lock:
            todo = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if todo:
            vectors = self._inner.embed(todo)
            with self._lock:
                self._cache.update(zip(todo, vectors, strict=True))
        with self._lock:
            return np.stack([self._cache[t] for t in texts]).astype(np.float32)
