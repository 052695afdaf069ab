"""The bundle's stored vectors: keyed by model fingerprint and text hash, deterministic bytes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tutorgraph.embedding.stored_vectors import StoredVectors, as_stored, model_fingerprint
from tutorgraph.errors import ConfigurationError

pytestmark = pytest.mark.unit

TEXTS = ["what is a ratio?", "3/4 > 2/3", "", "½ + ¾", "what is a ratio?"]


def _vectors(n: int, dim: int = 8) -> np.ndarray:
    rng = np.random.default_rng(0)
    v = rng.normal(size=(n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_round_trip_finds_each_text_as_stored(tmp_path: Path) -> None:
    vectors = _vectors(len(TEXTS))
    vectors[4] = vectors[0]  # the same text twice has one vector
    assert StoredVectors.write(tmp_path, TEXTS, vectors, model="m", fingerprint="f") == 4
    stored = StoredVectors.read(tmp_path)
    assert stored is not None and stored.model == "m"
    found = stored.lookup([*TEXTS, "never stored"], "f")
    assert sorted(found) == [0, 1, 2, 3, 4]
    for i, vec in found.items():
        assert vec.dtype == np.float32
        np.testing.assert_array_equal(vec, as_stored(vectors[i : i + 1])[0])


def test_another_fingerprint_finds_nothing(tmp_path: Path) -> None:
    StoredVectors.write(tmp_path, TEXTS[:2], _vectors(2), model="m", fingerprint="f")
    stored = StoredVectors.read(tmp_path)
    assert stored is not None
    assert stored.lookup(TEXTS[:2], "other") == {}
    assert stored.lookup(TEXTS[:2], None) == {}


def test_bytes_do_not_depend_on_the_order_of_texts(tmp_path: Path) -> None:
    texts, vectors = TEXTS[:4], _vectors(4)
    StoredVectors.write(tmp_path / "a", texts, vectors, model="m", fingerprint="f")
    order = [2, 0, 3, 1]
    StoredVectors.write(
        tmp_path / "b", [texts[i] for i in order], vectors[order], model="m", fingerprint="f"
    )
    for name in ("meta.json", "keys.npy", "vectors.npy"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_absent_folder_is_none_and_inconsistent_one_is_refused(tmp_path: Path) -> None:
    assert StoredVectors.read(tmp_path / "nothing") is None
    StoredVectors.write(tmp_path, TEXTS[:3], _vectors(3), model="m", fingerprint="f")
    meta = json.loads((tmp_path / "meta.json").read_text())
    (tmp_path / "meta.json").write_text(json.dumps({**meta, "count": 5}))
    with pytest.raises(ConfigurationError, match="do not match"):
        StoredVectors.read(tmp_path)
    (tmp_path / "vectors.npy").write_bytes(b"not numpy")
    with pytest.raises(ConfigurationError, match="cannot read"):
        StoredVectors.read(tmp_path)


def test_model_fingerprint_covers_the_files_that_make_vectors(tmp_path: Path) -> None:
    model = tmp_path / "model"
    (model / "1_Pooling").mkdir(parents=True)
    (model / "model.safetensors").write_bytes(b"weights")
    (model / "1_Pooling" / "config.json").write_text('{"pooling_mode_mean_tokens": true}')
    (model / "README.md").write_text("docs")
    first = model_fingerprint(str(model))
    assert first is not None and len(first) == 64
    model_fingerprint.cache_clear()
    (model / "README.md").write_text("other docs")
    assert model_fingerprint(str(model)) == first
    model_fingerprint.cache_clear()
    (model / "1_Pooling" / "config.json").write_text('{"pooling_mode_cls_token": true}')
    assert model_fingerprint(str(model)) != first
    assert model_fingerprint("no-such-model/anywhere") is None
