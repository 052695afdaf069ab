"""An embedder wrapper that remembers vectors by text (benchmarks embed each text once).

Research's alone: the server embeds each request once and keeps no unbounded cache, so the
`tutorgraph` wheel does not ship it.
"""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.embedder import Embedder

__all__ = ["CachingEmbedder", "caching"]


class CachingEmbedder:
    """Wraps an `Embedder`; unbounded, so meant for batch jobs, not for the server.

    `known` seeds the cache with vectors already computed by the same model (e.g. read back
    from an index); it is used, and grown, in place. `reused` and `embedded` count the texts
    answered from the cache and those sent to the model.

    >>> cached = CachingEmbedder(embedder, {"what is a ratio?": vector})  # doctest: +SKIP
    """

    def __init__(
        self, inner: Embedder, known: dict[str, npt.NDArray[np.float32]] | None = None
    ) -> None:
        self._inner = inner
        self._cache: dict[str, npt.NDArray[np.float32]] = known if known is not None else {}
        self._lock = threading.Lock()
        self.reused = 0
        self.embedded = 0

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
            self.embedded += len(todo)
            self.reused += len(texts) - len(todo)
            return np.stack([self._cache[t] for t in texts]).astype(np.float32)


def caching(embedder: Embedder) -> CachingEmbedder:
    """`embedder` with a text -> vector cache: itself when it already has one."""
    return embedder if isinstance(embedder, CachingEmbedder) else CachingEmbedder(embedder)
