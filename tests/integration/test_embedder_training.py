"""`tutorgraph train-embedder` on the committed Eedi slice: real MiniLM, trained for real.

A few steps on a few dozen answers say nothing of quality (the benchmark's job); they check
what the command writes: a model that loads and embeds as its stored vectors say, its ONNX
exports, its record with the gates, and a refusal when the gates fail.
"""

from __future__ import annotations

import json
from pathlib import Path
from subprocess import CompletedProcess

import numpy as np
import pytest

from tutorgraph.embedding.embedder import SentenceTransformerEmbedder
from tutorgraph.embedding.stored_vectors import StoredVectors, model_fingerprint
from tutorgraph.ingest.eedi import read_misconceptions

pytestmark = pytest.mark.integration

EEDI = Path(__file__).resolve().parents[1] / "data" / "eedi"
QUICK = ["--epochs", "1", "--batch-size", "8", "--max-length", "64", "--validation-share", "0.2"]


def train(run_cli, out: Path, learning_rate: str) -> CompletedProcess[str]:  # type: ignore[no-untyped-def]
    """`train-embedder` on the slice, a few quick steps at `learning_rate`."""
    return run_cli(  # type: ignore[no-any-return]
        "train-embedder", "--train", str(EEDI / "train.csv"), "--out", str(out), *QUICK,
        "--learning-rate", learning_rate, timeout=900,
    )  # fmt: skip


def test_train_embedder_writes_the_model_its_exports_vectors_and_record(  # type: ignore[no-untyped-def]
    run_cli, tmp_path: Path
) -> None:
    out = tmp_path / "embedder"
    proc = train(run_cli, out, "1e-4")
    assert proc.returncode == 0, proc.stderr
    record = json.loads((out / "training.json").read_text())
    assert record["gates"]["passed"] and record["gates"]["held_out"] > 0
    assert record["gates"]["map"] > record["gates"]["base_map"]
    assert record["gates"]["loss"] < record["gates"]["base_loss"]
    assert len(record["data_sha256"]) == 64 and record["recipe"]["batch_size"] == 8
    assert "held-out MAP@25" in proc.stdout
    model = out / "model"
    assert (model / "onnx" / "model.onnx").is_file()
    assert (model / "onnx" / "model_qint8.onnx").is_file()
    # The stored vectors are this model's, keyed by its fingerprint, and equal a fresh embed.
    texts = list(read_misconceptions(EEDI / "misconception_mapping.csv").values())
    stored = StoredVectors.read(out / "embeddings")
    assert stored is not None and stored.fingerprint == record["fingerprint"]
    assert model_fingerprint(str(model)) == record["fingerprint"]
    found = stored.lookup(texts[:5], record["fingerprint"])
    fresh = SentenceTransformerEmbedder(str(model)).embed(texts[:5])
    assert sorted(found) == list(range(5))
    assert np.allclose(np.stack([found[i] for i in range(5)]), fresh, atol=2e-3)


def test_train_embedder_refuses_a_model_that_learnt_nothing(  # type: ignore[no-untyped-def]
    run_cli, tmp_path: Path
) -> None:
    out = tmp_path / "embedder"
    proc = train(run_cli, out, "1e-12")
    assert proc.returncode == 2, proc.stderr
    assert "training refused to write the embedder" in proc.stderr
    assert "Traceback" not in proc.stderr and not out.exists()


def test_train_embedder_refuses_a_fold_that_does_not_exist(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    for value in ("5/5", "a/5", "0"):
        proc = run_cli(
            "train-embedder", "--train", str(EEDI / "train.csv"), "--out", str(tmp_path / "x"),
            "--leave-out", value,
        )  # fmt: skip
        assert proc.returncode == 2 and "K/N with 0 <= K < N" in proc.stderr, proc.stderr
        assert not (tmp_path / "x").exists()
