"""How the records' text is written: characters normalised, whitespace collapsed, and the
separators between a document's lines and between the parts of its title."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["_CHUNK_SEP", "_TITLE_SEP", "_clean", "_nonempty"]

_TEXT_MAP = str.maketrans(
    {chr(0x24D0 + i): f"({chr(ord('a') + i)})" for i in range(26)}
    | {chr(0x24B6 + i): f"({chr(ord('A') + i)})" for i in range(26)}
    | {chr(0x2460 + i): f"({i + 1})" for i in range(20)}
    # The minus sign typed as prose ("7 − 0 = 7") is spelled like the converted math.
    | {"−": "-", "\u00a0": " ", "\u200b": "", "\u2009": " ", "\u2003": " ", "\u2002": " "}
)
_CHUNK_SEP = "\n"
_TITLE_SEP = " — "


def _clean(text: str) -> str:
    return " ".join(text.translate(_TEXT_MAP).split())


def _nonempty(lines: Iterable[str]) -> list[str]:
    return [line for line in lines if line]
