# ruff: noqa: ARG002  (every port method refuses, whatever it is asked)
"""A store stand-in for a part of the index that failed its integrity check: every call
raises `IndexDamagedError` with the reason, so the retriever degrades that source (and says
why) while the other sources still answer. A part that is intact but cannot open now (its
disk is full) raises the error it is given instead (`DiskFullError`).

>>> store = DamagedStore("lexical: lexical/items.jsonl is missing; run `tutorgraph doctor`")
>>> store.reason
'lexical: lexical/items.jsonl is missing; run `tutorgraph doctor`'
"""

from __future__ import annotations

from typing import Any, NoReturn

from tutorgraph.errors import IndexDamagedError, StoreError

__all__ = ["DamagedStore"]


class DamagedStore:
    """Implements the read ports (`VectorStore`, `LexicalIndex`, `GraphStore`) by refusing."""

    def __init__(self, reason: str, error: type[StoreError] = IndexDamagedError) -> None:
        self.reason = reason
        self.error = error

    def _refuse(self) -> NoReturn:
        raise self.error(self.reason)

    async def search(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._refuse()

    async def embeddings(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._refuse()

    async def count(self) -> NoReturn:
        self._refuse()

    async def search_concepts(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._refuse()

    async def get_concepts(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._refuse()

    async def unknown_concepts(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._refuse()

    async def get_misconceptions(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._refuse()

    async def prerequisite_chains(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._refuse()

    async def edges_of(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._refuse()

    async def misconceptions_of(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._refuse()

    async def documents_of(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._refuse()

    async def aclose(self) -> None:
        return None
