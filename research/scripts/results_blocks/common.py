"""What every block shares: the results folder (each file read once) and the formatting of
figures and tables, as docs/RESULTS.md's prose writes them.

>>> signed(-0.0004), signed(0.0191)
('+0.000', '+0.019')
>>> print(table(("a", "b"), [(1, 2)]))
| a | b |
|---|---|
| 1 | 2 |
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["HITS", "Json", "Results", "cell", "change", "ms", "signed", "table"]

HITS = ("hit@1", "hit@3", "hit@10")

Json = dict[str, Any]


class Results:
    """The JSON files of one results folder, each read once."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @cache  # noqa: B019 - one instance per run, a handful of files
    def __call__(self, name: str) -> Json:
        path = self.folder / name
        if not path.is_file():
            raise SystemExit(f"{path}: missing (a generated block of docs/RESULTS.md reads it)")
        data: Json = json.loads(path.read_text(encoding="utf-8"))
        return data


def signed(x: float) -> str:
    """+0.123 / −0.123 (a true minus sign, as the prose writes it) / 0.000 stays +0.000."""
    text = f"{x:+.3f}"
    return text.replace("-", "−") if text != "-0.000" else "+0.000"


def change(before: float, after: float, delta: float, ci: Sequence[float]) -> str:
    return f"{before:.3f} → {after:.3f} ({signed(delta)} [{signed(ci[0])}, {signed(ci[1])}])"


def cell(stat: Json) -> str:
    """One paired figure of linker_cv.json: before → after (change [95% interval])."""
    return change(stat["before"], stat["after"], stat["delta"], stat["ci95"])


def ms(x: float, minus: float | None = None) -> str:
    """Milliseconds to one decimal, halves rounded up: the harness stores two decimals
    (59.55 is 59.6, as the prose has always written it). With MINUS, the signed change."""
    value = Decimal(str(x)) - Decimal(str(minus or 0))
    text = str(abs(value).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
    if minus is None:
        return text
    return ("−" if value < 0 else "+") + text


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)
