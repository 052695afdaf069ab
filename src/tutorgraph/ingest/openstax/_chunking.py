"""Prose packed into explanation chunks under a token budget: lines packed whole where they
fit, an over-long line split at sentences, then words, then characters."""

from __future__ import annotations

import re
from collections.abc import Callable

from tutorgraph.ingest.openstax._text import _CHUNK_SEP

__all__ = ["_chunks"]

_SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+(?=\S)")


def _split_long(text: str, count_tokens: Callable[[str], int], limit: int) -> list[str]:
    """Pieces of one over-long line: sentences, then words, then characters, each under limit."""
    if count_tokens(text) <= limit:
        return [text]
    for splitter in (_SENTENCE_END.split, str.split):
        parts = splitter(text)
        if len(parts) > 1:
            out: list[str] = []
            for part in parts:
                out.extend(_split_long(part, count_tokens, limit))
            return _pack(out, count_tokens, limit, sep=" ")
    # One unbreakable run (a long formula with no spaces): halve it.
    mid = len(text) // 2
    if mid == 0:
        return [text]
    return _split_long(text[:mid], count_tokens, limit) + _split_long(
        text[mid:], count_tokens, limit
    )


def _pack(
    pieces: list[str], count_tokens: Callable[[str], int], limit: int, *, sep: str
) -> list[str]:
    """Greedy packing of consecutive pieces; each pack is counted whole, so it is exact."""
    out: list[str] = []
    current: list[str] = []
    for piece in pieces:
        if current and count_tokens(sep.join([*current, piece])) > limit:
            out.append(sep.join(current))
            current = []
        current.append(piece)
    if current:
        out.append(sep.join(current))
    return out


def _chunks(lines: list[str], count_tokens: Callable[[str], int], limit: int) -> list[str]:
    pieces = [p for line in lines for p in _split_long(line, count_tokens, limit)]
    return _pack(pieces, count_tokens, limit, sep=_CHUNK_SEP)
