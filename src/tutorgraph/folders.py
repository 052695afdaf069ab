"""A folder written beside its place and swapped in whole, so a crash never leaves a
half-written one where readers look.

>>> with replaced(Path("idx/lexical")) as tmp:  # doctest: +SKIP
...     (tmp / "items.jsonl").write_text("...")
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["replaced"]


@contextmanager
def replaced(path: Path) -> Iterator[Path]:
    """A new empty folder beside `path` (`<name>.tmp`) to write into; when the block ends
    without an error it takes `path`'s place (the old folder is moved aside, then deleted).
    After an error it is deleted and `path` is left as it was."""
    tmp = path.with_name(path.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    old = path.with_name(path.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if path.exists():
        path.rename(old)
    tmp.rename(path)
    shutil.rmtree(old, ignore_errors=True)
