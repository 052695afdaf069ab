"""Vectors shipped with a bundle, so that an ingest embeds only the texts it has not seen.

Each vector is keyed twice: by the embedder's fingerprint (a hash of the model's files, so
any change of weights, tokenizer or pooling invalidates them all) and by the sha256 of the
text it embeds. They are stored as float16 (half the size; the index rounds every vector
it stores to float16, `as_stored`, so a vector read from here equals one computed afresh).

Layout of `BUNDLE/embeddings/`, byte-for-byte deterministic for the same texts and model:

- `meta.json`: `{"fingerprint", "model", "dim", "count", "dtype": "float16"}`
- `keys.npy`: uint8 `(count, 32)`, the texts' sha256 digests, sorted
- `vectors.npy`: float16 `(count, dim)`, row i embeds the text of `keys[i]`

>>> stored = StoredVectors.read(Path("data/curriculum/embeddings"))  # doctest: +SKIP
>>> stored.lookup(["what is a ratio?"], model_fingerprint("all-MiniLM-L6-v2"))  # doctest: +SKIP
{0: array([...], dtype=float32)}
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.embedder import resolve_model_path
from tutorgraph.errors import ConfigurationError

__all__ = ["StoredVectors", "as_stored", "model_fingerprint", "text_key"]

_META, _KEYS, _VECTORS = "meta.json", "keys.npy", "vectors.npy"
# Files of a model folder that do not change its vectors.
_NOT_MODEL = {"README.md", "data_config.json"}


def text_key(text: str) -> bytes:
    """The sha256 digest of a text's UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).digest()


def as_stored(vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """`vectors` rounded to float16 precision, as the index stores every vector."""
    return np.asarray(vectors, dtype=np.float16).astype(np.float32)


@functools.cache
def model_fingerprint(name: str) -> str | None:
    """sha256 over the files of the model's local folder (names and bytes), or None when
    `name` is not installed locally (a hub name: nothing to vouch for the vectors)."""
    path = Path(resolve_model_path(name))
    if not path.is_dir():
        return None
    h = hashlib.sha256()
    for f in sorted(p for p in path.rglob("*") if p.is_file()):
        rel = f.relative_to(path).as_posix()
        if rel in _NOT_MODEL or rel.startswith(".") or "/." in rel:
            continue
        h.update(rel.encode())
        with f.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    return h.hexdigest()


@dataclass(frozen=True)
class StoredVectors:
    """Vectors of one model, by text key."""

    fingerprint: str
    model: str
    keys: npt.NDArray[np.uint8]
    vectors: npt.NDArray[np.float16]

    @classmethod
    def read(cls, folder: Path) -> StoredVectors | None:
        """The vectors in `folder`, or None when it holds none. A folder that is there but
        unreadable or inconsistent is a `ConfigurationError` (better than a silent re-embed)."""
        if not (folder / _META).is_file():
            return None
        try:
            meta = json.loads((folder / _META).read_text(encoding="utf-8"))
            keys = np.load(folder / _KEYS, allow_pickle=False)
            vectors = np.load(folder / _VECTORS, allow_pickle=False, mmap_mode="r")
            count, dim = int(meta["count"]), int(meta["dim"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ConfigurationError(f"cannot read the stored vectors in {folder}: {exc}") from exc
        if keys.shape != (count, 32) or vectors.shape != (count, dim):
            raise ConfigurationError(
                f"the stored vectors in {folder} do not match their meta.json "
                f"(keys {keys.shape}, vectors {vectors.shape}, count {count}, dim {dim})"
            )
        return cls(str(meta["fingerprint"]), str(meta["model"]), keys, vectors)

    def lookup(
        self, texts: Sequence[str], fingerprint: str | None
    ) -> dict[int, npt.NDArray[np.float32]]:
        """The stored vector of each text that has one, by its position in `texts`; nothing
        when `fingerprint` is not the one they were computed with."""
        if fingerprint != self.fingerprint or not len(self.keys):
            return {}
        wanted = np.frombuffer(b"".join(text_key(t) for t in texts), dtype=np.uint8)
        # Sorted fixed-width keys: a vectorised binary search over their byte strings.
        table = self.keys.view("S32").ravel()
        probe = wanted.view("S32")
        at = np.minimum(np.searchsorted(table, probe), len(table) - 1)
        found = np.flatnonzero(table[at] == probe)
        return {int(i): self.vectors[at[i]].astype(np.float32) for i in found}

    @staticmethod
    def write(
        folder: Path,
        texts: Sequence[str],
        vectors: npt.NDArray[np.float32],
        *,
        model: str,
        fingerprint: str,
    ) -> int:
        """Write the vectors of `texts` to `folder` (replacing what was there); returns how
        many distinct texts were written."""
        if len(texts) != len(vectors):
            raise ValueError(f"{len(texts)} texts but {len(vectors)} vectors")
        by_key = {text_key(t): i for i, t in enumerate(texts)}
        order = sorted(by_key)
        keys = np.frombuffer(b"".join(order), dtype=np.uint8).reshape(len(order), 32)
        dim = int(vectors.shape[1]) if len(vectors) else 0
        rows = np.asarray(vectors, dtype=np.float16)[[by_key[k] for k in order]]
        folder.mkdir(parents=True, exist_ok=True)
        np.save(folder / _KEYS, keys, allow_pickle=False)
        np.save(folder / _VECTORS, rows.reshape(len(order), dim), allow_pickle=False)
        meta = {
            "fingerprint": fingerprint,
            "model": model,
            "dim": dim,
            "count": len(order),
            "dtype": "float16",
        }
        (folder / _META).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        return len(order)
