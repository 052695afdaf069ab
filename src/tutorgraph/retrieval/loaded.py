"""A model that was loaded, or why it was not: one value passed from the loader
(`retrieval/factory.py`) through the retriever to the stage that reports it in the packet.

>>> Loaded.of("the reranker").value
'the reranker'
>>> Loaded.missing("no reranker configured")
Loaded(value=None, reason='no reranker configured')
>>> model, why = Loaded.missing("reranking turned off")  # a pair, as the loaders gave
>>> model is None and why
'reranking turned off'
"""

from __future__ import annotations

from typing import Generic, NamedTuple, Never, TypeVar

__all__ = ["Loaded"]

T_co = TypeVar("T_co", covariant=True)
V = TypeVar("V")


class Loaded(NamedTuple, Generic[T_co]):
    """`value`, the loaded model, or None and `reason`, why there is none (the words a
    packet's `reranker`, `ranker` or `scope` gives). Build it with `of` or `missing`."""

    value: T_co | None
    reason: str | None

    @staticmethod
    def of(value: V) -> Loaded[V]:
        """A model that was loaded."""
        return Loaded(value, None)

    @staticmethod
    def missing(reason: str) -> Loaded[Never]:
        """No model, and why."""
        return Loaded(None, reason)
