"""The index's pointer file: which generation is live (`CURRENT`), read without trusting it.

The lowest layer of the index folder (`index/generations.py` writes the pointer and manages
the generations; `index/layout.py` finds the live one's parts). A pointer that names no
generation, or a missing one beside generations with a manifest, is an `IndexDamagedError`
in one line without a path.

>>> live_generation(Path(".tutorgraph"))  # doctest: +SKIP
PosixPath('.tutorgraph/generations/000003')
"""

from __future__ import annotations

import re
from pathlib import Path

from tutorgraph.errors import IndexDamagedError
from tutorgraph.stores.exhaustion import out_of_resources
from tutorgraph.stores.manifest import MANIFEST_FILE

__all__ = [
    "CURRENT_FILE",
    "GENERATIONS_DIR",
    "LEGACY",
    "generation_name",
    "generations",
    "live_generation",
    "named_generation",
    "pointed_generation",
    "read_name",
    "with_manifest",
]

CURRENT_FILE = "CURRENT"
GENERATIONS_DIR = "generations"
# The name reported for an index written before generations existed.
LEGACY = "legacy"
NAME = re.compile(r"\d{6}")


def generations(index_dir: Path) -> list[Path]:
    """The generation folders of an index, oldest first."""
    root = index_dir / GENERATIONS_DIR
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if p.is_dir() and NAME.fullmatch(p.name))


def read_name(pointer: Path) -> str | None:
    """The generation name a pointer file holds (None when the file is missing); garbage is
    read as text with its bad bytes replaced, so that it is reported in one line. A file
    that cannot be read is damage (`IndexDamagedError`), unless the process ran out of
    descriptors or memory (`StoreError`: no repair helps)."""
    try:
        raw = pointer.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError as exc:
        raise IndexDamagedError(
            f"the index's {pointer.name} is a directory, not a file; run `tutorgraph doctor "
            "--repair`"
        ) from exc
    except OSError as exc:
        exhausted = out_of_resources(exc, f"the index's {pointer.name} file")
        if exhausted is not None:
            raise exhausted from exc
        raise IndexDamagedError(
            f"cannot read the index's {pointer.name} file ({type(exc).__name__}: "
            f"{exc.strerror or exc}); run `tutorgraph doctor --repair`"
        ) from exc
    return raw[:200].decode("utf-8", errors="replace").strip()


def with_manifest(index_dir: Path) -> list[Path]:
    """The generations that were written to the end (they have a manifest), oldest first."""
    return [g for g in generations(index_dir) if (g / MANIFEST_FILE).is_file()]


def live_generation(index_dir: Path) -> Path | None:
    """The folder of the live generation, `index_dir` itself for an index written before
    generations, or None when there is no index. A `CURRENT` that names no generation, or
    is missing while some generation has a manifest, is an `IndexDamagedError`."""
    name = read_name(index_dir / CURRENT_FILE)
    if name is None:
        if (index_dir / MANIFEST_FILE).is_file():
            return index_dir
        built = with_manifest(index_dir)
        if not built:
            return None
        raise IndexDamagedError(
            f"the index's {CURRENT_FILE} file is missing but it holds "
            f"{len(built)} generation(s); run `tutorgraph doctor --repair`"
        )
    path = index_dir / GENERATIONS_DIR / name
    if not NAME.fullmatch(name) or not path.is_dir():
        raise IndexDamagedError(
            f"the index's {CURRENT_FILE} file names no generation ({name[:40]!r}); "
            "run `tutorgraph doctor --repair`"
        )
    return path


def named_generation(index_dir: Path, pointer: str) -> Path | None:
    """The generation the pointer file `pointer` (`CURRENT`, `PREVIOUS`) names, or None when
    it names none that is there (missing, garbled, deleted)."""
    try:
        name = read_name(index_dir / pointer)
    except IndexDamagedError:
        return None
    if not name or not NAME.fullmatch(name):
        return None
    path = index_dir / GENERATIONS_DIR / name
    return path if path.is_dir() else None


def pointed_generation(index_dir: Path) -> Path | None:
    """The generation `CURRENT` names, or None when it names none (missing, garbled)."""
    return named_generation(index_dir, CURRENT_FILE)


def generation_name(generation: Path) -> str:
    """`000007`, or `legacy` for an index written before generations."""
    return generation.name if NAME.fullmatch(generation.name) else LEGACY
